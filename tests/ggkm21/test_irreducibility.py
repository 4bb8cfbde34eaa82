"""Irreducibility (GGKM21 §4): the recursion equals the tree definition; spec vectors; closed forms vs twins;
reducing arrays (Lemma 4.5); Lemmas 4.2 and 4.3; generalized trees (Defs 4.3–4.4)."""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numpy as np
import pytest

import littlestone as ls
from littlestone.classes import FiniteClass, Points, Thresholds
from littlestone.classes.ops import to_finite
from littlestone.dimensions import GeneralizedTree, ldim
from littlestone.errors import IrreducibilityError, LittlestoneError


def _brute_k_irreducible(rows: frozenset, n: int, k: int) -> bool:
    """Def 4.1 by brute force: every depth-k tree has a path keeping Ldim (∀x ∃y recursion with a fixed target L)."""

    @lru_cache(maxsize=None)
    def L(G: frozenset) -> int:
        if not G:
            return -1
        best = 0
        for x in range(n):
            G0 = frozenset(h for h in G if h[x] == 0)
            G1 = G - G0
            if G0 and G1:
                best = max(best, 1 + min(L(G0), L(G1)))
        return best

    target = L(rows)

    @lru_cache(maxsize=None)
    def F(G: frozenset, k: int) -> bool:
        if k == 0:
            return L(G) == target
        return all(any(F(frozenset(h for h in G if h[x] == y), k - 1) for y in (0, 1)) for x in range(n))

    return F(rows, k)


def _random_classes(count: int, seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(2, 6))
        allf = np.array(list(itertools.product((0, 1), repeat=n)), dtype=np.uint8)
        m = int(rng.integers(1, min(len(allf), 12) + 1))
        M = allf[rng.choice(len(allf), size=m, replace=False)]
        yield n, M


def test_irreducibility_equals_tree_definition_on_random_classes():
    for n, M in _random_classes(400, 1):
        r = ls.irreducibility(M)
        rows = frozenset(map(tuple, M.tolist()))
        for k in range(0, 5):
            assert _brute_k_irreducible(rows, n, k) == (r >= k), (M, k, r)
            assert ls.is_irreducible(M, k) == (r >= k)


@pytest.mark.parametrize("n", range(2, 9))
def test_spec_vectors_points(n):
    eye = np.eye(n, dtype=int)
    assert ls.irreducibility(eye) == n - 2
    assert ls.irreducibility(np.vstack([eye, np.zeros((1, n), int)])) == n - 1
    assert ls.irreducibility(Points(range(n), include_zero=False)) == n - 2
    assert ls.irreducibility(Points(range(n))) == n - 1


def test_spec_table_vectors():
    assert ls.irreducibility(to_finite(Thresholds(3))) == 0
    assert ls.irreducibility(to_finite(Thresholds(7))) == 0
    assert ls.irreducibility(np.array(list(itertools.product((0, 1), repeat=3)))) == 0
    assert ls.irreducibility(np.array([[0, 1, 0]])) == math.inf  # singleton


def test_points_infinite_domain_is_irreducible_of_every_order():
    assert ls.irreducibility(Points()) == math.inf
    assert ls.is_irreducible(Points(), 10**9)


@pytest.mark.parametrize("n", range(1, 40))
def test_threshold_chain_closed_form_matches_twin(n):
    H = Thresholds(n)
    assert ls.irreducibility(H) == ls.irreducibility(to_finite(H))
    V = H.version_space().restrict(n // 2, 1)  # a sub-chain
    assert ls.irreducibility(V) == ls.irreducibility(to_finite(H).version_space().restrict(n // 2, 1))


def test_points_closed_form_matches_twin_on_version_spaces():
    H = Points(range(7))
    V = H.version_space().restrict(0, 0).restrict(3, 0)
    F = to_finite(H)
    W = F.version_space().restrict(0, 0).restrict(3, 0)
    assert ls.irreducibility(V) == ls.irreducibility(W) == 4


def test_no_ties_and_dominant_labels_for_irreducible_classes():
    for n, M in _random_classes(300, 2):
        F = FiniteClass(M)
        if ls.irreducibility(F) >= 1 and len(F) >= 1:
            L = ldim(F)
            soa = F.soa()
            for x in range(n):
                y = ls.dominant_label(F, x)
                assert y is not None and ldim(F.version_space().restrict(x, y)) == L
                if ldim(F.version_space().restrict(x, 1 - y)) == L:
                    raise AssertionError("tie in an irreducible class")
                assert soa(x) == y  # SOA of a 1-irreducible class is its dominant labelling


def test_reducing_arrays_valid_on_random_classes():
    checked = 0
    for n, M in _random_classes(400, 3):
        F = FiniteClass(M)
        r = ls.irreducibility(F)
        if r == math.inf:
            with pytest.raises(LittlestoneError):
                ls.reducing_array(F)
            continue
        arr = ls.reducing_array(F)
        assert arr.k == r + 1
        assert ls.check_reducing_array(F, arr)
        L = ldim(F)
        V = F.version_space()
        covered = 0
        for j in range(arr.k + 1):
            G = V
            for x, y in arr.examples(j):
                G = G.restrict(x, y)
            assert G.size() >= 1 and G.ldim() < L
            covered |= G.mask
            checked += 1
        assert covered == V.mask
    assert checked > 300


def test_reducing_array_checker_catches_a_broken_array():
    F = FiniteClass(np.eye(5, dtype=int))
    arr = ls.reducing_array(F)
    bad = ls.dimensions.ReducingArray(arr.points, arr.rows[:-1] + ((1,) * arr.k,))
    with pytest.raises(LittlestoneError):
        ls.check_reducing_array(F, bad)
    wrong_k = ls.dimensions.ReducingArray(arr.points[:1], ((0,), (1,)))
    with pytest.raises(LittlestoneError):
        ls.check_reducing_array(F, wrong_k)  # rows keep Ldim 1 on points(5): not reducing


@pytest.mark.parametrize("n", [2, 3, 6, 7, 15, 100, 2**40 - 1])
def test_chain_reducing_arrays(n):
    H = Thresholds(n)
    if ls.irreducibility(H) == math.inf:
        return
    arr = ls.reducing_array(H)
    assert ls.check_reducing_array(H, arr)
    if n < 200:
        assert ls.check_reducing_array(to_finite(H), arr)


def test_lemma_4_2_and_4_3_on_random_subclasses():
    rng = np.random.default_rng(5)
    checked = 0
    for n, M in _random_classes(1500, 4):
        F = FiniteClass(M)
        keep = [r for r in range(len(F)) if rng.random() < 0.7]
        if not keep:
            continue
        G = F.version_space_of(keep)
        if G.ldim() != F.ldim():
            continue
        rg = ls.irreducibility(G)
        assert ls.irreducibility(F) >= rg  # Lemma 4.2: irreducibility moves up to the larger class
        if rg >= 1:
            assert G.soa() == F.soa()  # Lemma 4.3: SOA stability
            checked += 1
    assert checked > 30


def test_unavailable_irreducibility_names_the_class():
    from littlestone.classes import Intervals

    with pytest.raises(IrreducibilityError, match="intervals"):
        ls.irreducibility(Intervals(10**9))


def test_generalized_tree_ancestor_sets_height_and_drawing(tmp_path):
    F = FiniteClass(np.eye(4, dtype=int))
    arr = ls.reducing_array(F)
    T = GeneralizedTree()
    leaves = T.expand(arr.points, arr.rows)
    sub = F.version_space().restrict(arr.points[0], arr.rows[-1][0])
    leaves[-1].expand((1,), ((0,), (1,)))
    assert T.height() == arr.k + 1
    paths = [p for p, _ in T.leaves()]
    assert len(paths) == T.n_leaves() == arr.k + 2
    assert paths[0] == ((arr.points[0], arr.rows[0][0]),)
    assert sub.size() >= 1
    text = T.to_text()
    assert "height 4" in text and "[0]" in text
    assert T.to_mistake_tree().n_leaves() == T.n_leaves()
    out = T.to_png(tmp_path / "g.png")
    assert (tmp_path / "g.png").stat().st_size > 1000 and out.endswith("g.png")


def test_exponential_search_stops_with_a_clear_error_and_size_bound_answers_fast():
    eye = np.eye(300, dtype=int)
    with pytest.raises(IrreducibilityError, match="sub-classes of exact search"):
        ls.irreducibility(eye)
    assert not ls.is_irreducible(eye, 299)  # irr ≤ |H| − 2: no search needed
    assert ls.irreducibility(Points(range(300), include_zero=False)) == 298  # the closed form
