"""Every mechanism of littlestone.privacy passes its audit on adversarial neighbours at confidence 1 − 1e-6."""

import pytest

from littlestone.audit import builtin_audits, list_builtin_audits, run_builtin_audit
from littlestone.errors import LittlestoneError

NAMES = list_builtin_audits()
#: end-to-end GGKM21 estimators (~20-40 ms per fit): their release is constant on honest runs, a few runs suffice
ESTIMATOR_RELEASES = {"agnostic_proper_release", "ggkm21_labels_declared", "polypriproplearn_release"}


def test_every_privacy_mechanism_has_an_audit():
    expected = [
        "laplace",
        "exponential",
        "report_noisy_max",
        "stable_histogram",
        "bounded_histogram",
        "above_threshold",
        "sparse_selection",
        "binary_mechanism",
        "subsampled",
        "sparse_vector",
        "running_sum_above_threshold",
        "generic_learner",
    ]
    for mechanism in expected:
        assert any(name.startswith(mechanism) for name in NAMES), mechanism
    for audit in builtin_audits().values():
        assert audit.description and audit.D != audit.D_prime


@pytest.mark.parametrize("name", NAMES)
def test_builtin_audit_passes_on_the_seeded_backend(name):
    runs = 500 if name == "generic_learner" else None  # end-to-end learner: ~3 ms per fit; more runs in the slow test
    runs = 60 if name in ESTIMATOR_RELEASES else runs
    rep = run_builtin_audit(name, runs=runs, seed=20261121)
    assert rep.confidence == pytest.approx(1 - 1e-6)
    assert rep.passed, f"{name}: ε_lb = {rep.epsilon_lb:.4f} > claimed {rep.claimed_epsilon} on event {rep.event}"
    assert rep.delta == rep.claimed_delta and 0.0 <= rep.delta_lb <= rep.claimed_delta + 1e-12


@pytest.mark.parametrize("name", ["laplace", "stable_histogram_new_item", "bounded_histogram_at_edge"])
def test_builtin_audit_passes_on_the_secure_opendp_backend(name):
    rep = run_builtin_audit(name, runs=1000, randomness="secure")
    assert rep.passed and rep.randomness == "secure"


def test_tight_pairs_show_real_leakage():
    """The audits have something to find: the Laplace and subsampling audits certify most of the claimed ε."""
    assert run_builtin_audit("laplace", seed=1).epsilon_lb > 0.6
    sub = run_builtin_audit("subsampled_laplace", seed=1)
    assert sub.claimed_epsilon == pytest.approx(1.4338, abs=1e-3) and sub.epsilon_lb > 0.9


def test_seed_none_and_unknown_names():
    assert run_builtin_audit("laplace", runs=500, seed=None).seed is not None
    with pytest.raises(LittlestoneError, match="unknown built-in audit 'nope'.*laplace"):
        run_builtin_audit("nope")


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_builtin_audit_passes_with_many_runs(name):
    runs = min(200_000, 20 * builtin_audits()[name].runs)  # the end-to-end learner audit runs ~100× slower
    runs = 2000 if name in ESTIMATOR_RELEASES else runs
    rep = run_builtin_audit(name, runs=runs, seed=7, jobs=2)
    assert rep.passed, f"{name}: ε_lb = {rep.epsilon_lb:.4f} > claimed {rep.claimed_epsilon}"


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_builtin_audit_passes_on_opendp_with_more_runs(name):
    rep = run_builtin_audit(name, runs=min(5000, builtin_audits()[name].runs), randomness="secure")
    assert rep.passed, f"{name} (OpenDP): ε_lb = {rep.epsilon_lb:.4f} > claimed {rep.claimed_epsilon}"
