"""How long a batch of audits will take: the cost model of :mod:`.costs` (setup + seconds per run, measured by
benchmarks/measure_audit_costs.py) times the runs asked for, before anything runs; then, as audits finish, the rest
rescaled by how much longer (or shorter) the finished ones took than the model said — the machine and its load are
not the ones the model was measured on."""

from __future__ import annotations

import os
import statistics
from typing import Sequence

from .costs import COSTS, MACHINE


def _cost(name: str) -> tuple[float, float]:
    if name in COSTS:
        return COSTS[name]
    setups, per_run = zip(*COSTS.values()) if COSTS else ((0.1,), (1e-3,))
    return statistics.median(setups), statistics.median(per_run)  # an audit the model has not seen yet


def expected_seconds(name: str, runs: int, jobs: int = 1) -> float:
    """The model's seconds for one audit at ``runs`` runs with ``jobs`` workers (the runs split across them)."""
    setup, per_run = _cost(name)
    workers = max(1, min(int(jobs), os.cpu_count() or 1))
    return setup + per_run * runs / workers


def duration_text(seconds: float) -> str:
    """'40 s', '7 min', '1 h 05 min'."""
    s = max(0.0, float(seconds))
    if s < 90:
        return f"{max(1, round(s))} s"
    if s < 3600:
        return f"{round(s / 60)} min"
    h, m = divmod(round(s / 60), 60)
    return f"{h} h {m:02d} min"


class Estimate:
    """Expected seconds per audit, and the remaining time as they finish: the model's remaining seconds times
    (seconds the finished audits took) / (seconds the model gave them)."""

    def __init__(self, names: Sequence[str], runs: Sequence[int], jobs: int = 1):
        self.expected = [expected_seconds(n, r, jobs) for n, r in zip(names, runs)]
        self.done = 0
        self.took = 0.0

    @property
    def total(self) -> float:
        return sum(self.expected)

    def finished(self, seconds: float) -> None:
        """The next audit finished after ``seconds``."""
        self.took += float(seconds)
        self.done += 1

    def remaining(self) -> float:
        modelled = sum(self.expected[: self.done])
        scale = self.took / modelled if self.done and modelled > 0 else 1.0
        return scale * sum(self.expected[self.done :])

    def announcement(self, n: int) -> str:
        return (
            f"{n} audit{'s' if n != 1 else ''}, expected ≈ {duration_text(self.total)} (cost model measured on "
            f"{MACHINE}; rescaled as the audits run)"
        )
