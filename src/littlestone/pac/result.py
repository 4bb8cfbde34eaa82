"""One result type for private fits (issue 10 item 3): the claim (``spent``), the backend, stage sizes, a summary.

What a private learner reports is its privacy *claim*, computed from its parameters by composing its mechanisms
(:mod:`littlestone.privacy.mechanism`) — never a figure that depends on the data (issue 9 item 5). A fit on the
seeded backend is reproducible and NOT private (NumPy noise, not floating-point safe, seed known): ``private`` is False
and every summary says so.
"""

from __future__ import annotations

from typing import Any

#: the label every output of a seeded (reproducible) run carries
NOT_PRIVATE_SEEDED = "not private: seeded backend"


def backend_note(backend: str) -> str:
    """'' for the secure backend, the not-private label for any other."""
    return "" if backend == "opendp" else NOT_PRIVATE_SEEDED


class PrivateFitResult:
    """Mixin of the result dataclasses of private fits. Subclasses are frozen dataclasses with fields ``claim``
    (a :class:`~littlestone.privacy.PrivacyClaim`), ``spent`` (= ``claim.pair``) and ``backend`` (its name)."""

    claim: Any
    spent: tuple[float, float]
    backend: str

    @property
    def private(self) -> bool:
        """Whether the run's noise came from the secure backend (a seeded run is reproducible, not private)."""
        return self.backend == "opendp"

    @property
    def privacy_note(self) -> str:
        return backend_note(self.backend)

    def stage_sizes(self) -> dict[str, int]:
        """Examples used by each stage of the learner (public sizes)."""
        return {}

    def claim_line(self) -> str:
        note = f" [{self.privacy_note}]" if self.privacy_note else ""
        return (
            f"privacy claim (ε, δ) = ({self.spent[0]:.6g}, {self.spent[1]:.3g}), {self.claim.relation} neighbours{note}"
        )

    def summary(self) -> str:
        sizes = ", ".join(f"{k} {v:,}" for k, v in self.stage_sizes().items())
        return self.claim_line() + (f"\n  stage sizes: {sizes}" if sizes else "")
