"""Reads bound to the declared split (issue 26 item 3): a learner reads its data only through the parts its
:class:`~littlestone.privacy.DataSplit` handed out, so the claim composed from the declared parts covers every read.

Two mutations of the issue left the whole suite green on the old code while the claim (computed from the declared parts)
was unchanged and wrong — PolyPriLearn's dataset i reading one record of dataset i + 1, and PolyPriPropLearn's generic
learner reading the first n′ records (inside S₁) instead of S₂. Both are reproduced here and refused; then a property
over every learner that uses DataSplit: on an honest run every record any step reads lies in a part that feeds that
step (checked on the raw source, so a read that bypasses the readers shows), and a learner handed a reader one record
wider than its part, or the neighbouring part, is refused with a SplitReadError naming the part and the range.
"""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.classes import Thresholds
from littlestone.classes.ops import to_finite
from littlestone.errors import SplitReadError
from littlestone.privacy import DataSplit, PartReader
from littlestone.privacy.partition import Part


# ------------------------------------------------------------------------------------------------ the reader itself
class Spy:
    """An example source (points = positions, labels x ≥ 3) logging every range read from it."""

    def __init__(self, n: int, modulo: int = 6):
        self.n, self.modulo, self.reads = n, modulo, []

    def __len__(self) -> int:
        return self.n

    def batch(self, start: int, stop: int):
        self.reads.append((int(start), int(stop)))
        X = np.arange(start, stop, dtype=np.int64) % self.modulo
        return X, (X >= self.modulo // 2).astype(np.int8)


def test_a_reader_gives_its_part_and_refuses_one_record_outside_it():
    src = Spy(30, modulo=1000)  # points = positions
    split = DataSplit(30, "toy sample", source=src)
    a, b = split.feed(split.block(10, "a"), "A"), split.feed(split.block(10, "b"), "B")
    ra = split.reader(a, "A")
    assert [len(y) for _, y in ra.read(4)] == [4, 4, 2] and ra.read()[1].size == 10
    assert split.reader(b, "B").rows()[0].tolist() == list(range(10, 20))  # a block's rows: the block
    for lo, hi in ((0, 11), (9, 11), (-1, 10), (10, 12)):  # one record of b (or before a): refused, nothing read
        before = len(src.reads)
        with pytest.raises(SplitReadError, match=r"'A' read records \[.*\) outside its part 'a' = \[0, 10\)"):
            ra.batch(lo, hi)
        assert len(src.reads) == before
    with pytest.raises(SplitReadError, match="feeds \\['B'\\]"):  # another part's records: b does not feed A
        split.reader(b, "A")
    ra.stop += 1  # a learner moving its reader's bound: the check is against the declared part
    with pytest.raises(SplitReadError, match="outside its part 'a'"):
        ra.read()


def test_user_parts_are_read_once_and_claim_only_and_foreign_parts_never():
    split = DataSplit(20, "toy sample", source=Spy(20))
    users = split.blocks(4, 5, "S")
    split.users("sel", users)
    split.reader(users[0], "sel")
    with pytest.raises(SplitReadError, match="two users"):  # a user's data read twice: one record, two users
        split.reader(users[0], "sel")
    with pytest.raises(SplitReadError, match="not handed out"):
        split.reader(Part("S[1]", 5, 10), "sel")
    free = DataSplit(20, "claims", source=Spy(20))
    S = free.feed(free.block(20, "S"), "a")
    stand_in = free.feed(free.claim_subsample(5, "I", within=S), "b")
    with pytest.raises(SplitReadError, match="claim-only"):
        free.reader(stand_in, "b")
    with pytest.raises(Exception, match="no data bound"):
        DataSplit(5).reader(DataSplit(5).block(5, "x"), "s")


def test_a_secret_part_is_read_by_its_indices_and_a_lazy_source_stays_lazy():
    src = Spy(10**13)  # theorem-size n: a reader is a view, nothing is materialised
    split = DataSplit(10**13, "huge", source=src)
    S = split.feed(split.block(10**13, "S"), "a")
    X, _ = split.reader(S, "a").batch(10**13 - 3, 10**13)
    assert X.size == 3 and src.reads == [(10**13 - 3, 10**13)]
    small = DataSplit(50, "small", source=Spy(50, modulo=1000))
    head = small.block(10, "head")
    S = small.block(40, "S")
    for seed in range(20):  # a subsample within S holds records of S only
        inside = small.subsample(40, np.random.default_rng(seed), f"J{seed}", within=S).indices
        assert inside.min() >= 10 and sorted(inside.tolist()) == list(range(10, 50))
    assert head.size == 10
    I = small.feed(small.subsample(7, np.random.default_rng(0), "I"), "b")
    X, _ = small.reader(I, "b").rows()
    assert X.tolist() == sorted(I.indices.tolist())  # exactly the secret records, in position order
    with pytest.raises(SplitReadError, match="index set"):
        small.reader(I, "b").batch(0, 1)


# ------------------------------------------------------------------------------------------------ the learners
def _xy(n: int, seed: int = 0):
    X = np.random.default_rng(seed).integers(0, 6, size=n)
    return X, (X >= 3).astype(np.int8)


def _blm20(src):
    from littlestone.pac.blm20 import blm20_learn

    return blm20_learn(Thresholds(6), src, epsilon=0.8, delta=1e-3, backend="seeded", seed=1, cap=3, aux_size=3,
                       n_batches=60, n_generic=50, eta=0.05)  # fmt: skip


def _agnostic_blm20(src):
    from littlestone.pac.agnostic import agnostic_learn

    X, y = src.batch(0, len(src))
    inner = {"n_batches": 40, "aux_size": 3, "cap": 3, "n_generic": 30, "eta": 0.05}
    return agnostic_learn(Thresholds(6), X, y, epsilon=1.0, delta=1e-3, subsample_size=280, vc=1,
                          inner_sizes=inner, backend="seeded", seed=0)  # fmt: skip


def _polyprilearn(src):
    from littlestone.pac.polyprilearn import polyprilearn

    return polyprilearn(Thresholds(6), src, epsilon=2.0, delta=1e-3, n=20, m=10, K=1, backend="seeded", seed=0)


def _proper(src):
    from littlestone.pac.proper import polypriproplearn

    res = polypriproplearn(Thresholds(6), src, epsilon=8.0, delta=1e-3, n=20, m=40, K=1, n_generic=20,
                           backend="seeded", seed=0)  # fmt: skip
    assert not res.bottom  # the generic step ran (it reads S₂)
    return res


def _agnostic_proper(src):
    from littlestone.pac.agnostic_proper import agnostic_learn

    inner = {"n": 1, "m": 1, "K": 1, "n_generic": 1}
    return agnostic_learn(to_finite(Thresholds(6)), src, epsilon=4.0, delta=1e-3, n=200, inner_sizes=inner,
                          backend="seeded", seed=0)  # fmt: skip


def _algorithm3(src):
    from littlestone.agnostic_online import Algorithm3

    X, y = src.batch(0, len(src))
    return Algorithm3(Thresholds(6), len(src), 1.0, batch=20, backend="seeded", seed=1).run(X, y)


def _algorithm3_thresholds(src):
    from littlestone.agnostic_online import ThresholdsAlgorithm3

    X, y = src.batch(0, len(src))
    return ThresholdsAlgorithm3(Thresholds(6), len(src), 1.0, batch=20, backend="seeded", seed=1).run(X, y)


#: (learner, records in its source); the two online ones take their rounds from the source in one go (a read the
#: learner does not make; what they read is checked on their own round log)
LEARNERS = {
    "blm20": (_blm20, 420),
    "agnostic_blm20": (_agnostic_blm20, 5000),
    "polyprilearn": (_polyprilearn, 230),
    "polypriproplearn": (_proper, 830),
    "agnostic_proper": (_agnostic_proper, 230),
    "algorithm3": (_algorithm3, 90),
    "algorithm3_thresholds": (_algorithm3_thresholds, 90),
}


class Trace:
    """Every reader a learner opened and every range read through it (DataSplit.reader and PartReader wrapped)."""

    def __init__(self, monkeypatch, widen: int = 0, neighbour: bool = False):
        self.opened, self.reads, self.rows = [], [], []
        real_reader, real_batch, real_rows = DataSplit.reader, PartReader.batch, PartReader.rows
        trace = self

        def reader(split, part, step):
            if neighbour:  # the mutation: the step is handed the next part (the previous one for the last part)
                i = next(j for j, p in enumerate(split.parts) if p is part)
                part = split.parts[i + 1] if i + 1 < len(split.parts) else split.parts[max(i - 1, 0)]
            r = real_reader(split, part, step)
            trace.opened.append((split, part, step))
            if widen and part.indices is None:  # the mutation: one record more on each side (the neighbours')
                r.start, r.stop = r.start - widen, min(r.stop + widen, len(r))
            return r

        def batch(r, start, stop):
            trace.reads.append((r.part, r.step, start, stop))
            return real_batch(r, start, stop)

        def rows(r):
            trace.rows.append((r.part, r.step))
            return real_rows(r)

        monkeypatch.setattr(DataSplit, "reader", reader)
        monkeypatch.setattr(PartReader, "batch", batch)
        monkeypatch.setattr(PartReader, "rows", rows)


@pytest.mark.parametrize("name", sorted(LEARNERS))
def test_every_read_of_an_honest_run_lies_in_a_part_feeding_the_reading_step(name, monkeypatch):
    learn, n = LEARNERS[name]
    trace = Trace(monkeypatch)
    src = Spy(n)
    learn(src)
    assert trace.opened, f"{name} read no data through a DataSplit part"
    for split, part, step in trace.opened:
        fed = split._feeds[id(part)]
        assert step in fed or any(split._user_of.get(s) == step for s in fed)
    for part, _step, start, stop in trace.reads:
        assert part.indices is None and part.start <= start <= stop <= part.stop
    if name not in ("algorithm3", "algorithm3_thresholds", "agnostic_blm20"):  # these get in-memory rounds
        through = {(a, b) for _, _, a, b in trace.reads}
        secret = {i for part, _ in trace.rows if part.indices is not None for i in part.indices.tolist()}
        assert src.reads  # no read of the raw source bypasses the readers:
        for a, b in src.reads:
            assert (a, b) in through or set(range(a, b)) <= secret, f"[{a}, {b}) read around the readers"


@pytest.mark.parametrize("name", sorted(LEARNERS))
@pytest.mark.parametrize("mutation", ["one record more", "the neighbouring part"])
def test_a_learner_reading_outside_its_part_is_refused(name, mutation, monkeypatch):
    learn, n = LEARNERS[name]
    if name == "agnostic_blm20" and mutation == "the neighbouring part":
        pytest.skip("its own split has one part (the secret subsample); the inner BLM20 run is covered by 'blm20'")
    Trace(monkeypatch, widen=1 if mutation == "one record more" else 0, neighbour=mutation != "one record more")
    with pytest.raises(SplitReadError, match="part"):
        learn(Spy(n + 5))  # room past the last part: the refusal is the split's, not the source running out


# ------------------------------------------------------------------------------------------------ the two
def test_polyprilearn_dataset_reading_one_record_of_the_next_is_refused(monkeypatch):
    """Issue 26 hole 4, first mutation: dataset i reads [start_i, stop_i + 1) — one record of dataset i + 1."""
    from littlestone.pac import PolyPriLearnClassifier
    from littlestone.pac import polyprilearn as pl

    X, y = _xy(200)
    est = PolyPriLearnClassifier("thresholds:6", epsilon=2.0, delta=1e-3, n=20, m=10, K=1, backend="seeded")
    est.fit(X.reshape(-1, 1), y)
    real = pl.run_dataset

    def one_more(task):
        hclass, reader, schedule = task
        reader.stop += 1  # the mutated bound
        return real((hclass, reader, schedule))

    monkeypatch.setattr(pl, "run_dataset", one_more)
    with pytest.raises(SplitReadError, match=r"outside its part 'S\[0\]' = \[0, 20\)"):
        est.fit(X.reshape(-1, 1), y)


def test_polypriproplearn_generic_learner_reading_s1_is_refused(monkeypatch):
    """Issue 26 hole 4, second mutation: the generic learner reads the first n′ records (inside S₁), not S₂."""
    from littlestone.pac import PolyPriPropLearnClassifier
    from littlestone.pac import proper

    X, y = _xy(900)
    est = PolyPriPropLearnClassifier(
        "thresholds:6", epsilon=8.0, delta=1e-3, n=20, m=40, K=1, n_generic=20, backend="seeded", random_state=0
    )
    assert not est.fit(X.reshape(-1, 1), y).result_.bottom  # the generic step runs: it reads S₂
    real = DataSplit.reader

    def first_records(split, part, step):  # S₂'s reader asked for [0, n′): the learner's mutated read
        r = real(split, part, step)
        if step == proper.GENERIC:
            r.start, r.stop = 0, part.size
        return r

    monkeypatch.setattr(DataSplit, "reader", first_records)
    with pytest.raises(SplitReadError, match=r"read records \[0, 20\) outside its part 'S₂' = \[800, 820\)"):
        est.fit(X.reshape(-1, 1), y)

    def s1_for_generic(split, part, step):  # the same read through S₁'s part: S₁ does not feed the generic step
        return real(split, split.parts[0] if step == proper.GENERIC else part, step)

    monkeypatch.setattr(DataSplit, "reader", s1_for_generic)
    with pytest.raises(SplitReadError, match="opened part 'S₁', which feeds"):
        est.fit(X.reshape(-1, 1), y)
