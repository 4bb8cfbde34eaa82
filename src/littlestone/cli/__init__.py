"""The ``littlestone`` command line (typer): ldim, tree, play, learn, predict, bounds, audit, experiment, demo."""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import Any

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point (``littlestone --version`` answers without loading the commands)."""
    if sys.argv[1:] == ["--version"]:
        from .. import __version__

        print(f"littlestone {__version__}")
        return
    from .main import main as run

    try:
        run()
    except SystemExit as e:
        _finish(e.code)
    _finish(0)


def _finish(code: Any) -> None:
    """Leave the finished command without the interpreter's teardown.

    When the command is over its outputs are written and closed (every output is written atomically), yet a normal
    interpreter exit would then spend 0.1–0.4 s tearing down what the command loaded — scikit-learn, matplotlib,
    Numba and LLVM — one object at a time: as long as a two-worker run's whole parallel part on small jobs. So this
    runs what a normal exit runs that has an effect outside the process — the ``atexit`` handlers (the parallel
    runner's and Dask's clean-up, logging's flush) and the flush of the standard streams — and then ends the process
    with ``os._exit``. With another thread still running (which a normal exit would wait for) it exits normally."""
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message"): printed, status 1 (as the interpreter does)
        print(code, file=sys.stderr)
        code = 1
    if threading.active_count() > 1:
        sys.exit(code)
    atexit._run_exitfuncs()  # CPython's hook for exactly this (multiprocessing's children use os._exit the same way)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (e.g. `| head`) or a closed stream: nothing left to deliver
            pass
    os._exit(code)


def __getattr__(name: str) -> Any:
    if name == "app":
        from .main import app

        return app
    raise AttributeError(f"module 'littlestone.cli' has no attribute {name!r}")
