"""The result of a private histogram: a read-only mapping item -> noisy count of the released items."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Mapping
import copy
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import EmptyDataError, PrivacyParameterError
from .mechanism import Mechanism, PrivacyClaim, floating_point_safe


@dataclass(frozen=True)
class HistogramRelease(Mapping):
    """Released items with their noisy counts; items not in the mapping were suppressed (count read as 0).

    ``epsilon``/``delta`` are what this release spent (``delta`` derived exactly for the noise actually used, see
    the mechanism), ``requested_delta`` what the caller asked for; ``threshold`` τ: an item is released iff its
    noisy count exceeds τ; ``error_bound`` is a deterministic bound on |released - true| (bounded histogram only).

    A release carries nothing its claim does not cover (issue 9 items 3–4): no dataset size (``n`` is the PUBLIC
    size the caller passed to the mechanism, or None — never the exact size of the data, which add/remove neighbours
    would reveal), keys in a canonical order (by type, then value) and as canonical objects (1.0 and 1 are both
    released as 1), never in the data's first-seen order; ties in :meth:`most_common` follow that canonical order.
    """

    counts: dict[Hashable, float]
    threshold: float
    noise_scale: float
    epsilon: float
    delta: float
    n: int | None
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

    def frequencies(self, n: int | None = None) -> dict[Hashable, float]:
        """Released items -> estimated frequency noisy/n clipped to [0, 1] (BLM20 Lemma 15's estimates a_x), for a
        PUBLIC n (argument, else the n given to the mechanism); the release never holds the data's exact size."""
        size = self.n if n is None else n
        if size is None or isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
            raise PrivacyParameterError(
                "frequencies() needs the public dataset size n (an integer >= 1): pass it here or to the mechanism; "
                "the release does not hold the exact size of the private data"
            )
        return {k: min(max(float(v) / int(size), 0.0), 1.0) for k, v in self.counts.items()}

    def most_common(self, k: int | None = None) -> list[tuple[Hashable, float]]:
        """Released items by decreasing noisy count (ties: canonical key order, independent of the data)."""
        ranked = sorted(self.counts.items(), key=lambda kv: -kv[1])
        return ranked if k is None else ranked[:k]

    def __repr__(self) -> str:
        return (
            f"HistogramRelease({len(self.counts)} of the items released, public n={self.n}, epsilon={self.epsilon:g}, "
            f"delta={self.delta:.3g}, threshold={self.threshold:.4g}, noise={self.noise}(scale={self.noise_scale:.4g}), "
            f"backend={self.backend})"
        )


def canonical_key(item: Any) -> Any:
    """The canonical object of an item: NumPy scalars as Python scalars, integral floats (and bools) as ints, tuples
    element-wise — so that equal items give one key object whatever object the data showed first."""
    if isinstance(item, np.generic):
        item = item.item()
    if isinstance(item, bool):
        return int(item)
    if isinstance(item, float) and item.is_integer():
        return int(item)
    if isinstance(item, tuple):
        return tuple(canonical_key(v) for v in item)
    return item


def _order_key(item: Any) -> tuple:
    # numbers first (ints and floats compare with each other), then by type name; within a type by value
    return (0, "") if isinstance(item, (int, float)) else (1, f"{type(item).__module__}.{type(item).__qualname__}")


def canonical_order(keys: Iterable[Hashable]) -> list[Hashable]:
    """Keys sorted by (kind, value), or by repr where values of one type do not compare — a data-independent order."""
    keys = list(keys)
    try:
        return sorted(keys, key=lambda k: (_order_key(k), k))
    except TypeError:
        return sorted(keys, key=lambda k: (_order_key(k), repr(k)))


def count_items(items: Iterable[Hashable] | np.ndarray) -> tuple[list[Hashable], np.ndarray, int]:
    """Distinct items as canonical key objects in canonical order (:func:`canonical_order`), their counts, and the
    number of items (for the mechanism's own use; it is never released)."""
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
            raise PrivacyParameterError(
                "histogram items contain NaN (NaN is not equal to itself, so it cannot be counted)"
            )
    canon: Counter = Counter()
    for key, c in counter.items():
        canon[canonical_key(key)] += c
    keys = canonical_order(canon.keys())
    counter = canon
    return keys, np.fromiter((counter[k] for k in keys), dtype=np.int64, count=len(keys)), len(seq)


def _public_n(n: Any) -> int | None:
    """The public size a caller passes to a histogram mechanism (checked), or None."""
    if n is None:
        return None
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise PrivacyParameterError(f"n (the public dataset size) must be an integer >= 1 or None, got {n!r}")
    return int(n)


def release_above(
    keys: list[Hashable], noisy: np.ndarray, threshold: float, *, discrete: bool, **fields: Any
) -> HistogramRelease:
    """The release of the items whose noisy count exceeds ``threshold`` (ints for discrete noise, floats otherwise)."""
    keep = np.flatnonzero(noisy > threshold)
    released = {keys[i]: (int(noisy[i]) if discrete else float(noisy[i])) for i in keep}
    return HistogramRelease(counts=released, threshold=threshold, **fields)


class HistogramMechanism(Mechanism):
    """What the histogram mechanisms share: the noise is discrete or continuous (``discrete=None``: the backend
    decides, discrete on a floating-point-safe one) and the exact δ depends on it. ``_exact`` maps each variant to
    (its threshold or bound, its exact δ); :meth:`privacy` claims the larger δ of the variants still possible and
    :meth:`resolve` fixes the variant for a backend."""

    epsilon: float
    discrete: bool | None
    relation: str = "replace-one"
    _exact: dict[bool, tuple[float, float]]

    def _variants(self) -> tuple[bool, ...]:
        return (True, False) if self.discrete is None else (self.discrete,)

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, max(self._exact[v][1] for v in self._variants()), self.relation, self.name)

    def resolve(self, backend: Any) -> "HistogramMechanism":
        if self.discrete is not None:
            return self
        out = copy.copy(self)
        out.discrete = floating_point_safe(backend)
        return out
