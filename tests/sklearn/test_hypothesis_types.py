"""A saved model's hypothesis is checked against its class on load (issue 21 item 14): every class that declares
``hypothesis_types`` must cover what its own SOA and hypotheses are made of, or valid models would be refused."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.classes.resolve import resolve_class
from littlestone.classes.thresholds import Threshold
from littlestone.errors import LittlestoneError
from littlestone.pac._sklearn import _check_hypothesis_of_class

SPECS = ["thresholds:64", "points:64", "intervals:16", "conjunctions:4", "affine:2,3,1", "allfunctions:3"]


@pytest.mark.parametrize("spec", SPECS)
def test_soa_and_hypotheses_of_a_class_are_of_its_declared_types(spec):
    H = resolve_class(spec)
    assert H.hypothesis_types() is not None
    rng = np.random.default_rng(0)
    pts = list(H.domain_points())
    for trial in range(6):
        V = H.version_space()
        target = V.soa() if trial % 2 else next(iter(V.hypotheses()))
        for x in rng.permutation(len(pts))[:6]:
            x = pts[int(x)]
            W = V.restrict(x, int(target(x)))
            if W.is_empty():
                break
            V = W
            _check_hypothesis_of_class(V.soa(), H)
        for h, _ in zip(V.hypotheses(), range(20)):
            _check_hypothesis_of_class(h, H)


def test_a_hypothesis_of_another_class_is_refused():
    with pytest.raises(LittlestoneError, match="inconsistent"):
        _check_hypothesis_of_class(Threshold(3), resolve_class("points:64"))
