"""DataSplit (issue 19 item 3): one object slices the data and composes the claims of the steps its parts feed;
no example feeds two steps whose claims were composed as disjoint (an overlap of one example turns a learner red)."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.errors import BudgetExceededError, PrivacyParameterError
from littlestone.pac import PolyPriLearnClassifier, PolyPriPropLearnClassifier
from littlestone.privacy import ExponentialMechanism, PrivacyClaim, SparseSelection
from littlestone.privacy.partition import DataSplit, Part, group_privacy


def test_disjoint_parts_compose_in_parallel_shared_parts_in_sequence():
    split = DataSplit(100)
    a, b = split.block(40, "a"), split.block(60, "b")
    split.feed(a, "EM1")
    split.feed(b, "EM2", "EM3")
    claim = split.compose(
        {"EM1": ExponentialMechanism(1.0), "EM2": ExponentialMechanism(0.5), "EM3": PrivacyClaim(0.25)}
    )
    assert claim.pair == (1.0, 0.0)  # max(1, 0.5 + 0.25)
    split.check_disjoint("EM1", "EM2")
    with pytest.raises(PrivacyParameterError, match="feeds"):
        split.check_disjoint("EM2", "EM3")


def test_one_shared_example_is_composed_sequentially():
    split = DataSplit(10)
    split.feed(split.block(5, "a"), "s1")
    split.feed(split._add(Part("overlap", 4, 6)), "s2")  # record 4 read by both steps
    assert split.compose({"s1": PrivacyClaim(1.0), "s2": PrivacyClaim(1.0)}).epsilon == 2.0


def test_users_cost_group_privacy_when_they_share_a_record():
    sel = SparseSelection(1.0, 1e-3, 5)
    split = DataSplit(20)
    split.users("sel", split.blocks(4, 5, "S"))
    assert split.compose({"sel": sel}).pair == (1.0, 1e-3)
    bad = DataSplit(20)
    bad.users("sel", [bad._add(Part("S0", 0, 6)), bad._add(Part("S1", 5, 10))])
    assert bad.compose({"sel": sel}).pair == group_privacy(sel.privacy(), 2).pair
    assert group_privacy(sel.privacy(), 2).epsilon == 2.0


def test_secret_subsample_parts_and_sizes_only_in_describe():
    split = DataSplit(1000)
    S = split.block(1000, "S")
    I = split.feed(split.subsample(50, np.random.default_rng(1), "I", within=S), "inner")
    assert I.secret and I.size == 50 and len(set(I.indices.tolist())) == 50
    assert split.describe() == [("S", 1000, ()), ("I", 50, ("inner",))]
    assert split.amplify(I, PrivacyClaim(1.0)).epsilon < 1.0
    with pytest.raises(PrivacyParameterError, match="not a secret"):
        split.amplify(S, PrivacyClaim(1.0))


def test_a_block_past_the_end_and_a_missing_claim_are_errors():
    split = DataSplit(10)
    with pytest.raises(PrivacyParameterError, match="does not fit"):
        split.block(11, "x")
    split.feed(split.block(10, "x"), "step")
    with pytest.raises(PrivacyParameterError, match="no claim"):
        split.compose({})


def _data(n, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 6, size=n)
    return X.reshape(-1, 1), (X >= 3).astype(int)


def test_polyprilearn_datasets_overlapping_by_one_example_turn_red(monkeypatch):
    """Overlap PolyPriLearn's m datasets by one example: the split composes group privacy, the fit refuses."""
    X, y = _data(200)
    est = PolyPriLearnClassifier("thresholds:6", epsilon=2.0, delta=1e-3, n=20, m=10, K=1, backend="seeded")
    est.fit(X, y)
    real = DataSplit.blocks

    def overlapping(self, count, size, name):
        parts = real(self, count, size, name)
        if count > 1:  # the second dataset starts one example early
            parts[1] = self._add(Part(parts[1].name, parts[1].start - 1, parts[1].stop))
        return parts

    monkeypatch.setattr(DataSplit, "blocks", overlapping)
    with pytest.raises(BudgetExceededError):
        est.fit(X, y)


def test_polypriproplearn_generic_learner_on_polyprilearn_examples_turns_red(monkeypatch):
    """Feed PolyPriPropLearn's generic learner one example PolyPriLearn used: the fit refuses (true privacy 2ε)."""
    X, y = _data(200)
    est = PolyPriPropLearnClassifier(
        "thresholds:6", epsilon=2.0, delta=1e-3, n=20, m=5, K=1, n_generic=20, backend="seeded"
    )
    est.fit(X, y)
    real = DataSplit.block

    def shifted(self, size, name):
        part = real(self, size, name)
        if name == "S₂":
            part = self._add(Part(name, part.start - 1, part.stop - 1))
        return part

    monkeypatch.setattr(DataSplit, "block", shifted)
    with pytest.raises(BudgetExceededError):
        est.fit(X, y)


def test_claim_only_subsample_needs_no_index_array():
    """privacy() before any data at theory sizes (n ≈ 2.8·10¹³): the claim-only subsample allocates nothing and
    composes like a drawn one (the same sets of steps read a common record)."""
    from littlestone.classes import Thresholds
    from littlestone.classes.ops import to_finite
    from littlestone.pac import AgnosticPolyPriPropLearnClassifier

    claim = AgnosticPolyPriPropLearnClassifier(to_finite(Thresholds(6)), epsilon=3.0, delta=1e-3).privacy()
    assert tuple(claim)[:2] == pytest.approx((3.0, 1e-3))
    import numpy as np

    from littlestone.privacy import DataSplit

    for stand_in in (True, False):
        split = DataSplit(100, "s")
        S = split.feed(split.block(100, "S"), "a")
        sub = (
            split.claim_subsample(10, "I", within=S)
            if stand_in
            else split.subsample(10, np.random.default_rng(1), "I", within=S)
        )
        split.feed(sub, "b")
        assert split.signatures() == {frozenset({"a", "b"}), frozenset({"a"})}


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_copied_split_keeps_its_feeds_and_its_read_once_guard(how):
    """The feeds are keyed by the parts' identities: a copy (pickle, deepcopy) must key them afresh, or composing
    the copy's claim fails (ThresholdsAlgorithm3.privacy() after unpickling raised KeyError) — and a user's part
    read once stays read once in the copy."""
    import copy
    import pickle

    from littlestone.classes import Thresholds
    from littlestone.agnostic_online.algorithm3_thresholds import ThresholdsAlgorithm3

    clone = (lambda o: pickle.loads(pickle.dumps(o))) if how == "pickle" else copy.deepcopy
    split = DataSplit(10, source=np.zeros((10, 1)))
    a, b = split.block(5, "a"), split.block(5, "b")
    split.feed(a, "s1")
    split.users("u", [b])
    split.reader(b, "u")
    c = clone(split)
    ca, cb = c.parts
    assert c.compose({"s1": PrivacyClaim(1.0), "u": PrivacyClaim(0.5)}).epsilon == 1.0
    assert c.describe() == split.describe()
    c.reader(ca, "s1")
    with pytest.raises(Exception, match="already read"):
        c.reader(cb, "u")
    learner = ThresholdsAlgorithm3(Thresholds(16), 200, 1.0, backend="seeded", seed=0)
    assert clone(learner).privacy().pair == learner.privacy().pair
