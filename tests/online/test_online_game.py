"""The game runner and adversaries: protocol order, transcripts, seeds, parallel runs."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone import FiniteClass, Thresholds
from littlestone.classes import Threshold
from littlestone.errors import DomainError, EmptyDataError, LabelError, LittlestoneError, NotRealizableError
from littlestone.online import (
    SOA,
    AdaptiveAdversary,
    FixedSequence,
    GameResult,
    Halving,
    IIDRealizable,
    TreeAdversary,
    play,
    play_many,
)


def test_game_result_transcript():
    res = play(SOA(Thresholds(10)), FixedSequence([5, 2, 8, 5], [1, 0, 1, 1]))
    assert isinstance(res, GameResult) and res.T == 4
    assert res.examples == [(5, 1), (2, 0), (8, 1), (5, 1)]
    assert res.predictions.tolist() == [0, 0, 1, 1]
    assert res.cumulative_mistakes.tolist() == [1, 1, 1, 1] and res.mistakes == 1
    with pytest.raises(ValueError):
        res.labels[0] = 0  # read-only transcript
    with pytest.raises(AttributeError):
        res.points = ()  # type: ignore[misc]


def test_fixed_sequence_with_plus_minus_one_labels():
    soa = SOA(Thresholds(10))
    res = play(soa, FixedSequence([5, 2, 8], [1, -1, 1]))
    assert res.labels.tolist() == [1, 0, 1]
    assert soa.label_coding == (-1, 1) and soa.predict_one(1) == -1


def test_adversary_sees_prediction_only_after_it_is_made():
    seen = []

    def fn(t, history, rng):
        seen.append(history)
        return t % 4, (lambda p: 1 - p if t < 2 else p)

    learner = SOA(FiniteClass(np.array([[0, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 1], [1, 0, 1, 0]])), extended=True)
    res = play(learner, AdaptiveAdversary(fn), 6)
    assert res.mistake_rounds.tolist() == [0, 1]
    assert (
        len(seen) == 6
        and seen[0] == ()
        and seen[2][:2]
        == tuple((x, p, y) for x, p, y in zip(res.points[:2], res.predictions[:2].tolist(), res.labels[:2].tolist()))
    )


def test_adaptive_adversary_fixed_labels_and_validation():
    adv = AdaptiveAdversary(lambda t, h, rng: (t, -1), hypothesis_class=Thresholds(5))
    res = play(SOA(Thresholds(5)), adv, 5)
    assert res.labels.tolist() == [0] * 5
    with pytest.raises(DomainError):
        play(SOA(Thresholds(5)), adv, 6)
    with pytest.raises(LittlestoneError, match="pair"):
        play(SOA(Thresholds(5)), AdaptiveAdversary(lambda t, h, rng: 3), 1)
    with pytest.raises(LabelError):
        play(SOA(Thresholds(5)), AdaptiveAdversary(lambda t, h, rng: (1, 2)), 1)


def test_iid_realizable_seeds_and_distribution():
    H = Thresholds(1000)
    target = Threshold(400)
    a = play(SOA(H), IIDRealizable(H, target, lambda r: int(r.integers(0, 1000))), 100, seed=3)
    b = play(SOA(H), IIDRealizable(H, target, lambda r: int(r.integers(0, 1000))), 100, seed=3)
    c = play(SOA(H), IIDRealizable(H, target, lambda r: int(r.integers(0, 1000))), 100, seed=4)
    assert a.points == b.points and a.points != c.points
    own = IIDRealizable(H, target, [1, 500, 999], probs=[0.0, 1.0, 3.0], seed=9)
    d = play(SOA(H), own, 200, seed=1)
    assert set(d.points) == {500, 999} and d.points == play(SOA(H), own, 200, seed=2).points
    assert all(y == target(x) for x, y in d.examples) and d.mistakes <= 1
    dist = IIDRealizable(H, target, {1: 0.0, 500: 1.0, 999: 3.0}, seed=9)
    assert play(SOA(H), dist, 200).points == d.points


def test_iid_realizable_bad_input():
    H = Thresholds(10)
    with pytest.raises(NotRealizableError):
        IIDRealizable(H, Threshold(50), range(10))
    with pytest.raises(DomainError):
        IIDRealizable(H, Threshold(5), [1, 10])
    with pytest.raises(EmptyDataError):
        IIDRealizable(H, Threshold(5), [])
    with pytest.raises(LittlestoneError, match="probs"):
        IIDRealizable(H, Threshold(5), [1, 2], probs=[1.0, -1.0])
    with pytest.raises(LittlestoneError, match="probs"):
        IIDRealizable(H, Threshold(5), {1: 0.5, 2: 0.5}, probs=[1.0, 1.0])
    with pytest.raises(DomainError):
        play(SOA(H), IIDRealizable(H, Threshold(5), lambda r: 11), 1)


def test_play_argument_errors():
    H = Thresholds(10)
    with pytest.raises(LittlestoneError, match="T"):
        play(SOA(H), TreeAdversary(H))
    with pytest.raises(LittlestoneError, match="only 2"):
        play(SOA(H), FixedSequence([1, 2], [0, 1]), 3)
    with pytest.raises(LittlestoneError):
        play(SOA(H), TreeAdversary(H), -1)
    with pytest.raises(TypeError):
        play(object(), TreeAdversary(H), 3)
    with pytest.raises(TypeError):
        play(SOA(H), [(1, 0)], 3)

    class Bad:
        def predict_one(self, x):
            return 0.5

        def learn_one(self, x, y):
            return self

    with pytest.raises(LabelError, match="predicted 0.5"):
        play(Bad(), TreeAdversary(H), 3)
    with pytest.raises(EmptyDataError):
        FixedSequence([], [])
    with pytest.raises(LittlestoneError):
        FixedSequence([1, 2], [0])
    with pytest.raises(LabelError):
        FixedSequence([1, 2], [0, 2])


def test_play_many_same_seed_same_results_for_any_jobs():
    H = Thresholds(2**40)

    def make_adv():
        return IIDRealizable(H, Threshold(2**39 + 17), lambda r: int(r.integers(0, 2**40)))

    one = play_many(lambda: SOA(H), make_adv, 60, runs=4, seed=12, jobs=1)
    two = play_many(lambda: SOA(H), make_adv, 60, runs=4, seed=12, jobs=2)
    assert [r.points for r in one] == [r.points for r in two]
    assert [r.mistakes for r in one] == [r.mistakes for r in two]
    assert len({r.points for r in one}) == 4  # runs are independent


def test_tree_adversary_restarts_per_game_and_ldim_zero_classes():
    H = FiniteClass(np.array([[0, 1, 1]]))
    adv = TreeAdversary(H)
    res = play(Halving(H), adv, 3)
    assert res.mistakes == 0 and res.labels.tolist() == [0, 0, 0]
    F = FiniteClass(np.eye(6, dtype=int))
    adv = TreeAdversary(F)
    assert play(SOA(F), adv, 5).mistakes == 1 and play(SOA(F), adv, 5).mistakes == 1
