"""The audits have power: every deliberately broken twin is caught (ε_lb > claimed ε at confidence 1 − 1e-6),
while the same twin with the bug switched off passes (so the bug, not the twin, is what the audit sees)."""

from functools import partial

import pytest

from littlestone.audit.broken import (
    broken_audits,
    list_broken_audits,
    run_broken_audit,
    twin_above_threshold,
    twin_running_sum_above_threshold,
    twin_bounded_histogram,
    twin_sparse_selection,
    twin_stable_histogram,
)
from littlestone.audit.builtin import sparse_vector_answers
from littlestone.errors import LittlestoneError

FAST_RUNS = {"above_threshold_noise_redrawn": 600_000}


@pytest.mark.parametrize("name", list_broken_audits())
def test_broken_twin_is_caught(name):
    rep = run_broken_audit(name, runs=FAST_RUNS.get(name), seed=20261121)
    assert rep.passed is False, f"{name}: ε_lb = {rep.epsilon_lb:.4f} ≤ claimed {rep.claimed_epsilon}"
    assert rep.epsilon_lb > rep.claimed_epsilon


def _fixed_twin(name, mechanism):
    from dataclasses import replace

    return replace(broken_audits()[name], mechanism=mechanism)


@pytest.mark.parametrize(
    "name, repaired",
    [
        ("stable_histogram_threshold_one_too_low", partial(twin_stable_histogram, epsilon=1.0, delta=0.2)),
        ("stable_histogram_half_noise", partial(twin_stable_histogram, epsilon=2.0, delta=0.01)),
        ("bounded_histogram_half_noise", partial(twin_bounded_histogram, epsilon=2.0, delta=0.01)),
        ("sparse_selection_without_bottom", partial(twin_sparse_selection, epsilon=1.0, delta=0.1, s=1)),
        (
            "running_sum_above_threshold_noise_redrawn",
            partial(twin_running_sum_above_threshold, threshold=5.0, epsilon=1.0, redraw=False),
        ),
        (
            "sparse_vector_epsilon_not_split",
            partial(sparse_vector_answers, threshold=0.0, epsilon=2.0, positives=30, epsilon_factor=1.0),
        ),
    ],
)
def test_twin_with_the_bug_switched_off_passes(name, repaired):
    rep = _fixed_twin(name, repaired).run(seed=5)
    assert rep.passed, f"repaired {name}: ε_lb = {rep.epsilon_lb:.4f}"


@pytest.mark.slow
def test_above_threshold_twin_without_redraw_passes():
    rep = _fixed_twin(
        "above_threshold_noise_redrawn", partial(twin_above_threshold, threshold=0.0, epsilon=1.0, redraw=False)
    ).run(seed=5)
    assert rep.passed and rep.epsilon_lb > 0.5


def test_unknown_twin():
    with pytest.raises(LittlestoneError, match="unknown broken twin"):
        run_broken_audit("laplace")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_broken_twin_is_caught_for_other_seeds(seed):
    for name in list_broken_audits():
        rep = run_broken_audit(name, seed=seed)
        assert rep.passed is False, f"{name} (seed {seed}): ε_lb = {rep.epsilon_lb:.4f}"
