"""Issue 26 hole 2 as an audit: BLM20 on a public dataset B after a run on A in the same checkpoint directory must
not depend on A. The honest library passes (it refuses to resume B from A's checkpoint), the twin whose manifest does
not bind the data is caught, and the honest audit itself fails when the library's data binding is switched off."""

from dataclasses import replace

from littlestone.audit import builtin_audits, run_broken_audit
from littlestone.audit.checkpoint_reuse import CheckpointReuse, neighbouring_pair, public_dataset
from littlestone.pac import checkpoint as ckpt
from littlestone.privacy import make_backend


def test_the_pair_moves_one_g_output_and_b_is_refused_a_checkpoint():
    mech = CheckpointReuse()
    d, dp = neighbouring_pair()
    a, a2 = (mech.learn(x, None, make_backend("seeded", seed=1)) for x in (d, dp))
    assert len(public_dataset()[1]) == len(d[1]) == len(dp[1])
    assert sum(x != y for x, y in zip(d[1], dp[1])) == 1  # neighbours: one label
    assert a.released != a2.released  # with the same noise, A's and A′'s histograms differ (one G output moved)


def test_honest_passes_and_twin_is_caught():
    honest = builtin_audits()["checkpoint_bound_to_data"].run(seed=3)
    assert honest.passed and honest.epsilon_lb == 0.0
    twin = run_broken_audit("checkpoint_resumed_with_other_data", seed=3)
    assert twin.passed is False and twin.epsilon_lb > 1.0


def test_honest_audit_fails_without_the_data_binding(monkeypatch):
    # the library mutated: the manifest binds no data (every dataset has one identity) → B resumes A's chunks
    monkeypatch.setattr(ckpt, "data_identity", lambda source, stop, batches=(): {"kind": "none"})
    audit = replace(builtin_audits()["checkpoint_bound_to_data"], mechanism=CheckpointReuse())  # fresh directories
    rep = audit.run(seed=3)
    assert rep.passed is False
