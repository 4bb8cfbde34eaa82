"""The ``littlestone`` command line (typer): ldim, tree, play, learn, predict, bounds, audit, experiment, demo."""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point (``littlestone --version`` answers without loading the commands)."""
    if sys.argv[1:] == ["--version"]:
        from .. import __version__

        print(f"littlestone {__version__}")
        return
    from .main import main as run

    run()


def __getattr__(name: str) -> Any:
    if name == "app":
        from .main import app

        return app
    raise AttributeError(f"module 'littlestone.cli' has no attribute {name!r}")
