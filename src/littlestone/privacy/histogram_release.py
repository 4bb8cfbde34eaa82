"""The result of a private histogram: a read-only mapping item -> noisy count of the released items."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import EmptyDataError, PrivacyParameterError


@dataclass(frozen=True)
class HistogramRelease(Mapping):
    """Released items with their noisy counts; items not in the mapping were suppressed (count read as 0).

    ``epsilon``/``delta`` are what this release spent (``delta`` derived exactly for the noise actually used, see
    the mechanism), ``requested_delta`` what the caller asked for; ``threshold`` τ: an item is released iff its
    noisy count exceeds τ; ``error_bound`` is a deterministic bound on |released - true| (bounded histogram only).
    """

    counts: dict[Hashable, float]
    threshold: float
    noise_scale: float
    epsilon: float
    delta: float
    n: int
    requested_delta: float
    noise: str
    backend: str
    error_bound: float | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, item: Hashable) -> float:
        return self.counts[item]

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.counts)

    def __len__(self) -> int:
        return len(self.counts)

    @property
    def spent(self) -> tuple[float, float]:
        """(ε, δ) this release spent."""
        return (self.epsilon, self.delta)

    def estimate(self, item: Hashable) -> float:
        """Noisy count of ``item``, 0 if it was not released."""
        return self.counts.get(item, 0.0)

    def frequencies(self) -> dict[Hashable, float]:
        """Released items -> estimated frequency noisy/n clipped to [0, 1] (BLM20 Lemma 15's estimates a_x)."""
        return {k: min(max(float(v) / self.n, 0.0), 1.0) for k, v in self.counts.items()}

    def most_common(self, k: int | None = None) -> list[tuple[Hashable, float]]:
        """Released items by decreasing noisy count (ties: first seen first)."""
        ranked = sorted(self.counts.items(), key=lambda kv: -kv[1])
        return ranked if k is None else ranked[:k]

    def __repr__(self) -> str:
        return (
            f"HistogramRelease({len(self.counts)} of the items released, n={self.n}, epsilon={self.epsilon:g}, "
            f"delta={self.delta:.3g}, threshold={self.threshold:.4g}, noise={self.noise}(scale={self.noise_scale:.4g}), "
            f"backend={self.backend})"
        )


def count_items(items: Iterable[Hashable] | np.ndarray) -> tuple[list[Hashable], np.ndarray, int]:
    """Distinct items (in order of first appearance), their counts, and n = number of items."""
    if isinstance(items, np.ndarray):
        if items.ndim == 2:
            seq: list[Any] = [tuple(row) for row in items.tolist()]
        else:
            seq = items.ravel().tolist()
    else:
        seq = list(items)
    if not seq:
        raise EmptyDataError("histogram of an empty dataset: at least one item is needed")
    try:
        counter = Counter(seq)
    except TypeError as exc:
        raise PrivacyParameterError(f"histogram items must be hashable: {exc}") from None
    for key in counter:
        if isinstance(key, float) and key != key:
            raise PrivacyParameterError("histogram items contain NaN (NaN is not equal to itself, so it cannot be counted)")
    keys = list(counter.keys())
    return keys, np.fromiter((counter[k] for k in keys), dtype=np.int64, count=len(keys)), len(seq)
