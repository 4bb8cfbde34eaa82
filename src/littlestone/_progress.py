"""Progress reporting from long computations to whoever is listening (the CLI's rich bars), without threading a
callback through every signature: library code calls :func:`report`; a caller installs a listener with
:func:`listening`. Reports come only from the calling process (joblib workers report through their results)."""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from typing import Callable, Iterator

Listener = Callable[[str, int, int], None]
_listener: ContextVar[Listener | None] = ContextVar("littlestone_progress", default=None)


def report(stage: str, done: int, total: int) -> None:
    """Tell the listener (if any) that ``done`` of ``total`` steps of ``stage`` are finished."""
    listener = _listener.get()
    if listener is not None:
        listener(stage, int(done), int(total))


def active() -> bool:
    """Whether anybody listens (computations may then split their work more finely)."""
    return _listener.get() is not None


@contextlib.contextmanager
def listening(listener: Listener | None) -> Iterator[None]:
    """Send every :func:`report` made inside the block to ``listener(stage, done, total)`` (None: to nobody)."""
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)
