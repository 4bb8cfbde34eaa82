"""The contract every hypothesis class and every online learner must meet, checked in one call.

>>> from littlestone import Thresholds
>>> from littlestone.testing import check_hypothesis_class, oracle
>>> from littlestone.classes import FiniteClass
>>> check_hypothesis_class(Thresholds(12), twin=FiniteClass(oracle.thresholds_matrix(12)))

Each check raises an ``AssertionError`` naming the broken property (with the restriction sequence that broke it).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np

from ..classes.base import Hypothesis, HypothesisClass, VersionSpace
from ..errors import DomainError, LabelError
from . import oracle

__all__ = ["check_hypothesis_class", "check_online_learner"]

#: classes with at most this many hypotheses (on at most ORACLE_POINTS points) are checked against the brute force
ORACLE_HYPOTHESES = 256
ORACLE_POINTS = 12


def _points_of(H: HypothesisClass, points: Sequence[Any] | None, limit: int = 64) -> list:
    if points is not None:
        pts = [H.validate_point(x) for x in points]
    else:
        try:
            pts = list(H.domain_points())[:limit]
        except TypeError:
            raise AssertionError(f"{H.name} has no enumerable domain: pass points=[...] to check it on") from None
    assert pts, f"{H.name}: no points to check on"
    return pts


def _values(V: VersionSpace, pts: list) -> frozenset | None:
    """V's hypotheses as value tuples on pts, or None when V is too large to enumerate."""
    size = V.size()
    if not math.isfinite(size) or size > ORACLE_HYPOTHESES:
        return None
    try:
        return frozenset(tuple(int(h(x)) for x in pts) for h in V.hypotheses())
    except TypeError:  # a finite version space of an infinite domain that does not enumerate itself
        return None


def _check_version_space(H: HypothesisClass, V: VersionSpace, pts: list, path: list) -> None:
    where = f"{H.name} after {path or 'no examples'}"
    d = V.ldim()
    assert isinstance(d, int) and d >= -1, f"{where}: ldim() must be an int ≥ −1, got {d!r}"
    assert (d == -1) == V.is_empty(), f"{where}: Ldim −1 exactly for the empty version space (got {d})"
    assert V.size() >= 0 and (V.size() == 0) == V.is_empty(), f"{where}: size() {V.size()} vs is_empty()"
    if d >= 0:
        assert d <= math.log2(V.size()) + 1e-9 if math.isfinite(V.size()) else True, (
            f"{where}: Ldim {d} > log2 |V| = log2 {V.size()}"
        )
    soa = V.soa()
    assert isinstance(soa, Hypothesis), f"{where}: soa() must return a Hypothesis"
    many = np.asarray(V.soa_predict_many(pts))
    for i, x in enumerate(pts):
        V0, V1 = V.restrict(x, 0), V.restrict(x, 1)
        d0, d1 = V0.ldim(), V1.ldim()
        assert max(d0, d1) <= d, f"{where}: restricting at {x!r} raised Ldim ({d0}, {d1} > {d})"
        if d0 >= 0 and d1 >= 0:
            assert 1 + min(d0, d1) <= d, f"{where}: {x!r} splits V into Ldims {d0}, {d1} but Ldim(V) = {d}"
        want = int(d1 > d0)  # the SOA, ties → 0
        got = V.soa_predict(x)
        assert got == want, f"{where}: soa_predict({x!r}) = {got}, but Ldim(V|x,1) = {d1}, Ldim(V|x,0) = {d0}"
        assert int(soa(x)) == want and int(many[i]) == want, f"{where}: soa() / soa_predict_many disagree at {x!r}"
    x = V.split_point()
    if d >= 1:
        assert x is not None, f"{where}: split_point() is None although Ldim = {d}"
        assert min(V.restrict(x, 0).ldim(), V.restrict(x, 1).ldim()) >= d - 1, (
            f"{where}: split_point() {x!r} is not the root of a deepest mistake tree"
        )
    else:
        assert x is None, f"{where}: split_point() must be None when Ldim ≤ 0"
    vals = _values(V, pts)
    if vals is not None:  # (then hypotheses() enumerates)
        hyps = list(V.hypotheses())
        assert len(hyps) == V.size() == len(set(hyps)), f"{where}: hypotheses() and size() disagree"
        assert all(V.contains(h) for h in hyps), f"{where}: contains() rejects one of hypotheses()"
        if len(pts) <= ORACLE_POINTS and len(hyps) == len(vals) and (V.hclass.domain_size == len(pts)):
            assert d == oracle.brute_ldim(vals), f"{where}: Ldim {d} ≠ brute force {oracle.brute_ldim(vals)}"


def _chain_ldim(size: int) -> int:
    return -1 if size <= 0 else int(size).bit_length() - 1


def _same_space(A: VersionSpace, B: VersionSpace, pts: list) -> bool:
    """Same size, Ldim and SOA on pts (two representations of one version space)."""
    return (
        A.size() == B.size()
        and A.ldim() == B.ldim()
        and [int(A.soa_predict(x)) for x in pts] == [int(B.soa_predict(x)) for x in pts]
    )


def _check_closed_forms(H: HypothesisClass, V: VersionSpace, pts: list, path: list, rng: np.random.Generator) -> None:
    """Every optional closed form V offers (online_run, online_run_array, halving_hypothesis, flip_point, chain,
    threshold_interval) agrees with the generic computation from restrict/soa_predict/size."""
    where = f"{H.name} after {path or 'no examples'}"
    xs = [pts[int(i)] for i in rng.integers(0, len(pts), size=8)]
    if V.is_empty():
        ys = [int(b) for b in rng.integers(0, 2, size=8)]
    else:  # labels of the version space's SOA-consistent walk, with one random label (possibly unrealizable)
        ys, W = [], V
        for x in xs:
            ones, zeros = not W.restrict(x, 1).is_empty(), not W.restrict(x, 0).is_empty()
            y = int(rng.integers(2)) if ones and zeros else int(ones)
            ys.append(y)
            W = W.restrict(x, y)
        ys[-2] = int(rng.integers(2))
    runs = []
    for rule in ("soa", "halving"):
        if rule == "halving" and not math.isfinite(V.size()):
            continue
        runs.append((rule, "online_run", V.online_run(list(xs), list(ys), rule)))
        if all(isinstance(x, int) and -(2**62) < x < 2**62 for x in xs):
            X = np.array(xs, dtype=np.int64)
            runs.append((rule, "online_run_array", V.online_run_array(X, np.array(ys, dtype=np.int8), rule)))
    for rule, name, run in runs:
        if run is None:
            continue
        W, preds = V, []
        for x, y in zip(xs, ys):
            p = W.soa_predict(x) if rule == "soa" else int(W.restrict(x, 1).size() > W.restrict(x, 0).size())
            W2 = W.restrict(x, y)
            if W2.is_empty():
                break
            preds.append(int(p))
            W = W2
        got, Wr, k = run
        assert k == len(preds), (
            f"{where}: {name}({rule!r}) read {k} examples of {list(zip(xs, ys))}, the rounds one at a time {len(preds)}"
        )
        assert [int(v) for v in got] == preds, f"{where}: {name}({rule!r}) predicted {list(got)}, one at a time {preds}"
        assert _same_space(Wr, W, pts), f"{where}: {name}({rule!r}) left another version space"
    vote = V.halving_hypothesis() if math.isfinite(V.size()) else None
    if vote is not None:
        for x in pts:
            want = int(V.restrict(x, 1).size() > V.restrict(x, 0).size())
            assert vote(x) == want, f"{where}: halving_hypothesis() says {vote(x)} at {x!r}, the vote {want}"
    _check_flip_point(H, V, pts, where, rng)
    chain = V.chain()
    if chain is not None:
        c, kth = chain
        assert c == V.size(), f"{where}: chain() has {c} elements but size() = {V.size()}"
        assert V.ldim() == _chain_ldim(c), f"{where}: a chain of {c} functions has Ldim {_chain_ldim(c)}"
        for j in sorted({1, int(c), *[int(v) for v in rng.integers(1, int(c) + 1, size=6)]} if c >= 1 else ()):
            assert V.restrict(kth(j), 1).size() == j, f"{where}: chain(): V|(kth({j}), 1) is not the {j} smallest"
    form = V.threshold_interval()
    if form is not None:
        lo, hi, n = form
        assert V.size() == max(0, hi - lo + 1), f"{where}: threshold_interval() {form} vs size() {V.size()}"
        assert _same_space(V.with_threshold_interval(lo, hi), V, pts), (
            f"{where}: with_threshold_interval{(lo, hi)} differs from V"
        )
        for x in pts:
            n1, n0 = max(0, min(hi, x) - lo + 1), max(0, hi - max(lo, x + 1) + 1)
            assert V.soa_predict(x) == int(_chain_ldim(n1) > _chain_ldim(n0)), (
                f"{where}: threshold_interval() {form}: the closed-form SOA differs at {x!r}"
            )
            for y, want in ((1, (lo, min(hi, x))), (0, (max(lo, x + 1), hi))):
                W = V.restrict(x, y)
                f = W.threshold_interval()
                if want[0] > want[1]:
                    assert W.is_empty(), f"{where}: V|({x!r}, {y}) should be empty"
                else:
                    assert f is not None and (f[0], f[1], f[2]) == (*want, n), (
                        f"{where}: V|({x!r}, {y}) has threshold_interval() {f}, expected {(*want, n)}"
                    )
    if H.soa_is_proper():
        assert H.version_space().contains(V.soa()), f"{where}: soa_is_proper() but SOA_V = {V.soa()!r} ∉ H"


def _check_flip_point(H: HypothesisClass, V: VersionSpace, pts: list, where: str, rng: np.random.Generator) -> None:
    """flip_point(h) answers 1 − h(x) and keeps V nonempty; on domains of ≤ 2^12 points (all of them in pts) no
    point keeps a larger (size, Ldim) — so a closed-form override is exact where the generic scan is."""
    hyps = [V.soa(), H.version_space().soa()]
    if math.isfinite(H.version_space().size()):
        try:
            hyps.append(H.random_hypothesis(rng))
        except Exception:  # noqa: BLE001 - a class without a target law: the SOAs suffice
            pass
    exact = H.domain_size <= 1 << 12 and len(pts) == H.domain_size
    for h in hyps:
        move = V.flip_point(h)
        best = None
        if exact:
            keys = [(W.size(), W.ldim()) for W in (V.restrict(x, 1 - int(h(x))) for x in pts) if not W.is_empty()]
            best = max(keys) if keys else None
        if move is None:
            assert best is None, f"{where}: flip_point({h!r}) found no flip, but one keeps {best}"
            continue
        x, y = move
        assert y == 1 - int(h(x)), f"{where}: flip_point({h!r}) answers {y} at {x!r} where h says {h(x)}"
        W = V.restrict(x, y)
        assert not W.is_empty(), f"{where}: flip_point({h!r}) = {move} empties the version space"
        if best is not None:
            assert (W.size(), W.ldim()) == best, f"{where}: flip_point({h!r}) keeps {(W.size(), W.ldim())} < {best}"


def _check_class_closed_forms(H: HypothesisClass, hyps: list, pts: list, rng: np.random.Generator) -> None:
    """mistake_counts and empirical_errors, when the class offers them, agree with evaluating each hypothesis."""
    xs = [pts[int(i)] for i in rng.integers(0, len(pts), size=30)]
    y = rng.integers(0, 2, size=30).astype(np.int8)
    X = H.validate_points(xs)
    want = [int(np.count_nonzero(np.asarray(h.predict(X)).astype(int) != y)) for h in hyps]
    counts = H.mistake_counts(hyps, X, y)
    if counts is not None:
        assert [int(c) for c in counts] == want, f"{H.name}: mistake_counts {list(counts)} ≠ evaluated {want}"
    table = H.empirical_errors([(H.validate_points(xs[:13]), y[:13]), (H.validate_points(xs[13:]), y[13:])])
    if table is not None:
        assert table.n == len(y), f"{H.name}: empirical_errors read {table.n} examples of {len(y)}"
        assert [table.mistakes(h) for h in hyps] == want, f"{H.name}: empirical_errors().mistakes ≠ evaluated"
        for theta in (0.0, 0.3, 0.5, 1.0):
            budget = math.floor(theta * len(y) + 1e-9)
            level = table.level(theta)
            for h, m in zip(hyps, want):
                assert level.contains(h) == (m <= budget), (
                    f"{H.name}: empirical level θ={theta} and {h!r} with {m} mistakes disagree"
                )


def _check_hypotheses(H: HypothesisClass, V: VersionSpace, pts: list, rng: np.random.Generator) -> None:
    size = V.size()
    if not math.isfinite(size) or size > 4096:
        hyps = [V.soa(), V.restrict(pts[0], 1).soa(), V.restrict(pts[-1], 0).soa()]
    else:
        hyps = list(V.hypotheses())
        hyps = [hyps[i] for i in rng.permutation(len(hyps))[:24]]
    for h in hyps:
        assert hash(h) == hash(h) and h == h, f"{H.name}: {h!r} must be hashable and equal to itself"
    assert sorted(hyps) == sorted(reversed(hyps)), f"{H.name}: hypotheses must be totally ordered"
    X = H.validate_points(pts)
    for h1 in hyps[:8]:
        vals = np.asarray(h1.predict(X)).astype(int)
        assert vals.tolist() == [int(h1(x)) for x in pts], f"{H.name}: {h1!r}.predict disagrees with calls"
        for h2 in hyps[:8]:
            x = H.disagreement(h1, h2)
            same = np.array_equal(vals, np.asarray(h2.predict(X)).astype(int))
            if x is None:
                assert h1 == h2 or same, f"{H.name}: disagreement({h1!r}, {h2!r}) is None but they differ on the points"
            else:
                assert int(h1(x)) != int(h2(x)), f"{H.name}: disagreement({h1!r}, {h2!r}) = {x!r}, where they agree"
            assert (h1 == h2) == (x is None), f"{H.name}: equality and disagreement() of {h1!r}, {h2!r} disagree"
    _check_class_closed_forms(H, [h for h in hyps if V.contains(h)], pts, rng)


def _check_twin(
    H: HypothesisClass, twin: HypothesisClass, pts: list, rng: np.random.Generator, walks: int, depth: int
) -> None:
    """Random restriction walks on H and its explicit twin: Ldim, size, SOA, restrict_sample agree."""
    X = H.validate_points(pts)
    for _ in range(walks):
        V, W = H.version_space(), twin.version_space()
        path: list = []
        for step in range(depth + 1):
            where = f"{H.name} vs its twin after {path or 'no examples'}"
            assert V.ldim() == W.ldim(), f"{where}: Ldim {V.ldim()} vs twin {W.ldim()}"
            assert V.size() == W.size(), f"{where}: size {V.size()} vs twin {W.size()}"
            a = np.asarray(V.soa().predict(X)).astype(int)
            b = np.asarray(W.soa().predict(twin.validate_points(pts))).astype(int)
            assert np.array_equal(a, b), f"{where}: SOA value vectors differ"
            if V.is_empty() or step == depth:
                break
            x = pts[int(rng.integers(len(pts)))]
            hs = list(W.hypotheses())
            y = int(hs[int(rng.integers(len(hs)))](x)) if rng.random() < 0.85 else int(rng.integers(2))
            V, W = V.restrict(x, y), W.restrict(x, y)
            path.append((x, y))
        if path:
            xs, ys = [p[0] for p in path], np.array([p[1] for p in path])
            Vs, k = H.version_space().restrict_sample(H.validate_points(xs), ys)
            Ws, kw = twin.version_space().restrict_sample(twin.validate_points(xs), ys)
            assert k == kw, f"{H.name}: restrict_sample read {k} examples of {path}, the twin {kw}"
            assert Vs.ldim() == Ws.ldim() and Vs.size() == Ws.size(), f"{H.name}: restrict_sample({path}) differs"


def check_hypothesis_class(
    H: HypothesisClass,
    twin: HypothesisClass | None = None,
    *,
    points: Sequence[Any] | None = None,
    walks: int = 20,
    depth: int = 4,
    seed: int = 0,
) -> None:
    """Check the class protocol on H: version spaces along random restriction walks (Ldim ≥ −1 and −1 exactly when
    empty, monotone under restriction, 1 + min over a split ≤ Ldim, the SOA with ties → 0 in all three forms, a
    split point rooting a deepest tree, hypotheses()/size()/contains() consistent, the brute-force Ldim on small
    finite classes), hypotheses (hashable, totally ordered, predict = calls, disagreement() a real disagreement),
    restrict_sample = sequential restriction, point validation (DomainError outside the domain); every optional
    closed form the class offers (online_run, chain, threshold_interval, soa_is_proper, mistake_counts,
    empirical_errors) against the generic computation; and, with an
    explicit ``twin`` (e.g. a FiniteClass of the same functions), Ldim, size, SOA and restrict_sample along walks.
    ``points``: where to look (default: up to 64 points of a finite domain)."""
    assert isinstance(H, HypothesisClass), f"{H!r} is not a HypothesisClass"
    rng = np.random.default_rng(seed)
    pts = _points_of(H, points)
    V0 = H.version_space()
    assert isinstance(V0, VersionSpace) and not V0.is_empty(), f"{H.name}: the full version space must be nonempty"
    assert V0.hclass is H, f"{H.name}: version_space().hclass must be the class itself"
    assert H.ldim() == V0.ldim(), f"{H.name}: ldim() differs from version_space().ldim()"
    _check_hypotheses(H, V0, pts, rng)
    for _ in range(max(1, walks // 4)):
        V, path = V0, []  # type: VersionSpace, list[tuple[Any, int]]
        for _ in range(depth + 1):
            _check_version_space(H, V, pts, path)
            _check_closed_forms(H, V, pts, path, rng)
            if V.is_empty():
                break
            x = pts[int(rng.integers(len(pts)))]
            y = int(V.soa()(x)) if rng.random() < 0.5 else int(rng.integers(2))
            W = V.restrict(x, y)
            assert W.restrict(x, y) == W, f"{H.name}: restricting twice by ({x!r}, {y}) changed the version space"
            V, path = W, path + [(x, y)]
        if path:
            xs, ys = [p[0] for p in path], np.array([p[1] for p in path])
            Vs, k = V0.restrict_sample(H.validate_points(xs), ys)
            Vq, kq = V0, 0
            for x, y in path:
                if Vq.restrict(x, y).is_empty():
                    break
                Vq, kq = Vq.restrict(x, y), kq + 1
            assert k == kq and Vs == Vq, f"{H.name}: restrict_sample({path}) ≠ sequential restriction"
    for bad in (float("nan"),):  # NaN belongs to no domain
        try:
            H.validate_point(bad)
        except DomainError:
            continue
        raise AssertionError(f"{H.name}: validate_point({bad!r}) must raise DomainError")
    if twin is not None:
        _check_twin(H, twin, pts, rng, walks, depth)


def check_online_learner(
    factory: Callable[[], Any],
    *,
    points: Sequence[Any] | None = None,
    rounds: int = 40,
    seed: int = 0,
    mistake_bound: int | None = None,
) -> None:
    """Check the online-learner protocol (river conventions) on fresh learners from ``factory()``: predict_one
    returns a label and changes nothing; learn_one returns None and counts a mistake exactly when the label
    differs from the prediction; two fresh learners fed the same sequence behave identically; labels come back in
    the coding they came in ({0,1} or {−1,+1}); a point outside the domain raises DomainError and a bad label
    LabelError; and on realizable sequences (labels of a random hypothesis of the learner's class) the mistakes stay
    within ``mistake_bound`` (default: the learner's ``mistake_bound()``/``log2_size_bound()`` if it has one)."""
    rng = np.random.default_rng(seed)
    first = factory()
    for name in ("predict_one", "learn_one"):
        assert callable(getattr(first, name, None)), f"{type(first).__name__} has no {name}()"
    H = getattr(first, "hypothesis_class", None)
    assert isinstance(H, HypothesisClass), f"{type(first).__name__} must expose its hypothesis_class"
    pts = _points_of(H, points)
    if mistake_bound is None:
        for attr in ("mistake_bound", "log2_size_bound"):
            bound = getattr(first, attr, None)
            if callable(bound):
                mistake_bound = int(bound())
                break
    for trial in range(3):
        target = H.random_hypothesis(rng) if math.isfinite(H.version_space().size()) else H.version_space().soa()
        xs = [pts[int(i)] for i in rng.integers(0, len(pts), size=rounds)]
        ys = [int(target(x)) for x in xs]
        a, b = factory(), factory()
        mistakes = 0
        for t, (x, y) in enumerate(zip(xs, ys)):
            p = a.predict_one(x)
            assert p in (0, 1), f"round {t}: predict_one({x!r}) = {p!r}, expected 0 or 1"
            assert a.predict_one(x) == p, f"round {t}: predict_one({x!r}) changed between two calls"
            assert b.predict_one(x) == p, f"round {t}: two fresh learners predict differently at {x!r}"
            before = a.mistakes
            assert a.learn_one(x, y) is None, "learn_one must return None (river convention)"
            b.learn_one(x, y)
            mistakes += int(p != y)
            assert a.mistakes == before + int(p != y), (
                f"round {t}: mistakes counted {a.mistakes - before}, expected {int(p != y)}"
            )
        if mistake_bound is not None:
            assert mistakes <= mistake_bound, f"{mistakes} mistakes on a realizable sequence > bound {mistake_bound}"
        # the same sequence in the {−1, +1} coding: predictions come back as ±1, mistakes identical
        c = factory()
        for x, y in zip(xs, ys):
            p = c.predict_one(x)
            if c.coding_is_set if hasattr(c, "coding_is_set") else True:
                assert p in (-1, 1), f"after ±1 labels, predict_one returned {p!r}"
            c.learn_one(x, 2 * y - 1)
        assert c.mistakes == a.mistakes, "the ±1 coding changed the mistakes"
    learner = factory()
    try:
        learner.predict_one(object())
    except DomainError:
        pass
    else:
        raise AssertionError("predict_one(object()) must raise DomainError (a point outside the domain)")
    try:
        learner.learn_one(pts[0], 7)
    except LabelError:
        pass
    else:
        raise AssertionError("learn_one(x, 7) must raise LabelError")
    assert learner.mistakes == 0, "bad input must not count as a mistake"
