"""SOA(S) for any sample S: the SOA run on S, extended to non-realizable sequences (BLM20/001 §3, Definition 8)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.base import Hypothesis, VersionSpace, as_python_point, patch


def extended_soa(V: VersionSpace, X: Any, y: Any) -> Hypothesis:
    """The SOA's predictor after the sample (X, y), started from version space V (BLM20 Def 8).

    While the prefix is realizable the usual SOA update applies (the predictor is SOA_{V|prefix}); from the first
    non-realizable example on, each example (x, y) overwrites the predictor at x only. Points must be validated
    and labels 0/1. Cost: one vectorized restriction plus the patches.
    """
    y = np.asarray(y)
    Vk, k = V.restrict_sample(X, y)
    h = Vk.soa()
    if k == len(y):
        return h
    return patch(h, ((as_python_point(X[i]), int(y[i])) for i in range(k, len(y))))
