"""The audits have power: every deliberately broken twin is caught (ε_lb > claimed ε at confidence 1 − 1e-6),
while the same twin with the bug switched off passes (so the bug, not the twin, is what the audit sees)."""

import copy
from dataclasses import replace

import pytest

from littlestone.audit import broken_audits, builtin_audits, list_broken_audits, run_broken_audit
from littlestone.errors import LittlestoneError

FAST_RUNS = {"above_threshold_noise_redrawn": 600_000}
#: twins whose leak shows with small probability, so that the audit needs many end-to-end fits (minutes)
SLOW = {"agnostic_proper_releases_labelling_count"}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in list_broken_audits()]
)
def test_broken_twin_is_caught(name):
    rep = run_broken_audit(name, runs=FAST_RUNS.get(name), seed=20261121)
    assert rep.passed is False, f"{name}: ε_lb = {rep.epsilon_lb:.4f} ≤ claimed {rep.claimed_epsilon}"
    assert rep.epsilon_lb > rep.claimed_epsilon


def _repaired(name):
    """The twin's audit (its set-up, its mechanism's parameters) with the honest class's __call__ put back."""
    twin = broken_audits()[name]
    mechanism = copy.copy(twin.mechanism)
    mechanism.__class__ = type(builtin_audits()[twin.twin_of].mechanism)
    return replace(twin, mechanism=mechanism)


@pytest.mark.parametrize(
    "name",
    [
        "laplace_half_noise",
        "exponential_score_not_halved",
        "stable_histogram_threshold_one_too_low",
        "stable_histogram_half_noise",
        "bounded_histogram_half_noise",
        "sparse_selection_without_bottom",
        "sparse_vector_epsilon_not_split",
        "binary_mechanism_without_level_factor",
        "histogram_first_seen_keys",
        "subsample_not_secret",
        "discrete_laplace_half_noise",
        "private_hedge_exact_distribution",
        "batched_hedge_exact_distribution",
        "private_selection_argmax",
        "algorithm3_labels_inferred",
        "algorithm3_exact_mistakes",
        "gl21_anytime_histogram_without_noise",
        "native_sampler_block_truncated_runs",
        "dyadic_sampler_parameter_rounded_down",
        "step_above_threshold_secure_integer_half_noise",
        "checkpoint_resumed_with_other_data",
        "split_step_reads_neighbour_record",
    ],
)
def test_twin_with_the_bug_switched_off_passes(name):
    rep = _repaired(name).run(seed=5)
    assert rep.passed, f"repaired {name}: ε_lb = {rep.epsilon_lb:.4f}"


@pytest.mark.slow
def test_running_sum_twin_without_redraw_passes():
    rep = replace(_repaired("running_sum_above_threshold_noise_redrawn"), runs=20_000, vectorized=False).run(seed=5)
    assert rep.passed


def test_unknown_twin():
    with pytest.raises(LittlestoneError, match="unknown broken twin"):
        run_broken_audit("laplace")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_broken_twin_is_caught_for_other_seeds(seed):
    for name in list_broken_audits():
        rep = run_broken_audit(name, seed=seed)
        assert rep.passed is False, f"{name} (seed {seed}): ε_lb = {rep.epsilon_lb:.4f}"
