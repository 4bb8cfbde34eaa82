"""Adversaries of the online game: oblivious (fixed sequence, i.i.d. realizable) and adaptive (the mistake-tree
adversary, custom functions).

Protocol per round t (BLM20 §3.2): the adversary proposes x_t (:meth:`Adversary.propose`), the learner predicts,
then the adversary reveals y_t (:meth:`Adversary.reveal`) knowing the prediction. Labels are 0/1 internally.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .._labels import check_label01, encode_labels
from .._random import SeedLike, as_generator
from ..classes.base import Hypothesis, HypothesisClass, Point, VersionSpace, as_python_point
from ..errors import DomainError, EmptyDataError, LittlestoneError, NotRealizableError
from .base import as_version_space

#: one past round as seen by an adaptive adversary: (point, prediction 0/1, label 0/1)
Round = tuple[Point, int, int]


class Adversary(ABC):
    """One side of the online game. :meth:`start` is called once by :func:`~littlestone.online.play`."""

    def start(self, rng: np.random.Generator) -> None:
        """Reset for a new game; ``rng`` is the game's generator (used by adversaries without their own seed)."""

    def watch(self, learner: Any) -> None:
        """Called by :func:`~littlestone.online.play` before :meth:`start` with the learner of the game: adaptive
        adversaries of LWY25 §3's setting see the released hypotheses (``learner.hypothesis()``); others ignore it."""

    @abstractmethod
    def propose(self, t: int) -> Point:
        """The point x_t of round t (0-based)."""

    @abstractmethod
    def reveal(self, t: int, x: Point, prediction: int) -> int:
        """The label y_t ∈ {0,1}, chosen after seeing the learner's prediction (0/1)."""

    @property
    def length(self) -> int | None:
        """Number of rounds the adversary can play (None = unbounded)."""
        return None


class FixedSequence(Adversary):
    """Oblivious: replays the examples (X, y) in order; labels {0,1} or {−1,+1}."""

    def __init__(self, X: Sequence[Any] | np.ndarray, y: Sequence[Any] | np.ndarray):
        if len(X) != len(y):
            raise LittlestoneError(f"FixedSequence needs one label per point: {len(X)} points, {len(y)} labels")
        if len(X) == 0:
            raise EmptyDataError("FixedSequence needs at least one example (empty data)")
        self.y, self.coding = encode_labels(y)
        self.X = [as_python_point(x) for x in X]

    @property
    def length(self) -> int:
        return len(self.X)

    def propose(self, t: int) -> Point:
        if t >= len(self.X):
            raise LittlestoneError(f"FixedSequence has {len(self.X)} examples; round {t} was asked (T too large)")
        return self.X[t]

    def reveal(self, t: int, x: Point, prediction: int) -> int:
        return int(self.y[t])


class IIDRealizable(Adversary):
    """Oblivious: x_t drawn i.i.d., y_t = target(x_t) for a target hypothesis of H (realizable by construction).

    ``points`` is either a callable ``rng -> point``, a finite distribution ``{point: probability}``, or a finite
    support (a sequence of points, with optional ``probs``; uniform by default); None (the default) is the class's
    own law (:meth:`~littlestone.classes.base.HypothesisClass.uniform_points`: uniform on a finite domain, a
    documented law on an infinite one). ``target=None`` draws the target at the start of each game with the game's
    generator (:meth:`~littlestone.classes.base.HypothesisClass.random_hypothesis`: uniform in closed form for
    thresholds, points and intervals of any size). ``seed`` fixes the draws; without it the game's generator is used.
    """

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        target: Hypothesis | None = None,
        points: Callable[[np.random.Generator], Any] | Sequence[Any] | np.ndarray | None = None,
        probs: Sequence[float] | np.ndarray | None = None,
        seed: SeedLike = None,
    ):
        V = as_version_space(hypothesis_class)
        self.hypothesis_class = V.hclass
        self._V = V
        if target is not None:
            if not isinstance(target, Hypothesis):
                raise LittlestoneError(f"target must be a Hypothesis of {V.hclass.name}, not {type(target).__name__}")
            if not V.contains(target):
                raise NotRealizableError(
                    f"target {target!r} is not in {V.hclass.name}: the sequence would not be realizable"
                )
        self._given_target = target
        self.target = target
        self._sampler: Callable[[np.random.Generator], Any] | None = None
        self._support: list[Point] | None = None
        self._probs: np.ndarray | None = None
        own_law = points is None
        if own_law:
            if probs is not None:
                raise LittlestoneError("probs needs a finite support of points")
            points = point_law(V.hclass)
        if isinstance(points, Mapping):
            if probs is not None:
                raise LittlestoneError("give probabilities either in the {point: probability} mapping or in probs")
            points, probs = list(points.keys()), list(points.values())
        if callable(points):
            if probs is not None:
                raise LittlestoneError("probs is only meaningful with a finite support of points, not a sampler")
            self._sampler = points
        else:
            support = list(points) if own_law else [V.hclass.validate_point(x) for x in points]  # the class's own
            if not support:
                raise EmptyDataError("IIDRealizable needs a nonempty support of points")
            self._support = support
            if probs is not None:
                p = np.asarray(probs, dtype=float)
                if p.shape != (len(support),) or not np.all(np.isfinite(p)) or (p < 0).any() or p.sum() <= 0:
                    raise LittlestoneError(
                        f"probs must be {len(support)} finite nonnegative weights with a positive sum"
                    )
                self._probs = p / p.sum()
        self._seed = seed
        self._rng: np.random.Generator | None = None

    def start(self, rng: np.random.Generator) -> None:
        self._rng = rng if self._seed is None else as_generator(self._seed)
        if self._given_target is None:
            self.target = draw_target(self.hypothesis_class, self._rng)

    def propose(self, t: int) -> Point:
        if self._rng is None:
            self.start(as_generator(None))
        rng = self._rng
        assert rng is not None
        if self._support is not None:
            return self._support[int(rng.choice(len(self._support), p=self._probs))]
        assert self._sampler is not None
        return self.hypothesis_class.validate_point(self._sampler(rng))

    def reveal(self, t: int, x: Point, prediction: int) -> int:
        assert self.target is not None
        return int(self.target(x))

    def draw_many(self, k: int) -> tuple[Any, np.ndarray]:
        """k rounds at once (points, 0/1 labels): vectorized for a finite support and for samplers that take
        ``size=`` (the classes' integer samplers), else one draw at a time. Used by
        :func:`~littlestone.online.play_stream`; the draws follow the same law as :meth:`propose` but not the same
        stream of the generator."""
        if self._rng is None:
            self.start(as_generator(None))
        rng = self._rng
        assert rng is not None and self.target is not None
        X: Any = None
        if self._support is not None:
            idx = rng.choice(len(self._support), size=k, p=self._probs)
            arr = np.asarray(self._support) if not hasattr(self, "_support_array") else self._support_array
            self._support_array = arr
            X = arr[idx] if arr.ndim == 1 and arr.dtype.kind in "iu" else [self._support[i] for i in idx.tolist()]
        else:
            assert self._sampler is not None
            try:
                X = self._sampler(rng, size=k)  # type: ignore[call-arg]
                self.hypothesis_class.validate_points(X)
            except TypeError:
                X = [self.hypothesis_class.validate_point(self._sampler(rng)) for _ in range(k)]
        y = np.asarray(self.target.predict(X), dtype=np.int8)
        return X, y


def point_law(H: HypothesisClass) -> Callable[[np.random.Generator], Any] | Sequence[Any]:
    """The class's law on points (:meth:`~littlestone.classes.base.HypothesisClass.uniform_points`), or a
    LittlestoneError naming the class when it has none."""
    try:
        return H.uniform_points()
    except TypeError:
        raise LittlestoneError(
            f"{H.name} has no law to draw points from (its domain cannot be enumerated and it defines no sampler)"
        ) from None


def draw_target(H: HypothesisClass, rng: np.random.Generator) -> Hypothesis:
    """A target hypothesis drawn by the class's own law (uniform in closed form where the class has one)."""
    return H.random_hypothesis(rng)


class TreeAdversary(Adversary):
    """Adaptive: walks down a deepest mistake tree of H, forcing a mistake in each of the first Ldim(H) rounds.

    Round t < Ldim(H): x_t = V.split_point() of the current version space V (both V|(x,0), V|(x,1) have Ldim ≥
    Ldim(V) − 1), y_t = 1 − prediction, V ← V|(x_t, y_t) (Kal-LN §4, the lower bound Ldim(H) on mistakes).
    Afterwards it replays the points asked so far with their labels, so the sequence stays realizable (by every
    h ∈ V) and a learner consistent with its past examples (SOA, Halving) errs exactly Ldim(H) times.
    ``greedy=True`` instead keeps forcing mistakes while Ldim(V) ≥ 1 (a suboptimal learner may then err more).
    ``tree=`` walks a given mistake tree instead of split points (e.g. the witness of
    ``littlestone.dimensions.ldim(H, witness=True)``); a path that leaves H raises :class:`NotRealizableError`.
    """

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        greedy: bool = False,
        tree: Any = None,
        seed: SeedLike = None,
    ):
        # ``seed`` is accepted for the uniform ``Adversary(H, seed=...)`` signature: this adversary is deterministic
        self.initial_version_space = as_version_space(hypothesis_class)
        if self.initial_version_space.is_empty():
            raise EmptyDataError("TreeAdversary needs a nonempty class")
        self.hypothesis_class = self.initial_version_space.hclass
        self.greedy = bool(greedy)
        if tree is not None:
            if greedy:
                raise LittlestoneError("TreeAdversary: give either tree= or greedy=True, not both")
            if not all(hasattr(tree, a) for a in ("point", "is_leaf", "child")):
                raise TypeError(f"tree must be a mistake tree (point, is_leaf, child(y)), not {type(tree).__name__}")
        self.tree = tree
        self.depth = self.initial_version_space.ldim() if tree is None else None
        self.start(np.random.default_rng(0))

    def start(self, rng: np.random.Generator) -> None:
        self.version_space = self.initial_version_space
        self.forced = 0
        self.history: list[tuple[Point, int]] = []
        self._node = self.tree

    def _forcing(self) -> bool:
        if self._node is not None:
            return not self._node.is_leaf
        if self.greedy:
            return self.version_space.ldim() >= 1
        return self.depth is not None and self.forced < self.depth

    def propose(self, t: int) -> Point:
        if self._forcing():
            if self._node is not None:
                return self.hypothesis_class.validate_point(self._node.point)
            x = self.version_space.split_point()
            if x is None:  # only possible if Ldim dropped below the remaining depth, which split points rule out
                raise LittlestoneError("no split point although the tree is not exhausted (inconsistent class)")
            return x
        if self.history:
            return self.history[(t - self.forced) % len(self.history)][0]
        return self._any_point()

    def reveal(self, t: int, x: Point, prediction: int) -> int:
        if self._forcing():
            y = 1 - int(prediction)
            W = self.version_space.restrict(x, y)
            if W.is_empty():
                path = self.history + [(x, y)]
                raise NotRealizableError(
                    f"the mistake tree is not shattered by {self.hypothesis_class.name}: no "
                    f"hypothesis is consistent with the path {path!r}"
                )
            self.version_space = W
            if self._node is not None:
                self._node = self._node.child(y)
            self.forced += 1
            self.history.append((x, y))
            return y
        if self.history:
            return self.history[(t - self.forced) % len(self.history)][1]
        return int(not self.version_space.restrict(x, 1).is_empty())

    def _any_point(self) -> Point:
        H = self.hypothesis_class
        try:
            pts = H.domain_points()
            if pts:
                return pts[0]
        except TypeError:
            pass
        for cand in (0, (0,), 0.0):
            try:
                return H.validate_point(cand)
            except DomainError:
                continue
        raise LittlestoneError(
            f"TreeAdversary cannot find a point of the domain of {H.name} for a class of Littlestone dimension 0"
        )


class AdaptiveAdversary(Adversary):
    """A custom adaptive adversary from one function ``fn(t, history, rng) -> (x, respond)``.

    ``history`` is the tuple of past rounds (x, prediction, label) with 0/1 labels; ``respond`` is a label
    ({0,1} or {−1,+1}) fixed before the prediction, or a callable ``prediction -> label`` evaluated after it.
    """

    def __init__(
        self,
        fn: Callable[[int, tuple[Round, ...], np.random.Generator], tuple[Any, Any]],
        hypothesis_class: HypothesisClass | None = None,
    ):
        if not callable(fn):
            raise TypeError("AdaptiveAdversary needs a callable fn(t, history, rng) -> (x, label or callable)")
        self.fn = fn
        self.hypothesis_class = hypothesis_class
        self.start(np.random.default_rng(0))

    def start(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self.history: list[Round] = []
        self._respond: Any = None

    def propose(self, t: int) -> Point:
        out = self.fn(t, tuple(self.history), self._rng)
        if not (isinstance(out, tuple) and len(out) == 2):
            raise LittlestoneError("AdaptiveAdversary fn must return a pair (x, label or callable prediction->label)")
        x, self._respond = out
        x = as_python_point(x)
        if self.hypothesis_class is not None:
            x = self.hypothesis_class.validate_point(x)
        return x

    def reveal(self, t: int, x: Point, prediction: int) -> int:
        r = self._respond(prediction) if callable(self._respond) else self._respond
        y = check_label01(r)
        self.history.append((x, int(prediction), y))
        return y
