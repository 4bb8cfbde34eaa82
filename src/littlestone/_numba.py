"""Numba compilation with an on-disk cache when one can be kept, and without it otherwise.

``numba.njit(cache=True)`` raises at decoration time (so at import) when no cache directory is usable — e.g. a
read-only installation run by a user without a writable home (``littlestone --version`` crashed there). The
functions then compile on first use in every process instead: slower to start, same results."""

from __future__ import annotations

from functools import cache
from typing import Any, Callable


def njit_cached(fn: Callable[..., Any]) -> Any:
    """``numba.njit(cache=True)(fn)``, or ``numba.njit(fn)`` when numba finds nowhere to keep its cache."""
    from numba import njit

    try:
        return njit(cache=True)(fn)
    except (RuntimeError, OSError):  # "cannot cache function ...: no locator available", or an unwritable dir
        return njit(fn)


def compile_on_first_use(fn: Callable[..., Any]) -> Callable[[], Any]:
    """A getter of ``fn`` compiled by :func:`njit_cached`, compiling at its first call — so numba is imported when a
    kernel first runs, not with the package."""

    @cache
    def compiled() -> Any:
        return njit_cached(fn)

    compiled.__doc__ = f":func:`{fn.__name__}` compiled by Numba on first use."
    return compiled
