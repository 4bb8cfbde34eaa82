"""LWY25 App. E.2–E.3: privately constructed experts (Algorithms 6–7, Lemma E.9's interface, Thm E.10) and the
online learner that runs a private OPE algorithm over them (Thm 4.4, Cor E.13).

Lemma E.9's interface: a deterministic online learner A whose hypotheses are majorities of m concepts of H, with a
mistake bound M on realizable sequences. :class:`SOAMajorityLearner` instantiates it with the SOA (m = 1, M = Ldim(H))
on classes where every SOA classifier of a version space lies in H — checked on every hypothesis it outputs
(thresholds are such a class). **The Hanneke–Livni–Moran learner (HLM21) that gives m = O(d_V*), M = O(d) for every
class is not reconstructed here** (its construction could not be recovered; see the spec's §7): for classes whose
SOA is improper this module raises an error instead of pretending.

Algorithm 6 — Expert(i_1..i_M, j_1..j_M), 1 ≤ j_1 ≤ i_1 < j_2 ≤ i_2 < … ≤ i_M ≤ T: output h_t = A(S); after round
i_k feed the synthetic point x′_{j_k} with label 1 − A(S)(x′_{j_k}) (a forced mistake). Algorithm 7 — the set J of
all such index tuples (here: all tuples with at most M pairs, a superset), the synthetic points coming from
Algorithm 5 (:class:`littlestone.sanitizers.dyadic.DyadicSanitizer`) over H_{m,1/2} ⊕ H: x′_{j_k} is the
(j_k − i_{k−1})-th point of the window S′_{i_{k−1}+1, i_k}. Experts whose forced label leaves the version space of A
empty cannot follow any h ∈ H and are pruned (a function of released data only).

J is enumerated lazily by a depth-first walk that shares A's states between experts with a common prefix and
evaluates each state's hypothesis on all T points in one vector; experts are rows of an (N × T) prediction matrix.

Thm E.10 learner: Algorithm 5 with (ε, δ) + a private OPE learner over the N experts with (ε, δ) → (2ε, 2δ) by basic
composition (Thm 4.4). The OPE learner sees at round t the losses of rounds < t, and expert predictions at round t
use windows released before t: :meth:`ConstructedExpertsLearner.run` replays this on a sequence fixed in advance;
:meth:`ConstructedExpertsLearner.prepare` builds the experts from the points alone, after which the OPE learner can be
played round by round against adaptively chosen *labels* (points fixed in advance; a fully adaptive choice of the
points as well would need the experts built online, which this module does not do).
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable

import numpy as np

from .._random import SeedLike, spawn_seeds
from ..classes import FiniteClass, HypothesisClass, majority_xor_class
from ..errors import LittlestoneError
from ..experts import BatchedPrivateHedge, ExpertsRun, TreeAggregationHedge
from ..experts.base import check_horizon
from ..privacy import basic_composition, check_delta, check_epsilon
from ..sanitizers.dyadic import DyadicSanitizer
from ..sanitizers.mwem import MWEM
from ..sanitizers.realizable import RealizableSanitizer

#: refuse to evaluate more than this many prediction entries (N·T)
MAX_ENTRIES = 1 << 27


class SOAMajorityLearner:
    """Lemma E.9's interface instantiated by the SOA: majorities of m = 1 concept, mistake bound M = Ldim(H).

    States are version spaces; ``learn`` returns None when the label leaves no hypothesis of H."""

    def __init__(self, H: HypothesisClass):
        self.H = H
        self.initial = H.version_space()
        self.m = 1
        self.mistake_bound = self.initial.ldim()
        self._hyp: dict = {}
        self.hypothesis(self.initial)

    def hypothesis(self, state: Any) -> Any:
        key = state.key()
        h = self._hyp.get(key)
        if h is None:
            h = state.soa()
            if not self.initial.contains(h):
                raise LittlestoneError(
                    f"the SOA is not proper on {self.H.name} (it output {h!r}, not a member of the class): Lemma E.9 "
                    "needs a learner whose outputs are majorities of concepts of H; the Hanneke–Livni–Moran learner "
                    "that provides one for every class is not reconstructed in littlestone")
            self._hyp[key] = h
        return h

    def learn(self, state: Any, x: Any, y: int) -> Any:
        W = state.restrict(x, int(y))
        return None if W.is_empty() else W


def expert_predictions(learner: SOAMajorityLearner, X: Any, window: Callable[[int, int], list],
                       max_flips: int | None = None, limit: int = MAX_ENTRIES) -> tuple[np.ndarray, list]:
    """(N × T) predictions of the experts of J (≤ M pairs; pruned as described above) and their index tuples
    ((i_1, j_1), …); ``window(l, r)`` returns the synthetic points of rounds l..r (1-indexed)."""
    pts = list(learner.H.validate_points(X))
    T = len(pts)
    M = learner.mistake_bound if max_flips is None else int(max_flips)
    rows: list[np.ndarray] = []
    tuples: list = []
    vec_cache: dict = {}
    win_cache: dict = {}

    def f_vec(state: Any) -> np.ndarray:
        k = state.key()
        v = vec_cache.get(k)
        if v is None:
            v = np.asarray(learner.hypothesis(state).predict(pts), dtype=np.int8)
            vec_cache[k] = v
        return v

    def win(l: int, r: int) -> list:
        w = win_cache.get((l, r))
        if w is None:
            w = win_cache[(l, r)] = list(window(l, r))
            if len(w) != r - l + 1:
                raise LittlestoneError(f"window [{l}, {r}] has {len(w)} synthetic points, expected {r - l + 1}")
        return w

    def walk(state: Any, start: int, prefix: np.ndarray, flips: tuple) -> None:
        fv = f_vec(state)
        rows.append(np.concatenate([prefix, fv[start - 1:]]))
        tuples.append(flips)
        if len(rows) * T > limit:
            raise LittlestoneError(f"more than {limit // max(T, 1)} experts over T = {T} rounds (lower T or M)")
        if len(flips) == M:
            return
        h = learner.hypothesis(state)
        for i in range(start, T + 1):
            w = win(start, i)
            labels = np.asarray(h.predict(learner.H.validate_points(w)), dtype=np.int8)
            seen: set = set()
            for jj, xp in enumerate(w):
                lab = 1 - int(labels[jj])
                new = learner.learn(state, xp, lab)
                if new is None:
                    continue
                walk(new, i + 1, np.concatenate([prefix, fv[start - 1:i]]), flips + ((i, start + jj),))
                seen.add(new.key())

    walk(learner.initial, 1, np.zeros(0, dtype=np.int8), ())
    return np.vstack(rows).astype(np.int8), tuples


def _default_alpha(n: int) -> float:
    """Thm E.10's α(n) = (D⁶√(D* D_V)/(εn))^{2/3} is ≥ 1 at every n these tiny runs reach; a practical 1/√n, ≤ 0.9."""
    return min(0.9, 1.0 / math.sqrt(n))


class ConstructedExpertsLearner:
    """(2ε, 2δ)-DP agnostic online learner of LWY25 Thm E.10 + Thm 4.4 for small finite classes.

    ``sanitizer``: "realizable" (Thm E.5's sanitizer of H_{m,1/2} ⊕ H, tiny domains), "mwem" (MWEM on the same class;
    an (α, β)-sanitizer, so Lemma E.8's conclusion holds with its α) or a factory (epsilon, delta, n, run) -> sanitizer.
    ``ope``: "batched" (BatchedPrivateHedge, oblivious; default) or "tree" (TreeAggregationHedge, adaptive).
    """

    private = True

    def __init__(self, hypothesis_class: HypothesisClass, horizon: int, epsilon: float, delta: float, *,
                 sanitizer: Any = "mwem", ope: str = "batched", max_flips: int | None = None,
                 alpha: Callable[[int], float] = _default_alpha, backend: Any = "secure", seed: SeedLike = None):
        self.H = hypothesis_class
        self.horizon = check_horizon(horizon)
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta, positive=True)
        self.learner = SOAMajorityLearner(hypothesis_class)
        self.max_flips = max_flips
        self.sanitized_class: FiniteClass = majority_xor_class(hypothesis_class, self.learner.m)
        s_san, s_ope = spawn_seeds(seed, 2)
        self._s_san, self._s_ope = s_san, s_ope
        self.backend = backend
        if ope not in ("batched", "tree"):
            raise LittlestoneError(f"ope must be 'batched' or 'tree', got {ope!r}")
        self.ope = ope
        C = self.sanitized_class

        def child(i: int) -> np.random.SeedSequence:
            return np.random.SeedSequence(s_san.entropy, spawn_key=(*s_san.spawn_key, i))

        if sanitizer == "realizable":
            sanitizer = lambda e, d, n, i: RealizableSanitizer(C, e, d, alpha(n), backend=backend,  # noqa: E731
                                                               seed=child(i))
        elif sanitizer == "mwem":
            sanitizer = lambda e, d, n, i: MWEM(C, e, backend=backend, seed=child(i))  # noqa: E731
        if not callable(sanitizer):
            raise LittlestoneError("sanitizer must be 'realizable', 'mwem' or a factory (epsilon, delta, n, run)")
        self.make_sanitizer = sanitizer

    def _ope(self, N: int) -> Any:
        if self.ope == "batched":
            return BatchedPrivateHedge(N, self.horizon, self.epsilon, self.delta, backend=self.backend, seed=self._s_ope)
        return TreeAggregationHedge(N, self.horizon, self.epsilon, backend=self.backend, seed=self._s_ope)

    def privacy(self) -> tuple[float, float, str]:
        """Algorithm 5 at (ε, δ) then the OPE learner at (ε, δ) (or (ε, 0) for the tree one): basic composition."""
        ope_delta = self.delta if self.ope == "batched" else 0.0
        eps, dlt = basic_composition([(self.epsilon, self.delta), (self.epsilon, ope_delta)])
        return (eps, dlt, "replace-one")

    def prepare(self, X: Any) -> tuple[np.ndarray, Any]:
        """Algorithms 5 and 7 on the points x_1..x_T (the sanitizer reads only the points): the (N × T) expert
        predictions and a fresh private OPE learner over them. Row e, column t uses only windows released before
        round t, so the OPE learner may then be played round by round against labels chosen adaptively (the points
        being fixed in advance)."""
        if len(X) != self.horizon:
            raise LittlestoneError(f"need exactly T = {self.horizon} points, got {len(X)}")
        dy = DyadicSanitizer(self.horizon, self.epsilon, self.delta, self.make_sanitizer)
        for x in X:
            dy.learn_one(x)
        P, self.tuples_ = expert_predictions(self.learner, X, dy.window, self.max_flips)
        self.n_experts_ = P.shape[0]
        self.expert_predictions_ = P
        return P, self._ope(P.shape[0])

    def run(self, X: Any, y: Any) -> ExpertsRun:
        """Replay the protocol on (X, y); sets ``predictions_``, ``n_experts_``, ``expert_predictions_``."""
        y = np.asarray(y, dtype=np.int8)
        if len(y) != self.horizon or len(X) != self.horizon:
            raise LittlestoneError(f"run needs exactly T = {self.horizon} points and labels")
        P, ope = self.prepare(X)
        step = max(1, (1 << 24) // max(P.shape[0], 1))  # loss chunks of ≤ 16M entries: never N × T floats at once
        res = ope.run((P[:, s:s + step] != y[None, s:s + step]).T.astype(float) for s in range(0, self.horizon, step))
        self.predictions_ = P[res.choices, np.arange(self.horizon)]
        return res


def largest_T_within(seconds: float, n: int = 4, seed: int = 0) -> list[tuple]:
    """Benchmark helper: double T until one run (thresholds over n points, η = 0.1) exceeds ``seconds``; rows for
    bench_agnostic_online (name, T, B, seconds, regret)."""
    from ..classes import Thresholds
    from .baselines import best_in_class

    H = Thresholds(n)
    rows, T = [], 8
    while True:
        rng = np.random.default_rng(seed)
        X = rng.integers(0, n, T)
        y = (X >= n // 2).astype(np.int8)
        y[rng.random(T) < 0.1] ^= 1
        t0 = time.perf_counter()
        try:
            lrn = ConstructedExpertsLearner(H, T, 1.0, 1e-6, backend="seeded", seed=seed)
            res = lrn.run(X, y)
        except LittlestoneError as exc:
            rows.append((f"Thm E.10 learner: stopped ({exc})", T, "—", time.perf_counter() - t0, float("nan")))
            break
        sec = time.perf_counter() - t0
        reg = float((lrn.predictions_ != y).sum() - best_in_class(H, X, y))
        rows.append((f"Thm E.10 learner (SOA experts, MWEM windows, batched OPE; N = {lrn.n_experts_:,})", T, "—", sec,
                     reg))
        print(rows[-1], flush=True)
        if sec * 4 > seconds:  # the next doubling would not fit
            break
        T *= 2
    return rows
