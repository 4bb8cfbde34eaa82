"""Adaptive adversaries that see the released hypotheses (LWY25 §3: before round t the adversary knows h_t, the
hypothesis the learner will predict with), and the registry of adversaries by name.

* :class:`DisagreementSeeking` — a target h* drawn once (realizable by construction); each round it asks a point
  where h_t and h* disagree (:meth:`~littlestone.classes.base.HypothesisClass.disagreement`, closed form on
  structured classes), so a learner errs every round until h_t = h*. When they agree everywhere it plays i.i.d.
  points of the class's law labelled by h*.
* :class:`LateCommitment` — no target: it keeps the version space V of its own answers and each round answers the
  opposite of h_t(x) on the point whose flipped label keeps V largest while nonempty
  (:meth:`~littlestone.classes.base.VersionSpace.flip_point`), committing to a target as late as possible. On
  thresholds it forces exactly Ldim(H) mistakes on every deterministic learner (each flip keeps the larger half of
  a chain).
* :class:`SparseMistakes` — a target h* drawn once; it asks a disagreement point only every ``gap`` rounds and
  otherwise points where h_t and h* agree, so mistakes are sparse relative to a segment learner's segments: each
  running count is queried many times per level and segments end at low counts (issue 34).

Every adversary takes ``Adversary(H, seed=...)``; :data:`ADVERSARIES` and :func:`make_adversary` name them.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

import numpy as np

from .._random import SeedLike, as_generator
from ..classes.base import Hypothesis, HypothesisClass, Point, VersionSpace
from ..errors import LittlestoneError
from .adversaries import Adversary, IIDRealizable, TreeAdversary, draw_target, point_law
from .base import as_version_space

#: how many points of the class's law an adversary probes for a disagreement when h_t has no structure to search
PROBES = 64


class LivePrediction(Hypothesis):
    """A learner's current prediction rule x ↦ predict_one(x) (0/1) as a hypothesis, for learners without a
    ``hypothesis()`` method; valid until the learner's next update."""

    __slots__ = ("_learner",)

    def __init__(self, learner: Any):
        self._learner = learner

    def key(self) -> tuple:
        return (id(self._learner),)

    def __call__(self, x: Point) -> int:
        p = self._learner.predict_one(x)
        return 0 if p in (0, -1, False) else 1


def released_hypothesis(learner: Any) -> Hypothesis:
    """h_t: ``learner.hypothesis()`` where the learner releases one (SOA, Halving, the private online learners),
    else its live prediction rule."""
    get = getattr(learner, "hypothesis", None)
    if callable(get):
        try:
            h = get()
        except TypeError:
            h = None
        if isinstance(h, Hypothesis):
            return h
    return LivePrediction(learner)


class _SeesReleased(Adversary):
    """Shared machinery: the class, an own generator (``seed``, else the game's), the watched learner."""

    def __init__(self, hypothesis_class: HypothesisClass | VersionSpace, *, seed: SeedLike = None):
        self.initial_version_space = as_version_space(hypothesis_class)
        self.hypothesis_class = self.initial_version_space.hclass
        self._seed = seed
        self._learner: Any = None
        self._law: Any = None
        try:
            self._law = point_law(self.hypothesis_class)
        except LittlestoneError:
            self._law = None
        self.start(np.random.default_rng(0))

    def watch(self, learner: Any) -> None:
        self._learner = learner

    def start(self, rng: np.random.Generator) -> None:
        self._rng = rng if self._seed is None else as_generator(self._seed)

    def released(self) -> Hypothesis:
        if self._learner is None:
            raise LittlestoneError(
                f"{type(self).__name__} sees the learner's released hypothesis: run it with littlestone.online.play"
            )
        return released_hypothesis(self._learner)

    def _draw_point(self) -> Point | None:
        law = self._law
        if law is None:
            return None
        if callable(law):
            return self.hypothesis_class.validate_point(law(self._rng))
        return law[int(self._rng.integers(0, len(law)))]

    def _disagreement(self, h: Hypothesis, g: Hypothesis) -> Point | None:
        """A point where h and g disagree: the class's closed form, else PROBES draws of the class's law."""
        try:
            return self.hypothesis_class.disagreement(h, g)
        except (AttributeError, TypeError, NotImplementedError):
            pass
        for _ in range(PROBES):
            x = self._draw_point()
            if x is None:
                return None
            if h(x) != g(x):
                return x
        return None


class DisagreementSeeking(_SeesReleased):
    """Adaptive, realizable: a target h* (``target=``, else drawn by the class's law at the start of each game with
    the adversary's generator); round t asks a point where the released h_t and h* disagree and reveals h*(x)."""

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        target: Hypothesis | None = None,
        seed: SeedLike = None,
    ):
        self._given_target = target
        super().__init__(hypothesis_class, seed=seed)
        if target is not None and not self.initial_version_space.contains(target):
            raise LittlestoneError(f"target {target!r} is not in {self.hypothesis_class.name}")

    def start(self, rng: np.random.Generator) -> None:
        super().start(rng)
        self.target = (
            self._given_target if self._given_target is not None else draw_target(self.hypothesis_class, self._rng)
        )
        self.disagreements = 0

    def propose(self, t: int) -> Point:
        x = self._disagreement(self.released(), self.target) if self._learner is not None else None
        if x is not None:
            self.disagreements += 1
            return x
        x = self._draw_point()
        if x is None:
            x = self.initial_version_space.split_point()
        if x is None:
            raise LittlestoneError(f"DisagreementSeeking cannot find a point of {self.hypothesis_class.name}")
        return x

    def reveal(self, t: int, x: Point, prediction: int) -> int:
        return int(self.target(x))


class LateCommitment(_SeesReleased):
    """Adaptive, realizable, no target fixed in advance: V starts as H; round t asks the point x of
    ``V.flip_point(h_t)`` and answers y = 1 − h_t(x), keeping V|(x,y) (the largest nonempty restriction a flip
    allows), then V ← V|(x,y). When no flip is left (h_t agrees with all of V) it asks a point of the class's law
    and answers a label some hypothesis of V gives it (the opposite of h_t(x) when V allows it)."""

    def start(self, rng: np.random.Generator) -> None:
        super().start(rng)
        self.version_space: VersionSpace = self.initial_version_space
        self.forced = 0
        self._label: int | None = None

    def propose(self, t: int) -> Point:
        V = self.version_space
        h = self.released()
        move = V.flip_point(h)
        if move is not None:
            x, self._label = move
            return x
        x = self._draw_point()
        if x is None:
            x = V.split_point()
        if x is None:
            x = self._any_point(V)
        y = 1 - int(h(x))
        self._label = y if not V.restrict(x, y).is_empty() else 1 - y
        return x

    def _any_point(self, V: VersionSpace) -> Point:
        H = self.hypothesis_class
        try:
            return H.domain_points()[0]
        except (TypeError, IndexError):
            pass
        raise LittlestoneError(f"LateCommitment cannot find a point of {H.name}")

    def reveal(self, t: int, x: Point, prediction: int) -> int:
        y = self._label
        if y is None:  # a reveal without propose: answer consistently with V
            y = int(not self.version_space.restrict(x, 1).is_empty())
        W = self.version_space.restrict(x, y)
        if W.is_empty():
            raise LittlestoneError("LateCommitment lost realizability (inconsistent version space)")
        if y != int(prediction):
            self.forced += 1
        self.version_space, self._label = W, None
        return y


class SparseMistakes(DisagreementSeeking):
    """Adaptive, realizable: a target h* (``target=``, else drawn at the start of each game); while h_t ≠ h* it asks
    a disagreement point (a mistake) when ``gap`` − 1 rounds have passed since the last one, and in between points
    of the class's law where h_t and h* agree (labelled by h*; a disagreement point when PROBES draws find none).
    Once h_t = h* it plays i.i.d. points labelled by h*. ``gap`` = 64: the worst spacing for BisectAT over
    2⁶⁰ points among 16 / 64 / 256 / 1000 at T = 10⁶ (benchmarks/bench_segment_tails.py)."""

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        gap: int = 64,
        target: Hypothesis | None = None,
        seed: SeedLike = None,
    ):
        if isinstance(gap, bool) or not isinstance(gap, int) or gap < 1:
            raise LittlestoneError(f"gap must be an integer ≥ 1 (rounds between two asked mistakes), not {gap!r}")
        self.gap = gap
        super().__init__(hypothesis_class, target=target, seed=seed)

    def start(self, rng: np.random.Generator) -> None:
        super().start(rng)
        self._since = self.gap  # the first round may ask a mistake

    def propose(self, t: int) -> Point:
        h = self.released() if self._learner is not None else None
        x = self._disagreement(h, self.target) if h is not None else None
        if x is not None and self._since < self.gap - 1:
            for _ in range(PROBES):
                z = self._draw_point()
                if z is None:
                    break
                if h(z) == self.target(z):
                    self._since += 1
                    return z
        if x is not None:
            self.disagreements += 1
            self._since = 0
            return x
        self._since += 1
        return super().propose(t) if h is None else self._agreeing_point()

    def _agreeing_point(self) -> Point:
        x = self._draw_point()
        if x is None:
            x = self.initial_version_space.split_point()
        if x is None:
            raise LittlestoneError(f"SparseMistakes cannot find a point of {self.hypothesis_class.name}")
        return x


#: adversaries by name, each built as ``ADVERSARIES[name](H, seed=...)``
ADVERSARIES: dict[str, Callable[..., Adversary]] = {
    "tree": TreeAdversary,
    "greedy-tree": partial(TreeAdversary, greedy=True),
    "iid": IIDRealizable,
    "disagreement": DisagreementSeeking,
    "late-commitment": LateCommitment,
    "sparse-mistakes": SparseMistakes,
}


def make_adversary(name: str, hypothesis_class: HypothesisClass | VersionSpace, *, seed: SeedLike = None) -> Adversary:
    """The adversary ``name`` (one of :data:`ADVERSARIES`) on the class, e.g. ``make_adversary("late-commitment",
    Thresholds(2**60), seed=1)``."""
    try:
        factory = ADVERSARIES[name]
    except KeyError:
        raise LittlestoneError(f"unknown adversary {name!r}; choose one of {', '.join(ADVERSARIES)}") from None
    return factory(hypothesis_class, seed=seed)
