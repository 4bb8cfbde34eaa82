"""StumpScores: the stumps' cells are the exponential mechanism over every stump (exact laws vs brute force)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from typer.testing import CliRunner

from littlestone.classes.stumps import NegThreshold, Stumps
from littlestone.classes.thresholds import Threshold
from littlestone.cli import app
from littlestone.private_online import EpochEM, SegmentedEM
from littlestone.private_online.segment_scores import StumpScores, scores_for
from littlestone.privacy.cell_exponential import CellExponentialMechanism

STRETCHES = [
    (np.array([], dtype=np.int64), np.array([], dtype=np.int8)),
    (np.array([3, 3, 5, 0, 6, 3]), np.array([1, 0, 1, 0, 1, 1])),
    (np.array([1, 2, 4, 6]), np.array([1, 1, 0, 0])),
]


def _stumps(n: int) -> list:
    return [Threshold(t) for t in range(n + 1)] + [NegThreshold(s) for s in range(1, n)]


@pytest.mark.parametrize("eps", [0.5, 2.0])
@pytest.mark.parametrize("k", range(len(STRETCHES)))
def test_the_cells_have_exactly_the_law_of_the_exponential_mechanism_over_all_stumps(k, eps):
    n = 7
    x, y = STRETCHES[k]
    hs = _stumps(n)
    mist = np.array([sum(int(h(int(a)) != int(b)) for a, b in zip(x, y)) for h in hs], dtype=float)
    w = np.exp(-eps * (mist - mist.min()) / 2)
    brute = {h: v for h, v in zip(hs, w / w.sum())}
    sc = scores_for(Stumps(n))
    assert isinstance(sc, StumpScores) and sc.range_size() == 2 * n
    sizes, cm, decode = sc.cells(x, y)
    assert sum(sizes) == 2 * n
    p = CellExponentialMechanism(eps, 1.0).probabilities(sizes, -cm)
    rng = np.random.default_rng(0)
    members: dict = {}
    for c in range(len(sizes)):
        for _ in range(200):
            h = decode(c, rng)
            members.setdefault(c, set()).add(h)
            assert sum(int(h(int(a)) != int(b)) for a, b in zip(x, y)) == cm[c]
        assert len(members[c]) == sizes[c]  # uniform over exactly |C| stumps (200 draws, |C| ≤ 8)
    for c, hset in members.items():
        for h in hset:
            assert math.isclose(p[c] / sizes[c], brute[h], rel_tol=1e-9)
    assert set().union(*members.values()) == set(hs)


def test_version_spaces_of_stumps_keep_their_sides():
    H = Stumps(2**60)
    V = H.version_space().restrict(2**59, 1)
    sc = scores_for(V)
    assert sc.range_size() == V.size()
    sizes, _, _ = sc.cells(np.array([7, 2**59 + 3]), np.array([1, 0]))
    assert sum(sizes) == V.size()


@pytest.mark.parametrize("cls", [SegmentedEM, EpochEM])
@pytest.mark.parametrize("n", [2**16, 2**60])
def test_the_learners_run_on_stumps_over_large_domains(cls, n):
    rng = np.random.default_rng(0)
    T = 4000
    X = rng.integers(0, n, T, dtype=np.int64)
    clean = (X < n // 3).astype(np.int8)  # a negated threshold
    y = clean ^ (rng.random(T) < 0.1).astype(np.int8)
    L = cls(Stumps(n), T=T, epsilon=1.0, backend="seeded", seed=1)
    M = L.run(X, y).mistakes
    best = int(np.count_nonzero(clean != y))
    assert M < best + 0.2 * T, (M, best)
    assert isinstance(L.hypothesis(), (Threshold, NegThreshold))


def test_cli_plays_stumps_with_segment_em():
    r = CliRunner().invoke(app, ["play", "-c", "stumps:1000000", "-l", "segment-em", "-T", "2000"])
    assert r.exit_code == 0 and "segment-em" in r.output, r.output
