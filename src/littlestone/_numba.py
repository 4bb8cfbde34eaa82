"""Numba compilation with an on-disk cache when one can be kept, and without it otherwise.

``numba.njit(cache=True)`` raises at decoration time (so at import) when no cache directory is usable — e.g. a
read-only installation run by a user without a writable home (``littlestone --version`` crashed there). The
functions then compile on first use in every process instead: slower to start, same results."""

from __future__ import annotations

from typing import Any, Callable


def njit_cached(fn: Callable[..., Any]) -> Any:
    """``numba.njit(cache=True)(fn)``, or ``numba.njit(fn)`` when numba finds nowhere to keep its cache."""
    from numba import njit

    try:
        return njit(cache=True)(fn)
    except (RuntimeError, OSError):  # "cannot cache function ...: no locator available", or an unwritable dir
        return njit(fn)
