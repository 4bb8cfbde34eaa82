"""The scikit-learn estimator of the pure-DP generic learner (Kal-LN §3 Theorem 1); the learner is
:func:`littlestone.pac.generic.generic_learn`."""

from __future__ import annotations

import warnings
from typing import Any, Sequence

import numpy as np

from ..bounds.generic import sample_size
from ..classes.base import Hypothesis, HypothesisClass
from ..errors import LittlestoneError
from ..privacy import check_delta
from ..privacy.exponential import ExponentialMechanism
from ._sklearn import LittlestoneClassifier
from .candidates import candidate_list, uses_rows
from .generic import DefaultCandidatesWarning, GenericResult, check_generic_params, generic_learn

__all__ = ["GenericLearnerClassifier"]


class GenericLearnerClassifier(LittlestoneClassifier):
    """ε-DP learner for any finite class or candidate list (realizable and agnostic; Kal-LN §3 Thm 1).

    Samples h with probability ∝ exp(−ε·errors_S(h)/2) (score sensitivity 1 under replacing one example). Without
    a class or candidates it uses data-independent decision stumps with thresholds on a fixed grid of [−3, 3],
    i.e. it assumes standardized features — scaled with public bounds, never with statistics of the private data (a
    ``StandardScaler`` fitted on it leaks their mean and variance; use a data-independent transform such as
    :class:`~littlestone.pac.GridDiscretizer` with ``grid_stumps``) — and says so with a
    :class:`DefaultCandidatesWarning` at every fit. ``mode`` ("agnostic" by default, as on the command line) and
    ``alpha``/``beta`` only set the theorem sample size reported in ``result_`` (see ``littlestone bounds generic``).
    ``classes`` = (negative label, positive label), default (0, 1): the label set is declared, never read from the
    private labels (``classes=None`` infers it, with a PrivacyLeakWarning).

    ``delta`` (default 0) is accepted and not used: the learner is pure ε-DP, which is (ε, δ)-DP for every δ ≥ 0, so
    one (epsilon, delta) pair can be set on every estimator of a pipeline or a search; it must be in [0, 1), and the
    claim in ``result_`` stays (ε, 0) — the δ actually spent.
    """

    _requires_class = False
    _private = True
    #: the theorem sample size in ``result_`` only (generic_learn); δ is accepted and unused
    _report_only_params = ("mode", "alpha", "beta", "delta")

    def __init__(
        self,
        hypothesis_class: HypothesisClass | str | None = None,
        candidates: Sequence[Hypothesis] | None = None,
        epsilon: float = 1.0,
        delta: float = 0.0,
        mode: str = "agnostic",
        alpha: float = 0.1,
        beta: float = 0.05,
        backend: Any = "secure",
        random_state: Any = None,
        classes: Any = (0, 1),
        accountant: Any = None,
    ):
        self.hypothesis_class = hypothesis_class
        self.candidates = candidates
        self.epsilon = epsilon
        self.delta = delta
        self.mode = mode
        self.alpha = alpha
        self.beta = beta
        self.backend = backend
        self.random_state = random_state
        self.classes = classes
        self.accountant = accountant

    def privacy(self) -> tuple[float, float, str]:
        """The claim (ε, 0, relation) of the one exponential mechanism a fit runs (parameters only)."""
        check_generic_params(self.epsilon, self.mode)
        claim = ExponentialMechanism(self.epsilon, sensitivity=1.0).privacy()
        return claim.epsilon, claim.delta, claim.relation

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
        check_generic_params(self.epsilon, self.mode)
        check_delta(self.delta)  # accepted, unused: (ε, 0)-DP implies (ε, δ)-DP
        if self.hclass_ is None and self.candidates is None:  # data-independent: the same warning for every input
            warnings.warn(
                "GenericLearnerClassifier without hypothesis_class or candidates uses decision stumps "
                "with thresholds on a fixed grid of [-3, 3]: it assumes standardized features, scaled with "
                "public bounds known before seeing the data (not a StandardScaler fitted on the private data: "
                "its mean and variance leak); for other domains use a data-independent map such as "
                "GridDiscretizer(ranges, bins) with hypothesis_class=grid_stumps(bins, n_features), or pass "
                "hypothesis_class='thresholds:N' (or candidates)",
                DefaultCandidatesWarning,
                stacklevel=3,
            )
        cands = candidate_list(self.hclass_, self.candidates, n_features=self.n_features_in_)
        return generic_learn(
            cands,
            points,
            y01,
            epsilon=self.epsilon,
            mode=self.mode,
            alpha=self.alpha,
            beta=self.beta,
            backend=self.backend,
            seed=rng,
        )
