"""Privacy claims as objects: a mechanism carries its claim (ε, δ, neighbouring relation), learners compose them.

The OpenDP idea of a measurement with its privacy map, in our terms (issue 10 item 1):

* :class:`PrivacyClaim` — (ε, δ) under a neighbouring relation; frozen, data-free; unpacks as ``eps, delta = claim``.
* :class:`Mechanism` — parameters validated once in ``__init__``; :meth:`Mechanism.privacy` is pure (reads only
  parameters); ``mechanism(data, backend=...)`` runs it. A broken twin for an audit is a subclass that overrides
  ``__call__`` and keeps the claim.
* :func:`compose` — basic (Dwork–Roth Thm 3.16), advanced (heterogeneous, DRV10 Thm III.3; Dwork–Roth Thm 3.20 when
  the parts are equal) or the better of both; :func:`compose_repeated` — k runs of one mechanism, in closed form;
  :func:`parallel_compose` — runs on disjoint parts of the data (the split states it); :func:`subsampled` —
  amplification by subsampling (BBG18 Thm 9).
* ``PrivacyBudget.charge(mechanism)`` charges a mechanism's claim.

Every mechanism of this package is a class in the module named after its idea (``LaplaceMechanism`` in laplace.py,
``StableHistogram`` in stable_histogram.py, …) that holds the implementation; the module functions
(``laplace_mechanism``, ``stable_histogram``, …) are thin wrappers that build the object and call it, so a budget is
charged from ``privacy()`` — one place for each claim — and a learner's claim is computed from its parts.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import PrivacyParameterError
from .composition import basic_composition, heterogeneous_advanced_composition
from .params import check_delta

#: neighbouring relations a claim can be stated under
RELATIONS = ("replace-one", "add/remove", "replace-one-user", "add/remove-user", "replace-one-round")


def _check_relation(relation: str) -> str:
    if relation not in RELATIONS:
        raise PrivacyParameterError(f"relation must be one of {', '.join(RELATIONS)}; got {relation!r}")
    return relation


@dataclass(frozen=True)
class PrivacyClaim:
    """(ε, δ)-DP under ``relation``; ``what`` names the mechanism, ``parts`` the claims it was composed from."""

    epsilon: float
    delta: float = 0.0
    relation: str = "replace-one"
    what: str = ""
    parts: tuple["PrivacyClaim", ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        eps = float(self.epsilon)
        if not eps >= 0 or eps != eps:
            raise PrivacyParameterError(f"a claim's epsilon must be >= 0, got {self.epsilon!r}")
        object.__setattr__(self, "epsilon", eps)
        object.__setattr__(self, "delta", check_delta(self.delta, "a claim's delta"))
        _check_relation(self.relation)

    def __iter__(self) -> Iterator[float]:
        """``eps, delta = claim`` (the pair a ``spent`` attribute always was)."""
        return iter((self.epsilon, self.delta))

    @property
    def pair(self) -> tuple[float, float]:
        return (self.epsilon, self.delta)

    def __str__(self) -> str:
        name = f"{self.what}: " if self.what else ""
        return f"{name}({self.epsilon:.6g}, {self.delta:.3g})-DP, {self.relation} neighbours"


class Mechanism(ABC):
    """A differentially private mechanism: parameters checked at construction, a data-free claim, a call on data."""

    #: a short name for ledgers and audit tables
    name: str = "mechanism"

    @abstractmethod
    def privacy(self) -> PrivacyClaim:
        """The claim — a function of the parameters only (never of data, never of a run)."""

    @abstractmethod
    def __call__(self, data: Any, *, backend: Any) -> Any:
        """Run the mechanism on ``data`` with noise from ``backend`` (the mechanisms of this package also take
        ``budget=``: the claim is charged after the data are checked and before anything is released)."""

    def resolve(self, backend: Any) -> "Mechanism":
        """This mechanism with every choice that depends on the backend fixed for ``backend`` (a Backend, or a bool:
        whether it is floating-point safe), so that its ``privacy()`` is the exact claim of a run there (e.g. a
        histogram's δ differs for discrete and continuous noise). Default: itself."""
        return self

    def charge_to(self, budget: Any, what: str | None = None) -> None:
        """Charge :meth:`privacy` to ``budget`` (a PrivacyBudget; nothing when None), under ``what`` or the claim's name."""
        if budget is None:
            return
        from .budget import PrivacyBudget

        if not isinstance(budget, PrivacyBudget):
            raise PrivacyParameterError(f"budget must be a PrivacyBudget or None, not {type(budget).__name__}")
        claim = self.privacy()
        budget.charge(claim, what=what or claim.what or self.name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.privacy()})"


def claim_of(part: "Mechanism | PrivacyClaim") -> PrivacyClaim:
    """The claim of a mechanism, or a claim itself."""
    if isinstance(part, PrivacyClaim):
        return part
    if isinstance(part, Mechanism):
        out = part.privacy()
        if not isinstance(out, PrivacyClaim):
            raise PrivacyParameterError(f"{type(part).__name__}.privacy() must return a PrivacyClaim, got {out!r}")
        return out
    raise PrivacyParameterError(f"expected a Mechanism or a PrivacyClaim, got {type(part).__name__}")


def _claims_of(parts: Iterable["Mechanism | PrivacyClaim"], who: str) -> tuple[PrivacyClaim, ...]:
    """The claims of ``parts``: at least one, all under one neighbouring relation."""
    claims = tuple(claim_of(p) for p in parts)
    if not claims:
        raise PrivacyParameterError(f"{who} needs at least one part")
    relations = {c.relation for c in claims}
    if len(relations) > 1:
        raise PrivacyParameterError(
            f"cannot compose claims under different neighbouring relations: {sorted(relations)}"
        )
    return claims


def compose(
    parts: Iterable["Mechanism | PrivacyClaim"],
    how: str = "basic",
    delta_slack: float | None = None,
    *,
    what: str = "composition",
) -> PrivacyClaim:
    """The claim of running ``parts`` one after another, adaptively, on the same data.

    ``how="basic"``: (Σε_i, Σδ_i) (Dwork–Roth Thm 3.16); ``"advanced"``: (√(2 ln(1/δ')Σε_i²) + Σε_i(e^{ε_i}−1),
    Σδ_i + δ') with δ' = ``delta_slack`` (DRV10 Thm III.3, heterogeneous; Dwork–Roth Thm 3.20 for equal parts);
    ``"best"``: whichever of the two has the smaller ε. All parts must share one neighbouring relation."""
    claims = _claims_of(parts, "compose")
    relation = claims[0].relation
    positive = [(c.epsilon, c.delta) for c in claims if c.epsilon > 0]
    zero_delta = sum(c.delta for c in claims if c.epsilon == 0)
    basic = basic_composition(positive) if positive else (0.0, 0.0)

    def advanced(slack: float) -> tuple[float, float]:
        adv = heterogeneous_advanced_composition(positive, slack) if positive else (0.0, 0.0)
        return (adv[0], adv[1] + zero_delta)

    eps, dlt = _pick(how, delta_slack, (basic[0], basic[1] + zero_delta), advanced)
    return PrivacyClaim(eps, dlt, relation, what, claims)


def _pick(how: str, delta_slack: float | None, basic: tuple[float, float], advanced: Any) -> tuple[float, float]:
    """The basic (ε, δ) or the advanced one (``advanced(δ')``) as ``how`` asks ("best": the smaller ε); the
    composed δ must stay below 1."""
    if how not in ("basic", "advanced", "best"):
        raise PrivacyParameterError(f"how must be 'basic', 'advanced' or 'best', got {how!r}")
    if how == "basic":
        if delta_slack is not None:
            raise PrivacyParameterError("delta_slack is only used by advanced composition")
        eps, dlt = basic
    else:
        if delta_slack is None:
            raise PrivacyParameterError("advanced composition needs delta_slack (the δ' it adds)")
        adv = advanced(delta_slack)
        eps, dlt = adv if how == "advanced" or adv[0] < basic[0] else basic
    if not dlt < 1.0:
        raise PrivacyParameterError(f"the composed delta {dlt:.3g} is not below 1: the composition claims nothing")
    return eps, dlt


def compose_repeated(
    part: "Mechanism | PrivacyClaim",
    k: int,
    how: str = "basic",
    delta_slack: float | None = None,
    *,
    what: str = "composition",
) -> PrivacyClaim:
    """:func:`compose` of ``k`` runs of one mechanism (the same claim each), in closed form — (kε, kδ) basic;
    Dwork–Roth Thm 3.20 advanced (kδ + δ'); ``"best"`` the smaller ε — so a learner running one mechanism T times
    states its claim as T runs of that object without building T parts. ``k = 0``: the empty run, (0, 0)."""
    from .composition import advanced_composition

    claim = claim_of(part)
    if isinstance(k, bool) or int(k) != k or int(k) < 0:
        raise PrivacyParameterError(f"the number of runs k must be an integer >= 0, got {k!r}")
    k = int(k)
    label = f"{what}: {k} × {claim.what or 'mechanism'}"
    basic = (k * claim.epsilon, k * claim.delta)

    def advanced(slack: float) -> tuple[float, float]:
        return advanced_composition(claim.epsilon, claim.delta, k, slack) if claim.epsilon > 0 and k else basic

    eps, dlt = _pick(how, delta_slack, basic, advanced)
    return PrivacyClaim(eps, dlt, claim.relation, label, (claim,))


def parallel_compose(
    parts: Iterable["Mechanism | PrivacyClaim"], *, what: str = "parallel composition"
) -> PrivacyClaim:
    """The claim of running ``parts`` on pairwise DISJOINT parts of the data (each record read by one part at most):
    (max ε_i, max δ_i) (parallel composition, McSherry 2009 Thm 4). The caller must make the parts disjoint — the
    split that slices the data states it."""
    claims = _claims_of(parts, "parallel composition")
    return PrivacyClaim(max(c.epsilon for c in claims), max(c.delta for c in claims), claims[0].relation, what, claims)


def subsampled(part: "Mechanism | PrivacyClaim", q: float, *, what: str = "subsampled") -> PrivacyClaim:
    """The claim of running ``part`` on a secret subsample holding each record with probability q (m of n without
    replacement, q = m/n, under replace-one; Poisson under add/remove): (ln(1 + q(e^ε − 1)), qδ) (BBG18 Thm 8, 9).
    The subsample's randomness must be secret (on the secure backend it comes from the OS CSPRNG)."""
    from .subsampling import amplified_epsilon

    inner = claim_of(part)
    if inner.epsilon == 0:
        return PrivacyClaim(0.0, float(q) * inner.delta, inner.relation, what, (inner,))
    eps, dlt = amplified_epsilon(inner.epsilon, inner.delta, q)
    return PrivacyClaim(eps, dlt, inner.relation, what, (inner,))


def floating_point_safe(backend: Any) -> bool:
    """Whether ``backend`` (a Backend, or a bool standing for one) is floating-point safe."""
    return bool(backend) if isinstance(backend, bool) else bool(getattr(backend, "floating_point_safe", False))
