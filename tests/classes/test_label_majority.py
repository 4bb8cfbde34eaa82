"""H^label and H_{m,1/2} ⊕ H as classes of the core abstraction (LWY25 §2.3, App. E.2, Claim E.7)."""

from __future__ import annotations

import pytest

from littlestone.classes import (
    LabelClass,
    Thresholds,
    claim_e7_bounds,
    majority_class,
    majority_xor_class,
    random_class,
    to_finite,
)
from littlestone.classes.majority import dudley_vc_bound
from littlestone.dimensions import dual_ldim, ldim, vc_dim
from littlestone.errors import DomainError, LittlestoneError


@pytest.mark.parametrize("H", [Thresholds(6), random_class(6, 5, seed=1), random_class(8, 4, seed=2)])
def test_label_class_dimensions_and_soa_match_explicit_twin(H):
    L = LabelClass(H)
    F = to_finite(L)
    assert ldim(L) == ldim(F) == ldim(H)
    assert vc_dim(F) == vc_dim(H)
    soa = L.version_space().soa()
    V = F.version_space()
    assert all(soa(p) == V.soa_predict(p) for p in L.domain_points())
    # restriction: h^label((x, y)) = z  ⟺  h(x) = y ⊕ z
    x = H.domain_points()[1]
    assert L.version_space().restrict((x, 1), 1).size() == H.version_space().restrict(x, 0).size()


def test_label_class_rejects_bad_points():
    L = LabelClass(Thresholds(4))
    with pytest.raises(DomainError):
        L.validate_point((9, 0))
    with pytest.raises(DomainError):
        L.validate_point((1, 2))
    with pytest.raises(DomainError):
        L.validate_points([3])


def test_majority_classes_small_cases():
    H = random_class(4, 4, seed=3)
    assert to_finite(majority_class(H, 1)).n_hypotheses == to_finite(H).n_hypotheses
    for m in (1, 2, 3):
        C = majority_xor_class(H, m)
        d = ldim(C)
        assert d <= C.n_points and vc_dim(C) <= dudley_vc_bound(vc_dim(H), m + 1)
        assert dual_ldim(C) >= 0
        b = claim_e7_bounds(ldim(H), dual_ldim(H), vc_dim(H), m)
        assert b["VC bound (Dudley, explicit)"] >= vc_dim(C)
    with pytest.raises(LittlestoneError):
        majority_xor_class(H, 0)


def test_majority_of_three_can_leave_the_class():
    # majorities of non-nested sets need not be in H: the class grows, which Claim E.7 pays for
    H = random_class(6, 5, seed=4)
    assert majority_class(H, 3).n_hypotheses > to_finite(H).n_hypotheses
