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
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

import numpy as np

from ..classes.base import Hypothesis
from ..classes.thresholds import Threshold, Thresholds
from ..private_online import GL21, LWY25, GL21Setting, LWY25Setting
from ..private_online.base import BOT

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
        if self._at_count + self._q.one() >= self._at_threshold:
            self._on_top()


class GL21ExactHistogram(GL21):
    """BROKEN: HistSparse's histogram without noise (the top of the exact counts of the list is released)."""

    def _hist_top(self) -> Any:
        self.histograms_run += 1
        counts = {h: n for h, n in self.forest.counts.items() if h is not BOT}
        if not counts:
            return None
        best = max(counts.values())
        return min((h for h, n in counts.items() if n == best))


# ------------------------------------------------------------------------------------------------ mechanisms


@dataclass(frozen=True)
class GameSpec:
    """One audited game: learner factory, its claim, the adversary, T."""

    name: str
    description: str
    make: Callable[[Any], Any]
    T: int


def _lwy(cls: type, N0: int, backend: Any, *, T: int, epsilon: float, delta: float) -> Any:
    return cls(Thresholds(2), T=T, epsilon=epsilon, delta=delta, backend=backend,
               setting=LWY25Setting(N0, 128.0, 6.0, "audit"))


def _gl21(cls: type, k2: int, backend: Any, *, T: int, epsilon: float, delta: float) -> Any:
    return cls(Thresholds(2), T=T, epsilon=epsilon, delta=delta, backend=backend,
               setting=GL21Setting(2, k2, 0.25, 4, "audit"))


def game_view(b: int, backend: Any, *, make: Callable[[Any], Any], T: int) -> tuple:
    """The mechanism audited: the bit b ↦ the learner's released stream in the game (seeded backend)."""
    return play_adaptive_game(make(backend), first_h1_then_mistakes, int(b), T)


def final_hypothesis(view: tuple) -> Any:
    """Feature: the last released hypothesis."""
    return view[-1][1]


EPS, DELTA = 2.0, 1e-3


def _claim_of(make: Callable[[Any], Any]) -> Callable[[str], tuple[float, float]]:
    def claim(kind: str) -> tuple[float, float]:
        from ..privacy import make_backend

        c = make(make_backend("seeded", seed=0)).privacy()
        return (c.epsilon, c.delta)

    return claim


def _games() -> dict[str, tuple[Callable[[Any], Any], int, str, int]]:
    kw = {"epsilon": EPS, "delta": DELTA}
    T_small, T_big = 200, 480
    return {
        "lwy25_adaptive_game": (partial(_lwy, LWY25, 4, T=T_small, **kw), T_small,
                                "LWY25 (N0=4) in the adaptive game of LWY25 Def. 2.4 on thresholds(2)", 300),
        "lwy25_adaptive_game_n256": (partial(_lwy, LWY25, 256, T=T_big, **kw), T_big,
                                     "LWY25 (N0=256) in the adaptive game of LWY25 Def. 2.4 on thresholds(2)", 300),
        "gl21_adaptive_game": (partial(_gl21, GL21, 1, T=T_small, **kw), T_small,
                               "GL21 DP-SOA (one tree, k1=2) in the adaptive game of LWY25 Def. 2.4", 300),
    }


def _twins() -> dict[str, tuple[Callable[[Any], Any], int, str, int]]:
    kw = {"epsilon": EPS, "delta": DELTA}
    T_small, T_big = 200, 480
    return {
        "lwy25_histogram_not_charged": (partial(_lwy, LWY25UnchargedHistogram, 4, T=T_small, **kw), T_small,
                                        "LWY25 whose layer histogram is not run (exact counts); N0=4", 1000),
        "lwy25_sequence_shared_across_pairs": (partial(_lwy, LWY25SharedSequence, 256, T=T_big, **kw), T_big,
                                               "LWY25 inserting each example into every agreeing pair; N0=256", 400),
        "gl21_histogram_without_noise": (partial(_gl21, GL21ExactHistogram, 1, T=T_small, **kw), T_small,
                                         "GL21 whose HistSparse histogram adds no noise; one tree", 1000),
    }


def _audit(name: str, make: Callable[[Any], Any], T: int, description: str, runs: int) -> Any:
    from .builtin import BuiltinAudit

    return BuiltinAudit(name, f"{description}: b=0 gets (0,1), b=1 gets (1,0) at t*; ε={EPS:g}, δ={DELTA:g}",
                        partial(game_view, make=make, T=T), 0, 1, _claim_of(make),
                        featurize=final_hypothesis, runs=runs)


def private_online_audits() -> list:
    """Honest audits of the private online learners in the adaptive game (registered with the built-in audits)."""
    return [_audit(n, m, T, d, r) for n, (m, T, d, r) in _games().items()]


def private_online_twins() -> list:
    """Broken twins (registered with the broken audits): each must be caught."""
    return [_audit(n, m, T, d, r) for n, (m, T, d, r) in _twins().items()]
