"""The scikit-learn estimator of the BLM20 private learner (BLM20 Theorem 1); the learner is
:func:`littlestone.pac.blm20.blm20_learn`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.base import Hypothesis, HypothesisClass
from ._sklearn import LittlestoneClassifier
from .blm20 import BLM20Result, _check_privacy, backend_is_discrete, blm20_learn, blm20_privacy, blm20_sizes
from .fallback_warning import check_blm20_fit
from .sources import ArraySource, ExampleSource, ValidatedSource

__all__ = ["BLM20Classifier"]


class BLM20Classifier(LittlestoneClassifier):
    """(ε, δ)-DP learner of any class of finite Littlestone dimension (BLM20 Theorem 1), scikit-learn style.

    Defaults are Theorem 1's sizes (see ``littlestone bounds blm20``); ``n_batches``, ``aux_size``, ``cap``,
    ``n_generic``, ``eta`` override them (privacy holds for every setting). ``backend``: 'secure' (OpenDP) or
    'seeded' (reproducible from ``random_state``). ``diagnostics=True`` adds non-private statistics of G's outputs
    to ``result_``. :meth:`fit_source` learns from a lazy source (streams of 10^9 examples). ``classes`` =
    (negative label, positive label), default (0, 1): declared, never read from the private labels.
    ``checkpoint`` = a directory: stage 1 (G) is saved there in chunks of ``checkpoint_every`` batches and a rerun
    resumes (:mod:`littlestone.pac.checkpoint`; needs a fixed ``random_state``; bound to the data and parameters;
    never saved in model JSON); ``checkpoint_cleanup=True`` deletes it after a successful fit.
    Without ``hypothesis_class`` the class is decision stumps on a fixed public grid of [−3, 3] per feature
    (:mod:`littlestone.pac.default_class`; rows are mapped to cells, a DefaultCandidatesWarning says so).
    """

    _private = True
    _default_grid = True
    #: non-private statistics added to ``result_`` only
    _report_only_params = ("diagnostics",)

    def __init__(
        self,
        hypothesis_class: HypothesisClass | str | None = None,
        epsilon: float = 1.0,
        delta: float = 1e-6,
        alpha: float = 0.1,
        beta: float = 0.05,
        ldim: int | None = None,
        n_batches: int | None = None,
        aux_size: int | None = None,
        cap: int | None = None,
        n_generic: int | None = None,
        eta: float | None = None,
        backend: Any = "secure",
        random_state: Any = None,
        n_jobs: int = 1,
        diagnostics: bool = False,
        classes: Any = (0, 1),
        checkpoint: Any = None,
        checkpoint_every: int | None = None,
        checkpoint_cleanup: bool = False,
        accountant: Any = None,
    ):
        self.hypothesis_class = hypothesis_class
        self.epsilon = epsilon
        self.delta = delta
        self.alpha = alpha
        self.beta = beta
        self.ldim = ldim
        self.n_batches = n_batches
        self.aux_size = aux_size
        self.cap = cap
        self.n_generic = n_generic
        self.eta = eta
        self.backend = backend
        self.random_state = random_state
        self.classes = classes
        self.n_jobs = n_jobs
        self.diagnostics = diagnostics
        self.checkpoint = checkpoint
        self.checkpoint_every = checkpoint_every
        self.checkpoint_cleanup = checkpoint_cleanup
        self.accountant = accountant

    def privacy(self) -> tuple[float, float, str]:
        """M's claim (ε, δ, relation) at these parameters (:func:`~littlestone.pac.blm20.blm20_privacy`; no data)."""
        epsilon, delta = _check_privacy(self.epsilon, self.delta)
        claim = blm20_privacy(epsilon, delta, discrete=backend_is_discrete(self.backend))
        return claim.epsilon, claim.delta, claim.relation

    def _check_public_sizes(self, n_rows: int) -> None:
        """InsufficientSampleError from the public sizes, before the charge (nothing spent on such a refusal)."""
        epsilon, delta = _check_privacy(self.epsilon, self.delta)
        blm20_sizes(
            self._the_class(),
            n_rows,
            epsilon=epsilon,
            delta=delta,
            alpha=self.alpha,
            beta=self.beta,
            d=self.ldim,
            n_batches=self.n_batches,
            aux_size=self.aux_size,
            cap=self.cap,
            n_generic=self.n_generic,
            eta=self.eta,
        )

    def _learn(self, hclass: HypothesisClass, source: ExampleSource, rng: Any) -> tuple[Hypothesis, BLM20Result]:
        res = blm20_learn(
            hclass,
            source,
            epsilon=self.epsilon,
            delta=self.delta,
            alpha=self.alpha,
            beta=self.beta,
            d=self.ldim,
            n_batches=self.n_batches,
            aux_size=self.aux_size,
            cap=self.cap,
            n_generic=self.n_generic,
            eta=self.eta,
            backend=self.backend,
            seed=rng,
            n_jobs=self.n_jobs,
            diagnostics=self.diagnostics,
            checkpoint=self.checkpoint,
            checkpoint_every=self.checkpoint_every,
            checkpoint_cleanup=self.checkpoint_cleanup,
        )
        return res.chosen, res

    def to_dict(self) -> dict:
        """Model JSON; the checkpoint directory (a local path of the data owner) is not saved."""
        out = super().to_dict()
        for key in ("checkpoint", "checkpoint_every", "checkpoint_cleanup"):
            out["params"].pop(key, None)
            if key in out["unsaved_params"]:
                out["unsaved_params"].remove(key)
        return out

    def _fit01(self, points: Any, y01: np.ndarray, rng: np.random.Generator) -> tuple[Hypothesis, BLM20Result]:
        check_blm20_fit(self, self._the_class(), len(y01))  # FallbackLikelyWarning from public sizes (issue 28)
        return self._learn(self._the_class(), ArraySource(points, y01), rng)

    def fit_source(self, source: ExampleSource, *, validate: bool = True) -> "BLM20Classifier":
        """Learn from a lazy source (``__len__`` and ``batch(start, stop) -> (X, y01)``); labels must be 0/1.
        Points are validated through the class as they are read unless ``validate=False``."""
        from .._labels import LabelCoding
        from ._sklearn import _to_generator

        self.hclass_ = self._resolve_class()
        hclass = self._the_class()
        self._charge_accountant(source)
        src = ValidatedSource(source, hclass) if validate else source
        from .._labels import declared_coding

        self.coding_ = LabelCoding(0, 1) if self.classes is None else declared_coding(self.classes)
        self.classes_ = np.array([self.coding_.negative, self.coding_.positive])
        self.n_features_in_ = 1
        check_blm20_fit(self, hclass, len(src))  # FallbackLikelyWarning from public sizes (issue 28)
        from ..privacy.accountant import contained

        with contained():  # charged above
            self.hypothesis_, self.result_ = self._learn(hclass, src, _to_generator(self.random_state))
        return self
