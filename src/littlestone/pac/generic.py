"""The pure-DP generic learner: exponential mechanism over a finite candidate list with score −#errors
(Kal-LN §3 Theorem 1; BLM20 Lemma 16: P(h) ∝ exp(−ε·n·loss_S(h)/2))."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..bounds.generic import sample_size
from ..classes.base import Hypothesis, HypothesisClass
from ..errors import LittlestoneError, PrivacyParameterError
from ..privacy.exponential import ExponentialMechanism
from ..privacy.mechanism import PrivacyClaim
from ..validation import check_epsilon
from ._sklearn import LittlestoneClassifier
from .result import PrivateFitResult
from .candidates import candidate_list, uses_rows

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


class GenericLearnerClassifier(LittlestoneClassifier):
    """ε-DP learner for any finite class or candidate list (realizable and agnostic; Kal-LN §3 Thm 1).

    Samples h with probability ∝ exp(−ε·errors_S(h)/2) (score sensitivity 1 under replacing one example). Without
    a class or candidates it uses data-independent decision stumps with thresholds on a fixed grid of [−3, 3],
    i.e. it assumes standardized features (put a ``StandardScaler`` first), and says so with a
    :class:`DefaultCandidatesWarning` at every fit. ``mode`` ("agnostic" by default, as on the command line) and
    ``alpha``/``beta`` only set the theorem sample size reported in ``result_`` (see ``littlestone bounds generic``).
    ``classes`` = (negative label, positive label), default (0, 1): the label set is declared, never read from the
    private labels (``classes=None`` infers it, with a PrivacyLeakWarning).
    """

    _requires_class = False
    _private = True

    def __init__(
        self,
        hypothesis_class: HypothesisClass | str | None = None,
        candidates: Sequence[Hypothesis] | None = None,
        epsilon: float = 1.0,
        mode: str = "agnostic",
        alpha: float = 0.1,
        beta: float = 0.05,
        backend: Any = "secure",
        random_state: Any = None,
        classes: Any = (0, 1),
    ):
        self.hypothesis_class = hypothesis_class
        self.candidates = candidates
        self.epsilon = epsilon
        self.mode = mode
        self.alpha = alpha
        self.beta = beta
        self.backend = backend
        self.random_state = random_state
        self.classes = classes

    def _wants_rows(self) -> bool:
        return uses_rows(getattr(self, "hclass_", None), self.candidates)

    def sample_size_bound(self, n_candidates: int | None = None) -> Any:
        """The theorem's sample size for this estimator's (α, β, ε, mode), before fitting (the table of
        ``littlestone bounds generic``; Kal-LN §3 Thm 1 / BLM20 Lemma 16)."""
        if n_candidates is None:
            if self.candidates is not None:
                n_candidates = len(self.candidates)
            elif self.hypothesis_class is None:
                raise LittlestoneError("give n_candidates: the default stumps depend on the number of features")
            else:
                from ._sklearn import resolve_class

                return sample_size(
                    resolve_class(self.hypothesis_class).version_space().size(),
                    self.alpha,
                    self.epsilon,
                    self.beta,
                    self.mode,
                )
        return sample_size(n_candidates, self.alpha, self.epsilon, self.beta, self.mode)

    def _fit01(self, points: Any, y01: np.ndarray, rng: np.random.Generator) -> tuple[Hypothesis, GenericResult]:
        privacy = importlib.import_module("littlestone.privacy")
        check_epsilon(self.epsilon, error=PrivacyParameterError)
        if self.mode not in MODES:
            raise LittlestoneError(f"mode must be 'realizable' or 'agnostic', not {self.mode!r}")
        if self.hclass_ is None and self.candidates is None:  # data-independent: the same warning for every input
            import warnings

            warnings.warn(
                "GenericLearnerClassifier without hypothesis_class or candidates uses decision stumps "
                "with thresholds on a fixed grid of [-3, 3]: it assumes standardized features (e.g. a "
                "StandardScaler first); pass hypothesis_class='thresholds:N' (or candidates) for other "
                "domains",
                DefaultCandidatesWarning,
                stacklevel=3,
            )
        cands = candidate_list(self.hclass_, self.candidates, n_features=self.n_features_in_)
        bound = sample_size(len(cands), self.alpha, self.epsilon, self.beta, self.mode)
        backend = make_backend_for(self.backend, rng)
        budget = privacy.PrivacyBudget(self.epsilon)
        mechanism = ExponentialMechanism(self.epsilon, sensitivity=1.0)
        claim = mechanism.privacy()
        budget.charge(mechanism)
        scores = -cands.errors(points, y01).astype(np.float64)
        i = mechanism(scores, backend=backend)
        result = GenericResult(
            epsilon=float(self.epsilon),
            delta=0.0,
            spent=claim.pair,
            claim=claim,
            n=len(y01),
            candidates=len(cands),
            mode=self.mode,
            theory_n=bound.total,
            meets_theory=len(y01) >= bound.total,
            backend=getattr(backend, "name", str(self.backend)),
            ledger=list(getattr(budget, "ledger", [])),
        )
        return cands[int(i)], result
