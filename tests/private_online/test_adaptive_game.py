"""LWY25 Def. 2.4 game: the view, one special round; honest learners pass the very games their twins fail (the
twin audits themselves run in tests/audit/test_broken.py, the honest ones in tests/audit/test_builtin.py)."""

from __future__ import annotations

import pytest

from littlestone.audit.adaptive_game import first_h1_then_mistakes, play_adaptive_game
from littlestone.audit.broken import broken_audits
from littlestone.audit.builtin import builtin_audits
from littlestone.classes.thresholds import Thresholds
from littlestone.private_online import LWY25, LWY25Setting

PAIRS = {
    "lwy25_histogram_not_charged": "lwy25_adaptive_game",
    "lwy25_sequence_shared_across_pairs": "lwy25_adaptive_game_n256",
    "gl21_histogram_without_noise": "gl21_adaptive_game",
    "lwy25_anytime_histogram_not_charged": "lwy25_anytime_adaptive_game",
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
