"""Private model selection (issue 28 item 2): :class:`PrivateGridSearchCV` picks a configuration of a private
estimator on private data with ONE proved claim for the whole search — choosing ε, the class or the learner by
looking at scores on the data is a release that a grid search's fits do not cover.

The data are cut once (:class:`~littlestone.privacy.DataSplit`) into a training part and a disjoint validation part
of ``validation_size`` (after a data-independent shuffle); a candidate is trained on the training part only and
scored by its accuracy on the validation part (sensitivity 1/n_val under replace-one: the model is fixed by the
other part). Two selectors, derivation in docs/derivations.md ("Private model selection"):

* ``method="em"``: the training part is cut into K disjoint chunks; configuration k is trained on chunk k at the
  selector's ε (parallel composition: ε on the training part), and the exponential mechanism at ε picks one by its
  validation accuracy (MT07). Total claim (ε, max_k δ_k). Each candidate sees ε·n_train/K "privacy-weighted" examples.
* ``method="lt19"``: Liu–Talwar random stopping (LT19 Thm 3.4). One run Q draws a configuration uniformly at random,
  trains it on the whole training part at ε/3 and releases its validation accuracy plus Laplace noise at ε/3: Q is
  ε/3-DP (its two steps read disjoint parts). Q is repeated; after each run the selector stops with probability γ
  (``n_iter`` = 1/γ runs expected) and outputs the best run seen. Total claim 3·ε/3 = ε, whatever γ. The number of
  runs and the stopping coins must stay secret (a known T would make it a best-of-T, which is not 3ε-DP): on the
  secure backend they come from the OS CSPRNG, never from ``random_state``; only the best run is released.
  Pure-DP candidates only (the theorem's ε-DP Q). Each candidate sees ε·n_train/3.
* ``method="auto"`` (default): "lt19" when every candidate is pure DP and :func:`lt19_is_tighter` — its candidates
  see (ε/3)·n_train against EM's ε·n_train/K (more iff K > 3), but it compares ~n_iter Laplace-noised scores of scale
  3/(ε n_val) where EM pays 2 ln K/(ε n_val) — else "em".

The selector charges its whole claim before any data is read — to its own ``accountant``, else to the estimator's
``accountant=`` (the user named where this estimator's spends go), else to the default accountant; two different
accountants are refused in one line. The candidate fits inside are covered by the charge and charge nothing.

``estimator`` may be a :class:`sklearn.pipeline.Pipeline` whose last step is the private estimator and whose earlier
steps are public, data-independent maps (:mod:`littlestone.pac.public_maps`: GridDiscretizer with declared ranges, a
declared column selection, …; a data-fitted step is refused: fitting it on private data is a release no claim
covers); grid keys are then scikit-learn's ``step__param``. Candidates are prepared once per configuration (their
claims are read from them, no fit); hypothesis classes are immutable values shared by every clone (HypothesisClass
doc), so a search costs about its candidates' fits (benchmarks/bench_private_grid_search.py). A grid that varies only
parameters which do not change the fitted model (``_report_only_params``, e.g. the generic learner's ``mode`` and
``alpha``) trains identical candidates on fractions of the data: :class:`IdenticalCandidatesWarning` says so. Fitted: ``best_estimator_``, ``best_params_``,
``best_index_``, ``best_score_`` (lt19: the best run's noisy validation accuracy, part of the release; em: None),
``claim_`` and ``method_``. With ``diagnostics=True`` also the exact validation accuracies and the number of runs
(not covered by the claim; never saved).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import ParameterGrid
from sklearn.pipeline import Pipeline
from sklearn.utils.validation import check_is_fitted

from .._random import as_generator
from ..errors import LittlestoneError, PrivacyParameterError
from ..privacy.accountant import charge_fit, claim_pair, contained
from ..privacy.exponential import ExponentialMechanism
from ..privacy.laplace import LaplaceMechanism
from ..privacy.mechanism import PrivacyClaim
from ..privacy.partition import DataSplit, PartReader
from ..privacy.subsampling import secret_generator
from .blm20 import resolve_backend
from .public_maps import check_public_steps

__all__ = [
    "IdenticalCandidatesWarning",
    "PrivateGridSearchCV",
    "lt19_is_tighter",
    "selection_claim",
    "selection_split",
]

METHODS = ("auto", "em", "lt19")
#: parameters the selector sets on every candidate (they carry its share of the budget)
_SET_BY_SELECTOR = ("epsilon", "accountant")
_MISSING = object()


class IdenticalCandidatesWarning(UserWarning):
    """The grid varies only parameters that do not change the fitted model: its candidates are identical learners,
    each trained on a fraction of the data (or at a fraction of ε) — fewer examples than one plain fit."""


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # arrays and the like: compared by identity
        return False


def varied_keys(configs: list[dict]) -> list[str]:
    """The grid keys whose value differs between two configurations (a key missing from one counts as varied)."""
    keys = sorted({k for c in configs for k in c})
    first = configs[0]
    return [k for k in keys if not all(_same(c.get(k, _MISSING), first.get(k, _MISSING)) for c in configs[1:])]


class _Rows:
    """The shuffled arrays as an example source for the split (labels as given: the candidates' own classes)."""

    def __init__(self, X: np.ndarray, y: np.ndarray):
        self.X, self.y = X, y

    def __len__(self) -> int:
        return len(self.y)

    def batch(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        return self.X[start:stop], self.y[start:stop]


def selection_split(method: str, k: int, n_train: int, n_val: int) -> tuple[DataSplit, list, Any]:
    """The selector's data use, declared once (sizes only, after the public shuffle): "em" — K disjoint chunks of
    ⌊n_train/K⌋ records, chunk k feeding candidate k, then the validation block feeding the selection; "lt19" — the
    training block feeding every run's candidate, then the validation block feeding every run's score."""
    split = DataSplit(n_train + n_val, "private selection's sample")
    if method == "em":
        size = n_train // k
        train = [split.feed(p, f"candidate {i}") for i, p in enumerate(split.blocks(k, size, "chunk"))]
        split.block(n_train - k * size, "unused remainder")
        val = split.feed(split.block(n_val, "validation"), "selection")
    else:
        train = [split.feed(split.block(n_train, "training"), "candidate")]
        val = split.feed(split.block(n_val, "validation"), "score")
    return split, train, val


def selection_claim(
    split: DataSplit, method: str, candidate_claims: list[PrivacyClaim], epsilon: float
) -> PrivacyClaim:
    """The selector's total claim from its candidates' own claims (each at the ε the selector gives it) and its
    selection step, composed over its data split (docs/derivations.md, "Private model selection"): "em" — the
    exponential mechanism at ε over validation accuracy (sensitivity 1/n_val); "lt19" — 3× the claim of one run Q
    (a uniformly drawn candidate at ε/3, its validation accuracy + Laplace at ε/3; LT19 Thm 3.4)."""
    n_val = split.parts[-1].size
    if method == "em":
        claims: dict[str, Any] = {f"candidate {i}": c for i, c in enumerate(candidate_claims)}
        claims["selection"] = ExponentialMechanism(epsilon, sensitivity=1.0 / n_val)
        return split.compose(claims, what="private selection: EM over validation accuracy (MT07)")
    if any(c.delta > 0 for c in candidate_claims):
        raise PrivacyParameterError("method='lt19' needs pure ε-DP candidates (LT19 Thm 3.4); use method='em'")
    worst = max(candidate_claims, key=lambda c: c.epsilon)
    drawn = PrivacyClaim(worst.epsilon, 0.0, worst.relation, "a uniformly drawn candidate", tuple(candidate_claims))
    q = split.compose({"candidate": drawn, "score": LaplaceMechanism(epsilon / 3.0, 1.0 / n_val)}, what="one run Q")
    return PrivacyClaim(3.0 * q.epsilon, 0.0, q.relation, "private selection: LT19 random stopping (Thm 3.4)", (q,))


def lt19_is_tighter(k: int, log_candidates: float, n_train: int, n_val: int, n_iter: int) -> bool:
    """Whether random stopping's error proxy is below the EM selector's (docs/derivations.md, "Which is tighter"):
    the generic learner's excess error 2·ln|H|/(ε·n) (Kal-LN §3 Thm 1) at n = n_train/3 vs n_train/K records of
    privacy, plus the selection's: 2·ln K/(ε·n_val) for EM (DR14 Thm 3.11), ≈ (3/(ε·n_val))·ln(n_iter) for the best of
    ~n_iter Laplace-noised scores. ε cancels:  LT19 iff 2·ln|H|·(K − 3)/n_train > (3·ln n_iter − 2·ln K)/n_val."""
    if k <= 3:
        return False
    return 2.0 * log_candidates * (k - 3) / n_train > (3.0 * math.log(max(n_iter, 2)) - 2.0 * math.log(k)) / n_val


def _log_candidates(est: Any, n_features: int) -> float:
    """ln of the number of hypotheses a (generic) learner chooses among: its candidate list, its finite class, or
    the default stumps on ``n_features`` features; ln 1000 when it is not a finite choice."""
    from ._sklearn import resolve_class
    from .candidates import stump_candidates

    try:
        cands = getattr(est, "candidates", None)
        if cands is not None:
            return math.log(max(len(cands), 2))
        spec = getattr(est, "hypothesis_class", None)
        if spec is None:
            return math.log(len(stump_candidates(max(int(n_features), 1))))
        size = float(resolve_class(spec).version_space().size())
        return math.log(size) if math.isfinite(size) and size >= 2 else math.log(1000.0)
    except (LittlestoneError, TypeError, ValueError, OverflowError):
        return math.log(1000.0)


class PrivateGridSearchCV(ClassifierMixin, BaseEstimator):
    """Pick a configuration of a private littlestone estimator with one (ε, δ) claim for the whole search
    (module doc). ``param_grid`` as scikit-learn's (a dict or a list of dicts); the selector sets each candidate's
    ``epsilon`` (its share), so the grid may not contain it. ``n_iter``: expected runs of "lt19" (default 5K)."""

    def __init__(
        self,
        estimator: Any,
        param_grid: Any,
        epsilon: float = 1.0,
        *,
        method: str = "auto",
        validation_size: float = 0.3,
        n_iter: int | None = None,
        shuffle: bool = True,
        backend: Any = "secure",
        random_state: Any = None,
        accountant: Any = None,
        diagnostics: bool = False,
    ):
        self.estimator = estimator
        self.param_grid = param_grid
        self.epsilon = epsilon
        self.method = method
        self.validation_size = validation_size
        self.n_iter = n_iter
        self.shuffle = shuffle
        self.backend = backend
        self.random_state = random_state
        self.accountant = accountant
        self.diagnostics = diagnostics

    # ------------------------------------------------------------------ the plan (public quantities only)
    def _parts(self) -> tuple[list, str, Any]:
        """(the steps before the private estimator, the prefix of its grid keys, the private estimator)."""
        est = self.estimator
        if isinstance(est, Pipeline):
            if not est.steps:
                raise LittlestoneError("PrivateGridSearchCV got an empty Pipeline")
            name, final = est.steps[-1]
            return list(est.steps[:-1]), f"{name}__", final
        return [], "", est

    @staticmethod
    def _final(candidate: Any) -> Any:
        return candidate.steps[-1][1] if isinstance(candidate, Pipeline) else candidate

    def _configs(self) -> list[dict]:
        configs = list(ParameterGrid(self.param_grid))
        if not configs:
            raise LittlestoneError("param_grid gives no configuration")
        for c in configs:
            bad = sorted({k.rsplit("__", 1)[-1] for k in c} & set(_SET_BY_SELECTOR))
            if bad:
                raise LittlestoneError(
                    f"param_grid may not set {', '.join(bad)}: the selector gives each candidate its share of epsilon"
                )
        pre, _, final = self._parts()
        params = final.get_params(deep=True)
        if "epsilon" not in params or not callable(getattr(final, "privacy", None)):
            what = "the last step of the Pipeline" if pre or isinstance(self.estimator, Pipeline) else "the estimator"
            raise LittlestoneError(
                f"PrivateGridSearchCV selects among private littlestone estimators (with epsilon and privacy()); "
                f"{what} is a {type(final).__name__}"
            )
        return configs

    def _accountant(self) -> Any:
        """Where the search's one claim is charged: its own accountant, else the estimator's (module doc)."""
        mine, theirs = self.accountant, getattr(self._parts()[2], "accountant", None)
        if mine is not None and theirs is not None and mine is not theirs:
            raise LittlestoneError(
                "PrivateGridSearchCV(accountant=...) and its estimator's accountant= are different accountants: "
                "give one of them (the search charges its one claim there)"
            )
        return mine if mine is not None else theirs

    def _candidates(self, configs: list[dict]) -> list[Any]:
        """One configured candidate per configuration (a clone: the classes in it are shared, not copied), its
        steps before the private estimator checked to be public maps."""
        out = []
        for c in configs:
            cand = clone(self.estimator).set_params(**c)
            if isinstance(cand, Pipeline):
                check_public_steps(cand.steps[:-1])
            out.append(cand)
        return out

    def _warn_identical(self, configs: list[dict]) -> None:
        """IdenticalCandidatesWarning when every varied grid key is one the private estimator declares report-only
        (``_report_only_params``; parameters only, no data)."""
        if len(configs) < 2:
            return
        _, prefix, final = self._parts()
        report = {prefix + p for p in getattr(final, "_report_only_params", ())}
        varied = varied_keys(configs)
        if all(k in report for k in varied):
            k = len(configs)
            what = (
                f"param_grid varies only {', '.join(varied)}, which change(s) what {type(final).__name__} reports, "
                "not the model it fits"
                if varied
                else f"param_grid's {k} configurations are all the same"
            )
            warnings.warn(
                f"{what}: the {k} candidates would be identical and each trains on a fraction of the data (a 1/{k} "
                "chunk of the training part, or the whole of it at ε/3) — vary a parameter that changes the model "
                "(e.g. the class, or a GridDiscretizer's bins) or fit the estimator once",
                IdenticalCandidatesWarning,
                stacklevel=3,
            )

    def _sizes(self, n: int) -> tuple[int, int]:
        v = float(self.validation_size)
        if not 0.0 < v < 1.0:
            raise LittlestoneError(f"validation_size must lie in (0, 1), got {self.validation_size!r}")
        n_val = int(math.floor(v * n))
        if n_val < 1 or n - n_val < 1:
            raise LittlestoneError(f"{n} examples leave no validation or no training part at validation_size={v:g}")
        return n - n_val, n_val

    def _method(
        self, configs: list[dict], cands: list[Any], eps: float, n_train: int, n_val: int, n_features: int
    ) -> tuple[str, list[PrivacyClaim], float]:
        if self.method not in METHODS:
            raise LittlestoneError(f"method must be one of {', '.join(METHODS)}, got {self.method!r}")
        k = len(configs)
        finals = [self._final(c) for c in cands]

        def claims(share: float, n_part: int) -> list[PrivacyClaim]:
            out = []
            for c, final in zip(configs, finals):
                final.set_params(epsilon=share)  # the prepared candidate carries its share (no clone, no fit)
                claim = final._fit_claim(n_part) if hasattr(final, "_fit_claim") else final.privacy()
                e, d = claim_pair(claim)
                rel = claim[2] if isinstance(claim, tuple) and len(claim) > 2 else getattr(claim, "relation", "")
                out.append(PrivacyClaim(e, d, rel or "replace-one", f"{type(final).__name__}({c})"))
            return out

        method = self.method
        if method in ("auto", "lt19"):
            lt = claims(eps / 3.0, n_train)
            if method == "lt19":
                return "lt19", lt, eps / 3.0
            if k > 3 and all(c.delta == 0 for c in lt):
                log_h = max(_log_candidates(f, n_features) for f in finals)
                if lt19_is_tighter(k, log_h, n_train, n_val, self._n_iter(k)):
                    return "lt19", lt, eps / 3.0
        return "em", claims(eps, n_train // k), eps

    def _n_iter(self, k: int) -> int:
        return 5 * k if self.n_iter is None else max(int(self.n_iter), 1)

    def privacy(self, n_samples: int | None = None) -> tuple[float, float, str]:
        """The selector's total claim (ε, δ, relation) on ``n_samples`` examples (public; default: the fitted n)."""
        n = n_samples if n_samples is not None else getattr(self, "n_samples_", None)
        if n is None:
            raise LittlestoneError("PrivateGridSearchCV's claim depends on the split sizes: give privacy(n_samples=n)")
        return self._plan(int(n), getattr(self, "n_features_in_", 1))[0:3]  # type: ignore[return-value]

    def _plan(
        self, n: int, n_features: int = 1
    ) -> tuple[float, float, str, str, list[dict], float, PrivacyClaim, tuple, list[Any]]:
        eps = float(self.epsilon)
        if not (math.isfinite(eps) and eps > 0):
            raise PrivacyParameterError(f"epsilon must be a finite number > 0, got {self.epsilon!r}")
        configs = self._configs()
        n_train, n_val = self._sizes(n)
        if n_train < len(configs):
            raise LittlestoneError(f"{n_train} training examples cannot be cut into {len(configs)} chunks")
        cands = self._candidates(configs)
        method, cand_claims, share = self._method(configs, cands, eps, n_train, n_val, n_features)
        parts = selection_split(method, len(configs), n_train, n_val)
        total = selection_claim(parts[0], method, cand_claims, eps)
        if total.epsilon > eps * (1 + 1e-9):  # a candidate whose claim exceeds the share it was given
            raise PrivacyParameterError(f"the selection composes to ε = {total.epsilon:.6g} > epsilon = {eps:g}")
        return total.epsilon, total.delta, total.relation, method, configs, share, total, parts, cands

    # ------------------------------------------------------------------ fit
    def fit(self, X: Any, y: Any) -> "PrivateGridSearchCV":
        shape = getattr(X, "shape", None)
        n = int(shape[0]) if shape is not None else len(X)
        k_features = int(shape[1]) if shape is not None and len(shape) > 1 else 1
        e, d, _, method, configs, share, total, (split, train, val), cands = self._plan(n, k_features)
        accountant = self._accountant()
        self._warn_identical(configs)
        charge_fit(accountant, (e, d), f"PrivateGridSearchCV ({method}, {len(configs)} configurations)")
        X = np.asarray(X)
        y = np.asarray(y)
        if len(y) != n:
            raise LittlestoneError(f"X has {n} rows but y has {len(y)} labels")
        rng = as_generator(self.random_state)
        noise = resolve_backend(self.backend, rng)
        order = rng.permutation(n) if self.shuffle else np.arange(n)  # data-independent: may be public
        split.bind(_Rows(X[order], y[order]))  # from here on, data only through the split's readers
        k, n_val = len(configs), val.size
        Xv, yv = split.reader(val, "selection" if method == "em" else "score").read()

        def train_one(i: int, part: Any, step: str) -> Any:
            # "em" trains each prepared candidate once; "lt19" may draw a configuration again: a fresh clone
            cand = cands[i] if method == "em" else clone(cands[i])
            final = self._final(cand)
            cp = final.get_params(deep=False)
            final.set_params(epsilon=share)
            if "backend" in cp:
                final.set_params(backend=self.backend if isinstance(self.backend, str) else noise)
            if "random_state" in cp:
                final.set_params(random_state=int(rng.integers(0, 2**62)))
            Xt, yt = part.read() if isinstance(part, PartReader) else split.reader(part, step).read()
            with contained():  # covered by the selector's charge
                return cand.fit(Xt, yt)

        def accuracy(model: Any) -> float:
            return float(np.mean(model.predict(Xv) == yv))

        exact: list[float] = []
        if method == "em":
            models = [train_one(i, train[i], f"candidate {i}") for i in range(k)]
            exact = [accuracy(m) for m in models]
            best = int(ExponentialMechanism(share, sensitivity=1.0 / n_val)(np.array(exact), backend=noise))
            self.best_estimator_, self.best_index_, self.best_score_ = models[best], best, None
            runs = k
        else:
            training = split.reader(train[0], "candidate")  # every run Q reads the one training part
            coins = secret_generator(noise, rng)  # the run count and the draws stay secret on the secure backend
            gamma = 1.0 / self._n_iter(k)
            score_mech = LaplaceMechanism(share, sensitivity=1.0 / n_val)
            best_score, best_model, best_i, runs = -math.inf, None, -1, 0
            while True:
                i = int(coins.integers(k))
                model = train_one(i, training, "candidate")
                acc = accuracy(model)
                exact.append(acc)
                noisy = float(score_mech(acc, backend=noise))
                runs += 1
                if noisy > best_score:
                    best_score, best_model, best_i = noisy, model, i
                if coins.random() < gamma:
                    break
            self.best_estimator_, self.best_index_, self.best_score_ = best_model, best_i, best_score
        self.best_params_ = dict(configs[self.best_index_])
        self.claim_ = total
        self.method_ = method
        self.n_samples_ = n
        self.n_features_in_ = k_features
        self.classes_ = getattr(self.best_estimator_, "classes_", None)
        if self.diagnostics:  # exact statistics of the private data: not covered by the claim, never saved
            self.diagnostics_ = {"validation_accuracies": exact, "runs": runs}
        return self

    # ------------------------------------------------------------------ the chosen model
    def predict(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    def decision_function(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.decision_function(X)

    @property
    def spent(self) -> tuple[float, float]:
        """The (ε, δ) claim of the fitted selection."""
        check_is_fitted(self, "claim_")
        return self.claim_.pair
