"""Audits of what the GGKM21 estimators release (issue 19 leaks 1, 2, 5, 6) and their broken twins.

An estimator's *release* is everything a fitted estimator shows besides its mechanism outputs: the saved model's
result (sizes, claim, ledger; the chosen hypothesis, f, 𝒦 and ⊥ removed) and the label coding ``classes_``. For an
honest estimator it is a function of public parameters, so it is the same on neighbouring datasets; each twin
puts back one leak of the old code and keeps the honest claim:

* leak 1 — the agnostic proper learner's ``|R|`` (labellings of H on the secret subsample) in the result;
* leak 2 — its secret subsample I drawn from the user's seed (saved in the model) instead of the secret generator:
  :class:`SubsampleFromSavedSeed`, a twin of the registry's ``subsample_secret_despite_public_seed`` audit (a Laplace
  count on I, the claim amplified by q = m/n);
* leak 5 — the label coding read from the private labels (``classes=None`` behaviour as the default);
* leak 6 — diagnostics (wall time, |Ĥ_i| per dataset) saved in the model file, as the nested results of
  PolyPriPropLearn were.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np

from ..privacy import Mechanism, PrivacyClaim, SubsampledMechanism
from ..privacy.partition import DataSplit
from .builtin import PUBLIC_SEED, BuiltinAudit

#: result entries that are mechanism outputs (or post-processing of them): not part of the release compared here
MECHANISM_OUTPUTS = frozenset({"chosen", "bottom", "minimax", "hypothesis"})


def _public_part(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _public_part(v) for k, v in obj.items() if k not in MECHANISM_OUTPUTS}
    if isinstance(obj, list):
        return [_public_part(v) for v in obj]
    return obj


def release_text(est: Any, extra: dict | None = None) -> str:
    """The release of a fitted estimator besides its mechanism outputs, as canonical JSON text."""
    result = _public_part(est.to_dict()["result"])
    if extra:
        result = {**result, **extra}
    classes = [c.item() if isinstance(c, np.generic) else c for c in est.classes_]
    return json.dumps({"result": result, "classes": classes}, sort_keys=True, default=repr)


class GGKM21Release(Mechanism):
    """A GGKM21 estimator (``kind``: polyprilearn, proper, agnostic) fitted on ``data`` = (X, y) with small explicit
    sizes; the output is :func:`release_text`. Its claim is the estimator's :meth:`privacy`."""

    name = "GGKM21 estimator release"

    def __init__(self, kind: str, params: dict):
        self.kind, self.params = kind, dict(params)

    def estimator(self, backend: Any = "seeded", **changes: Any) -> Any:
        from ..pac import AgnosticPolyPriPropLearnClassifier, PolyPriLearnClassifier, PolyPriPropLearnClassifier

        cls = {
            "polyprilearn": PolyPriLearnClassifier,
            "proper": PolyPriPropLearnClassifier,
            "agnostic": AgnosticPolyPriPropLearnClassifier,
        }[self.kind]
        params = {**self.params, **changes}
        # the run's public seed: from the audit's per-run seeded backend (every run its own coins, as a user's fresh
        # seed); fixed when no backend generator exists
        rng = getattr(backend, "rng", None)
        seed = PUBLIC_SEED if rng is None else int(rng.integers(0, 2**31 - 1))
        return cls(backend=backend, random_state=seed, **params)

    def privacy(self) -> PrivacyClaim:
        eps, dlt, rel = self.estimator().privacy()
        return PrivacyClaim(eps, dlt, rel, f"{self.kind} estimator")

    def fit(self, data: tuple, backend: Any, **changes: Any) -> Any:
        X, y = data
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return self.estimator(backend, **changes).fit(np.asarray(X).reshape(-1, 1), np.asarray(y))

    def __call__(self, data: tuple, *, backend: Any) -> str:
        return release_text(self.fit(data, backend))


class ReleasedLabellingCount(GGKM21Release):
    """BROKEN (issue 19 leak 1): the agnostic proper learner's |R| — labellings of H on the secret subsample — in
    its result, as the old ``AgnosticResult.n_patterns``."""

    def __call__(self, data: tuple, *, backend: Any) -> str:
        est = self.fit(data, backend, diagnostics=True)
        return release_text(est, {"n_patterns": est.result_.diagnostics["n_patterns"]})


class SavedDiagnostics(GGKM21Release):
    """BROKEN (issue 19 leak 6): the fit's diagnostics (wall time, |Ĥ_i| per dataset) saved with the model, as the
    nested PolyPriLearn result of PolyPriPropLearn carried them (the wall time rounded to seconds here, so that the
    audit sees the data-dependent sizes rather than timer jitter)."""

    def __call__(self, data: tuple, *, backend: Any) -> str:
        est = self.fit(data, backend, diagnostics=True)
        dg = est.result_.diagnostics
        return release_text(est, {"diagnostics": {"list_sizes": dg["list_sizes"], "wall_time": round(dg["wall_time"])}})


class InferredGGKM21Labels(GGKM21Release):
    """BROKEN (issue 19 leak 5): the label coding read from the private labels (the old default, no ``classes=``)."""

    def __call__(self, data: tuple, *, backend: Any) -> str:
        return release_text(self.fit(data, backend, classes=None))


class SubsampleFromSavedSeed(SubsampledMechanism):
    """BROKEN (issue 19 leak 2): the agnostic learners' subsample handed out by :meth:`DataSplit.subsample
    <littlestone.privacy.partition.DataSplit.subsample>` — as they draw it — but from a generator seeded with the
    user's seed, which the model file saves (the old agnostic proper learner, on every backend)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> Any:
        from ..pac.sources import ArraySource

        records = np.asarray(self.records(data))
        split = DataSplit(self.n, "audited sample", source=ArraySource(records, np.zeros(len(records), np.int8)))
        part = split.feed(split.subsample(self.m, np.random.default_rng(self.seed), "I"), self.inner.name)
        return self.inner(split.reader(part, self.inner.name).rows()[0], backend=backend)


def _agnostic_pair() -> tuple[tuple, tuple]:
    """n = 200 points at 0 (labels 0) vs the same with one point moved to 5: |R| on the subsample is 2 on D and 3 on
    D′ whenever the moved record is in I (probability m/n = 0.1)."""
    x = [0] * 200
    return (tuple(x), (0,) * 200), (tuple([5] + x[1:]), (0,) * 200)


def ggkm21_release_audits() -> list[tuple[BuiltinAudit, list[BuiltinAudit]]]:
    """(honest audit, its broken twins) of this module, for the one registry."""
    agnostic_params = dict(hypothesis_class="thresholds:6", epsilon=4.0, delta=1e-3, n=200, n_inner=1, m=1, K=1,
                           n_generic=1)  # fmt: skip
    d, dp = _agnostic_pair()
    agnostic = BuiltinAudit(
        "agnostic_proper_release",
        "agnostic proper learner (LWY25 Alg. 4, thresholds:6, ε=4 → ε₀=0.1, n=200, |I|=20): its release besides "
        "the chosen hypothesis; one point moved from 0 to 5",
        GGKM21Release("agnostic", agnostic_params),
        d,
        dp,
        runs=300,
    )
    labels_x = (1, 2, 5, 6, 1, 2, 5, 6)
    lab_params = dict(hypothesis_class="thresholds:8", epsilon=1.0, delta=1e-3, n=1, m=8, K=1, classes=(-1, 1))
    labels = BuiltinAudit(
        "ggkm21_labels_declared",
        "PolyPriLearn (thresholds:8, ε=1, classes=(-1, 1)): labels with one −1 vs all +1; event: the release "
        "(label coding classes_, result sizes)",
        GGKM21Release("polyprilearn", lab_params),
        (labels_x, (1, -1, 1, 1, 1, 1, 1, 1)),
        (labels_x, (1,) * 8),
        runs=150,
    )
    proper_params = dict(hypothesis_class="thresholds:8", epsilon=1.0, delta=1e-3, n=4, m=2, K=1, n_generic=2)
    proper = BuiltinAudit(
        "polypriproplearn_release",
        "PolyPriPropLearn (thresholds:8, ε=1, m=2 datasets of 4, n′=2) with diagnostics=True: its saved release "
        "besides f, 𝒦 and the chosen hypothesis; dataset 1 realizable vs one label flipped",
        GGKM21Release("proper", {**proper_params, "diagnostics": True}),
        ((1, 2, 5, 6, 1, 2, 5, 6, 1, 6), (0, 0, 1, 1, 0, 0, 1, 1, 0, 1)),
        ((1, 2, 5, 6, 1, 2, 5, 6, 1, 6), (1, 0, 1, 1, 0, 0, 1, 1, 0, 1)),
        runs=150,
    )
    return [
        (
            agnostic,
            [
                agnostic.twin(
                    "agnostic_proper_releases_labelling_count",
                    "agnostic proper learner releasing |R| (labellings of H on the secret subsample) in its "
                    "result (issue 19 leak 1); claims its (ε, δ)",
                    ReleasedLabellingCount("agnostic", agnostic_params),
                    runs=12_000,  # |R| shows only when the moved record is in I (probability 0.1)
                )
            ],
        ),
        (
            labels,
            [
                labels.twin(
                    "ggkm21_labels_inferred",
                    "PolyPriLearn with the label coding read from the private labels (issue 19 leak 5); claims ε=1",
                    InferredGGKM21Labels("polyprilearn", lab_params),
                )
            ],
        ),
        (
            proper,
            [
                proper.twin(
                    "polypriproplearn_saves_diagnostics",
                    "PolyPriPropLearn saving its diagnostics (wall time, |Ĥ_i|) with the model (issue 19 leak 6); "
                    "claims ε=1",
                    SavedDiagnostics("proper", {**proper_params, "diagnostics": True}),
                )
            ],
        ),
    ]


__all__ = [
    "GGKM21Release",
    "InferredGGKM21Labels",
    "ReleasedLabellingCount",
    "SavedDiagnostics",
    "SubsampleFromSavedSeed",
    "ggkm21_release_audits",
    "release_text",
]
