"""Built-in audits: a mechanism object, an adversarial neighbouring pair (D, D′) and the audit's set-up (features,
runs, backend). The claim is read from the mechanism (``mechanism.privacy()``, fixed for the backend the audit runs
on); a broken twin is the same set-up with a subclass of the mechanism that overrides ``__call__`` and keeps the
claim (:meth:`BuiltinAudit.twin`). The audits and twins are declared together in :mod:`littlestone.audit.registry`.

This module re-exports the audit type (:mod:`.spec`) and holds the small adapter mechanisms audits need around the primitives of
:mod:`littlestone.privacy` (a count released by the Laplace mechanism, end-to-end learners), the features of
releases and the neighbouring pairs.
"""

from __future__ import annotations

import dataclasses
import math
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from ..errors import LittlestoneError
from ..privacy import ExponentialMechanism, LaplaceMechanism, Mechanism, PrivacyClaim
from .spec import BuiltinAudit, Declared  # noqa: F401  (re-exported: audit modules import them from here)


# ------------------------------------------------------------------------------------------ adapter mechanisms


class CountLaplace(LaplaceMechanism):
    """The Laplace mechanism releasing the count of a 0/1 dataset (sensitivity 1)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        return super().__call__(float(np.sum(data)), backend=backend, budget=budget)


class GenericLearnerRun(Mechanism):
    """The pure-DP generic learner (littlestone.pac.generic) fitted on ``data`` = (X, y), an end-to-end audit of a
    learner; its claim is the learner's: its one exponential mechanism at ε."""

    name = "generic learner"

    def __init__(self, spec: str, epsilon: float, classes: Any = None):
        self.spec, self.classes = spec, classes
        self.epsilon = ExponentialMechanism(epsilon).epsilon

    def privacy(self) -> PrivacyClaim:
        return dataclasses.replace(ExponentialMechanism(self.epsilon).privacy(), what=self.name)

    def fit(self, data: tuple, backend: Any, classes: Any) -> Any:
        import warnings

        from ..pac.generic import GenericLearnerClassifier

        X, y = data
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = GenericLearnerClassifier(
                _class_from_spec(self.spec), epsilon=self.epsilon, backend=backend, classes=classes
            )
            return est.fit(np.asarray(X), np.asarray(y))

    def __call__(self, data: tuple, *, backend: Any) -> Any:
        """The hypothesis the learner chose."""
        return self.fit(data, backend, self.classes).hypothesis_


class DeclaredLabelCoding(GenericLearnerRun):
    """The label coding (``classes_``) the generic learner reports after fitting (X, y) with declared ``classes``
    (issue 9 item 2: a private learner never reads its labels' coding from the data)."""

    def __call__(self, data: tuple, *, backend: Any) -> Any:
        est = self.fit(data, backend, self.classes)
        return repr([c.item() if isinstance(c, np.generic) else c for c in est.classes_])


class AgnosticRefusal(Mechanism):
    """'refused' or 'ran': whether the agnostic learner (thresholds(8) as an explicit class, the subsample = all
    examples, ε = 4, δ = 10⁻³) refuses for its labelings cap — which it must check on public sizes before any data is
    read (issue 9 item 20). Its claim is the (ε, δ) the learner charges its composed claim against."""

    name = "agnostic learner"
    epsilon, delta = 4.0, 1e-3

    def __init__(self, max_labelings: int):
        self.max_labelings = int(max_labelings)

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, self.delta, "replace-one", self.name)

    def __call__(self, data: tuple, *, backend: Any) -> str:
        from ..pac.agnostic import agnostic_learn

        X, y = data
        try:
            agnostic_learn(
                _finite_thresholds(),
                np.asarray(X),
                np.asarray(y),
                epsilon=self.epsilon,
                delta=self.delta,
                subsample_size=len(y),
                max_labelings=self.max_labelings,
                backend=backend,
                inner_sizes=dict(n_batches=2, aux_size=1, cap=1, n_generic=2),
            )
        except LittlestoneError as exc:
            if "labelings" in str(exc):
                return "refused"
            raise
        return "ran"


@lru_cache(maxsize=1)
def _finite_thresholds() -> Any:
    from ..classes.finite import FiniteClass

    return FiniteClass(np.tril(np.ones((9, 8), dtype=np.uint8), -1), name="thresholds(8) as a matrix")


@lru_cache(maxsize=8)
def _class_from_spec(spec: str) -> Any:
    from ..classes.spec import parse_class_spec

    return parse_class_spec(spec)


#: the public seed a user passed (saved with a model): secret randomness must not follow it
PUBLIC_SEED = 0


# ------------------------------------------------------------------------------------------ features of releases


def released(release: Any, *, item: Any) -> bool:
    """Whether ``item`` appears in a histogram release."""
    return item in release


def censored_difference(release: Any, *, first: Any, second: Any) -> float:
    """noisy(first) − noisy(second), a suppressed item read as sitting at the release threshold."""
    return float(release.get(first, release.threshold)) - float(release.get(second, release.threshold))


def edge_excess(release: Any, *, first: Any, first_count: int, second: Any, second_count: int) -> float:
    """How far a release sits outside the support of the neighbour where ``first`` lost a record to ``second``:
    max(noisy(first) − (first_count − 1 + A), (second_count + 1 − A) − noisy(second)), A the truncation bound."""
    a = float(release.meta["truncation"])
    up = float(release.get(first, -math.inf)) - (first_count - 1 + a)
    down = (second_count + 1 - a) - float(release.get(second, math.inf))
    return max(up, down)


def key_layout(release: Any) -> str:
    """The released keys as the release lists them (order and objects: repr), with the size it carries."""
    return f"{[repr(k) for k in release]} n={getattr(release, 'n', None)}"


def float_bits(output: Any, *, index: int = 0) -> str:
    """Binary exponent and last mantissa bit of a float output (of coordinate ``index`` of a vector output): the
    event of Mironov's attack on noise added in floats (Mironov 2012) — rounding makes them depend on the data."""
    value = float(output[index]) if isinstance(output, (tuple, list, np.ndarray)) else float(output)
    exponent = math.frexp(value)[1]
    return f"exp={exponent},lsb={int(np.float64(value).view(np.uint64) & np.uint64(1))}"


def coordinate_sum(output: Sequence[float], *, indices: Sequence[int]) -> float:
    """Sum of the chosen coordinates of a vector output (e.g. the prefix sums that are single dyadic nodes)."""
    return float(sum(output[i] for i in indices))


# ------------------------------------------------------------------------------------------ neighbouring pairs


def tied_scores_one_boosted(n_candidates: int) -> tuple[list[float], list[float]]:
    """D: candidate 0 at 0, the others tied at 1; D′: candidate 0 boosted to 1, the others down to 0 (Δ = 1)."""
    return [0.0] + [1.0] * (n_candidates - 1), [1.0] + [0.0] * (n_candidates - 1)


def shifted_streams(k: int, low: float, high: float) -> tuple[list[float], list[float]]:
    """k queries below the threshold, shifted up by 1 in D′, then one above it, shifted down by 1 in D′."""
    return [low] * k + [high + 1.0], [low + 1.0] * k + [high]


def moved_record(first: Any, first_count: int, second: Any, second_count: int) -> tuple[list[Any], list[Any]]:
    """D: ``first_count`` × first and ``second_count`` × second; D′: one record moved from first to second."""
    return (
        [first] * first_count + [second] * second_count,
        [first] * (first_count - 1) + [second] * (second_count + 1),
    )
