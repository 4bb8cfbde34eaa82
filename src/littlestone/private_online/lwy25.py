"""LWY25's realizable private online learner against adaptive adversaries (LWY25 §3, Alg. 1 ``Update``, Alg. 2,
Thm 3.1; constants from App. B).

Layer s holds N_s = N₀/2^s sequences; S_{2i−1}, S_{2i} (0-based slots 2i, 2i+1) are siblings. Each round:

1. release h_t = first element of L_s (halt if L_s is empty; see below);
2. draw i_t uniformly from the N_s/2 pairs; if SOA(S_{2i−1}) = SOA(S_{2i}) ≠ ⊥ and that hypothesis errs on
   (x_t, y_t), append (x_t, y_t) to S_{2i−1} (Alg. 2 lines 7–9: insertion only into agreeing pairs that both err);
3. feed 1[h_t(x_t) ≠ y_t] to the current AboveThreshold (ε₀ = ε/2, threshold N_s + 8(ln T + ln(6T/β))/ε₀,
   one instance per listed hypothesis); on ⊤ drop h_t from L_s, and while s < d and L_s = ∅: ``Update`` the layer
   (lazy update with a fresh random permutation), s ← s+1, run one PrivateHistogram with (ε₀/d, δ/d) on
   V_s = {SOA(S_{2i}) : SOA(S_{2i−1}) = SOA(S_{2i}) ≠ ⊥} and set L_s = {h : Count(h) ≥ 3M_s/4},
   M_s = 128·2^{−6·2^s}·N_s; then start a new AboveThreshold.

Privacy (LWY25 Lemma B.2): the AboveThreshold instances run on disjoint segments of the stream (ε₀ in all); one
example changes at most one sequence per layer, so each histogram is (ε₀/d, δ/d)-DP; basic composition gives (ε, δ).
Privacy holds for every setting; the mistake bound only for the theorem's N₀ (``LWY25Setting.theory``).

Behaviour on inputs the theorem does not cover: a non-realizable stream makes some sequences ⊥ (their pairs stop
agreeing and drop out); once L_d is exhausted the learner halts (Alg. 2 line 6) and keeps releasing the last
hypothesis it released (post-processing). More than T rounds raise an error.

Randomness: the per-round insertion indices come from one stream of uniforms (element t for round t); the noise is
drawn only by mechanism objects of :mod:`littlestone.privacy` — each AboveThreshold instance is a
:class:`~littlestone.privacy.AboveThreshold` (integer grid and discrete Laplace on the secure backend, floats on the
seeded one) and each layer histogram a :class:`~littlestone.privacy.BoundedHistogram` — and :meth:`LWY25.privacy`
composes exactly those objects. ``AboveThreshold.first_above`` draws the noise the scalar ``test`` calls would, so the
vectorized :meth:`LWY25._run01` releases exactly the stream of the round-by-round protocol for the same seed.

Once L_d is exhausted Alg. 2 halts for good; :class:`~littlestone.private_online.AnytimeLWY25` (an extension) starts a
fresh instance instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._random import SeedLike
from ..bounds.lwy25 import at_margin, theorem_3_1
from ..classes.base import Hypothesis, HypothesisClass, Point, VersionSpace
from ..errors import LittlestoneError
from ..privacy.above_threshold import AboveThreshold, AboveThresholdRun
from ..privacy.bounded_histogram import BoundedHistogram
from .base import (
    BOT,
    BaseLearner,
    LearnerPrivacy,
    NoiseStream,
    PrivateOnlineLearner,
    compose_claims,
    make_base_learner,
    split_randomness,
)

#: largest N₀ a run will allocate (the theorem's N₀ is ~10^17 at d = 1)
MAX_N0 = 1 << 24
_CHUNK = 1 << 15


@dataclass(frozen=True)
class LWY25Setting:
    """N₀ and the list threshold M_s = m_coef·2^{−m_exp·2^s}·N_s (theory: m_coef = 128, m_exp = 6).

    ``practical(d)`` (the default of runs): N₀ = 2^{11+6(d−1)}, m_exp = 5.5 + 1.5(d−1), m_coef = 128 (d ≥ 1).
    Why: Alg. 2 spends about N_s + α mistakes per listed hypothesis, so N₀ should be as small as lets the target
    survive to layer d: the target's agreeing pairs at layer s must outnumber the bounded histogram's release
    threshold 1 + A (≈ 51 at ε₀/d = 0.5, δ/d = 10⁻⁶; ≈ 101 at d = 2) and 3M_s/4. Measured on thresholds with
    i.i.d. streams (3 seeds, ε = 1, δ = 10⁻⁶): at d = 1 the target holds ≈ 9% of the N_1/2 pairs (coverage
    1 − e^{−2} ≈ 0.86 after N₀ mistakes, a correct guess with probability 1/2, both siblings) — N₀ = 2048 gives ≈ 90
    copies, and m_exp = 5.5 puts 3M_1/4 = 48 below that; at d = 2 about 1% of the layer-1 pairs hold the target
    and 0.7% of the layer-2 pairs, so N₀ = 2^17 and m_exp = 7 (3M_1/4 = 384). All overridable; privacy does not
    depend on them, the mistake bound of Thm 3.1 only holds for ``theory``.
    """

    N0: int
    m_coef: float = 128.0
    m_exp: float = 6.0
    name: str = "custom"

    def M(self, s: int) -> float:
        return self.m_coef * 2.0 ** (-self.m_exp * 2**s) * (self.N0 >> s)

    @staticmethod
    def theory(d: int, T: int, epsilon: float, delta: float, beta: float) -> "LWY25Setting":
        """LWY25 Thm 3.1 with App. B's constants (:func:`littlestone.bounds.lwy25.theorem_3_1`)."""
        return LWY25Setting(theorem_3_1(d, T, epsilon, delta, beta).N0, 128.0, 6.0, "theory")

    @staticmethod
    def practical(d: int) -> "LWY25Setting":
        d = max(d, 1)
        return LWY25Setting(1 << (11 + 6 * (d - 1)), 128.0, 5.5 + 1.5 * (d - 1), "practical")

    def label(self) -> str:
        return (
            f"{self.name}(N0={self.N0}, M_s=128·2^(-{self.m_exp:g}·2^s)·N_s)"
            if self.m_coef == 128
            else f"{self.name}(N0={self.N0}, M_s={self.m_coef:g}·2^(-{self.m_exp:g}·2^s)·N_s)"
        )


@dataclass
class _Layer:
    """The N_s sequences of the current layer, with their base-learner states and outputs."""

    seqs: list[tuple]  # the examples of each sequence (≤ 2s of them), or None for ⊥
    states: list[Any]
    outs: list[Any]  # Hypothesis or BOT
    agree: np.ndarray  # per pair: id of the common hypothesis, or −1
    hyps: list[Hypothesis]  # id -> hypothesis
    ids: dict  # hypothesis -> id


def lwy_update(
    layer_seqs: list, layer_states: list, layer_outs: list, base: BaseLearner, rng: np.random.Generator
) -> tuple[list, list, list]:
    """LWY25 Alg. 1 (``Update``): N_{s+1} = N_s/2 sequences, all ⊥ except one per colliding sibling pair: the sibling
    whose hypothesis is wrong on a disagreement point x̄ with a uniformly guessed label ȳ, extended by (x̄, ȳ) and
    placed at the random position π(i). The guesses and π are drawn for every pair (data-independent draws)."""
    n = len(layer_outs)
    if n % 2:
        raise LittlestoneError(f"Update needs an even number of sequences, got {n}")
    half = n // 2
    perm = rng.permutation(half)
    guesses = rng.integers(0, 2, size=half)
    seqs: list = [None] * half
    states: list = [BOT] * half
    outs: list = [BOT] * half
    for i in range(half):
        a, b = layer_outs[2 * i], layer_outs[2 * i + 1]
        if a is BOT or b is BOT or a == b:
            continue
        xbar = base.disagreement(a, b)
        ybar = int(guesses[i])
        j = 2 * i if a(xbar) != ybar else 2 * i + 1
        k = int(perm[i])
        seqs[k] = layer_seqs[j] + ((xbar, ybar),)
        states[k] = base.step(layer_states[j], xbar, ybar)
        outs[k] = base.output(states[k])
    return seqs, states, outs


class LWY25(PrivateOnlineLearner):
    """LWY25 Alg. 2: an (ε, δ)-DP online learner (whole released stream, adaptive inputs) for realizable streams.

    Parameters: ``T`` (horizon, required), ``epsilon`` (0 < ε), ``delta`` (0 < δ < 1), ``beta`` (failure probability
    in the AboveThreshold margin), ``setting`` ("practical" — default —, "theory", or an :class:`LWY25Setting`),
    ``base`` (the deterministic mistake-bounded learner, SOA by default), ``backend`` ("secure" — OpenDP — or
    "seeded" with ``seed``), ``labels`` (declared label pair), ``diagnostics`` (False: :meth:`state` shows only what is public or computed from mechanism outputs, and
    :attr:`insertions` / :meth:`sequences` refuse to be read; True adds the exact counts of the private stream, which
    the claim does not cover).

    >>> from littlestone import Thresholds
    >>> H = Thresholds(4)
    >>> learner = LWY25(H, T=100, epsilon=1.0, delta=1e-6, backend="seeded", seed=0)
    >>> learner.learn_one(3, 1); learner.state()["layer"]
    0
    """

    agnostic = False  # realizable streams only: no regret guarantee on noisy streams

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        T: int,
        epsilon: float,
        delta: float,
        beta: float = 0.1,
        setting: LWY25Setting | str = "practical",
        base: BaseLearner | str | None = None,
        backend: Any = "secure",
        seed: SeedLike = None,
        labels: tuple[int, int] = (0, 1),
        feature: str | None = None,
        diagnostics: bool = False,
        accountant: Any = None,
    ):
        super().__init__(
            hypothesis_class,
            T=T,
            epsilon=epsilon,
            delta=delta,
            beta=beta,
            labels=labels,
            feature=feature,
            diagnostics=diagnostics,
            accountant=accountant,
        )
        self.base = make_base_learner(base, self.initial_version_space)
        self.d = int(self.base.mistake_bound())
        if setting == "practical":
            setting = LWY25Setting.practical(self.d)
        elif setting == "theory":
            setting = LWY25Setting.theory(self.d, self.T, self.epsilon, self.delta, self.beta)
        if not isinstance(setting, LWY25Setting):
            raise LittlestoneError(f"setting must be 'practical', 'theory' or an LWY25Setting, not {setting!r}")
        n0 = setting.N0
        if isinstance(n0, bool) or not isinstance(n0, int) or n0 < 2 or n0 % (2 ** (self.d + 1)):
            raise LittlestoneError(
                f"N0={n0!r} must be a positive multiple of 2^(d+1) = {2 ** (self.d + 1)} (every "
                f"layer s ≤ d = {self.d} needs an even number of sequences)"
            )
        if n0 > MAX_N0:
            from .too_large import too_large_message

            raise LittlestoneError(too_large_message("lwy25", self.d, setting))
        if not (setting.m_coef > 0 and math.isfinite(setting.m_exp)):
            raise LittlestoneError("LWY25Setting needs m_coef > 0 and a finite m_exp")
        self.setting_ = setting
        self.eps0 = self.epsilon / 2.0
        self.alpha = at_margin(self.T, self.beta, self.eps0)
        (self._rng_insert, self._rng_update), (self._b_at, self._b_hist) = split_randomness(backend, seed, 2, 2)
        self._discrete = self._b_hist.floating_point_safe
        # the mechanisms this learner runs (LWY25 Lemma B.2), built once from the parameters: one AboveThreshold
        # per layer threshold N_s + α (ε₀, instances on disjoint segments of the stream) and one bounded histogram
        # per layer s = 1..d (ε₀/d, δ/d); privacy() composes exactly these objects
        self.at_mechanisms = tuple(
            AboveThresholdRun((n0 >> s) + self.alpha, self.eps0, sensitivity=1.0) for s in range(self.d + 1)
        )
        self.histogram_mechanisms = tuple(
            BoundedHistogram(self.eps0 / self.d, self.delta / self.d, discrete=self._discrete) for _ in range(self.d)
        )
        self._blk = min(1 << 16, self.T + 1)
        self._u = NoiseStream(lambda n: self._rng_insert.random(n), block=self._blk)
        # layer 0: N0 empty sequences, L_0 = {SOA(∅)}
        self.s = 0
        s0 = self.base.start()
        out0 = self.base.output(s0)
        self._set_layer([()] * n0, [s0] * n0, [out0] * n0, uniform=out0 is not BOT)
        self.L: list[Hypothesis] = [self.base.output(s0)]
        self._last = self.L[0]
        self.halted = False
        self.at_instances = 0
        self.histograms_run = 0
        self.list_sizes: list[int] = [1]
        self._insertions: int | None = 0 if self.diagnostics else None  # a diagnostic: kept only when asked
        self._new_at()

    # ------------------------------------------------------------------------------------------- bookkeeping
    @property
    def N(self) -> int:
        """N_s, the number of sequences of the current layer."""
        return len(self._layer.outs)

    @property
    def setting(self) -> str:
        return self.setting_.label()

    @property
    def insertions(self) -> int:
        """Examples inserted so far (Alg. 2 line 9): an exact count of the private stream, only with
        ``diagnostics=True``."""
        self._require_diagnostics("insertions")
        return self._insertions

    def _set_layer(self, seqs: list, states: list, outs: list, *, uniform: bool = False) -> None:
        """Install a layer; ``uniform``: every sequence is the same empty one (layer 0), so every pair agrees on
        the one hypothesis (set in one vectorised step: N₀ = 2²³ pairs at d = 3 took ~4 s in the loop)."""
        half = len(outs) // 2
        if uniform:
            self._layer = _Layer(list(seqs), list(states), list(outs), np.zeros(half, dtype=np.int64), [outs[0]], {})
            self._layer.ids[outs[0]] = 0
            return
        agree = np.full(half, -1, dtype=np.int64)
        hyps: list[Hypothesis] = []
        ids: dict = {}
        for i in range(half):
            a, b = outs[2 * i], outs[2 * i + 1]
            if a is not BOT and b is not BOT and a == b:
                k = ids.get(a)
                if k is None:
                    k = ids[a] = len(hyps)
                    hyps.append(a)
                agree[i] = k
        self._layer = _Layer(list(seqs), list(states), list(outs), agree, hyps, ids)

    def _new_at(self) -> None:
        """Alg. 2 lines 4, 23: a new AboveThreshold instance (ε₀, threshold N_s + α) on the rounds that follow."""
        m = self.at_mechanisms[self.s]
        self.at_instances += 1
        self._at_count = 0
        self._at = AboveThreshold(
            m.threshold,
            m.epsilon,
            sensitivity=m.sensitivity,
            backend=self._b_at,
            noise_batch=min(self._blk, 1 << 12),
            threshold_batch=1,
        )

    def _insert(self, i: int, x: Point, y: int) -> None:
        """Alg. 2 line 9: S_{2i−1} ← (S_{2i−1}, (x, y)); the pair no longer agrees (the base learner erred)."""
        L = self._layer
        j = 2 * i
        L.seqs[j] = L.seqs[j] + ((x, y),)
        L.states[j] = self.base.step(L.states[j], x, y)
        L.outs[j] = self.base.output(L.states[j])
        L.agree[i] = -1
        o = L.outs[j]
        if (
            o is not BOT and o == L.outs[j + 1]
        ):  # only possible for a base learner that keeps its output after a mistake
            L.agree[i] = L.ids.setdefault(o, len(L.hyps))
            if L.agree[i] == len(L.hyps):
                L.hyps.append(o)
        if self._insertions is not None:
            self._insertions += 1

    def _on_top(self) -> None:
        """Alg. 2 lines 14–23."""
        self.L.pop(0)
        while self.s < self.d and not self.L:
            L = self._layer
            seqs, states, outs = lwy_update(L.seqs, L.states, L.outs, self.base, self._rng_update)
            self.s += 1
            self._set_layer(seqs, states, outs)
            self.L = self._histogram_list()
        if not self.L:
            self.halted = True
        self._new_at()

    def _histogram_list(self) -> list[Hypothesis]:
        """Alg. 2 lines 18–20: PrivateHistogram (ε₀/d, δ/d) on V_s, L_s = {h : Count(h) ≥ 3M_s/4}, by noisy count."""
        L = self._layer
        V = [L.hyps[k] for k in L.agree.tolist() if k >= 0]
        self.histograms_run += 1
        if not V:  # nothing to count: the release of the empty multiset is empty whatever the noise
            self.list_sizes.append(0)
            return []
        rel = self.histogram_mechanisms[self.s - 1](V, backend=self._b_hist)
        cut = 0.75 * self.setting_.M(self.s)
        out = sorted((h for h, c in rel.counts.items() if c >= cut), key=lambda h: (-rel.counts[h], h))
        self.list_sizes.append(len(out))
        return out

    # ------------------------------------------------------------------------------------------- protocol
    def _released(self) -> Hypothesis:
        return self.L[0] if self.L else self._last

    def _learn01(self, x: Point, y: int) -> None:
        if self.halted:
            return
        h = self.L[0]
        self._last = h
        L = self._layer
        i = int(self._u.one() * (self.N // 2))
        k = int(L.agree[i])
        if k >= 0 and L.hyps[k](x) != y:
            self._insert(i, x, y)
        self._at_count += int(h(x) != y)
        if self._at.test(self._at_count):
            self._on_top()

    def _run01(self, X: Any, y: np.ndarray) -> np.ndarray:
        preds, pos = self._run_until_halt(X, y)
        if pos < len(y):  # halted: the last released hypothesis stays (post-processing)
            preds[pos:] = self._last.predict(X[pos:])
            self.t += len(y) - pos
        return preds

    def _run_until_halt(self, X: Any, y: np.ndarray) -> tuple[np.ndarray, int]:
        """The vectorised rounds up to the one at which the learner halts (Alg. 2 line 6): (predictions — filled up
        to the returned position —, number of rounds played)."""
        n = len(y)
        preds = np.empty(n, dtype=np.int8)
        pos = 0
        while pos < n:
            if self.halted:
                break
            h = self.L[0]
            self._last = h
            end = min(n, pos + _CHUNK)
            Xc, yc = X[pos:end], y[pos:end]
            pc = h.predict(Xc)
            cum = self._at_count + np.cumsum(pc != yc)
            top = self._at.first_above(cum)
            last = top if top >= 0 else end - pos - 1
            m = last + 1
            self._insert_block(Xc[:m], yc[:m], self._u.take(m))
            preds[pos : pos + m] = pc[:m]
            self._at_count = int(cum[last])
            self.t += m
            pos += m
            if top >= 0:
                self._on_top()
        return preds, pos

    def _insert_block(self, Xc: Any, yc: np.ndarray, u: np.ndarray) -> None:
        """Alg. 2 lines 7–9 for a block of rounds between two AboveThreshold events (the layer is fixed): each pair
        takes the first round that hits it and errs; a pair that still agrees after that insertion (a base learner
        that keeps its output after a mistake) replays its later rounds in order."""
        L = self._layer
        idx = (u * (self.N // 2)).astype(np.int64)
        ids = L.agree[idx]
        live = np.flatnonzero(ids >= 0)
        if live.size == 0:
            return
        # first live round of each pair: later rounds of the same pair only matter if the first did not insert
        hits: list[int] = []
        uniq = np.unique(ids[live])
        if uniq.size <= 64:
            for k in uniq.tolist():
                sel = live[ids[live] == k]
                p = L.hyps[k].predict(Xc[sel] if isinstance(Xc, np.ndarray) else [Xc[r] for r in sel])
                hits.extend(sel[p != yc[sel]].tolist())
            hits.sort()
        else:
            for r in live.tolist():
                if L.hyps[int(ids[r])](_item(Xc[r])) != yc[r]:
                    hits.append(r)
        done: dict[int, int] = {}
        for r in hits:
            i = int(idx[r])
            if i in done:
                continue
            done[i] = r
            self._insert(i, _item(Xc[r]), int(yc[r]))
        # a base learner that may keep its output after a mistake (never the SOA: its output after (x, y) predicts y
        # at x) leaves such a pair agreeing: its later rounds of the block are replayed one by one, as learn_one does
        for i in [i for i in done if L.agree[i] >= 0]:
            for r in np.flatnonzero(idx == i).tolist():
                k = int(L.agree[i])
                if r > done[i] and k >= 0 and L.hyps[k](_item(Xc[r])) != yc[r]:
                    self._insert(i, _item(Xc[r]), int(yc[r]))

    # ------------------------------------------------------------------------------------------- reports
    def privacy(self) -> LearnerPrivacy:
        """LWY25 Lemma B.2, composed from the mechanism objects the learner runs: the AboveThreshold instances
        (:attr:`at_mechanisms`, ε₀ each) run on disjoint segments of the stream, so together they are ε₀-DP (App. B:
        "we run many instances of AboveThreshold on disjoint sequences"); basic composition with the d bounded
        histograms (:attr:`histogram_mechanisms`, (ε₀/d, exact δ of the truncated noise) each)."""
        return compose_claims(
            self.at_mechanisms, self.histogram_mechanisms, self.relation, "basic composition, LWY25 Lemma B.2"
        )

    def _public_state(self) -> dict[str, Any]:
        """Public or computed from mechanism outputs: the layer s (moved by AboveThreshold's ⊤), N_s = N₀/2^s, the
        lists L_s released by the histograms (their sizes) and what is left of the current one (shrunk by ⊤)."""
        return {
            "t": self.t,
            "layer": self.s,
            "d": self.d,
            "N_s": self.N,
            "list": len(self.L),
            "list_sizes": list(self.list_sizes),
            "at_instances": self.at_instances,
            "at_restarts": self.at_instances - 1,
            "histograms_run": self.histograms_run,
            "halted": self.halted,
            "setting": self.setting,
        }

    def _diagnostic_state(self) -> dict[str, Any]:
        """Exact counts of the private stream: agreeing pairs, ⊥ sequences of the layer, insertions."""
        L = self._layer
        return {
            "agreeing_pairs": int(np.count_nonzero(L.agree >= 0)),
            "bottom_sequences": sum(1 for o in L.outs if o is BOT),
            "insertions": self._insertions,
        }

    def sequences(self) -> list[tuple | None]:
        """The current layer's sequences (None for ⊥): the private examples themselves, only with
        ``diagnostics=True``."""
        self._require_diagnostics("sequences()")
        return [s if o is not BOT else None for s, o in zip(self._layer.seqs, self._layer.outs)]


def _item(x: Any) -> Any:
    return x.item() if hasattr(x, "item") and not isinstance(x, tuple) else x


__all__ = ["LWY25", "LWY25Setting", "lwy_update"]
