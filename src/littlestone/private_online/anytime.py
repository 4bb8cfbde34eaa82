"""Anytime variants of LWY25 and GL21: restart a fresh instance whenever the current one stops for good (an extension
beyond the papers; the papers' algorithms stay available as :class:`~littlestone.private_online.LWY25` and
:class:`~littlestone.private_online.GL21`).

Why: at practical (non-theorem) sizes an LWY25 instance can exhaust its last list L_d and halt (Alg. 2 line 6), and
GL21's HistSparse aborts after its c histograms; both then release one hypothesis forever, wrong on every round an
adaptive adversary picks. Here instance j = 1, 2, … starts at the round after instance j−1 stopped, with

* its own size quadrupled: N₀·4^{j−1} sequences (LWY25), k₂·4^{j−1} trees (GL21), capped by the allocation limit;
* the AboveThreshold / SparseVector part at the paper's ε (ε/2): these pure-DP instances run on disjoint segments
  of the stream, so together they stay ε/2-DP (the argument LWY25 App. B uses for Alg. 2's own AboveThreshold
  instances, proof of Lemma B.2);
* its histograms at a share w_j = 2^{−j} of the histogram budget (ε/2, δ): Σ_j w_j = 1, so all histograms of all
  instances compose (basic composition) to at most (ε/2, δ) — quadrupling the size while halving the histogram's ε
  doubles the ratio of a hypothesis's count to the histogram's error at every restart, so an instance too small for
  its lists to fill is followed by ones that are large enough (a doubling trick; sizes stop at the allocation
  limit, after which only the budget halves).

When an instance stops is decided by its released outputs (the AboveThreshold ⊤ and the histogram that empty L_d;
the c-th SparseVector ⊤), so the restart schedule is post-processing. Each instance's horizon is the number of rounds
left. :meth:`privacy` composes the mechanism objects of the instances built so far with the not-yet-started tail of
the schedule (histogram share 2^{−J} after J instances), so the claim is (ε, δ) whatever the number of restarts.
Derivation: docs/derivations.md, "Anytime restarts".
"""

from __future__ import annotations

from abc import abstractmethod

from typing import Any

import numpy as np

from .._random import SeedLike
from ..classes.base import Hypothesis, HypothesisClass, Point, VersionSpace
from ..errors import LittlestoneError
from ..privacy.backends import SeededBackend, SecureBackend
from ..privacy.mechanism import PrivacyClaim
from .base import BaseLearner, LearnerPrivacy, PrivateOnlineLearner, compose_claims
from .gl21 import GL21, MAX_FOREST, GL21Setting
from .lwy25 import LWY25, MAX_N0, LWY25Setting


def _child_seeds(backend: Any, seed: SeedLike) -> tuple[str, Any]:
    """(backend for the instances, a SeedSequence spawning each instance's seed — None on the secure backend)."""
    if backend is None or backend == "secure" or isinstance(backend, SecureBackend):
        if seed is not None:
            raise LittlestoneError(
                "the secure backend is unseeded by design; use backend='seeded' with a seed for reproducible runs"
            )
        return "secure", None
    if backend == "seeded":
        if isinstance(seed, np.random.SeedSequence):
            return "seeded", seed
        if isinstance(seed, np.random.Generator):
            return "seeded", np.random.SeedSequence(int(seed.integers(0, 2**63 - 1)))
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise LittlestoneError(f"seed must be a non-negative int, a SeedSequence or a Generator, not {seed!r}")
        return "seeded", np.random.SeedSequence(None if seed is None else int(seed))
    if isinstance(backend, SeededBackend):
        if seed is not None:
            raise LittlestoneError("give either a Backend instance or backend='seeded' with a seed, not both")
        return "seeded", np.random.SeedSequence(int(backend.rng.integers(0, 2**63 - 1)))
    raise LittlestoneError(f"backend must be 'secure', 'seeded' or a Backend instance, not {backend!r}")


class _Restarting(PrivateOnlineLearner):
    """Instance j (1-based) of the paper's learner on the rounds after instance j−1 stopped (module docstring); every
    instance is built with this learner's ``diagnostics`` flag."""

    paper: type = PrivateOnlineLearner
    stop_flag = "halted"

    def __init__(
        self,
        hypothesis_class: HypothesisClass | VersionSpace,
        *,
        T: int,
        epsilon: float,
        delta: float,
        beta: float = 0.1,
        setting: Any = "practical",
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
        self._backend, self._seeds = _child_seeds(backend, seed)
        self._base_arg = base
        self.instances: list[Any] = []
        self._first_setting = setting
        self._start_instance()
        self.base = self.current.base
        self.d = self.current.d

    # --------------------------------------------------------------------------------------------- instances
    @abstractmethod
    def _instance_setting(self, j: int) -> Any:
        """The setting of instance j (1-based): the paper's learner, 4^{j−1} times larger (module docstring)."""

    def _start_instance(self, horizon: int | None = None) -> None:
        """Instance j on the ``horizon`` rounds left (all T for the first)."""
        j = len(self.instances) + 1
        setting = self._first_setting if j == 1 else self._instance_setting(j)
        seed = None if self._seeds is None else self._seeds.spawn(1)[0]
        inst = self.paper(
            self.initial_version_space,
            T=self.T if horizon is None else horizon,
            epsilon=self.epsilon,
            delta=self.delta,
            beta=self.beta,
            setting=setting,
            base=self._base_arg if j == 1 else self.instances[0].base,
            backend=self._backend,
            seed=seed,
            labels=self.labels,
            histogram_share=2.0**-j,
            diagnostics=self.diagnostics,
        )
        self.instances.append(inst)
        self.current = inst

    @property
    def restarts(self) -> int:
        return len(self.instances) - 1

    def _stopped(self) -> bool:
        return bool(getattr(self.current, self.stop_flag))

    # --------------------------------------------------------------------------------------------- protocol
    def _released(self) -> Hypothesis:
        return self.current._released()

    def _learn01(self, x: Point, y: int) -> None:
        self.current._learn01(x, y)
        self.current.t += 1
        left = self.T - self.t - 1  # rounds after this one
        if self._stopped() and left >= 1:
            self._start_instance(left)

    @property
    def setting(self) -> str:
        return f"anytime restarts of {self.instances[0].setting} (size ×4, histogram share 2^-j per restart)"

    def privacy(self) -> LearnerPrivacy:
        """The mechanism objects of the instances built so far — AboveThreshold/SparseVector instances on disjoint
        segments, every histogram by basic composition — and the histogram budget of the instances not yet started
        (share 2^{−J} of (ε/2, δ) after J instances)."""
        disjoint, sequential = [], []
        for inst in self.instances:
            d, s = self._mechanisms(inst)
            disjoint.extend(d)
            sequential.extend(s)
        J = len(self.instances)
        tail = PrivacyClaim(
            (self.epsilon / 2.0) * 2.0**-J,
            self.delta * 2.0**-J,
            "replace-one",
            "histograms of the instances not yet started (schedule tail)",
        )
        return compose_claims(
            disjoint, sequential + [tail], self.instances[0].privacy().relation, "basic composition, restarts"
        )

    @abstractmethod
    def _mechanisms(self, inst: Any) -> tuple[list, list]:
        """(mechanisms run on disjoint stream segments, mechanisms composed sequentially) of one instance."""

    def _public_state(self) -> dict[str, Any]:
        """The current instance's public state, the round, and the restarts (decided by released outputs)."""
        out = self.current._public_state()
        out.update(t=self.t, instances=len(self.instances), restarts=self.restarts, setting=self.setting)
        return out

    def _diagnostic_state(self) -> dict[str, Any]:
        """The current instance's exact counts (its own ``diagnostics`` is this learner's)."""
        return self.current._diagnostic_state()


class AnytimeLWY25(_Restarting):
    """LWY25 (Alg. 2) restarted whenever an instance halts (module docstring); parameters as
    :class:`~littlestone.private_online.LWY25`. ``setting`` is the first instance's (instance j has N₀·4^{j−1}
    sequences, at most :data:`~littlestone.private_online.lwy25.MAX_N0`). Extension beyond LWY25: Thm 3.1's bound
    is not claimed for it; privacy is (ε, δ) against adaptive adversaries as for LWY25.

    >>> from littlestone import Thresholds
    >>> learner = AnytimeLWY25(Thresholds(2), T=100, epsilon=1.0, delta=1e-6, backend="seeded", seed=0)
    >>> learner.learn_one(1, 1); learner.restarts
    0
    """

    paper = LWY25
    stop_flag = "halted"

    def _instance_setting(self, j: int) -> LWY25Setting:
        s0 = self.instances[0].setting_
        n0 = s0.N0
        while n0 * 4 <= MAX_N0 and j > 1:
            n0, j = n0 * 4, j - 1
        return LWY25Setting(n0, s0.m_coef, s0.m_exp, f"{s0.name}-restart")

    def _mechanisms(self, inst: Any) -> tuple[list, list]:
        return list(inst.at_mechanisms), list(inst.histogram_mechanisms)

    def _run01(self, X: Any, y: np.ndarray) -> np.ndarray:
        n = len(y)
        preds = np.empty(n, dtype=np.int8)
        pos = 0
        while pos < n:
            inst = self.current
            p, m = inst._run_until_halt(X[pos:], y[pos:])
            preds[pos : pos + m] = p[:m]
            pos += m
            self.t += m
            if pos < n:  # the instance halted before round pos: the next one takes over (run keeps t + n ≤ T)
                self._start_instance(self.T - self.t)
        return preds


class AnytimeGL21(_Restarting):
    """GL21 DP-SOA restarted whenever HistSparse aborts (after its c-th histogram; module docstring); parameters as
    :class:`~littlestone.private_online.GL21`. Instance j has k₂·4^{j−1} trees (at most the allocation limit).
    Extension beyond GL21: Thm 4.1's bound is not claimed for it; privacy is GL21's (oblivious streams)."""

    paper = GL21
    stop_flag = "aborted"

    def _instance_setting(self, j: int) -> GL21Setting:
        s0 = self.instances[0].setting_
        k2 = s0.k2
        while k2 * 4 * s0.k1 <= MAX_FOREST and j > 1:
            k2, j = k2 * 4, j - 1
        return GL21Setting(s0.k1, k2, s0.eta, s0.c, f"{s0.name}-restart")

    def _mechanisms(self, inst: Any) -> tuple[list, list]:
        return [inst._svt.mechanism], [inst.histogram_mechanism] * inst.setting_.c


__all__ = ["AnytimeGL21", "AnytimeLWY25"]
