"""LWY25 Algorithm 3 (§4.1, Thm 4.1, Cor 4.3): a private *proper* online learner from a sanitizer for H^label and
any non-private proper online learner A.

The horizon is cut into batches of B rounds. Inside batch b every round draws i_t uniformly from [B] and predicts
with h_t ~ A(S_{i_t}^b); the B learners are frozen during the batch. At the end of the batch the sanitizer for
H^label runs on the batch's B labelled examples, its B synthetic examples are randomly permuted and the i-th goes to
subsequence i — each subsequence gets exactly one synthetic point per batch. The data are only read by the
sanitizer, on disjoint batches: the learner's claim is the sanitizer's (ε, δ) (Thm 4.1's proof: post-processing and
parallel composition). Regret (Thm 4.1): O(B·R(T/B) + αT) conditioned on all T/B sanitizations succeeding.

A (``learner=``):
  * "hedge" — exponential weights over the (finite) class: a randomized proper agnostic learner with expected regret
    R(τ) = √(τ ln|H|/2) (the regret Thm 4.1 needs; default);
  * "soa" — the SOA of the examples consistent with the current version space (contradicting ones are skipped, so its
    output stays the SOA of a version space); proper only where the class's SOA classifiers lie in H — checked on
    every hypothesis it outputs (LittlestoneError otherwise). Its guarantee is the realizable one (≤ Ldim mistakes
    per subsequence on realizable synthetic data).

The sanitizer (``sanitizer=``) is MWEM on H^label (finite classes) or a factory (epsilon, batch_size, run_index) ->
object with fit(labelled points), synthetic(B) and privacy() — e.g. the Bousquet–Livni–Moran sanitizer of Thm 4.2,
``littlestone.sanitizers.sequential_fooling_factory(LabelClass(H), delta)``.
``batch="cor4.3"`` (default) is Cor 4.3's B = ⌈(T·d⁵·√d*/ε)^{1/2}⌉ with its Õ constants and logs set to 1;
``batch="theory"`` minimizes the concrete bound B·R(T/B) + 4αT with MWEM's α(B) (β = 1/T²) — that bound is vacuous
(> T) at practical sizes (MWEM's α(n) falls like n^{-1/3}, Thm 4.2's sanitizer like n^{-1/2}), so it then picks B = T.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np


from .._labels import private_online_labels
from .._random import SeedLike, as_generator, spawn_seeds
from ..bounds.lwy25_agnostic import corollary43_batch_size, theory_batch_size
from ..classes import HypothesisClass, LabelClass
from ..errors import LittlestoneError
from ..experts.base import check_horizon, sample_rows
from ..online.base import OnlineLearner
from ..privacy import DataSplit, PrivacyClaim, check_epsilon
from ..sanitizers.dyadic import sanitizer_claim
from ..sanitizers.mwem import MWEM
from ..sanitizers.queries import query_family


def check_batch_size(batch: Any, horizon: int) -> int:
    """Algorithm 3's batch size B as an int: 2 <= B <= T (a clear error otherwise)."""
    if isinstance(batch, bool) or not isinstance(batch, (int, np.integer)):
        raise LittlestoneError(f"batch size B must be an integer, 'theory' or 'cor4.3', got {batch!r}")
    if batch < 2:
        raise LittlestoneError(
            f"batch size B = {batch} is too small: Algorithm 3 sanitizes batches of B examples "
            "into B subsequences (need B >= 2)"
        )
    if batch > horizon:
        raise LittlestoneError(f"batch size B = {batch} exceeds the horizon T = {horizon}")
    return int(batch)


class _SealedCount:
    """The mistake count of a learner built without diagnostics: a token that holds NO value (issue 26 item 4) —
    ``+`` works (the online protocol advances it) and returns the token; reading it (int, comparison, printing)
    raises. The exact count exists only with ``diagnostics=True``; without, it is never computed into the object, so
    no underscore attribute and no pickle of the learner holds it."""

    __slots__ = ("_owner",)

    def __init__(self, owner: str):
        self._owner = owner

    def __add__(self, other: int) -> "_SealedCount":
        return self

    __iadd__ = __add__

    def _refuse(self, *_: Any) -> Any:
        raise LittlestoneError(
            f"{self._owner}.mistakes is an exact count of the private data, which the privacy claim does not cover: "
            "it is a diagnostic, counted only with diagnostics=True"
        )

    __int__ = __index__ = __float__ = __bool__ = __repr__ = __str__ = __format__ = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __sub__ = __rsub__ = __radd__ = _refuse
    __hash__ = None  # type: ignore[assignment]


class _RoundLog:
    """The rounds played and not yet read by a sanitizer run, addressed by round number (0-based): the example source
    Algorithm 3's :class:`BatchSplit` is bound to. A round leaves the log when its batch is read."""

    def __init__(self, horizon: int):
        self.horizon, self.base = int(horizon), 0
        self.xs: list = []
        self.ys: list = []

    def __len__(self) -> int:
        return self.horizon

    def batch(self, start: int, stop: int) -> tuple[list, list]:
        if not self.base <= start <= stop <= self.base + len(self.xs):
            raise LittlestoneError(
                f"rounds {start}..{stop - 1} are not in the log (it holds rounds {self.base}..{self.base + len(self.xs) - 1})"
            )
        return self.xs[start - self.base : stop - self.base], self.ys[start - self.base : stop - self.base]

    def drop(self, stop: int) -> None:
        del self.xs[: stop - self.base], self.ys[: stop - self.base]
        self.base = stop


class BatchSplit:
    """Algorithm 3's data use, declared once (LWY25 Thm 4.1's proof): round t (0-based) is read by the sanitizer run
    of batch ⌊t/B⌋ only; the K = ⌊T/B⌋ batches are disjoint, so the K runs compose in PARALLEL — the learner's claim
    is the composition of the runs' claims that :class:`~littlestone.privacy.DataSplit` computes from the blocks it
    handed out (one block per batch, each fed to its run). A trailing partial batch (T mod B rounds) is never
    sanitized, so never read. The rounds go into the split's log (:meth:`record`) and a run gets its data only from
    :meth:`read`: the reader of its own block, so a run cannot read a round of another batch."""

    def __init__(self, horizon: int, batch: int):
        self.horizon, self.batch = int(horizon), int(batch)
        self._log = _RoundLog(self.horizon)
        self.data = DataSplit(self.horizon, "Algorithm 3's stream", source=self._log)
        self.parts = self.data.blocks(self.n_batches, self.batch, "batch")
        for b, part in enumerate(self.parts):
            self.data.feed(part, f"sanitizer[{b}]")

    @property
    def n_batches(self) -> int:
        return self.horizon // self.batch

    @property
    def pending(self) -> int:
        """Rounds recorded since the last batch was read (the current batch's rounds so far)."""
        return len(self._log.xs)

    def record(self, x: Any, y: Any) -> None:
        """Log one round (the next round number)."""
        self._log.xs.append(x)
        self._log.ys.append(y)

    def record_many(self, xs: list, ys: list) -> None:
        """Log consecutive rounds."""
        self._log.xs.extend(xs)
        self._log.ys.extend(ys)

    def rounds(self, b: int) -> range:
        """The rounds (0-based) batch b reads."""
        if not 0 <= b < self.n_batches:
            raise LittlestoneError(f"batch {b} is not one of the {self.n_batches} batches")
        return range(self.parts[b].start, self.parts[b].stop)

    def read(self, b: int) -> tuple[list, list]:
        """The points and labels of batch b, read through the reader of its block (then dropped from the log)."""
        self.rounds(b)
        X, y = self.data.reader(self.parts[b], f"sanitizer[{b}]").read()
        self._log.drop(self.parts[b].stop)
        return X, y

    def privacy(self, run_claims: list[PrivacyClaim]) -> PrivacyClaim:
        """The composition over the blocks (parallel: the batches are disjoint) of the per-batch claims."""
        if len(run_claims) != self.n_batches:
            raise LittlestoneError(f"{len(run_claims)} run claims for {self.n_batches} batches")
        what = "Algorithm 3 (LWY25 Thm 4.1): disjoint batches"
        c = self.data.compose({f"sanitizer[{b}]": c for b, c in enumerate(run_claims)}, what=what)
        return PrivacyClaim(c.epsilon, c.delta, c.relation, what, tuple(run_claims))  # one part per run


class PrivateAlgorithm3Base(OnlineLearner):
    """What both Algorithm 3 learners share: the declared label pair (``labels=(0, 1)`` by default; None reads it
    from the data, with a PrivacyLeakWarning), the exact mistake count as a diagnostic (``diagnostics=True`` only,
    never in repr), and the batch split."""

    agnostic = True  # a regret guarantee on noisy streams (LWY25 Thm 4.4)

    private = True

    def __init__(self, hypothesis_class: Any, *, labels: Any, diagnostics: bool, accountant: Any = None):
        self.labels = private_online_labels(labels, type(self).__name__)  # the declared pair (None: read from data)
        #: charged the whole claim (:meth:`privacy`) before the first example is read (None: the default accountant);
        #: the sanitizer runs inside are covered by that charge
        self.accountant = accountant
        self._charged = False
        super().__init__(hypothesis_class, labels=self.labels)
        #: fixed at construction: without diagnostics the mistakes are never counted (turning it on later cannot
        #: reveal a count that was never kept)
        self._counting = self.diagnostics = bool(diagnostics)
        self.mistakes = 0

    @property
    def mistakes(self) -> Any:
        """The exact number of mistakes so far (a function of the private labels): an int with ``diagnostics=True``;
        otherwise a sealed token that the protocol can still advance but that holds no value and refuses to be
        read (the count is not kept at all)."""
        if getattr(self, "_counting", False):
            return self._mistakes
        return _SealedCount(type(self).__name__)

    @mistakes.setter
    def mistakes(self, value: Any) -> None:
        if getattr(self, "_counting", False):  # (OnlineLearner.__init__ sets 0 before diagnostics is known)
            self._mistakes = int(value)
        elif not isinstance(value, (_SealedCount, int)):
            raise LittlestoneError(f"mistakes: expected a count, got {value!r}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.hypothesis_class!r}, n_learned={self.n_learned})"

    def release(self) -> dict[str, Any]:
        """Exactly what the privacy claim covers (issue 26 item 4): the hypothesis behind the last prediction (drawn
        from learners fed only sanitizer outputs), the public parameters (the declared label pair; None when it was
        read from the data), the rounds played, the synthetic points per subsequence (one per batch: public) and the
        claim — never the mistakes or an example, whatever ``diagnostics`` says. The learner object and its pickle
        hold the current batch's examples (the sanitizer's next input): the owner's private file, not a release."""
        return {
            "learner": type(self).__name__,
            "hypothesis": self._last_hypothesis(),
            "parameters": {
                "class": self.hypothesis_class.name,
                "horizon": self.horizon,
                "epsilon": self.epsilon,
                "batch": self.batch,
                "learner": self.learner,
                "labels": self.labels,
            },
            "rounds": self.n_learned,
            "subsequence_sizes": self.subsequence_sizes_.tolist(),
            "privacy": self.privacy(),
        }

    def _last_hypothesis(self) -> Any:
        """The hypothesis behind the last prediction (None before the first)."""
        return None if self._round_hyp is None else self._hypothesis_at(self._round_hyp[1])

    def learn_one(self, x: Any, y: Any) -> None:
        """Learn (x, y) (river's convention: returns None); the first call charges the accountant before the example
        is read."""
        self._charge_accountant()
        super().learn_one(x, y)

    def learn_many(self, X: Any, y: Any) -> np.ndarray:
        """The rounds of ``learn_one`` on each example (the first call charges the accountant first)."""
        self._charge_accountant()
        return super().learn_many(X, y)

    def _charge_accountant(self) -> None:
        """The whole claim, charged before the first example is read (BudgetExceededError if it does not fit:
        nothing read, nothing spent); the sanitizer runs it composes then charge nothing (issue 28 item 1)."""
        if not self._charged:
            from ..privacy.accountant import charge_fit

            charge_fit(self.accountant, self.privacy(), f"{type(self).__name__} (T={self.horizon})")
            self._charged = True

    def _fit_sanitizer(self, fit: Any, *args: Any) -> None:
        """One batch's sanitizer run (covered by the learner's charge: :func:`~littlestone.privacy.accountant.contained`)."""
        from ..privacy.accountant import contained

        with contained():
            fit(*args)

    def _run_labels(self, y: Any) -> np.ndarray:
        """0/1 labels of a ``run`` batch, checked against the declared (or already fixed) pair as learn_one does."""
        arr = np.asarray(y)
        if arr.dtype.kind not in "biuf" or arr.ndim != 1:
            arr = np.asarray(list(y), dtype=float)
        y01, neg = self._encode_many(arr)
        if self._negative is None and neg is not None and len(y01):
            self._negative = neg
        return y01

    def _check_run(self, claim: PrivacyClaim, declared: PrivacyClaim, b: int) -> None:
        if claim.epsilon > declared.epsilon * (1 + 1e-12) or claim.delta > declared.delta * (1 + 1e-12):
            raise LittlestoneError(
                f"the sanitizer of batch {b} claims {claim.pair}, more than declared {declared.pair}"
            )


class _HedgePool:
    """B independent Hedge learners over a finite class, evaluated in vectors (rows = learners)."""

    def __init__(self, B: int, family: Any, eta: float):
        self.logw = np.zeros((B, family.size))
        self.family, self.eta = family, eta

    def sample(self, learners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        lw = self.logw[learners]
        W = np.exp(lw - lw.max(axis=1, keepdims=True))
        return sample_rows(W, rng.random(len(learners)))

    def predict(self, hyps: np.ndarray, x_idx: np.ndarray) -> np.ndarray:
        return self.family.columns(x_idx)[np.arange(len(hyps)), hyps].astype(np.int8)

    def update(self, x_idx: np.ndarray, y: np.ndarray) -> None:
        vals = self.family.columns(x_idx)  # (B, |H|): h(x'_i)
        self.logw -= self.eta * (vals != y[:, None])


class _SOAPool:
    """B SOA learners on the examples consistent with their version spaces; every output checked to lie in H."""

    def __init__(self, B: int, H: HypothesisClass):
        self.H, self.full = H, H.version_space()
        self.V = [self.full] * B
        self._h: dict[int, Any] = {}

    def hypothesis(self, i: int) -> Any:
        h = self._h.get(i)
        if h is None:
            h = self.V[i].soa()
            if not self.full.contains(h):
                raise LittlestoneError(
                    f"the SOA is not proper on {self.H.name}: it output {h!r}, which is not in the "
                    "class (Algorithm 3 needs a proper learner; use learner='hedge')"
                )
            self._h[i] = h
        return h

    def sample(self, learners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return learners

    def predict(self, hyps: np.ndarray, x: Any) -> np.ndarray:
        return np.array([self.hypothesis(int(i))(p) for i, p in zip(hyps, x)], dtype=np.int8)

    def update(self, x: Any, y: np.ndarray) -> None:
        for i, (p, lab) in enumerate(zip(x, y)):
            W = self.V[i].restrict(p, int(lab))
            if not W.is_empty():
                if W != self.V[i]:
                    self._h.pop(i, None)
                self.V[i] = W


SanitizerFactory = Callable[[float, int, int], Any]


class Algorithm3(PrivateAlgorithm3Base):
    """(ε, δ)-DP proper online learner for a finite class (LWY25 Alg 3); river-style ``predict_one``/``learn_one``
    and a vectorized ``run(X, y)``. ``subsequence_sizes_`` counts the synthetic points each subsequence received.
    Labels: the declared pair ``labels`` ((0, 1) by default, or (-1, 1)); ``mistakes`` with ``diagnostics=True``."""

    def __init__(
        self,
        hypothesis_class: HypothesisClass,
        horizon: int,
        epsilon: float,
        *,
        batch: Any = "cor4.3",
        learner: str = "hedge",
        sanitizer: Any = "mwem",
        backend: Any = "secure",
        seed: SeedLike = None,
        labels: tuple[int, int] | None = (0, 1),
        diagnostics: bool = False,
        accountant: Any = None,
    ):
        super().__init__(hypothesis_class, labels=labels, diagnostics=diagnostics, accountant=accountant)
        H = self.hypothesis_class
        self.horizon = check_horizon(horizon)
        self.epsilon = check_epsilon(epsilon)
        self.family = query_family(H)
        self.label_class = LabelClass(H)
        if batch == "theory":
            batch = theory_batch_size(self.horizon, self.family.size, self.family.domain_size, self.epsilon)
        elif batch == "cor4.3":
            from ..dimensions import dual_ldim

            batch = corollary43_batch_size(self.horizon, max(1, H.ldim()), max(1, dual_ldim(H)), self.epsilon)
        self.batch = check_batch_size(batch, self.horizon)
        self.split = BatchSplit(self.horizon, self.batch)
        if learner not in ("hedge", "soa"):
            raise LittlestoneError(f"learner must be 'hedge' or 'soa', got {learner!r}")
        self.learner = learner
        s_rounds, s_perm, s_san = spawn_seeds(seed, 3)
        self._rng = as_generator(s_rounds)
        self._perm_rng = as_generator(s_perm)
        self._san_seeds = s_san
        self.backend = backend
        if sanitizer == "mwem":
            beta = 1.0 / (self.horizon * self.horizon)
            fam = query_family(self.label_class)
            sanitizer = lambda eps, n, i: MWEM(  # noqa: E731
                self.label_class,
                eps,
                beta=beta,
                reuse=0,  # batch="theory" is tuned on the plain HLM12 bound
                backend=self.backend,
                seed=np.random.SeedSequence(self._san_seeds.entropy, spawn_key=(*self._san_seeds.spawn_key, i)),
                _family=fam,
            )
        if not callable(sanitizer):
            raise LittlestoneError(
                "sanitizer must be 'mwem' or a factory (epsilon, batch_size, run_index) -> sanitizer"
            )
        self.make_sanitizer = sanitizer
        tau = max(1, self.horizon // self.batch)
        if learner == "hedge":
            self._pool: Any = _HedgePool(
                self.batch, self.family, math.sqrt(8.0 * math.log(max(self.family.size, 2)) / tau)
            )
        else:
            self._pool = _SOAPool(self.batch, H)
            self._pool.hypothesis(0)  # fail early when the SOA of the class itself is not in it
        self.subsequence_sizes_ = np.zeros(self.batch, dtype=np.int64)
        self._n_batches = 0
        self._round_hyp: tuple[int, int] | None = None

    # ------------------------------------------------------------------ claim (parameters only)
    def run_claim(self) -> PrivacyClaim:
        """The claim one batch's sanitizer reports (every run is checked against it before it reads data)."""
        if not hasattr(self, "_run_claim"):
            self._run_claim = sanitizer_claim(self.make_sanitizer(self.epsilon, self.batch, 0))
        return self._run_claim

    def privacy(self) -> PrivacyClaim:
        """The sanitizer runs alone read the data, one per batch of :attr:`split` (disjoint): their parallel
        composition (LWY25 Thm 4.1)."""
        return self.split.privacy([self.run_claim()] * max(1, self.split.n_batches))

    # ------------------------------------------------------------------ online protocol
    def _point_arg(self, x: Any) -> Any:
        return self.family.index_points([x]) if self.learner == "hedge" else [x]

    def _hypothesis_at(self, j: int) -> Any:
        return self.family.hypothesis(j) if self.learner == "hedge" else self._pool.hypothesis(j)

    def _predict01(self, x: Any) -> int:
        if self._round_hyp is None or self._round_hyp[0] != self.n_learned:
            i = np.array([int(self._rng.integers(self.batch))])
            self._round_hyp = (self.n_learned, int(self._pool.sample(i, self._rng)[0]))
        return int(self._pool.predict(np.array([self._round_hyp[1]]), self._point_arg(x))[0])

    def _learn01(self, x: Any, y: int) -> None:
        self._charge_accountant()  # (already charged by learn_one / learn_many / run: idempotent)
        if self.n_learned >= self.horizon:
            raise LittlestoneError(f"the horizon T={self.horizon} is exhausted")
        self.split.record(x, y)
        if self.split.pending == self.batch:
            self._end_batch()

    def _end_batch(self) -> None:
        b = self._n_batches
        points, labels = self.split.read(b)
        san = self.make_sanitizer(self.epsilon, self.batch, b)
        self._check_run(sanitizer_claim(san), self.run_claim(), b)
        self._fit_sanitizer(san.fit, list(zip(points, labels)))
        synth = list(san.synthetic(self.batch))
        if len(synth) != self.batch:
            raise LittlestoneError(f"the sanitizer returned {len(synth)} synthetic points for a batch of {self.batch}")
        perm = self._perm_rng.permutation(self.batch)
        synth = [synth[k] for k in perm]
        xs = [p[0] for p in synth]
        ys = np.array([int(p[1]) for p in synth], dtype=np.int8)
        self._pool.update(self.family.index_points(xs) if self.learner == "hedge" else xs, ys)
        self.subsequence_sizes_ += 1
        self._n_batches += 1

    def run(self, X: Any, y: Any) -> np.ndarray:
        """Play the rounds (X[t], y[t]) in order; returns the 0/1 predictions (mistakes counted as in learn_one)."""
        self._charge_accountant()
        y01 = self._run_labels(y)
        if len(X) != len(y01):
            raise LittlestoneError(f"{len(X)} points but {len(y01)} labels")
        if self.n_learned + len(y01) > self.horizon:
            raise LittlestoneError(f"{self.n_learned + len(y01)} rounds for a horizon of T={self.horizon}")
        pts = self.hypothesis_class.validate_points(X)
        idx = self.family.index_points(pts) if self.learner == "hedge" else None
        preds = np.empty(len(y01), dtype=np.int8)
        pos = 0
        while pos < len(y01):
            end = min(len(y01), pos + self.batch - self.split.pending)
            k = end - pos
            learners = self._rng.integers(self.batch, size=k)
            hyps = self._pool.sample(learners, self._rng)
            arg = idx[pos:end] if idx is not None else [pts[t] for t in range(pos, end)]
            preds[pos:end] = self._pool.predict(hyps, arg)
            for t in range(pos, end):
                self.split.record(pts[t], int(y01[t]))
                self.n_learned += 1
                if self.split.pending == self.batch:
                    self._end_batch()
            pos = end
        self.mistakes += int((preds != y01).sum())
        self._round_hyp = None
        return preds
