"""Realizable sanitization (LWY25 Def E.1, Lemma E.2, Lemma E.4, Thm E.5) for explicit finite classes.

An (α, β)-realizable sanitizer outputs Est: H → {0,1} with, w.p. 1 − β, Est(h) = 1 whenever P̂_S(h) ≥ α and
Est(h) = 0 whenever P̂_S(h) = 0. Theorem E.5 plays a sequential game: the generator is the SOA over the class
X_{m,α/2} = {(x_1..x_m)} of predicates on H, (x_1..x_m)(h) = 1[(1/m) Σ h(x_i) ≥ α/2}; each round its current
predicate Q_t is sent to the discriminator of Lemma E.2, which either certifies it ("WIN": Est = Q_t) or returns a
hypothesis h with a label y ≠ Q_t(h) — a forced SOA mistake. Lemma E.4 (m = C d_V ln(1/α)/α) puts a predicate
consistent with every answer in X_{m,α/2}, so the game ends within D + 1 rounds, D = Ldim(X_{m,α/2}).

Discriminator (Lemma E.2, exactly): H_0 = {Q = 0}, data labelled 1; a private proper agnostic empirical learner
picks h_0 ∈ H_0 (≈ max P̂_S); output (h_0, 1) if P̂_S(h_0) + Lap(4/(εn)) ≥ 2α/3. Else H_1 = {Q = 1}, data labelled
0; h_1 ≈ argmin P̂_S over H_1; output (h_1, 0) if P̂_S(h_1) + Lap(4/(εn)) ≤ α/3; else WIN. The learner must be
(ε/4, δ/2)-DP and (α/9, β/4)-accurate: here the exponential mechanism over the (public) subclass with score
−#errors (pure ε/4-DP; error 2(ln|H| + ln(4/β))/((ε/4)n) — the GGKM21 learner of the paper is pluggable through
``learner=``, which declares its claim as ``learner.claim(epsilon)``). Rounds compose by advanced composition:
ε′ = ε/(2√(2T ln(2/δ))), δ′ = δ/2T, T = D + 1 (Thm E.5); ``privacy()`` composes the claims of the mechanism objects
a round runs (the learner's and the Laplace test's), and construction refuses a setting whose composition exceeds
the requested (ε, δ).

X_{m,α/2} is built explicitly (|X|^m predicates before deduplication): tiny domains only.
"""

from __future__ import annotations

import math
from itertools import combinations_with_replacement
from typing import Any, Callable

import numpy as np

from .._random import SeedLike, spawn_seeds
from ..classes import FiniteClass, HypothesisClass, to_finite
from ..classes.ops import MAX_ENTRIES
from ..errors import EmptyDataError, LittlestoneError
from ..privacy import (
    ExponentialMechanism,
    LaplaceMechanism,
    PrivacyClaim,
    check_delta,
    check_epsilon,
    check_probability,
    claim_of,
    compose,
    compose_repeated,
)
from ..privacy.accountant_link import ChargesTheDefaultOfItsPickler, resolve_accountant

RELATION = "replace-one"

#: learner(candidates, ones_count, n, epsilon, backend) -> index into candidates (an empirical learner on a class
#: given by row indices, for data labelled all-1; callers flip the counts for all-0 labels). A learner declares its
#: claim at a given ε as ``learner.claim(epsilon) -> PrivacyClaim`` (the sanitizer's privacy() composes it).
Learner = Callable[[np.ndarray, np.ndarray, int, float, Any], int]


def exponential_learner(candidates: np.ndarray, agreements: np.ndarray, n: int, epsilon: float, backend: Any) -> int:
    """ε-DP proper agnostic empirical learner over a finite class: exponential mechanism with score = #agreements
    (−#errors + n; sensitivity 1). Error ≤ 2(ln|F| + ln(1/β))/(εn) w.p. 1 − β (Dwork–Roth Thm 3.11)."""
    return int(candidates[ExponentialMechanism(epsilon, 1.0)(agreements[candidates].astype(float), backend=backend)])


def _exponential_learner_claim(epsilon: float) -> PrivacyClaim:
    return ExponentialMechanism(epsilon, 1.0).privacy()


exponential_learner.claim = _exponential_learner_claim  # type: ignore[attr-defined]


def learner_claim(learner: Learner, epsilon: float) -> PrivacyClaim:
    """The claim a learner declares at ε (``learner.claim(epsilon)``); LittlestoneError when it declares none."""
    claim = getattr(learner, "claim", None)
    if not callable(claim):
        raise LittlestoneError(
            "a learner must declare its privacy claim as learner.claim(epsilon) -> PrivacyClaim "
            "(the sanitizer's claim is composed from it)"
        )
    return claim_of(claim(epsilon))


def predicate_class(F: FiniteClass, m: int, alpha: float) -> tuple[FiniteClass, np.ndarray]:
    """X_{m,α/2} as an explicit class over the domain H (columns = hypotheses of F) and the m-tuples (rows)."""
    k = math.comb(F.n_points + m - 1, m)
    if k * F.n_hypotheses > MAX_ENTRIES:
        raise LittlestoneError(
            f"X_(m,α/2) has {k} predicates over {F.n_hypotheses} hypotheses (too large; this "
            "construction is for tiny domains)"
        )
    tuples = np.array(list(combinations_with_replacement(range(F.n_points), m)), dtype=np.int64).reshape(k, m)
    frac = F.matrix[:, tuples].astype(float).mean(axis=2)  # (|H|, k): (1/m) Σ h(x_i)
    M = (frac.T >= alpha / 2.0).astype(np.uint8)
    _, first = np.unique(M, axis=0, return_index=True)
    first = np.sort(first)
    return FiniteClass(M[first], name=f"X_(m={m},α/2={alpha / 2:g})"), tuples[first]


class RealizableSanitizer(ChargesTheDefaultOfItsPickler):
    """(ε, δ)-DP (α, β)-realizable sanitizer for an explicit finite class (LWY25 Thm E.5 with the Lemma E.2
    discriminator). ``fit(X)`` → ``estimate_`` (0/1 per hypothesis), ``won_``, ``rounds_``; ``synthetic(size)``."""

    private = True

    def __init__(
        self,
        hypothesis_class: HypothesisClass,
        epsilon: float,
        delta: float,
        alpha: float,
        *,
        beta: float = 0.05,
        m: int | None = None,
        learner: Learner = exponential_learner,
        backend: Any = "secure",
        seed: SeedLike = None,
        accountant: Any = None,
    ):
        self.accountant = accountant  # charged privacy() at fit, before the data is read
        self.F = to_finite(hypothesis_class)
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta, positive=True)
        self.alpha = check_probability(alpha, "alpha")
        self.beta = check_probability(beta)
        if m is None:
            from ..dimensions import vc_dim

            m = max(1, math.ceil(max(vc_dim(self.F), 1) * math.log(1.0 / self.alpha) / self.alpha))
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
            raise LittlestoneError(f"m must be an integer >= 1, got {m!r}")
        self.m = int(m)
        self.learner = learner
        self.backend = backend
        self.seed = seed
        self.predicates, self.tuples = predicate_class(self.F, self.m, self.alpha)
        self.rounds = self.predicates.ldim() + 1  # T = D + 1
        self.epsilon_round = self.epsilon / (2.0 * math.sqrt(2.0 * self.rounds * math.log(2.0 / self.delta)))
        self.delta_round = self.delta / (2.0 * self.rounds)
        #: the noisy test of Lemma E.2 on a count (sensitivity 1; the frequency is the count / n, post-processing)
        self.test = LaplaceMechanism(self.epsilon_round / 4.0, 1.0)
        claim = self.privacy()
        if claim.epsilon > self.epsilon * (1 + 1e-9) or claim.delta > self.delta * (1 + 1e-9):
            raise LittlestoneError(
                f"the composed claim ({claim.epsilon:.4g}, {claim.delta:.3g}) of {self.rounds} rounds exceeds "
                f"(epsilon, delta) = ({self.epsilon}, {self.delta}); the learner's own claim at ε′/4 is too large"
            )

    def round_parts(self) -> list[PrivacyClaim]:
        """One discriminator round (Lemma E.2): the learner on H_0, the test of h_0, the learner on H_1, the test of
        h_1 — each at ε′/4, the claims of the objects the round runs (a round that stops early runs fewer)."""
        learner = learner_claim(self.learner, self.epsilon_round / 4.0)
        test = self.test.privacy()
        return [learner, test, learner, test]

    def privacy(self) -> PrivacyClaim:
        """T = D + 1 rounds of :meth:`round_parts` (basic inside a round), composed adaptively over the rounds —
        advanced composition with slack δ/2 (Thm E.5's choice) or basic, whichever is smaller."""
        one = compose(self.round_parts(), "basic", what="discriminator round (LWY25 Lemma E.2)")
        return compose_repeated(one, self.rounds, "best", self.delta / 2.0, what="realizable sanitizer (LWY25 Thm E.5)")

    def sample_size(self) -> int:
        """n for which Lemma E.2's conditions hold with the exponential learner: (α/9, β/4T)-accuracy at ε′/4 needs
        n ≥ 72(ln|H| + ln(4T/β))/(ε′α); Lemma E.2 also asks n ≥ 36 ln(4T/β)/(ε′α)."""
        lg = math.log(4.0 * self.rounds / self.beta)
        return math.ceil(
            max(72.0 * (math.log(self.F.n_hypotheses) + lg), 36.0 * lg) / (self.epsilon_round * self.alpha)
        )

    def _discriminate(self, Q: np.ndarray, ones: np.ndarray, n: int, backend: Any) -> tuple[int, int] | None:
        eps4 = self.epsilon_round / 4.0
        H0 = np.flatnonzero(Q == 0)
        if H0.size:
            h0 = self.learner(H0, ones, n, eps4, backend)
            if self.test(float(ones[h0]), backend=backend) / n >= 2 * self.alpha / 3:
                return h0, 1
        H1 = np.flatnonzero(Q == 1)
        if H1.size:
            h1 = self.learner(H1, n - ones, n, eps4, backend)
            if self.test(float(ones[h1]), backend=backend) / n <= self.alpha / 3:
                return h1, 0
        return None

    def fit(self, X: Any) -> "RealizableSanitizer":
        from ..experts.tree_hedge import resolve_backend
        from ..online import SOA
        from ..privacy.accountant import charge_fit

        charge_fit(resolve_accountant(self), self.privacy(), "RealizableSanitizer.fit")
        idx = self.F.domain.indices(X)
        n = int(idx.size)
        if n == 0:
            raise EmptyDataError("a sanitizer needs a non-empty dataset")
        backend = resolve_backend(self.backend, spawn_seeds(self.seed, 1)[0])
        hist = np.bincount(idx, minlength=self.F.n_points)
        ones = self.F.matrix.astype(np.int64) @ hist  # n·P̂_S(h) for every h
        soa = SOA(self.predicates)
        cols = np.arange(self.F.n_hypotheses)
        self.won_, self.transcript_ = False, []
        for _ in range(self.rounds):
            Q = soa.hypothesis().predict(cols).astype(np.int8)
            answer = self._discriminate(Q, ones, n, backend)
            if answer is None:
                self.won_ = True
                break
            h, y = answer
            self.transcript_.append((int(h), int(y)))
            if soa.version_space.restrict(int(h), y).is_empty():  # outside Lemma E.4's guarantee: stop here
                break
            soa.learn_one(int(h), y)
        self.estimate_ = soa.hypothesis().predict(cols).astype(np.int8)
        self.rounds_ = len(self.transcript_) + (1 if self.won_ else 0)
        self.n_ = n
        return self

    def synthetic(self, size: int) -> list:
        """A dataset S′ of ``size`` points with P̂_{S′}(h) > 0 for every h with Est(h) = 1 (greedy hitting set,
        LWY25 App. E.2 before Lemma E.8), padded with its own points; LittlestoneError if ``size`` is too small."""
        if not hasattr(self, "estimate_"):
            raise LittlestoneError("call fit(X) first")
        need = set(np.flatnonzero(self.estimate_ == 1).tolist())
        M = self.F.matrix
        chosen: list[int] = []
        while need:
            rows = np.fromiter(need, dtype=np.int64)
            cover = M[rows].sum(axis=0)
            j = int(np.argmax(cover))
            if cover[j] == 0:
                raise LittlestoneError("Est marks a hypothesis that is 0 everywhere: no dataset realizes it")
            chosen.append(j)
            need -= set(rows[M[rows, j] == 1].tolist())
        if len(chosen) > size:
            raise LittlestoneError(f"the hitting set needs {len(chosen)} points, more than the size {size}")
        if not chosen:
            chosen = [0]
        pts = self.F.domain.points
        return [pts[chosen[i % len(chosen)]] for i in range(size)]
