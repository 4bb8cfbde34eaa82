"""PolyPriLearn (GGKM21 §5, Algorithm 2, Theorem 5.7): m disjoint datasets → ReduceTree on each → private sparse
selection of an element held by many of the sets Ĥ_1 … Ĥ_m.

Privacy (every parameter setting): each example lies in exactly one dataset, ReduceTree is a deterministic function
of its dataset, so replacing one example replaces one user's set, whose size is ≤ s = Π_{t≤d}(2^{t−1}K + 1) whatever
the data (Lemma 5.5; an unbroken run outputs ∅). Sparse selection is (ε, δ)-DP under replacing one user's set
(:func:`littlestone.privacy.sparse_selection`), so PolyPriLearn is (ε, δ)-DP under replace-one; the rest is
post-processing. ⊥ ("Fail") is an ordinary output: the learner then returns the SOA classifier of the whole class, a
fixed data-independent hypothesis, and reports ``bottom=True``.

Accuracy (Theorem 5.7, realizable data, the theory sizes of :mod:`littlestone.bounds.ggkm21`): w.p. ≥ 1 − β the
output has error ≤ α and is SOA_G for a nonempty K-irreducible G ⊆ H.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .._random import SeedLike, as_generator
from ..bounds.ggkm21 import PolyPriLearnPlan, polyprilearn_plan
from ..classes.base import Hypothesis, HypothesisClass
from ..classes.empirical import empirical_errors_from_batches
from ..errors import InsufficientSampleError, LittlestoneError, PrivacyParameterError
from ..validation import check_delta, check_epsilon
from ..privacy import BOTTOM, PrivacyBudget, PrivacyClaim, SparseSelection
from ..privacy.accountant import charge_fit
from ..privacy.partition import DataSplit, Part
from ..privacy.backends import Backend
from ._sklearn import LittlestoneClassifier
from .blm20 import resolve_backend
from .fallback_warning import check_polyprilearn_fit
from .result import PrivateFitResult
from .reduce_tree import ReduceTreeSchedule, reduce_tree
from .sources import ArraySource, ExampleSource, ValidatedSource

#: examples read per block when a dataset is streamed into its error table
BLOCK = 1 << 20


# --------------------------------------------------------------------------------------------------------------------
# Privacy claims, computed in one place from the parts (replace-one neighbours)
# --------------------------------------------------------------------------------------------------------------------


SELECTION = "sparse selection over the sets Ĥ_i"


def polyprilearn_split(
    plan: PolyPriLearnPlan, n_records: int, start: int = 0, source: Any = None
) -> tuple[DataSplit, list[Part]]:
    """The data use of Algorithm 2, declared once: the m datasets S_1 … S_m are consecutive disjoint blocks of n
    records after the first ``start`` (read by nothing), each the data of one user of the sparse selection (ReduceTree
    is a deterministic function of its dataset). Sizes only: no data is read; with ``source`` the split is bound to
    it (dataset i is then read through its part's reader only)."""
    split = DataSplit(n_records, "PolyPriLearn's sample", source=source)
    if start:
        split.block(start, "before PolyPriLearn")
    datasets = split.blocks(plan.m, plan.n, "S")
    split.users(SELECTION, datasets)
    return split, datasets


def polyprilearn_mechanism(epsilon: float, delta: float, plan: PolyPriLearnPlan) -> SparseSelection:
    """The one noise-drawing mechanism of Algorithm 2: sparse selection with list bound s (Lemma 5.5)."""
    return SparseSelection(epsilon, delta, plan.s)


def polyprilearn_claim(split: DataSplit, selection: SparseSelection) -> PrivacyClaim:
    """The claim of a run: the split's composition of the mechanism it runs (replace-one on records)."""
    return split.compose({SELECTION: selection}, what="PolyPriLearn (GGKM21 Alg. 2)")


def check_privacy(epsilon: Any, delta: Any) -> tuple[float, float]:
    eps = check_epsilon(epsilon, error=PrivacyParameterError)
    dlt = check_delta(delta, positive=True, error=PrivacyParameterError)
    return eps, dlt


# --------------------------------------------------------------------------------------------------------------------
# Datasets in parallel
# --------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DatasetRun:
    """What one dataset produced: its set Ĥ_i (sorted) and the break round (non-private diagnostics)."""

    hypotheses: tuple
    t_hat: int | None
    leaves: int


def run_dataset(task: tuple) -> DatasetRun:
    """ReduceTree on one dataset (streamed in blocks; a top-level function for workers). ``task`` = (hclass, reader,
    schedule), the reader of the dataset's part of the learner's :class:`~littlestone.privacy.DataSplit`; experiments
    that study ReduceTree alone (no privacy claim) may give (hclass, source, start, stop, schedule)."""
    if len(task) == 5:
        hclass, source, start, stop, schedule = task
        blocks = (source.batch(a, min(int(stop), a + BLOCK)) for a in range(int(start), int(stop), BLOCK))
    else:
        hclass, reader, schedule = task
        blocks = reader.read(BLOCK)
    emp = empirical_errors_from_batches(hclass, blocks)
    res = reduce_tree(emp, schedule)
    return DatasetRun(res.hypotheses, res.t_hat, res.n_leaves)


def map_datasets(fn: Callable[[Any], Any], tasks: list, n_jobs: int = 1) -> list:
    """Deterministic work in item order through the project's one parallel runner (ReduceTree needs no randomness,
    so results do not depend on the worker count or backend)."""
    from ..parallel import map_ordered

    return map_ordered(fn, tasks, n_jobs=n_jobs)


# --------------------------------------------------------------------------------------------------------------------
# The learner
# --------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PolyPriLearnResult(PrivateFitResult):
    """A fit of PolyPriLearn: what it spent, the stage sizes, the (private) choice and the claim composed by its data
    split; ``diagnostics`` (|Ĥ_i| per dataset, the selected element's count, break rounds, the wall time) are not
    covered by the privacy claim, are only filled when asked for and are never saved."""

    epsilon: float
    delta: float
    relation: str
    spent: tuple[float, float]
    ledger: tuple
    backend: str
    plan: PolyPriLearnPlan
    examples_given: int
    examples_used: int
    chosen: Hypothesis
    bottom: bool
    claim: PrivacyClaim
    diagnostics: dict | None = field(default=None)

    def summary(self) -> str:
        p = self.plan
        lines = [
            f"PolyPriLearn (GGKM21 Alg. 2): d={p.d}, m={p.m:,} datasets of n={p.n:,}, A={p.A:.4g}, η={p.eta:.4g}, "
            f"K={p.K:,}, s={p.s:,} ({'theory sizes' if p.theory else 'user sizes'})",
            f"  claim (ε, δ) = ({self.epsilon:g}, {self.delta:g}) {self.relation}; spent {self.spent}; backend "
            f"{self.backend}" + (f" [{self.privacy_note}]" if self.privacy_note else ""),
            f"  examples: given {self.examples_given:,}, used {self.examples_used:,}",
            f"  chosen {self.chosen!r}" + (" (⊥: fallback SOA of the class)" if self.bottom else ""),
        ]
        if self.diagnostics is not None:
            dg = self.diagnostics
            lines.append(
                f"  [non-private diagnostics] |Ĥ_i| max {max(dg['list_sizes'])}, selected count "
                f"{dg['selected_count']}, break rounds {dg['break_rounds']}"
            )
        return "\n".join(lines)


def resolve_d(hclass: HypothesisClass, d: Any, who: str) -> int:
    if d is None:
        d = int(hclass.ldim())
        if d < 1:
            raise LittlestoneError(
                f"{hclass.name} has Littlestone dimension {d}; {who} needs d ≥ 1 "
                "(a class with d ≤ 0 has at most one function: nothing to learn)"
            )
        return d
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
        raise LittlestoneError(f"ldim (the Littlestone dimension used for the sizes) must be an integer ≥ 1, got {d!r}")
    return int(d)


def require_examples(hclass: HypothesisClass, d: int, plan: PolyPriLearnPlan, given: int, start: int = 0) -> None:
    """InsufficientSampleError when ``given`` examples (from ``start``) are fewer than the plan needs: public sizes
    only, checked before any charge (a refusal for a public reason spends nothing)."""
    if given < start + plan.total:
        how = "Theorem 5.7 at these (α, β, ε, δ)" if plan.theory else "the sizes you chose"
        raise InsufficientSampleError(
            f"PolyPriLearn on {hclass.name} (d={d}) needs {plan.total:,} examples for {how}: m={plan.m:,} datasets "
            f"of n={plan.n:,}" + (f" after the first {start:,}" if start else "") + f"; got {given - start:,}. "
            "Give more data, or override the sizes (n=, m=, K=): privacy holds for every setting, the accuracy "
            "guarantee only at the theory sizes."
        )


def polyprilearn(
    hclass: HypothesisClass,
    source: ExampleSource,
    *,
    epsilon: float,
    delta: float,
    alpha: float = 0.1,
    beta: float = 0.05,
    d: int | None = None,
    K_req: int = 1,
    n: int | None = None,
    m: int | None = None,
    K: int | None = None,
    A: float | None = None,
    eta: float | None = None,
    convergence: str = "additive",
    backend: Any = "secure",
    seed: SeedLike = None,
    n_jobs: int = 1,
    diagnostics: bool = False,
    start: int = 0,
    plan: PolyPriLearnPlan | None = None,
    accountant: Any = None,
) -> PolyPriLearnResult:
    """Run Algorithm 2 on examples [start, start + m·n) of a source of validated points and 0/1 labels.
    ``accountant``: charged the claim after the public checks, before any example is read (None: the default
    accountant; nothing inside an estimator's fit or a learner that composed this claim into its own)."""
    t0 = time.perf_counter()
    epsilon, delta = check_privacy(epsilon, delta)
    if not isinstance(backend, Backend) and backend not in ("secure", "seeded"):
        raise PrivacyParameterError(
            f"backend must be 'secure', 'seeded' or a littlestone.privacy Backend, not {backend!r}"
        )
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise LittlestoneError(f"n_jobs must be a nonzero integer (1 = serial, -1 = all cores), got {n_jobs!r}")
    d = resolve_d(hclass, d, "PolyPriLearn")
    if plan is None:
        plan = polyprilearn_plan(
            d, alpha, epsilon, delta, beta, K_req=K_req, n=n, m=m, K=K, A=A, eta=eta, convergence=convergence
        )
    given = len(source)
    require_examples(hclass, d, plan, given, start)
    schedule = ReduceTreeSchedule.theory(d, plan.A, plan.K, eta=plan.eta)
    rng = as_generator(seed)
    noise = resolve_backend(backend, rng)
    budget = PrivacyBudget(epsilon, delta)
    split, datasets = polyprilearn_split(plan, given, start, source)  # data only through the split's readers now
    selection = polyprilearn_mechanism(epsilon, delta, plan)
    claim = polyprilearn_claim(split, selection)
    budget.charge(claim)  # the split's composition must fit the request (an overlap of datasets would not)
    charge_fit(accountant, claim, "polyprilearn")  # before any dataset is read (inside an estimator: nothing)
    tasks = [(hclass, split.reader(part, SELECTION), schedule) for part in datasets]  # dataset i: part i only
    runs: list[DatasetRun] = map_datasets(run_dataset, tasks, n_jobs=n_jobs)
    lists = [r.hypotheses for r in runs]
    if max(len(x) for x in lists) > plan.s:  # Lemma 5.5; cannot happen (a bug would void the privacy claim)
        raise AssertionError("a ReduceTree output exceeds the list bound s")
    out = selection(lists, backend=noise)
    bottom = out is BOTTOM
    chosen = hclass.soa() if bottom else out
    diag = None
    if diagnostics:
        counts = Counter(h for x in lists for h in x)
        diag = {
            "list_sizes": [len(x) for x in lists],
            "selected_count": 0 if bottom else counts[out],
            "top_count": max(counts.values(), default=0),
            "break_rounds": dict(Counter(r.t_hat for r in runs)),
            "leaves": [r.leaves for r in runs],
            "wall_time": time.perf_counter() - t0,
        }
    return PolyPriLearnResult(
        claim.epsilon,
        claim.delta,
        claim.relation,
        budget.spent,
        tuple(budget.ledger),
        noise.name,
        plan,
        given,
        plan.total,
        chosen,
        bottom,
        claim,
        diag,
    )


class SourceFitMixin:
    """``fit_source`` for estimators whose ``_learn(hclass, source, rng)`` reads a lazy source."""

    def fit_source(self, source: ExampleSource, *, validate: bool = True) -> Any:
        """Learn from a lazy source (``__len__`` and ``batch(start, stop) -> (X, y01)``); labels must be 0/1.
        Points are validated through the class as they are read unless ``validate=False``."""
        from .._labels import declared_coding
        from ._sklearn import _to_generator

        self.hclass_ = self._resolve_class()  # type: ignore[attr-defined]
        self._charge_accountant(source)  # type: ignore[attr-defined]
        src = ValidatedSource(source, self.hclass_) if validate else source
        classes = getattr(self, "classes", (0, 1))
        self.coding_ = declared_coding((0, 1) if classes is None else classes)
        self.classes_ = np.array([self.coding_.negative, self.coding_.positive])
        self.n_features_in_ = 1
        self._check_fallback(len(src))  # type: ignore[attr-defined]
        from ..privacy.accountant import contained

        with contained():  # charged above
            self.hypothesis_, self.result_ = self._learn(  # type: ignore[attr-defined]
                self.hclass_,
                src,
                _to_generator(self.random_state),  # type: ignore[attr-defined]
            )
        return self


class PolyPriLearnClassifier(SourceFitMixin, LittlestoneClassifier):
    """(ε, δ)-DP improper learner of any class of finite Littlestone dimension with poly(d) examples (GGKM21
    Theorem 5.7), scikit-learn style.

    Defaults are Theorem 5.7's sizes (``littlestone bounds ggkm21``); ``n`` (per dataset), ``m`` (datasets), ``K``,
    ``A``, ``eta`` override them (privacy holds for every setting). ``convergence="relative"`` uses LWY25 Lemma D.1
    for n. ``backend``: 'secure' (OpenDP) or 'seeded'. ``diagnostics=True`` adds non-private statistics (|Ĥ_i|, the
    selected element's count, the wall time) to ``result_`` (never saved). :meth:`fit_source` learns from a lazy
    source. ``classes`` = (negative label, positive label), default (0, 1): declared, never read from the private
    labels (``classes=None`` infers them, with a PrivacyLeakWarning).
    Without ``hypothesis_class`` the class is decision stumps on a fixed public grid of [−3, 3] per feature
    (:mod:`littlestone.pac.default_class`; rows are mapped to cells, a DefaultCandidatesWarning says so).
    """

    _private = True
    #: non-private statistics added to ``result_`` only
    _report_only_params = ("diagnostics",)
    _default_grid = True

    def __init__(
        self,
        hypothesis_class: HypothesisClass | str | None = None,
        epsilon: float = 1.0,
        delta: float = 1e-6,
        alpha: float = 0.1,
        beta: float = 0.05,
        ldim: int | None = None,
        n: int | None = None,
        m: int | None = None,
        K: int | None = None,
        A: float | None = None,
        eta: float | None = None,
        convergence: str = "additive",
        backend: Any = "secure",
        random_state: Any = None,
        n_jobs: int = 1,
        diagnostics: bool = False,
        classes: Any = (0, 1),
        accountant: Any = None,
    ):
        self.hypothesis_class = hypothesis_class
        self.epsilon = epsilon
        self.delta = delta
        self.alpha = alpha
        self.beta = beta
        self.ldim = ldim
        self.n = n
        self.m = m
        self.K = K
        self.A = A
        self.eta = eta
        self.convergence = convergence
        self.backend = backend
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.diagnostics = diagnostics
        self.classes = classes
        self.accountant = accountant

    def _plan(self) -> PolyPriLearnPlan:
        """The sizes of a fit at these parameters (no data read)."""
        eps, dlt = check_privacy(self.epsilon, self.delta)
        d = resolve_d(self._the_class(), self.ldim, "PolyPriLearn")
        return polyprilearn_plan(
            d,
            self.alpha,
            eps,
            dlt,
            self.beta,
            n=self.n,
            m=self.m,
            K=self.K,
            A=self.A,
            eta=self.eta,
            convergence=self.convergence,
        )

    def privacy(self) -> tuple[float, float, str]:
        """The learner's claim (ε, δ, neighbouring relation): its data split's composition of the mechanism it runs
        (parameters only, no data)."""
        eps, dlt = check_privacy(self.epsilon, self.delta)
        plan = self._plan()
        claim = polyprilearn_claim(polyprilearn_split(plan, plan.total)[0], polyprilearn_mechanism(eps, dlt, plan))
        return claim.epsilon, claim.delta, claim.relation

    def _learn(self, hclass: HypothesisClass, source: ExampleSource, rng: Any) -> tuple[Hypothesis, Any]:
        res = polyprilearn(
            hclass,
            source,
            epsilon=self.epsilon,
            delta=self.delta,
            d=self.ldim,
            backend=self.backend,
            seed=rng,
            n_jobs=self.n_jobs,
            diagnostics=self.diagnostics,
            plan=self._plan(),
        )
        return res.chosen, res

    def _fit01(self, points: Any, y01: np.ndarray, rng: np.random.Generator) -> tuple[Hypothesis, Any]:
        self._check_fallback(len(y01))
        return self._learn(self.hclass_, ArraySource(points, y01), rng)

    def _check_public_sizes(self, n_rows: int) -> None:
        """InsufficientSampleError from the public sizes, before the charge (nothing spent on such a refusal)."""
        hclass = self._the_class()
        require_examples(hclass, resolve_d(hclass, self.ldim, "PolyPriLearn"), self._plan(), n_rows)

    def _check_fallback(self, n: int) -> None:
        """FallbackLikelyWarning when the public sizes make ⊥ near certain (issue 28; no data read)."""
        check_polyprilearn_fit(self, n)
