"""SignFreeBisectAT: BisectAT without the sign release (docs/derivations.md "F.3 BisectAT", "Sign-free BisectAT";
issue 34 item 3).

Each segment runs two step AboveThresholds at ε/2 each, one on the running count of the released threshold's
mistakes with y = 1 (they say "the target lies left": x < m labelled 1) and one on those with y = 0 ("right"); the
segment ends at the first ⊤ of either, and its side is the move (a ⊤ of both on the same round: left). On a
realizable stream every mistake of a wrong segment is on one side, so the other count stays 0 and only a false ⊤
of its AboveThreshold moves the wrong way. The candidate stack, the move and the recovery are BisectAT's.

Privacy (LWY25 Def. 2.4): (ε, 0) on every stream. Within a segment the two one-sided counts both have step
differences (replacing round t* shifts each from t* on by one c ∈ {−1, 0, 1}), and the released (round, side) has
probability P₁[prefix of run 1]·P₀[prefix of run 0], each factor an output probability of a step AboveThreshold at
ε/2 (a ⊥…⊥⊤ run or a run stopped before its ⊤): the ratio is ≤ e^{ε/2}·e^{ε/2}; segments are disjoint with released
ends (F.1). No mistake bound is claimed (the practical setting only).
"""

from __future__ import annotations

import math
from typing import Any

from .._random import SeedLike
from ..bounds.segment_learners import AT_SCALES, bisect_wrong_segments
from ..classes.base import HypothesisClass, Point, VersionSpace
from ..errors import LittlestoneError
from ..privacy.mechanism import compose
from .base import LearnerPrivacy, PrivateOnlineLearner, compose_claims, split_randomness
from .bisect_at import BisectAT
from .segments import MistakeCountSegments


def signfree_tau(epsilon: float, T: int, wrong_segments: int, at: str = "step") -> float:
    """The practical τ of each side's AboveThreshold (budget ε/2): b_ν·ln T + 3b_ρ, ListAT's — the zero side must
    not fire before the other reaches τ, and the target must be kept, which is the same event per round. (Adding
    b_ρ·ln(L(L+1)/2 + 2) for the cost of a wrong move measured worse at T = 10⁶ over 2⁶⁰ points: median / worst
    2,765 / 2,871 against 1,886 / 2,057.) ``wrong_segments`` is accepted for symmetry with BisectAT. Privacy does not
    depend on τ."""
    c_rho, c_nu = AT_SCALES[at]
    return (c_nu * math.log(max(T, 2)) + 3.0 * c_rho) / (epsilon / 2)


class SignFreeBisectAT(BisectAT):
    """BisectAT with two one-sided AboveThresholds per segment instead of a noisy sign (module docstring).
    Parameters: BisectAT's, with ``setting`` "practical" (default) or a threshold τ > 0 for both sides; no
    ``epsilon_at`` / ``stay_margin`` (each side runs at ε/2; there is no released value to put a margin on)."""

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
        backend: Any = "secure",
        seed: SeedLike = None,
        labels: tuple[int, int] = (0, 1),
        feature: str | None = None,
        diagnostics: bool = False,
        accountant: Any = None,
    ):
        if setting == "theory":
            raise LittlestoneError("SignFreeBisectAT has no theory setting (no mistake bound is claimed)")
        super().__init__(
            hypothesis_class,
            T=T,
            epsilon=epsilon,
            delta=delta,
            beta=beta,
            setting=setting,
            epsilon_at=epsilon / 2,
            stay_margin=0.0,
            at=at,
            backend="seeded",
            seed=0,  # the parent's own noise objects are replaced below
            labels=labels,
            feature=feature,
            diagnostics=diagnostics,
            accountant=accountant,
        )
        n_cand = self.root[1] - self.root[0] + 1
        if setting == "practical":
            self.tau = signfree_tau(self.epsilon, self.T, bisect_wrong_segments(n_cand), self.at)
        self.epsilon_at, self.epsilon_sign = self.epsilon / 2, 0.0
        _, (b_left, b_right) = split_randomness(backend, seed, 0, 2)
        self._sides = (
            MistakeCountSegments(self.tau, self.epsilon / 2, backend=b_left, kind=self.at),
            MistakeCountSegments(self.tau, self.epsilon / 2, backend=b_right, kind=self.at),
        )
        self._seg = self._sides[0]  # segments counted on the left side (both start together)
        self.at_mechanism = self._sides[0].mechanism
        self.sign_mechanism = None
        #: the two mechanism objects run once per segment, concurrently on the same rounds
        self.side_mechanisms = (self._sides[0].mechanism, self._sides[1].mechanism)

    @property
    def setting(self) -> str:
        return f"{self.setting_}(τ={self.tau:.4g} per side, ε/2 each, {self.at} AboveThreshold, sign-free)"

    def _learn01(self, x: Point, y: int) -> None:
        mistake = self._hf(x) != y  # a bool; & y and & (1 − y) make the 0/1 ints
        s0, s1 = self._sides  # MistakeCountSegments.add inline: both sides tested every round, noise in lockstep
        s0.count += mistake & y
        left = s0._at.test_count(s0.count)
        s1.count += mistake & (1 - y)
        right = s1._at.test_count(s1.count)
        if left or right:
            self._sides[1].next_segment()
            self._move(left)
            self._seg.next_segment()

    def _run01(self, X: Any, y: Any) -> Any:
        return PrivateOnlineLearner._run01(self, X, y)  # round by round: both noise streams in lockstep

    def privacy(self) -> LearnerPrivacy:
        """(ε, 0): per segment the two one-sided AboveThresholds (ε/2 each) compose (their joint output probability
        factorises into the two runs' prefix probabilities); segments are disjoint with released ends (F.1)."""
        segment = compose(list(self.side_mechanisms), "basic", what="one segment: two one-sided AboveThresholds")
        return compose_claims(
            [segment], [], self.relation, "segments on disjoint stretches of the stream (F.1); basic within one"
        )

    def mistake_bound(self) -> int:
        raise LittlestoneError("SignFreeBisectAT claims no mistake bound (practical setting only)")

    def _diagnostic_state(self) -> dict[str, Any]:
        return {"segment_left_mistakes": self._sides[0].count, "segment_right_mistakes": self._sides[1].count}


__all__ = ["SignFreeBisectAT", "signfree_tau"]
