"""Audit of reads bound to the declared split (issue 26 item 3) and its broken twin.

A learner's claim is computed by :class:`~littlestone.privacy.DataSplit` from the parts it declares: with disjoint
parts fed to different steps the steps compose in parallel. The claim is only true if every step reads only its part.
The honest mechanism is a two-step learner on a split of n records: step A releases the Laplace count (ε) of part A
(the first half), step B the Laplace count (ε) of part B (the second half), each reading its part through
:meth:`DataSplit.reader <littlestone.privacy.DataSplit.reader>`; its claim is the split's composition, ε (parallel).
The twin's step B also reads the last record of A — the leak class of issue 26 hole 4 (PolyPriLearn's dataset i
reading one record of dataset i + 1). It cannot do that through its reader (the split refuses), so it reads the raw
data, as the old learners could; its claim, computed from the declared parts, is unchanged. That record then feeds
both steps: on neighbours differing in it both counts move, and the event "both counts ≥ t" (the feature: their
minimum) has likelihood ratio up to e^{2ε} — the auditor certifies ε_lb > ε.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..privacy import LaplaceMechanism, Mechanism, PrivacyClaim
from ..privacy.partition import DataSplit, Part
from .builtin import BuiltinAudit, CountLaplace

STEP_A, STEP_B = "count of part A", "count of part B"


class SplitCounts(Mechanism):
    """Two Laplace counts (ε each) on the two halves of a 0/1 dataset of ``n`` records, declared as a DataSplit and
    read through its readers; output (count A, count B). Claim: the split's composition (parallel: ε)."""

    name = "two counts on a declared data split"

    def __init__(self, epsilon: float, n: int):
        self.epsilon, self.n = float(epsilon), int(n)
        self.count = CountLaplace(self.epsilon)

    def split(self, data: Any = None) -> tuple[DataSplit, Part, Part]:
        from ..pac.sources import ArraySource

        records = None if data is None else np.asarray(data, dtype=np.int8)
        source = None if records is None else ArraySource(records, np.zeros(len(records), np.int8))
        split = DataSplit(self.n, "audited sample", source=source)
        A = split.feed(split.block(self.n // 2, "A"), STEP_A)
        B = split.feed(split.block(self.n - self.n // 2, "B"), STEP_B)
        return split, A, B

    def privacy(self) -> PrivacyClaim:
        split, _, _ = self.split()
        step = LaplaceMechanism(self.epsilon, sensitivity=1.0)
        return split.compose({STEP_A: step, STEP_B: step}, what=self.name)

    def __call__(self, data: Any, *, backend: Any) -> tuple[float, float]:
        split, A, B = self.split(data)
        XA, _ = split.reader(A, STEP_A).read()
        XB, _ = split.reader(B, STEP_B).read()
        return self.count(XA, backend=backend), self.count(XB, backend=backend)


class StepReadsNeighbourRecord(SplitCounts):
    """BROKEN (issue 26 hole 4): step B reads B and the last record of A (one record of another part), from the raw
    data — its reader would refuse; the claim is still composed from the declared parts (ε)."""

    def __call__(self, data: Any, *, backend: Any) -> tuple[float, float]:
        split, A, _ = self.split(data)
        XA, _ = split.reader(A, STEP_A).read()
        records = np.asarray(data, dtype=np.int8)
        return self.count(XA, backend=backend), self.count(records[A.stop - 1 :], backend=backend)


def both_counts(output: tuple[float, float]) -> float:
    """min(count A, count B): its half-lines are the events "both counts ≥ t"."""
    return min(output)


def split_read_audits() -> list[tuple[BuiltinAudit, list[BuiltinAudit]]]:
    """(honest audit, its broken twins) of this module, for the one registry."""
    n = 10
    honest = BuiltinAudit(
        "split_reads_bound_to_parts",
        "two Laplace counts (ε=1 each) on the halves A, B of 10 records, declared as a DataSplit and read through its "
        "readers (claim: parallel composition, ε=1): the last record of A 1 vs 0; feature min(count A, count B)",
        SplitCounts(1.0, n),
        [0, 0, 0, 0, 1] + [0] * (n - 5),
        [0] * n,
        featurize=both_counts,
    )
    twin = honest.twin(
        "split_step_reads_neighbour_record",
        "the same two counts, step B also reading the last record of A from the raw data (issue 26 hole 4: a read "
        "outside the declared part); claims the declared parts' ε=1",
        StepReadsNeighbourRecord(1.0, n),
    )
    return [(honest, [twin])]


__all__ = ["SplitCounts", "StepReadsNeighbourRecord", "both_counts", "split_read_audits"]
