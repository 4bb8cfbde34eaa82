"""LWY25 Def. 2.4 game: the view, one special round; honest learners pass the very games their twins fail (the
twin audits themselves run in tests/audit/test_broken.py, the honest ones in tests/audit/test_builtin.py)."""

from __future__ import annotations

import pytest

from littlestone.audit.adaptive_game import (
    AnytimeGL21ExactHistogram,
    first_h1_then_mistakes,
    play_adaptive_game,
    released_hypotheses,
    special_first_then_mistakes,
)
from littlestone.audit import broken_audits, builtin_audits
from littlestone.classes.thresholds import Thresholds
from littlestone.private_online import LWY25, AnytimeGL21, GL21Setting, LWY25Setting

PAIRS = {
    "lwy25_histogram_not_charged": "lwy25_adaptive_game",
    "lwy25_sequence_shared_across_pairs": "lwy25_adaptive_game_n256",
    "gl21_histogram_without_noise": "gl21_adaptive_game",
    "lwy25_anytime_histogram_not_charged": "lwy25_anytime_adaptive_game",
    "lwy25_anytime_restart_reads_previous_segment": "lwy25_anytime_adaptive_game",
    "gl21_anytime_histogram_without_noise": "gl21_anytime_oblivious_game",
}


def test_twins_and_honest_learners_play_the_same_game():
    twins, honest = broken_audits(), builtin_audits()
    for twin, fair in PAIRS.items():
        t, h = twins[twin], honest[fair]
        assert t.mechanism.T == h.mechanism.T and t.twin_of == fair and t.D == h.D and t.D_prime == h.D_prime
        assert t.claim("seeded") == h.claim("seeded")  # the twin keeps the real claim


def test_view_and_single_special_round():
    learner = LWY25(
        Thresholds(2), T=30, epsilon=2.0, delta=1e-3, backend="seeded", seed=0, setting=LWY25Setting(4, 128, 6)
    )
    view = play_adaptive_game(learner, first_h1_then_mistakes, 0, 30)
    assert view[0][0] == 0 and view[0][1] == (1,)
    twice = lambda t, released: ("special", (0, 1), (1, 0))  # noqa: E731
    learner = LWY25(
        Thresholds(2), T=30, epsilon=2.0, delta=1e-3, backend="seeded", seed=0, setting=LWY25Setting(4, 128, 6)
    )
    with pytest.raises(ValueError, match="only one special round"):
        play_adaptive_game(learner, twice, 1, 30)


def _anytime_gl21_game(cls, b, seed):
    learner = cls(
        Thresholds(2),
        T=60,
        epsilon=2.0,
        delta=1e-3,
        backend="seeded",
        seed=seed,
        setting=GL21Setting(2, 1, 0.25, 3, "audit"),
    )
    return learner, play_adaptive_game(learner, special_first_then_mistakes, b, 60)


def test_anytime_gl21_game_restarts_and_shows_the_first_instance():
    """The AnytimeGL21 game is small (first instance: one tree, c = 3; T = 60) and the next instance takes over within
    it (the abort guard fires after some 40 rounds of (0, 1) on the kept hypothesis); the first instance's histogram is
    in view: without noise it releases h_2 = Threshold(2) (only b = 1's special example (1, 0) can make a tree output
    h_2)."""
    restarts, h2_seen = [], 0
    for seed in range(40):
        learner, view = _anytime_gl21_game(AnytimeGL21, 1, seed)
        restarts.append(learner.restarts)
        assert (2,) not in released_hypotheses(view)  # the honest histogram hides the one tree at h_2
        assert learner.instances[0].setting_.k2 == 1 and all(
            inst.setting_.k2 == 2**j for j, inst in enumerate(learner.instances)
        )
        _, broken_view = _anytime_gl21_game(AnytimeGL21ExactHistogram, 1, seed)
        h2_seen += (2,) in released_hypotheses(broken_view)
        _, broken_view0 = _anytime_gl21_game(AnytimeGL21ExactHistogram, 0, seed)
        assert (2,) not in released_hypotheses(broken_view0)
    assert sum(r >= 1 for r in restarts) >= 30 and max(restarts) <= 3
    assert h2_seen >= 10
