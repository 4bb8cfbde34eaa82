"""Mistake trees: structure, text and PNG drawings, shattering checks, lazy witnesses of huge structured classes."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone import FiniteClass, Thresholds
from littlestone.dimensions import LazyMistakeTree, MistakeTree, is_shattered, ldim
from littlestone.errors import DomainError, LittlestoneError

from littlestone.testing import oracle as O

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def figure1_class() -> FiniteClass:
    """Seed 000 Figure 1: thresholds t_1…t_8 on points 1…8, t_i(j) = 1 iff i ≤ j."""
    M = (np.arange(1, 9)[None, :] >= np.arange(1, 9)[:, None]).astype(np.uint8)
    return FiniteClass(M, points=list(range(1, 9)))


def test_figure1_tree_is_the_binary_search_tree():
    H = figure1_class()
    d, tree = ldim(H, witness=True)
    assert d == 3
    assert tree.point == 4
    assert {tree.child(0).point, tree.child(1).point} == {2, 6}
    assert tree.children == (tree.zero, tree.one) and tree.zero.zero.zero.children is None
    assert is_shattered(tree, H)
    paths = list(tree.paths())
    assert len(paths) == 8 and all(len(p) == 3 for p in paths)
    # the 8 leaves carry the 8 thresholds, each consistent with its path
    leaves = list(tree.leaves())
    assert len({leaf.hypothesis for _, leaf in leaves}) == 8


def test_text_drawing():
    _, tree = ldim(figure1_class(), witness=True)
    text = str(tree)
    lines = text.splitlines()
    assert lines[0] == "[4]"
    assert len(lines) == 15  # 7 nodes + 8 leaves
    assert sum(line.count("+-0-") for line in lines) == 7 and sum(line.count("`-1-") for line in lines) == 7
    assert "* 00001111" in text  # a leaf shows its hypothesis' value vector
    assert "... (subtree of depth 1)" in tree.to_text(max_depth=1)
    assert str(tree).isascii()


def test_png_drawing(tmp_path):
    _, tree = ldim(figure1_class(), witness=True)
    names = {h: f"t{9 - sum(h.values)}" for _, leaf in tree.leaves() for h in [leaf.hypothesis]}
    out = tree.to_png(tmp_path / "figure1.png", leaf_label=names, title="seed 000, Figure 1")
    data = (tmp_path / "figure1.png").read_bytes()
    assert out.endswith("figure1.png") and data[:8] == PNG_MAGIC and len(data) > 5000


def test_png_of_a_deep_lazy_tree_is_cut(tmp_path):
    _, tree = ldim(Thresholds(2**60), witness=True)
    tree.to_png(tmp_path / "deep.png", max_depth=3)
    assert (tmp_path / "deep.png").read_bytes()[:8] == PNG_MAGIC


def test_thresholds_2_60_witness_depth_60():
    H = Thresholds(2**60)
    d, tree = ldim(H, witness=True)
    assert d == 60 and tree.depth == 60
    assert isinstance(tree, LazyMistakeTree)
    assert is_shattered(tree, H, sample=300, seed=0)
    # follow one path to the bottom: the leaf's hypothesis realizes all 60 labelled examples
    labels = np.random.default_rng(1).integers(0, 2, 60)
    path, leaf = tree.follow(labels)
    assert len(path) == 60 and leaf.is_leaf
    assert all(leaf.hypothesis(x) == y for x, y in path)
    with pytest.raises(LittlestoneError, match="sample="):
        is_shattered(tree, H)


def test_lazy_witness_rejected_by_a_smaller_version_space():
    H = Thresholds(2**60)
    _, tree = ldim(H, witness=True)
    V = H.version_space().restrict(tree.point, 1)  # every path starting with label 0 dies
    assert not is_shattered(tree, V, sample=10, seed=0)


def test_structured_small_witness_is_explicit_and_matches_finite():
    H = Thresholds(15)
    d, tree = ldim(H, witness=True)
    assert d == 4 and isinstance(tree, MistakeTree)
    assert is_shattered(tree, H)
    assert is_shattered(tree, FiniteClass(O.thresholds_matrix(15)))


def test_incomplete_tree_is_not_shattered():
    H = FiniteClass(O.allfunctions_matrix(3))
    leaf = MistakeTree.leaf()
    lopsided = MistakeTree.node(0, leaf, MistakeTree.node(1, leaf, leaf))
    assert lopsided.depth == 2 and not lopsided.is_complete()
    assert not is_shattered(lopsided, H)
    full = MistakeTree.node(0, MistakeTree.node(1, leaf, leaf), MistakeTree.node(2, leaf, leaf))
    assert full.is_complete() and is_shattered(full, H)


def test_point_outside_the_domain_is_an_error():
    H = FiniteClass(O.allfunctions_matrix(3))
    leaf = MistakeTree.leaf()
    with pytest.raises(DomainError, match="outside"):
        is_shattered(MistakeTree.node(7, leaf, leaf), H)


def test_malformed_trees_are_rejected():
    leaf = MistakeTree.leaf()
    with pytest.raises(LittlestoneError, match="two MistakeTree children"):
        MistakeTree(point=3, zero=leaf)
    with pytest.raises(LittlestoneError, match="leaf"):
        MistakeTree(point=None, zero=leaf, one=leaf)
    with pytest.raises(LittlestoneError, match="leaf"):
        leaf.child(0)


def test_trees_are_frozen_hashable_values():
    a = MistakeTree.node(0, MistakeTree.leaf(), MistakeTree.leaf())
    b = MistakeTree.node(0, MistakeTree.leaf(), MistakeTree.leaf())
    assert a == b and hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.point = 1  # type: ignore[misc]


def test_lazy_tree_materializes_to_the_same_shattered_tree():
    V = Thresholds(63).version_space()
    lazy = LazyMistakeTree(V, 6)
    full = lazy.materialize()
    assert full.depth == 6 and full.n_leaves() == 64 and is_shattered(full, V)
    with pytest.raises(LittlestoneError, match="Ldim"):
        LazyMistakeTree(V, 7).child(0).child(0).child(0).child(0).child(0).child(0).point


def test_png_into_an_impossible_place_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    _, tree = ldim(figure1_class(), witness=True)
    with pytest.raises(LittlestoneError, match="cannot write"):
        tree.to_png(blocker / "tree.png")


def test_leaf_and_node_labels_are_textbook_short():
    from littlestone import Conjunctions, Intervals, Points
    from littlestone.classes import AffineSubspaces
    from littlestone.dimensions.draw import describe_hypothesis, describe_point

    IV = Intervals(8)
    assert describe_hypothesis(Intervals(6).version_space().soa()) == "∅"  # spec App. A: SOA of intervals(6) is 0
    assert describe_hypothesis(IV.version_space().soa()) == "[3,4]"
    _, t = ldim(IV, witness=True)
    labels = [describe_hypothesis(leaf.hypothesis) for _, leaf in t.leaves()]
    assert all(lab == "∅" or (lab.startswith("[") and lab.endswith("]")) for lab in labels), labels
    _, t = ldim(Conjunctions(3), witness=True)
    text = t.to_text()
    assert "Conjunction" not in text and "(0, 0, 0)" not in text and "[000]" in text
    leaves = {describe_hypothesis(leaf.hypothesis) for _, leaf in t.leaves()}
    assert {"⊥", "⊤", "x0∧¬x1∧¬x2"} <= leaves
    assert describe_hypothesis(Points().hypothesis(3)) == "{3}"
    assert describe_point((1, 0, 1)) == "101" and describe_point("a") == "a"
    F = AffineSubspaces(2, 3, 1).flat((0, 0, 1), [(1, 1, 0)])
    assert describe_hypothesis(F) == "001+⟨110⟩" and describe_hypothesis(F, ascii_only=True) == "001+<110>"
