"""What an audit module declares (issue 34 item 6): the audit type and the (honest audit, broken twins) pair.

Registration runs one way: an audit module (``audit/<topic>.py``) imports these types (or
:mod:`~littlestone.audit.builtin`'s adapters, which re-export them) and defines ``<topic>_audits() -> list[Declared]``;
:mod:`littlestone.audit.registry` imports the module and collects its pairs. No audit module imports the registry
(tests/audit/test_audit_import_graph.py: the package has no import cycle).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..privacy import Mechanism, PrivacyClaim
from .auditor import AuditReport, audit_mechanism


@dataclass(frozen=True)
class BuiltinAudit:
    """A mechanism object, an adversarial neighbouring pair (D, D′) and how to audit it; the claim is the mechanism's."""

    name: str
    description: str
    mechanism: Mechanism
    D: Any
    D_prime: Any
    featurize: Callable[[Any], Any] | None = None
    runs: int = 10_000
    randomness: str = "seeded"
    vectorized: bool = False
    events: Sequence[Any] | None = None
    extra: dict = field(default_factory=dict)
    #: a deliberately broken twin (expected verdict: caught), in the one registry (littlestone.audit.registry)
    broken: bool = False
    #: for a twin: the name of the honest audit whose set-up and claim it shares
    twin_of: str | None = None

    def claim(self, kind: str = "seeded") -> PrivacyClaim:
        """The claim audited on backend ``kind`` ("seeded" or "secure"): the mechanism's, fixed for that backend."""
        return self.mechanism.resolve(kind == "secure").privacy()

    def twin(self, name: str, description: str, mechanism: Mechanism, **changes: Any) -> "BuiltinAudit":
        """A broken twin: this audit's set-up (datasets, features, runs, backend) unless ``changes`` say otherwise,
        run with ``mechanism`` — a subclass of this audit's mechanism class that overrides ``__call__`` only."""
        return dataclasses.replace(
            self, name=name, description=description, mechanism=mechanism, broken=True, twin_of=self.name, **changes
        )

    def run(
        self,
        *,
        runs: int | None = None,
        seed: Any = None,
        jobs: int = 1,
        randomness: str | None = None,
        confidence: float = 1 - 1e-6,
    ) -> AuditReport:
        """Audit with δ = the claimed δ; ``.passed`` says whether ε_lb ≤ the claimed ε. An audit of floating-point
        safety (``extra["secure_only"]``) always runs on the secure backend, whatever ``randomness`` says."""
        kind = self.randomness if randomness is None or self.extra.get("secure_only") else randomness
        return audit_mechanism(
            self.mechanism,
            self.D,
            self.D_prime,
            runs=self.runs if runs is None else runs,
            seed=seed,
            jobs=jobs,
            confidence=confidence,
            events=self.events,
            featurize=self.featurize,
            randomness=kind,
            vectorized=self.vectorized,
            name=self.name,
        )


#: an honest audit and its broken twins, as an audit module's ``<topic>_audits()`` returns them (registration order)
Declared = tuple[BuiltinAudit, list[BuiltinAudit]]

__all__ = ["BuiltinAudit", "Declared"]
