"""Privacy claims as objects: a mechanism carries its claim (ε, δ, neighbouring relation), learners compose them.

The OpenDP idea of a measurement with its privacy map, in our terms (issue 10 item 1):

* :class:`PrivacyClaim` — (ε, δ) under a neighbouring relation; frozen, data-free; unpacks as ``eps, delta = claim``.
* :class:`Mechanism` — parameters validated once in ``__init__``; :meth:`Mechanism.privacy` is pure (reads only
  parameters); ``mechanism(data, backend=...)`` runs it. A broken twin for an audit is a subclass that overrides
  ``__call__`` and keeps the claim.
* :func:`compose` — basic (Dwork–Roth Thm 3.16), advanced (heterogeneous, DRV10 Thm III.3; Dwork–Roth Thm 3.20 when
  the parts are equal) or the better of both; :func:`subsampled` — amplification by subsampling (BBG18 Thm 9).
* ``PrivacyBudget.charge(mechanism)`` charges a mechanism's claim.

Every mechanism of this package exists as a class here (the functions of the other modules stay, and the classes
call them), so a learner's claim is computed from its parts, never argued in prose.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import PrivacyParameterError
from .composition import basic_composition, heterogeneous_advanced_composition
from .params import check_delta, check_epsilon, check_sensitivity

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
        """Run the mechanism on ``data`` with noise from ``backend``."""

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


def compose(parts: Iterable["Mechanism | PrivacyClaim"], how: str = "basic", delta_slack: float | None = None,
            *, what: str = "composition") -> PrivacyClaim:
    """The claim of running ``parts`` one after another, adaptively, on the same data.

    ``how="basic"``: (Σε_i, Σδ_i) (Dwork–Roth Thm 3.16); ``"advanced"``: (√(2 ln(1/δ')Σε_i²) + Σε_i(e^{ε_i}−1),
    Σδ_i + δ') with δ' = ``delta_slack`` (DRV10 Thm III.3, heterogeneous; Dwork–Roth Thm 3.20 for equal parts);
    ``"best"``: whichever of the two has the smaller ε. All parts must share one neighbouring relation."""
    claims = tuple(claim_of(p) for p in parts)
    if not claims:
        raise PrivacyParameterError("compose needs at least one part")
    relations = {c.relation for c in claims}
    if len(relations) > 1:
        raise PrivacyParameterError(f"cannot compose claims under different neighbouring relations: {sorted(relations)}")
    relation = claims[0].relation
    positive = [(c.epsilon, c.delta) for c in claims if c.epsilon > 0]
    zero_delta = sum(c.delta for c in claims if c.epsilon == 0)
    if how not in ("basic", "advanced", "best"):
        raise PrivacyParameterError(f"how must be 'basic', 'advanced' or 'best', got {how!r}")
    basic = basic_composition(positive) if positive else (0.0, 0.0)
    basic = (basic[0], basic[1] + zero_delta)
    if how == "basic":
        if delta_slack is not None:
            raise PrivacyParameterError("delta_slack is only used by advanced composition")
        eps, dlt = basic
    else:
        if delta_slack is None:
            raise PrivacyParameterError("advanced composition needs delta_slack (the δ' it adds)")
        adv = heterogeneous_advanced_composition(positive, delta_slack) if positive else (0.0, 0.0)
        adv = (adv[0], adv[1] + zero_delta)
        eps, dlt = adv if how == "advanced" or adv[0] < basic[0] else basic
    if not dlt < 1.0:
        raise PrivacyParameterError(f"the composed delta {dlt:.3g} is not below 1: the composition claims nothing")
    return PrivacyClaim(eps, dlt, relation, what, claims)


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


# --------------------------------------------------------------------------------------------- the mechanisms


class LaplaceMechanism(Mechanism):
    """ε-DP release of a numeric value of L1 sensitivity Δ (Dwork–Roth Thm 3.6); wraps :func:`laplace_mechanism`."""

    name = "laplace mechanism"

    def __init__(self, epsilon: float, sensitivity: float = 1.0):
        self.epsilon = check_epsilon(epsilon)
        self.sensitivity = check_sensitivity(sensitivity)

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, 0.0, "replace-one", self.name)

    def __call__(self, data: Any, *, backend: Any) -> Any:
        from .laplace import laplace_mechanism

        return laplace_mechanism(data, self.sensitivity, self.epsilon, backend=backend)


class ExponentialMechanism(Mechanism):
    """ε-DP choice of an index, P(i) ∝ exp(ε·score_i/(2Δ)) (McSherry–Talwar 2007); ``data`` are the scores."""

    name = "exponential mechanism"

    def __init__(self, epsilon: float, sensitivity: float = 1.0):
        self.epsilon = check_epsilon(epsilon)
        self.sensitivity = check_sensitivity(sensitivity)

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, 0.0, "replace-one", self.name)

    def __call__(self, data: Any, *, backend: Any) -> int:
        from .exponential import exponential_mechanism

        return exponential_mechanism(data, self.epsilon, sensitivity=self.sensitivity, backend=backend)


class ReportNoisyMax(ExponentialMechanism):
    """ε-DP argmax of scores + Exponential(2Δ/ε) (permute-and-flip in law)."""

    name = "report noisy max"

    def __call__(self, data: Any, *, backend: Any) -> int:
        from .exponential import report_noisy_max

        return report_noisy_max(data, self.epsilon, sensitivity=self.sensitivity, backend=backend)


class StableHistogram(Mechanism):
    """(ε, δ)-DP stable histogram (BLM20 Lemma 15; BNS16): ``data`` are the items. The claimed δ is the exact δ of
    the noise used — discrete Laplace when ``discrete`` is True, continuous when False, and the larger of the two
    when None (the backend decides; both are ≤ the requested δ)."""

    name = "stable histogram"

    def __init__(self, epsilon: float, delta: float, *, neighbours: str = "replace", discrete: bool | None = None,
                 n: int | None = None):
        from .histogram_release import _public_n
        from .stable_histogram import calibrated_threshold

        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta, positive=True)
        self.neighbours = neighbours
        self.discrete = None if discrete is None else bool(discrete)
        self.n = _public_n(n)
        variants = (True, False) if self.discrete is None else (self.discrete,)
        self._delta_spent = max(calibrated_threshold(self.epsilon, self.delta, discrete=v, neighbours=neighbours)[1]
                                for v in variants)

    def privacy(self) -> PrivacyClaim:
        relation = "replace-one" if self.neighbours == "replace" else "add/remove"
        return PrivacyClaim(self.epsilon, self._delta_spent, relation, self.name)

    def __call__(self, data: Iterable[Hashable], *, backend: Any) -> Any:
        from .stable_histogram import stable_histogram

        return stable_histogram(data, self.epsilon, self.delta, backend=backend, discrete=self.discrete,
                                neighbours=self.neighbours, n=self.n)


class BoundedHistogram(Mechanism):
    """(ε, δ)-DP histogram with a deterministic error bound (LWY25 Thm 2.6); exact δ as for :class:`StableHistogram`."""

    name = "bounded histogram"

    def __init__(self, epsilon: float, delta: float, *, discrete: bool | None = None, n: int | None = None):
        from .bounded_histogram import truncation_bound
        from .histogram_release import _public_n

        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta, positive=True)
        self.discrete = None if discrete is None else bool(discrete)
        self.n = _public_n(n)
        variants = (True, False) if self.discrete is None else (self.discrete,)
        self._delta_spent = max(truncation_bound(self.epsilon, self.delta, discrete=v)[1] for v in variants)

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, self._delta_spent, "replace-one", self.name)

    def __call__(self, data: Iterable[Hashable], *, backend: Any) -> Any:
        from .bounded_histogram import bounded_histogram

        return bounded_histogram(data, self.epsilon, self.delta, backend=backend, discrete=self.discrete, n=self.n)


class SparseSelection(Mechanism):
    """(ε, δ)-DP choice of an element held by many users, or BOTTOM (GKM20 Lemma 36); ``data`` are the users' lists."""

    name = "sparse selection"

    def __init__(self, epsilon: float, delta: float, max_list_size: int):
        from .sparse_selection import _check_list_size

        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta, positive=True)
        self.max_list_size = _check_list_size(max_list_size)

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, self.delta, "replace-one-user", self.name)

    def __call__(self, data: Any, *, backend: Any) -> Any:
        from .sparse_selection import sparse_selection

        return sparse_selection(data, self.epsilon, self.delta, backend=backend, max_list_size=self.max_list_size)


class BinaryMechanismRelease(Mechanism):
    """ε-DP continual counting (binary mechanism): ``data`` is the stream, the output all T noisy prefix sums."""

    name = "binary mechanism"

    def __init__(self, T: int, epsilon: float, *, sensitivity: float = 1.0, discrete: bool = False):
        from .tree_mechanism import _check_horizon

        self.T = _check_horizon(T)
        self.epsilon = check_epsilon(epsilon)
        self.sensitivity = check_sensitivity(sensitivity)
        self.discrete = bool(discrete)

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, 0.0, "replace-one", self.name)

    def __call__(self, data: Any, *, backend: Any) -> tuple:
        from .tree_mechanism import BinaryMechanism

        stream = list(data)
        if len(stream) != self.T:
            raise PrivacyParameterError(f"binary mechanism: the stream has {len(stream)} values, T = {self.T}")
        bm = BinaryMechanism(self.T, self.epsilon, sensitivity=self.sensitivity, backend=backend,
                             discrete=self.discrete)
        return tuple(bm.step(x) for x in stream)


class AboveThresholdRun(Mechanism):
    """ε-DP AboveThreshold (Dwork–Roth Alg. 1) over a stream of query values: the index of the first ⊤ (−1: none)."""

    name = "AboveThreshold"

    def __init__(self, threshold: float, epsilon: float, *, sensitivity: float = 1.0):
        from .params import _as_float

        self.threshold = _as_float(threshold, "threshold")
        self.epsilon = check_epsilon(epsilon)
        self.sensitivity = check_sensitivity(sensitivity)

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, 0.0, "replace-one", self.name)

    def __call__(self, data: Any, *, backend: Any) -> int:
        from .above_threshold import AboveThreshold

        at = AboveThreshold(self.threshold, self.epsilon, sensitivity=self.sensitivity, backend=backend)
        for i, value in enumerate(data):
            if at.test(value):
                return i
        return -1
