"""Progress reporting from long computations to whoever is listening (the CLI's rich bars), without threading a
callback through every signature: library code calls :func:`report`; a caller installs a listener with
:func:`listening`. Reports come only from the calling process (joblib workers report through their results).
Display threads are started inside :func:`sigint_blocked`, so Ctrl-C always reaches the main thread.

Ctrl-C is also remembered (:func:`on_sigint`, the CLI's SIGINT handler, sets a flag before it raises
KeyboardInterrupt): Python drops an exception raised while a ``__del__`` or a weakref callback runs ("Exception
ignored in …"), so the interrupt could be lost there. :func:`report` — called by the main loop between units of work
— and :func:`check_interrupt` raise KeyboardInterrupt again while the flag is set."""

from __future__ import annotations

import contextlib
import signal
import threading
from contextvars import ContextVar
from typing import Any, Callable, Iterator

Listener = Callable[[str, int, int], None]
_listener: ContextVar[Listener | None] = ContextVar("littlestone_progress", default=None)


_interrupted = threading.Event()


def on_sigint(signum: int, frame: Any) -> None:
    """SIGINT handler: remember the interrupt, then raise KeyboardInterrupt (raised inside a ``__del__`` or weakref
    callback it is dropped by Python; the flag is not: the next :func:`report` or :func:`check_interrupt` raises)."""
    _interrupted.set()
    raise KeyboardInterrupt


def interrupted() -> bool:
    """Whether Ctrl-C arrived since :func:`clear_interrupt`."""
    return _interrupted.is_set()


def clear_interrupt() -> None:
    """Forget an earlier interrupt (a new command starts)."""
    _interrupted.clear()


def check_interrupt() -> None:
    """Raise KeyboardInterrupt if Ctrl-C arrived (the main loop's check between units of work)."""
    if _interrupted.is_set():
        raise KeyboardInterrupt


def report(stage: str, done: int, total: int) -> None:
    """Tell the listener (if any) that ``done`` of ``total`` steps of ``stage`` are finished; raises
    KeyboardInterrupt first if Ctrl-C arrived (:func:`check_interrupt`)."""
    check_interrupt()
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
