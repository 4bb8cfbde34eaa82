"""BisectAT: a pure ε-DP online learner for thresholds on any domain size, 2^60 included (shared/spec ALGORITHMS.md
App. F.3; proofs in docs/derivations.md "F.3 BisectAT").

Candidates t ∈ [lo, hi] (the thresholds h_t(x) = 1[x ≥ t]); release the midpoint m = lo + ⌊(hi − lo + 1)/2⌋. Each
segment runs an AboveThreshold (ε_AT) on the running count c of h_m's mistakes in the segment; at ⊤ it releases the
sign of s = (mistakes with y = 1) − (mistakes with y = 0) through a discrete Laplace mechanism (sensitivity 2,
ε_sign = ε − ε_AT). A mistake with y = 1 is a point x < m labelled 1, so the target t* ≤ x < m (move left:
[lo, m − 1]); with y = 0 one with x ≥ m labelled 0, so t* > x ≥ m (move right: [m + 1, hi]). On a realizable stream
every mistake of a segment points the same way, so |s| = c and the sign is wrong with probability ≤ e^{−c·ε_sign/2}.

Recovery from a wrong sign (public post-processing): the intervals form a stack from the root [0, n]; when a move
would empty the interval (the target lies outside it), pop to the nearest ancestor that extends past the current
interval on the side the sign points to and continue on that ancestor's part beyond the current interval; an
empty stack restarts at the root.

Privacy: LWY25 Def. 2.4 (adaptive adversary, the whole released stream), (ε, 0)-DP on every stream and for every
setting: a segment's AboveThreshold and its sign read only that segment's rounds (ε_AT + ε_sign = ε by basic
composition within the segment), and segments are disjoint with released ends (the disjoint-segment lemma, "F.1").

Mistakes (realizable): ≤ ⌊log₂ N⌋·⌈τ + A_ρ + A_ν⌉ w.p. ≥ 1 − β with the theory τ and split (N = n + 1 candidates;
:func:`littlestone.bounds.segment_learners.bisectat_bound`) — O(log|X|·log T/ε).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._random import SeedLike
from ..bounds.segment_learners import AT_SCALES, bisect_split, bisect_wrong_segments, bisectat_bound, grid_margin
from ..classes.base import HypothesisClass, Point, VersionSpace
from ..classes.thresholds import Threshold
from ..errors import LittlestoneError
from ..privacy.laplace import DiscreteLaplaceMechanism
from ..privacy.mechanism import compose
from .base import LearnerPrivacy, PrivateOnlineLearner, compose_claims, split_randomness
from .segments import FIRST_BLOCK, MAX_BLOCK, MistakeCountSegments, check_at_kind


def stay_odds(wrong_segments: int) -> float:
    """K: the practical stay margin is (2/ε_sign)·ln K. K = min(16, 2L + 2) for a search of depth L ≥ 4 (a wrong
    move from a low count is worth guarding against in proportion to the depth it can cost); K = 1 — no stay rule —
    for L ≤ 3, where a wrong move costs at most L ≤ 3 segments and a stay costs about one (measured at T = 10⁶ over
    2 / 4 / 8 points: the stay rule raised the median there, benchmarks/results/segment_tails.md)."""
    L = max(wrong_segments, 1)
    return 1.0 if L <= 3 else float(min(16, 2 * L + 2))


def practical_margin(epsilon_sign: float, wrong_segments: int) -> float:
    """The practical stay margin M = (2/ε_sign)·ln K (:func:`stay_odds`): a ⊤ moves only when the released
    |s + Z| > M, so a move against the evidence needs Z beyond M + |s| — probability ≤ ½e^{−M·ε_sign/2} = 1/(2K) even
    at a false ⊤ on the target (count ≈ 0, where the bare sign is a coin flip) or at a low count (sparse mistakes) —,
    while a wrong segment's ⊤ comes at a count ≈ τ ≥ M + (2/ε_sign)·ln 4, where a stay (one more segment) is rare."""
    return 2.0 / epsilon_sign * math.log(stay_odds(wrong_segments))


def practical_tau(epsilon_at: float, epsilon_sign: float, T: int, wrong_segments: int, at: str = "step") -> float:
    """The practical threshold max(τ_AT, τ_sign): τ_AT = ListAT's (b_ν·ln T + 3b_ρ at ε_AT) keeps the target; τ_sign
    = (2/ε_sign)·ln(max(L(L+1)/2 + 2, 4K)) makes a wrong sign at a ⊤ (count ≈ τ, probability ½e^{−τ·ε_sign/2})
    rare against the L(L+1)/2 segments that a wrong sign can cost in a search of depth L = ⌊log₂ N⌋, and keeps
    τ ≥ M + (2/ε_sign)·ln 4 above the stay margin M (:func:`practical_margin`): a ⊤ at count ≈ τ stays w.p. ≤ ⅛.
    Privacy does not depend on τ."""
    c_rho, c_nu = AT_SCALES[at]
    tau_at = (c_nu * math.log(max(T, 2)) + 3.0 * c_rho) / epsilon_at
    L = max(wrong_segments, 1)
    K = stay_odds(L)
    return max(tau_at, 2.0 / epsilon_sign * math.log(max(L * (L + 1) / 2 + 2, 4.0 * K if K > 1 else 0.0)))


def practical_split(epsilon: float, T: int, wrong_segments: int, at: str = "step") -> float:
    """The practical ε_AT: the share (on a grid of 0.05, 0.10, …, 0.95 of ε) with the smallest practical τ."""
    shares = [i / 20 for i in range(1, 20)]
    best = min(shares, key=lambda a: practical_tau(a * epsilon, (1 - a) * epsilon, T, wrong_segments, at))
    return best * epsilon


def threshold_candidates(H: HypothesisClass | VersionSpace) -> tuple[int, int]:
    """(lo, hi): the version space's thresholds {h_t : lo ≤ t ≤ hi}; refuses classes that are not thresholds."""
    V = H if isinstance(H, VersionSpace) else H.version_space()
    form = V.threshold_interval()
    if form is None or type(V.soa()) is not Threshold:
        name = getattr(V.hclass, "name", type(V.hclass).__name__)
        raise LittlestoneError(
            f"BisectAT learns thresholds (a class with the thresholds closed form, e.g. thresholds:2^60); "
            f"{name} is not one — use ListAT (-l listat) for a finite class"
        )
    lo, hi, _ = form
    if lo > hi:
        raise LittlestoneError("BisectAT: the version space is empty")
    return int(lo), int(hi)


def stay_or_move(released: int, margin: float) -> bool:
    """The stay rule on the released value v = s + Z: move (True) iff |v| > margin (margin 0: always move — v = 0
    moves right, as the sign rule does); a function of the released value only (post-processing)."""
    return margin <= 0 or abs(released) > margin


class BisectAT(PrivateOnlineLearner):
    """BisectAT (App. F.3): private bisection over thresholds, one AboveThreshold segment per step and a noisy sign
    at each ⊤. (ε, 0)-DP under LWY25 Def. 2.4 (adaptive adversaries, the whole released stream) on every stream and
    for every setting; the mistake bound (realizable streams) holds for ``setting="theory"``.

    Parameters: ``T``, ``epsilon``, ``delta`` (ignored: pure ε-DP; any 0 ≤ δ < 1 accepted), ``beta``, ``setting``
    ("practical" — default —, "theory", or a threshold τ > 0), ``epsilon_at`` (the AboveThreshold's share of ε;
    in practice the share minimising the practical τ (:func:`practical_split`), the bound-minimising split in theory), ``at`` ("step" — default —, "monotone" or
    "standard"), ``backend`` ("secure" or "seeded" with ``seed``), ``labels``, ``feature``, ``grid`` (a public
    one-feature :class:`~littlestone.classes.feature_grid.FeatureGrid` of at most n cells: raw values mapped to
    cells), ``diagnostics``.

    >>> from littlestone import Thresholds
    >>> learner = BisectAT(Thresholds(2**60), T=1000, epsilon=1.0, backend="seeded", seed=0)
    >>> learner.hypothesis()
    Threshold(576460752303423488,)
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
        epsilon_at: float | None = None,
        stay_margin: float | None = None,
        at: str = "step",
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
        self.root = threshold_candidates(self.initial_version_space)
        n_cand = self.root[1] - self.root[0] + 1
        if epsilon_at is None:
            e_at = (
                bisect_split(n_cand, self.T, self.epsilon, self.beta, self.at)
                if setting == "theory"
                else practical_split(self.epsilon, self.T, bisect_wrong_segments(n_cand), self.at)
            )
        else:
            e_at = float(epsilon_at)
        if not 0.0 < e_at < self.epsilon:
            raise LittlestoneError(f"epsilon_at must lie strictly between 0 and epsilon = {self.epsilon:g}")
        self.epsilon_at, self.epsilon_sign = e_at, self.epsilon - e_at
        L = bisect_wrong_segments(n_cand)
        if stay_margin is None:
            margin = 0.0 if setting == "theory" else practical_margin(self.epsilon_sign, L)
        elif (
            isinstance(stay_margin, (int, float)) and not isinstance(stay_margin, bool) and 0 <= stay_margin < math.inf
        ):
            margin = float(stay_margin)
        else:
            raise LittlestoneError(f"stay_margin must be a number ≥ 0 or None, not {stay_margin!r}")
        #: a ⊤ moves only when the released |s + Z| exceeds it, else the same node starts a new segment (a stay)
        self.stay_margin = margin
        _, (b_at, b_sign) = split_randomness(backend, seed, 0, 2)
        if setting == "theory":
            bound = bisectat_bound(n_cand, self.T, self.epsilon, self.beta, at=self.at, epsilon_at=e_at, margin=margin)
            secure = b_at.floating_point_safe
            tau = grid_margin(bound.A_rho) + grid_margin(bound.A_nu) + bound.C if secure else bound.tau
        elif setting == "practical":
            tau = practical_tau(e_at, self.epsilon_sign, self.T, L, self.at)
        elif isinstance(setting, (int, float)) and not isinstance(setting, bool) and 0 < setting < math.inf:
            tau = float(setting)
        else:
            raise LittlestoneError(f"setting must be 'practical', 'theory' or a threshold τ > 0, not {setting!r}")
        self.setting_ = setting if isinstance(setting, str) else "custom"
        self.tau = float(tau)
        self._seg = MistakeCountSegments(self.tau, e_at, backend=b_at, kind=self.at)
        self._b_sign = b_sign
        #: the mechanism objects run once per segment: the AboveThreshold and, at its ⊤, the sign
        self.at_mechanism = self._seg.mechanism
        self.sign_mechanism = DiscreteLaplaceMechanism(self.epsilon_sign, sensitivity=2)
        self._stack: list[tuple[int, int]] = [self.root]
        self._ones = 0  # mistakes with y = 1 in the current segment (with the count: s = 2·ones − count)
        self.backtracks = 0
        self.stays = 0
        self._h = Threshold(self._mid())

    @property
    def setting(self) -> str:
        return (
            f"{self.setting_}(τ={self.tau:.4g}, ε_AT={self.epsilon_at:.4g}, ε_sign={self.epsilon_sign:.4g}, "
            f"stay margin {self.stay_margin:.4g}, {self.at} AboveThreshold)"
        )

    @property
    def interval(self) -> tuple[int, int]:
        """The current candidate interval [lo, hi] (computed from released outputs only)."""
        return self._stack[-1]

    def _mid(self) -> int:
        lo, hi = self._stack[-1]
        return lo + (hi - lo + 1) // 2

    # ------------------------------------------------------------------------------------------- protocol
    def _released(self) -> Threshold:
        return self._h

    def _on_top(self) -> None:
        """The ⊤ of a segment: release s + Z; move on its sign when |s + Z| > the stay margin, else stay (the same
        node starts the next segment); start the next segment."""
        s = 2 * self._ones - self._seg.count
        v = int(self.sign_mechanism(np.int64(s), backend=self._b_sign))
        self._ones = 0
        self._seg.next_segment()
        if not stay_or_move(v, self.stay_margin):
            self.stays += 1
            return
        self._move(v > 0)

    def _move(self, left: bool) -> None:
        """One bisection step towards the side ``left`` (or back to the nearest ancestor beyond the interval)."""
        lo, hi = self._stack[-1]
        m = self._mid()
        if left and m > lo:
            self._stack.append((lo, m - 1))
        elif not left and m < hi:
            self._stack.append((m + 1, hi))
        else:  # the target lies outside [lo, hi] on the side of the sign: back to the nearest ancestor beyond it
            self.backtracks += 1
            while len(self._stack) > 1:
                self._stack.pop()
                a, b = self._stack[-1]
                if left and a < lo:
                    self._stack.append((a, lo - 1))
                    break
                if not left and b > hi:
                    self._stack.append((hi + 1, b))
                    break
            else:
                self._stack = [self.root]
        self._h = Threshold(self._mid())

    def _learn01(self, x: Point, y: int) -> None:
        mistake = self._hf(x) != y  # _hf: the fast h_t(x) (base.released_evaluator)
        self._ones += mistake & y
        seg = self._seg  # MistakeCountSegments.add inline: the count, then its AboveThreshold's test
        seg.count += mistake
        if seg._at.test_count(seg.count):
            self._on_top()

    def _run01(self, X: Any, y: np.ndarray) -> np.ndarray:
        n = len(y)
        preds = np.empty(n, dtype=np.int8)
        pos, size = 0, FIRST_BLOCK
        while pos < n:
            end = min(n, pos + size)
            pc = self._h.predict(X[pos:end])
            yc = y[pos:end]
            miss = (pc != yc).astype(np.int8)
            top = self._seg.feed_block(miss)
            m = top + 1 if top >= 0 else end - pos
            self._ones += int(np.count_nonzero(miss[:m] & yc[:m]))
            preds[pos : pos + m] = pc[:m]
            pos += m
            self.t += m
            if top >= 0:
                self._on_top()
                size = FIRST_BLOCK
            else:
                size = min(MAX_BLOCK, 2 * size)
        return preds

    # ------------------------------------------------------------------------------------------- reports
    def privacy(self) -> LearnerPrivacy:
        """(ε_AT + ε_sign, 0) = (ε, 0): per segment the AboveThreshold (:attr:`at_mechanism`) and the sign
        (:attr:`sign_mechanism`) compose (basic); segments are disjoint with released ends ("F.1"), so the segments
        compose in parallel."""
        segment = compose(
            [self.at_mechanism, self.sign_mechanism], "basic", what="one segment: AboveThreshold, then the sign"
        )
        return compose_claims(
            [segment], [], self.relation, "segments on disjoint stretches of the stream (F.1); basic within one"
        )

    def mistake_bound(self) -> int:
        """⌊log₂ N⌋·⌈τ + A_ρ + A_ν⌉ for the theory setting (w.p. ≥ 1 − β on realizable streams)."""
        if self.setting_ != "theory":
            raise LittlestoneError("BisectAT's mistake bound is proved for setting='theory' only")
        n_cand = self.root[1] - self.root[0] + 1
        return bisectat_bound(
            n_cand, self.T, self.epsilon, self.beta, at=self.at, epsilon_at=self.epsilon_at, margin=self.stay_margin
        ).mistakes

    def _public_state(self) -> dict[str, Any]:
        """Computed from the ⊤ times and the released signs: the round, the interval, the released threshold, the
        segments started, the backtracks."""
        lo, hi = self.interval
        return {
            "t": self.t,
            "interval": (lo, hi),
            "threshold": self._h.t,
            "depth": len(self._stack) - 1,
            "segments": self._seg.segments,
            "backtracks": self.backtracks,
            "stays": self.stays,
            "tau": self.tau,
            "at": self.at,
            "setting": self.setting,
        }

    def _diagnostic_state(self) -> dict[str, Any]:
        return {"segment_mistakes": self._seg.count, "segment_positive_mistakes": self._ones}


__all__ = [
    "BisectAT",
    "practical_margin",
    "practical_split",
    "stay_odds",
    "practical_tau",
    "stay_or_move",
    "threshold_candidates",
]
