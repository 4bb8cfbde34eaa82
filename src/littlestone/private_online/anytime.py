"""Anytime variants of LWY25 and GL21: a fresh instance takes over whenever the current one stops for good (an
extension beyond the papers; the papers' algorithms stay available as :class:`~littlestone.private_online.LWY25` and
:class:`~littlestone.private_online.GL21`).

Why: at practical (non-theorem) sizes an LWY25 instance can exhaust its last list L_d and halt (Alg. 2 line 6), and
GL21's HistSparse aborts after its c histograms; both then release one hypothesis forever, wrong on every round an
adaptive adversary picks if it is wrong at all.

* Instance 1 is the paper's learner itself — same setting, same budget, same seed (a run with ``seed=s`` releases
  exactly what ``LWY25(…, seed=s)`` / ``GL21(…, seed=s)`` releases until that one stops).
* Instance j ≥ 2 starts from scratch at the round after instance j − 1 stopped, on the rounds left: a new base learner,
  empty sequences (LWY25) or an empty forest (GL21), fresh randomness, size N₀·2^{j−1} sequences (LWY25) or
  k₂·2^{j−1} trees (GL21), capped at the allocation limit — and from there on restarts keep that size.
* Every instance runs at the paper's full budget (ε, δ). The instances run on disjoint segments of the stream whose
  ends are released outputs (the AboveThreshold ⊤ and the histogram that empty L_d; the c-th SparseVector ⊤) and
  each reads only its own segment's rounds, so they compose in parallel (ALGORITHMS.md F.1): one changed round is
  read by one instance. With δ > 0 this needs more than F.1's pure-DP argument — it holds because every δ-part of an
  instance is a one-shot histogram call (docs/derivations.md, "Disjoint segments in parallel", with a counterexample
  for interactive δ-parts).
* GL21 only: when an instance aborts, its last released hypothesis stays (as in GL21) and a guard — an AboveThreshold
  (ε, threshold α + 1 with α = 8(ln T' + ln(6T'/β))/ε its accuracy margin on the T' rounds left, failure β/(3T'))
  on that hypothesis's running mistake count over the rounds after the abort — starts the next instance at its ⊤:
  w.p. ≥ 1 − β/(3T') not before the kept hypothesis has erred, and after at most 2α + 1 of its mistakes. (An
  aborted GL21 instance often releases the target: restarting at once threw it away, ≈ 5.5·10⁴ mistakes where GL21
  made ≈ 9.5·10³ at d = 1.) The guard's rounds are a segment of their own. LWY25 needs no guard: it halts right
  after an AboveThreshold rejected the hypothesis it keeps releasing.

:meth:`privacy` is the parallel composition (:func:`littlestone.privacy.composition.parallel_over_segments`) of the
instances' own claims — the paper's — and the guards': (ε, δ of one instance) whatever the number of restarts.
Derivation: docs/derivations.md, "Anytime restarts".
"""

from __future__ import annotations

import copy
from abc import abstractmethod
from typing import Any

import numpy as np

from .._random import SeedLike
from ..bounds.lwy25 import at_margin
from ..classes.base import Hypothesis, HypothesisClass, Point, VersionSpace
from ..errors import LittlestoneError
from ..privacy.above_threshold import AboveThreshold, AboveThresholdRun
from ..privacy.backends import SecureBackend, SeededBackend
from ..privacy.composition import parallel_over_segments
from .base import BaseLearner, LearnerPrivacy, PrivateOnlineLearner
from .gl21 import GL21, MAX_FOREST, GL21Setting
from .lwy25 import LWY25, MAX_N0, LWY25Setting

#: size of instance j = first size · GROWTH^{j−1}, up to the allocation limit
GROWTH = 2


def _child_seeds(backend: Any, seed: SeedLike) -> tuple[str, Any]:
    """(backend for the instances, the SeedSequence the paper's learner would use for ``seed`` — instance 1 gets it,
    later instances and guards its next children; None on the secure backend)."""
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


class _Guard:
    """GL21's abort guard (module docstring): the last released hypothesis h with an AboveThreshold on its running
    mistake count over the guard's own rounds."""

    def __init__(self, h: Hypothesis, threshold: float, epsilon: float, backend: Any):
        self.h = h
        self.count = 0
        self.at = AboveThreshold(threshold, epsilon, sensitivity=1.0, backend=backend, threshold_batch=1)

    def step(self, x: Point, y: int) -> bool:
        """One round; True at the AboveThreshold's ⊤ (the next instance takes over)."""
        self.count += int(self.h(x) != y)
        return bool(self.at.test(self.count))


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
        self.guards: list[_Guard] = []
        self._guard: _Guard | None = None
        self._first_setting = setting
        self._start_instance()
        self.base = self.current.base
        self.d = self.current.d
        # restarted instances get copies of the first instance's base learner taken now, before any round was read
        # (a base learner may keep what it computed on its segment's sequences, e.g. the SOA's output cache)
        self._base_template = copy.deepcopy(self.base)

    # --------------------------------------------------------------------------------------------- instances
    @abstractmethod
    def _instance_setting(self, j: int) -> Any:
        """The setting of instance j ≥ 2: the first instance's, GROWTH^{j−1} times larger (module docstring)."""

    def _fresh_base(self) -> BaseLearner:
        """A base learner that has read no round: a copy of the first instance's, taken before its first round."""
        return copy.deepcopy(self._base_template)

    def _next_seed(self) -> Any:
        return None if self._seeds is None else self._seeds.spawn(1)[0]

    def _start_instance(self, horizon: int | None = None) -> None:
        """Instance j on the ``horizon`` rounds left (all T for the first, which is the paper's learner itself)."""
        j = len(self.instances) + 1
        first = j == 1
        inst = self.paper(
            self.initial_version_space,
            T=self.T if first else horizon,
            epsilon=self.epsilon,
            delta=self.delta,
            beta=self.beta,
            setting=self._first_setting if first else self._instance_setting(j),
            base=self._base_arg if first else self._fresh_base(),
            backend=self._backend,
            seed=self._seeds if first else self._next_seed(),
            labels=self.labels,
            diagnostics=self.diagnostics,
        )
        self.instances.append(inst)
        self.current = inst

    def _on_stop(self, left: int) -> None:
        """The current instance stopped with ``left`` ≥ 1 rounds to go: the next instance takes over."""
        self._start_instance(left)

    @property
    def restarts(self) -> int:
        return len(self.instances) - 1

    def _stopped(self) -> bool:
        return bool(getattr(self.current, self.stop_flag))

    # --------------------------------------------------------------------------------------------- protocol
    def _released(self) -> Hypothesis:
        return self._guard.h if self._guard is not None else self.current._released()

    def _learn01(self, x: Point, y: int) -> None:
        left = self.T - self.t - 1  # rounds after this one
        if self._guard is not None:
            if self._guard.step(x, y) and left >= 1:
                self._guard = None
                self._start_instance(left)
            return
        self.current._learn01(x, y)
        self.current.t += 1
        if self._stopped() and left >= 1:
            self._on_stop(left)

    @property
    def setting(self) -> str:
        return (
            f"anytime restarts of {self.instances[0].setting} (size ×{GROWTH} per restart up to the allocation "
            "limit; every instance at the paper's full budget, in parallel over segments)"
        )

    def privacy(self) -> LearnerPrivacy:
        """The instances' own claims (the paper's, composed from the mechanism objects each runs) and the guards',
        composed in parallel over the disjoint segments they read (:func:`parallel_over_segments`; conditions checked
        in docs/derivations.md, "Anytime restarts"). An instance not yet started has the first one's claim (neither
        its size nor its horizon moves an ε or a δ), so the claim does not change with the restarts."""
        first = self.instances[0].privacy()
        claims = [inst.privacy() for inst in self.instances]
        parts = list(first.parts)
        guard = self._guard_claim()
        if guard is not None:
            claims.append(guard)
            parts += list(guard.parts)
        eps, delta = parallel_over_segments([(c.epsilon, c.delta) for c in claims])
        note = (
            f"in parallel over restart segments: each instance ({len(self.instances)} so far) runs the parts below "
            f"at the paper's budget ({first.composition})"
            + ("; each abort guard its own AboveThreshold" if guard is not None else "")
        )
        return LearnerPrivacy(eps, delta, first.relation, tuple(parts), note)

    def _guard_claim(self) -> LearnerPrivacy | None:
        """The claim of one abort guard (GL21), None for learners without guards."""
        return None

    def _public_state(self) -> dict[str, Any]:
        """The current instance's public state, the round, the restarts and the guard (decided by released
        outputs)."""
        out = self.current._public_state()
        out.update(
            t=self.t,
            instances=len(self.instances),
            restarts=self.restarts,
            guarding=self._guard is not None,
            setting=self.setting,
        )
        return out

    def _diagnostic_state(self) -> dict[str, Any]:
        """The current instance's exact counts (its own ``diagnostics`` is this learner's)."""
        return self.current._diagnostic_state()


class AnytimeLWY25(_Restarting):
    """LWY25 (Alg. 2) with a fresh instance whenever one halts (module docstring); parameters as
    :class:`~littlestone.private_online.LWY25`. ``setting`` is the first instance's (instance j has N₀·2^{j−1}
    sequences, at most :data:`~littlestone.private_online.lwy25.MAX_N0`). Extension beyond LWY25: Thm 3.1's bound
    is not claimed for it; privacy is LWY25's (ε, δ) against adaptive adversaries.

    >>> from littlestone import Thresholds
    >>> learner = AnytimeLWY25(Thresholds(2), T=100, epsilon=1.0, delta=1e-6, backend="seeded", seed=0)
    >>> learner.learn_one(1, 1); learner.restarts
    0
    """

    agnostic = False  # realizable streams only: no regret guarantee on noisy streams

    paper = LWY25
    stop_flag = "halted"

    def _instance_setting(self, j: int) -> LWY25Setting:
        s0 = self.instances[0].setting_
        n0 = s0.N0
        while n0 * GROWTH <= MAX_N0 and j > 1:
            n0, j = n0 * GROWTH, j - 1
        return LWY25Setting(n0, s0.m_coef, s0.m_exp, f"{s0.name}-restart")

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
    """GL21 DP-SOA with a fresh instance after an abort (HistSparse's c-th histogram) once the last released
    hypothesis has erred — an AboveThreshold guard decides (module docstring); parameters as
    :class:`~littlestone.private_online.GL21`. Instance j has k₂·2^{j−1} trees (at most the allocation limit).
    Extension beyond GL21: Thm 4.1's bound is not claimed for it; privacy is GL21's (oblivious streams)."""

    agnostic = False  # realizable streams only: no regret guarantee on noisy streams

    paper = GL21
    stop_flag = "aborted"

    def _instance_setting(self, j: int) -> GL21Setting:
        s0 = self.instances[0].setting_
        k2 = s0.k2
        while k2 * GROWTH * s0.k1 <= MAX_FOREST and j > 1:
            k2, j = k2 * GROWTH, j - 1
        return GL21Setting(s0.k1, k2, s0.eta, s0.c, f"{s0.name}-restart")

    def _on_stop(self, left: int) -> None:
        """The aborted instance's last hypothesis stays, watched by a guard on the ``left`` rounds to go."""
        seed = self._next_seed()
        backend = SecureBackend() if seed is None else SeededBackend(seed)
        threshold = at_margin(left, self.beta, self.epsilon) + 1.0
        self._guard = _Guard(self.current._released(), threshold, self.epsilon, backend)
        self.guards.append(self._guard)

    def _guard_claim(self) -> LearnerPrivacy:
        """An abort guard: one AboveThreshold run (ε, pure) on its own segment (its threshold moves no ε)."""
        at = AboveThresholdRun(at_margin(self.T, self.beta, self.epsilon), self.epsilon).privacy()
        what = "abort guard (AboveThreshold on the kept hypothesis's mistakes)"
        relation = self.instances[0].privacy().relation
        return LearnerPrivacy(at.epsilon, at.delta, relation, ((what, at.epsilon, at.delta, 1),), "one run")


__all__ = ["GROWTH", "AnytimeGL21", "AnytimeLWY25"]
