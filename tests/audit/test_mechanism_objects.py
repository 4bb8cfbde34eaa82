"""Issue 10 item 1: mechanisms as objects carrying their claim; the auditor reads the claim from the object."""

import math

import pytest

from littlestone.audit import audit_mechanism
from littlestone.errors import BudgetExceededError, PrivacyParameterError
from littlestone.privacy import (
    BoundedHistogram,
    ExponentialMechanism,
    LaplaceMechanism,
    Mechanism,
    PrivacyBudget,
    PrivacyClaim,
    SeededBackend,
    StableHistogram,
    compose,
    subsampled,
)
from littlestone.privacy.stable_histogram import calibrated_threshold


class HalfNoiseLaplace(LaplaceMechanism):
    """A broken twin: overrides __call__ (half the noise), keeps the claim."""

    def __call__(self, data, *, backend):
        return float(data) + float(backend.laplace(0.5 / self.epsilon))


def test_claims_are_pure_and_composed():
    lap = LaplaceMechanism(0.5)
    assert lap.privacy() == lap.privacy() == PrivacyClaim(0.5, 0.0, "replace-one", "laplace mechanism")
    hist = StableHistogram(0.5, 1e-6, discrete=True)
    assert hist.privacy().delta == calibrated_threshold(0.5, 1e-6, discrete=True)[1]
    c = compose([lap, hist])
    eps, delta = c
    assert eps == pytest.approx(1.0) and delta == hist.privacy().delta and len(c.parts) == 2
    many = [ExponentialMechanism(0.05)] * 400
    adv, basic = compose(many, "advanced", delta_slack=1e-6), compose(many)
    assert basic.epsilon == pytest.approx(20.0) and adv.epsilon < basic.epsilon and adv.delta == pytest.approx(1e-6)
    assert compose(many, "best", delta_slack=1e-6) == adv
    sub = subsampled(lap, 0.1)
    assert sub.epsilon == pytest.approx(math.log1p(0.1 * math.expm1(0.5)))


def test_composition_checks():
    with pytest.raises(PrivacyParameterError, match="relations"):
        compose([LaplaceMechanism(1.0), StableHistogram(1.0, 0.1, neighbours="add_remove")])
    with pytest.raises(PrivacyParameterError):
        compose([])
    with pytest.raises(PrivacyParameterError, match="delta_slack"):
        compose([LaplaceMechanism(1.0)], "advanced")
    with pytest.raises(PrivacyParameterError):
        LaplaceMechanism(-1.0)  # parameters validated at construction
    with pytest.raises(PrivacyParameterError):
        BoundedHistogram(1.0, 0.0)


def test_budget_charges_mechanisms():
    budget = PrivacyBudget(1.0, 1e-5)
    budget.charge(LaplaceMechanism(0.4))
    budget.charge(compose([ExponentialMechanism(0.3), StableHistogram(0.2, 1e-6)]))
    assert [c.what for c in budget.ledger] == ["laplace mechanism", "composition"]
    with pytest.raises(BudgetExceededError):
        budget.charge(LaplaceMechanism(0.2))


def test_mechanism_objects_run():
    be = SeededBackend(0)
    assert isinstance(LaplaceMechanism(1.0)(3.0, backend=be), float)
    assert ExponentialMechanism(1.0)([0.0, 10.0, 0.0], backend=be) in (0, 1, 2)
    assert "a" in StableHistogram(1.0, 0.01)(["a"] * 50, backend=be)
    assert isinstance(LaplaceMechanism(1.0), Mechanism)


def test_auditor_reads_the_claim_and_catches_a_subclass_twin():
    real = audit_mechanism(LaplaceMechanism(1.0, sensitivity=1.0), 5.0, 4.0, runs=20_000, seed=1)
    assert real.claimed_epsilon == 1.0 and real.passed
    twin = audit_mechanism(HalfNoiseLaplace(1.0), 5.0, 4.0, runs=20_000, seed=1)
    assert twin.claimed_epsilon == 1.0 and twin.passed is False
