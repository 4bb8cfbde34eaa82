"""GL21 DP-SOA (GL21 Alg. 1 with HistSparse, Alg. 2; Thm 4.1) for oblivious adversaries, and its adaptive variant
(GL21 Thm 4.2: a fresh DP-SOA on the prefix every round, one stable histogram per round, advanced composition).

Forest: k₂ full binary trees with k₁ leaves (vertices in heap order 1 … 2k₁−1, root 1). Each vertex may hold a
sample; the pertinent vertices start as the leaves (empty samples). Round t: the example goes to the pertinent
ancestor-or-self v₁ of a uniformly random leaf (skipped if v₁ is a root); while v₁ and its sibling v₂ are both
pertinent and their base-learner outputs differ, a tournament creates the parent's sample: the child whose output is
wrong on a disagreement point x_p with a uniformly guessed label y_p, extended by (x_p, y_p). After a merge the tree's
output vertex o_i is redrawn uniformly among the vertices that agree with their pertinent sibling (none: the tree's
output becomes ⊥). The released h_t is chosen from the list L_t = (A(S_{o_i}))_i by HistSparse.

Our choices where GL21 leave room (documented, privacy-neutral):
* a sample the base learner cannot fit (⊥, after a wrong guess) never enters a tournament;
* ⊥ entries of the list are no candidates of the histogram; "nothing released" is released as the constant-0
  hypothesis;
* after HistSparse's c-th histogram (ABORT) the learner keeps releasing its last hypothesis;
* noise split: HistSparse = SparseVector (Dwork–Roth *Sparse*, c runs of AboveThreshold with ε/(2c) each, queries
  1 − freq of sensitivity 1/k₂: threshold noise Lap(4c/(k₂ε)) = 2σ, query noise 4σ with GL21's σ = 2c/(k₂ε)) plus at
  most c stable histograms (ε/(2c), δ/c): basic composition (ε, δ). GL21's σ and 2σ close only under their own
  composition convention; we double both.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._random import SeedLike
from ..bounds.gl21 import adaptive_round_budget, theorem_4_1
from ..classes.base import Hypothesis, HypothesisClass, Point, VersionSpace
from ..errors import LittlestoneError
from ..privacy.above_threshold import SparseVector
from ..privacy.params import check_positive_int
from ..privacy.stable_histogram import StableHistogram
from .base import (
    BOT,
    BaseLearner,
    ConstantHypothesis,
    LearnerPrivacy,
    PrivateOnlineLearner,
    compose_claims,
    make_base_learner,
    split_randomness,
)

_NULL = ConstantHypothesis(0)
#: largest forest a run will allocate (trees × leaves)
MAX_FOREST = 1 << 24


@dataclass(frozen=True)
class GL21Setting:
    """k₁ leaves per tree, k₂ trees, target frequency η, at most c histograms (theory: :mod:`littlestone.bounds.gl21`).

    ``practical(d)``: k₁ = 2^{d+1} (as the theory), k₂ = 2^{9+2d}, η = 1, c = 4. Why: with c = 4 the stable
    histogram (ε/8, δ/4) has threshold τ ≈ 1 + 16·ln(8·10⁶) ≈ 255 at ε = 1, δ = 10⁻⁶, below the ≈ k₂/4 = 512 trees
    whose two height-1 tournaments both guessed right at d = 1; η = 1 puts HistSparse's switch (freq < 3η/32 ≈ 9%)
    where a forest of 2^{13} leaves (d = 1) gets there within ~3·10⁴ rounds (η = 2^{−4k₁}/(4k₁) in theory). At d = 2 the
    target holds ~1/64 of the trees and the forest needs far more rounds: GL21's constants 2^{8·2^d}. Overridable;
    privacy holds for every setting."""

    k1: int
    k2: int
    eta: float
    c: int
    name: str = "custom"

    @staticmethod
    def practical(d: int) -> "GL21Setting":
        return GL21Setting(2 ** (max(d, 0) + 1), 2 ** (9 + 2 * max(d, 0)), 1.0, 4, "practical")

    @staticmethod
    def theory(d: int, T: int, epsilon: float, delta: float, beta: float, adaptive: bool = False) -> "GL21Setting":
        b = theorem_4_1(d, T, epsilon, delta, beta, adaptive=adaptive)
        c = b.c
        if not (b.k2 < 2**62 and c < 2**62):
            p = GL21Setting.practical(d)
            way = (
                f"setting='practical' (the default: k1·k2 = {p.k1 * p.k2:,} trees)"
                if p.k1 * p.k2 <= MAX_FOREST
                else f"a custom GL21Setting(k1={p.k1}, k2=…) with k1·k2 ≤ {MAX_FOREST:,} (the practical one needs "
                f"{p.k1 * p.k2:,} at Ldim {d})"
            )
            raise LittlestoneError(
                f"the theorem's k2 = {b.k2:.3e} trees cannot be allocated ('littlestone bounds gl21' prints it); "
                f"use {way}; privacy holds for every setting"
            )
        return GL21Setting(b.k1, int(b.k2), b.eta, int(math.ceil(c)), "theory")

    def label(self) -> str:
        return f"{self.name}(k1={self.k1}, k2={self.k2}, eta={self.eta:g}, c={self.c})"


def _check_setting(s: Any, d: int) -> "GL21Setting":
    if not isinstance(s, GL21Setting):
        raise LittlestoneError(f"setting must be 'practical', 'theory' or a GL21Setting, not {s!r}")
    k1 = check_positive_int(s.k1, "k1")
    if k1 & (k1 - 1):
        raise LittlestoneError(f"k1={k1} must be a power of two (full binary trees)")
    check_positive_int(s.k2, "k2")
    check_positive_int(s.c, "c")
    if not 0 < s.eta <= 1:
        raise LittlestoneError(f"eta must be in (0, 1], got {s.eta!r}")
    if k1 * s.k2 > MAX_FOREST:
        from .too_large import too_large_message

        raise LittlestoneError(too_large_message("gl21", d, s))
    return s


class _Forest:
    """The forest of GL21 Alg. 1 and the list L_t = (A(S_{o_i}))_i with its counts; trees are materialized when
    they first receive an example (an untouched tree is all-leaves-pertinent with empty samples)."""

    def __init__(self, base: BaseLearner, k1: int, k2: int, rng: np.random.Generator, count_merges: bool = True):
        self.base, self.k1, self.k2, self.rng = base, k1, k2, rng
        self._s0 = base.start()
        self._h0 = base.output(self._s0)
        self.trees: dict[int, tuple[list, list, list]] = {}
        self.o: dict[int, int] = {}
        self.entry: dict[int, Any] = {}
        self.counts: Counter = Counter({self._h0: k2})
        #: tournaments run so far — a diagnostic-only count, kept only when asked (None otherwise; issue 26)
        self.merges: int | None = 0 if count_merges else None

    def _tree(self, i: int) -> tuple[list, list, list]:
        t = self.trees.get(i)
        if t is None:
            size = 2 * self.k1
            t = self.trees[i] = ([False] * self.k1 + [True] * self.k1, [self._s0] * size, [self._h0] * size)
            self.o[i] = self.k1  # GL21: initially an arbitrary leaf
            self.entry[i] = self._h0
        return t

    def insert(self, tree: int, leaf: int, x: Point, y: int) -> None:
        """GL21 Alg. 1, one round's update of the tree holding leaf π(t)."""
        pert, st, out = self._tree(tree)
        v1 = leaf
        while not pert[v1]:
            v1 //= 2
        if v1 == 1:
            return
        st[v1] = self.base.step(st[v1], x, y)
        out[v1] = self.base.output(st[v1])
        merged = False
        v2 = v1 ^ 1
        while pert[v1] and pert[v2] and out[v1] is not BOT and out[v2] is not BOT and out[v1] != out[v2]:
            p = v1 // 2
            xp = self.base.disagreement(out[v1], out[v2])
            yp = int(self.rng.integers(0, 2))
            j = v1 if out[v1](xp) != yp else v2
            st[p] = self.base.step(st[j], xp, yp)
            out[p] = self.base.output(st[p])
            pert[v1] = pert[v2] = False
            pert[p] = True
            merged = True
            if self.merges is not None:
                self.merges += 1
            v1 = p
            if p == 1:
                break
            v2 = p ^ 1
        if merged:
            if pert[1]:  # a pertinent root (d forced mistakes) is the tree's output
                self.o[tree] = 1
            else:
                cands = [
                    v
                    for v in range(2, 2 * self.k1)
                    if pert[v] and pert[v ^ 1] and out[v] is not BOT and out[v] == out[v ^ 1]
                ]
                if cands:
                    self.o[tree] = cands[int(self.rng.integers(0, len(cands)))]
                else:  # GL21: the root becomes the only pertinent vertex, with output ⊥
                    for v in range(1, 2 * self.k1):
                        pert[v] = False
                    pert[1] = True
                    st[1] = BOT
                    out[1] = BOT
                    self.o[tree] = 1
        new = out[self.o[tree]]
        old = self.entry[tree]
        if new is not old and new != old:
            self.counts[old] -= 1
            if not self.counts[old]:
                del self.counts[old]
            self.counts[new] += 1
            self.entry[tree] = new

    def random_leaf(self) -> tuple[int, int]:
        r = int(self.rng.integers(0, self.k1 * self.k2))
        return r // self.k1, self.k1 + r % self.k1


def _as_released(item: Any) -> Hypothesis:
    return _NULL if item is BOT or item is None else item


def _hist_top(counts: Counter, mechanism: StableHistogram, backend: Any) -> Any:
    """Top element of the stable histogram ``mechanism`` (hist_{ε,δ}) of the list (GL21 Alg. 2), None if nothing is
    released."""
    items = _candidates(counts)
    if not items:
        return None
    top = mechanism(items, backend=backend).most_common()
    if not top:
        return None
    best = max(v for _, v in top)
    return min((h for h, v in top if v == best), key=_order)


class _GL21Common(PrivateOnlineLearner):
    """What both GL21 learners share: base learner, d, the setting, released hypothesis."""

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        T: int,
        epsilon: float,
        delta: float,
        beta: float,
        setting: "GL21Setting | str",
        base: BaseLearner | str | None,
        labels: tuple[int, int],
        adaptive: bool,
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
        self.base = make_base_learner(base, self.initial_version_space)
        self.d = int(self.base.mistake_bound())
        if setting == "practical":
            setting = GL21Setting.practical(self.d)
        elif setting == "theory":
            setting = GL21Setting.theory(self.d, max(self.T, 2), self.epsilon, self.delta, self.beta, adaptive=adaptive)
        self.setting_ = _check_setting(setting, self.d)
        self.histograms_run = 0
        self._item: Any = None

    @property
    def setting(self) -> str:
        return self.setting_.label()

    def _released(self) -> Hypothesis:
        return _as_released(self._item)


class GL21(_GL21Common):
    """GL21 DP-SOA with HistSparse: (ε, δ)-DP released stream; O_d(log T) mistakes against oblivious adversaries
    (GL21 Thm 4.1, for the theory setting). Parameters as :class:`~littlestone.private_online.LWY25`, with
    ``setting`` a :class:`GL21Setting`, "practical" (default) or "theory".
    ``diagnostics=True`` adds the forest's exact counts (merges, entries of the list, frequency of the released
    hypothesis) to :meth:`state` and lets :attr:`forest` be read; without it neither is shown."""

    agnostic = False  # realizable streams only: no regret guarantee on noisy streams

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        T: int,
        epsilon: float,
        delta: float,
        beta: float = 0.1,
        setting: GL21Setting | str = "practical",
        base: BaseLearner | str | None = None,
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
            setting=setting,
            base=base,
            labels=labels,
            adaptive=False,
            feature=feature,
            diagnostics=diagnostics,
            accountant=accountant,
        )
        (rng,), (self._b_svt, self._b_hist) = split_randomness(backend, seed, 1, 2)
        self._discrete = self._b_hist.floating_point_safe
        s = self.setting_
        self._forest = _Forest(self.base, s.k1, s.k2, rng, count_merges=self.diagnostics)
        self._svt = SparseVector(
            1.0 - 3.0 * s.eta / 32.0, self.epsilon / 2.0, s.c, sensitivity=1.0 / s.k2, backend=self._b_svt
        )
        # the mechanisms run (GL21 Alg. 2, HistSparse): the SparseVector above and at most c stable histograms
        self.histogram_mechanism = StableHistogram(self.epsilon / (2 * s.c), self.delta / s.c, discrete=self._discrete)
        self.aborted = False
        self._item = self._hist_top()

    @property
    def forest(self) -> _Forest:
        """The forest (samples, list and its exact counts): the private stream itself, only with
        ``diagnostics=True``."""
        self._require_diagnostics("forest")
        return self._forest

    def _hist_top(self) -> Any:
        """Top element of hist_{ε/(2c), δ/c}(L_t) (GL21 Alg. 2), None if nothing is released."""
        self.histograms_run += 1
        return _hist_top(self._forest.counts, self.histogram_mechanism, self._b_hist)

    def _learn01(self, x: Point, y: int) -> None:
        f = self._forest
        tree, leaf = f.random_leaf()
        f.insert(tree, leaf, x, y)
        if self.aborted:
            return
        # HistSparse at the start of round t+1: Q = 1 − freq_{L_{t+1}}(h_t)
        q = 1.0 - f.counts.get(self._item, 0) / f.k2 if self._item is not None else 1.0
        if self._svt.test(q):
            self._item = self._hist_top()
            if self._svt.halted or self.histograms_run >= self.setting_.c:
                self.aborted = True

    def privacy(self) -> LearnerPrivacy:
        """Basic composition of the mechanism objects run: the SparseVector (ε/2 over its c runs) and c runs of the
        stable histogram (ε/(2c), exact δ ≤ δ/c)."""
        return compose_claims(
            (),
            (self._svt.mechanism,) + (self.histogram_mechanism,) * self.setting_.c,
            "replace-one example of a fixed (oblivious) stream",
            "basic composition",
        )

    def _public_state(self) -> dict[str, Any]:
        """Computed from mechanism outputs: the SparseVector's ⊤s, the histograms run, ABORT."""
        return {
            "t": self.t,
            "histograms_run": self.histograms_run,
            "svt_positives": self._svt.positives,
            "aborted": self.aborted,
            "setting": self.setting,
        }

    def _diagnostic_state(self) -> dict[str, Any]:
        """Exact counts of the forest: distinct entries of the list L_t, the released hypothesis's exact frequency
        in it (the SparseVector's query before noise), the tournaments (merges) run so far."""
        f = self._forest
        return {
            "distinct_in_list": len(f.counts),
            "released_frequency": f.counts.get(self._item, 0) / f.k2,
            "merges": f.merges,
        }


def _candidates(counts: Counter) -> list:
    """The list's entries that are hypotheses (⊥ — a tree whose samples the SOA cannot fit — is no candidate; a
    changed example still moves at most one entry, so the histogram's replace-one analysis covers it)."""
    return [e for e, n in counts.items() if e is not BOT for _ in range(n)]


def _order(h: Any) -> tuple:
    return (1, ()) if h is BOT else (0, h._order_key())


class GL21Adaptive(_GL21Common):
    """GL21 Thm 4.2: every round a fresh DP-SOA forest is built on the prefix with fresh randomness and h_t is the top
    of one stable histogram (ε′, δ′) = (ε/(2√(2T ln(1/δ))), δ/(2T)) of its list; T-fold advanced composition.
    Cost O(t) per round (O(T²) in all): meant for small T."""

    agnostic = False  # realizable streams only: no regret guarantee on noisy streams

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        T: int,
        epsilon: float,
        delta: float,
        beta: float = 0.1,
        setting: GL21Setting | str = "practical",
        base: BaseLearner | str | None = None,
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
            setting=setting,
            base=base,
            labels=labels,
            adaptive=True,
            feature=feature,
            diagnostics=diagnostics,
            accountant=accountant,
        )
        (self._rng,), (self._b_hist,) = split_randomness(backend, seed, 1, 1)
        self._discrete = self._b_hist.floating_point_safe
        self.eps_round, self.delta_round = adaptive_round_budget(self.epsilon, self.delta, self.T)
        self.histogram_mechanism = StableHistogram(self.eps_round, self.delta_round, discrete=self._discrete)
        self._prefix: list[tuple[Point, int]] = []
        self._item = self._fresh()

    def _fresh(self) -> Any:
        s = self.setting_
        f = _Forest(self.base, s.k1, s.k2, np.random.default_rng(self._rng.integers(0, 2**63 - 1)))
        for x, y in self._prefix:
            tree, leaf = f.random_leaf()
            f.insert(tree, leaf, x, y)
        self.histograms_run += 1
        return _hist_top(f.counts, self.histogram_mechanism, self._b_hist)

    def _learn01(self, x: Point, y: int) -> None:
        self._prefix.append((x, y))
        self._item = self._fresh()

    def privacy(self) -> LearnerPrivacy:
        """The T runs of :attr:`histogram_mechanism` (one per round on data), composed by the better of basic and
        advanced composition (slack δ/2; GL21 Thm 4.2 uses advanced) — never above the requested (ε, δ), since
        :func:`adaptive_round_budget` shrinks ε′ where GL21's ε′ would compose above ε."""
        return compose_claims(
            (),
            (self.histogram_mechanism,) * self.T,
            self.relation,
            "better of basic and advanced composition (slack δ/2), GL21 Thm 4.2",
            how="best",
            delta_slack=self.delta / 2.0,
        )

    def _public_state(self) -> dict[str, Any]:
        """Parameters and the released item (no count of the prefix is kept)."""
        return {
            "t": self.t,
            "histograms_run": self.histograms_run,
            "released_is_null": self._item is None,
            "eps_round": self.eps_round,
            "setting": self.setting,
        }
