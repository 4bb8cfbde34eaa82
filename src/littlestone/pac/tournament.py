"""The tournament distributions D_k and their Monte-Carlo variant D̃_k with the sample cap and Fail (BLM20 §IV-B, §IV-C1).

A sample S ∼ D̃_k is represented by the SOA's state after reading it (the version space of its longest realizable
prefix plus the Definition 8 patches), so SOA(S∘T) costs one vectorized restriction of T — never a replay of S —
and by its segments (which batch positions and tournament examples it is made of) for inspection.

Deterministic choice in step 3(iv): x = ``H.disagreement(f0, f1)`` — the smallest patched point (in point order)
where f0, f1 differ, else the class's first base disagreement (for thresholds: the smallest x in [t_min, t_max)).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..classes.base import (
    Hypothesis,
    HypothesisClass,
    PatchedHypothesis,
    VersionSpace,
    sortable_key,
    as_python_point,
    patch,
)
from ..classes.thresholds import Threshold, Thresholds, ThresholdsVersionSpace
from ..errors import LittlestoneError
from .sources import Cursor


class _Fail:
    """The "Fail" outcome of D̃_k / G: a distinct, hashable singleton, never a hypothesis (pickles to itself)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Fail"

    def __reduce__(self) -> str:
        return "FAIL"

    def _order_key(self) -> tuple:
        return ("~Fail", ())

    def __lt__(self, other: Any) -> bool:
        return sortable_key(self._order_key()) < sortable_key(other._order_key())

    def __hash__(self) -> int:
        return hash("littlestone.Fail")

    def __eq__(self, other: object) -> bool:
        return other is self


FAIL = _Fail()


@dataclass(frozen=True)
class SOAState:
    """The extended SOA (BLM20 Definition 8) after a sample: V = version space of the realizable prefix;
    once the sample stops being realizable, ``patches`` (point → label, last wins) overwrite SOA_V locally."""

    V: VersionSpace
    realizable: bool = True
    patches: tuple[tuple[Any, int], ...] = ()

    def extend(self, X: Any, y: Any) -> "SOAState":
        """The state after appending (X, y) (validated points, labels 0/1)."""
        y = np.asarray(y, dtype=np.int8)
        if len(y) == 0:
            return self
        if self.realizable:
            V2, j = _restrict(self.V, X, y)
            if j == len(y):
                return SOAState(V2, True, ())
            return SOAState(V2, False, _merge((), X[j:], y[j:]))
        return SOAState(self.V, False, _merge(self.patches, X, y))

    def hypothesis(self) -> Hypothesis:
        """SOA(S) — the predictor after the sample (hashable; equal functions compare equal)."""
        b = _threshold_bounds(self.V)
        h = self.V.soa() if b is None else Threshold(int(_kernels().soa_threshold(*b)))  # same binary search
        if self.realizable or not self.patches:
            return h
        if type(h) is Threshold and all(type(x) is int for x, _ in self.patches):
            return canonical(_patch_threshold(h, self.patches))
        return canonical(patch(h, self.patches))


def _patch_threshold(h: Threshold, patches: tuple) -> Hypothesis:
    """``patch(h, patches)`` when every patched point is a Python int (labels 0/1 as ints): the same last-wins table,
    the points where it differs from h in point order (ints: numeric order), then ``h.absorb_patches`` — without
    the per-point conversions of the generic path (BLM20 Definition 8)."""
    t = h.t
    kept = sorted((x, y) for x, y in dict(patches).items() if (x >= t) != y)
    if not kept:
        return h
    absorbed = h.absorb_patches(kept)
    return PatchedHypothesis(h, tuple(kept)) if absorbed is None else absorbed


def _soa_t(V: VersionSpace) -> int:
    """t of SOA(V) = Threshold(t) for a thresholds version space with int64 bounds (as in SOAState.hypothesis)."""
    b = _threshold_bounds(V)
    assert b is not None
    return int(_kernels().soa_threshold(*b))


def canonical(h: Hypothesis) -> Hypothesis:
    """One representation per function for patched predictors (G's outputs are histogram keys): a patched
    threshold that is itself a threshold becomes that threshold; a patched value vector becomes its value vector."""
    if not isinstance(h, PatchedHypothesis):
        return h
    from ..classes.finite import VectorHypothesis

    base = h.base
    if isinstance(base, VectorHypothesis):
        vals = bytearray(base.values)
        for x, v in h.patches:
            vals[base.domain.index(x)] = v
        return VectorHypothesis(bytes(vals), base.domain)
    if type(base) is Threshold and all(isinstance(x, int) for x, _ in h.patches):
        xs = [x for x, _ in h.patches if isinstance(x, int)]  # sorted; patches are exactly where h ≠ base
        vs = {v for _, v in h.patches}
        if xs[-1] - xs[0] + 1 == len(xs) and len(vs) == 1:
            if vs == {1} and xs[-1] + 1 == base.t:
                return Threshold(xs[0])
            if vs == {0} and xs[0] == base.t:
                return Threshold(xs[-1] + 1)
    return h


def _restrict(V: VersionSpace, X: Any, y: np.ndarray) -> tuple[VersionSpace, int]:
    """``V.restrict_sample(X, y)``; for thresholds on int64-sized integer points, one compiled pass (same result)."""
    b = _threshold_bounds(V)
    if b is None or b[0] > b[1]:
        return V.restrict_sample(X, y)
    if isinstance(X, list) and len(X) == 1 and type(X[0]) is int and -_INT64_MAX <= X[0] < _INT64_MAX:
        lo, hi = b[0], b[1]  # one tournament example: h_t(x) = 1 ⇔ t ≤ x
        lo, hi = (lo, min(hi, X[0])) if y[0] == 1 else (max(lo, X[0] + 1), hi)
        return (V, 0) if lo > hi else (V.with_threshold_interval(lo, hi), 1)
    if not (isinstance(X, np.ndarray) and X.ndim == 1 and X.dtype.kind in "iu"):
        return V.restrict_sample(X, y)
    out = np.empty(2, dtype=np.int64)
    Xi, yi = np.ascontiguousarray(X, dtype=np.int64), np.ascontiguousarray(y, dtype=np.int8)
    k = int(_kernels().restrict_thresholds(Xi, yi, b[0], b[1], out))
    return (V if k == 0 else V.with_threshold_interval(int(out[0]), int(out[1]))), k


def _merge(patches: tuple, X: Any, y: np.ndarray) -> tuple:
    table = dict(patches)
    xs = X.tolist() if isinstance(X, np.ndarray) else [as_python_point(x) for x in X]
    table.update(zip(xs, y.tolist()))  # last wins; a key already present keeps its place (as table[x] = v)
    return tuple(table.items())


def replay_soa(V: VersionSpace, X: Any, y: Any) -> tuple[Hypothesis, list[int]]:
    """Reference replay of the extended SOA, one example at a time (BLM20 Def 8): (final predictor, the
    predictions made). Slow; used by tests and the experiments to check Observation 11 independently."""
    h: Hypothesis = V.soa()
    W, realizable, preds = V, True, []
    for x, lab in zip(X, np.asarray(y).tolist()):
        x = as_python_point(x)
        preds.append(int(h(x)))
        if realizable:
            W2 = W.restrict(x, int(lab))
            if not W2.is_empty():
                W, h = W2, W2.soa()
                continue
            realizable = False
        h = patch(h, [(x, int(lab))])
    return canonical(h), preds


@dataclass(frozen=True)
class TournamentSample:
    """S ∼ D̃_k: the SOA state after S and its segments (("D", start, stop) batch ranges, ("T", x, y) tournament
    examples) in sample order."""

    state: SOAState
    segments: tuple[tuple, ...] = ()

    @property
    def tournament_examples(self) -> list[tuple[Any, int]]:
        return [(s[1], s[2]) for s in self.segments if s[0] == "T"]

    @property
    def length(self) -> int:
        return sum(1 if s[0] == "T" else s[2] - s[1] for s in self.segments)

    def then(self, X: Any, y: Any, start: int, stop: int) -> "TournamentSample":
        return TournamentSample(self.state.extend(X, y), self.segments + (("D", start, stop),))

    def then_tournament(self, x: Any, y: int) -> "TournamentSample":
        return TournamentSample(self.state.extend([x], np.array([y], dtype=np.int8)), self.segments + (("T", x, y),))


def empty_sample(V: VersionSpace) -> TournamentSample:
    """D_0 = D̃_0: the empty sample (BLM20 §IV-B item 1)."""
    return TournamentSample(SOAState(V), ())


def sample_tournament(
    hclass: HypothesisClass,
    cursor: Cursor,
    k: int,
    n: int,
    rng: np.random.Generator,
    *,
    V: VersionSpace | None = None,
    max_rounds: int | None = None,
) -> TournamentSample:
    """Draw S ∼ D̃_k (BLM20 §IV-C1) reading D-examples from ``cursor`` in order (its cap N ⇒ SampleCapExceeded,
    i.e. Fail). With an uncapped cursor this is the exact process D_k of §IV-B (``max_rounds`` guards the
    repeat loop of step 3(iii), which never ends when D_k is undefined)."""
    if n < 1:
        raise LittlestoneError(f"the auxiliary sample size n must be ≥ 1, got {n}")
    if k < 0:
        raise LittlestoneError(f"the tournament depth k must be ≥ 0, got {k}")
    V = hclass.version_space() if V is None else V
    return _draw(hclass, V, cursor, int(k), int(n), rng, max_rounds)


def sample_exact_Dk(
    hclass: HypothesisClass,
    source: Any,
    k: int,
    n: int,
    rng: np.random.Generator,
    *,
    start: int = 0,
    max_rounds: int = 100_000,
) -> tuple[TournamentSample, int]:
    """S ∼ D_k, the exact process of BLM20 §IV-B (no cap), reading ``source`` from ``start`` in order:
    (sample, number M_k of examples drawn from D). Raises if the source runs out or a repeat loop exceeds
    ``max_rounds`` (D_k undefined)."""
    from .sources import SampleCapExceeded

    cursor = Cursor(source, start, len(source))
    try:
        S = sample_tournament(hclass, cursor, k, n, rng, max_rounds=max_rounds)
    except SampleCapExceeded:
        raise LittlestoneError(f"the source ran out after {cursor.used:,} examples while sampling D_{k}") from None
    return S, cursor.used


def _draw(
    hclass: HypothesisClass,
    V: VersionSpace,
    cursor: Cursor,
    k: int,
    n: int,
    rng: np.random.Generator,
    max_rounds: int | None,
) -> TournamentSample:
    if k == 0:
        return empty_sample(V)
    if k == 1:
        return _draw_level1(hclass, V, cursor, n, rng, max_rounds)
    rounds = 0
    plain = type(hclass) is Thresholds and type(V) is ThresholdsVersionSpace and _threshold_bounds(V) is not None
    if k == 2 and plain and max_rounds is None:
        S = _draw_level2_compiled(hclass, V, cursor, n, rng)
        if S is not None:
            return S
    while True:
        rounds += 1
        if max_rounds is not None and rounds > max_rounds:
            raise _undefined(k, max_rounds)
        S0 = _draw(hclass, V, cursor, k - 1, n, rng, max_rounds)  # step (i): S0, S1 ∼ D̃_{k−1}
        S1 = _draw(hclass, V, cursor, k - 1, n, rng, max_rounds)
        a0 = cursor.position
        X0, y0 = cursor.take(n)  # T0, T1 ∼ D^n
        a1 = cursor.position
        X1, y1 = cursor.take(n)
        if plain and _same_extended_soa(S0.state, X0, y0, S1.state, X1, y1):
            continue  # step (iii): SOA(S0∘T0) = SOA(S1∘T1) as functions, decided in one compiled pass
        S0 = S0.then(X0, y0, a0, a0 + n)
        S1 = S1.then(X1, y1, a1, a1 + n)
        if plain and S0.state.realizable and S1.state.realizable:
            # both SOA states realizable on plain thresholds: f_i = Threshold(t_i) (SOAState.hypothesis), equal iff
            # t0 = t1; else steps (iv)–(v) in closed form as in _draw_level1 (same generator draw, same result)
            t0, t1 = _soa_t(S0.state.V), _soa_t(S1.state.V)
            if t0 == t1:
                continue
            x = min(t0, t1)
            y = int(rng.integers(0, 2))
            return (S0 if int(x >= t0) != y else S1).then_tournament(x, y)
        f0, f1 = S0.state.hypothesis(), S1.state.hypothesis()  # step (ii)
        if f0 == f1:  # step (iii)
            continue
        out = _contest(hclass, S0, S1, f0, f1, rng)
        if out is not None:
            return out


def _draw_level2_compiled(
    hclass: HypothesisClass, V: VersionSpace, cursor: Cursor, n: int, rng: np.random.Generator
) -> TournamentSample | None:
    """D̃_2 on plain thresholds (the loop of :func:`_draw` at k = 2 with :func:`_draw_level1` inside): the repeated
    rounds run in one compiled kernel (:func:`littlestone.pac._kernels.level2_draw`) over views of the stream, the
    contest labels read from a copy of ``rng`` and then drawn from ``rng`` itself in the same number (the same
    generator draws, so the same sample); the round that does not repeat ends here as in :func:`_draw`. None (cursor
    and ``rng`` untouched) when a level-1 block is not realizable or the points are not int64 integers: the caller
    then draws as before."""
    fast = _threshold_bounds(V)
    assert fast is not None
    start, block = cursor.position, getattr(cursor.source, "block_size", 0) or 1 << 14
    bg = type(rng.bit_generator)(0)  # seeded only to skip OS entropy: its state is overwritten next
    bg.state = rng.bit_generator.state
    copy = np.random.Generator(bg)
    bits = copy.integers(0, 2, size=64).astype(np.int64)
    st = np.zeros(16, dtype=np.int64)
    scan = _kernels().level2_draw
    while True:
        avail, rest = cursor.available(), block - cursor.position % block
        L = min(avail, rest if rest >= 2 * n else 2 * n)  # views inside a block; 2n copied across its boundary
        if L < 2 * n:  # the next step reads past the cap: Fail where _draw would (after T0 if it fits)
            rng.integers(0, 2, size=int(st[1]))
            if st[2] == 2 and avail >= n:
                cursor.skip(n)
            cursor.take(2 * n)
        X, y = cursor.peek(L)
        if not (isinstance(X, np.ndarray) and X.ndim == 1 and X.dtype.kind in "iu"):
            cursor.position = start
            return None
        Xi, yi = np.ascontiguousarray(X, dtype=np.int64), np.ascontiguousarray(y, dtype=np.int8)
        st[0] = 0
        code = int(scan(Xi, yi, cursor.position, n, fast[0], fast[1], fast[2], bits, st))
        if code == 3:
            cursor.position = start
            return None
        cursor.skip(int(st[0]))
        if code == 1:
            bits = np.concatenate([bits, copy.integers(0, 2, size=len(bits)).astype(np.int64)])
        if code != 2:
            continue
        rng.integers(0, 2, size=int(st[1]))  # the contest labels the kernel used, drawn from rng in order
        a1 = cursor.position - n
        a0 = a1 - n
        S0, S1 = (_level1_summary(V, st[o : o + 6].tolist(), n) for o in (3, 9))
        X0, y0 = cursor.source.batch(a0, a1)
        X1, y1 = cursor.source.batch(a1, a1 + n)
        S0, S1 = S0.then(X0, y0, a0, a1), S1.then(X1, y1, a1, a1 + n)
        if S0.state.realizable and S1.state.realizable:  # as in _draw
            t0, t1 = _soa_t(S0.state.V), _soa_t(S1.state.V)
            if t0 != t1:
                x = min(t0, t1)
                lab = int(rng.integers(0, 2))
                return (S0 if int(x >= t0) != lab else S1).then_tournament(x, lab)
        else:
            f0, f1 = S0.state.hypothesis(), S1.state.hypothesis()
            if f0 != f1:
                out = _contest(hclass, S0, S1, f0, f1, rng)
                if out is not None:
                    return out
        # the kernel's step (iii) said "differ" but the functions agree: a repeat after all (never seen)
        bg.state = rng.bit_generator.state
        bits, st[1], st[2] = copy.integers(0, 2, size=64).astype(np.int64), 0, 0


def _level1_summary(V: VersionSpace, s: list, n: int) -> TournamentSample:
    """The level-1 sample the kernel's summary (lo, hi, realizable, x, label, block position) stands for — exactly
    what :func:`_draw_level1` returns in closed form."""
    lo, hi, real, x, lab, a = s
    segments = (("D", a, a + n), ("T", x, lab))
    if real:
        return TournamentSample(SOAState(V.with_threshold_interval(lo, hi)), segments)
    return TournamentSample(SOAState(V.with_threshold_interval(lo, hi), False, ((x, lab),)), segments)


def _soa_arrays(state: SOAState) -> tuple[int, int, int, np.ndarray, np.ndarray] | None:
    """A thresholds SOA state as the compiled kernels take it: (lo, hi, realizable, patch points, patch labels)."""
    b = _threshold_bounds(state.V)
    if b is None or b[0] > b[1]:
        return None
    P = state.patches
    if not P:
        return b[0], b[1], int(state.realizable), _NO_POINTS, _NO_LABELS
    xs = [x for x, _ in P]
    if not all(type(x) is int and -_INT64_MAX <= x < _INT64_MAX for x in xs):
        return None
    return b[0], b[1], int(state.realizable), np.array(xs, dtype=np.int64), np.array([v for _, v in P], dtype=np.int8)


def _same_extended_soa(s0: SOAState, X0: Any, y0: Any, s1: SOAState, X1: Any, y1: Any) -> bool:
    """True only when SOA(S0∘T0) and SOA(S1∘T1) are the same function on the thresholds' domain — exactly when the
    round repeats (f0 = f1, or ``Thresholds.disagreement`` finds no point: step (iii)); False also when the kernel
    cannot decide (points not int64 integers), and the caller then builds f0, f1 as before."""
    if not (isinstance(X0, np.ndarray) and X0.ndim == 1 and X0.dtype.kind in "iu" and isinstance(X1, np.ndarray)):
        return False
    a, b = _soa_arrays(s0), _soa_arrays(s1)
    if a is None or b is None:
        return False
    n_points = _threshold_bounds(s0.V)[2]  # type: ignore[index]
    X0, X1 = np.ascontiguousarray(X0, dtype=np.int64), np.ascontiguousarray(X1, dtype=np.int64)
    y0, y1 = np.ascontiguousarray(y0, dtype=np.int8), np.ascontiguousarray(y1, dtype=np.int8)
    return bool(_kernels().same_extended_soa(*a, X0, y0, *b, X1, y1, n_points))


def _contest(
    hclass: HypothesisClass,
    S0: TournamentSample,
    S1: TournamentSample,
    f0: Hypothesis,
    f1: Hypothesis,
    rng: np.random.Generator,
) -> TournamentSample | None:
    """Steps (iv)–(v); None when f0, f1 are the same function in different representations (step (iii) again)."""
    x = hclass.disagreement(f0, f1)  # step (iv), fixed rule (module doc)
    if x is None:
        return None
    y = int(rng.integers(0, 2))
    return (S0 if f0(x) != y else S1).then_tournament(x, y)  # step (v)


def _undefined(k: int, max_rounds: int) -> LittlestoneError:
    return LittlestoneError(
        f"D_{k}: SOA(S0∘T0) = SOA(S1∘T1) in {max_rounds} rounds in a row — D_{k} is "
        f"(numerically) undefined for this distribution (BLM20 §IV-B item 2)"
    )


def _draw_level1(
    hclass: HypothesisClass, V: VersionSpace, cursor: Cursor, n: int, rng: np.random.Generator, max_rounds: int | None
) -> TournamentSample:
    """D̃_1: S0 = S1 = ∅, so round r compares SOA(T0) with SOA(T1). The same process as :func:`_draw`, evaluated
    for a chunk of rounds at once (peek at the next rounds, draw only up to the first round with f0 ≠ f1).

    For thresholds on integer points a fused kernel (:mod:`littlestone.pac._kernels`) scans the chunk, skipping the
    rounds whose two SOA outputs are equal, and hands back the first other round; every other class (and every
    non-realizable block) goes through the generic per-round test. Both give the same sample for the same stream
    and generator (pinned by tests/pac/test_blm20_kernel_pins.py)."""
    fast = _threshold_bounds(V)
    plain = type(hclass) is Thresholds and type(V) is ThresholdsVersionSpace  # the contest in closed form
    chunk, rounds = 64, 0  # chunking changes no outcome (rounds past the first decisive one are never drawn)
    out = np.zeros(6, dtype=np.int64)
    block = getattr(cursor.source, "block_size", 0)  # a blocked stream: peek up to its next block boundary (a view)
    while True:
        R = cursor.available() // (2 * n)
        if block:  # the rest of the current block at once (views of a generated block cost nothing to peek)
            R = min(R, max(1, (block - cursor.position % block) // (2 * n)))
        else:
            R = min(R, chunk)
        if R <= 0:
            cursor.take(2 * n)  # not even one more round fits under the cap: Fail
        if max_rounds is not None:
            R = min(R, max_rounds - rounds)
            if R <= 0:
                raise _undefined(1, max_rounds)
        X, y = cursor.peek(2 * n * R)
        if fast is not None and isinstance(X, np.ndarray) and X.ndim == 1 and X.dtype.kind in "iu":
            Xi = np.ascontiguousarray(X, dtype=np.int64)
            yi = np.ascontiguousarray(y, dtype=np.int8)
            scan = _kernels().level1_first_round
            r = int(scan(Xi, yi, n, R, 0, fast[0], fast[1], fast[2], out))
            while r < R:
                a0, lo = cursor.position + 2 * n * r, 2 * n * r
                lo0, hi0, lo1, hi1, t0, t1 = out.tolist()
                if lo0 <= hi0 and lo1 <= hi1 and plain:
                    # both realizable, SOA thresholds t0 ≠ t1: f_i = Threshold(t_i), their first disagreement is
                    # min(t0, t1) (``Thresholds.base_disagreements``); steps (iv)–(v) as in :func:`_contest`, the
                    # loser's sample built alone (same generator draw, same result)
                    x = min(t0, t1)
                    lab = int(rng.integers(0, 2))
                    cursor.skip(lo + 2 * n)
                    vlo, vhi, a = (lo0, hi0, a0) if int(x >= t0) != lab else (lo1, hi1, a0 + n)
                    nlo, nhi = (vlo, min(vhi, x)) if lab == 1 else (max(vlo, x + 1), vhi)
                    segments = (("D", a, a + n), ("T", x, lab))
                    if nlo <= nhi:  # still realizable: SOAState.extend's one-example step, in closed form
                        return TournamentSample(SOAState(V.with_threshold_interval(nlo, nhi)), segments)
                    # (x, lab) contradicts the block: SOAState.extend keeps the block's version space and starts the
                    # patches with (x, lab) (Definition 8) — built directly, as then_tournament would
                    return TournamentSample(SOAState(V.with_threshold_interval(vlo, vhi), False, ((x, lab),)), segments)
                if out[0] <= out[1] and out[2] <= out[3]:  # both realizable, SOA thresholds differ
                    S0 = _realizable_sample(V, int(out[0]), int(out[1]), a0, a0 + n)
                    S1 = _realizable_sample(V, int(out[2]), int(out[3]), a0 + n, a0 + 2 * n)
                    found = _level1_round(hclass, S0, S1, rng)
                else:
                    found = _level1_generic(hclass, V, X[lo : lo + 2 * n], y[lo : lo + 2 * n], n, a0, rng)
                if found is not None:
                    cursor.skip(lo + 2 * n)
                    return found
                r = int(scan(Xi, yi, n, R, r + 1, fast[0], fast[1], fast[2], out))
        else:
            for r in range(R):
                lo = 2 * n * r
                found = _level1_generic(hclass, V, X[lo : lo + 2 * n], y[lo : lo + 2 * n], n, cursor.position + lo, rng)
                if found is not None:
                    cursor.skip(lo + 2 * n)
                    return found
        cursor.skip(2 * n * R)
        rounds += R
        chunk = min(2 * chunk, 1 << 12)


def _realizable_sample(V: VersionSpace, lo: int, hi: int, start: int, stop: int) -> TournamentSample:
    """``empty_sample(V).then(block)`` for a realizable thresholds block whose version space is [lo, hi]."""
    return TournamentSample(SOAState(V.with_threshold_interval(lo, hi)), (("D", start, stop),))


def _level1_round(
    hclass: HypothesisClass, S0: TournamentSample, S1: TournamentSample, rng: np.random.Generator
) -> TournamentSample | None:
    """Steps (ii)–(v) of a level-1 round: the contest's result, or None (f0 = f1: repeat)."""
    f0, f1 = S0.state.hypothesis(), S1.state.hypothesis()
    if f0 == f1 or hclass.disagreement(f0, f1) is None:
        return None
    return _contest(hclass, S0, S1, f0, f1, rng)


def _level1_generic(
    hclass: HypothesisClass, V: VersionSpace, X: Any, y: np.ndarray, n: int, a0: int, rng: np.random.Generator
) -> TournamentSample | None:
    """One level-1 round on blocks X[:n], X[n:2n] (batch positions a0…): the contest's result, or None (repeat)."""
    k0, k1 = _block_keys(V, X, y, n, 2)
    if k0 == k1:
        return None
    S0 = empty_sample(V).then(X[:n], y[:n], a0, a0 + n)
    S1 = empty_sample(V).then(X[n : 2 * n], y[n : 2 * n], a0 + n, a0 + 2 * n)
    return _level1_round(hclass, S0, S1, rng)


_INT64_MAX = int(np.iinfo(np.int64).max)
_NO_POINTS, _NO_LABELS = np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int8)


def _threshold_bounds(V: VersionSpace) -> tuple[int, int, int] | None:
    """(lo, hi, n) of a version space in threshold-interval form (:meth:`VersionSpace.threshold_interval`) whose
    closed-form keys fit in int64 (the compiled kernels' integers), else None."""
    form = V.threshold_interval()
    if form is not None and form[1] < _INT64_MAX and form[2] < _INT64_MAX:
        return int(form[0]), int(form[1]), int(form[2])
    return None


def _block_keys(V: VersionSpace, X: Any, y: np.ndarray, n: int, blocks: int) -> list:
    """For each consecutive block of n examples, a key with: equal keys ⇒ equal SOA(block) (from V): the class's
    closed-form keys where it has them (:meth:`VersionSpace.soa_block_keys`), else the SOA hypothesis itself."""
    keys = V.soa_block_keys(X, y, n)
    if keys is None:
        keys = [None] * blocks
    return [
        k if k is not None else SOAState(V).extend(X[i * n : (i + 1) * n], y[i * n : (i + 1) * n]).hypothesis()
        for i, k in enumerate(keys)
    ]


_KERNELS: Any = None


def _kernels() -> Any:
    """The compiled kernels, loaded on first use: the ahead-of-time build (no Numba import) when one exists for the
    current kernel source, else the Numba JIT module (compiled, or loaded from Numba's cache);
    ``LITTLESTONE_KERNELS=jit|aot|auto`` forces a path (:mod:`littlestone._aot`)."""
    global _KERNELS
    if _KERNELS is None:
        from .._aot import load_kernels
        from ._kernels_build import KERNELS

        _KERNELS = load_kernels(KERNELS, _jit_kernels)
    return _KERNELS


def _jit_kernels() -> Any:
    from . import _kernels as k

    return k
