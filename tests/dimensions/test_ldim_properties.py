"""Property tests on random classes: VC ≤ Ldim ≤ ⌊log2|H|⌋, witnesses shattered, corrupted witnesses rejected,
agreement with the naive recursion and the brute-force oracle, SOA-style sub-version-space consistency."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone import FiniteClass
from littlestone.dimensions import is_shattered, ldim, naive_ldim, vc_dim

from littlestone.testing import oracle as O


@st.composite
def random_classes(draw, max_rows: int = 24, max_cols: int = 7):
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max_cols))
    seed = draw(st.integers(0, 2**32 - 1))
    p = draw(st.sampled_from([0.15, 0.3, 0.5, 0.7]))
    M = (np.random.default_rng(seed).random((rows, cols)) < p).astype(np.uint8)
    return M


@settings(max_examples=120, deadline=None)
@given(random_classes())
def test_vc_le_ldim_le_log_size(M):
    H = FiniteClass(M)
    d = ldim(H)
    assert vc_dim(H) <= d <= len(H).bit_length() - 1


@settings(max_examples=120, deadline=None)
@given(random_classes())
def test_ldim_equals_naive_recursion_and_oracle(M):
    H = FiniteClass(M)
    assert ldim(H) == naive_ldim(M) == O.brute_ldim(O.rows(M))


@settings(max_examples=80, deadline=None)
@given(random_classes(), st.integers(0, 6), st.integers(0, 1))
def test_restricted_version_spaces(M, j, y):
    H = FiniteClass(M)
    j = j % H.n_points
    V = H.version_space().restrict(j, y)
    expected = O.brute_ldim(frozenset(h for h in O.rows(H.matrix) if h[j] == y))
    assert ldim(V) == expected


@settings(max_examples=100, deadline=None)
@given(random_classes())
def test_witness_is_shattered_complete_and_annotated(M):
    H = FiniteClass(M)
    d, tree = ldim(H, witness=True)
    assert tree.depth == d and tree.is_complete()
    assert is_shattered(tree, H)
    for path, leaf in tree.leaves():  # leaves carry a hypothesis consistent with their path
        assert all(leaf.hypothesis(x) == y for x, y in path)


@settings(max_examples=100, deadline=None)
@given(random_classes())
def test_corrupted_witness_is_rejected(M):
    H = FiniteClass(M)
    d, tree = ldim(H, witness=True)
    if d >= 2:  # ask the root's question again below it: the path (root,0),(root,1) is contradictory
        bad = tree.replace_point([0], tree.point)
        assert not is_shattered(bad, H)
    if d >= 1:  # a tree one level deeper than Ldim cannot be shattered: graft the witness under a new root
        from littlestone.dimensions import MistakeTree

        deeper = MistakeTree.node(H.domain.points[0], tree, tree)
        assert not is_shattered(deeper, H)


def test_memo_limit_clears_without_changing_answers():
    from littlestone.dimensions.ldim import solver_for

    M = O.intervals_matrix(16)
    H = FiniteClass(M)
    solver = solver_for(H)
    solver.memo_limit = 8  # force many clears
    assert ldim(H) == 6
    assert len(solver.bounds) <= 9
    assert all(
        ldim(H.version_space().restrict(j, 0)) == O.brute_ldim(frozenset(h for h in O.rows(M) if h[j] == 0))
        for j in range(0, 16, 5)
    )


@pytest.mark.slow
def test_many_random_classes_against_the_oracle():
    rng = np.random.default_rng(2026)
    for _ in range(1500):
        rows, cols = int(rng.integers(1, 48)), int(rng.integers(1, 9))
        M = (rng.random((rows, cols)) < rng.uniform(0.1, 0.9)).astype(np.uint8)
        H = FiniteClass(M)
        d, tree = ldim(H, witness=True)
        assert d == O.brute_ldim(O.rows(M))
        assert tree.depth == d and is_shattered(tree, H)
