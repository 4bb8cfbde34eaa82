"""MWEM (Hardt–Ligett–McSherry 2012): private query release for a class over a finite domain — the classical
sanitizer (LWY25 Def 2.7) beside the Bousquet–Livni–Moran one.

T rounds, each (ε/2T) exponential mechanism picking the query worst answered by the current synthetic histogram A
(score |q(A) − q(D)|, sensitivity 1 on counts, replace-one), then (ε/2T) Laplace measurement m of that query, then the
multiplicative-weights update A(x) ∝ A(x)·exp(q(x)(m − q(A))/(2n)). Output: the average Ā of A_0..A_{T−1}. The
claim is (ε, 0) by basic composition of the 2T parts; n is public (replace-one neighbours keep it fixed).

Accuracy (HLM12 Thm 2.2 with β written out; derivation in docs/derivations.md "MWEM"): with probability ≥ 1 − β,
    max_q |q(Ā) − q(D)|/n ≤ 2√(ln|X|/T) + [4T(ln|Q| + ln(2T/β)) + 2T ln(2T/β)]/(εn)
(relative-entropy potential: Σ_t ((q_t(A_{t−1}) − q_t(D))/2n)² ≤ ln|X| + Σ_t ((m_t − q_t(D))/2n)²; the
exponential mechanism loses ≤ 2(ln|Q| + ln(2T/β))/ε₀ per round, the Laplace ≤ ln(2T/β)/ε₀, ε₀ = ε/2T).
``iterations="theory"`` is the T minimizing that bound.

Measurement reuse (``reuse=r``, HLM12 §3): after each iteration's update, r sweeps of the same update over every
noisy measurement taken so far (:mod:`.mw_replay`). The sweeps read only released values (selected queries and their
Laplace measurements) and the public n, so they are post-processing: the claim is unchanged, and the next selection
scoring the swept A is adaptive composition as before. Proven bound (``output="average"``, derivation in
docs/derivations.md "MWEM"): the same potential argument over all S = T + r·T(T+1)/2 updates multiplies the Laplace
term by √(S/T). ``output="last"`` releases the final A instead of the average — the better estimate in practice
(thresholds over 2¹⁶ points, n = 10⁵, ε = 1, T = 216, r = 1: max error ≈ 0.01 against 0.083 for the plain average,
``benchmarks/bench_mwem_peers.py``) but with no proven bound (HLM12 prove none for the last iterate).

Default ``reuse=1, output="average"``: on that workload max error 0.019 against 0.083 for ``reuse=0`` at ≈ 1.5× the
CPU, with a proven bound (1.04 there, against HLM12's 0.67 for ``reuse=0``); pass ``reuse=0`` for the plain
mechanism and HLM12 Thm 2.2's bound, ``output="last"`` for the most accurate release (no proven bound).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._random import SeedLike, spawn_seeds
from ..bounds.mwem import mwem_error_bound, mwem_sample_size, mwem_theory_iterations  # noqa: F401 (re-exported)
from ..classes import HypothesisClass
from ..errors import EmptyDataError, LittlestoneError
from ..privacy import check_epsilon, check_probability, exponential_mechanism, laplace_mechanism
from ..privacy.accountant_link import ChargesTheDefaultOfItsPickler, resolve_accountant
from .histogram_release import HistogramRelease
from .mw_replay import AtomReplay
from .queries import QueryFamily, query_family

RELATION = "replace-one"


class MWEM(ChargesTheDefaultOfItsPickler, HistogramRelease):
    """ε-DP (α, β)-sanitizer for the counting queries of a class over a finite domain.

    ``MWEM(H, epsilon=1.0).fit(X)`` then ``estimates()`` (Est(h_j) for every query j), ``estimate(h)``,
    ``synthetic(size)`` (a synthetic dataset), ``error_bound()``; ``privacy()`` is the claim. ``reuse=1`` (one sweep
    over past measurements, post-processing) is the default; ``reuse=0`` is the plain HLM12 mechanism.
    """

    private = True

    def __init__(
        self,
        hypothesis_class: HypothesisClass,
        epsilon: float = 1.0,
        *,
        iterations: Any = "theory",
        reuse: int = 1,
        output: str = "average",
        beta: float = 0.05,
        backend: Any = "secure",
        seed: SeedLike = None,
        _family: QueryFamily | None = None,
        accountant: Any = None,
    ):
        self.accountant = accountant  # charged privacy() at fit, before the data is read
        self.hypothesis_class = hypothesis_class
        self.family = _family if _family is not None else query_family(hypothesis_class)
        self.epsilon = check_epsilon(epsilon)
        self.beta = check_probability(beta)
        if not (
            iterations == "theory"
            or (isinstance(iterations, (int, np.integer)) and not isinstance(iterations, bool) and iterations >= 1)
        ):
            raise LittlestoneError(f"iterations must be an integer >= 1 or 'theory', got {iterations!r}")
        self.iterations = iterations
        if isinstance(reuse, bool) or not isinstance(reuse, (int, np.integer)) or reuse < 0:
            raise LittlestoneError(f"reuse must be an integer >= 0 (sweeps over past measurements), got {reuse!r}")
        self.reuse = int(reuse)
        if output not in ("average", "last"):
            raise LittlestoneError(f"output must be 'average' or 'last', got {output!r}")
        self.output = output
        self.backend = backend
        self.seed = seed

    # ------------------------------------------------------------------ claim and bound (parameters only)
    def privacy(self) -> tuple[float, float, str]:
        """(ε, 0): 2T parts of ε/2T each (exponential mechanism, Laplace), basic composition; reuse sweeps and the
        choice of output are post-processing and add nothing."""
        return (self.epsilon, 0.0, RELATION)

    def _T(self, n: int) -> int:
        if self.iterations == "theory":
            return mwem_theory_iterations(n, self.family.domain_size, self.family.size, self.epsilon, self.beta)
        return int(self.iterations)

    def error_bound(self, n: int | None = None) -> float:
        """α such that w.p. ≥ 1 − β every query is answered within α (fraction of n), for ``output="average"``
        (with reuse: the √(S/T)-weakened bound); ``output="last"`` has no proven bound and raises."""
        if self.output == "last":
            raise LittlestoneError("MWEM with output='last' has no proven bound; use output='average' for one")
        n = self.n_ if n is None else int(n)
        fam = self.family
        return mwem_error_bound(n, fam.domain_size, fam.size, self.epsilon, self.beta, self._T(n), reuse=self.reuse)

    # ------------------------------------------------------------------ the mechanism
    def fit(self, X: Any) -> "MWEM":
        from ..experts.tree_hedge import resolve_backend
        from ..privacy.accountant import charge_fit

        charge_fit(resolve_accountant(self), self.privacy(), "MWEM.fit")
        hist = self.family.histogram(X)
        n = int(round(hist.sum()))
        if n == 0:
            raise EmptyDataError("MWEM needs a non-empty dataset")
        s_noise, s_post = spawn_seeds(self.seed, 2)
        backend = resolve_backend(self.backend, s_noise)
        T = self._T(n)
        eps0 = self.epsilon / (2 * T)
        true = self.family.answers(hist)
        A = np.full(self.family.domain_size, n / self.family.domain_size)
        total = np.zeros_like(A)
        replay = AtomReplay(self.family.domain_size, n) if self.reuse else None
        self.selected_: list[int] = []
        for _ in range(T):
            total += A
            approx = self.family.answers(A)
            j = self._select(np.abs(approx - true), eps0, backend)
            m = laplace_mechanism(float(true[j]), 1.0, eps0, backend=backend)
            if replay is None:
                A = A * np.exp(self.family.row(j) * (m - approx[j]) / (2.0 * n))
                A *= n / A.sum()
            else:  # post-processing of (j, m) and the earlier released pairs
                replay.add(self.family.row(j), m)
                replay.update(len(replay.measurements) - 1)
                for _ in range(self.reuse):
                    replay.sweep()
                A = replay.histogram()
            self.selected_.append(int(j))
        self.n_ = n
        self.iterations_ = T
        self.synthetic_histogram_ = total / total.sum() if self.output == "average" else A / A.sum()
        self._post_seed = s_post
        return self

    def _select(self, scores: np.ndarray, eps0: float, backend: Any) -> int:
        """The worst-answered query, privately: exponential mechanism (sensitivity 1 on counts)."""
        return exponential_mechanism(scores, eps0, sensitivity=1.0, backend=backend)
