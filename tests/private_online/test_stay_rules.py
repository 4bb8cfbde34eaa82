"""Issue 34: the stay rules of the segment learners — BisectAT's margin on the released s + Z, ListAT's optional
stay check, IntervalsAT's "stay" candidate — and the theory bounds they keep (docs/derivations.md, "Stay rules")."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone.bounds.segment_learners import bisectat_bound
from littlestone.classes import Intervals
from littlestone.classes.thresholds import Thresholds
from littlestone.online import DisagreementSeeking, play
from littlestone.online.released import LateCommitment
from littlestone.private_online import BisectAT, IntervalsAT, ListAT
from littlestone.private_online.bisect_at import practical_margin, practical_tau, stay_odds, stay_or_move
from littlestone.private_online.list_at import stays_on


def test_stay_or_move_is_a_margin_on_the_released_value():
    assert [stay_or_move(v, 3.0) for v in (-4, -3, 0, 3, 4)] == [True, False, False, False, True]
    assert all(stay_or_move(v, 0.0) for v in (-1, 0, 1))  # margin 0: the sign rule (always move)
    assert stays_on(5, 5.0) and not stays_on(6, 5.0)


def test_bisect_stays_on_the_node_when_the_released_value_is_inside_the_margin():
    L = BisectAT(Thresholds(2**20), T=10**4, epsilon=1.0, backend="seeded", seed=0, stay_margin=10**6)
    h0, iv = L.hypothesis(), L.interval
    L.run(np.full(3000, 0), np.ones(3000, dtype=int))  # x = 0 labelled 1: a mistake of h_m every round
    st = L.state()
    assert st["segments"] > 1 and st["stays"] == st["segments"] - 1 and L.interval == iv and L.hypothesis() == h0
    M = BisectAT(Thresholds(2**20), T=10**4, epsilon=1.0, backend="seeded", seed=0, stay_margin=0)
    M.run(np.full(3000, 0), np.ones(3000, dtype=int))
    assert M.state()["stays"] == 0 and M.interval != iv  # margin 0: every ⊤ moves


def test_practical_margin_and_tau():
    for L in (4, 20, 60):
        e_s = 0.5
        M = practical_margin(e_s, L)
        assert M == pytest.approx(2 / e_s * np.log(stay_odds(L)))
        assert practical_tau(0.5, e_s, 10**6, L) >= M + 2 / e_s * np.log(4) - 1e-9  # a ⊤ at count ≈ τ rarely stays
    assert stay_odds(3) == 1.0 and stay_odds(60) == 16.0  # no stay rule on ≤ 3 levels
    assert BisectAT(Thresholds(8), T=100, epsilon=1.0, backend="seeded", seed=0).stay_margin == 0.0
    assert BisectAT(Thresholds(2**60), T=100, epsilon=1.0, backend="seeded", seed=0).stay_margin > 0
    assert BisectAT(Thresholds(2**60), T=100, epsilon=1.0, backend="seeded", seed=0, setting="theory").stay_margin == 0


def test_bisect_bound_with_a_margin_adds_it_per_segment():
    a, b = bisectat_bound(2**20, 10**5, 1.0), bisectat_bound(2**20, 10**5, 1.0, margin=7.0)
    assert b.C == pytest.approx(a.C + 7.0) and b.tau == pytest.approx(a.tau + 7.0)
    assert b.per_segment == pytest.approx(a.per_segment + 7, abs=1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bisect_theory_with_a_margin_stays_under_its_bound(seed):
    H = Thresholds(2**12)
    L = BisectAT(H, T=4000, epsilon=1.0, backend="seeded", seed=seed, setting="theory", stay_margin=5.0)
    m = play(L, LateCommitment(H, seed=seed), T=4000).mistakes
    assert 0 < m <= L.mistake_bound()
    assert L.mistake_bound() == bisectat_bound(2**12 + 1, 4000, 1.0, epsilon_at=L.epsilon_at, margin=5.0).mistakes


def test_listat_stay_check_composes_and_stays():
    L = ListAT(Thresholds(8), T=10**4, epsilon=1.0, backend="seeded", seed=0, stay_check=True)
    assert L.epsilon_at + L.epsilon_check == pytest.approx(1.0)
    assert L.privacy().epsilon == pytest.approx(1.0)
    assert L.check_mechanism.epsilon == pytest.approx(L.epsilon_check) and L.check_mechanism.sensitivity == 1
    # the target listed first (h_0 = 1[x ≥ 0] on 0..7 labels every point 1); τ = 2: false ⊤s at count 0 are
    # frequent, and each leaves only when 0 + Z > ln(16)/ε_check (probability 1/32): almost all stay
    S = ListAT(Thresholds(8), T=10**4, epsilon=1.0, backend="seeded", seed=0, setting=2.0, stay_check=True)
    S.run(np.arange(10**4) % 8, np.ones(10**4, dtype=int))
    tops, stays = S.state()["segments"] - 1, S.state()["stays"]
    assert tops > 50 and stays >= 0.9 * tops
    with pytest.raises(Exception, match="theory"):
        ListAT(Thresholds(8), T=100, epsilon=1.0, backend="seeded", seed=0, setting="theory", stay_check=True)
    # off by default: one mechanism per segment, the whole ε
    D = ListAT(Thresholds(8), T=100, epsilon=1.0, backend="seeded", seed=0)
    assert D.check_mechanism is None and D.at_mechanism.epsilon == 1.0


def test_intervals_stay_candidate_score():
    I = IntervalsAT(Intervals(2**10), T=1000, epsilon=1.0, backend="seeded", seed=0)
    assert len(I.move_scores()) == 6 and I.move_scores()[-1] == pytest.approx(I.params.stay_score)
    I._count, I._kinds[:] = 10, [10, 0, 0, 0, 0]
    assert I.move_scores()[-1] == pytest.approx(I.params.stay_score - 10.0)
    T = IntervalsAT(Intervals(2**10), T=1000, epsilon=1.0, backend="seeded", seed=0, setting="theory")
    assert len(T.move_scores()) == 5  # the theory setting's selection is the proved one


@pytest.mark.parametrize("seed", [0, 1])
def test_intervals_theory_under_its_bound_small_T(seed):
    H = Intervals(2**8)
    I = IntervalsAT(H, T=3000, epsilon=1.0, backend="seeded", seed=seed, setting="theory")
    m = play(I, DisagreementSeeking(H, seed=seed), T=3000).mistakes
    assert m <= I.bound.mistake_bound
