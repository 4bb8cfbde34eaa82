"""Shared pieces of the GGKM21 experiments: ReduceTree runs over many independent datasets."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.finite import FiniteClass
from ..pac.polyprilearn import DatasetRun, map_datasets, run_dataset
from ..pac.reduce_tree import ReduceTreeSchedule
from ..pac.sources import RealizableStream


def intervals_class(K: int) -> FiniteClass:
    """Intervals [a, b] on K points plus the empty set (Ldim ⌊log2(K+1)⌋ … a richer tree than thresholds)."""
    rows = [[int(a <= x <= b) for x in range(K)] for a in range(K) for b in range(a, K)] + [[0] * K]
    return FiniteClass(rows, name=f"intervals({K})")


def reduce_tree_runs(
    H: FiniteClass, target: Any, sampler: Any, n: int, runs: int, schedule: ReduceTreeSchedule, seed: Any, jobs: int
) -> list[DatasetRun]:
    """ReduceTree on ``runs`` disjoint realizable datasets of n examples (streamed; parallel; seed-determined)."""
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    s = int(ss.generate_state(1)[0])
    src = RealizableStream(target, sampler, n * runs, seed=s)
    tasks = [(H, src, i * n, (i + 1) * n, schedule) for i in range(runs)]
    return map_datasets(run_dataset, tasks, n_jobs=jobs)
