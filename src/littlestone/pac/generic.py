"""The pure-DP generic learner: exponential mechanism over a finite candidate list with score −#errors
(Kal-LN §3 Theorem 1; BLM20 Lemma 16: P(h) ∝ exp(−ε·n·loss_S(h)/2)).

:func:`generic_learn` is the learner (no scikit-learn: workers and the demo use it directly); the estimator
:class:`GenericLearnerClassifier` lives in :mod:`littlestone.pac.generic_classifier`."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Sequence, Union

import numpy as np

from .._random import SeedLike, as_generator
from ..bounds.generic import sample_size
from ..classes.base import Hypothesis, HypothesisClass
from ..errors import LittlestoneError, PrivacyParameterError
from ..privacy.exponential import ExponentialMechanism
from ..privacy.accountant import charge_fit
from ..privacy.mechanism import PrivacyClaim
from ..validation import check_epsilon
from .result import PrivateFitResult
from .candidates import CandidateSet, as_candidates

MODES = ("realizable", "agnostic")


class DefaultCandidatesWarning(UserWarning):
    """GenericLearnerClassifier was given neither a class nor candidates and assumed standardized features."""


@dataclass(frozen=True)
class GenericResult(PrivateFitResult):
    """What a private fit claims and how the sample compares with the theorem (no data-dependent statistics).
    ``spent`` is the claim of the one exponential mechanism, (ε, 0) under replace-one neighbours."""

    epsilon: float
    delta: float
    spent: tuple[float, float]
    claim: PrivacyClaim
    n: int
    candidates: int
    mode: str
    theory_n: int
    meets_theory: bool
    backend: str
    ledger: list

    def stage_sizes(self) -> dict[str, int]:
        return {"exponential mechanism": self.n}


def make_backend_for(backend: Any, rng: np.random.Generator) -> Any:
    """A privacy backend from 'secure' / 'seeded' (seeded from rng) or a backend object given as is."""
    if not isinstance(backend, str):
        if not hasattr(backend, "gumbel"):
            raise LittlestoneError(f"backend must be 'secure', 'seeded' or a privacy backend, not {backend!r}")
        return backend
    if backend not in ("secure", "seeded"):
        raise LittlestoneError(f"backend must be 'secure' or 'seeded', not {backend!r}")
    privacy = importlib.import_module("littlestone.privacy")
    seed = int(rng.integers(0, 2**63 - 1)) if backend == "seeded" else None
    return privacy.make_backend(backend, seed=seed)


#: what the generic learner chooses among: a finite class (all its hypotheses), a list of hypotheses, or a
#: :class:`~littlestone.pac.candidates.CandidateSet`
Candidates = Union[HypothesisClass, Sequence[Hypothesis], CandidateSet]


def check_generic_params(epsilon: float, mode: str) -> None:
    """A clear error for a bad ε or mode, before anything else is looked at."""
    check_epsilon(epsilon, error=PrivacyParameterError)
    if mode not in MODES:
        raise LittlestoneError(f"mode must be 'realizable' or 'agnostic', not {mode!r}")


def generic_learn(
    candidates: Candidates,
    points: Any,
    y01: Any,
    *,
    epsilon: float,
    mode: str = "agnostic",
    alpha: float = 0.1,
    beta: float = 0.05,
    backend: Any = "secure",
    seed: SeedLike = None,
    accountant: Any = None,
) -> tuple[Hypothesis, GenericResult]:
    """The ε-DP generic learner on validated ``points`` (of the class) and 0/1 labels ``y01``: samples a candidate
    h with probability ∝ exp(−ε·errors_S(h)/2) (score sensitivity 1 under replacing one example; Kal-LN §3 Thm 1,
    BLM20 Lemma 16). Returns (hypothesis, result). ``mode``/``alpha``/``beta`` only set the theorem sample size
    reported in the result. ``backend``: 'secure' (OpenDP), 'seeded' (reproducible: its noise is drawn from
    ``seed``) or a privacy backend object; ``seed`` is unused by the secure backend. ``accountant``: charged the
    claim (ε, 0) before the data is read (None: the default accountant; nothing inside an estimator's fit, which was
    charged already)."""
    privacy = importlib.import_module("littlestone.privacy")
    check_generic_params(epsilon, mode)
    mechanism = ExponentialMechanism(epsilon, sensitivity=1.0)
    claim = mechanism.privacy()
    charge_fit(accountant, claim, "generic_learn")  # before the data is looked at
    cands = as_candidates(candidates)
    y01 = np.asarray(y01)
    bound = sample_size(len(cands), alpha, epsilon, beta, mode)
    noise = make_backend_for(backend, as_generator(seed))
    budget = privacy.PrivacyBudget(epsilon)
    budget.charge(mechanism)
    scores = -cands.errors(points, y01).astype(np.float64)
    i = mechanism(scores, backend=noise)
    result = GenericResult(
        epsilon=float(epsilon),
        delta=0.0,
        spent=claim.pair,
        claim=claim,
        n=len(y01),
        candidates=len(cands),
        mode=mode,
        theory_n=bound.total,
        meets_theory=len(y01) >= bound.total,
        backend=getattr(noise, "name", str(backend)),
        ledger=list(getattr(budget, "ledger", [])),
    )
    return cands[int(i)], result


def __getattr__(name: str) -> Any:
    """``GenericLearnerClassifier`` lives in :mod:`littlestone.pac.generic_classifier` (the scikit-learn estimator);
    it is imported on first use, so :func:`generic_learn` runs without scikit-learn."""
    if name == "GenericLearnerClassifier":
        from .generic_classifier import GenericLearnerClassifier

        return GenericLearnerClassifier
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
