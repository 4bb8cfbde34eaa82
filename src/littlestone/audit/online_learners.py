"""Audits of what the private experts learners, Algorithm 3 and the dyadic sanitizer release (issue 19 leaks 3, 4
and 6), each with the broken twin that reproduces the leak — a subclass of the audit's mechanism that overrides
``__call__`` and keeps the honest claim:

* ``discrete_laplace`` — the new :class:`~littlestone.privacy.DiscreteLaplaceMechanism` on a count; twin: half noise.
* ``private_hedge_release`` / ``batched_hedge_release`` — the experts played and ``distribution()`` after a loss
  sequence; twins: ``distribution()`` the softmin of the exact losses (the leak: a deterministic function of them).
* ``tree_hedge_fractional_losses`` — tree aggregation in discrete mode on a fractional loss (grid g = 4); twin: the
  node noise calibrated for 0/1 losses (sensitivity N·L, not N·L·g).
* ``algorithm3_labels_declared`` — the coding of Algorithm 3's predictions after a −1 label; twin: ``labels=None``
  (the coding read from the private labels).
* ``algorithm3_release`` — what Algorithm 3 shows after one round (repr, mistakes); twin: the exact mistake count.
* ``dyadic_sanitizer`` — the noisy counts of the intervals holding x_1; twin: a factory that ignores its (ε/L, δ/L)
  (each point then pays L·ε) while the claim stays the honest one's.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..errors import LittlestoneError
from ..privacy import DiscreteLaplaceMechanism, LaplaceMechanism, Mechanism, PrivacyClaim
from .builtin import BuiltinAudit


def _seed(backend: Any) -> int:
    """A seed for a learner's own (non-noise) randomness, read from the audit's backend (reproducible when seeded)."""
    return int(float(backend.uniform()) * 2**32)


# ------------------------------------------------------------------------------------------ discrete Laplace


class CountDiscreteLaplace(DiscreteLaplaceMechanism):
    """The discrete Laplace mechanism releasing the count of a 0/1 dataset (sensitivity 1)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        return super().__call__(int(np.sum(data)), backend=backend, budget=budget)


class HalfNoiseCountDiscreteLaplace(CountDiscreteLaplace):
    """BROKEN: discrete Laplace(0.5/ε) for a count of sensitivity 1."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        return int(DiscreteLaplaceMechanism(2.0 * self.epsilon, 1)(int(np.sum(data)), backend=backend))


# ------------------------------------------------------------------------------------------ experts learners

N_EXPERTS, HORIZON = 2, 3
#: one round's loss vector replaced (the first); tuples, so audits compare as values
LOSSES = ((0.0, 0.0),) * HORIZON
LOSSES_PRIME = ((1.0, 0.0),) + ((0.0, 0.0),) * (HORIZON - 1)


def _release(learner: Any, losses: np.ndarray) -> tuple:
    """The experts played in every round, then what ``distribution()`` shows ('refused' when it refuses)."""
    chosen = []
    for row in losses:
        chosen.append(int(learner.predict_one()))
        learner.learn_one(row)
    try:
        shown: Any = tuple(np.round(np.asarray(learner.distribution(), dtype=float), 9).tolist())
    except LittlestoneError:
        shown = "refused"
    return (tuple(chosen), shown)


class ExpertsRelease(Mechanism):
    """An experts learner (``kind`` "private" or "batched", N = 2, T = 3, ε = 1, δ = 0) on a loss sequence: the
    experts it played and its ``distribution()``; the learner's claim."""

    name = "experts learner"

    def __init__(self, kind: str, epsilon: float = 1.0):
        self.kind, self.epsilon = kind, float(epsilon)

    def learner(self, backend: Any) -> Any:
        from ..experts import BatchedPrivateHedge, PrivateHedge

        if self.kind == "private":
            return PrivateHedge(N_EXPERTS, HORIZON, self.epsilon, backend=backend, seed=_seed(backend))
        return BatchedPrivateHedge(N_EXPERTS, HORIZON, self.epsilon, batch=1, backend=backend, seed=_seed(backend))

    def privacy(self) -> PrivacyClaim:
        from ..privacy import SeededBackend

        return self.learner(SeededBackend(0)).privacy()

    def __call__(self, data: Any, *, backend: Any) -> tuple:
        return _release(self.learner(backend), np.asarray(data, dtype=float))


class ExactDistributionRelease(ExpertsRelease):
    """BROKEN (issue 19 leak 4): ``distribution()`` = the softmin of the exact cumulative losses."""

    def __call__(self, data: Any, *, backend: Any) -> tuple:
        from ..experts.base import softmin

        learner = self.learner(backend)
        chosen, _ = _release(learner, np.asarray(data, dtype=float))
        exact = softmin(learner._cumulative, learner.eta)
        return (chosen, tuple(np.round(exact, 9).tolist()))


#: tree aggregation on a fractional loss: N = 1, T = 2, grid 4; the first round's loss 1 vs 0
TREE_D = ((1.0,), (0.0,))
TREE_D_PRIME = ((0.0,), (0.0,))


class TreeFractionalRelease(Mechanism):
    """Tree-aggregation Hedge in discrete mode (N = 1, T = 2, block 1, grid g = 4, ε = 1) on fractional-capable
    losses: the released noisy cumulative loss after the last round; the learner's claim."""

    name = "tree-aggregation Hedge"
    grid = 4

    def __init__(self, epsilon: float = 1.0):
        self.epsilon = float(epsilon)

    def learner(self, backend: Any) -> Any:
        from ..experts import TreeAggregationHedge

        return TreeAggregationHedge(
            1, 2, self.epsilon, block=1, discrete=True, grid=self.grid, backend=backend, seed=_seed(backend)
        )

    def privacy(self) -> PrivacyClaim:
        from ..privacy import SeededBackend

        return self.learner(SeededBackend(0)).privacy()

    def __call__(self, data: Any, *, backend: Any) -> float:
        learner = self.learner(backend)
        for row in np.asarray(data, dtype=float):
            learner.learn_one(row)
        return float(learner.noisy_cumulative()[0])


class TreeNoiseForZeroOneLosses(TreeFractionalRelease):
    """BROKEN (issue 19 leak 6): the node noise calibrated for 0/1 losses (L1 sensitivity N·L) while fractional losses
    are counted in units of 1/g (sensitivity N·L·g): g times too little noise."""

    def __call__(self, data: Any, *, backend: Any) -> float:
        learner = self.learner(backend)
        learner.mechanism = DiscreteLaplaceMechanism(learner.epsilon, learner.n_experts * learner.levels)
        for row in np.asarray(data, dtype=float):
            learner.learn_one(row)
        return float(learner.noisy_cumulative()[0])


# ------------------------------------------------------------------------------------------ Algorithm 3

#: Thresholds(8), a stream of 4 rounds (batch 2): one label −1 vs +1 (declared pair (−1, 1))
A3_POINTS = (1, 6, 2, 5)
A3_D = (A3_POINTS, (1, -1, 1, 1))
A3_D_PRIME = (A3_POINTS, (1, 1, 1, 1))


class Algorithm3Labels(Mechanism):
    """ThresholdsAlgorithm3 (Thresholds(8), T = 5, B = 2, ε = 1) with the declared ``labels`` after a 4-round stream:
    the label set its predictions use at the 5th round (every point); the learner's claim."""

    name = "Algorithm 3"

    def __init__(self, epsilon: float = 1.0, labels: Any = (-1, 1)):
        self.epsilon, self.labels = float(epsilon), labels

    def learner(self, backend: Any, labels: Any, **kw: Any) -> Any:
        from ..agnostic_online import ThresholdsAlgorithm3
        from ..classes import Thresholds

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ThresholdsAlgorithm3(
                Thresholds(8), 5, self.epsilon, batch=2, backend=backend, seed=_seed(backend), labels=labels, **kw
            )

    def privacy(self) -> PrivacyClaim:
        from ..privacy import SeededBackend

        return self.learner(SeededBackend(0), (0, 1)).privacy()

    def play(self, data: tuple, backend: Any, labels: Any, **kw: Any) -> Any:
        learner = self.learner(backend, labels, **kw)
        for x, y in zip(*data):
            learner.predict_one(x)
            learner.learn_one(x, y)
        return learner

    def __call__(self, data: tuple, *, backend: Any) -> str:
        learner = self.play(data, backend, self.labels)
        return repr(sorted({int(learner.predict_one(x)) for x in range(8)} | {learner.label_coding[0]}))


class Algorithm3InferredLabels(Algorithm3Labels):
    """BROKEN (issue 19 leak 3): ``labels=None`` — the coding read from the private labels."""

    def __call__(self, data: tuple, *, backend: Any) -> str:
        learner = self.play(data, backend, None)
        return repr(sorted({int(learner.predict_one(x)) for x in range(8)} | {learner.label_coding[0]}))


#: one round at point 0: label 0 vs 1 (no batch is complete, so nothing is sanitized)
A3_ONE = ((0,), (0,))
A3_ONE_PRIME = ((0,), (1,))


class Algorithm3Release(Algorithm3Labels):
    """What Algorithm 3 shows by default after the rounds: its repr and its ``mistakes`` ('refused' when it refuses);
    the learner's claim."""

    def __call__(self, data: tuple, *, backend: Any) -> str:
        learner = self.play(data, backend, (0, 1))
        try:
            shown = str(int(learner.mistakes))
        except LittlestoneError:
            shown = "refused"
        return f"{learner!r} mistakes={shown}"


class Algorithm3ExactMistakes(Algorithm3Release):
    """BROKEN (issue 19 leak 6): the exact mistake count shown (as ``mistakes`` and in repr used to) — here counted
    with diagnostics on (since issue 26 a learner built without them keeps no count to read)."""

    def __call__(self, data: tuple, *, backend: Any) -> str:
        learner = self.play(data, backend, (0, 1), diagnostics=True)
        return f"{learner!r} mistakes={int(learner.mistakes)}"


# ------------------------------------------------------------------------------------------ dyadic sanitizer

DYADIC_T = 4
#: x_1 = 1 vs 0 (it lies in the L = 3 intervals (1,1), (1,2), (1,4))
DYADIC_D = (1, 0, 0, 0)
DYADIC_D_PRIME = (0, 0, 0, 0)


class _CountSanitizer:
    """A sanitizer for the dyadic audit: the count of ones of its interval, Laplace mechanism at its ε."""

    def __init__(self, epsilon: float):
        self.mechanism = LaplaceMechanism(epsilon, 1.0)

    def privacy(self) -> PrivacyClaim:
        return self.mechanism.privacy()

    def fit(self, X: Any, *, backend: Any = None) -> "_CountSanitizer":
        self._X = list(X)
        return self

    def release(self, backend: Any) -> list:
        return [self.mechanism(float(sum(self._X)), backend=backend)]


class DyadicRelease(Mechanism):
    """Algorithm 5 (T = 4, ε = 1) around Laplace count sanitizers: the noisy counts of the intervals holding x_1
    (their sum is the feature); the dyadic sanitizer's composed claim."""

    name = "dyadic sanitizer"

    def __init__(self, epsilon: float = 1.0):
        self.epsilon = float(epsilon)

    def factory(self, backend: Any, ignore_budget: bool = False) -> Any:
        outer = self.epsilon

        def make(eps: float, delta: float, length: int, run: int) -> Any:
            san = _CountSanitizer(outer if ignore_budget else eps)
            san.synthetic = lambda size: san.release(backend)  # type: ignore[attr-defined]
            return san

        return make

    def privacy(self) -> PrivacyClaim:
        from ..sanitizers.dyadic import DyadicSanitizer

        return DyadicSanitizer(DYADIC_T, self.epsilon, 0.0, self.factory(None)).privacy()

    def play(self, data: Any, backend: Any, ignore_budget: bool) -> float:
        from ..sanitizers.dyadic import DyadicSanitizer

        d = DyadicSanitizer(DYADIC_T, self.epsilon, 0.0, self.factory(backend, ignore_budget))
        if ignore_budget:  # the broken factory's runs report the claim they were asked for (the bug hides)
            d.level_claim = lambda j: LaplaceMechanism(self.epsilon).privacy()  # type: ignore[method-assign]
        for x in data:
            d.learn_one(x)
        return float(sum(d.synthetic_[piece][0] for piece in ((1, 1), (1, 2), (1, 4))))

    def __call__(self, data: Any, *, backend: Any) -> float:
        return self.play(data, backend, False)


class DyadicFactoryIgnoresBudget(DyadicRelease):
    """BROKEN (issue 19 leak 6): the factory's sanitizers run at the full ε instead of the (ε/L, δ/L) they are given."""

    def __call__(self, data: Any, *, backend: Any) -> float:
        return self.play(data, backend, True)


# ------------------------------------------------------------------------------------------ registry entries


def online_learner_audits() -> list[tuple[BuiltinAudit, list[BuiltinAudit]]]:
    """(honest audit, its broken twins) of this module, for the one registry."""
    count = BuiltinAudit(
        "discrete_laplace",
        "discrete Laplace mechanism on a count, ε=1: 5 ones vs 4 ones",
        CountDiscreteLaplace(1.0),
        [1] * 5 + [0] * 5,
        [1] * 4 + [0] * 6,
    )
    hedge = BuiltinAudit(
        "private_hedge_release",
        "PrivateHedge (N=2, T=3, ε=1): the experts played and distribution() (diagnostic: refused); one round's "
        "loss vector (0,0) vs (1,0)",
        ExpertsRelease("private"),
        LOSSES,
        LOSSES_PRIME,
        runs=4000,
    )
    batched = BuiltinAudit(
        "batched_hedge_release",
        "BatchedPrivateHedge (N=2, T=3, B=1, ε=1): the experts played and distribution() (the drawn expert); "
        "one round's loss vector (0,0) vs (1,0)",
        ExpertsRelease("batched"),
        LOSSES,
        LOSSES_PRIME,
        runs=4000,
    )
    tree = BuiltinAudit(
        "tree_hedge_fractional_losses",
        "TreeAggregationHedge, discrete mode, grid g=4 (N=1, T=2, ε=1): the noisy cumulative loss; first loss 1 vs 0",
        TreeFractionalRelease(),
        TREE_D,
        TREE_D_PRIME,
        runs=10_000,
    )
    labels = BuiltinAudit(
        "algorithm3_labels_declared",
        "ThresholdsAlgorithm3 (Thresholds(8), ε=1) with labels=(-1, 1): labels (1,-1,1,1) vs (1,1,1,1); event: the "
        "label set of its predictions (issue 19 leak 3)",
        Algorithm3Labels(),
        A3_D,
        A3_D_PRIME,
        runs=300,
    )
    release = BuiltinAudit(
        "algorithm3_release",
        "ThresholdsAlgorithm3 (Thresholds(8), ε=1): repr and mistakes after one round at x=0, label 0 vs 1 "
        "(issue 19 leak 6)",
        Algorithm3Release(),
        A3_ONE,
        A3_ONE_PRIME,
        runs=2000,
    )
    dyadic = BuiltinAudit(
        "dyadic_sanitizer",
        "Algorithm 5 (T=4, ε=1) around Laplace count sanitizers: the noisy counts of the 3 intervals holding x_1; "
        "x_1 = 1 vs 0",
        DyadicRelease(),
        DYADIC_D,
        DYADIC_D_PRIME,
        runs=10_000,
    )
    return [
        (
            count,
            [
                count.twin(
                    "discrete_laplace_half_noise",
                    "discrete Laplace with scale 0.5/ε for a count; claims ε=1",
                    HalfNoiseCountDiscreteLaplace(1.0),
                    runs=20_000,
                )
            ],
        ),
        (
            hedge,
            [
                hedge.twin(
                    "private_hedge_exact_distribution",
                    "PrivateHedge whose distribution() is the softmin of the exact losses; claims the honest ε",
                    ExactDistributionRelease("private"),
                    runs=300,
                )
            ],
        ),
        (
            batched,
            [
                batched.twin(
                    "batched_hedge_exact_distribution",
                    "BatchedPrivateHedge whose distribution() is the softmin of the exact losses; claims the honest ε",
                    ExactDistributionRelease("batched"),
                    runs=300,
                )
            ],
        ),
        (
            tree,
            [
                tree.twin(
                    "tree_hedge_noise_for_zero_one_losses",
                    "TreeAggregationHedge counting losses in units of 1/4 with node noise for 0/1 losses; claims ε=1",
                    TreeNoiseForZeroOneLosses(),
                )
            ],
        ),
        (
            labels,
            [
                labels.twin(
                    "algorithm3_labels_inferred",
                    "ThresholdsAlgorithm3 with labels=None (coding read from the private labels); claims ε=1",
                    Algorithm3InferredLabels(),
                )
            ],
        ),
        (
            release,
            [
                release.twin(
                    "algorithm3_exact_mistakes",
                    "ThresholdsAlgorithm3 showing its exact mistake count; claims ε=1",
                    Algorithm3ExactMistakes(),
                )
            ],
        ),
        (
            dyadic,
            [
                dyadic.twin(
                    "dyadic_factory_ignores_budget",
                    "Algorithm 5 whose factory runs every sanitizer at ε instead of ε/L; claims the honest (ε, 0)",
                    DyadicFactoryIgnoresBudget(),
                )
            ],
        ),
    ]
