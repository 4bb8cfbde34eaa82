"""Stumps: exact Ldim/SOA of every version space vs explicit twins (every n ≤ 16), 2^60-point domains."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone.classes import FiniteClass
from littlestone.classes.spec import parse_class_spec
from littlestone.classes.stumps import NegThreshold, Stumps
from littlestone.classes.thresholds import Threshold
from littlestone.errors import DomainError, LittlestoneError
from littlestone.testing import check_hypothesis_class


def stumps_matrix(n: int) -> np.ndarray:
    """1[x ≥ t] (t = 0…n) then 1[x < s] (s = 1…n−1) on 0…n−1."""
    x = np.arange(n)
    rows = [(x >= t) for t in range(n + 1)] + [(x < s) for s in range(1, n)]
    return np.array(rows, dtype=np.uint8)


def _all_version_spaces(H, T, n):
    """Every version space reachable by ≤ 2 restrictions, paired with the twin's."""
    V0, W0 = H.version_space(), T.version_space()
    out = [(V0, W0)]
    for x in range(n):
        for y in (0, 1):
            V1, W1 = V0.restrict(x, y), W0.restrict(x, y)
            out.append((V1, W1))
            for x2 in range(n):
                for y2 in (0, 1):
                    out.append((V1.restrict(x2, y2), W1.restrict(x2, y2)))
    return out


@pytest.mark.parametrize("n", range(1, 17))
def test_every_small_version_space_matches_its_explicit_twin(n):
    H, T = Stumps(n), FiniteClass(stumps_matrix(n))
    assert len({tuple(r) for r in stumps_matrix(n)}) == 2 * n == H.version_space().size()  # constants counted once
    assert H.ldim() == T.ldim() == 1 + (n.bit_length() - 1)
    pts = np.arange(n)
    for V, W in _all_version_spaces(H, T, n):
        assert V.size() == W.size() and V.ldim() == W.ldim(), (V.key(), V.ldim(), W.ldim())
        soa = W.soa().as_array()
        assert np.array_equal(V.soa().predict(pts), soa), V.key()
        assert np.array_equal(V.soa_predict_many(pts), soa)
        assert [V.soa_predict(int(x)) for x in pts] == soa.tolist()
        x = V.split_point()
        if W.ldim() >= 1:
            assert min(W.restrict(int(x), 0).ldim(), W.restrict(int(x), 1).ldim()) >= W.ldim() - 1
        else:
            assert x is None


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 11, 16])
def test_the_class_protocol_with_its_twin(n):
    check_hypothesis_class(Stumps(n), FiniteClass(stumps_matrix(n)), points=list(range(n)), seed=n, walks=25, depth=5)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 16), data=st.data())
def test_random_samples_restrict_like_the_twin(n, data):
    xs = data.draw(st.lists(st.integers(0, n - 1), max_size=6))
    ys = data.draw(st.lists(st.integers(0, 1), min_size=len(xs), max_size=len(xs)))
    H, T = Stumps(n), FiniteClass(stumps_matrix(n))
    V, k = H.version_space().restrict_sample(np.array(xs, dtype=np.int64), np.array(ys))
    W, kw = T.version_space().restrict_sample(np.array(xs, dtype=np.int64), np.array(ys))
    assert k == kw and V.size() == W.size() and V.ldim() == W.ldim()


def test_huge_domain():
    n = 2**60
    H = Stumps(n)
    assert H.ldim() == 61
    V = H.version_space().restrict(2**59, 1).restrict(5, 1)  # thresholds t ≤ 5 ∪ negations s > 2^59
    assert V.size() == 6 + (n - 1 - 2**59) and V.ldim() == V.size().bit_length() - 1
    x = V.split_point()
    assert min(V.restrict(x, 0).ldim(), V.restrict(x, 1).ldim()) >= V.ldim() - 1
    h = V.soa()
    assert [h(p) for p in (0, 2**58, 2**59 + 3, n - 1)] == [int(V.soa_predict(p)) for p in (0, 2**58, 2**59 + 3, n - 1)]
    assert isinstance(H.random_hypothesis(np.random.default_rng(0)), (Threshold, NegThreshold))


def test_spec_hypotheses_and_bad_input():
    H = parse_class_spec("stumps:2^60")
    assert isinstance(H, Stumps) and H.n == 2**60 and H.spec == "stumps:1152921504606846976"
    G = Stumps(10)
    assert G.hypothesis(3, positive=False)(2) == 1 and G.hypothesis(3)(2) == 0
    assert sorted(G.base_disagreements(Threshold(3), NegThreshold(7))) == [0, 1, 2, 7, 8, 9]
    assert G.disagreement(Threshold(0), NegThreshold(10 - 1)) is not None
    with pytest.raises(LittlestoneError, match="Stumps"):
        Stumps(0)
    with pytest.raises(DomainError, match=r"outside the domain of stumps\(10\)"):
        G.validate_points([3, 12])
    with pytest.raises(LittlestoneError, match="negated"):
        G.hypothesis(0, positive=False)
