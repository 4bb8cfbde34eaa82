"""Black-box privacy auditing: empirical lower bounds on (ε, δ) and audits of every littlestone.privacy mechanism.

  auditor.py         audit_mechanism, AuditReport (select an event on one batch, certify it on a fresh one)
  events.py          candidate distinguishing events (half-lines, likelihood-ratio sets, user events)
  clopper_pearson.py exact one-sided binomial bounds
  spec.py            BuiltinAudit (a mechanism object — the claim is read from it — a neighbouring pair, a set-up)
                     and Declared (an honest audit with its broken twins): what an audit module declares
  builtin.py         adapter mechanisms for learners, features of releases, neighbouring pairs (re-exports spec)
  broken.py          broken twins: subclasses of the honest mechanisms overriding __call__, keeping the claim
  registry.py        the one registry: each honest audit declared with its twins, sharing one set-up; the
                     public views builtin_audits() / broken_audits() / run_builtin_audit() / run_broken_audit()
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

Adding audits (registration runs one way: the registry imports the audit modules, no module imports it back;
tests/audit/test_audit_import_graph.py fails on an import cycle in this package):

1. write ``audit/<topic>.py`` importing ``BuiltinAudit`` / ``Declared`` from ``.spec`` (or ``.builtin``, which
   re-exports them with the adapters) — never ``.registry`` or the package ``littlestone.audit``;
2. define ``def <topic>_audits() -> list[Declared]`` returning ``(honest, [honest.twin(...), ...])`` pairs;
3. add two lines at the end of ``registry._declared()``: ``from .<topic> import <topic>_audits`` and
   ``out.extend(<topic>_audits())``. ``littlestone audit --all`` / ``--broken --all`` then list them.
"""

from .auditor import AuditReport, audit_mechanism
from .events import Event
from .registry import (
    all_audits,
    broken_audits,
    builtin_audits,
    list_broken_audits,
    list_builtin_audits,
    run_broken_audit,
    run_builtin_audit,
)
from .spec import BuiltinAudit, Declared

__all__ = [
    "AuditReport",
    "BuiltinAudit",
    "Declared",
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
