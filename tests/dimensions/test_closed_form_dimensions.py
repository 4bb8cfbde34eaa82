"""Closed-form VC, dual and threshold dimensions of structured classes: equal to the exact search on their explicit
twins on small domains, witnesses verified, and answered instantly on 2^60-point and infinite domains."""

from __future__ import annotations

import pytest

from littlestone.classes import (
    AllFunctions,
    Intervals,
    Points,
    PointsAndNegations,
    Thresholds,
    restrict_to_points,
    to_finite,
)
from littlestone.dimensions import dual_ldim, dual_vc_dim, is_vc_shattered, threshold_dim, vc_dim

SMALL = (
    [Thresholds(n) for n in (1, 2, 3, 5, 8)]
    + [Intervals(n) for n in (1, 2, 3, 6)]
    + [AllFunctions(m) for m in (1, 2, 3, 4, 5)]
    + [Points(range(n)) for n in (1, 2, 5)]
    + [Points(range(n), include_zero=False) for n in (1, 2, 5)]
    + [PointsAndNegations(range(n)) for n in (4, 5, 6)]
)


def check_threshold_witness(H, k, pts, hyps):
    assert len(pts) == len(hyps) == k and len(set(pts)) == k
    V = H.version_space()
    for i, h in enumerate(hyps):
        assert V.contains(h), h
        assert [h(x) for x in pts] == [int(j >= i) for j in range(k)]


@pytest.mark.parametrize("H", SMALL, ids=lambda H: H.name)
def test_closed_forms_equal_the_search_on_the_explicit_twin(H):
    twin = to_finite(H)
    assert H.vc_closed_form() is not None and H.threshold_closed_form() is not None
    d, witness = vc_dim(H, witness=True)
    assert d == vc_dim(twin)
    assert is_vc_shattered(twin, list(witness)) and len(witness) == d
    k, (pts, hyps) = threshold_dim(H, witness=True)
    assert k == threshold_dim(twin)
    check_threshold_witness(H, k, pts, hyps)
    if H.dual_closed_form() is not None:
        assert dual_ldim(H) == dual_ldim(twin)
        assert dual_vc_dim(H) == dual_vc_dim(twin)


def test_huge_and_infinite_domains():
    N = 2**60
    assert vc_dim(Thresholds(N), witness=True) == (1, [0])
    assert (dual_ldim(Thresholds(N)), dual_vc_dim(Thresholds(N))) == (60, 1)
    k, (pts, hyps) = threshold_dim(Thresholds(N), witness=True)
    assert k == N and hyps[5](pts[5]) == 1 and hyps[6](pts[5]) == 0
    assert vc_dim(Intervals(N)) == 2 and threshold_dim(Intervals(N)) == N
    assert vc_dim(AllFunctions(N)) == N and dual_ldim(AllFunctions(N)) == dual_vc_dim(AllFunctions(N)) == 60
    assert vc_dim(Points()) == 1 and dual_ldim(Points()) == 1 and threshold_dim(Points()) == 1
    H = PointsAndNegations()
    d, pts = vc_dim(H, witness=True)
    assert d == 3 and is_vc_shattered(restrict_to_points(H, pts + [max(pts) + 1]), pts)
    k, (xs, hs) = threshold_dim(H, witness=True)
    assert k == 3
    check_threshold_witness(H, k, xs, hs)
    assert (dual_ldim(H), dual_vc_dim(H)) == (1, 1)


def test_version_spaces_still_use_the_exact_search():
    H = Thresholds(6)
    V = H.version_space().restrict(0, 0)  # 6 thresholds left: a smaller class
    assert vc_dim(V) == 1 and threshold_dim(V) == 5


def test_lazy_witness_of_a_huge_class_is_not_built():
    k, (pts, hyps) = threshold_dim(AllFunctions(2**60), witness=True)
    assert k == 2**60 and "built when accessed" in repr(hyps) and pts[7] == 7
