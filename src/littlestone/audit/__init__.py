"""Black-box privacy auditing: empirical lower bounds on (ε, δ) and audits of every littlestone.privacy mechanism.

  auditor.py         audit_mechanism, AuditReport (select an event on one batch, certify it on a fresh one)
  events.py          candidate distinguishing events (half-lines, likelihood-ratio sets, user events)
  clopper_pearson.py exact one-sided binomial bounds
  builtin.py         the adversarial neighbouring pair and claimed (ε, δ) of every privacy mechanism
  broken.py          deliberately broken twins of the mechanisms (an audit with power must catch them)
  toy.py             randomized response / Laplace count with exactly known ε (validate the auditor)
"""

from .auditor import AuditReport, audit_mechanism
from .broken import broken_audits, list_broken_audits, run_broken_audit
from .builtin import BuiltinAudit, builtin_audits, list_builtin_audits, run_builtin_audit
from .events import Event

__all__ = [
    "AuditReport",
    "BuiltinAudit",
    "Event",
    "audit_mechanism",
    "broken_audits",
    "list_broken_audits",
    "run_broken_audit",
    "builtin_audits",
    "list_builtin_audits",
    "run_builtin_audit",
]
