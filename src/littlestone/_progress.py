"""Progress reporting from long computations to whoever is listening (the CLI's rich bars), without threading a
callback through every signature: library code calls :func:`report`; a caller installs a listener with
:func:`listening`. Reports come only from the calling process (joblib workers report through their results).
Display threads are started inside :func:`sigint_blocked`, so Ctrl-C always reaches the main thread."""

from __future__ import annotations

import contextlib
import signal
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


@contextlib.contextmanager
def sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in the calling thread for the block (a signal arriving meanwhile waits, then is delivered). A
    thread started inside inherits the blocked mask, so Ctrl-C always lands in the main thread: delivered to a
    display thread, it would not wake a main thread blocked in a system call (issue 26 item 5)."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


Noter = Callable[[str], None]
_noter: ContextVar[Noter | None] = ContextVar("littlestone_notes", default=None)


def note(message: str) -> None:
    """A one-line message for the user (e.g. "resumed: 3 of 5 chunks read from DIR"): to the note listener installed
    with :func:`noting` (the CLI prints it), else to the ``littlestone`` logger at INFO level."""
    listener = _noter.get()
    if listener is not None:
        listener(str(message))
    else:
        import logging

        logging.getLogger("littlestone").info("%s", message)


@contextlib.contextmanager
def noting(listener: Noter | None) -> Iterator[None]:
    """Send every :func:`note` made inside the block to ``listener(message)`` (None: to the logger)."""
    token = _noter.set(listener)
    try:
        yield
    finally:
        _noter.reset(token)
