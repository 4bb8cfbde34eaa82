"""SegmentedEM: a pure ε-DP private online learner for noisy streams — regret against the best hypothesis in hindsight
— private against adaptive adversaries (LWY25 Def. 2.4), for thresholds on any domain (2⁶⁰ included), point
functions and any listable finite class (shared/spec ALGORITHMS.md App. G.2 with G.1's growing epochs; proofs in
docs/derivations.md, "G.2 SegmentedEM").

The stream is cut into segments; the released hypothesis h_j is fixed for the whole of segment j. With
ε = ε_AT + ε_EM + ε_err (default shares 0.2 / 0.75 / 0.05 in the practical setting, :data:`PRACTICAL_SPLIT`;
0.5 / 0.35 / 0.15 in the theory setting):

* **stay test.** A step AboveThreshold(τ, ε_AT) on q = b·(mistakes of h_j in the segment) − a_j·(rounds in the
  segment) − ⌈b·(τ_j − τ)⌉, where ρ_j = a_j/b (b = :data:`RHO_DENOMINATOR`) is the *public* error level h_j is
  expected to keep and τ_j = max(τ, 2(ln R_j + 1)/ε_EM) raises the threshold to what the selection over R_j
  candidates needs to tell the best from the rest (:func:`selection_tau`; R_j public: the class, or the window). A ⊤
  ends the segment: h_j errs noticeably more often than ρ_j (a drifting stream, or an adversary playing where h_j
  is wrong). τ = ln T/ε_AT by default.
* **public end.** The segment also ends when it is as long as the stream before it (max(``first``, start round)):
  on a stationary stream the segments double, so the selection below reads ever more rounds (G.1's epochs).
* **quiet segments** (practical setting). A segment whose public length max(``first``, start) is below
  ``stay_factor``·τ (default :data:`STAY_FACTOR` = 4) runs no stay test — a hypothesis erring on every round would
  reach τ_j only by its end — and its selection takes the stay test's share; the error release runs only when the
  next segment runs a stay test (it alone reads ρ), else its share goes to the selection too and ρ = :data:`RHO_CAP`. Both flags
  are functions of public segment starts, so every segment's rounds are read by mechanisms of total ε at most ε.
* **selection.** At the end, the exponential mechanism (ε_EM, score −mistakes on *this segment's* rounds, sensitivity
  1) releases h_{j+1}, over the whole class in closed form (:mod:`~littlestone.private_online.segment_scores`); for
  thresholds restricted to a public window |s − s_j| ≤ W whose width follows the released steps (doubled after two
  steps the same way, halved after a turn — computed from released outputs only): an adversary whose examples all
  lie on one side of the target makes every threshold beyond them fit, and the window keeps the draw near them. The
  window engages at the first segment ended by a ⊤ (a released output): on a stream where the stay test never
  fires every selection sees the whole class.
  After a segment that reached its public end although it was long enough for the stay test to fire on a hypothesis
  that always errs (n(1 − ρ_j) ≥ 2τ_j), h_j gets a public extra weight e^{ε_EM·τ′_j/2} (a public base measure; the
  practical setting only): a hypothesis that passed a long test is not traded for an equally good one.
* **bracket** (thresholds of ≥ :data:`BRACKET_MIN_CLASS` values, practical setting). After a ⊤-ended segment the
  released move s_j → s_{j+1} narrows a public bracket [L, U] (right: L = s_j + 1; left: U = s_j − 1; a move that
  lands within :data:`BRACKET_EDGE` of the end it moved to reopens that end; :data:`ENDGAME_TOPS` ⊤s at width ≤
  :data:`ENDGAME_WIDTH` drop it) and the selection draws in window ∩ bracket (:func:`next_bracket`); a public end
  drops it. A bisection on released moves: what earlier segments showed, kept without reading them again.
* **error level.** A discrete Laplace release (ε_err, sensitivity 1) of h_{j+1}'s mistakes on the same rounds gives
  r̂; ρ_{j+1} = min(0.55, r̂/n + margin + 2·√(max(r̂/n, 0.01)/n) + 2·ln T/(ε_err·n)) — public, a function of released
  values and the public segment length n.
  After a *fast* ⊤ (n(1 − ρ_j) ≤ :data:`FAST_TOP`·τ_j, public) on the bracket's classes and point functions,
  ρ_{j+1} ≤ ``rho_after_top`` (0.15): the release's confidence term caps ρ at ½ on every short segment.

Privacy (docs/derivations.md, "G.2 SegmentedEM"): (ε, 0)-DP under LWY25 Def. 2.4 on every stream and every setting.
Within a segment the released hypothesis is fixed and ρ_j public, so replacing round t* changes the queries of its
segment by b·c·1[i ≥ i*] (a step: the step AboveThreshold's assumption); the selection and the error release read the
segment's rounds only; segments are disjoint with ends decided by released outputs and public times (the
disjoint-segment lemma F.1), so the claim is max over segments of ε_AT + ε_EM + ε_err = ε.

Regret: :func:`littlestone.bounds.agnostic_segments.segmented_em_bound` (an i.i.d. bound; against adaptive
adversaries the bound is per segment — the derivation says what is and is not proved).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .._random import SeedLike
from ..bounds.agnostic_segments import (
    DEFAULT_FIRST,
    DEFAULT_MARGIN,
    DEFAULT_SPLIT,
    class_size,
    epoch_lengths,
    theory_beta,
    theory_error_level,
    theory_tau,
)
from ..classes.base import Hypothesis, HypothesisClass, Point, VersionSpace
from ..errors import LittlestoneError
from ..privacy.cell_exponential import CellExponentialMechanism
from ..privacy.laplace import DiscreteLaplaceMechanism
from ..privacy.mechanism import compose
from .base import LearnerPrivacy, PrivateOnlineLearner, compose_claims, split_randomness
from .segment_scores import PointScores, SegmentScores, scores_for
from .segments import AT_KINDS, check_at_kind

#: ρ is kept as a/b with this public denominator b, so that the AboveThreshold's queries b·m − a·n are integers
RHO_DENOMINATOR = 1024
#: the practical setting's largest ρ (before any release, after a quiet segment, and the cap of every release): a
#: public constant a little above ½, so that on a near-chance stream (the best errs 40–50 %) the stay test does not
#: end segments on the count's excursions; a hypothesis the adversary makes err on 90 % of its rounds still reaches
#: τ_j after about τ_j/0.35 rounds. Measured: benchmarks/results/real_streams_scorecard.md (½: 123 cells, 0.55: 126)
RHO_CAP = 0.55
#: the smallest window half-width of the threshold selection
MIN_WINDOW = 4
#: the bracket (thresholds): a released draw this close to a bracket end, as a fraction of the bracket's width,
#: reopens that end (by the bracket's width) — the way out when a move was wrong (noise) or the target drifted
BRACKET_EDGE = 1.0 / 8
#: the bracket is used on threshold classes of at least this many thresholds only: on small grids (real streams'
#: public grids have 2–32 cells) the selection over the whole window is cheap (ln R small) and a bracket set by a
#: drift's ⊤ costs accuracy (benchmarks/results/segment_bracket.md)
BRACKET_MIN_CLASS = 1 << 10
#: the bracket's endgame: once its width is at most ENDGAME_WIDTH, ENDGAME_TOPS more ⊤-ended segments drop it and
#: reopen the window to the whole class — a bisection ends in ≈ log2(ENDGAME_WIDTH) segments on a realizable
#: stream, so more ⊤s say the target is outside the bracket (a wrong move through a window that missed the data)
ENDGAME_WIDTH, ENDGAME_TOPS = 4 * MIN_WINDOW, 16
#: a ⊤ is fast when the segment's length n has n·(1 − ρ_j) ≤ FAST_TOP·τ_j (a hypothesis erring on nearly every round
#: fires at n(1 − ρ_j) ≈ τ_j; a stationary stream whose error rate p exceeds a low ρ_j by d fires at n ≈ τ_j/d, so
#: ρ capped below p is lifted again after one slow ⊤)
FAST_TOP = 3.0
#: ρ after a fast ⊤ is at most this (``rho_after_top``; measured 0.25 / 0.15 / 0.1 / 0.05 on clean and noisy
#: adaptive streams, benchmarks/results/segment_clean_adaptive.md): noise up to ≈ 0.13 is still below it
RHO_AFTER_FAST_TOP = 0.15
#: the practical setting runs the stay test in a segment only when its public length is at least this many τ: shorter,
#: a hypothesis erring on every round reaches the threshold τ_j only by the segment's end (at ρ near ½), so the test
#: would spend ε_AT for nothing — the selection gets that share instead
STAY_FACTOR = 4.0
#: the practical setting's shares of ε (stay test, selection, error release) in a segment that runs the stay test
#: (a quiet segment — :data:`STAY_FACTOR` — gives the selection the stay test's share). Measured (benchmarks/results/
#: real_streams_scorecard.md; thresholds 2^16 at T = 10^5): the selection's share sets the regret on short stationary
#: streams (a wrong draw is kept for a whole doubling segment), the stay test's share the adaptive adversary's (each ⊤
#: costs about τ/(1 − ρ) rounds, τ = ln T/ε_AT): 0.2 keeps it near 2.7 % of T with the window engaged at the first ⊤,
#: and costs one real-stream cell of 170 against 0.15.
PRACTICAL_SPLIT = (0.2, 0.75, 0.05)
#: the practical setting's shortest public segment (the theory setting's is the bound's ``DEFAULT_FIRST``): the public
#: start hypothesis is kept for ``first`` rounds, which on a 1,250-round stream is worth whole points of accuracy
PRACTICAL_FIRST = 16
#: vectorised blocks of :meth:`SegmentedEM.run`: FIRST, 2·FIRST, … up to MAX rounds
FIRST_BLOCK, MAX_BLOCK = 256, 1 << 16


def check_split(split: Sequence[float]) -> tuple[float, float, float]:
    """Three positive shares of ε (stay test, selection, error release) summing to 1."""
    try:
        s = tuple(float(v) for v in split)
    except (TypeError, ValueError):
        raise LittlestoneError(f"split must be three positive shares summing to 1, not {split!r}") from None
    if len(s) != 3 or min(s) <= 0 or abs(sum(s) - 1.0) > 1e-9:
        raise LittlestoneError(f"split must be three positive shares summing to 1, not {split!r}")
    return s  # type: ignore[return-value]


def default_tau(epsilon_at: float, T: int) -> float:
    """τ = ln T/ε_AT: the largest of T query noises Lap(1/ε_AT) stays below it except with probability about ½, and
    the count's own excursions above ρ·n stay small because ρ includes a margin. Privacy does not depend on τ."""
    return math.log(max(T, 2)) / epsilon_at


#: t of the exponential mechanism's utility 2(ln R + t)/ε: the selection misses the segment's best by more w.p. ≤ e^{−t}
SELECTION_SLACK = 1.0


def selection_tau(epsilon_select: float, range_size: int) -> float:
    """2·(ln R + 1)/ε_EM: the excess count at which the exponential mechanism over R candidates can tell the segment's
    best from the rest (its utility loss is 2(ln R + t)/ε_EM); the stay test's threshold is raised to it by a public
    offset of the queries (R is public: the class, or the thresholds' released window)."""
    return 2.0 * (math.log(max(range_size, 1)) + SELECTION_SLACK) / epsilon_select


def error_level(noisy_errors: float, n: int, epsilon_err: float, T: int, margin: float, cap: float = RHO_CAP) -> float:
    """ρ = min(cap, r̂/n + margin + 2·√(max(r̂/n, 0.01)/n) + 2·ln T/(ε_err·n)): the error rate a hypothesis selected on
    n rounds, with r̂ its noisy mistakes there, should keep on fresh rounds of the same law (public: r̂ is released;
    cap = :data:`RHO_CAP`)."""
    r = min(max(noisy_errors / n, 0.0), 1.0)
    return min(cap, r + margin + 2.0 * math.sqrt(max(r, 0.01) / n) + 2.0 * math.log(max(T, 2)) / (epsilon_err * n))


def next_bracket(bracket: tuple[int, int] | None, old: int, new: int, lo: int, hi: int) -> tuple[int, int]:
    """The thresholds' public bracket [L, U] after the released move old → new (a function of released thresholds
    only): a move right sets L = old + 1 (the selection found thresholds right of old better), a move left
    U = old − 1 — a bisection on the released moves. A move that ends within :data:`BRACKET_EDGE` of the
    bracket's width from the end it moved towards reopens that end by the width (a wrong move, noise, a drift)."""
    L, U = (lo, hi) if bracket is None else bracket
    w = U - L
    edge = max(1, int(w * BRACKET_EDGE))
    if new > old:
        if U - new < edge:
            U = min(hi, U + max(w, 2 * MIN_WINDOW))
        L = max(L, old + 1)
    elif new < old:
        if new - L < edge:
            L = max(lo, L - max(w, 2 * MIN_WINDOW))
        U = min(U, old - 1)
    return (min(L, new), max(U, new))


class SegmentedEM(PrivateOnlineLearner):
    """SegmentedEM (App. G.2 + G.1): segments ended by a step AboveThreshold on (mistakes − ρ·rounds) or at public
    doubling times; at each end the exponential mechanism selects the next hypothesis on the segment's rounds and a
    discrete Laplace release of its mistakes there sets the next ρ. (ε, 0)-DP under LWY25 Def. 2.4 (adaptive
    adversaries, the whole released stream) on every stream and for every setting; agnostic (a regret guarantee
    against the best hypothesis in hindsight on noisy streams).

    Parameters: ``T``, ``epsilon``, ``delta`` (ignored: pure ε-DP), ``beta``, ``setting`` ("practical" — default — or
    "theory": the τ, error level and no window of the i.i.d. regret bound,
    :func:`littlestone.bounds.agnostic_segments.segmented_em_bound`), ``split`` (shares of ε: stay test,
    selection, error release; default :data:`PRACTICAL_SPLIT`, or the bound's ``DEFAULT_SPLIT`` in the theory
    setting), ``tau`` (the AboveThreshold's threshold; default ln T/ε_AT), ``first`` (the shortest
    public segment; default :data:`PRACTICAL_FIRST`, or the bound's ``DEFAULT_FIRST`` in the theory setting),
    ``stay_factor`` (segments shorter than stay_factor·τ run no stay test; default :data:`STAY_FACTOR`, 0 in the
    theory setting), ``window`` (the thresholds' public window; None = the class default, True here), ``margin``
    (added to ρ), ``bracket`` (the thresholds' public bracket; True), ``rho_after_top`` (ρ's cap after a fast ⊤;
    0.15, None = no cap), ``at`` ("step" — default —, "monotone" or "standard"), ``backend``, ``seed``, ``labels``,
    ``feature``, ``diagnostics``, ``accountant``.

    >>> from littlestone import Thresholds
    >>> learner = SegmentedEM(Thresholds(2**60), T=1000, epsilon=1.0, backend="seeded", seed=0)
    >>> learner.hypothesis()
    Threshold(576460752303423488,)
    """

    pure_dp = True
    agnostic = True
    #: False for the epochs-only variant (:class:`~littlestone.private_online.EpochEM`): no stay test, no ρ
    uses_stay_test = True
    #: the thresholds' public window unless ``window=`` says otherwise
    default_window = True

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        T: int,
        epsilon: float,
        delta: float = 0.0,
        beta: float = 0.1,
        setting: str = "practical",
        split: Sequence[float] | None = None,
        tau: float | None = None,
        first: int | None = None,
        window: bool | None = None,
        margin: float = DEFAULT_MARGIN,
        bracket: bool = True,
        rho_after_top: float | None = RHO_AFTER_FAST_TOP,
        stay_factor: float | None = None,
        at: str = "step",
        backend: Any = "secure",
        seed: SeedLike = None,
        labels: tuple[int, int] = (0, 1),
        feature: str | None = None,
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
            diagnostics=diagnostics,
            accountant=accountant,
        )
        if setting not in ("practical", "theory"):
            raise LittlestoneError(f"setting must be 'practical' or 'theory', not {setting!r}")
        self.setting_ = str(setting)
        self.scores: SegmentScores = scores_for(self.initial_version_space)
        if first is None:
            first = DEFAULT_FIRST if setting == "theory" else PRACTICAL_FIRST
        if isinstance(first, bool) or not isinstance(first, (int, np.integer)) or first < 1:
            raise LittlestoneError(f"first must be a positive int, not {first!r}")
        self.first = int(first)
        if not isinstance(margin, (int, float)) or isinstance(margin, bool) or not 0 <= margin < 1:
            raise LittlestoneError(f"margin must be a number in [0, 1), not {margin!r}")
        self.margin = float(margin)
        self.theory = self.setting_ == "theory"
        if window is None:  # the class default: thresholds always; stumps and intervals from BRACKET_MIN_CLASS on
            # (on the small public grids of real streams — 2–32 cells — the intervals' window cost accuracy: the
            # real-stream scorecard's intervals cells within 2 points 27 → 20 of 40)
            window = self.default_window and (self.scores.ordered or self.scores.range_size() >= BRACKET_MIN_CLASS)
        self.window = bool(window) and (self.scores.ordered or self.scores.windowed) and not self.theory
        self.bracket = bool(bracket) and self.window and self.scores.ordered
        self.bracket = self.bracket and self.scores.range_size() >= BRACKET_MIN_CLASS
        if rho_after_top is not None and (
            isinstance(rho_after_top, bool)
            or not isinstance(rho_after_top, (int, float))
            or not 0 < rho_after_top <= 0.5
        ):
            raise LittlestoneError(f"rho_after_top must be a number in (0, 0.5] or None, not {rho_after_top!r}")
        self.rho_after_top = 0.5 if rho_after_top is None else float(rho_after_top)
        #: the fast-⊤ cap of ρ: on wide threshold classes (with the bracket) and point functions — not on the small
        #: grids of real streams, where it cost accuracy (scorecard within-2-points 91 of 170 against 98)
        self.fast_cap = (
            rho_after_top is not None
            and not self.theory
            and (self.bracket or isinstance(self.scores, PointScores) or (self.window and self.scores.windowed))
        )
        self.at = check_at_kind(at)
        if stay_factor is None:
            stay_factor = 0.0 if self.theory else STAY_FACTOR
        if isinstance(stay_factor, bool) or not isinstance(stay_factor, (int, float)) or not stay_factor >= 0:
            raise LittlestoneError(f"stay_factor must be a number ≥ 0, not {stay_factor!r}")
        self.stay_factor = float(stay_factor)
        if split is None:
            split = DEFAULT_SPLIT if self.theory else PRACTICAL_SPLIT
        self.split = self._split(split)
        e_at, e_em, e_err = (s * self.epsilon for s in self.split)
        self.epsilon_at, self.epsilon_select, self.epsilon_error = e_at, e_em, e_err
        (self._rng,), (b_at, self._b_select, self._b_error) = split_randomness(backend, seed, 1, 3)
        self._size = 0
        if self.theory:  # the parameters of the i.i.d. bound (littlestone.bounds.agnostic_segments)
            self._size = class_size(self.initial_version_space)
            self._beta_prime = theory_beta(self.beta, len(epoch_lengths(self.T, self.first)))
        if tau is None and e_at > 0:
            tau = theory_tau(e_at, self.T, self._beta_prime, self.margin) if self.theory else default_tau(e_at, self.T)
        self.tau = float(tau) if tau is not None else math.inf
        if not self.tau > 0:
            raise LittlestoneError(f"tau must be positive, not {tau!r}")
        #: the mechanism objects run once per segment (privacy() composes exactly these)
        self.selection_mechanism = CellExponentialMechanism(e_em, 1.0)
        self._selection_mechanisms: dict[float, CellExponentialMechanism] = {e_em: self.selection_mechanism}
        self.at_mechanism = None
        self.error_mechanism = None
        if self.uses_stay_test:
            b = RHO_DENOMINATOR
            at_cls, run_cls = AT_KINDS[self.at]
            self.at_mechanism = run_cls(b * self.tau, e_at, sensitivity=float(b))
            self.error_mechanism = DiscreteLaplaceMechanism(e_err, sensitivity=1)
            self._at = at_cls(
                self.at_mechanism.threshold,
                e_at,
                sensitivity=float(b),
                backend=b_at,
                noise_batch=4096,
                threshold_batch=16,
                integer_queries=True,  # b·(mistakes) − a·(rounds): integers
            )
        self._h: Hypothesis = self.scores.start()
        # ρ_1 = 1 (theory) or RHO_CAP (practical): public
        self._rho_num = RHO_DENOMINATOR if self.theory else math.ceil(RHO_CAP * RHO_DENOMINATOR)
        self._offset = 0  # the public query offset b·(τ_j − τ) of the current segment
        self._width = None  # the window's half-width (thresholds): the whole class at first
        self._last_step = 0
        self._bracket: tuple[int, int] | None = None  # [L, U] from the released moves (thresholds)
        self._endgame_tops = 0  # ⊤-ended segments since the bracket's width fell to ENDGAME_WIDTH (public)
        self.segments, self.tops = 1, 0
        self._seg_start = 0
        self.quiet_segments = 0
        self._new_segment_buffers()

    def _split(self, split: Sequence[float]) -> tuple[float, float, float]:
        return check_split(split)

    # ------------------------------------------------------------------------------------------- segments
    def _new_segment_buffers(self) -> None:
        self._count = 0  # mistakes of h_j in the segment (private)
        self._n = 0  # rounds in the segment (public: a function of the released ends)
        self._blocks_x: list[Any] = []
        self._blocks_y: list[np.ndarray] = []
        self._px: list[Any] = []
        self._py: list[int] = []
        self._cap = max(self.first, self._seg_start)
        self._active = self.stay_active(self._seg_start)
        if self._active:
            tau_j = selection_tau(self.epsilon_select, self.scores.range_size(self._window()))
            self._offset = math.ceil(RHO_DENOMINATOR * max(0.0, tau_j - self.tau))
            self._tau_j = max(self.tau, tau_j)

    def stay_active(self, start: int) -> bool:
        """Whether the segment starting at round ``start`` runs the stay test: its public length max(first, start) is
        at least stay_factor·τ (public: a function of the released ends and of public parameters only)."""
        if not self.uses_stay_test:
            return False
        return max(self.first, start) >= self.stay_factor * self.tau

    def selection_epsilon(self, active: bool, next_active: bool) -> float:
        """ε of the selection at the end of a segment: what the segment's stay test (if it ran) and the error release
        (if the next segment runs a stay test, it needs ρ) leave of ε; both flags public."""
        if not self.uses_stay_test:
            return self.epsilon_select
        return self.epsilon - active * self.epsilon_at - next_active * self.epsilon_error

    def _second_stage(self, select: CellExponentialMechanism) -> CellExponentialMechanism:
        """The mechanism a two-stage closed form (intervals) draws its second stage with: the selection's own (the
        two stages are one exponential-mechanism draw; G.3)."""
        return select

    def _selection_mechanism(self, eps: float) -> CellExponentialMechanism:
        m = self._selection_mechanisms.get(eps)
        if m is None:
            m = self._selection_mechanisms[eps] = CellExponentialMechanism(eps, 1.0)
        return m

    def _segment_examples(self) -> tuple[Any, np.ndarray]:
        if self._px:
            self._blocks_x.append(self._stack_points(self._px))
            self._blocks_y.append(np.asarray(self._py, dtype=np.int8))
            self._px, self._py = [], []
        if not self._blocks_x:
            return [], np.zeros(0, np.int8)
        if len(self._blocks_x) == 1:
            return self._blocks_x[0], self._blocks_y[0]
        xs = self._blocks_x
        x = np.concatenate(xs) if all(isinstance(b, np.ndarray) for b in xs) else [p for b in xs for p in b]
        return x, np.concatenate(self._blocks_y)

    def _selection_examples(self) -> tuple[Any, np.ndarray]:
        """The rounds the selection and the error release read: this segment's, and no other."""
        return self._segment_examples()

    def _stack_points(self, pts: list[Any]) -> Any:
        if all(isinstance(p, int) for p in pts) and all(-(2**63) <= p < 2**63 for p in pts):
            return np.asarray(pts, dtype=np.int64)
        return list(pts)

    def _window(self) -> tuple[int, int] | None:
        if not self.window or self._width is None:
            return None
        if self.scores.windowed:  # stumps, intervals: the scores' own public window (segment_scores)
            return self.scores.window_for(self._h, self._width)
        c = self._h.t  # type: ignore[attr-defined]
        if self._bracket is not None:
            lo, hi = self._bracket
            return (max(lo, c - self._width), min(hi, c + self._width))
        return (c - self._width, c + self._width)

    def _end_segment(self, top: bool) -> None:
        """The end of segment j: select h_{j+1} on its rounds, release its noisy mistakes there, set ρ_{j+1}."""
        x, y = self._selection_examples()
        n = len(y)
        window = self._window()
        active = self._active
        next_active = self.stay_active(self._seg_start + self._n)  # public: the next segment's start and length
        select = self._selection_mechanism(self.selection_epsilon(active, next_active))
        # a closed form drawing in two stages (intervals) draws its second stage through this segment's mechanism
        self.scores.bind(self._second_stage(select), self._b_select)
        sizes, mistakes, decode = self.scores.cells(x, y, window)
        scores = -np.asarray(mistakes, dtype=float)
        # a segment that reached its public end although long enough for the stay test to have fired on a hypothesis
        # erring always (n ≥ 2τ_j/(1 − ρ_j), public): the kept hypothesis gets a public extra weight
        incumbent = active and not self.theory and not top and self._n * (1.0 - self.rho) >= 2.0 * self._tau_j
        if incumbent:
            sizes = list(sizes) + [1]
            bonus = selection_tau(self.epsilon_select, self.scores.range_size(window))
            scores = np.append(scores, bonus - self.scores.mistakes(self._h, x, y))
        # a fast ⊤ (public: the segment's length, ρ_j and τ_j): the stay test fired as on a hypothesis that errs on
        # nearly every round — the error release on so short a segment caps ρ at ½; the next ρ is capped lower
        fast_top = top and self.fast_cap and self._n * (1.0 - self.rho) <= FAST_TOP * self._tau_j
        j = select((sizes, scores), backend=self._b_select)
        h_new = self._h if incumbent and j == len(sizes) - 1 else decode(j, self._rng)
        if next_active:
            err = self.scores.mistakes(h_new, x, y)
            r_hat = float(self.error_mechanism(np.int64(err), backend=self._b_error))  # type: ignore[misc]
            if self.theory:
                rho = theory_error_level(r_hat, n, self.epsilon_error, self._size, self._beta_prime, self.margin)
            else:
                rho = error_level(r_hat, n, self.epsilon_error, self.T, self.margin)
            if fast_top:
                rho = min(rho, self.rho_after_top)
            self._rho_num = math.ceil(rho * RHO_DENOMINATOR)
        elif self.uses_stay_test:
            self._rho_num = math.ceil(RHO_CAP * RHO_DENOMINATOR)  # no release: the public ρ = RHO_CAP
        if active:
            self._at.restart()
        self.quiet_segments += int(self.uses_stay_test and not active)
        if self.window and self.scores.windowed:  # stumps, intervals: the same rule, per cut (segment_scores)
            if top or self._width is not None:  # engaged at the first ⊤, as for thresholds (below)
                self._width = self.scores.next_width(self._width, self._h, h_new, top)
        elif self.window and (top or self._width is not None):
            # the public step-size rule, computed from released thresholds and ⊤s only: the window engages at the first
            # segment ended by a ⊤ (a search under way); until then every selection sees the whole class
            if self.bracket:  # ⊤-ended segments only: a public end (a stationary stretch) drops the bracket
                lo, hi = self.scores.lo, self.scores.hi  # type: ignore[attr-defined]
                self._bracket = next_bracket(self._bracket, self._h.t, h_new.t, lo, hi) if top else None  # type: ignore[attr-defined]
                if self._bracket is not None and self._bracket[1] - self._bracket[0] <= ENDGAME_WIDTH:
                    self._endgame_tops += 1
                    if self._endgame_tops > ENDGAME_TOPS:  # lost: start the search again over the whole class
                        self._bracket, self._width = None, None
                else:
                    self._endgame_tops = 0
            step = h_new.t - self._h.t  # type: ignore[attr-defined]
            full = self.scores.hi - self.scores.lo + 1  # type: ignore[attr-defined]
            if self._width is None:
                self._width = full
            if step:
                same = step * self._last_step > 0
                self._width = min(full, 2 * self._width) if same else max(MIN_WINDOW, self._width // 2)
                self._last_step = step
        self._h = h_new
        self.tops += int(top)
        self.segments += 1
        self._seg_start += self._n
        self._new_segment_buffers()

    # ------------------------------------------------------------------------------------------- protocol
    def _released(self) -> Hypothesis:
        return self._h

    def _learn01(self, x: Point, y: int) -> None:
        self._count += self._hf(x) != y  # _hf: the fast h_j(x) (base.released_evaluator)
        n = self._n = self._n + 1
        self._px.append(x)
        self._py.append(y)
        top = False
        if self._active:  # an int query: test_count (the same noise and comparison as test)
            top = self._at.test_count(RHO_DENOMINATOR * self._count - self._rho_num * n - self._offset)
        if top or n >= self._cap:
            self._end_segment(top)

    def _run01(self, X: Any, y: np.ndarray) -> np.ndarray:
        total = len(y)
        preds = np.empty(total, dtype=np.int8)
        pos, size = 0, FIRST_BLOCK
        while pos < total:
            k = min(total - pos, size, self._cap - self._n)
            xb = X[pos : pos + k]
            pb = self.scores.predict(self._h, xb)
            yb = y[pos : pos + k]
            miss = (pb != yb).astype(np.int64)
            m, top = k, False
            if self._active:
                q = (
                    RHO_DENOMINATOR * (self._count + np.cumsum(miss))
                    - self._rho_num * (self._n + np.arange(1, k + 1, dtype=np.int64))
                    - self._offset
                )
                first = self._at.first_above(q)
                if first >= 0:
                    m, top = first + 1, True
            self._count += int(miss[:m].sum())
            self._n += m
            self._blocks_x.append(xb[:m])
            self._blocks_y.append(np.asarray(yb[:m], dtype=np.int8))
            preds[pos : pos + m] = pb[:m]
            pos += m
            self.t += m
            if top or self._n >= self._cap:
                self._end_segment(top)
                size = FIRST_BLOCK
            else:
                size = min(MAX_BLOCK, 2 * size)
        return preds

    # ------------------------------------------------------------------------------------------- reports
    @property
    def setting(self) -> str:
        parts = ", ".join(f"{v:.3g}" for v in self.split)
        return (
            f"{self.setting_}(split=({parts}), τ={self.tau:.4g}, first={self.first}, window={self.window}, "
            f"quiet below {self.stay_factor:g}·τ, {self.at} AboveThreshold)"
        )

    @property
    def rho(self) -> float:
        """The current segment's public error level ρ_j = a_j/b (from released values)."""
        return self._rho_num / RHO_DENOMINATOR

    def segment_mechanisms(self, active: bool, next_active: bool) -> list[Any]:
        """The mechanism objects that read one segment's rounds: its stay test (if ``active``), the selection at its
        end, the error release (if the next segment runs a stay test: ``next_active``)."""
        select = self._selection_mechanism(self.selection_epsilon(active, next_active))
        at = self.at_mechanism if active else None
        err = self.error_mechanism if next_active else None
        return [m for m in (at, select, err) if m is not None]

    def privacy(self) -> LearnerPrivacy:
        """(ε, 0): per segment the stay test (:attr:`at_mechanism`, unless quiet), the selection and the error release
        (:attr:`error_mechanism`, unless the next segment is quiet) compose (basic) to ε whichever runs — the
        selection takes the shares of those that do not; segments are disjoint with released or public ends (F.1), so
        the segments compose in parallel (the maximum over the kinds of segment)."""
        kinds = [(a, n) for a in (True, False) for n in (True, False)] if self.uses_stay_test else [(False, False)]
        segments = [
            compose(self.segment_mechanisms(a, n), "basic", what="one segment: stay test, selection, error release")
            for a, n in kinds
        ]
        return compose_claims(
            segments, [], self.relation, "segments on disjoint stretches of the stream (F.1); basic within one"
        )

    def regret_bound(self) -> float:
        """The i.i.d. regret bound (w.p. ≥ 1 − β) of the theory setting
        (:func:`littlestone.bounds.agnostic_segments.segmented_em_bound`)."""
        from ..bounds.agnostic_segments import epoch_em_bound, segmented_em_bound

        if not self.theory:
            raise LittlestoneError(f"{type(self).__name__}'s regret bound is proved for setting='theory' only")
        H = self.initial_version_space
        if not self.uses_stay_test:
            return epoch_em_bound(H, self.T, self.epsilon, self.beta, first=self.first).regret
        return segmented_em_bound(
            H, self.T, self.epsilon, self.beta, split=self.split, first=self.first, margin=self.margin
        ).regret

    def _public_state(self) -> dict[str, Any]:
        """Public or computed from released values: the round, the released hypothesis, segments and ⊤s, ρ, the
        window, the segment's round count (its start is a released end)."""
        return {
            "t": self.t,
            "hypothesis": self._h,
            "segments": self.segments,
            "tops": self.tops,
            "rho": self.rho,
            "window": self._width,
            "bracket": self._bracket,
            "segment_rounds": self._n,
            "segment_cap": self._cap,
            "tau": self.tau,
            "tau_j": getattr(self, "_tau_j", self.tau),
            "setting": self.setting,
        }

    def _diagnostic_state(self) -> dict[str, Any]:
        return {"segment_mistakes": self._count}


__all__ = [
    "SegmentedEM",
    "PRACTICAL_FIRST",
    "PRACTICAL_SPLIT",
    "STAY_FACTOR",
    "RHO_DENOMINATOR",
    "check_split",
    "default_tau",
    "error_level",
    "next_bracket",
]
