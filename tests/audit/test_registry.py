"""Issue 10 item 1: one audit registry; every twin is a subclass of its honest mechanism's class that overrides
__call__ only and keeps the claim, and shares its honest audit's set-up."""

import inspect

import pytest

from littlestone.audit import all_audits, broken_audits, builtin_audits
from littlestone.audit.registry import declared
from littlestone.privacy import Mechanism

TWINS = list(broken_audits())


def test_one_registry_holds_both_views():
    everything = all_audits()
    assert set(everything) == set(builtin_audits()) | set(broken_audits())
    assert not set(builtin_audits()) & set(broken_audits())
    assert all(isinstance(a.mechanism, Mechanism) for a in everything.values())
    assert [t.name for _, twins in declared() for t in twins] == TWINS


@pytest.mark.parametrize("name", TWINS)
def test_twin_is_a_subclass_overriding_call_and_keeping_the_claim(name):
    twin = broken_audits()[name]
    honest = builtin_audits()[twin.twin_of]
    honest_cls, twin_cls = type(honest.mechanism), type(twin.mechanism)
    assert issubclass(twin_cls, honest_cls) and twin_cls is not honest_cls
    assert "__call__" in vars(twin_cls)
    for cls in twin_cls.__mro__[: twin_cls.__mro__.index(honest_cls)]:
        assert "privacy" not in vars(cls) and "resolve" not in vars(cls), f"{cls.__name__} changes the claim"
    for kind in ("seeded", "secure"):
        # the claim is the honest class's claim at the twin's parameters
        assert twin.claim(kind) == honest_cls.privacy(twin.mechanism.resolve(kind == "secure"))
    assert twin.broken and not honest.broken


@pytest.mark.parametrize("name", TWINS)
def test_twin_shares_the_set_up_it_does_not_override(name):
    twin = broken_audits()[name]
    honest = builtin_audits()[twin.twin_of]
    shared = [
        f
        for f in ("D", "D_prime", "featurize", "runs", "randomness", "events", "extra")
        if getattr(twin, f) == getattr(honest, f)
    ]
    assert "randomness" in shared and "extra" in shared  # a twin runs on its honest audit's backend


def test_auditor_takes_the_mechanism_and_reads_its_claim():
    from littlestone.audit import audit_mechanism

    audit = builtin_audits()["stable_histogram_new_item"]
    signature = inspect.signature(audit_mechanism)
    assert list(signature.parameters)[:3] == ["mechanism", "D", "D_prime"]
    rep = audit_mechanism(audit.mechanism, audit.D, audit.D_prime, runs=500, seed=0, featurize=audit.featurize)
    claim = audit.claim("seeded")
    assert (rep.claimed_epsilon, rep.claimed_delta, rep.delta) == (claim.epsilon, claim.delta, claim.delta)
