"""FiniteClass construction (packed bits, hashed rows) against the plain per-entry construction, and the compact
frames of the Ldim solver against the solver without them."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from littlestone import FiniteClass
from littlestone.classes.finite_ldim import FiniteLdimSolver, solver_for
from littlestone.dimensions import ldim


def reference_masks(M: np.ndarray) -> tuple[np.ndarray, list[int], list[int]]:
    """The former construction: first occurrences of distinct rows, column masks summed bit by bit."""
    rows, seen = [], set()
    for r in M.astype(np.uint8):
        if r.tobytes() not in seen:
            seen.add(r.tobytes())
            rows.append(r)
    U = np.array(rows)
    ones = [sum(1 << i for i in range(U.shape[0]) if U[i, j]) for j in range(U.shape[1])]
    full = (1 << U.shape[0]) - 1
    return U, [full ^ c for c in ones], ones


@pytest.mark.parametrize("seed", range(12))
def test_masks_identical_to_the_plain_construction(seed):
    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(1, 300)), int(rng.integers(1, 40))
    M = (rng.random((rows, cols)) < rng.uniform(0.05, 0.95)).astype(np.uint8)
    if rows > 3:  # duplicates on purpose
        M[rng.integers(0, rows, rows // 3)] = M[rng.integers(0, rows, rows // 3)]
    dtype = [np.uint8, bool, np.int64, np.float64][seed % 4]
    H = FiniteClass(M.astype(dtype))
    U, zeros, ones = reference_masks(M)
    assert np.array_equal(H.matrix, U)
    assert H.col_masks[0] == zeros and H.col_masks[1] == ones
    assert H.full_mask == (1 << U.shape[0]) - 1
    for r in range(U.shape[0]):  # the row index finds every hypothesis, and only hypotheses of the class
        assert H.version_space().contains(H.hypothesis(r))


def test_bad_entries_are_named():
    from littlestone.errors import LittlestoneError

    for bad in ([[0, 2]], [[0, -1]], [[0.5, 1.0]], [[np.nan, 1.0]]):
        with pytest.raises(LittlestoneError):
            FiniteClass(np.array(bad))


@pytest.mark.parametrize("seed", range(3))
def test_compact_frames_do_not_change_answers(seed):
    rng = np.random.default_rng(seed)
    M = (rng.random((9000, 18)) < 0.5).astype(np.uint8)
    H = FiniteClass(M)
    d = ldim(H)
    plain = FiniteLdimSolver(H, H.memo_bytes())
    plain.compact_min = 1 << 60  # no frames
    assert plain.ldim(H.full_mask) == d
    V = H.version_space().restrict(0, 1).restrict(3, 0)
    solver_for(H).bounds.clear()
    assert ldim(V) == plain.ldim(V.mask)


def test_clear_caches_drops_the_solver_memo():
    H = FiniteClass((np.random.default_rng(1).random((300, 12)) < 0.5).astype(np.uint8))
    ldim(H)
    assert solver_for(H).bounds
    H.version_space().soa()
    H.clear_caches()
    assert not solver_for(H).bounds and not H._soa_cache


@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_an_unpickled_class_is_read_only_too(protocol):
    """A FiniteClass is an immutable value (copies share it): a pickled one (a worker's copy, a cached one) comes
    back with the same read-only matrix, the same masks and the same answers."""
    H = FiniteClass([[0, 0, 1], [0, 1, 1], [1, 1, 1]], points=["a", "b", "c"], name="chain")
    ldim(H)  # a warm solver travels too
    G = pickle.loads(pickle.dumps(H, protocol=protocol))
    assert not H.matrix.flags.writeable and not G.matrix.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        G.matrix[0, 0] = 1
    assert np.array_equal(G.matrix, H.matrix) and G.col_masks == H.col_masks and G.name == "chain"
    assert ldim(G) == ldim(H) == 1 and G.version_space().restrict("b", 1).size() == 2


def test_the_callers_array_written_later_does_not_change_the_class():
    """The class is an immutable value: a writeable uint8 array of the caller is not shared (writing it afterwards
    leaves the class, its masks and its Ldim as they were); a read-only one may be shared (no copy needed)."""
    M = np.array([[0, 0, 1], [0, 1, 1], [1, 1, 1]], dtype=np.uint8)
    H = FiniteClass(M)
    before = (H.matrix.copy(), list(H.col_masks), ldim(H))
    M[:] = 0
    assert np.array_equal(H.matrix, before[0]) and list(H.col_masks) == before[1] and ldim(H) == before[2] == 1
    R = np.array([[0, 1], [1, 1]], dtype=np.uint8)
    R.flags.writeable = False
    assert np.shares_memory(FiniteClass(R).matrix, R)
