"""Algorithm G, the globally-stable learner of Littlestone classes (BLM20 §IV-C2, Theorem 10), and parallel runs.

G(S): n = ⌈d/α⌉, N = 8^{d+1}·n, k uniform in {0,…,d}; draw S' ∼ D̃_k from the batch (in order), then T ∼ D^n
(the next n examples) and output SOA(S'∘T), or Fail if D̃_k needed more than N examples.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Sequence

import numpy as np

from .._random import SeedLike, as_generator
from ..bounds.blm20 import aux_size, sample_cap, stability
from ..classes.base import HypothesisClass, VersionSpace
from ..errors import LittlestoneError
from ..parallel import map_seeded
from ..privacy.partition import PartReader
from .sources import ArraySource, Cursor, ExampleSource, SampleCapExceeded
from .tournament import FAIL, sample_tournament


@dataclass(frozen=True)
class GRun:
    """One run of G: its output (a hypothesis or FAIL), the drawn depth k and how many examples it read."""

    output: Any
    k: int
    examples_read: int

    @property
    def failed(self) -> bool:
        return self.output is FAIL


class GlobalStableLearner:
    """Algorithm G of BLM20 Theorem 10 for a class of Littlestone dimension d (defaults: the theorem's n, N).

    ``n`` (auxiliary size) and ``cap`` (N) may be overridden; ``depth`` fixes k instead of drawing it.
    """

    def __init__(
        self,
        hclass: HypothesisClass,
        alpha: float,
        *,
        d: int | None = None,
        n: int | None = None,
        cap: int | None = None,
    ):
        self.hclass = hclass
        if d is not None and (isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1):
            raise LittlestoneError(
                f"d (the Littlestone dimension used for G's sizes) must be an integer ≥ 1, got {d!r}"
            )
        self.d = int(hclass.ldim() if d is None else d)
        if self.d < 1:
            raise LittlestoneError(
                f"{hclass.name} has Littlestone dimension {self.d}; G needs d ≥ 1 "
                "(a class with d = 0 is a single function)"
            )
        self.alpha = float(alpha)
        self.n = aux_size(self.d, alpha) if n is None else int(n)
        self.cap = sample_cap(self.d, self.n) if cap is None else int(cap)
        if self.n < 1 or self.cap < 0:
            raise LittlestoneError(f"need n ≥ 1 and cap ≥ 0, got n={self.n}, cap={self.cap}")
        self.eta = stability(self.d)
        self._V: VersionSpace = hclass.version_space()

    @property
    def m(self) -> int:
        """Sample size m = N + n (BLM20 Theorem 10)."""
        return self.cap + self.n

    def run(self, source: ExampleSource, start: int, stop: int, seed: SeedLike, *, depth: int | None = None) -> GRun:
        """G on the batch source[start:stop], read in order (BLM20 §IV-C2, Algorithm G)."""
        rng = as_generator(seed)
        k = int(rng.integers(0, self.d + 1)) if depth is None else int(depth)  # step 2: k ∼ U{0..d}
        cursor = Cursor(source, start, stop, cap=self.cap)
        try:
            S = sample_tournament(self.hclass, cursor, k, self.n, rng, V=self._V)  # S ∼ D̃_k (cap N)
            cursor.cap = None
            a = cursor.position
            X, y = cursor.take(self.n)  # T ∼ D^n
        except SampleCapExceeded:
            return GRun(FAIL, k, cursor.used)
        return GRun(S.then(X, y, a, a + self.n).state.hypothesis(), k, cursor.used)  # step 3: SOA(S∘T)

    def __call__(self, X: Any, y: Any, seed: SeedLike = None, *, depth: int | None = None) -> GRun:
        """G on an in-memory sample (validated points, 0/1 labels)."""
        return self.run(ArraySource(X, y), 0, len(y), seed, depth=depth)


def _run_one(
    learner: GlobalStableLearner,
    source: ExampleSource | None,
    depth: int | None,
    batch: tuple[int, int] | PartReader,
    seed: np.random.SeedSequence,
) -> GRun:
    if isinstance(batch, PartReader):  # a part of a learner's DataSplit: G reads it through its reader only
        return learner.run(batch, batch.start, batch.stop, seed, depth=depth)
    if source is None:
        raise LittlestoneError("run_batches: (start, stop) batches need the source they are ranges of")
    return learner.run(source, batch[0], batch[1], seed, depth=depth)


def run_batches(
    learner: GlobalStableLearner,
    source: ExampleSource | None,
    batches: Sequence[tuple[int, int]] | Sequence[PartReader],
    seed: SeedLike,
    *,
    n_jobs: int = 1,
    depth: int | None = None,
    cluster: Any = None,
) -> list[GRun]:
    """G on each (disjoint) batch — (start, stop) ranges of ``source``, or the readers of a learner's
    :class:`~littlestone.privacy.DataSplit` parts (``source`` unused) — with independent seeds spawned from ``seed``
    by batch index: identical results for any n_jobs or backend (:func:`littlestone.parallel.map_seeded`; ``cluster`` names a Dask cluster). ``depth`` fixes
    k (analysis of D̃_k); by default each run draws k uniformly. Reports progress ("G runs")."""
    return map_seeded(
        partial(_run_one, learner, source, depth),
        list(batches),
        seed=seed,
        n_jobs=n_jobs,
        cluster=cluster,
        progress="G runs",
    )
