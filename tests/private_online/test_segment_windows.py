"""The public windows of SegmentedEM on stumps and intervals: the restricted cells are the exponential mechanism over
exactly the hypotheses inside the window (brute force on small domains), ``range_size`` counts them, and the window
is replayed from the public state alone (released hypotheses), never from the segment's counts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from littlestone import Intervals
from littlestone.classes.intervals import EMPTY, IntervalUnion
from littlestone.classes.stumps import NegThreshold, Stumps
from littlestone.classes.thresholds import Threshold
from littlestone.private_online import SegmentedEM
from littlestone.private_online.segmented_em import selection_tau
from littlestone.private_online.segment_scores import (
    IntervalScores,
    StumpScores,
    draw_pair_below,
    pairs_below,
    scores_for,
)
from littlestone.privacy.cell_exponential import CellExponentialMechanism

STRETCHES = [
    (np.array([], dtype=np.int64), np.array([], dtype=np.int8)),
    (np.array([3, 3, 5, 0, 6, 3, 9]), np.array([1, 0, 1, 0, 1, 1, 0])),
    (np.array([1, 2, 4, 8]), np.array([1, 1, 0, 0])),
    (np.array([0, 9, 9, 5]), np.array([0, 1, 1, 1])),
]
N = 10
IV_WINDOWS = [(0, 9, 0, 9), (2, 5, 4, 8), (3, 3, 3, 3), (4, 7, 1, 5), (0, 2, 7, 9), (5, 8, 2, 6)]


def _intervals(n: int) -> list:
    return [EMPTY] + [IntervalUnion(((a, b),)) for a in range(n) for b in range(a, n)]


def _in_iv_window(h, w) -> bool:
    if not h.intervals:
        return False  # the empty interval is in the whole class only
    (a, b), (A0, A1, B0, B1) = h.intervals[0], w
    return A0 <= a <= A1 and B0 <= b <= B1


def _stumps(n: int) -> list:
    return [Threshold(t) for t in range(n + 1)] + [NegThreshold(s) for s in range(1, n)]


def _in_stump_window(h, w) -> bool:
    lo, hi, side = w
    pos = isinstance(h, Threshold)
    return lo <= StumpScores.cut(h) <= hi and (side is None or side == int(pos))


def _law(hs, x, y, eps: float) -> dict:
    mist = np.array([sum(int(h(int(a)) != int(b)) for a, b in zip(x, y)) for h in hs], dtype=float)
    w = np.exp(-eps * (mist - mist.min()) / 2)
    return {h.key() + (type(h).__name__,): v for h, v in zip(hs, w / w.sum())}


def _key(h):
    return h.key() + (type(h).__name__,)


def _exact_law_of_draws(sc, x, y, window, eps, stages: bool) -> dict:
    """The law of the released hypothesis, enumerated exactly: P(cell) from the mechanism, then the decoder's
    uniform draw inside the cell (and, for the two-stage draw, the second stage's exact law)."""
    mech = CellExponentialMechanism(eps, 1.0)
    rows: list = []

    class Exact:
        scale = mech.scale

        def __call__(self, data, *, backend):
            rows.append(mech.probabilities(*data))
            return Exact.pick

    if stages:
        sc.bind(Exact(), None)
    sizes, mist, decode = sc.cells(x, y, window)
    assert sum(sizes) == sc.range_size(window) or stages
    pc = mech.probabilities(sizes, -np.asarray(mist))
    law: dict = {}
    rng = np.random.default_rng(0)
    for c, size in enumerate(sizes):
        rows.clear()
        Exact.pick = 0
        decode(c, rng)
        if rows:  # a start cell of the two-stage draw: every end j with its exact probability
            second = rows[0]
            for jj, q in enumerate(second):
                Exact.pick = jj
                seen = {}
                for _ in range(400):
                    h = decode(c, rng)
                    seen[_key(h)] = h
                # uniform inside the (start, end) cell: each distinct hypothesis gets an equal share
                for k in seen:
                    law[k] = law.get(k, 0.0) + pc[c] * q / len(seen)
            continue
        seen = {}
        for _ in range(3000 if size > 1 else 1):
            h = decode(c, rng)
            seen[_key(h)] = h
        assert len(seen) == size, (c, size, len(seen))  # the decoder reaches every hypothesis of the cell
        for k in seen:
            law[k] = law.get(k, 0.0) + pc[c] / size
    return law


@pytest.mark.parametrize("window", IV_WINDOWS)
@pytest.mark.parametrize("k", range(len(STRETCHES)))
def test_interval_window_cells_are_the_exponential_mechanism_over_the_window(k, window):
    x, y = STRETCHES[k]
    inside = [h for h in _intervals(N) if _in_iv_window(h, window)]
    sc = IntervalScores(N)
    assert sc.range_size(window) == len(inside)  # τ_j reads this count
    brute = _law(inside, x, y, 1.3)
    law = _exact_law_of_draws(sc, x, y, window, 1.3, stages=False)
    assert set(law) == set(brute)
    for key, v in brute.items():
        assert math.isclose(law[key], v, rel_tol=1e-9), (key, law[key], v)


@pytest.mark.parametrize("window", IV_WINDOWS[1:4])
@pytest.mark.parametrize("k", [1, 2])
def test_interval_window_two_stage_draw_has_the_same_law(k, window):
    x, y = STRETCHES[k]
    inside = [h for h in _intervals(N) if _in_iv_window(h, window)]
    brute = _law(inside, x, y, 0.9)
    law = _exact_law_of_draws(IntervalScores(N), x, y, window, 0.9, stages=True)
    assert set(law) == set(brute)
    for key, v in brute.items():
        assert math.isclose(law[key], v, rel_tol=1e-9), (key, law[key], v)


STUMP_WINDOWS = [(2, 6, 1), (2, 6, 0), (-3, 4, None), (0, 10, 1), (7, 14, 0)]


@pytest.mark.parametrize("window", STUMP_WINDOWS)
@pytest.mark.parametrize("k", range(len(STRETCHES)))
def test_stump_window_cells_are_the_exponential_mechanism_over_the_window(k, window):
    x, y = STRETCHES[k]
    sc = scores_for(Stumps(N))
    inside = [h for h in _stumps(N) if _in_stump_window(h, window)]
    assert sc.range_size(window) == len(inside)
    brute = _law(inside, x, y, 1.1)
    law = _exact_law_of_draws(sc, x, y, window, 1.1, stages=False)
    assert set(law) == set(brute)
    for key, v in brute.items():
        assert math.isclose(law[key], v, rel_tol=1e-9)


def test_pairs_below_counts_and_draws_uniformly():
    rng = np.random.default_rng(1)
    for a0, a1, b0, b1 in [(0, 5, 0, 5), (2, 9, 0, 4), (0, 3, 5, 8), (4, 8, 2, 6), (6, 9, 0, 3), (3, 3, 3, 3)]:
        pairs = [(a, b) for a in range(a0, a1 + 1) for b in range(b0, b1 + 1) if a <= b]
        assert pairs_below(a0, a1, b0, b1) == len(pairs)
        if pairs:
            seen = {draw_pair_below(rng, a0, a1, b0, b1) for _ in range(40 * len(pairs))}
            assert seen == set(pairs)
    assert pairs_below(0, 2**62, 0, 2**62) == (2**62 + 1) * (2**62 + 2) // 2  # exact big integers


def _adversarial_run(H, T, seed, target, widths_seen):
    """A disagreement adversary; returns the learner and the public states at every segment end."""
    L = SegmentedEM(H, T=T, epsilon=1.0, backend="seeded", seed=seed)
    cells, used = L.scores.cells, []

    def recorded(x, y, window=None):  # the window each selection reads, at the moment it reads it
        used.append(window)
        return cells(x, y, window)

    L.scores.cells = recorded
    rng = np.random.default_rng(seed + 7)
    states = [dict(L._public_state())]
    for _ in range(T):
        h = L.hypothesis()
        xs = rng.integers(0, H.n, 64)
        dis = [int(v) for v in xs if h(int(v)) != target(int(v))]
        x = dis[0] if dis else int(xs[0])
        y = target(x) ^ int(rng.random() < 0.1)
        seg = L.segments
        L.learn_one(x, y)
        if L.segments != seg:
            states.append(dict(L._public_state(), used=used[-1]))
    widths_seen.extend(s["window"] for s in states)
    return L, states


@pytest.mark.parametrize("which", ["stumps", "intervals"])
def test_the_window_is_replayed_from_the_released_hypotheses_alone(which):
    n = 2**12
    if which == "stumps":
        H, target = Stumps(n), (lambda v: int(v < 1500))
    else:
        H, target = Intervals(n), (lambda v: int(700 <= v <= 2900))
    widths: list = []
    L, states = _adversarial_run(H, 3000, 3, target, widths)
    sc = scores_for(H)
    assert L.window and any(w is not None for w in widths)  # the adversary's ⊤s engage it
    width = None
    for before, after in zip(states, states[1:]):  # the public rule, from released hypotheses only
        window = sc.window_for(before["hypothesis"], width)
        assert after["used"] == window  # the selection that released after["hypothesis"] read this window
        active = L.stay_active(before["t"] - before["segment_rounds"])  # public: quiet segments run no stay test
        if window is not None and active:  # τ_j read range_size(window): public too
            assert before["tau_j"] == max(L.tau, selection_tau(L.epsilon_select, sc.range_size(window)))
        top = after["tops"] > before["tops"]  # released: the segment ended by ⊤ (its end is released)
        if top or width is not None:  # the window engages at the first ⊤ (a released output)
            width = sc.next_width(width, before["hypothesis"], after["hypothesis"], top)
        assert width == after["window"]


@pytest.mark.parametrize("which", ["stumps", "intervals"])
def test_the_window_beats_the_disagreement_adversary(which):
    # without the window the selection draws from the plateau beyond the adversary's examples: ≈ 80 % of T
    n, T = 2**16, 8000
    if which == "stumps":
        H, target = Stumps(n), (lambda v: int(v < 40000))
    else:
        H, target = Intervals(n), (lambda v: int(20000 <= v <= 45000))
    L = SegmentedEM(H, T=T, epsilon=1.0, backend="seeded", seed=0)
    rng = np.random.default_rng(5)
    M = 0
    for _ in range(T):
        h = L.hypothesis()
        xs = rng.integers(0, n, 64)
        dis = [int(v) for v in xs if h(int(v)) != target(int(v))]
        x = dis[0] if dis else int(xs[0])
        y = target(x) ^ int(rng.random() < 0.1)
        M += int(h(x) != y)
        L.learn_one(x, y)
    assert M < 0.5 * T, M


def test_the_default_window_is_on_for_large_stumps_and_intervals_only():
    """By the class's size (public): small grids (real streams' 2–32 cells) select over the whole class; ``window=``
    forces either way."""
    assert not SegmentedEM(Intervals(33), T=100, epsilon=1.0).window
    assert not SegmentedEM(Stumps(33), T=100, epsilon=1.0).window
    assert SegmentedEM(Intervals(64), T=100, epsilon=1.0).window
    assert SegmentedEM(Stumps(2**10), T=100, epsilon=1.0).window
    assert SegmentedEM(Intervals(33), T=100, epsilon=1.0, window=True).window
    assert not SegmentedEM(Intervals(2**16), T=100, epsilon=1.0, window=False).window


def test_a_stationary_stream_never_engages_the_stumps_window():
    """Without a ⊤ (a stationary stream) the selection keeps seeing both directions: engaged at a public end, the
    window could lock a wrong direction whose ρ then keeps the stay test quiet (seen: 11 % of T regret on i.i.d.
    stumps over 2^16, seed 2 of the benchmark)."""
    n, T = 2**16, 100_000
    rng = np.random.default_rng([2, 33])
    X = rng.integers(0, n, T)
    Y = (X >= 9042).astype(np.int8) ^ (rng.random(T) < 0.1).astype(np.int8)
    L = SegmentedEM(Stumps(n), T=T, epsilon=1.0, backend="seeded", seed=2)
    M = L.run(X, Y).mistakes
    assert L.state()["tops"] > 0 or L.state()["window"] is None
    assert M - int(np.count_nonzero((X >= 9042).astype(np.int8) != Y)) < 0.01 * T
