"""Calibration checks for the tests of private learners (issue 19 item 5): a seeded backend that records every
noise draw (which sampler, at which scale, how many values), so a test can recompute each noise scale from the
claimed (ε, δ) and the sensitivity and count the draws a claim composes — halving a scale, dropping a draw or adding
one then turns the test red."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from ..privacy.backends import SeededBackend


def _count(size: Any) -> int:
    if size is None:
        return 1
    return int(np.prod(size)) if isinstance(size, tuple) else int(size)


class RecordingBackend(SeededBackend):
    """A :class:`~littlestone.privacy.SeededBackend` that logs ``(sampler, scale, values)`` for every draw of
    ``laplace``, ``discrete_laplace``, ``gumbel`` and ``noisy_argmax`` (``add_*`` log through the sampler they use),
    and ``("uniform", None, values)`` for uniforms (the inverse-CDF draws of the exponential mechanism)."""

    def __init__(self, seed: Any = None):
        super().__init__(seed)
        self.log: list[tuple[str, float | None, int]] = []

    def laplace(self, scale: float, size: Any = None) -> Any:
        self.log.append(("laplace", float(scale), _count(size)))
        return super().laplace(scale, size)

    def discrete_laplace(self, scale: float, size: Any = None) -> Any:
        self.log.append(("discrete_laplace", float(scale), _count(size)))
        return super().discrete_laplace(scale, size)

    def gumbel(self, scale: float, size: Any = None) -> Any:
        self.log.append(("gumbel", float(scale), _count(size)))
        return super().gumbel(scale, size)

    def noisy_argmax(self, scores: Any, scale: float, noise: Any = "gumbel") -> int:
        self.log.append((f"noisy_argmax:{noise}", float(scale), int(np.size(scores))))
        return super().noisy_argmax(scores, scale, noise)

    def uniform(self, size: Any = None) -> Any:
        self.log.append(("uniform", None, _count(size)))
        return super().uniform(size)

    # ------------------------------------------------------------------ summaries
    def calls(self, sampler: str) -> list[tuple[float | None, int]]:
        """(scale, values) of every call of ``sampler``."""
        return [(s, n) for k, s, n in self.log if k == sampler]

    def scales(self, sampler: str | None = None) -> Counter:
        """How many calls drew at each scale (of ``sampler``, or of every noise sampler)."""
        return Counter(s for k, s, _ in self.log if (k == sampler if sampler else k != "uniform"))

    def values(self, sampler: str) -> int:
        """How many noise values ``sampler`` drew in all."""
        return sum(n for k, _, n in self.log if k == sampler)
