"""One interface for private online learners (river conventions) and the pieces they share.

A private online learner releases one hypothesis h_t per round; the whole released stream (h_1, …, h_T) is what its
privacy claim covers (LWY25 Def. 2.4: (ε, δ)-DP against an adaptive adversary that picks the special round and the two
candidate examples after seeing h_1 … h_{t*−1}). Users see only :meth:`PrivateOnlineLearner.hypothesis` and
predictions made from it; everything else (sequences, counts, noise) stays inside.

* ``predict_one(x)`` = h_t(x) in the declared label pair; ``learn_one(x, y)`` consumes round t and returns None;
* ``hypothesis()`` = the released h_t (the hypothesis used at the next round);
* ``run(X, y)`` plays a fixed stream (oblivious adversary) and returns the predictions of the released hypotheses;
* ``privacy()`` = the learner's claim, composed from its parts (parameters only, never data);
* ``state()`` = what may be shown: parameters and what is computed from mechanism outputs only (round t, setting,
  layer, lists released by the histograms, AboveThreshold instances and restarts, histograms run, halted/aborted);
  with ``diagnostics=True`` (a constructor parameter, default False) it adds the exact counts of the private stream
  (insertions, agreeing pairs, ⊥ sequences, merges, list frequencies, …) — **not** covered by the privacy claim,
  for tests and experiments only, never printed or saved by default. Attributes that hold such counts (LWY25's
  ``insertions``, GL21's ``forest``) refuse to be read without ``diagnostics=True`` (:meth:`_require_diagnostics`).

What may leave the data owner is :meth:`PrivateOnlineLearner.release`: the released hypothesis h_{t+1}, the public
parameters, what ``state()`` shows without diagnostics (computed from mechanism outputs) and the claim — exactly
what the claim covers. The learner object itself (and a pickle of it) is NOT a release: it holds the private state
the algorithm needs to go on (the examples in its sequences or forest, exact counts such as LWY25's AboveThreshold
input, the noise drawn ahead), so a pickle is the owner's private file, as sensitive as the stream — like a
checkpoint. Counts kept only for diagnostics (LWY25's insertions, GL21's merges) are not kept at all unless the
learner is built with ``diagnostics=True`` (issue 26 item 4).

Labels are declared (``labels=(0, 1)``, ``(-1, 1)`` or ``(False, True)``), never inferred from the data; bool labels
(river's) are read as True = positive. Features: a point, or a river dict with one key (or the key declared by
``feature=``); with a public :class:`~littlestone.classes.feature_grid.FeatureGrid` (``grid=``, or carried by the
class as ``H.grid``, e.g. :class:`~littlestone.classes.grid_classes.GridBoxes`) a tuple of k raw feature values or a
river dict with the grid's names, mapped to the grid's cells (values beyond the declared bounds clipped); with
``grid=False`` the points are the class's own (a tuple of k cells, already discretized); a 1-tuple ``(x,)`` is read
as the point x on a one-dimensional domain.

**One validation per round** (issue 33 item 6): :meth:`PrivateOnlineLearner._point` remembers the last raw value it
validated and the point it gave, so river's ``predict_one(x)`` then ``learn_one(x, y)`` validate x once; ints in an
integer range and tuples of a class with the standard validation skip the generic conversion. The cache is keyed by
the raw value (not the dict object, which a caller may mutate), and a bad value is never cached: NaN, a point outside
the domain or a label outside the declared pair raise the same one-line error on every call. ``predict_proba_one`` gives river's dict (mass 1 on h_t(x): the released hypothesis is deterministic).
The conversions are the online package's (``littlestone.online.river_compat``: ``feature_value``, ``label01``), one
place for every online learner of the library.

**River-speed rounds** (issue 33 item 6): a learner that keeps its released hypothesis in ``_h`` (a
:class:`ReleasedHypothesis` attribute) gets ``_hf`` with it, h_t as a C-level method where the kind allows
(:func:`released_evaluator`: a threshold, a finite set, one interval), which ``predict_one`` and its round call; river's
one-key dict is read in place; the segment AboveThresholds test running counts with
:meth:`~littlestone.privacy.AboveThreshold.test_count`. The same draws in the same order, the same outputs
(tests/private_online/test_river_round_outputs.py pins them); benchmarks/bench_river_rounds.py measures the rounds
against plain-Python river models of the same work.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from .._random import SeedLike
from ..classes.base import Hypothesis, HypothesisClass, Point, VersionSpace
from ..classes.feature_grid import FeatureGrid
from ..classes.intervals import IntervalUnion
from ..classes.points import FiniteSet
from ..classes.thresholds import Threshold
from ..errors import DomainError, LabelError, LittlestoneError
from ..online.base import as_version_space
from ..online.river_compat import CloneFromParams, feature_value, label01
from ..privacy import Backend, SecureBackend, SeededBackend, check_backend
from ..privacy.accountant_link import ChargedPerGame, resolve_accountant
from ..privacy.mechanism import Mechanism, PrivacyClaim, claim_of, compose
from ..privacy.params import check_delta, check_epsilon, check_positive_int, check_probability


# ----------------------------------------------------------------------------------------------- ⊥ and the base learner


class _Bottom:
    """⊥: the output of the base learner on a sequence it cannot fit (LWY25 Alg. 1, "the SOA fails")."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "⊥"

    def __reduce__(self) -> str:
        return "BOT"


BOT = _Bottom()


class ConstantHypothesis(Hypothesis):
    """x ↦ c for every x: what a private learner releases when it has nothing better (GL21's null output ⊥)."""

    __slots__ = ("c",)

    def __init__(self, c: int = 0):
        self.c = int(c)

    def key(self) -> tuple:
        return (self.c,)

    def __call__(self, x: Point) -> int:
        return self.c

    def predict(self, X: Any) -> np.ndarray:
        return np.full(len(X), self.c, dtype=np.int8)


def released_evaluator(h: Hypothesis, int_points: bool) -> Callable[[Point], Any]:
    """h as a fast function of a validated point, answering what ``h(x)`` answers (a bool or 0/1): a C-level method
    for the kinds the segment learners release — a threshold on integer points (t ≤ x), a finite set (membership),
    the empty or a single interval on integer points (range membership) —, else h itself. Built once per released
    hypothesis (issue 33 item 6: no Python frame per round for h_t(x)). ``int_points``: every validated point is a
    Python int (classes on an integer range, no grid)."""
    kind = type(h)
    if kind is Threshold and int_points:
        return h.t.__le__
    if kind is FiniteSet:
        return frozenset(h.points).__contains__
    if kind is IntervalUnion and int_points and len(h.intervals) <= 1:
        if not h.intervals:
            return frozenset().__contains__
        a, b = h.intervals[0]
        return range(a, b + 1).__contains__
    return h


class ReleasedHypothesis:
    """The attribute ``_h`` of a learner that keeps its released hypothesis h_t there: assigning it also builds
    ``_hf`` (:func:`released_evaluator`), the fast h_t(x) that ``predict_one`` and the learners' rounds call — the two
    can never disagree, whoever assigns ``_h``."""

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        try:
            return obj.__dict__["_h"]
        except KeyError:
            raise AttributeError("_h") from None

    def __set__(self, obj: Any, h: Hypothesis) -> None:
        obj.__dict__["_h"] = h
        obj.__dict__["_hf"] = released_evaluator(h, obj._int_range is not None and obj.grid is None)


class BaseLearner(ABC):
    """A deterministic mistake-bounded online learner used as a black box "sequence ↦ hypothesis" (LWY25 §3: "the
    SOA can be replaced by any deterministic online learner with bounded number of mistakes"; GL21 §3 likewise).

    A state is an immutable value; :meth:`step` returns the state after one more example, or :data:`BOT` when the
    learner cannot continue (non-realizable sequence); :meth:`output` is the hypothesis it predicts with next.
    """

    name = "base learner"

    @abstractmethod
    def start(self) -> Any:
        """The state after the empty sequence."""

    @abstractmethod
    def step(self, state: Any, x: Point, y: int) -> Any:
        """State after appending (x, y); BOT if the sequence is not fit (BOT stays BOT)."""

    @abstractmethod
    def output(self, state: Any) -> Hypothesis | _Bottom:
        """The hypothesis after the sequence (BOT for BOT)."""

    @abstractmethod
    def mistake_bound(self) -> int:
        """Worst-case number of mistakes on a realizable sequence (the SOA's is Ldim)."""

    def disagreement(self, h1: Hypothesis, h2: Hypothesis) -> Point:
        """A point where two different outputs disagree (LWY25 Alg. 1 line 6)."""
        x = self.hypothesis_class.disagreement(h1, h2)
        if x is None:
            raise LittlestoneError(f"{h1!r} and {h2!r} are the same function: no disagreement point")
        return x

    def run(self, examples: Sequence[tuple[Point, int]]) -> Any:
        """State after a whole sequence."""
        s = self.start()
        for x, y in examples:
            s = self.step(s, x, y)
        return s


class SOABase(BaseLearner):
    """Littlestone's SOA as a black box: state = version space H|S; SOA(S) = SOA_{H|S} (ties → 0), ⊥ once H|S = ∅.

    Version spaces are values, so one restriction per inserted example suffices (no replay); :meth:`output` is cached
    by version space, which makes SOA outputs of the short sequences of LWY25 cheap (closed form on structured
    classes)."""

    name = "SOA"

    def __init__(self, hypothesis_class: HypothesisClass | VersionSpace):
        self.initial = as_version_space(hypothesis_class)
        self.hypothesis_class = self.initial.hclass
        self._cache: dict[Any, Hypothesis] = {}
        self._ldim: int | None = None

    def start(self) -> VersionSpace:
        return self.initial

    def step(self, state: Any, x: Point, y: int) -> Any:
        if state is BOT:
            return BOT
        W = state.restrict(x, y)
        return BOT if W.is_empty() else W

    def output(self, state: Any) -> Hypothesis | _Bottom:
        if state is BOT:
            return BOT
        k = state.key()
        h = self._cache.get(k)
        if h is None:
            if len(self._cache) > 1 << 16:
                self._cache.clear()
            h = self._cache[k] = state.soa()
        return h

    def mistake_bound(self) -> int:
        if self._ldim is None:
            self._ldim = self.initial.ldim()
        return self._ldim


def make_base_learner(base: BaseLearner | str | None, V: VersionSpace) -> BaseLearner:
    if base is None or base == "soa":
        return SOABase(V)
    if isinstance(base, BaseLearner):
        return base
    raise LittlestoneError(f"base learner must be 'soa' or a BaseLearner instance, not {base!r}")


# ----------------------------------------------------------------------------------------------- the privacy claim


@dataclass(frozen=True)
class LearnerPrivacy:
    """A learner's privacy claim, composed from its parts; ``parts`` = (what, ε, δ, how many times)."""

    epsilon: float
    delta: float
    relation: str
    parts: tuple[tuple[str, float, float, int], ...]
    composition: str

    def __str__(self) -> str:
        lines = [f"({self.epsilon:.6g}, {self.delta:.3g})-DP, {self.relation} ({self.composition})"]
        lines += [f"  {n} x {what}: ({e:.6g}, {d:.3g})" for what, e, d, n in self.parts]
        return "\n".join(lines)


def disjoint_segments(parts: Sequence[Mechanism | PrivacyClaim], what: str) -> PrivacyClaim:
    """The claim of mechanisms run on disjoint segments of the stream, each segment's end decided by the outputs
    released so far: (max ε_i, max δ_i). One changed round of the stream (LWY25 Def. 2.4) is seen by the one
    instance whose segment holds it; the others see identical inputs given the released past (LWY25 App. B,
    proof of Lemma B.2: "we run many instances of AboveThreshold on disjoint sequences")."""
    claims = tuple(claim_of(p) for p in parts)
    if not claims:
        raise LittlestoneError("disjoint_segments needs at least one mechanism")
    return PrivacyClaim(max(c.epsilon for c in claims), max(c.delta for c in claims), claims[0].relation, what, claims)


def compose_claims(
    disjoint: Sequence[Mechanism | PrivacyClaim],
    sequential: Sequence[Mechanism | PrivacyClaim],
    relation: str,
    note: str,
    *,
    how: str = "basic",
    delta_slack: float | None = None,
) -> LearnerPrivacy:
    """A learner's claim from the mechanism objects it runs: ``disjoint`` (instances on disjoint segments of the
    stream, :func:`disjoint_segments`) composed with every mechanism of ``sequential`` (one entry per run) by
    :func:`littlestone.privacy.compose` (``how`` = "basic", "advanced" or "best")."""
    claims: list[PrivacyClaim] = []
    if disjoint:
        names = sorted({claim_of(p).what for p in disjoint})
        claims.append(disjoint_segments(disjoint, f"{' / '.join(names)} instances on disjoint segments"))
    claims.extend(claim_of(p) for p in sequential)
    total = compose(claims, how, delta_slack, what=note)
    groups: dict[tuple[str, float, float], int] = {}
    for c in claims:
        groups[(c.what, c.epsilon, c.delta)] = groups.get((c.what, c.epsilon, c.delta), 0) + 1
    parts = tuple((w, e, d, n) for (w, e, d), n in groups.items())
    return LearnerPrivacy(total.epsilon, total.delta, relation, parts, note)


# ----------------------------------------------------------------------------------------------- randomness


def split_randomness(
    backend: Backend | str | None, seed: SeedLike, n_rngs: int, n_noise: int
) -> tuple[list[np.random.Generator], list[Backend]]:
    """``n_rngs`` independent generators for the learner's combinatorial choices and ``n_noise`` noise backends.

    ``backend="seeded"``: everything flows from ``seed`` (reproducible; not floating-point safe).
    ``backend="secure"`` (default): OpenDP noise, and the learner's own choices (insertion indices, permutations,
    guessed labels) come from fresh OS entropy, never from the user's seed — the adaptive-adversary guarantee needs
    them secret. A Backend instance may also be given (a SeededBackend then seeds everything)."""
    if backend is None or backend == "secure" or isinstance(backend, SecureBackend):
        if seed is not None:
            raise LittlestoneError(
                "the secure backend is unseeded by design; use backend='seeded' with a seed for reproducible runs"
            )
        kids = np.random.SeedSequence().spawn(n_rngs)
        return [np.random.default_rng(k) for k in kids], [SecureBackend() for _ in range(n_noise)]
    if backend == "seeded":
        if isinstance(seed, np.random.Generator):
            ss = np.random.SeedSequence(int(seed.integers(0, 2**63 - 1)))
        elif isinstance(seed, np.random.SeedSequence):
            ss = seed
        else:
            if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
                raise LittlestoneError(f"seed must be a non-negative int, a SeedSequence or a Generator, not {seed!r}")
            ss = np.random.SeedSequence(None if seed is None else int(seed))
        kids = ss.spawn(n_rngs + n_noise)
        return ([np.random.default_rng(k) for k in kids[:n_rngs]], [SeededBackend(k) for k in kids[n_rngs:]])
    b = check_backend(backend)
    if seed is not None:
        raise LittlestoneError("give either a Backend instance or backend='seeded' with a seed, not both")
    if isinstance(b, SeededBackend):
        ss = np.random.SeedSequence(int(b.rng.integers(0, 2**63 - 1)))
        kids = ss.spawn(n_rngs + n_noise)
        return ([np.random.default_rng(k) for k in kids[:n_rngs]], [SeededBackend(k) for k in kids[n_rngs:]])
    kids = np.random.SeedSequence().spawn(n_rngs)
    return [np.random.default_rng(k) for k in kids], b.spawn(n_noise)


class NoiseStream:
    """Element t of an infinite i.i.d. stream (noise or uniforms), drawn in vectors of ``block`` elements.

    The draws never depend on the data, and element t is the same whether it is read one at a time (:meth:`one`) or
    in vectors (:meth:`peek`, :meth:`take`, :meth:`skip`)."""

    def __init__(self, draw: Callable[[int], Any], block: int = 1 << 16):
        self._draw = draw
        self._block = int(block)
        self._buf = np.empty(0)
        self._pos = 0

    def _fill(self, n: int) -> None:
        have = self._buf.size - self._pos
        if have >= n:
            return
        parts = [self._buf[self._pos :]]
        while have < n:
            new = np.asarray(self._draw(self._block), dtype=float).ravel()
            parts.append(new)
            have += new.size
        self._buf = np.concatenate(parts)
        self._pos = 0

    def peek(self, n: int) -> np.ndarray:
        """The next n elements, not consumed."""
        self._fill(n)
        return self._buf[self._pos : self._pos + n]

    def skip(self, n: int) -> None:
        self._fill(n)
        self._pos += n

    def take(self, n: int) -> np.ndarray:
        out = self.peek(n)
        self._pos += n
        return out

    def one(self) -> float:
        if self._pos >= self._buf.size:
            self._fill(1)
        z = self._buf[self._pos]
        self._pos += 1
        return float(z)


# ----------------------------------------------------------------------------------------------- the interface


@dataclass(frozen=True)
class RunResult:
    """Predictions of the released hypotheses on a fixed stream (0/1 internally), and the mistakes."""

    predictions: np.ndarray
    labels: np.ndarray

    @property
    def mistakes(self) -> int:
        return int(np.count_nonzero(self.predictions != self.labels))

    @property
    def cumulative_mistakes(self) -> np.ndarray:
        return np.cumsum(self.predictions != self.labels)


def _register_with_river() -> None:
    """Make river's evaluation tools (``progressive_val_score``'s ``isclassifier`` check) see the private online learners as
    binary classifiers: a virtual subclass of ``river.base.Classifier``, registered once river has been imported (the
    library does not import river itself; it is an optional extra)."""
    import sys

    river_base = sys.modules.get("river.base")
    if river_base is None or getattr(_register_with_river, "done", False):
        return
    river_base.Classifier.register(PrivateOnlineLearner)
    _register_with_river.done = True  # type: ignore[attr-defined]


#: the raw value remembered before any was validated (never a user's value)
_NOTHING = object()


def _plain_validation(H: HypothesisClass) -> bool:
    """Whether the class validates a point as the base class does (Python value unchanged, then ``contains_point``):
    then an int or a tuple it contains is its own validated point."""
    from ..classes.points import Points

    return type(H).validate_point in (HypothesisClass.validate_point, Points.validate_point)


def _int_range(H: HypothesisClass) -> tuple[int, int] | None:
    """[lo, hi) when the class's domain is exactly the integers lo … hi − 1 (thresholds, intervals, points on a
    range), else None."""
    from ..classes.intervals import Intervals
    from ..classes.points import Points
    from ..classes.thresholds import Thresholds

    if type(H) in (Thresholds, Intervals):
        return 0, int(H.n)
    if type(H) is Points:
        r = H.domain.integer_range
        return None if r is None or r.step != 1 else (int(r.start), int(r.stop))
    return None


class PrivateOnlineLearner(ChargedPerGame, CloneFromParams, ABC):
    """Base class: validation, declared labels, horizon T, the river protocol and ``run``.

    Subclasses implement :meth:`_released` (h_t), :meth:`_learn01` (round t with a validated point and 0/1 label),
    :meth:`privacy`, :meth:`_public_state` and, if they have any, :meth:`_diagnostic_state`; they may override
    :meth:`_run01` with a vectorized fast path that must release exactly the same stream as the round-by-round
    protocol for the same seed. ``diagnostics=True`` turns on the exact counts of the private stream in
    :meth:`state` and the attributes guarded by :meth:`_require_diagnostics` (module docstring).

    :meth:`release` is what the claim covers and may be shared; the object and its pickle hold the private state the
    algorithm runs on (examples, exact counts, noise drawn ahead) — the owner's file, like a checkpoint.
    """

    relation = "replace-one example of the stream, adaptively chosen (LWY25 Def. 2.4)"
    #: True for learners whose claim may be pure ε-DP: they accept delta = 0
    pure_dp = False
    #: the released hypothesis, for learners that keep it in ``_h`` (assigning it builds ``_hf``)
    _h = ReleasedHypothesis()
    #: h_t as a fast function of a validated point (:func:`released_evaluator`); None: ``_released()`` is called
    _hf: Any = None
    _one_key = False
    _key: Any = None  # the key of the last one-key dict read (_only_value)
    _int_lo = _int_hi = 0

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        T: int,
        epsilon: float,
        delta: float,
        beta: float = 0.1,
        labels: tuple[int, int] = (0, 1),
        feature: str | None = None,
        diagnostics: bool = False,
        accountant: Any = None,
        grid: FeatureGrid | None = None,
    ):
        _register_with_river()
        self.accountant = accountant  # charged this learner's privacy() at its first learn_one / run
        self._charged = False
        if not isinstance(diagnostics, (bool, np.bool_)):
            raise LittlestoneError(f"diagnostics must be True or False, not {diagnostics!r}")
        self.diagnostics = bool(diagnostics)
        self.initial_version_space = as_version_space(hypothesis_class)
        self.feature = feature
        self.hypothesis_class = self.initial_version_space.hclass
        if T is None:
            raise LittlestoneError(
                "the horizon T must be known in advance (LWY25 §5: an unknown horizon needs the "
                "doubling trick, which is not implemented); give T="
            )
        self.T = check_positive_int(T, "horizon T")
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta, positive=not self.pure_dp)
        self.beta = check_probability(beta)
        labels = tuple(labels)  # type: ignore[assignment]
        if labels not in ((0, 1), (-1, 1)) or (
            any(isinstance(v, (bool, np.bool_)) for v in labels) and labels != (False, True)
        ):
            raise LabelError(f"labels must be declared as (0, 1), (-1, 1) or (False, True), got {labels!r}")
        if any(isinstance(v, (bool, np.bool_)) for v in labels):  # (0, 1) == (False, True): test the type
            labels = (False, True)
        self.labels = labels
        # label → 0/1 for the common cases (True/False hash as 1/0, so they are covered when the negative is 0);
        # anything else goes through _encode, which refuses it with one line
        self._label01 = {1: 1, int(labels[0]): 0}
        self.grid = self._check_grid(grid, feature)
        # fast paths only where _validate is the class's own validation (a subclass's extra checks always run)
        self._plain_validation = (
            _plain_validation(self.hypothesis_class) and type(self)._validate is PrivateOnlineLearner._validate
        )
        # ints of the class's integer range are points (a subclass whose _validate refuses some of them resets this)
        self._int_range = _int_range(self.hypothesis_class) if _plain_validation(self.hypothesis_class) else None
        # river's one-key dict {"x": v} read in place by predict_one / learn_one (no declared feature, no grid), and
        # the ints that are points without a call (_point's int fast path inline in predict_one; empty with a grid)
        self._one_key = self.grid is None and feature is None
        self._int_lo, self._int_hi = self._int_range if self._int_range is not None and self.grid is None else (0, 0)
        self._forget_point()
        self.t = 0

    # river-style protocol -----------------------------------------------------------------------------------
    @property
    def label_coding(self) -> tuple[int, int]:
        return self.labels

    coding_is_set = True
    #: river's protocol flags (supervised, binary)
    _supervised = True
    _multiclass = False

    def hypothesis(self) -> Hypothesis:
        """The released hypothesis h_{t+1}: the one used at the next round (the only thing a user may see)."""
        return self._released()

    def predict_one(self, x: Any) -> Any:
        """h_t(x) in the declared label pair (x: a point, a river dict with one key or the declared ``feature``, or
        — with a grid — a tuple or river dict of raw feature values)."""
        v = x
        if type(x) is dict and self._one_key and len(x) == 1:  # river's {"x": v}: v read in place
            try:
                v = x[self._key]
            except KeyError:
                v = self._only_value(x)
        if v is self._raw:  # the value validated last (module doc)
            pt = self._pt
        elif type(v) is int and self._int_lo <= v < self._int_hi:  # _point's int fast path, inline
            self._raw = self._pt = pt = v
            self._raw_type = int
        else:
            pt = self._point(x)
        hf = self._hf
        return self.labels[(hf if hf is not None else self._released())(pt)]

    def predict_proba_one(self, x: Any) -> dict[Any, float]:
        """river's probability dict of h_t(x): the released hypothesis is deterministic, so it puts mass 1 on its label."""
        p = int(self._released()(self._point(x)))
        return {self.labels[0]: float(1 - p), self.labels[1]: float(p)}

    def _check_grid(self, grid: Any, feature: Any) -> FeatureGrid | None:
        """The learner's grid: ``grid=`` or the class's own (``H.grid``); its cells must be points of the class.
        ``grid=False``: no grid even where the class carries one — points are then the class's own (cells)."""
        if grid is False:
            return None
        carried = getattr(self.hypothesis_class, "grid", None)
        if grid is None:
            grid = carried if isinstance(carried, FeatureGrid) else None
        if grid is None:
            return None
        if not isinstance(grid, FeatureGrid):
            raise LittlestoneError(f"grid must be a littlestone FeatureGrid, not {type(grid).__name__}")
        if isinstance(carried, FeatureGrid) and carried != grid:
            raise LittlestoneError(f"grid={grid!r} differs from the grid the class carries ({carried!r})")
        if feature is not None:
            raise LittlestoneError(
                "give either feature= (one key of a river dict) or grid= (several features), not both"
            )
        top = tuple(b - 1 for b in grid.bins)
        corners = [top[0], 0] if grid.n_features == 1 else [top, (0,) * grid.n_features]
        if not all(self.hypothesis_class.contains_point(c) for c in corners):
            shape = "×".join(map(str, grid.bins))
            raise LittlestoneError(
                f"the {shape} grid's cells are not points of {self.hypothesis_class.name}: build the class on the grid "
                "(GridStumps(grid), GridBoxes(grid)) or a class whose domain holds the cells"
            )
        return grid

    def _only_value(self, x: dict) -> Any:
        """The value of a one-key dict whose key is not the one remembered: the key is remembered (river's dicts repeat
        it, so the next rounds read ``x[key]``); any one key is read, as :meth:`_point` reads it."""
        self._key = next(iter(x))
        return x[self._key]

    def _forget_point(self) -> None:
        self._raw: Any = _NOTHING
        self._raw_type: Any = None
        self._pt: Any = None

    def _point(self, x: Any) -> Point:
        """A point of the class from a point or a river feature dict (one key, or the declared ``feature``;
        :func:`littlestone.online.river_compat.feature_value`), or with a grid from raw feature values (a tuple or a
        dict with the grid's names). Validated once: the last raw value and its point are remembered (module doc)."""
        tx = type(x)
        if self.grid is not None:
            v = self.grid.values(x)
        elif tx is dict:
            try:
                if self.feature is not None:
                    v = x[self.feature]
                else:
                    (v,) = x.values()  # river's one-feature dict, in one step
            except KeyError:
                v = feature_value(x, self.feature)  # the one-line error naming the keys
            except ValueError:
                raise DomainError(
                    f"a feature dict with {len(x)} keys {sorted(map(str, x))[:5]!r}: without a grid these learners take one "
                    "feature; declare which with feature=..., or several features on a public grid with "
                    "grid=FeatureGrid({name: (low, high), …})"
                ) from None
        elif tx is int or tx is tuple:
            v = x
        else:
            v = feature_value(x, self.feature)
        tv = type(v)
        if tv is self._raw_type:
            try:
                if v == self._raw:
                    return self._pt
            except (TypeError, ValueError):  # an array inside a tuple: no cache, the validation names the problem
                pass
        if self.grid is not None:
            p = self.grid.cell(v)
        elif tv is int and self._int_range is not None and self._int_range[0] <= v < self._int_range[1]:
            p = v
        elif tv is tuple and self._plain_validation and self._contains(v):
            p = v
        else:
            p = self._validate(v)
        if tv is int or tv is tuple or tv is float or tv is str:  # immutable values compare by value
            self._raw, self._raw_type, self._pt = v, tv, p
        return p

    def _contains(self, v: Any) -> bool:
        try:
            return bool(self.hypothesis_class.contains_point(v))
        except (TypeError, ValueError):
            return False

    def _validate(self, v: Any) -> Point:
        """The class's validation of one raw value (subclasses add their own checks here); a 1-tuple ``(x,)`` is the
        point x where the class's domain holds x but not the tuple."""
        try:
            return self.hypothesis_class.validate_point(v)
        except DomainError:
            if type(v) is tuple and len(v) == 1:
                try:
                    return self.hypothesis_class.validate_point(v[0])
                except DomainError:
                    pass
            raise

    def _charge_accountant(self) -> None:
        """Charge the whole claim (``privacy()``, parameters only) to ``accountant`` (None = the default) before
        the first example is read; BudgetExceededError (nothing read, nothing spent) if it does not fit."""
        from ..privacy.accountant import charge_fit

        charge_fit(resolve_accountant(self), self.privacy(), f"{type(self).__name__} (T={self.T})")
        self._charged = True

    def learn_one(self, x: Any, y: Any) -> None:
        if not self._charged:
            self._charge_accountant()
        if self.t >= self.T:
            raise LittlestoneError(
                f"horizon exceeded: this learner was built for T={self.T} rounds (its noise and "
                "thresholds depend on T); build a new one with a larger T"
            )
        # the point: the one predict_one validated when x is the same immutable value (module doc), else validated
        if x is self._raw:
            pt = self._pt
        elif type(x) is dict and self._one_key and len(x) == 1:  # river's {"x": v}: v read in place
            try:
                v = x[self._key]
            except KeyError:
                v = self._only_value(x)
            pt = self._pt if v is self._raw else self._point(x)
        else:
            pt = self._point(x)
        try:  # the declared labels (bools too when the negative is 0) in one lookup
            y01 = self._label01[y]
        except (KeyError, TypeError):
            y01 = self._encode(y)  # everything else, or the one-line LabelError
        self._learn01(pt, y01)
        self.t += 1

    def run(self, X: Any, y: Any) -> RunResult:
        """Play the fixed stream (X, y) from the current round on; returns the released hypotheses' predictions."""
        if not self._charged:
            self._charge_accountant()
        if self.grid is not None:
            X = self.grid.points(X)
        Xv = self.hypothesis_class.validate_points(X)
        y01 = (
            np.array([self._encode(v) for v in np.asarray(y).ravel().tolist()], dtype=np.int8)
            if not isinstance(y, np.ndarray) or y.dtype.kind not in "iub"
            else self._encode_array(y)
        )
        if len(y01) != len(Xv):
            raise LittlestoneError(f"run needs one label per point: {len(Xv)} points, {len(y01)} labels")
        if self.t + len(y01) > self.T:
            raise LittlestoneError(f"horizon exceeded: {len(y01)} more rounds after {self.t} exceed T={self.T}")
        preds = self._run01(Xv, y01)
        return RunResult(preds, y01)

    def _run01(self, X: Any, y: np.ndarray) -> np.ndarray:
        preds = np.empty(len(y), dtype=np.int8)
        for t in range(len(y)):
            x = X[t]
            x = x.item() if hasattr(x, "item") else x
            preds[t] = self._released()(x)
            self._learn01(x, int(y[t]))
            self.t += 1
        return preds

    # helpers ------------------------------------------------------------------------------------------------
    def _encode(self, y: Any) -> int:
        """0/1 from a bool (river's: True = positive), 1 or the declared negative label (``river_compat.label01``)."""
        return label01(y, self.labels[0])

    def _encode_array(self, y: np.ndarray) -> np.ndarray:
        y = y.ravel()
        if y.dtype.kind == "b":
            return y.astype(np.int8)
        ok = (y == 1) | (y == self.labels[0])
        if not ok.all():
            raise LabelError(f"label {y[~ok][0]!r} is not one of the declared labels {self.labels}")
        return (y == 1).astype(np.int8)

    @abstractmethod
    def _released(self) -> Hypothesis:
        """h_t."""

    @abstractmethod
    def _learn01(self, x: Point, y: int) -> None:
        """Round t on a validated point and 0/1 label."""

    @abstractmethod
    def privacy(self) -> LearnerPrivacy:
        """The claim, composed from the parts (parameters only)."""

    def state(self) -> dict[str, Any]:
        """What the learner may show: parameters and values computed from mechanism outputs only (round, setting,
        layer, AboveThreshold instances, histograms run, …); with ``diagnostics=True`` also the exact counts of the
        private stream (:meth:`_diagnostic_state`), which the privacy claim does NOT cover."""
        out = self._public_state()
        if self.diagnostics:
            out.update(self._diagnostic_state())
        return out

    @abstractmethod
    def _public_state(self) -> dict[str, Any]:
        """The part of :meth:`state` that is public or computed from mechanism outputs."""

    def _diagnostic_state(self) -> dict[str, Any]:
        """Exact counts of the private stream (only with ``diagnostics=True``; not covered by the claim)."""
        return {}

    def _require_diagnostics(self, name: str) -> None:
        """A one-line error unless the learner was built with ``diagnostics=True``: ``name`` is computed from the
        private stream itself (an exact count or the examples), which the privacy claim does not cover."""
        if not self.diagnostics:
            raise LittlestoneError(
                f"{type(self).__name__}.{name} is computed from the private stream itself (not covered by the "
                "privacy claim): build the learner with diagnostics=True to read it"
            )

    def release(self) -> dict[str, Any]:
        """Exactly what the privacy claim covers: the released hypothesis h_{t+1} (h_1 … h_t were released round by
        round), the public parameters, :meth:`state` without diagnostics (public or computed from mechanism outputs,
        whatever ``diagnostics`` says) and the claim. Never an exact count or an example of the private stream: this,
        not the learner object or its pickle (the owner's private state), is what may be shared."""
        return {
            "learner": type(self).__name__,
            "hypothesis": self.hypothesis(),
            "parameters": {
                "class": self.hypothesis_class.name,
                "T": self.T,
                "epsilon": self.epsilon,
                "delta": self.delta,
                "beta": self.beta,
                "labels": self.labels,
                "setting": self.setting,
            },
            "state": self._public_state(),
            "privacy": self.privacy(),
        }

    @property
    def setting(self) -> str:
        """A short label of the parameter setting used (for results)."""
        return ""
