"""IntervalScores: the intervals' cells are the exponential mechanism over every interval (exact laws vs brute force)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from littlestone import Intervals
from littlestone.classes.intervals import EMPTY, IntervalUnion
from littlestone.private_online import EpochEM, SegmentedEM
from littlestone.private_online.list_at import list_hypotheses
from littlestone.private_online.segment_scores import FiniteScores, IntervalScores, scores_for
from littlestone.privacy.backends import SeededBackend
from littlestone.privacy.cell_exponential import CellExponentialMechanism

STRETCHES = [
    (np.array([], dtype=np.int64), np.array([], dtype=np.int8)),
    (np.array([3, 3, 5, 0, 6, 3]), np.array([1, 0, 1, 0, 1, 1])),
    (np.array([1, 2, 4]), np.array([1, 1, 0])),
    (np.array([0, 6, 6]), np.array([0, 1, 1])),
]


def _all_intervals(n: int) -> list:
    return [EMPTY] + [IntervalUnion(((a, b),)) for a in range(n) for b in range(a, n)]


def _brute_law(n: int, x, y, eps: float) -> dict:
    """EM over every interval: P(h) ∝ exp(−ε·mistakes(h)/2)."""
    hs = _all_intervals(n)
    mist = np.array([sum(int(h(int(a)) != int(b)) for a, b in zip(x, y)) for h in hs], dtype=float)
    w = np.exp(-eps * (mist - mist.min()) / 2)
    return {h.key(): v for h, v in zip(hs, w / w.sum())}


def _cell_of(h, pts: list[int]) -> tuple[int, int] | None:
    """(i, j): h covers the distinct points p_i … p_{j−1}; None when it covers none."""
    if not h.intervals:
        return None
    a, b = h.intervals[0]
    i, j = sum(p < a for p in pts), sum(p <= b for p in pts)
    return (i, j) if i < j else None


@pytest.mark.parametrize("k", range(len(STRETCHES)))
def test_the_cells_hold_every_interval_once_with_its_finite_scores_vector_score(k):
    n = 7
    x, y = STRETCHES[k]
    sc = IntervalScores(n)
    sizes, mist, decode = sc.cells(x, y)
    assert sum(sizes) == n * (n + 1) // 2 + 1 == sc.range_size() == len(list_hypotheses(Intervals(n)))
    fin = FiniteScores(list_hypotheses(Intervals(n)))
    _, fmist, _ = fin.cells(x, y)
    by_key = {h.key(): v for h, v in zip(fin.hypotheses, fmist)}
    rng = np.random.default_rng(0)
    for c in range(len(sizes)):  # every draw of a cell has the cell's score
        for _ in range(20):
            h = decode(c, rng)
            assert by_key[h.key()] == mist[c]
    # the no-point cell (the last) is the empty interval and every interval covering no point of the stretch
    seen = {decode(len(sizes) - 1, rng).key() for _ in range(600)}
    pts = sorted({int(v) for v in x})
    expected = {h.key() for h in _all_intervals(n) if _cell_of(h, pts) is None}
    assert seen == expected and sizes[-1] == len(expected)


@pytest.mark.parametrize("eps", [0.7, 2.0])
@pytest.mark.parametrize("k", range(len(STRETCHES)))
def test_both_draws_have_exactly_the_law_of_the_exponential_mechanism_over_all_intervals(k, eps):
    # a miscounted cell (the empty interval's, a gap's d_k) or a wrong conditional moves a probability here
    n = 7
    x, y = STRETCHES[k]
    brute = _brute_law(n, x, y, eps)
    pts = sorted({int(v) for v in x})
    m = len(pts)
    mech = CellExponentialMechanism(eps, 1.0)
    # the O(m²) cells (unbound)
    sizes, mist, _ = IntervalScores(n).cells(x, y)
    pc = mech.probabilities(sizes, -mist)
    pairs = [(i, j) for i in range(m + 1) for j in range(i + 1, m + 1)]
    assert len(pairs) + 1 == len(sizes)
    for h in _all_intervals(n):
        c = _cell_of(h, pts)
        cell = len(pairs) if c is None else pairs.index(c)
        assert math.isclose(pc[cell] / sizes[cell], brute[h.key()], rel_tol=1e-9)

    # the two-stage draw (bound): P(i) from the first release, P(j | i) from the second, recorded exactly
    rows: dict = {}

    class Exact:
        scale = mech.scale

        def __call__(self, data, *, backend):
            rows[len(rows)] = mech.probabilities(*data)
            return 0

    sc = IntervalScores(n)
    sc.bind(Exact(), None)
    s1, m1, decode = sc.cells(x, y)
    p1 = mech.probabilities(s1, -m1)
    assert len(s1) == m + 1
    cond = {}
    for i in range(m):
        rows.clear()
        decode(i, np.random.default_rng(0))
        cond[i] = rows[0]
    d = [b - a for a, b in zip([-1] + pts, pts + [n])]
    for h in _all_intervals(n):
        c = _cell_of(h, pts)
        if c is None:
            p = p1[m] / s1[m]
        else:
            i, j = c
            p = p1[i] * cond[i][j - i - 1] / (d[i] * d[j])
        assert math.isclose(p, brute[h.key()], rel_tol=1e-9), (h, p, brute[h.key()])


def test_the_two_stage_draw_matches_its_law_in_frequency():
    n, eps = 6, 1.0
    x, y = np.array([1, 1, 3, 4, 4]), np.array([1, 1, 0, 1, 1])
    brute = _brute_law(n, x, y, eps)
    mech = CellExponentialMechanism(eps, 1.0)
    sc = IntervalScores(n)
    b1, b2 = SeededBackend(1), SeededBackend(2)
    sc.bind(mech, b2)
    rng = np.random.default_rng(3)
    counts: dict = {}
    runs = 6000
    for _ in range(runs):
        sizes, mist, decode = sc.cells(x, y)
        h = decode(mech((sizes, -mist), backend=b1), rng)
        counts[h.key()] = counts.get(h.key(), 0) + 1
    tv = 0.5 * sum(abs(counts.get(k, 0) / runs - v) for k, v in brute.items())
    assert tv < 0.04, tv


def test_huge_domains_have_exact_big_integer_sizes():
    n = 2**62
    sc = scores_for(Intervals(n))
    assert isinstance(sc, IntervalScores) and sc.range_size() == n * (n + 1) // 2 + 1
    x, y = np.array([5, 2**61, 2**61, 2**62 - 1]), np.array([1, 0, 1, 1])
    sizes, mist, decode = sc.cells(x, y)
    assert sum(sizes) == sc.range_size()  # ≈ 2¹²³: exact, no float on the way
    assert isinstance(scores_for(Intervals(4000)), IntervalScores)  # formerly refused (a vector of 8M scores)
    p = CellExponentialMechanism(1.0, 1.0).probabilities(sizes, -mist)
    assert np.isfinite(p).all() and abs(p.sum() - 1) < 1e-12


@pytest.mark.parametrize("cls", [SegmentedEM, EpochEM])
@pytest.mark.parametrize("n", [2**16, 2**60])
def test_the_learners_run_on_intervals_over_large_domains(cls, n):
    rng = np.random.default_rng(0)
    a, b = n // 4, n // 2
    T = 4000
    X = rng.integers(0, n, T, dtype=np.int64)
    y = (((X >= a) & (X <= b)).astype(np.int8)) ^ (rng.random(T) < 0.1).astype(np.int8)
    L = cls(Intervals(n), T=T, epsilon=1.0, backend="seeded", seed=1)
    M = L.run(X, y).mistakes
    assert isinstance(L.scores, IntervalScores)
    best = int(np.count_nonzero(((X >= a) & (X <= b)).astype(np.int8) != y))
    assert M < best + 0.3 * T, (M, best)  # learns (the zero function errs on ~¼ + noise)
    h = L.hypothesis()
    assert isinstance(h, IntervalUnion) and len(h.intervals) <= 1


def test_the_learner_runs_on_the_secure_backend():
    n = 2**20
    rng = np.random.default_rng(0)
    X = rng.integers(0, n, 600, dtype=np.int64)
    y = ((X >= n // 3) & (X < n // 2)).astype(np.int8)
    L = EpochEM(Intervals(n), T=600, epsilon=1.0, first=64)
    L.run(X, y)
    assert isinstance(L.hypothesis(), IntervalUnion)
