"""ListAT: a pure ε-DP online learner for any finite class that can be listed (shared/spec ALGORITHMS.md App. F.2;
proofs in docs/derivations.md "F.2 ListAT").

H = (h_1, …, h_k) in a public, data-independent order (the class's own enumeration, or ``order=``). Release h_i;
an AboveThreshold on the running count c of h_i's mistakes in the current segment; at ⊤, i ← i mod k + 1, c ← 0 and
the next segment starts with fresh threshold noise (:class:`~littlestone.private_online.segments.MistakeCountSegments`).

Privacy: LWY25 Def. 2.4 — adaptive adversary, the whole stream of released hypotheses — (ε, 0)-DP: the released
index is a function of the ⊤ times, the AboveThreshold instances run on disjoint segments whose ends are released
outputs, each ε-DP for its adaptively chosen monotone queries (the disjoint-segment lemma, derivations "F.1").
Holds on every stream (realizable or not) and for every setting.

Mistakes (realizable streams, the target in the list): ≤ (k − 1)·⌈τ + A_ρ + A_ν⌉ w.p. ≥ 1 − β with the theory τ
(:func:`littlestone.bounds.segment_learners.listat_bound`); the practical default τ trades the target's retention
for fewer mistakes per segment (a target left is met again after one pass over the list).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .._random import SeedLike
from ..bounds.segment_learners import AT_SCALES, grid_margin, listat_bound
from ..classes.base import Hypothesis, HypothesisClass, Point, VersionSpace
from ..errors import LittlestoneError
from ..privacy.laplace import DiscreteLaplaceMechanism
from ..privacy.mechanism import compose
from .base import LearnerPrivacy, PrivateOnlineLearner, compose_claims, split_randomness
from .segments import FIRST_BLOCK, MAX_BLOCK, MistakeCountSegments, check_at_kind

#: the longest list ListAT builds (its hypotheses are held in memory)
MAX_LIST = 1 << 20


#: the practical τ's threshold-noise margin in units of b_ρ (issue 34: 3 → 5; a target left costs a pass over the list)
RHO_MARGIN = 5.0


def practical_tau(epsilon: float, T: int, at: str = "step") -> float:
    """The practical threshold b_ν·ln T + 5b_ρ: the target (count 0) survives the T queries unless ρ < −(a few) b_ρ
    (probability ≈ e^{-5}/2 per segment: a target left costs a second pass over the list, measured the worst of 60
    games at 3b_ρ), and a wrong hypothesis is left after about τ mistakes; the theory τ adds b_ρ ln(2k/β) +
    b_ν ln(2/β) for a bound that holds w.p. 1 − β. Privacy does not depend on τ."""
    c_rho, c_nu = AT_SCALES[at]
    return (c_nu * math.log(max(T, 2)) + RHO_MARGIN * c_rho) / epsilon


#: the practical stay check's odds K: leaving needs c + Z > M = ln(K)/ε_check, so a false ⊤ on the target
#: (count ≈ 0) leaves it w.p. ≤ 1/(2K)
CHECK_ODDS = 16.0


def practical_check(epsilon: float, T: int, at: str = "step") -> tuple[float, float, float]:
    """(ε_AT, ε_check, τ) of the practical setting with the stay check: the AboveThreshold's τ_AT = b_ν·ln T + 3b_ρ
    at ε_AT and the check's τ_check = ln(4K)/ε_check (a ⊤ at count ≈ τ then clears M = ln(K)/ε_check w.p. ≥ 7/8);
    τ = max(τ_AT, τ_check) with the share ε_AT/ε on a grid of 0.05 minimising it. Privacy does not depend on τ."""
    c_rho, c_nu = AT_SCALES[at]
    a = c_nu * math.log(max(T, 2)) + 3.0 * c_rho  # the check guards the target: 3b_ρ
    b = math.log(4.0 * CHECK_ODDS)

    def tau(share: float) -> float:
        return max(a / (share * epsilon), b / ((1 - share) * epsilon))

    best = min((i / 20 for i in range(1, 20)), key=tau)
    return best * epsilon, (1 - best) * epsilon, tau(best)


def stays_on(released: int, margin: float) -> bool:
    """The stay check on the released c + Z: stay (True) iff c + Z ≤ M — post-processing of the released value."""
    return released <= margin


def list_hypotheses(H: HypothesisClass | VersionSpace, order: Sequence[Hypothesis] | None = None) -> list[Hypothesis]:
    """The public list: ``order`` if given, else the class's own enumeration; refuses classes too large to list."""
    if order is not None:
        hyps = list(order)
        if not hyps:
            raise LittlestoneError("ListAT: the order= list is empty")
        if len(hyps) > MAX_LIST:
            raise LittlestoneError(f"ListAT: order= has {len(hyps):,} hypotheses; ListAT lists at most {MAX_LIST:,}")
        return hyps
    V = H if isinstance(H, VersionSpace) else H.version_space()
    name = getattr(V.hclass, "name", type(V.hclass).__name__)
    size = V.size()
    if not (isinstance(size, int) or (isinstance(size, float) and size.is_integer())) or size > MAX_LIST:
        raise LittlestoneError(
            f"ListAT cannot list {name}: {size:,} hypotheses (at most {MAX_LIST:,}); for thresholds use BisectAT "
            "(-l bisect)"
        )
    try:
        hyps = list(V.hypotheses())
    except TypeError:
        raise LittlestoneError(f"ListAT cannot list {name}: the class does not enumerate its hypotheses") from None
    if not hyps:
        raise LittlestoneError(f"ListAT: {name} has no hypotheses")
    return hyps


class ListAT(PrivateOnlineLearner):
    """ListAT (App. F.2): release the listed hypotheses in turn, moving on at each ⊤ of an AboveThreshold on the
    current one's running mistake count. (ε, 0)-DP under LWY25 Def. 2.4 (adaptive adversaries, the whole released
    stream), on every stream and for every setting; the mistake bound (realizable streams whose target is listed)
    holds for ``setting="theory"``.

    Parameters: ``T`` (horizon), ``epsilon``, ``delta`` (ignored: the learner is pure ε-DP; any 0 ≤ δ < 1 is
    accepted), ``beta`` (failure probability of the theory τ), ``setting`` ("practical" — default —, "theory", or a
    threshold τ > 0), ``at`` ("step" — default: both noises Lap(1/ε) —, "monotone" — LSL17 — or "standard"), ``order`` (a public list of hypotheses;
    default the class's enumeration), ``backend`` ("secure" or "seeded" with ``seed``), ``labels``, ``feature``,
    ``grid`` (a public :class:`~littlestone.classes.feature_grid.FeatureGrid`: points are tuples or river dicts of
    raw features, mapped to its cells; default the class's own ``H.grid``, e.g. ``GridStumps(grid)``),
    ``diagnostics`` (adds the exact mistake count of the current segment to :meth:`state`; not covered),
    ``stay_check`` (False — default — or True; not with "theory"): at a ⊤, release c + Z (discrete Laplace,
    ε_check; ε_AT + ε_check = ε) and leave h_i only when it exceeds M = ln(K)/ε_check, else restart h_i
    (docs/derivations.md "F.2 ListAT"; measured worse than the default's larger ρ margin at T = 10⁶, kept as an
    option).

    >>> from littlestone import Thresholds
    >>> learner = ListAT(Thresholds(4), T=1000, epsilon=1.0, backend="seeded", seed=0)
    >>> learner.hypothesis()
    Threshold(0,)
    """

    agnostic = False  # realizable streams only: no regret guarantee on noisy streams

    pure_dp = True

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        T: int,
        epsilon: float,
        delta: float = 0.0,
        beta: float = 0.1,
        setting: str | float = "practical",
        at: str = "step",
        order: Sequence[Hypothesis] | None = None,
        stay_check: bool = False,
        backend: Any = "secure",
        seed: SeedLike = None,
        labels: tuple[int, int] = (0, 1),
        feature: str | None = None,
        grid: Any = None,
        diagnostics: bool = False,
        accountant: Any = None,
    ):
        super().__init__(
            hypothesis_class,
            T=T,
            epsilon=epsilon,
            delta=delta,
            beta=beta,
            labels=labels,
            feature=feature,
            grid=grid,
            diagnostics=diagnostics,
            accountant=accountant,
        )
        self.at = check_at_kind(at)
        self.hypotheses = list_hypotheses(self.initial_version_space, order)
        self.k = len(self.hypotheses)
        _, (b_at, self._b_check) = split_randomness(backend, seed, 0, 2)  # the first backend as before
        secure = b_at.floating_point_safe
        check = bool(stay_check)
        e_at, self.epsilon_check, self.stay_margin = self.epsilon, 0.0, 0.0
        if check:
            e_at, self.epsilon_check, tau_p = practical_check(self.epsilon, self.T, self.at)
            self.stay_margin = math.log(CHECK_ODDS) / self.epsilon_check
        if setting == "theory" and check:
            raise LittlestoneError("ListAT's theory setting has no stay check (its bound is for stay_check=False)")
        if setting == "theory":
            bound = listat_bound(self.k, self.T, self.epsilon, self.beta, at=self.at)
            tau = grid_margin(bound.A_rho) + grid_margin(bound.A_nu) if secure else bound.tau
        elif setting == "practical":
            tau = tau_p if check else practical_tau(self.epsilon, self.T, self.at)
        elif isinstance(setting, (int, float)) and not isinstance(setting, bool) and 0 < setting < math.inf:
            tau = float(setting)
        else:
            raise LittlestoneError(f"setting must be 'practical', 'theory' or a threshold τ > 0, not {setting!r}")
        self.setting_ = setting if isinstance(setting, str) else "custom"
        self.tau = float(tau)
        self.epsilon_at = e_at
        self._seg = MistakeCountSegments(self.tau, e_at, backend=b_at, kind=self.at)
        #: the mechanism objects run once per segment (privacy() composes them over disjoint segments): the
        #: AboveThreshold and, with the stay check, the noisy count at its ⊤
        self.at_mechanism = self._seg.mechanism
        self.check_mechanism = DiscreteLaplaceMechanism(self.epsilon_check, sensitivity=1) if check else None
        self.i = 0
        self._h = self.hypotheses[0]  # the released h_i (builds _hf)
        self.stays = 0

    @property
    def setting(self) -> str:
        check = f", stay check ε={self.epsilon_check:.4g} M={self.stay_margin:.4g}" if self.check_mechanism else ""
        return f"{self.setting_}(τ={self.tau:.4g}, ε_AT={self.epsilon_at:.4g}{check}, {self.at} AboveThreshold)"

    # ------------------------------------------------------------------------------------------- protocol
    def _released(self) -> Hypothesis:
        return self._h

    def _next(self) -> None:
        """A ⊤: with the stay check, release c + Z and stay on h_i unless it exceeds M; start the next segment."""
        if self.check_mechanism is not None:
            v = int(self.check_mechanism(np.int64(self._seg.count), backend=self._b_check))
            if stays_on(v, self.stay_margin):
                self.stays += 1
                self._seg.next_segment()
                return
        self.i = (self.i + 1) % self.k
        self._h = self.hypotheses[self.i]
        self._seg.next_segment()

    def _learn01(self, x: Point, y: int) -> None:
        seg = self._seg  # MistakeCountSegments.add inline: the count, then its AboveThreshold's test
        seg.count += self._hf(x) != y  # _hf: the fast h_i(x) (base.released_evaluator)
        if seg._at.test_count(seg.count):
            self._next()

    def _run01(self, X: Any, y: np.ndarray) -> np.ndarray:
        n = len(y)
        preds = np.empty(n, dtype=np.int8)
        pos, size = 0, FIRST_BLOCK
        while pos < n:
            end = min(n, pos + size)
            pc = self._h.predict(X[pos:end])
            top = self._seg.feed_block((pc != y[pos:end]).astype(np.int8))
            m = top + 1 if top >= 0 else end - pos
            preds[pos : pos + m] = pc[:m]
            pos += m
            self.t += m
            if top >= 0:
                self._next()
                size = FIRST_BLOCK
            else:
                size = min(MAX_BLOCK, 2 * size)
        return preds

    # ------------------------------------------------------------------------------------------- reports
    def privacy(self) -> LearnerPrivacy:
        """(ε, 0): per segment the AboveThreshold (:attr:`at_mechanism`) and, with the stay check, the noisy count
        at its ⊤ (:attr:`check_mechanism`) compose (basic, ε_AT + ε_check = ε); segments are disjoint with released
        ends (derivations "F.1"); nothing else reads the stream."""
        if self.check_mechanism is None:
            return compose_claims(
                [self.at_mechanism], [], self.relation, "AboveThreshold instances on disjoint segments (F.1)"
            )
        segment = compose(
            [self.at_mechanism, self.check_mechanism], "basic", what="one segment: AboveThreshold, then the check"
        )
        return compose_claims(
            [segment], [], self.relation, "segments on disjoint stretches of the stream (F.1); basic within one"
        )

    def mistake_bound(self) -> int:
        """(k − 1)·⌈τ + A_ρ + A_ν⌉ for the theory τ, w.p. ≥ 1 − β on realizable streams with the target listed
        (:func:`littlestone.bounds.segment_learners.listat_bound`); refuses other settings."""
        if self.setting_ != "theory":
            raise LittlestoneError("ListAT's mistake bound is proved for setting='theory' only")
        return listat_bound(self.k, self.T, self.epsilon, self.beta, at=self.at).mistakes

    def _public_state(self) -> dict[str, Any]:
        """Public or computed from the ⊤ times: the round, the list position, the segments started, τ."""
        return {
            "t": self.t,
            "index": self.i,
            "k": self.k,
            "segments": self._seg.segments,
            "stays": self.stays,
            "tau": self.tau,
            "at": self.at,
            "setting": self.setting,
        }

    def _diagnostic_state(self) -> dict[str, Any]:
        return {"segment_mistakes": self._seg.count}


__all__ = [
    "CHECK_ODDS",
    "MAX_LIST",
    "RHO_MARGIN",
    "ListAT",
    "list_hypotheses",
    "practical_check",
    "practical_tau",
    "stays_on",
]
