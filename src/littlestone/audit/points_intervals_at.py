"""PointsAT and IntervalsAT in the adaptive game of LWY25 Def. 2.4 (littlestone.audit.adaptive_game), each with a
broken twin whose selection reads the segment without noise.

Games (ε = 2, T = 200): at t* = 0 the adversary hands over z⁽⁰⁾ or z⁽¹⁾, two positive examples at different points
(both mistakes of the zero function / the empty interval, so the AboveThreshold counts agree in both worlds), then
feeds one more positive point every round. The feature is the first non-zero hypothesis released (the selection's
output, :func:`first_selection`).

* points(4): z⁽⁰⁾ = (1, 1), z⁽¹⁾ = (2, 1), then (1, 1). Honest: the exponential mechanism sees counts {1: c} versus
  {1: c − 1, 2: 1} — ε-close. Twin (:class:`PointsATFirstPositive`): the selection returns the segment's first
  positive point (no noise) — h_1 versus h_2.
* intervals(16): z⁽⁰⁾ = (3, 1), z⁽¹⁾ = (12, 1), then (8, 1). Honest: the depth exponential mechanism; twin
  (:class:`IntervalsATFirstPositive`): m = the first positive — the first released interval [⌊m/2⌋, ⌈(m+15)/2⌉]
  differs with m = 3 versus 12.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..classes.intervals import Intervals
from ..classes.points import Points
from ..private_online.intervals_at import IntervalsAT
from ..private_online.points_at import PointsAT
from .adaptive_game import BrokenLearnerInGame, LearnerInGame

EPS, T_GAME = 2.0, 200


class PointsATFirstPositive(PointsAT):
    """BROKEN: the zero segment's selection returns its first positive point (exact data, no noise)."""

    def _learn01(self, x: Any, y: int) -> None:
        if self._q is None and y == 1 and not self._positives:
            self._first = x
        super()._learn01(x, y)

    def _select(self) -> Any:
        self.selections += 1
        return getattr(self, "_first", None)


class IntervalsATFirstPositive(IntervalsAT):
    """BROKEN: phase 1's point m is the segment's first positive (exact data, no noise)."""

    def _learn01(self, x: Any, y: int) -> None:
        if self.m is None and y == 1 and not self._positives:
            self._first = int(x)
        super()._learn01(x, y)

    def _on_top(self) -> None:
        if self.m is None and self._positives:
            self.selections += 1
            self._begin_bisection(self._first)
            self._start_segment()
            return
        super()._on_top()


def _points(backend: Any, *, cls: type = PointsAT) -> Any:
    return cls(Points(4), T=T_GAME, epsilon=EPS, backend=backend)


def _intervals(backend: Any, *, cls: type = IntervalsAT) -> Any:
    return cls(Intervals(16), T=T_GAME, epsilon=EPS, backend=backend)


def _game(special: tuple, then: tuple) -> Any:
    def adversary(t: int, released: tuple) -> tuple:
        if t == 0:
            return ("special", special[0], special[1])
        return ("example", then[0], then[1])

    return adversary


POINTS_GAME = _game(((1, 1), (2, 1)), (1, 1))
INTERVALS_GAME = _game(((3, 1), (12, 1)), (8, 1))


def first_selection(view: tuple) -> Any:
    """Feature: the first released hypothesis after the zero function (None if the stream never left it)."""
    return view[1][1] if len(view) > 1 else None


def points_intervals_at_audits() -> list[tuple[Any, list[Any]]]:
    """(honest audit, [its broken twin]) for PointsAT and IntervalsAT."""
    from .builtin import BuiltinAudit

    out = []
    for name, make, game, what, twin_name, twin_cls, twin_what in (
        (
            "points_at_adaptive_game",
            _points,
            POINTS_GAME,
            "PointsAT on points(4) in the adaptive game of LWY25 Def. 2.4: b=0 gets (1,1), b=1 gets (2,1) at t*=0, "
            "then (1,1)",
            "points_at_selection_first_positive",
            PointsATFirstPositive,
            "PointsAT whose selection returns the segment's first positive point (no noise)",
        ),
        (
            "intervals_at_adaptive_game",
            _intervals,
            INTERVALS_GAME,
            "IntervalsAT on intervals(16) in the adaptive game of LWY25 Def. 2.4: b=0 gets (3,1), b=1 gets (12,1) at "
            "t*=0, then (8,1)",
            "intervals_at_point_first_positive",
            IntervalsATFirstPositive,
            "IntervalsAT whose phase-1 point m is the segment's first positive (no noise)",
        ),
    ):
        desc = f"; ε={EPS:g}, T={T_GAME}; feature: the first selection released"
        honest = BuiltinAudit(
            name, what + desc, LearnerInGame(make, T_GAME, game), 0, 1, featurize=first_selection, runs=300
        )
        twin = honest.twin(
            twin_name, twin_what + desc, BrokenLearnerInGame(partial(make), T_GAME, twin_cls, game), runs=300
        )
        out.append((honest, [twin]))
    return out


__all__ = ["IntervalsATFirstPositive", "PointsATFirstPositive", "first_selection", "points_intervals_at_audits"]
