"""The private_online experiment: adversaries from a list of names, rows judged only where the theorem's bound is
below T ("bound vacuous" elsewhere), the verdict's vacuity horizon equal to the calculator's."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from littlestone.bounds.lwy25 import smallest_useful_T as lwy25_smallest_T
from littlestone.errors import LittlestoneError
from littlestone.experiments import REGISTRY
from littlestone.experiments.private_online import ADVERSARIES, adversary, smallest_useful_T, threshold_class
from littlestone.online import SOA, play


class _Constant:
    """A learner that always predicts 0 and releases the constant-0 hypothesis."""

    def predict_one(self, x):
        return 0

    def learn_one(self, x, y):
        return None

    def hypothesis(self):
        return lambda x: 0


@pytest.mark.parametrize("d", [1, 2])
def test_adaptive_adversaries_force_the_soa_to_exactly_d_and_stay_realizable(d):
    H = threshold_class(d)
    assert H.version_space().ldim() == d
    for name in ("tree", "late-commitment"):
        soa = SOA(H)
        g = play(soa, adversary(name, H, seed=0), 200, seed=0)
        assert g.mistakes == d  # the SOA's bound is tight against both
        V = H.version_space()
        for x, y in g.examples:
            V = V.restrict(x, y)
        assert not V.is_empty()


def test_late_commitment_and_disagreement_punish_a_learner_that_never_changes():
    H = threshold_class(2)
    lc = play(_Constant(), adversary("late-commitment", H, seed=0), 100, seed=0)
    assert lc.mistakes == 100  # label 1 on the point whose flip keeps most hypotheses, every round
    for seed in range(3):
        g = play(_Constant(), adversary("disagreement", H, seed=seed), 50, seed=seed)
        assert g.mistakes in (0, 50)  # target = constant 0 (no disagreement), or disagreement every round


def test_unknown_adversary_or_learner_is_refused(tmp_path):
    with pytest.raises(LittlestoneError, match="adversary"):
        REGISTRY["private_online"](adversaries=("nope",), out_dir=tmp_path)
    with pytest.raises(LittlestoneError, match="learner"):
        REGISTRY["private_online"](learners=("nope",), out_dir=tmp_path)
    with pytest.raises(LittlestoneError, match="grid"):
        REGISTRY["private_online"](grid="huge", out_dir=tmp_path)


def test_private_online_judged_only_where_the_bound_speaks(tmp_path):
    res = REGISTRY["private_online"](
        Ts=(100, 300),
        ds=(1,),
        seeds=1,
        learners=("lwy25", "soa"),
        adversaries=ADVERSARIES,
        seed=0,
        out_dir=tmp_path,
    )
    rows = list(csv.DictReader(open(res.table_path)))
    assert {r["adversary"] for r in rows} == set(ADVERSARIES)
    lwy = [r for r in rows if r["learner"] == "lwy25"]
    assert lwy and all(r["status"] == "bound vacuous" and r["slope_where_bound_below_T"] == "" for r in lwy)
    soa = [r for r in rows if r["learner"] == "soa"]
    assert all(r["status"] == "within bound" and int(r["max_mistakes"]) <= 1 for r in soa)
    assert res.figures[0].exists()
    # the horizon printed for LWY25 is the calculator's smallest useful T
    t0 = lwy25_smallest_T(1, 1.0, 1e-6, 0.1)
    assert smallest_useful_T("lwy25", 1, 1.0, 1e-6) == float(t0)
    assert f"d=1: T ≥ {float(t0):.3g}" in res.verdict and "nothing claimed" in res.verdict
    assert "soa: bound below T in 8/8 cells; reproduced" in res.verdict
    assert np.isfinite(float(soa[0]["bound"]))


def test_private_online_learner_names_are_plays():
    """lwy25 / gl21 are the anytime variants (as ``play -l``), -paper the papers' algorithms, all run by default;
    the paper variants are judged against the same theorem's bound as the anytime ones."""
    from littlestone.experiments.private_online import DEFAULT_LEARNERS, make_learner, theorem_bound
    from littlestone.private_online import GL21, LWY25, AnytimeGL21, AnytimeLWY25

    H = threshold_class(1)
    kinds = {n: type(make_learner(n, H, 100, 1.0, 1e-6, "seeded", 0)) for n in ("lwy25", "lwy25-paper", "gl21")}
    kinds["gl21-paper"] = type(make_learner("gl21-paper", H, 100, 1.0, 1e-6, "seeded", 0))
    assert kinds == {"lwy25": AnytimeLWY25, "lwy25-paper": LWY25, "gl21": AnytimeGL21, "gl21-paper": GL21}
    assert set(kinds) <= set(DEFAULT_LEARNERS)
    for name in ("lwy25", "gl21"):
        assert theorem_bound(name, 2, 10**4, 1.0, 1e-6) == theorem_bound(name + "-paper", 2, 10**4, 1.0, 1e-6)
