"""Black-box privacy auditing: empirical lower bounds on (ε, δ) and audits of every littlestone.privacy mechanism.

  auditor.py         audit_mechanism, AuditReport (select an event on one batch, certify it on a fresh one)
  events.py          candidate distinguishing events (half-lines, likelihood-ratio sets, user events)
  clopper_pearson.py exact one-sided binomial bounds
  builtin.py         BuiltinAudit (a mechanism object — the claim is read from it — a neighbouring pair, a set-up),
                     adapter mechanisms for learners, features of releases, neighbouring pairs
  broken.py          broken twins: subclasses of the honest mechanisms overriding __call__, keeping the claim
  registry.py        the one registry: each honest audit declared with its twins, sharing one set-up
  adaptive_game.py   LWY25 Def. 2.4 games of the private online learners (honest and broken)
  toy.py             randomized response / Laplace count with exactly known ε (validate the auditor)
  estimate.py        expected duration of a batch of audits (costs.py: the measured cost model), rescaled as it runs

Auditing your own mechanism (ε_lb ≤ ε holds with probability ≥ confidence when the mechanism is ε-DP)::

    from littlestone.audit import audit_mechanism
    from littlestone.privacy import laplace_mechanism

    def count(data, backend):
        return laplace_mechanism(sum(data), 1.0, 1.0, backend=backend)

    report = audit_mechanism(count, [1, 1, 0], [1, 0, 0], runs=20_000, seed=0, randomness="seeded",
                             claimed_epsilon=1.0)
    print(report)             # table: event, bounds, ε_lb, verdict, throughput

A :class:`littlestone.privacy.Mechanism` object carries its claim, so the auditor reads it; a broken twin is a
subclass that overrides ``__call__`` and keeps the claim::

    from littlestone.privacy import LaplaceMechanism

    class HalfNoise(LaplaceMechanism):
        def __call__(self, data, *, backend):
            return float(data) + float(backend.laplace(0.5 / self.epsilon))

    audit_mechanism(LaplaceMechanism(1.0), 5.0, 4.0, runs=20_000, seed=1).passed   # True
    audit_mechanism(HalfNoise(1.0), 5.0, 4.0, runs=20_000, seed=1).passed          # False: caught
"""

from .auditor import AuditReport, audit_mechanism
from .broken import broken_audits, list_broken_audits, run_broken_audit
from .builtin import BuiltinAudit, builtin_audits, list_builtin_audits, run_builtin_audit
from .events import Event
from .registry import all_audits

__all__ = [
    "AuditReport",
    "BuiltinAudit",
    "Event",
    "all_audits",
    "audit_mechanism",
    "broken_audits",
    "list_broken_audits",
    "run_broken_audit",
    "builtin_audits",
    "list_builtin_audits",
    "run_builtin_audit",
]
