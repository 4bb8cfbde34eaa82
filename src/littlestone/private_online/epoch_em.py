"""EpochEM: epochs + the exponential mechanism (shared/spec ALGORITHMS.md App. G.1), pure ε-DP under LWY25 Def. 2.4,
for stationary (i.i.d.) noisy streams; proofs in docs/derivations.md, "G.1 EpochEM".

Public epochs: the first two of ``first`` rounds, then each as long as the stream before it (lengths f, f, 2f, 4f,
…). At the end of an epoch the exponential mechanism (ε, score −mistakes on *that epoch's* rounds, sensitivity 1)
releases the hypothesis of the next epoch, over the whole class in closed form
(:mod:`~littlestone.private_online.segment_scores`). Each round is read by exactly one selection, whose output is
released at a public time: ε-DP by the disjoint-segment lemma (F.1).

On i.i.d. streams the regret is O(log T·ln(|H|/β)/ε + √(T·ln(|H|/β))) (docs/derivations.md); against an adaptive
adversary the hypothesis of an epoch is fixed for the whole epoch, which can then err on every round of it — no
adaptive guarantee (``SegmentedEM`` adds a stay test for that). Kept as the G.1 baseline of the comparison.
"""

from __future__ import annotations

from typing import Sequence

from .segmented_em import SegmentedEM


class EpochEM(SegmentedEM):
    """EpochEM (App. G.1): public doubling epochs, the exponential mechanism (all of ε) on each epoch's rounds selects
    the next epoch's hypothesis. (ε, 0)-DP under LWY25 Def. 2.4 on every stream; agnostic on i.i.d. streams only.

    Parameters as :class:`~littlestone.private_online.SegmentedEM` without the stay test (``split``, ``tau``,
    ``margin``, ``at`` are not used; ``window`` defaults to False: the whole class at every selection).

    >>> from littlestone import Thresholds
    >>> EpochEM(Thresholds(2**16), T=1000, epsilon=1.0, backend="seeded", seed=0).privacy().epsilon
    1.0
    """

    agnostic = True
    uses_stay_test = False
    default_window = False

    def _split(self, split: Sequence[float]) -> tuple[float, float, float]:
        return (0.0, 1.0, 0.0)

    @property
    def setting(self) -> str:
        return f"{self.setting_}(epochs from {self.first}, window={self.window})"


__all__ = ["EpochEM"]
