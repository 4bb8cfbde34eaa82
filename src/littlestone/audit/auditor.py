"""Black-box privacy auditor: select a distinguishing event on one batch, certify it on a fresh batch (Clopper–Pearson)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Sequence

import numpy as np

from ..errors import LittlestoneError, PrivacyParameterError
from ..parallel import map_ordered
from . import clopper_pearson as cp
from .events import Event, Features, candidate_events, classify, log_ratio_bound, merge

#: Runs per parallel task; fixed so that results do not depend on the number of workers.
CHUNK_SIZE = 2048

Mechanism = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class AuditReport:
    """Result of one audit: ε_lb (and δ_lb at the claimed ε) hold simultaneously with probability ≥ ``confidence``."""

    epsilon_lb: float
    delta_lb: float
    event: str
    p_hat: float
    q_hat: float
    runs: int
    selection_runs: int
    confidence: float
    delta: float
    p_lb: float
    q_ub: float
    direction: str
    candidates: int
    seconds: float
    seed: int | None
    randomness: str
    claimed_epsilon: float | None = None
    claimed_delta: float | None = None
    name: str = "mechanism"
    notes: str = ""
    details: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def passed(self) -> bool | None:
        """True iff the audit found no violation of the claimed ε (None when no claim was given)."""
        if self.claimed_epsilon is None:
            return None
        return self.epsilon_lb <= self.claimed_epsilon + 1e-12

    @property
    def total_runs(self) -> int:
        """Mechanism executions in both phases, on both datasets."""
        return 2 * (self.runs + self.selection_runs)

    @property
    def throughput(self) -> float:
        """Mechanism runs per second (wall clock, both phases)."""
        return self.total_runs / self.seconds if self.seconds > 0 else math.inf

    def as_rows(self) -> list[tuple[str, str]]:
        """(quantity, value) rows for a CLI / Markdown table."""
        first, second = ("D", "D'") if self.direction.startswith("P[E|D]") else ("D'", "D")
        rows = [
            ("mechanism", self.name),
            ("event", self.event),
            ("direction", self.direction),
            (f"P[E|{first}] estimate", f"{self.p_hat:.6g}"),
            (f"P[E|{second}] estimate", f"{self.q_hat:.6g}"),
            (f"P[E|{first}] lower bound", f"{self.p_lb:.6g}"),
            (f"P[E|{second}] upper bound", f"{self.q_ub:.6g}"),
            ("assumed delta", f"{self.delta:.6g}"),
            ("epsilon lower bound", f"{self.epsilon_lb:.6g}"),
        ]
        if self.claimed_epsilon is not None:
            rows.append(("claimed epsilon", f"{self.claimed_epsilon:.6g}"))
            rows.append((f"delta lower bound at eps={self.claimed_epsilon:.4g}", f"{self.delta_lb:.6g}"))
            rows.append(("verdict", "PASS" if self.passed else "VIOLATION"))
        else:
            rows.append(("delta lower bound at eps=0 (TV)", f"{self.delta_lb:.6g}"))
        rows += [
            ("confidence", f"{self.confidence:.10g}"),
            ("runs per dataset (selection + estimation)", f"{self.selection_runs} + {self.runs}"),
            ("randomness", self.randomness),
            ("seed", str(self.seed)),
            ("time (s)", f"{self.seconds:.3f}"),
            ("throughput (runs/s)", f"{self.throughput:,.0f}"),
        ]
        if self.notes:
            rows.append(("notes", self.notes))
        return rows

    def __str__(self) -> str:
        width = max(len(k) for k, _ in self.as_rows())
        return "\n".join(f"{k:<{width}}  {v}" for k, v in self.as_rows())


def _make_randomness(kind: str | Callable[[np.random.SeedSequence], Any], seq: np.random.SeedSequence) -> Any:
    if callable(kind):
        return kind(seq)
    if kind == "generator":
        return np.random.default_rng(seq)
    from ..privacy import make_backend  # the privacy package is optional for generic audits

    if kind == "seeded":
        return make_backend("seeded", seed=seq)
    if kind == "secure":
        return make_backend("secure")
    raise LittlestoneError(f"randomness must be 'generator', 'seeded', 'secure' or a callable, not {kind!r}")


def _run_chunk(
    mechanism: Mechanism,
    dataset: Any,
    seq: np.random.SeedSequence,
    count: int,
    randomness: Any,
    featurize: Callable[[Any], Any] | None,
    vectorized: bool,
) -> Features:
    """count runs of the mechanism with one randomness source built from seq; returns their features."""
    source = _make_randomness(randomness, seq)
    if vectorized:
        outputs = mechanism(dataset, source, count)
        if len(outputs) != count:
            raise LittlestoneError(f"a vectorized mechanism must return {count} outputs, got {len(outputs)}")
    else:
        outputs = [mechanism(dataset, source) for _ in range(count)]
    if featurize is not None:
        outputs = [featurize(o) for o in outputs]
    return classify(outputs)


def _call_mechanism(mechanism: Any, dataset: Any, backend: Any, size: int | None = None) -> Any:
    """Run a littlestone.privacy Mechanism object with the audit's backend (``size`` runs at once when vectorized)."""
    if size is None:
        return mechanism(dataset, backend=backend)
    return mechanism(dataset, backend=backend, size=size)


def _run_task(
    mechanism: Mechanism,
    datasets: tuple[Any, Any],
    randomness: Any,
    featurize: Callable[[Any], Any] | None,
    vectorized: bool,
    task: tuple[int, np.random.SeedSequence, int],
) -> Features:
    """One task of the audit plan: batches 0 and 2 run on D, batches 1 and 3 on D′."""
    batch, seq, count = task
    return _run_chunk(mechanism, datasets[batch % 2], seq, count, randomness, featurize, vectorized)


def _check_int(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise LittlestoneError(f"{name} must be an integer ≥ {minimum}, got {value!r}")
    return int(value)


def _chunks(total: int, size: int) -> list[int]:
    return [min(size, total - start) for start in range(0, total, size)]


def _root_seed(seed: Any) -> tuple[np.random.SeedSequence, int | None]:
    if isinstance(seed, np.random.SeedSequence):
        return seed, seed.entropy if isinstance(seed.entropy, int) else None
    if isinstance(seed, np.random.Generator):
        value = int(seed.integers(0, 2**63 - 1))
        return np.random.SeedSequence(value), value
    if seed is None:
        ss = np.random.SeedSequence()
        return ss, int(ss.entropy)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0:
        return np.random.SeedSequence(int(seed)), int(seed)
    raise LittlestoneError(f"seed must be a non-negative int, a SeedSequence, a Generator or None, not {seed!r}")


def audit_mechanism(
    mechanism: Mechanism,
    D: Any,
    D_prime: Any,
    *,
    runs: int = 20_000,
    seed: Any = None,
    jobs: int = 1,
    confidence: float = 1 - 1e-6,
    delta: float = 0.0,
    events: Sequence[Any] | None = None,
    featurize: Callable[[Any], Any] | None = None,
    claimed_epsilon: float | None = None,
    claimed_delta: float | None = None,
    selection_runs: int | None = None,
    randomness: str | Callable[[np.random.SeedSequence], Any] = "generator",
    vectorized: bool = False,
    chunk_size: int = CHUNK_SIZE,
    name: str | None = None,
) -> AuditReport:
    """Empirical lower bound on the ε (given δ) of ``mechanism`` from neighbours D, D′ (one-sided Clopper–Pearson;
    ``mechanism`` may be a :class:`littlestone.privacy.Mechanism`: its claim is read from it (δ = the claimed δ),
    it runs as ``mechanism(dataset, backend=...)`` on the seeded backend unless ``randomness`` says otherwise, and a
    broken twin is a subclass that overrides ``__call__`` and keeps the claim;
    event selection on a separate batch as in Ding et al. 2018 "Detecting violations of DP", Jagielski et al. 2020).

    ``mechanism(dataset, source)`` returns one output, where ``source`` is a numpy Generator (``randomness=
    "generator"``), a littlestone.privacy backend (``"seeded"``/``"secure"``) or ``randomness(SeedSequence)``;
    with ``vectorized=True`` it is called as ``mechanism(dataset, source, n)`` (a Mechanism object as
    ``mechanism(dataset, backend=source, size=n)``) and returns n outputs.
    Phase 1 runs ``selection_runs`` (default runs // 4) times on each dataset and picks the event E and direction
    maximizing the certified loss; phase 2 runs ``runs`` fresh times on each and reports
    ε_lb = max(0, ln((p_lb − δ)/q_ub)), with p_lb, q_ub one-sided Clopper–Pearson bounds at (1 − confidence)/2 each,
    and δ_lb = max(0, p_lb − e^ε q_ub) at ε = claimed_epsilon (ε = 0 if none).
    The same seed gives the same report for any ``jobs`` (chunks are seeded by SeedSequence.spawn).
    """
    from ..privacy.mechanism import Mechanism as _MechanismObject

    if isinstance(mechanism, _MechanismObject):
        # a Mechanism object carries its claim: audit against it (fixed for the backend it runs on: a histogram's
        # exact δ depends on the noise) unless the caller states another one
        if randomness == "generator":
            randomness = "seeded"
        if randomness in ("seeded", "secure"):
            mechanism = mechanism.resolve(randomness == "secure")
        claim = mechanism.privacy()
        if claimed_epsilon is None:
            claimed_epsilon, claimed_delta = claim.epsilon, claim.delta if claimed_delta is None else claimed_delta
            delta = claim.delta if delta == 0.0 else delta
        name = name or f"{type(mechanism).__name__} ({claim})"
        mechanism = partial(_call_mechanism, mechanism)
    if not callable(mechanism):
        raise LittlestoneError("mechanism must be a callable mechanism(dataset, randomness_source)")
    runs = _check_int("runs", runs, 1)
    selection_runs = max(100, runs // 4) if selection_runs is None else _check_int("selection_runs", selection_runs, 1)
    chunk_size = _check_int("chunk_size", chunk_size, 1)
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs == 0 or jobs < -1:
        raise LittlestoneError(f"jobs must be a positive integer or -1 (all cores), got {jobs!r}")
    if not (isinstance(confidence, (float, int)) and 0.0 < confidence < 1.0):
        raise LittlestoneError(f"confidence must lie strictly between 0 and 1, got {confidence!r}")
    if not (isinstance(delta, (float, int)) and 0.0 <= delta < 1.0) or math.isnan(delta):
        raise PrivacyParameterError(f"delta must satisfy 0 ≤ delta < 1, got {delta!r}")
    if claimed_epsilon is not None and not (claimed_epsilon >= 0 and math.isfinite(claimed_epsilon)):
        raise PrivacyParameterError(f"claimed_epsilon must be a finite number ≥ 0, got {claimed_epsilon!r}")
    if claimed_delta is None:
        claimed_delta = delta if claimed_epsilon is not None else None
    alpha = (1.0 - confidence) / 2.0  # Bonferroni: one half for p's lower bound, one half for q's upper bound

    root, seed_value = _root_seed(seed)
    batches = root.spawn(4)  # selection on D, selection on D', estimation on D, estimation on D'
    plan = [(0, D, selection_runs), (1, D_prime, selection_runs), (2, D, runs), (3, D_prime, runs)]
    tasks = []  # (batch, seed, runs): the seeds fix the outcome whatever runs the tasks
    for batch, _, total in plan:
        sizes = _chunks(total, chunk_size)
        tasks.extend((batch, seq, count) for seq, count in zip(batches[batch].spawn(len(sizes)), sizes))
    start = time.perf_counter()
    results = map_ordered(
        partial(_run_task, mechanism, (D, D_prime), randomness, featurize, vectorized),
        tasks,
        n_jobs=int(jobs),
        progress="audit runs",
    )
    seconds = time.perf_counter() - start
    per_batch: list[list[Features]] = [[], [], [], []]
    for (batch, _, _), feats in zip(tasks, results):
        per_batch[batch].append(feats)
    sel_d, sel_dp, est_d, est_dp = (merge(b) for b in per_batch)

    # Phase 1: choose (event, direction) maximizing the certified loss on the selection batch.
    cands = candidate_events(sel_d, sel_dp, events)
    best_score, best = -math.inf, None
    for direction, (ka, kb, na, nb) in enumerate(
        [
            (cands.count_a, cands.count_b, len(sel_d), len(sel_dp)),
            (cands.count_b, cands.count_a, len(sel_dp), len(sel_d)),
        ]
    ):
        score = log_ratio_bound(cp.lower_bound(ka, na, alpha), cp.upper_bound(kb, nb, alpha), delta)
        score = np.maximum(score, 0.0)  # a certified loss ≤ 0 is worthless whatever its value
        # tie-break (e.g. nothing certifies a positive loss): the largest gap between the empirical frequencies
        gap = ka / na - kb / nb
        order = np.lexsort((-gap, -score))
        i = int(order[0])
        key = (score[i], gap[i])
        if best is None or key > best_score:
            best_score, best = key, (direction, i)
    assert best is not None
    direction, index = best
    event: Event = cands.build(index)

    # Phase 2: fresh runs, one event, one direction.
    first, second = (est_d, est_dp) if direction == 0 else (est_dp, est_d)
    k_first = int(event.indicator(first).sum())
    k_second = int(event.indicator(second).sum())
    p_lb = float(cp.lower_bound(k_first, len(first), alpha))
    q_ub = float(cp.upper_bound(k_second, len(second), alpha))
    eps_lb = float(max(0.0, log_ratio_bound(p_lb, q_ub, delta)))
    eps_for_delta = 0.0 if claimed_epsilon is None else float(claimed_epsilon)
    delta_lb = float(max(0.0, p_lb - math.exp(eps_for_delta) * q_ub))
    return AuditReport(
        epsilon_lb=eps_lb,
        delta_lb=delta_lb,
        event=event.description,
        p_hat=k_first / len(first),
        q_hat=k_second / len(second),
        runs=runs,
        selection_runs=selection_runs,
        confidence=float(confidence),
        delta=float(delta),
        p_lb=p_lb,
        q_ub=q_ub,
        direction="P[E|D] vs P[E|D']" if direction == 0 else "P[E|D'] vs P[E|D]",
        candidates=2 * len(cands.count_a),
        seconds=seconds,
        seed=seed_value,
        randomness=randomness if isinstance(randomness, str) else getattr(randomness, "__name__", "custom"),
        claimed_epsilon=None if claimed_epsilon is None else float(claimed_epsilon),
        claimed_delta=None if claimed_delta is None else float(claimed_delta),
        name=name or getattr(mechanism, "__name__", type(mechanism).__name__),
        notes="OpenDP samplers are unseeded: this report is not reproducible" if randomness == "secure" else "",
        details={"event": event, "selection_score": float(best_score[0])},
    )
