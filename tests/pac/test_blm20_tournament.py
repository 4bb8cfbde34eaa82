"""D̃_k mechanics (BLM20 §IV-B/C): Observation 11, Definition 8 on non-realizable concatenations, cap ⇒ Fail,
examples consumed in order and never re-used, incremental SOA state = reference replay."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone import FiniteClass, Thresholds
from littlestone.errors import LittlestoneError
from littlestone.online.extended_soa import extended_soa
from littlestone.pac.sources import ArraySource, Cursor, RealizableStream, SampleCapExceeded, UniformIntegers
from littlestone.pac.tournament import FAIL, SOAState, canonical, replay_soa, sample_tournament


def _sample_examples(source, S):
    """The examples of S (a TournamentSample) in order, rebuilt from its segments and the source."""
    xs, ys = [], []
    for seg in S.segments:
        if seg[0] == "D":
            X, y = source.batch(seg[1], seg[2])
            xs += list(np.asarray(X).tolist())
            ys += list(np.asarray(y).tolist())
        else:
            xs.append(seg[1])
            ys.append(seg[2])
    return xs, ys


def _threshold_stream(npts=15, t=6, length=10**6, seed=0):
    H = Thresholds(npts)
    return H, RealizableStream(H.hypothesis(t), UniformIntegers(0, npts), length, seed=seed, block_size=4096)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_observation11_each_tournament_example_forces_a_mistake(k):
    H, src = _threshold_stream()
    V = H.version_space()
    rng = np.random.default_rng(k)
    for trial in range(5):
        cur = Cursor(src, trial * 200_000, (trial + 1) * 200_000)
        S = sample_tournament(H, cur, k, 6, rng)
        assert len(S.tournament_examples) == k and S.length == k * (6 + 1)  # |S| = k(n+1)
        xs, ys = _sample_examples(src, S)
        h, preds = replay_soa(V, xs, ys)
        t_pos = np.cumsum([1 if s[0] == "T" else s[2] - s[1] for s in S.segments]) - 1
        for seg, pos in zip(S.segments, t_pos):
            if seg[0] == "T":
                assert preds[pos] != seg[2], "a tournament example must force an SOA mistake (Observation 11.1)"
        assert sum(int(p != y) for p, y in zip(preds, ys)) >= k
        # the incremental state equals the reference replay and extended_soa
        assert S.state.hypothesis() == h == canonical(extended_soa(V, np.array(xs, dtype=np.int64), np.array(ys)))
        # Observation 11.2: SOA(S∘T) is consistent with T
        X_T, y_T = src.batch(cur.position, cur.position + 6)
        f = S.state.extend(X_T, y_T).hypothesis()
        assert np.array_equal(f.predict(X_T), y_T)


def test_examples_are_read_in_order_and_never_reused():
    # points = positions (all distinct) so the sample's D-examples identify batch positions
    n_pts = 1 << 40
    H = Thresholds(n_pts)

    class Positions:
        def __len__(self):
            return 10**7

        def batch(self, a, b):
            X = np.arange(a, b, dtype=np.int64) * 7919 % n_pts
            return X, (X >= n_pts // 2).astype(np.int8)

    src = Positions()
    rng = np.random.default_rng(0)
    for k in (1, 2, 3):
        cur = Cursor(src, 1000, 10**6)
        S = sample_tournament(H, cur, k, 5, rng)
        spans = [(s[1], s[2]) for s in S.segments if s[0] == "D"]
        flat = [p for a, b in spans for p in range(a, b)]
        assert flat == sorted(flat) and len(set(flat)) == len(flat)  # in order, no re-use
        assert all(1000 <= a < b <= cur.position for a, b in spans)  # only drawn examples


def test_cap_produces_fail_and_bounds_reads():
    H, src = _threshold_stream()
    rng = np.random.default_rng(1)
    cur = Cursor(src, 0, 10**6, cap=9)  # one round of D̃_1 needs 2n = 10 > 9 examples
    with pytest.raises(SampleCapExceeded):
        sample_tournament(H, cur, 1, 5, rng)
    assert cur.used <= 9
    # a distribution on which D_1 is undefined (every SOA(T) is the same): D̃_1 reaches the cap and fails
    H2 = Thresholds(3)
    one_point = RealizableStream(H2.hypothesis(2), UniformIntegers(0, 1), 10**6, seed=0)
    cur = Cursor(one_point, 0, 10**6, cap=5000)
    with pytest.raises(SampleCapExceeded):
        sample_tournament(H2, cur, 1, 10, rng)
    assert 5000 - 20 < cur.used <= 5000
    # the exact (uncapped) process D_1 refuses to loop forever
    with pytest.raises(LittlestoneError, match="undefined"):
        sample_tournament(H2, Cursor(one_point, 0, 10**6), 1, 10, rng, max_rounds=50)


def test_level1_fast_path_equals_plain_process():
    """The chunked D̃_1 evaluation draws exactly the examples and tournament example of the plain loop."""
    from littlestone.pac import tournament as tm

    H, src = _threshold_stream(npts=7, t=3)
    for seed in range(20):
        a = sample_tournament(H, Cursor(src, 0, 10**6, cap=4000), 2, 4, np.random.default_rng(seed))
        saved = tm._draw_level1
        try:
            tm._draw_level1 = lambda hc, V, cur, n, rng, mr: _plain_level1(hc, V, cur, n, rng)
            b = sample_tournament(H, Cursor(src, 0, 10**6, cap=4000), 2, 4, np.random.default_rng(seed))
        finally:
            tm._draw_level1 = saved
        assert a.segments == b.segments and a.state.hypothesis() == b.state.hypothesis()


def _plain_level1(hclass, V, cursor, n, rng):
    from littlestone.pac.tournament import _contest, empty_sample

    while True:
        a0 = cursor.position
        X0, y0 = cursor.take(n)
        X1, y1 = cursor.take(n)
        S0 = empty_sample(V).then(X0, y0, a0, a0 + n)
        S1 = empty_sample(V).then(X1, y1, a0 + n, a0 + 2 * n)
        f0, f1 = S0.state.hypothesis(), S1.state.hypothesis()
        if f0 != f1:
            out = _contest(hclass, S0, S1, f0, f1, rng)
            if out is not None:
                return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 1)), min_size=1, max_size=25), st.integers(1, 24))
def test_definition8_state_matches_replay_on_any_sequence(examples, cut):
    """Incremental SOA state (split anywhere) = one-by-one Def 8 replay = extended_soa, realizable or not."""
    rng = np.random.default_rng(len(examples))
    M = rng.integers(0, 2, size=(9, 6)).astype(np.uint8)
    for H in (Thresholds(6), FiniteClass(M)):
        V = H.version_space()
        X = np.array([x for x, _ in examples], dtype=np.int64)
        y = np.array([v for _, v in examples], dtype=np.int8)
        cut = min(cut, len(y))
        state = SOAState(V).extend(X[:cut], y[:cut]).extend(X[cut:], y[cut:])
        ref, _ = replay_soa(V, X.tolist(), y.tolist())
        assert state.hypothesis() == ref == canonical(extended_soa(V, X, y))
        assert all(state.hypothesis()(int(x)) == int(v) for x, v in zip(X[-1:], y[-1:]))


def test_fail_is_a_distinct_picklable_singleton():
    assert pickle.loads(pickle.dumps(FAIL)) is FAIL
    assert FAIL != Thresholds(3).hypothesis(1) and hash(FAIL) == hash(pickle.loads(pickle.dumps(FAIL)))
    assert sorted([Thresholds(3).hypothesis(2), FAIL, Thresholds(3).hypothesis(0)])[-1] is FAIL


def test_array_source_and_cursor_errors():
    with pytest.raises(LittlestoneError, match="3 points but y has 2"):
        ArraySource(np.arange(3), np.zeros(2))
    cur = Cursor(ArraySource(np.arange(10), np.zeros(10)), 0, 10)
    cur.take(8)
    with pytest.raises(SampleCapExceeded):
        cur.take(3)
    with pytest.raises(LittlestoneError, match="n must be ≥ 1"):
        sample_tournament(
            Thresholds(3), Cursor(ArraySource(np.arange(3), np.zeros(3)), 0, 3), 1, 0, np.random.default_rng(0)
        )


def test_stream_is_deterministic_and_block_independent():
    H = Thresholds(100)
    a = RealizableStream(H.hypothesis(40), UniformIntegers(0, 100), 50_000, seed=5, block_size=1000)
    b = RealizableStream(H.hypothesis(40), UniformIntegers(0, 100), 50_000, seed=5, block_size=1000)
    X1, y1 = a.batch(1234, 5678)
    parts = [b.batch(s, min(s + 333, 5678)) for s in range(1234, 5678, 333)]
    assert np.array_equal(X1, np.concatenate([p[0] for p in parts]))
    assert np.array_equal(y1, (X1 >= 40).astype(np.int8))
    assert len(pickle.loads(pickle.dumps(a))) == 50_000


def test_canonical_form_identifies_equal_functions():
    from littlestone.classes.base import patch

    T = Thresholds(10)
    assert canonical(patch(T.hypothesis(4), [(3, 1)])) == T.hypothesis(3)
    assert canonical(patch(T.hypothesis(4), [(4, 0), (5, 0)])) == T.hypothesis(6)
    odd = canonical(patch(T.hypothesis(4), [(2, 1)]))
    assert odd != T.hypothesis(2) and odd(2) == 1 and odd(3) == 0
    F = FiniteClass(np.array([[0, 1, 1], [1, 1, 1]], dtype=np.uint8))
    assert canonical(patch(F.hypothesis(0), [(0, 1)])) == F.hypothesis(1)
    for h in (T.hypothesis(4), odd):
        X = np.arange(10)
        assert np.array_equal(canonical(h).predict(X), h.predict(X))


def test_exact_Dk_process_counts_draws():
    from littlestone.pac.tournament import sample_exact_Dk

    H, src = _threshold_stream(npts=15, t=9, length=10**6)
    S, used = sample_exact_Dk(H, src, 3, 2, np.random.default_rng(0))
    assert len(S.tournament_examples) == 3 and used >= 3 * 2 * 2 and S.length == 3 * 3
    short = ArraySource(np.zeros(5, dtype=np.int64), np.zeros(5))
    with pytest.raises(LittlestoneError, match="ran out after"):
        sample_exact_Dk(H, short, 2, 2, np.random.default_rng(0))
