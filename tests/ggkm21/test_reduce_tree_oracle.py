"""ReduceTree (GGKM21 Algorithm 1) against the reference run of :mod:`littlestone.testing.oracle`, which shares no code
with the library: the same break round, the same d̂_t, the same leaves S(v) and the same output set Ĥ on random
classes, samples and schedules, and on hand-derived cases where each bookkeeping choice of the algorithm — the break
order k_t, the break test on the lower level α_{t+1}, the output level c_t̂, the K-irreducibility filter on the
outputs — changes the answer (so a slip in any one of them fails here)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from littlestone.classes import FiniteClass
from littlestone.pac.reduce_tree import ReduceTreeSchedule, reduce_tree
from littlestone.testing import oracle

N_RANDOM = 300


def _instance(seed: int):
    """A random class (5–14 functions on 4–6 points), a sample of 6–15 points labelled by a member (flipped at rate
    0, 0.1 or 0.25) and a schedule: the theory one, slowly growing orders K + t − 1 (invalid for the guarantees, but
    a legal input of the algorithm), or orders 2^{t−1}K − 1 just below the theory ones."""
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(4, 7)), int(rng.integers(5, 15))
    M = rng.integers(0, 2, size=(m, n))
    H = oracle.rows(M)
    d = oracle.brute_ldim(H)
    X = rng.integers(0, n, size=int(rng.integers(6, 16)))
    y = M[rng.integers(m)][X].copy()
    y[rng.random(X.size) < rng.choice([0.0, 0.1, 0.25])] ^= 1
    A = float(rng.choice([0.2, 0.3, 0.4, 0.5]))
    K = int(rng.integers(1, 4))
    orders = [
        [K << t for t in range(d + 1)],
        [K + t for t in range(d + 1)],
        [max(1, (K << t) - 1) for t in range(d + 1)],
    ][int(rng.integers(3))]
    sch = dataclasses.replace(ReduceTreeSchedule.theory(d, A, K), orders=tuple(orders))  # unchecked: any legal input
    return M, H, X, y, sch


def _reference(H, X, y, sch, **change):
    args = dict(alphas=sch.alphas, outputs=sch.outputs, orders=sch.orders, K=sch.K)
    args.update(change)
    return oracle.reduce_tree_reference(H, X, y, **args)


def _library(M, X, y, sch):
    res = reduce_tree(FiniteClass(M), sch, X, y)
    n = np.asarray(M).shape[1]
    hyps = tuple(sorted(tuple(int(v) for v in h.predict(np.arange(n))) for h in res.hypotheses))
    leaves = sorted(tuple((int(x), int(b)) for x, b in path) for path, _ in res.tree.leaves())
    return hyps, res.t_hat, tuple(res.d_hats), leaves


def _same(M, X, y, sch, ref):
    hyps, t_hat, d_hats, leaves = _library(M, X, y, sch)
    assert t_hat == ref.t_hat
    assert d_hats == ref.d_hats
    assert leaves == sorted(ref.leaves)
    assert hyps == ref.hypotheses


def test_reduce_tree_equals_the_reference_on_random_classes():
    for seed in range(N_RANDOM):
        M, H, X, y, sch = _instance(seed)
        _same(M, X, y, sch, _reference(H, X, y, sch))


@pytest.mark.parametrize(
    "choice, change",
    [
        ("break order k_t − 1", lambda s: dict(orders=[k - 1 for k in s.orders])),
        ("output level α_t̂ instead of c_t̂", lambda s: dict(outputs=s.alphas[:-1])),
        ("no K-irreducibility filter on the outputs", lambda s: dict(K=0)),
    ],
)
def test_the_random_suite_separates_each_choice(choice, change):
    """The comparison above has power: the reference run with the choice changed differs from the faithful one on
    several of the random instances, so the library making that change cannot match the reference on all of them."""
    differ = 0
    for seed in range(N_RANDOM):
        _, H, X, y, sch = _instance(seed)
        differ += _reference(H, X, y, sch, **change(sch)) != _reference(H, X, y, sch)
    assert differ >= 2, choice


E = {j: tuple(int(i == j) for i in range(4)) for j in range(4)}  # the point functions e_0..e_3 on 4 points


def test_break_on_the_lower_level_and_order_k_t_by_hand():
    """H = {e_0..e_3}, sample (0,0), (1,0); A = 1/2, d = 1, η = 1/16: α = (1/2, 1/4, 0), c = (3/8, 1/8), K = 1,
    k = (1, 2). Round 1: the α_1 class is all of H (irr 2), but the α_2 class {e_2, e_3} is not 1-irreducible (point 2
    splits it into two singletons), so no break; the root gets the order-1 array at point 2. Round 2: d̂_2 = 0 and
    the singletons {e_3}, {e_2} at α_3 = 0 break: t̂ = 2, Ĥ = {e_2, e_3}. Testing the α_1 class, or order k_1 − 1 = 0,
    would break at t̂ = 1 and output nothing (the c_1 class {e_2, e_3} is not 1-irreducible)."""
    H = frozenset(E.values())
    M = np.array(sorted(H))
    X, y = np.array([0, 1]), np.array([0, 0])
    sch = ReduceTreeSchedule.theory(1, 0.5, 1)
    assert sch.alphas == (0.5, 0.25, 0.0) and sch.outputs == (0.375, 0.125) and sch.orders == (1, 2)
    ref = _reference(H, X, y, sch)
    assert (ref.t_hat, ref.d_hats, ref.hypotheses) == (2, (1, 0), (E[3], E[2]))
    assert sorted(ref.leaves) == [((2, 0),), ((2, 1),)]
    assert _reference(H, X, y, sch, orders=[0, 1]).t_hat == 1
    _same(M, X, y, sch, ref)


def test_output_level_c_t_by_hand():
    """H = {e_0, e_2, e_3}, sample (0,0), (1,0), (1,0), (1,0): errors e_0 1/4, e_2 = e_3 0. A = 1/2, d = 1, K = 2,
    k = (2, 4): α = (1/2, 1/4, 0), c = (3/8, 1/8). Round 1: the α_2 class is H itself, irr 1 < 2: no break; the order-2
    array at points (0, 2) with rows (1), (0,0), (0,1) makes leaves {e_0}, {e_3}, {e_2} at α_2. Round 2: d̂_2 = 0,
    {e_3} survives at α_3 = 0: t̂ = 2. At c_2 = 1/8 only e_2, e_3 qualify: Ĥ = {e_2, e_3}; the α_2 level would add
    e_0, and order k_1 − 1 = 1 would break at t̂ = 1 with the c_1 class H, which is not 2-irreducible: Ĥ = ∅."""
    H = frozenset({E[0], E[2], E[3]})
    M = np.array(sorted(H))
    X, y = np.array([0, 1, 1, 1]), np.array([0, 0, 0, 0])
    sch = ReduceTreeSchedule.theory(1, 0.5, 2)
    ref = _reference(H, X, y, sch)
    assert (ref.t_hat, ref.d_hats, ref.hypotheses) == (2, (1, 0), (E[3], E[2]))
    assert sorted(ref.leaves) == [((0, 0), (2, 0)), ((0, 0), (2, 1)), ((0, 1),)]
    assert _reference(H, X, y, sch, outputs=sch.alphas[:-1]).hypotheses == (E[3], E[2], E[0])
    assert _reference(H, X, y, sch, orders=[1, 3]).t_hat == 1
    assert _reference(H, X, y, sch, orders=[1, 3]).hypotheses == ()
    _same(M, X, y, sch, ref)


def test_k_irreducibility_filter_on_the_outputs_by_hand():
    """H = {00001, 00010, 00011, 00110, 01000, 01010} on points 0..4 (point 0 constant), sample (0, 0): every error 0,
    so every level is H. A = 0.3, K = 1, k = (1, 2, 4); Ldim H = 2 (point 3 splits it into two classes of Ldim 1;
    |H| < 8). Round 1: point 3 splits H into children of Ldim 1 < 2, so irr H = 0 < k_1, and the order-1 array at
    point 3 (the first such point) gives leaves H|(3,0) = {00001, 01000} and H|(3,1) = {00010, 00011, 00110, 01010} (a point class
    with zero on points 1, 2, 4: irr 2). Round 2: d̂_2 = 1 and the second leaf is 2-irreducible: t̂ = 2. The first
    leaf {00001, 01000} is not 1-irreducible (point 1 splits it into singletons), so Ĥ = {SOA of the second} =
    {00010}; without the filter its tie-broken SOA 00000 would join."""
    H = frozenset(
        {(0, 0, 0, 0, 1), (0, 0, 0, 1, 0), (0, 0, 0, 1, 1), (0, 0, 1, 1, 0), (0, 1, 0, 0, 0), (0, 1, 0, 1, 0)}
    )
    M = np.array(sorted(H))
    X, y = np.array([0]), np.array([0])
    sch = ReduceTreeSchedule.theory(2, 0.3, 1)
    ref = _reference(H, X, y, sch)
    assert (ref.t_hat, ref.d_hats, ref.hypotheses) == (2, (2, 1), ((0, 0, 0, 1, 0),))
    assert sorted(ref.leaves) == [((3, 0),), ((3, 1),)]
    assert _reference(H, X, y, sch, K=0).hypotheses == ((0, 0, 0, 0, 0), (0, 0, 0, 1, 0))
    _same(M, X, y, sch, ref)
