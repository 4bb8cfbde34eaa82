"""Agnostic online learning over a class through prediction from experts — non-private baselines and private OPE
over the class itself (finite H).

* :func:`experts_over_class`: the experts are the hypotheses of H, the loss of h in round t is 1[h(x_t) ≠ y_t];
  any learner of :mod:`littlestone.experts` plays them (Hedge: regret ≤ √(T ln|H| / 2); the private ones:
  their own bounds and claims). Losses are built chunk by chunk in vectors.
* :func:`bdps_soa_experts`: Ben-David–Pál–Shalev-Shwartz 2009 — one expert per set I of ≤ L rounds; it runs the SOA,
  predicts SOA_V(x_t), flips that prediction at the rounds of I and then learns its own (flipped) label. For every h
  the expert whose I is the set of rounds where the SOA fed h's labels errs predicts exactly h(x_t) in every round
  (L = Ldim(H) suffices), so Hedge over these Σ_{k≤L} C(T, k) experts has regret ≤ √(T ln N / 2) against the best h.
"""

from __future__ import annotations

import math

from typing import Any

import numpy as np

from ..classes import HypothesisClass
from ..errors import LittlestoneError
from ..experts import ExpertsRun, Hedge
from ..experts.base import ExpertsLearner
from ..sanitizers.queries import query_family


def class_losses(H: HypothesisClass, X: Any, y: np.ndarray, chunk: int = 4096):
    """(k × |H|) loss chunks 1[h(x_t) ≠ y_t]; hypotheses in the order of the class's query family."""
    fam = query_family(H)
    idx = fam.index_points(X)
    y = np.asarray(y, dtype=np.int8)
    for s in range(0, len(idx), chunk):
        yield (fam.columns(idx[s : s + chunk]) != y[s : s + chunk, None]).astype(float)


def best_in_class(H: HypothesisClass, X: Any, y: np.ndarray) -> int:
    """min_h Σ_t 1[h(x_t) ≠ y_t] (exact; vectorized over the class)."""
    total = None
    for c in class_losses(H, X, y):
        s = c.sum(axis=0)
        total = s if total is None else total + s
    return int(total.min()) if total is not None else 0


def experts_over_class(
    H: HypothesisClass, X: Any, y: Any, learner: ExpertsLearner | None = None, seed: Any = None
) -> ExpertsRun:
    """Play H's hypotheses as experts on (X, y) with ``learner`` (default: Hedge for the horizon len(y))."""
    y = np.asarray(y, dtype=np.int8)
    fam = query_family(H)
    if learner is None:
        learner = Hedge(fam.size, len(y), seed=seed)
    if learner.n_experts != fam.size:
        raise LittlestoneError(f"the learner has {learner.n_experts} experts; the class has {fam.size} hypotheses")
    return learner.run(class_losses(H, X, y))


def bdps_expert_predictions(H: HypothesisClass, X: Any, max_flips: int | None = None) -> tuple[np.ndarray, list]:
    """(N × T) 0/1 predictions of the BDPS experts and their flip sets I (|I| ≤ L = Ldim(H) by default), computed by
    a depth-first walk that shares the SOA states of common prefixes (each state's SOA evaluated on all x in one
    vector)."""
    V0 = H.version_space()
    L = V0.ldim() if max_flips is None else int(max_flips)
    pts = list(H.validate_points(X))
    T = len(pts)
    n_exp = sum(math.comb(T, k) for k in range(L + 1))
    if n_exp * T > 1 << 27:
        raise LittlestoneError(f"{n_exp} BDPS experts over {T} rounds is too many to evaluate (lower T)")
    out = np.empty((n_exp, T), dtype=np.int8)
    sets: list = []
    row = [0]

    def walk(V, start: int, prefix: np.ndarray, flips: tuple) -> None:
        soa = V.soa_predict_many(pts[start:]) if start < T else np.zeros(0, dtype=np.int8)
        full = np.concatenate([prefix, soa]).astype(np.int8)
        out[row[0]] = full
        sets.append(flips)
        row[0] += 1
        if len(flips) == L:
            return
        for t in range(start, T):
            lab = 1 - int(full[t])
            W = V.restrict(pts[t], lab)
            if W.is_empty():
                continue
            walk(W, t + 1, np.concatenate([full[:t], [lab]]), flips + (t,))

    walk(V0, 0, np.zeros(0, dtype=np.int8), ())
    return out[: row[0]], sets


def bdps_soa_experts(H: HypothesisClass, X: Any, y: Any, seed: Any = None, learner: Any = None) -> ExpertsRun:
    """Ben-David–Pál–Shalev-Shwartz agnostic learner: Hedge (or ``learner``) over the SOA experts."""
    y = np.asarray(y, dtype=np.int8)
    P, _ = bdps_expert_predictions(H, X)
    losses = (P != y[None, :]).T.astype(float)
    if learner is None:
        learner = Hedge(P.shape[0], len(y), seed=seed)
    return learner.run(losses)
