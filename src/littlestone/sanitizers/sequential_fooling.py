"""The Bousquet–Livni–Moran sequential-fooling sanitizer (BousquetLM20; LWY25 Thm 4.2, App. D.2, Lemma D.7) for a
class over a finite domain X.

A sequential game between a *generator* and a *discriminator* that holds the private data S (n points):

* generator (finite X): multiplicative weights over X. P_1 is uniform; when the discriminator returns f with
  P̂_S(f) − P_t(f) ≥ α/2 the generator sets P_{t+1}(x) ∝ P_t(x)·exp(η f(x)), η = 2α. By Hoeffding's lemma
  KL(P̂_S ‖ P_{t+1}) ≤ KL(P̂_S ‖ P_t) − η(P̂_S(f) − P_t(f)) + η²/8 ≤ KL(P̂_S ‖ P_t) − α²/2, and KL(P̂_S ‖ P_1) ≤ ln|X|,
  so at most 2 ln|X|/α² answers are not "WIN": R = ⌊2 ln|X|/α²⌋ + 1 rounds suffice (the finite-X generator in
  place of BousquetLM20's dual-Littlestone generator, LWY25 Lemma D.8, whose O(d*/α² · log(d*/α)) rounds it
  replaces by O(ln|X|/α²)).
* discriminator (LWY25 Lemma D.7), on F = H ∪ (1 − H) with k = ⌈10/α⌉ buckets F_i = {h ∈ F : P_t(h) ∈
  [(i−1)/k, i/k]} (P_t is public, so which buckets are empty is too):
    1. j ← exponential mechanism (ε′/3, sensitivity 1/n) with utility max_{h∈F_j} P̂_S(h) − j/k;
    2. h₀ ← a private proper agnostic empirical learner (ε′/3, δ′) for F_j on S labelled all 1 (≈ argmax P̂_S);
    3. output h₀ if P̂_S(h₀) + Lap(3/(ε′n)) − j/k ≥ 3α/5, else "WIN".
  Per round (ε′, δ′) by basic composition of the three parts.
* vector form: P_t is one NumPy vector over X; P_t(f) for all f ∈ F and n·P̂_S(f) come from the query family's
  ``answers`` (the complement 1 − h by subtraction), so a round costs O(|X| + |F|) for a class with a counting closed
  form (thresholds, points: n = 10⁵, |X| = 2¹⁶ in seconds) and one |F| × |X| product for an explicit class; the
  buckets are found by one comparison per f against the bucket ⌊k·P_t(f)⌋ (and its neighbour near an edge).
* learner: ``"ggkm21"`` (default, the theorem's) is LWY25 Algorithm 4 over the GGKM21 proper learner
  (:func:`littlestone.pac.agnostic_proper.agnostic_learn`, Cor. D.4) run on the explicit class F_j at target
  (ε′/3, δ′), accuracy α/10; its own claim is checked to stay within that target. ``"exponential"`` (practical) is
  the exponential mechanism over F_j with score = #points where h = 1 (sensitivity 1, pure ε′/3-DP).
* rounds compose by advanced composition (LWY25 Thm 4.2's proof, GGKM21): δ′ = δ/2R, ε′ = ε/(2√(2R ln(2/δ))).
  :meth:`SequentialFoolingSanitizer.privacy` recomputes the total with Dwork–Roth Thm 3.20 (slack δ/2) from the
  per-round parts and refuses a setting whose total exceeds (ε, δ).

Accuracy (Lemma D.7 with its constants written out for parts at ε′/3; β′ = β/R): w.p. ≥ 1 − β every round's
discriminator is correct and the output P (the generator's distribution at "WIN") has |P(h) − P̂_S(h)| ≤ α for every
h ∈ H, once n ≥ max(60 ln(3k/β′), 30 ln(3/β′), L)/(ε′α), where L = 60 ln(3|F|/β′) for the exponential learner (its
error 6 ln(3|F|/β′)/(ε′n) ≤ α/10; the exponential mechanism over the k buckets likewise needs 60 ln(3k/β′)) —
LWY25 writes 20 ln(60/αβ)/(εα) for the bucket step, which omits the factor 3 of running it at ε/3; we use ours.
For the GGKM21 learner its own (α/10, β′/3) sample size applies (very large: it is the theorem's, not a practical
choice). Neighbours: replace-one (n is public).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from .._random import SeedLike, as_generator, spawn_seeds
from ..classes import FiniteClass, HypothesisClass
from ..classes.ops import MAX_ENTRIES
from ..errors import EmptyDataError, LittlestoneError, PrivacyParameterError
from ..privacy import check_delta, check_epsilon, check_probability, exponential_mechanism, laplace_mechanism
from ..privacy.backends import SeededBackend
from ..privacy.composition import advanced_composition, basic_composition
from .histogram_release import HistogramRelease
from .queries import QueryFamily, query_family
from ..privacy.accountant_link import ChargesTheDefaultOfItsPickler, resolve_accountant

RELATION = "replace-one"
LEARNERS = ("ggkm21", "exponential")


def fooling_rounds(domain_size: int, alpha: float) -> int:
    """R = ⌊2 ln|X|/α²⌋ + 1: multiplicative weights (η = 2α) is answered "WIN" within R rounds (module docstring)."""
    return int(math.floor(2.0 * math.log(max(int(domain_size), 2)) / (alpha * alpha))) + 1


def round_privacy(epsilon: float, delta: float, rounds: int) -> tuple[float, float]:
    """(ε′, δ′) = (ε/(2√(2R ln(2/δ))), δ/2R): LWY25 Thm 4.2's per-round budget."""
    return epsilon / (2.0 * math.sqrt(2.0 * rounds * math.log(2.0 / delta))), delta / (2.0 * rounds)


def fooling_sample_size(alpha: float, beta: float, eps_round: float, rounds: int, n_queries: int) -> int:
    """n at which Lemma D.7's steps (bucket choice, Laplace test, exponential learner over |F| = 2|Q|) are each
    within α/10 w.p. 1 − β/(3R) at ε′/3."""
    b = beta / rounds
    k = math.ceil(10.0 / alpha)
    L = max(60.0 * math.log(3.0 * k / b), 30.0 * math.log(3.0 / b), 60.0 * math.log(3.0 * 2 * n_queries / b))
    return math.ceil(L / (eps_round * alpha))


def _exponential_learner(
    ones: np.ndarray, n: int, epsilon: float, backend: Any, rng: np.random.Generator, **_: Any
) -> int:
    """Proper agnostic empirical learner for data labelled all 1 over a finite class: exponential mechanism with
    score #{i : h(x_i) = 1} (sensitivity 1; pure ε-DP)."""
    return exponential_mechanism(ones.astype(float), epsilon, sensitivity=1.0, backend=backend)


def _ggkm21_learner(
    ones: np.ndarray,
    n: int,
    epsilon: float,
    backend: Any,
    rng: np.random.Generator,
    *,
    rows: np.ndarray,
    idx: np.ndarray,
    delta: float,
    alpha: float,
    beta: float,
    options: dict,
) -> int:
    """LWY25 Algorithm 4 over the GGKM21 proper learner on the explicit class ``rows`` (data: domain indices idx,
    all labelled 1); returns the row index of its output. Its claim is checked against the target (ε, δ)."""
    from ..pac.agnostic_proper import agnostic_learn
    from ..pac.sources import ArraySource

    F = FiniteClass(rows.astype(np.uint8), name="F_j ⊆ H ∪ (1 − H)")
    res = agnostic_learn(
        F,
        ArraySource(idx, np.ones(idx.size, dtype=np.int8)),
        epsilon=epsilon,
        delta=delta,
        alpha=alpha,
        beta=beta,
        n=idx.size,
        backend=backend,
        seed=rng,
        inner_sizes=options or None,
    )
    if res.epsilon > epsilon * (1 + 1e-9) or res.delta > delta * (1 + 1e-9):
        raise PrivacyParameterError(
            f"the GGKM21 learner's claim ({res.epsilon:.4g}, {res.delta:.3g}) exceeds its "
            f"share ({epsilon:.4g}, {delta:.3g})"
        )
    v = np.frombuffer(res.chosen.values, dtype=np.uint8)
    return int(np.flatnonzero((rows == v[None, :]).all(axis=1))[0])


class SequentialFoolingSanitizer(ChargesTheDefaultOfItsPickler, HistogramRelease):
    """(ε, δ)-DP (α, β)-sanitizer for the counting queries of a class over a finite domain (BousquetLM20;
    LWY25 Thm 4.2). ``fit(X)`` then ``estimates()``, ``estimate(j)``, ``synthetic(size)``, ``max_error(X)``;
    ``privacy()`` is the claim; ``won_``, ``rounds_`` and ``transcript_`` (bucket, query of F, answer) describe the
    game. ``rounds`` overrides R (privacy holds for every R; accuracy needs the theory R). ``learner`` is "ggkm21",
    "exponential" or a callable (ones, n, epsilon, backend, rng) -> index into the candidates, which must be an
    (epsilon, δ′)-DP proper agnostic empirical learner for data labelled all 1 (it is charged as one)."""

    private = True

    def __init__(
        self,
        hypothesis_class: HypothesisClass,
        epsilon: float = 1.0,
        delta: float = 1e-6,
        *,
        alpha: float = 0.1,
        beta: float = 0.05,
        rounds: Any = "theory",
        learner: Any = "ggkm21",
        learner_options: dict | None = None,
        backend: Any = "secure",
        seed: SeedLike = None,
        _family: QueryFamily | None = None,
        accountant: Any = None,
    ):
        self.accountant = accountant  # charged privacy() at fit, before the data is read
        self.hypothesis_class = hypothesis_class
        self.family = _family if _family is not None else query_family(hypothesis_class)
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta, positive=True)
        self.alpha = check_probability(alpha, "alpha")
        self.beta = check_probability(beta)
        if rounds == "theory":
            rounds = fooling_rounds(self.family.domain_size, self.alpha)
        if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds < 1:
            raise LittlestoneError(f"rounds must be an integer >= 1 or 'theory', got {rounds!r}")
        self.rounds = int(rounds)
        if not (callable(learner) or learner in LEARNERS):
            raise LittlestoneError(f"learner must be one of {LEARNERS} or a callable, got {learner!r}")
        if learner == "ggkm21" and 2 * self.family.size * self.family.domain_size > MAX_ENTRIES:
            raise LittlestoneError(
                f"the GGKM21 learner enumerates a bucket F_j ⊆ H ∪ (1 − H) as an explicit class (up to "
                f"{2 * self.family.size:,} × {self.family.domain_size:,} entries for {hypothesis_class.name}, more than "
                f"{MAX_ENTRIES:,}); use learner='exponential' on a domain this large"
            )
        self.learner = learner
        self.learner_options = dict(learner_options or {})
        self.backend = backend
        self.seed = seed
        self.epsilon_round, self.delta_round = round_privacy(self.epsilon, self.delta, self.rounds)
        self.privacy()  # refuse a setting whose composed claim exceeds (ε, δ)

    # ------------------------------------------------------------------ claim (parameters only)
    def round_parts(self) -> list[tuple[float, float]]:
        """One round: bucket choice (ε′/3, 0), learner (ε′/3, δ′), Laplace test (ε′/3, 0)."""
        e = self.epsilon_round / 3.0
        return [(e, 0.0), (e, self.delta_round if self.learner != "exponential" else 0.0), (e, 0.0)]

    def privacy(self) -> tuple[float, float, str]:
        """Advanced composition (Dwork–Roth Thm 3.20, slack δ/2) of R rounds, each the basic composition of its
        parts; equals at most (ε, δ) for the per-round (ε′, δ′) of LWY25 Thm 4.2 (checked)."""
        e_r, d_r = basic_composition(self.round_parts())
        eps, dlt = advanced_composition(e_r, d_r, self.rounds, self.delta / 2.0)
        if self.rounds == 1:
            eps, dlt = e_r, d_r  # one round: no composition needed
        if eps > self.epsilon * (1 + 1e-9) or dlt > self.delta * (1 + 1e-9):
            raise PrivacyParameterError(
                f"R = {self.rounds} rounds at ε′ = {e_r:.4g} compose to ({eps:.4g}, {dlt:.3g}), more than the target "
                f"({self.epsilon:g}, {self.delta:g}); the drift term Rε′(e^ε′ − 1) dominates — lower epsilon"
            )
        return (float(eps), float(dlt), RELATION)

    def sample_size(self) -> int:
        """n for the (α, β) guarantee with the exponential learner (module docstring)."""
        return fooling_sample_size(self.alpha, self.beta, self.epsilon_round, self.rounds, self.family.size)

    def error_bound(self, n: int | None = None) -> float:
        """α when n ≥ :meth:`sample_size` (the guarantee's regime), else inf (no bound claimed)."""
        n = self.n_ if n is None else int(n)
        return self.alpha if n >= self.sample_size() else math.inf

    # ------------------------------------------------------------------ the game
    def _f_row(self, h: int) -> np.ndarray:
        """f_h ∈ F = H ∪ (1 − H) as a 0/1 vector over the domain (h < |Q|: q_h, else 1 − q_{h−|Q|})."""
        m = self.family.size
        return self.family.row(h) if h < m else 1.0 - self.family.row(h - m)

    def _f_answers(self, w: np.ndarray) -> np.ndarray:
        """(Σ_x w(x) f(x))_{f ∈ F}: the family's answers and their complements, O(|X| + |F|) for structured classes."""
        a = self.family.answers(w)
        return np.concatenate([a, float(np.sum(w)) - a])

    def _discriminate(
        self,
        pt: np.ndarray,
        ones: np.ndarray,
        idx: np.ndarray,
        n: int,
        backend: Any,
        rng: np.random.Generator,
        frac: np.ndarray | None = None,
    ) -> tuple[int, int, bool]:
        """Lemma D.7 given P_t(f) for every f ∈ F: (bucket j, index of h₀ in F, True if h₀ is returned / False for
        "WIN"). Buckets F_i = {f : (i−1)/k ≤ P_t(f) ≤ i/k} (closed, so a boundary value lies in two) in vector form:
        each f is tested against the bucket ⌊k·P_t(f)⌋ and, when it sits within 10⁻⁶ of an edge, its neighbour —
        with the same comparison for every bucket. ``frac`` = ones/n (passed to spare the division each round)."""
        e3 = self.epsilon_round / 3.0
        k = math.ceil(10.0 / self.alpha)
        frac = ones / n if frac is None else frac
        lo_edge, hi_edge = np.arange(k) / k - 1e-12, (np.arange(k) + 1) / k + 1e-12

        kp = pt * k
        base = np.clip(np.floor(kp).astype(np.int64), 0, k - 1)
        best = np.full(k, -np.inf)
        ok = (pt >= lo_edge[base]) & (pt <= hi_edge[base])
        np.maximum.at(best, base[ok], frac[ok])
        fr = kp - base
        for off, near in ((-1, fr <= 1e-6), (1, fr >= 1.0 - 1e-6)):
            sel = np.flatnonzero(near)
            b = base[sel] + off
            inside = (b >= 0) & (b < k)
            sel, b = sel[inside], b[inside]
            ok = (pt[sel] >= lo_edge[b]) & (pt[sel] <= hi_edge[b])
            np.maximum.at(best, b[ok], frac[sel[ok]])
        nonempty = np.flatnonzero(best > -np.inf)
        utility = best[nonempty] - (nonempty + 1) / k
        b = int(nonempty[self._choose_bucket(utility, e3, n, backend)])
        j = b + 1
        cand = np.flatnonzero((pt >= lo_edge[b]) & (pt <= hi_edge[b]))
        h = int(cand[self._learn(cand, ones[cand], idx, n, e3, backend, rng)])
        noisy = laplace_mechanism(float(frac[h]), 1.0 / n, e3, backend=backend)
        return j, h, bool(noisy - j / k >= 3.0 * self.alpha / 5.0)

    def _choose_bucket(self, utility: np.ndarray, eps: float, n: int, backend: Any) -> int:
        return exponential_mechanism(utility, eps, sensitivity=1.0 / n, backend=backend)

    def _learn(
        self,
        cand: np.ndarray,
        ones: np.ndarray,
        idx: np.ndarray,
        n: int,
        eps: float,
        backend: Any,
        rng: np.random.Generator,
    ) -> int:
        """Index into ``cand`` (the members of F_j, indices into F) of the learner's output."""
        if self.learner == "exponential":
            return _exponential_learner(ones, n, eps, backend, rng)
        if self.learner == "ggkm21":
            rows = np.stack([self._f_row(int(c)) for c in cand])
            return _ggkm21_learner(
                ones,
                n,
                eps,
                backend,
                rng,
                rows=rows,
                idx=idx,
                delta=self.delta_round,
                alpha=self.alpha / 10.0,
                beta=self.beta / (3.0 * self.rounds),
                options=self.learner_options,
            )
        return int(self.learner(ones, n, eps, backend, rng))

    def fit(self, X: Any) -> "SequentialFoolingSanitizer":
        from ..experts.tree_hedge import resolve_backend
        from ..privacy.accountant import charge_fit

        charge_fit(resolve_accountant(self), self.privacy(), "SequentialFoolingSanitizer.fit")
        idx = self.family.index_points(X)
        n = int(idx.size)
        if n == 0:
            raise EmptyDataError("the sequential-fooling sanitizer needs a non-empty dataset")
        s_noise, s_learner, s_post = spawn_seeds(self.seed, 3)
        backend = resolve_backend(self.backend, s_noise)
        # the learner's secret choices (Algorithm 4's index set I) come from OS entropy unless the backend is seeded
        rng = as_generator(s_learner if isinstance(backend, SeededBackend) else np.random.SeedSequence())
        N = self.family.domain_size
        hist = np.bincount(idx, minlength=N).astype(float)
        ones = self._f_answers(hist)  # n·P̂_S(f) for every f ∈ H ∪ (1 − H)
        frac = ones / n
        logP = np.zeros(N)
        eta = 2.0 * self.alpha
        self.won_, self.transcript_ = False, []
        P = np.full(N, 1.0 / N)
        for _ in range(self.rounds):
            j, h, found = self._discriminate(self._f_answers(P), ones, idx, n, backend, rng, frac)
            self.transcript_.append((j, h, found))
            if not found:
                self.won_ = True
                break
            logP += eta * self._f_row(h)
            P = np.exp(logP - logP.max())
            P /= P.sum()
        self.rounds_ = len(self.transcript_)
        self.n_ = n
        self.synthetic_histogram_ = P
        self._post_seed = s_post
        return self


def sequential_fooling_factory(
    label_class: HypothesisClass, delta: float, *, seed: SeedLike = None, **options: Any
) -> Callable[[float, int, int], SequentialFoolingSanitizer]:
    """A sanitizer factory for LWY25 Algorithm 3 (``Algorithm3(..., sanitizer=factory)``): (ε, batch size, run
    index) → a sequential-fooling sanitizer of H^label at (ε, δ); run i draws its randomness from child i of
    ``seed``."""
    fam = query_family(label_class)
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)

    def make(epsilon: float, batch_size: int, run: int) -> SequentialFoolingSanitizer:
        child = np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, int(run)))
        return SequentialFoolingSanitizer(label_class, epsilon, delta, seed=child, _family=fam, **options)

    return make
