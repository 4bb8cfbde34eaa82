"""LWY25 App. E.2–E.3: privately constructed experts (Algorithms 6–7, Lemma E.9's interface, Thm E.10) and the
online learner that runs a private OPE algorithm over them (Thm 4.4, Cor E.13) — online, points chosen adaptively.

Lemma E.9's interface: a deterministic online learner A whose hypotheses are majorities of m concepts of H, with a
mistake bound M on realizable sequences. :class:`SOAMajorityLearner` instantiates it with the SOA (m = 1, M = Ldim(H))
on classes where every SOA classifier of a version space lies in H — checked on every hypothesis it outputs, and up
front on every state reachable by ≤ M forced mistakes when the domain is small (thresholds are such a class).
**The Hanneke–Livni–Moran learner (HLM21) that gives m = O(d_V*), M = O(d) for every class is not reconstructed
here** (its construction could not be recovered from the sources available to us): for classes whose SOA is
improper this module raises an error instead of pretending.

Algorithm 6 — Expert(i_1..i_M, j_1..j_M), 1 ≤ j_1 ≤ i_1 < j_2 ≤ i_2 < … ≤ i_M ≤ T: in round t output h_t = A(S);
if t = i_k, append (x′_{j_k}, 1 − A(S)(x′_{j_k})) to S (a forced mistake), x′_{j_k} being the (j_k − i_{k−1})-th point
of the window S′_{i_{k−1}+1, i_k} that Algorithm 5 (:class:`littlestone.sanitizers.dyadic.DyadicSanitizer`) releases
at the end of round i_k (Alg 7 line 9). So h_t depends on x_1..x_{t−1} only (through released windows) and is
evaluated at x_t: the experts, and the learner, run online against points chosen adaptively (Thm E.10).

The set J. We use J_{≤M} = the tuples with at most M pairs (Alg 7's J = exactly M pairs is the part with M pairs;
the superset only adds experts, so Thm E.10's "some expert follows h" holds a fortiori), with
|J_{≤M}| = Σ_{k≤M} C(T + k, 2k) in closed form (:func:`littlestone.bounds.lwy25_agnostic.number_of_experts_upto`;
C(T + M, 2M) of them have exactly M pairs) — fixed before any data, as the OPE learner needs N in advance. A forced
label that leaves no hypothesis of H consistent is *ignored* by A (its state is kept): such an expert follows no
h ∈ H from then on; it stays in J (N must not depend on the data) and is counted as "pruned" in ``n_live_``.

Lazy, vectorized evaluation (:class:`ExpertTrie`). Experts are numbered in the preorder of the trie of pair
sequences (a node is the expert that stops there; children (i, j) ordered by i, then j), so every subtree is a
contiguous index range whose size and offsets are closed-form binomial sums: no per-expert object, the pairs of an
expert are recovered by unranking (:meth:`ExpertTrie.pairs`). Each expert carries only the id of its current
A-state (one int32): the number of distinct A-states (version spaces) is tiny compared with |J|. In round t each
distinct state is evaluated once on x_t and the labels are scattered to the N experts by one gather; at the end of
round t the trie nodes whose next flip may be at i = t are grouped by (state, window start), the forced transition
of every window point is looked up in a (state × point) table, and whole child subtrees are overwritten with their
new state id (each expert changes state at most M times in a run).

Thm E.10 learner: Algorithm 5 with (ε, δ) + a private OPE learner over the N experts with (ε, δ) → (2ε, 2δ) by basic
composition (Thm 4.4); river-style ``predict_one(x)`` / ``learn_one(x, y)``.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable

import numpy as np

from .._numba import compile_on_first_use
from .._random import SeedLike, spawn_seeds
from ..bounds.lwy25_agnostic import number_of_experts_upto
from ..classes import FiniteClass, HypothesisClass, majority_xor_class
from ..errors import LittlestoneError
from ..experts import BatchedPrivateHedge, ExpertsRun, Hedge, PrivateHedge, TreeAggregationHedge
from ..experts.base import check_horizon
from ..privacy import PrivacyClaim, check_delta, check_epsilon, compose
from ..sanitizers.dyadic import DyadicSanitizer
from ..sanitizers.mwem import MWEM
from ..online.river_compat import CloneFromParams
from ..sanitizers.realizable import RealizableSanitizer

#: refuse expert sets larger than this (the per-expert state array and the OPE's N-vectors must fit in memory)
MAX_EXPERTS = 1 << 28
#: up-front properness check: explore at most this many A-states reachable by forced mistakes
CHECK_STATES = 4096
_UNKNOWN, _DEAD = -1, -2


class SOAMajorityLearner:
    """Lemma E.9's interface instantiated by the SOA: majorities of m = 1 concept, mistake bound M = Ldim(H).

    States are version spaces; ``learn`` returns None when the label leaves no hypothesis of H. On a finite domain
    every state reachable by ≤ M forced mistakes is checked at construction (up to ``check_states`` states)."""

    def __init__(self, H: HypothesisClass, check_states: int = CHECK_STATES):
        self.H = H
        self.initial = H.version_space()
        self.m = 1
        self.mistake_bound = self.initial.ldim()
        self._hyp: dict = {}
        self.hypothesis(self.initial)
        self._check_reachable(check_states)

    def hypothesis(self, state: Any) -> Any:
        key = state.key()
        h = self._hyp.get(key)
        if h is None:
            h = state.soa()
            if not self.initial.contains(h):
                raise LittlestoneError(
                    f"the SOA is not proper on {self.H.name} (it output {h!r}, not a member of the class): Lemma E.9 "
                    "needs a learner whose outputs are majorities of concepts of H; the Hanneke–Livni–Moran learner "
                    "that provides one for every class is not reconstructed in littlestone"
                )
            self._hyp[key] = h
        return h

    def learn(self, state: Any, x: Any, y: int) -> Any:
        W = state.restrict(x, int(y))
        return None if W.is_empty() else W

    def _check_reachable(self, budget: int) -> None:
        size = self.H.domain_size
        if not (math.isfinite(size) and size * budget <= 1 << 22):
            return
        pts = list(self.H.domain_points())
        seen = {self.initial.key()}
        frontier = [self.initial]
        for _ in range(self.mistake_bound):
            nxt = []
            for V in frontier:
                f = self.hypothesis(V)
                for x in pts:
                    W = self.learn(V, x, 1 - int(f(x)))
                    if W is not None and W.key() not in seen:
                        seen.add(W.key())
                        self.hypothesis(W)
                        nxt.append(W)
                        if len(seen) > budget:
                            return
            frontier = nxt


def subtree_size(n: int, r: int) -> int:
    """F(n, r) = Σ_{q≤r} C(n + q, 2q): the pair sequences of length ≤ r inside n consecutive rounds."""
    return sum(math.comb(n + q, 2 * q) for q in range(r + 1)) if n >= 0 else 1


class ExpertTrie:
    """The experts of J_{≤M} over horizon T, evaluated lazily and in vectors (see the module docstring).

    Round protocol: ``labels(x)`` (the distinct states' labels at x_t; expert e predicts ``labels[state[e]]``), then
    ``advance(window)`` once Algorithm 5 has released the windows ending at t (``window(l, t)`` → points)."""

    def __init__(
        self, learner: SOAMajorityLearner, horizon: int, max_flips: int | None = None, limit: int = MAX_EXPERTS
    ):
        self.learner = learner
        self.T = T = check_horizon(horizon)
        self.M = M = learner.mistake_bound if max_flips is None else int(max_flips)
        if M < 0:
            raise LittlestoneError(f"max_flips must be >= 0, got {max_flips!r}")
        self.n_experts = subtree_size(T, M)
        assert self.n_experts == number_of_experts_upto(T, M)
        if self.n_experts > limit:
            raise LittlestoneError(
                f"|J| = {self.n_experts:,} experts (T = {T}, M = {M}) exceeds the limit of "
                f"{limit:,} (lower T or max_flips)"
            )
        # g[r][i] = size of the subtree of a child (i, ·) of a node with r pairs left; P0/P1 prefix sums for offsets
        self._g = {r: [subtree_size(T - i, r - 1) for i in range(T + 2)] for r in range(1, M + 1)}
        self._G = np.zeros((M + 1, T + 2), dtype=np.int64)
        self._P0, self._P1 = np.zeros_like(self._G), np.zeros_like(self._G)
        for r, g in self._g.items():
            self._G[r] = g
            for i in range(1, T + 1):
                self._P0[r, i + 1], self._P1[r, i + 1] = self._P0[r, i] + g[i], self._P1[r, i] + i * g[i]
        self.state = np.zeros(self.n_experts, dtype=np.int8)  # current A-state id of every expert (widened)
        self.alive = np.ones(self.n_experts, dtype=bool)  # False once a forced label was inconsistent
        # live trie nodes that may still branch: position, next window start s, pairs left r, state id
        self._pos = np.zeros(1 if M > 0 else 0, dtype=np.int64)
        self._s = np.ones(self._pos.size, dtype=np.int64)
        self._r = np.full(self._pos.size, M, dtype=np.int64)
        self._sid = np.zeros(self._pos.size, dtype=np.int32)
        self.states: list = [learner.initial]
        self._hyps: list = [learner.hypothesis(learner.initial)]
        self._sid_of: dict = {learner.initial.key(): 0}
        self.points: list = []
        self._pid_of: dict = {}
        self._lab = np.full((8, 8), _UNKNOWN, dtype=np.int8)  # state × point: A(state)(point)
        self._force = np.full((8, 8), _UNKNOWN, dtype=np.int32)  # state × point: state after a forced mistake
        self.t = 0

    # ------------------------------------------------------------------ interning
    def _grow(self) -> None:
        S, P = len(self.states), len(self.points)
        if S <= self._lab.shape[0] and P <= self._lab.shape[1]:
            return
        s2, p2 = max(self._lab.shape[0], 2 * S), max(self._lab.shape[1], 2 * P)
        for name, dt in (("_lab", np.int8), ("_force", np.int32)):
            old = getattr(self, name)
            new = np.full((s2, p2), _UNKNOWN, dtype=dt)
            new[: old.shape[0], : old.shape[1]] = old
            setattr(self, name, new)

    def point_id(self, x: Any) -> int:
        """The interned id of a domain point (validated the first time it is seen)."""
        p = self._pid_of.get(x)
        if p is None:
            x = self.learner.H.validate_point(x)
            p = self._pid_of.get(x)
            if p is None:
                p = self._pid_of[x] = len(self.points)
                self.points.append(x)
                self._grow()
        return p

    def _state_id(self, V: Any) -> int:
        k = V.key()
        s = self._sid_of.get(k)
        if s is None:
            h = self.learner.hypothesis(V)  # the properness check
            s = self._sid_of[k] = len(self.states)
            self.states.append(V)
            self._hyps.append(h)
            self._grow()
            if s > np.iinfo(self.state.dtype).max:
                self.state = self.state.astype(np.int16 if s < 1 << 15 else np.int32)
        return s

    def _fill_labels(self, sids: np.ndarray, pids: np.ndarray) -> None:
        need = self._lab[sids, pids] == _UNKNOWN
        for s, p in zip(sids[need].tolist(), pids[need].tolist()):
            self._lab[s, p] = int(self._hyps[s](self.points[p]))

    def _fill_force(self, sids: np.ndarray, pids: np.ndarray) -> None:
        need = self._force[sids, pids] == _UNKNOWN
        if not need.any():
            return
        pairs = set(zip(sids[need].tolist(), pids[need].tolist()))
        self._fill_labels(np.array([s for s, _ in pairs]), np.array([p for _, p in pairs]))
        for s, p in pairs:
            W = self.learner.learn(self.states[s], self.points[p], 1 - int(self._lab[s, p]))
            self._force[s, p] = _DEAD if W is None else self._state_id(W)

    # ------------------------------------------------------------------ the round
    @property
    def n_states(self) -> int:
        """Distinct A-states created so far."""
        return len(self.states)

    def labels(self, x: Any) -> np.ndarray:
        """int8 labels of every state at x (index by ``self.state`` to get the experts' predictions)."""
        p = self.point_id(x)
        S = len(self.states)
        sids = np.arange(S)
        self._fill_labels(sids, np.full(S, p))
        return self._lab[:S, p].copy()

    def advance(self, window: Callable[[int, int], list]) -> None:
        """End of round t: feed S′_{s, t} to the experts whose next pair has i = t (Alg 7 line 9)."""
        if self.t >= self.T:
            raise LittlestoneError(f"the horizon T={self.T} is exhausted")
        t = self.t = self.t + 1
        if self._pos.size == 0:
            return
        starts, lens, vals, dstarts, dlens = [], [], [], [], []
        new_nodes = []
        order = np.argsort(self._s, kind="stable")
        s_sorted = self._s[order]
        bounds = np.flatnonzero(np.diff(s_sorted)) + 1
        for grp in np.split(order, bounds):
            s = int(self._s[grp[0]])
            w = list(window(s, t))
            if len(w) != t - s + 1:
                raise LittlestoneError(f"window [{s}, {t}] has {len(w)} synthetic points, expected {t - s + 1}")
            win = np.array([self.point_id(x) for x in w], dtype=np.int64)
            sid, r, pos = self._sid[grp], self._r[grp], self._pos[grp]
            self._fill_force(np.repeat(sid, win.size), np.tile(win, sid.size))
            new = self._force[sid[:, None], win[None, :]]  # (g × w)
            stride = self._G[r, t]  # child subtree size F(T − t, r − 1)
            base = pos + 1 + (self._P1[r, t] - self._P1[r, s]) - (s - 1) * (self._P0[r, t] - self._P0[r, s])
            cpos = base[:, None] + np.arange(win.size, dtype=np.int64)[None, :] * stride[:, None]
            size = np.broadcast_to(stride[:, None], cpos.shape)
            ok = new >= 0
            starts.append(cpos[ok]), lens.append(size[ok]), vals.append(new[ok])
            dead = ~ok
            dstarts.append(cpos[dead]), dlens.append(size[dead])
            more = r > 1
            if more.any():
                child_sid = np.where(ok, new, sid[:, None])[more]
                new_nodes.append(
                    (
                        cpos[more].ravel(),
                        np.broadcast_to((r - 1)[more, None], cpos[more].shape).ravel(),
                        child_sid.ravel(),
                    )
                )
        self._fill_ranges(self.state, starts, lens, vals)
        self._fill_ranges(self.alive, dstarts, dlens, None)
        if new_nodes:
            p, r, sd = (np.concatenate(c) for c in zip(*new_nodes))
            self._pos = np.concatenate([self._pos, p])
            self._s = np.concatenate([self._s, np.full(p.size, t + 1, dtype=np.int64)])
            self._r = np.concatenate([self._r, r.astype(np.int64)])
            self._sid = np.concatenate([self._sid, sd.astype(np.int32)])
        keep = self._s <= self.T  # nodes with rounds left to branch in
        if not keep.all():
            self._pos, self._s, self._r, self._sid = (a[keep] for a in (self._pos, self._s, self._r, self._sid))

    @staticmethod
    def _fill_ranges(arr: np.ndarray, starts: list, lens: list, vals: list | None) -> None:
        """arr[s:s+l] = v for every (s, l, v) (False when vals is None), in one vectorized scatter."""
        if not starts:
            return
        st = np.concatenate(starts).astype(np.int64)
        ln = np.concatenate(lens).astype(np.int64)
        if st.size == 0:
            return
        total = int(ln.sum())
        offs = np.cumsum(ln) - ln
        idx = np.repeat(st - offs, ln) + np.arange(total, dtype=np.int64)
        arr[idx] = False if vals is None else np.repeat(np.concatenate(vals), ln)

    # ------------------------------------------------------------------ ranking (lazy enumeration of J)
    def pairs(self, e: int) -> tuple:
        """Expert e's pairs ((i_1, j_1), …) by unranking the preorder index (closed-form subtree sizes)."""
        if not 0 <= int(e) < self.n_experts:
            raise LittlestoneError(f"expert index {e!r} outside [0, {self.n_experts})")
        e, s, r, out = int(e), 1, self.M, []
        while e > 0:
            e -= 1
            g = self._g[r]
            for i in range(s, self.T + 1):
                block = (i - s + 1) * g[i]
                if e < block:
                    jj, e = divmod(e, g[i])
                    out.append((i, s + jj))
                    s, r = i + 1, r - 1
                    break
                e -= block
        return tuple(out)

    def index(self, pairs: Any) -> int:
        """The preorder index of the expert with these pairs (inverse of :meth:`pairs`)."""
        e, s, r = 0, 1, self.M
        for i, j in pairs:
            if r == 0 or not s <= j <= i <= self.T:
                raise LittlestoneError(
                    f"{tuple(pairs)!r} is not an expert of J (need j_1 ≤ i_1 < j_2 ≤ … ≤ T, at most {self.M} pairs)"
                )
            g = self._g[r]
            e += 1 + sum((k - s + 1) * g[k] for k in range(s, i)) + (j - s) * g[i]
            s, r = i + 1, r - 1
        return e


def expert_predictions(
    learner: SOAMajorityLearner,
    X: Any,
    window: Callable[[int, int], list],
    max_flips: int | None = None,
    limit: int = 1 << 27,
    live_only: bool = False,
) -> tuple[np.ndarray, list]:
    """Materialized (N × T) predictions of J_{≤M} on a sequence fixed in advance (small cases, tests): rows in
    preorder and their pairs ((i_1, j_1), …). ``live_only`` drops the experts that had a forced label ignored.
    ``window(l, r)`` returns the synthetic points of rounds l..r (1-indexed)."""
    pts = list(X)
    trie = ExpertTrie(learner, len(pts), max_flips)
    if trie.n_experts * len(pts) > limit:
        raise LittlestoneError(f"{trie.n_experts:,} experts over T = {len(pts)} rounds is too many to materialize")
    P = np.empty((trie.n_experts, len(pts)), dtype=np.int8)
    for t, x in enumerate(pts):
        P[:, t] = trie.labels(x)[trie.state]
        trie.advance(window)
    rows = np.flatnonzero(trie.alive) if live_only else np.arange(trie.n_experts)
    return P[rows], [trie.pairs(e) for e in rows]


def _scatter_losses(state: np.ndarray, lut: np.ndarray, out: np.ndarray, cum: np.ndarray, p: np.ndarray) -> float:
    """One pass over the experts: out[e] = lut[state[e]], cum[e] += out[e], and Σ_e p[e]·out[e] when p is given."""
    acc = 0.0
    use_p = p.size == out.size
    for e in range(state.size):
        v = lut[state[e]]
        out[e] = v
        cum[e] += int(v)
        if use_p:
            acc += p[e] * v
    return acc


_compiled_scatter = compile_on_first_use(_scatter_losses)


def _default_alpha(n: int) -> float:
    """Thm E.10's α(n) = (D⁶√(D* D_V)/(εn))^{2/3} is ≥ 1 at every n these tiny runs reach; a practical 1/√n, ≤ 0.9."""
    return min(0.9, 1.0 / math.sqrt(n))


class ConstructedExpertsLearner(CloneFromParams):
    """(2ε, 2δ)-DP agnostic online learner of LWY25 Thm E.10 + Thm 4.4 for small finite classes, river-style.

    ``predict_one(x)`` in round t sees x_t only then; ``learn_one(x, y)`` reveals y_t: the OPE learner gets the
    experts' 0/1 losses, Algorithm 5 gets x_t, and the experts whose next flip is at t are fed their window.
    ``sanitizer``: "realizable" (Thm E.5's sanitizer of H_{m,1/2} ⊕ H, tiny domains), "mwem" (MWEM on the same class;
    an (α, β)-sanitizer, so Lemma E.8's conclusion holds with its α) or a factory (epsilon, delta, n, run) -> sanitizer.
    ``ope``: "batched" (BatchedPrivateHedge, oblivious; default), "tree" (TreeAggregationHedge, adaptive), "private"
    (PrivateHedge, adaptive, Thm E.11's rate — with Thm E.10 this is Cor E.13's adaptive learner), or
    "hedge" (non-private Hedge over the same J: the baseline; then the learner is not private).
    ``track_expected`` adds Σ_t ⟨p_t, ℓ_t⟩ to :meth:`result` (one more pass over N per round; Hedge recomputes p_t); with
    the private OPE learners whose p_t is a function of the exact losses (PrivateHedge, batched) only when
    ``diagnostics=True`` (else NaN).
    """

    agnostic = True  # a regret guarantee on noisy streams

    def __init__(
        self,
        hypothesis_class: HypothesisClass,
        horizon: int,
        epsilon: float,
        delta: float,
        *,
        sanitizer: Any = "mwem",
        ope: str = "batched",
        max_flips: int | None = None,
        alpha: Callable[[int], float] = _default_alpha,
        backend: Any = "secure",
        seed: SeedLike = None,
        max_experts: int = MAX_EXPERTS,
        track_expected: bool = True,
        diagnostics: bool = False,
        accountant: Any = None,
    ):
        self.H = hypothesis_class
        #: charged the whole claim (:meth:`privacy`: Algorithm 5 and the OPE learner composed) before the first label
        #: is read (None: the default accountant); the parts it runs are covered by that charge
        self.accountant = accountant
        self._charged = False
        self.horizon = check_horizon(horizon)
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta, positive=True)
        if ope not in ("batched", "tree", "private", "hedge"):
            raise LittlestoneError(f"ope must be 'batched', 'tree', 'private' or 'hedge', got {ope!r}")
        self.ope = ope
        self.private = ope != "hedge"
        self.diagnostics = bool(diagnostics)
        self.learner = SOAMajorityLearner(hypothesis_class)
        self.max_flips = max_flips
        self.sanitized_class: FiniteClass = majority_xor_class(hypothesis_class, self.learner.m)
        s_san, s_ope = spawn_seeds(seed, 2)
        self._s_san, self._s_ope = s_san, s_ope
        self.backend = backend
        C = self.sanitized_class

        def child(i: int) -> np.random.SeedSequence:
            return np.random.SeedSequence(s_san.entropy, spawn_key=(*s_san.spawn_key, i))

        if sanitizer == "realizable":
            sanitizer = lambda e, d, n, i: RealizableSanitizer(  # noqa: E731
                C,
                e,
                d,
                alpha(n),
                backend=backend,
                seed=child(i),
            )
        elif sanitizer == "mwem":
            sanitizer = lambda e, d, n, i: MWEM(C, e, reuse=0, backend=backend, seed=child(i))  # noqa: E731
        if not callable(sanitizer):
            raise LittlestoneError("sanitizer must be 'realizable', 'mwem' or a factory (epsilon, delta, n, run)")
        self.make_sanitizer = sanitizer
        self.experts_ = ExpertTrie(self.learner, self.horizon, max_flips, limit=max_experts)
        self.n_experts_ = self.experts_.n_experts
        self.sanitizer_ = DyadicSanitizer(self.horizon, self.epsilon, self.delta, self.make_sanitizer)
        self.ope_ = self._ope(self.n_experts_)
        self.t = 0
        self.predictions_: list[int] = []
        self.choices_: list[int] = []
        # exact expert losses, for the run's evaluation (never read by the OPE learner's choices)
        self._cumulative = np.zeros(self.n_experts_, dtype=np.int16 if self.horizon < 1 << 15 else np.int32)
        self.track_expected = bool(track_expected)
        self._expected = 0.0
        self._mistakes = 0
        self._round: tuple | None = None

    def _ope(self, N: int) -> Any:
        if self.ope in ("batched", "private"):
            cls = BatchedPrivateHedge if self.ope == "batched" else PrivateHedge
            return cls(
                N,
                self.horizon,
                self.epsilon,
                self.delta,
                backend=self.backend,
                seed=self._s_ope,
                diagnostics=self.diagnostics,
            )
        if self.ope == "tree":
            return TreeAggregationHedge(N, self.horizon, self.epsilon, backend=self.backend, seed=self._s_ope)
        return Hedge(N, self.horizon, seed=self._s_ope)

    def _played_distribution(self) -> np.ndarray:
        """The OPE learner's distribution this round, for the expected loss (evaluation): released as it is by the
        tree learner and Hedge; PrivateHedge's and the batched learner's draw distribution is a function of the exact
        losses, read only with ``diagnostics=True`` (else the expected loss is not tracked: NaN)."""
        if not self.track_expected:
            return np.zeros(0)
        if isinstance(self.ope_, BatchedPrivateHedge):
            return self.ope_.draw_distribution() if self.diagnostics else np.zeros(0)
        if isinstance(self.ope_, PrivateHedge) and not self.diagnostics:
            return np.zeros(0)
        return self.ope_.distribution()

    def privacy(self) -> PrivacyClaim | None:
        """Algorithm 5's claim (ε, δ) composed (basic composition) with the OPE learner's own claim (≤ (ε, δ); (ε, 0)
        for the tree one): at most (2ε, 2δ) as in Thm 4.4. None with the non-private Hedge baseline."""
        if not self.private:
            return None
        san, ope = self.sanitizer_.privacy(), self.ope_.privacy()
        # one round's example replaced = one point of the sanitized stream and one round's loss vector replaced
        ope = dataclasses.replace(ope, relation=san.relation)
        return compose([san, ope], "basic", what="constructed-experts learner (LWY25 Thm 4.4)")

    def release(self) -> dict[str, Any]:
        """Exactly what the privacy claim covers (issue 26 item 4): the predictions ŷ_1..ŷ_t and the experts the OPE
        learner played (mechanism outputs and their post-processing), the public parameters and the claim — never
        the exact losses or mistakes (:meth:`result`, the caller's own evaluation on the labels it holds), whatever
        ``diagnostics`` says. The learner object and its pickle hold the exact losses and the sanitizer's points:
        the owner's private file, not a release."""
        return {
            "learner": type(self).__name__,
            "parameters": {
                "class": self.H.name,
                "horizon": self.horizon,
                "epsilon": self.epsilon,
                "delta": self.delta,
                "ope": self.ope,
                "max_flips": self.max_flips,
                "n_experts": self.n_experts_,
            },
            "rounds": self.t,
            "predictions": list(self.predictions_),
            "experts_played": list(self.choices_),
            "privacy": self.privacy(),
        }

    @property
    def cumulative_(self) -> np.ndarray:
        """The exact cumulative loss of every expert (a function of the private labels): ``diagnostics=True`` only."""
        if self.private and not self.diagnostics:
            raise LittlestoneError(
                "cumulative_ holds exact losses of the private data, which the privacy claim does not cover: "
                "it is a diagnostic, available only with diagnostics=True"
            )
        return self._cumulative

    @property
    def n_states_(self) -> int:
        """Distinct A-states (version spaces) the experts have reached."""
        return self.experts_.n_states

    @property
    def n_live_(self) -> int:
        """Experts none of whose forced labels was inconsistent with H (the rest follow no h ∈ H)."""
        return int(self.experts_.alive.sum())

    def predict_one(self, x: Any) -> int:
        """ŷ_t = h_t^{e_t}(x_t), e_t the OPE learner's expert for round t (repeated calls: same answer)."""
        if self.t >= self.horizon:
            raise LittlestoneError(f"the horizon T={self.horizon} is exhausted")
        pid = self.experts_.point_id(x)
        if self._round is not None:
            if self._round[0] != pid:
                first = self.experts_.points[self._round[0]]
                raise LittlestoneError(
                    f"round {self.t + 1} already predicted at {first!r}; call "
                    f"learn_one({first!r}, y) before predicting at another point"
                )
            return self._round[2]
        lab = self.experts_.labels(x)
        e = int(self.ope_.predict_one())
        yhat = int(lab[self.experts_.state[e]])
        self._round = (pid, lab, yhat, e)
        return yhat

    def learn_one(self, x: Any, y: Any) -> "ConstructedExpertsLearner":
        """Reveal y_t ∈ {0, 1}: losses to the OPE learner, x_t to Algorithm 5, windows to the flipping experts."""
        if not self._charged:
            if self.private:
                from ..privacy.accountant import charge_fit

                charge_fit(self.accountant, self.privacy(), f"{type(self).__name__} (T={self.horizon})")
            self._charged = True
        from ..privacy.accountant import contained

        with contained():  # the OPE learner and Algorithm 5 are covered by the charge above
            return self._learn_one(x, y)

    def _learn_one(self, x: Any, y: Any) -> "ConstructedExpertsLearner":
        if isinstance(y, (bool, np.bool_)) or not isinstance(y, (int, np.integer)) or int(y) not in (0, 1):
            raise LittlestoneError(f"labels must be 0 or 1, got {y!r}")
        self.predict_one(x)
        assert self._round is not None
        _, lab, yhat, e = self._round
        lossf = np.empty(self.n_experts_)  # fresh: the OPE learner may keep what it gets
        p = self._played_distribution()
        lut = (lab != int(y)).astype(np.float64)  # each distinct state's loss, scattered to N experts
        dot = _compiled_scatter()(self.experts_.state, lut, lossf, self._cumulative, p)
        if p.size:
            self._expected += dot / float(p.sum())
        else:
            self._expected = math.nan
        self.ope_.learn_one(lossf)
        self.sanitizer_.learn_one(x)
        self.experts_.advance(self.sanitizer_.window)
        self.predictions_.append(yhat)
        self._mistakes += int(yhat != int(y))
        self.choices_.append(e)
        self.t += 1
        self._round = None
        return self

    def run(self, X: Any, y: Any) -> ExpertsRun:
        """Play the protocol round by round on (X, y) (the points need not be fixed in advance: this is the same
        loop an adaptive adversary plays); ``predictions_`` holds ŷ_1..ŷ_T."""
        y = np.asarray(y)
        if len(y) != len(X) or len(X) > self.horizon - self.t:
            raise LittlestoneError(
                f"run needs as many labels as points and at most T − t = {self.horizon - self.t} "
                f"of them, got {len(X)} points and {len(y)} labels"
            )
        for x, lab in zip(X, y.tolist()):
            self.predict_one(x)
            self.learn_one(x, lab)
        return self.result()

    def result(self) -> ExpertsRun:
        """Choices, realized and expected loss, the best expert of J so far and its loss."""
        best = int(np.argmin(self._cumulative))
        ch = np.array(self.choices_, dtype=np.int64)
        return ExpertsRun(ch, float(self._mistakes), self._expected, float(self._cumulative[best]), best, int(ch.size))
