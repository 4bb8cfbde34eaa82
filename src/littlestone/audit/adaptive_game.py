"""Privacy under adaptive inputs (LWY25 Def. 2.4): the audit game for private online learners, the honest audits of
LWY25 and GL21, and their broken twins.

The game: an adversary sees the released hypotheses h_1 … h_{t−1}, chooses the next example, and once — at a round t*
it picks from what it has seen — hands over two candidate examples z⁽⁰⁾, z⁽¹⁾; the learner receives z⁽ᵇ⁾. The view is
the released stream. ``audit_mechanism`` is run with D = 0 and D′ = 1 (the secret bit b), so ε_lb lower-bounds the
ε of Def. 2.4 for this adversary.

The adversaries below are deterministic and realise the leaks a broken learner would have (both candidate examples
are mistakes of the released hypothesis, so the AboveThreshold counts agree and only the sequences differ):
* thresholds(2), SOA(∅) = h_1 (predicts 0 at 0, 1 at 1); z⁽⁰⁾ = (0, 1) (consistent with h_0), z⁽¹⁾ = (1, 0)
  (consistent with h_2); t* = the first round at which the released hypothesis is h_1; every other round feeds
  (0, 1), a mistake of h_1.
* AnytimeGL21 (oblivious adversary, the streams GL21's claim covers): t* = 0 fixed, z⁽⁰⁾ = (0, 1), z⁽¹⁾ = (1, 0), then
  (0, 1) every round. Its first instance has one tree (k₂ = 1) and c = 3 — the tree's output after the special
  example is h_0 or ⊥ (b = 0) versus h_2 or ⊥ (b = 1) — so the first instance aborts within a few rounds, its abort
  guard (an AboveThreshold on the kept hypothesis's mistakes) fires some 40 rounds later and the next instance
  (k₂ = 2) takes over within the T = 60 rounds; the feature is the set of hypotheses released over the whole stream
  (:func:`released_hypotheses`), not the final one, which only shows the last instance.
* AnytimeLWY25 (N₀ = 4 first, T = 200): the first instance halts after its first AboveThreshold ⊤ (round ≈ 120; a
  layer-1 histogram of two sequences releases nothing) and the second (N₀ = 8) releases SOA(∅) to the end; its
  twin that warm-starts the second instance from a sequence of the first (which holds z⁽ᵇ⁾ or a (0, 1)) shows h_2
  only when b = 1.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any, Callable

import numpy as np

from ..classes.base import Hypothesis
from ..classes.thresholds import Threshold, Thresholds
from ..private_online import GL21, LWY25, AnytimeGL21, AnytimeLWY25, GL21Setting, LWY25Setting
from ..private_online.base import BOT
from ..privacy import Mechanism, PrivacyClaim

#: a game adversary: (t, released hypotheses so far) -> ("example", x, y) or ("special", (x0, y0), (x1, y1))
GameAdversary = Callable[[int, tuple], tuple]


def play_adaptive_game(learner: Any, adversary: GameAdversary, b: int, T: int) -> tuple:
    """LWY25 Def. 2.4 for T rounds; the view is the released stream, compressed to its change points (t, h)."""
    released: list[Hypothesis] = []
    special_seen = False
    view: list[tuple[int, Any]] = []
    for t in range(T):
        h = learner.hypothesis()
        if not released or h != released[-1]:
            view.append((t, h.key() if hasattr(h, "key") else h))
        released.append(h)
        move = adversary(t, tuple(released))
        if move[0] == "special":
            if special_seen:
                raise ValueError("the adversary may choose only one special round t*")
            special_seen = True
            x, y = move[1 + int(b)]
        else:
            _, x, y = move
        learner.learn_one(x, y)
    return tuple(view)


def first_h1_then_mistakes(t: int, released: tuple) -> tuple:
    """t* = the first round whose released hypothesis is SOA(∅) = h_1 (round 0); z⁽⁰⁾ = (0, 1), z⁽¹⁾ = (1, 0);
    every other round (0, 1)."""
    if released[-1] == Threshold(1) and all(h != Threshold(1) for h in released[:-1]):
        return ("special", (0, 1), (1, 0))
    return ("example", 0, 1)


def special_first_then_mistakes(t: int, released: tuple) -> tuple:
    """Oblivious: t* = 0 whatever is released; z⁽⁰⁾ = (0, 1), z⁽¹⁾ = (1, 0); every other round (0, 1)."""
    return ("special", (0, 1), (1, 0)) if t == 0 else ("example", 0, 1)


# ------------------------------------------------------------------------------------------------ broken twins


class LWY25UnchargedHistogram(LWY25):
    """BROKEN: the layer's PrivateHistogram is not run (nothing charged for it) — L_s is read from the exact
    counts V_s (count ≥ max(3M_s/4, 1))."""

    def _histogram_list(self) -> list:
        L = self._layer
        counts = Counter(L.hyps[k] for k in L.agree.tolist() if k >= 0)
        self.histograms_run += 1
        cut = max(0.75 * self.setting_.M(self.s), 1.0)
        out = sorted((h for h, c in counts.items() if c >= cut), key=lambda h: (-counts[h], h))
        self.list_sizes.append(len(out))
        return out


class LWY25SharedSequence(LWY25):
    """BROKEN: one sequence shared across pairs — an example is inserted into every agreeing pair whose hypothesis
    errs on it (instead of the one random pair i_t), so one example changes every sequence of the layer."""

    def _learn01(self, x: Any, y: int) -> None:
        if self.halted:
            return
        h = self.L[0]
        self._last = h
        L = self._layer
        self._u.one()
        for k, g in enumerate(list(L.hyps)):
            if g(x) != y:
                for i in np.flatnonzero(L.agree == k).tolist():
                    self._insert(i, x, y)
        self._at_count += int(h(x) != y)
        if self._at.test(self._at_count):
            self._on_top()


class GL21ExactHistogram(GL21):
    """BROKEN: HistSparse's histogram without noise (the top of the exact counts of the list is released)."""

    def _hist_top(self) -> Any:
        self.histograms_run += 1
        counts = {h: n for h, n in self._forest.counts.items() if h is not BOT}
        if not counts:
            return None
        best = max(counts.values())
        return min((h for h, n in counts.items() if n == best))


class AnytimeLWY25UnchargedHistogram(AnytimeLWY25):
    """BROKEN: the anytime restarts of :class:`LWY25UnchargedHistogram` (every instance reads its lists from the exact
    counts), with the honest anytime claim."""

    paper = LWY25UnchargedHistogram


class AnytimeLWY25WarmStart(AnytimeLWY25):
    """BROKEN: a restarted instance reads the previous segment — it warm-starts from the previous instance's first
    non-⊥ stored sequence (all its layer-0 sequences start as that one), with the honest claim (instances composed
    in parallel over segments, which holds only if each reads its own segment alone)."""

    def _start_instance(self, horizon: int | None = None) -> None:
        prev = self.instances[-1] if self.instances else None
        super()._start_instance(horizon)
        seq = None
        if prev is not None:
            seq = next((q for q, o in zip(prev._layer.seqs, prev._layer.outs) if o is not BOT and q), None)
        if seq is None:
            return
        inst = self.current
        state = inst.base.run(seq)
        out = inst.base.output(state)
        inst._set_layer([seq] * inst.N, [state] * inst.N, [out] * inst.N, uniform=True)
        inst.L = [out]
        inst._last = out


class AnytimeGL21ExactHistogram(AnytimeGL21):
    """BROKEN: the anytime restarts of :class:`GL21ExactHistogram` (every instance's HistSparse histogram adds no
    noise), with the honest anytime claim."""

    paper = GL21ExactHistogram


# ------------------------------------------------------------------------------------------------ mechanisms


class LearnerInGame(Mechanism):
    """The mechanism audited: the secret bit b (the data) ↦ the released stream of the learner ``make(backend)`` in
    the game. Its claim is the learner's own composed claim (``learner.privacy()``, parameters only)."""

    name = "learner in the adaptive game"

    def __init__(self, make: Callable[[Any], Any], T: int, adversary: GameAdversary = first_h1_then_mistakes):
        self.make, self.T, self.adversary = make, int(T), adversary

    def privacy(self) -> PrivacyClaim:
        from ..privacy import make_backend

        c = self.make(make_backend("seeded", seed=0)).privacy()
        return PrivacyClaim(c.epsilon, c.delta, "replace-one", f"{self.name} ({c.relation}, {c.composition})")

    def __call__(self, data: Any, *, backend: Any) -> tuple:
        return play_adaptive_game(self.make(backend), self.adversary, int(data), self.T)


class BrokenLearnerInGame(LearnerInGame):
    """BROKEN: the same game and claim (the honest learner's), played by a broken subclass of the learner."""

    def __init__(
        self, make: Callable[[Any], Any], T: int, broken: type, adversary: GameAdversary = first_h1_then_mistakes
    ):
        super().__init__(make, T, adversary)
        self.broken = broken

    def __call__(self, data: Any, *, backend: Any) -> tuple:
        learner = self.make(backend, cls=self.broken)
        return play_adaptive_game(learner, self.adversary, int(data), self.T)


def final_hypothesis(view: tuple) -> Any:
    """Feature: the last released hypothesis."""
    return view[-1][1]


def released_hypotheses(view: tuple) -> tuple:
    """Feature: the hypotheses released over the whole stream (sorted keys, each once)."""
    return tuple(sorted({h for _, h in view}))


EPS, DELTA = 2.0, 1e-3


def _lwy(backend: Any, *, N0: int, T: int, cls: type = LWY25) -> Any:
    return cls(
        Thresholds(2), T=T, epsilon=EPS, delta=DELTA, backend=backend, setting=LWY25Setting(N0, 128.0, 6.0, "audit")
    )


def _gl21(backend: Any, *, k2: int, T: int, cls: type = GL21) -> Any:
    return cls(
        Thresholds(2), T=T, epsilon=EPS, delta=DELTA, backend=backend, setting=GL21Setting(2, k2, 0.25, 4, "audit")
    )


def _anytime_lwy(backend: Any, *, N0: int, T: int, cls: type = AnytimeLWY25) -> Any:
    return _lwy(backend, N0=N0, T=T, cls=cls)


def _anytime_gl21(backend: Any, *, T: int, cls: type = AnytimeGL21) -> Any:
    return cls(
        Thresholds(2), T=T, epsilon=EPS, delta=DELTA, backend=backend, setting=GL21Setting(2, 1, 0.25, 3, "audit")
    )


def private_online_audits() -> list[tuple[Any, list[Any]]]:
    """(honest audit, its broken twins) for the private online learners in the adaptive game: one set-up each."""
    from .builtin import BuiltinAudit

    T_small, T_big = 200, 480
    games = [
        (
            "lwy25_adaptive_game",
            partial(_lwy, N0=4, T=T_small),
            T_small,
            "LWY25 (N0=4) in the adaptive game of LWY25 Def. 2.4 on thresholds(2)",
            [
                (
                    "lwy25_histogram_not_charged",
                    LWY25UnchargedHistogram,
                    "LWY25 whose layer histogram is not run (exact counts); N0=4",
                    1000,
                )
            ],
        ),
        (
            "lwy25_adaptive_game_n256",
            partial(_lwy, N0=256, T=T_big),
            T_big,
            "LWY25 (N0=256) in the adaptive game of LWY25 Def. 2.4 on thresholds(2)",
            [
                (
                    "lwy25_sequence_shared_across_pairs",
                    LWY25SharedSequence,
                    "LWY25 inserting each example into every agreeing pair; N0=256",
                    400,
                )
            ],
        ),
        (
            "gl21_adaptive_game",
            partial(_gl21, k2=1, T=T_small),
            T_small,
            "GL21 DP-SOA (one tree, k1=2) in the adaptive game of LWY25 Def. 2.4",
            [
                (
                    "gl21_histogram_without_noise",
                    GL21ExactHistogram,
                    "GL21 whose HistSparse histogram adds no noise; one tree",
                    1000,
                )
            ],
        ),
        (
            "lwy25_anytime_adaptive_game",
            partial(_anytime_lwy, N0=4, T=T_small),
            T_small,
            "AnytimeLWY25 (restarts of LWY25, first N0=4) in the adaptive game of LWY25 Def. 2.4 on thresholds(2)",
            [
                (
                    "lwy25_anytime_histogram_not_charged",
                    AnytimeLWY25UnchargedHistogram,
                    "AnytimeLWY25 whose instances read their lists from exact counts; first N0=4",
                    1000,
                ),
                (
                    "lwy25_anytime_restart_reads_previous_segment",
                    AnytimeLWY25WarmStart,
                    "AnytimeLWY25 whose restarted instance warm-starts from a sequence of the previous one; first N0=4",
                    1000,
                ),
            ],
        ),
    ]
    game = f": b=0 gets (0,1), b=1 gets (1,0) at t*; ε={EPS:g}, δ={DELTA:g}"
    out = []
    for name, make, T, description, twins in games:
        honest = BuiltinAudit(
            name, description + game, LearnerInGame(make, T), 0, 1, featurize=final_hypothesis, runs=300
        )
        out.append(
            (
                honest,
                [
                    honest.twin(tname, tdesc + game, BrokenLearnerInGame(make, T, cls), runs=runs)
                    for tname, cls, tdesc, runs in twins
                ],
            )
        )
    # AnytimeGL21: the oblivious game (t* = 0), one tree and c = 3 in the first instance, the whole stream as feature
    T_any = 60
    oblivious = (
        f": t*=0, b=0 gets (0,1), b=1 gets (1,0), then (0,1); feature: hypotheses released; ε={EPS:g}, δ={DELTA:g}"
    )
    make = partial(_anytime_gl21, T=T_any)
    honest = BuiltinAudit(
        "gl21_anytime_oblivious_game",
        "AnytimeGL21 (restarts of GL21 DP-SOA, first k2=1, c=3) in the oblivious game on thresholds(2)" + oblivious,
        LearnerInGame(make, T_any, special_first_then_mistakes),
        0,
        1,
        featurize=released_hypotheses,
        runs=1000,
    )
    twin = honest.twin(
        "gl21_anytime_histogram_without_noise",
        "AnytimeGL21 whose instances' HistSparse histograms add no noise; first k2=1, c=3" + oblivious,
        BrokenLearnerInGame(make, T_any, AnytimeGL21ExactHistogram, special_first_then_mistakes),
    )
    out.append((honest, [twin]))
    return out
