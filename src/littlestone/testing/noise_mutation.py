"""A runtime mutation of the seeded backend's noise calls, for learner-level privacy tests (issue 34 item 4).

:func:`noise_under` patches :class:`~littlestone.privacy.SeededBackend`'s samplers so that every noise draw made
while code of one of the given modules is on the call stack (a learner's module: its AboveThreshold, its sign, its
selection all draw from the backend while the learner's method calls them) is drawn at ``factor`` × the requested
scale, and logs the scale actually drawn with the sampler's name. ``factor=1`` only records (the learner's noise
scales, to check against its claim); ``factor=0.5`` is the mutation "halve the noise this learner draws", which a
learner's own tests must notice::

    with noise_under("littlestone.private_online.bisect_at", factor=0.5) as log:
        ...                       # run BisectAT: its AboveThreshold and sign noise are halved
    assert log.hits               # the mutation fired (else a test passing under it proves nothing)

Calls nest (``discrete_laplace_at_least`` calls ``discrete_laplace``; ``add_laplace`` calls ``laplace``): only the
outermost call is scaled and logged. ``noisy_argmax``'s scale is its noise scale (exponential and report-noisy-max
mechanisms); the inverse-CDF uniforms of a vectorised exponential mechanism are not noise scales and are left alone.
"""

from __future__ import annotations

import sys
import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from ..privacy.backends import SeededBackend

#: sampler name -> position of ``scale`` among the method's arguments after ``self``
NOISE_METHODS = {
    "laplace": 0,
    "discrete_laplace": 0,
    "discrete_laplace_at_least": 0,
    "gumbel": 0,
    "noisy_argmax": 1,
    "add_laplace": 1,
    "add_discrete_laplace": 1,
}


@dataclass
class NoiseLog:
    """What the patched samplers saw under the watched modules: ``draws`` = (sampler, scale drawn, values) per call."""

    modules: tuple[str, ...]
    factor: float
    draws: list[tuple[str, float, int]] = field(default_factory=list)
    #: calls outside the watched modules (not scaled)
    outside: int = 0

    @property
    def hits(self) -> int:
        """Calls scaled (made with a watched module on the stack)."""
        return len(self.draws)

    def scales(self, sampler: str | None = None) -> Counter:
        """How many calls drew at each scale (of ``sampler``, or of every sampler)."""
        return Counter(s for k, s, _ in self.draws if sampler is None or k == sampler)


def _size(args: tuple, kwargs: dict, name: str) -> int:
    import numpy as np

    if name.startswith("add_"):
        values = args[0] if args else kwargs.get("values")
        return int(np.size(values))
    if name == "noisy_argmax":
        scores = args[0] if args else kwargs.get("scores")
        return int(np.size(scores))
    size = args[1] if len(args) > 1 else kwargs.get("size")
    if size is None:
        return 1
    return int(np.prod(size)) if isinstance(size, tuple) else int(size)


def _on_stack(modules: tuple[str, ...], depth: int = 2) -> bool:
    frame: Any = sys._getframe(depth)
    while frame is not None:
        if frame.f_globals.get("__name__") in modules:
            return True
        frame = frame.f_back
    return False


#: the contexts active now (nested ones compose: their factors multiply), and the samplers they replaced
_ACTIVE: list[NoiseLog] = []
_SAVED: dict[str, Any] = {}
_LOCAL = threading.local()


def _patched(name: str, pos: int, original: Any) -> Any:
    def patched(self: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(_LOCAL, "inside", False):
            return original(self, *args, **kwargs)
        watching = [log for log in _ACTIVE if _on_stack(log.modules)]
        for log in _ACTIVE:
            if log not in watching:
                log.outside += 1
        if not watching:
            return original(self, *args, **kwargs)
        factor = 1.0
        for log in watching:
            factor *= log.factor
        args_l = list(args)
        if pos < len(args_l):
            args_l[pos] = args_l[pos] * factor
            scale = args_l[pos]
        else:
            kwargs["scale"] = kwargs["scale"] * factor
            scale = kwargs["scale"]
        n = _size(tuple(args_l), kwargs, name)
        for log in watching:  # every context logs the scale actually drawn
            log.draws.append((name, float(scale), n))
        _LOCAL.inside = True
        try:
            return original(self, *args_l, **kwargs)
        finally:
            _LOCAL.inside = False

    patched.__name__ = name
    return patched


@contextmanager
def noise_under(modules: str | Iterable[str], factor: float = 1.0) -> Iterator[NoiseLog]:
    """While active, every :class:`SeededBackend` noise call made with code of ``modules`` (module names, e.g.
    ``"littlestone.private_online.list_at"``) on the stack draws at ``factor`` × its scale; yields the
    :class:`NoiseLog` of the scales drawn. Contexts nest (factors multiply; each logs the scale actually drawn).
    The samplers are restored when the last context exits."""
    mods = (modules,) if isinstance(modules, str) else tuple(modules)
    log = NoiseLog(mods, float(factor))
    if not _ACTIVE:
        for name, pos in NOISE_METHODS.items():
            _SAVED[name] = SeededBackend.__dict__.get(name)
            setattr(SeededBackend, name, _patched(name, pos, getattr(SeededBackend, name)))
    _ACTIVE.append(log)
    try:
        yield log
    finally:
        _ACTIVE.remove(log)
        if not _ACTIVE:
            for name, method in _SAVED.items():
                if method is None:
                    delattr(SeededBackend, name)
                else:
                    setattr(SeededBackend, name, method)
            _SAVED.clear()


__all__ = ["NOISE_METHODS", "NoiseLog", "noise_under"]
