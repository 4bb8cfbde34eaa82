"""The Bun–Livni–Moran private learner M (BLM20 Theorem 17 with G of Theorem 10 ⇒ Theorem 1).

M: k disjoint batches of m examples → G on each (independent seeds, joblib) → stable histogram of the k outputs with
(ε/2, δ) → keep hypotheses with estimate ≥ 3η/4 (Fail is counted like any item, then dropped: never a candidate) →
exponential mechanism with ε/2, score −#errors (sensitivity 1), on n′ fresh examples. If no candidate survives, the
output is the class's SOA classifier (a fixed, data-independent hypothesis).

Privacy holds for every parameter setting: one changed example lies in at most one batch (or in the fresh sample),
G's coins do not depend on the data, so at most one histogram item changes (replace-one, (ε/2, δ)); the generic
stage is ε/2-DP on disjoint data; the rest is post-processing. Basic composition: (ε, δ).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._random import SeedLike, as_generator
from ..bounds.blm20 import aux_size as theory_aux_size
from ..bounds.blm20 import sample_cap, stability, theorem17
from ..classes.base import Hypothesis, HypothesisClass
from ..errors import InsufficientSampleError, LittlestoneError, PrivacyParameterError
from ..privacy import (
    ExponentialMechanism,
    PrivacyBudget,
    PrivacyClaim,
    StableHistogram,
    compose,
    make_backend,
)
from ..privacy.accountant import charge_fit
from ..privacy.backends import Backend
from ..privacy.budget import Charge
from ..privacy.partition import DataSplit, Part
from ..validation import check_delta, check_epsilon
from .result import PrivateFitResult
from .global_stable import GlobalStableLearner, GRun, run_batches
from .sources import ExampleSource
from .tournament import FAIL


@dataclass(frozen=True)
class BLM20Sizes:
    """The stage sizes M uses: k batches of m = N + n for G, n′ fresh examples for the generic learner."""

    d: int
    n_batches: int
    aux_size: int
    cap: int
    n_generic: int
    eta: float
    theory: bool

    @property
    def batch_size(self) -> int:
        return self.cap + self.aux_size

    @property
    def total(self) -> int:
        return self.n_batches * self.batch_size + self.n_generic


def blm20_privacy(epsilon: float, delta: float, *, discrete: bool | None = None) -> PrivacyClaim:
    """M's claim, composed from its parts (BLM20 Thm 17): the stable histogram with (ε/2, δ) on G's outputs (one
    changed example changes at most one batch, so one item) and the exponential mechanism with ε/2 on the fresh
    examples, by basic composition. ``discrete`` = the backend's noise (True on the secure backend; None: the larger
    δ of the two). The claim holds whether or not the run falls back to the SOA (a fallback only spends less)."""
    return compose(blm20_mechanisms(epsilon, delta, discrete=discrete), what=BLM20_CLAIM)


BLM20_CLAIM = "BLM20 M (stable histogram + exponential mechanism)"
HIST = "stable histogram over G's outputs"
SELECT = "generic learner (exponential mechanism) on the fresh examples"


def blm20_mechanisms(
    epsilon: float, delta: float, *, discrete: bool | None = None
) -> tuple[StableHistogram, ExponentialMechanism]:
    """The two noise-drawing mechanisms M constructs and runs (BLM20 Thm 17): the stable histogram (ε/2, δ) and the
    exponential mechanism (ε/2, Δ = 1)."""
    return StableHistogram(epsilon / 2.0, delta, discrete=discrete), ExponentialMechanism(epsilon / 2.0, 1.0)


def blm20_split(sizes: BLM20Sizes, n_records: int, source: Any = None) -> tuple[DataSplit, list[Part], Part]:
    """M's data use, declared once: k consecutive disjoint batches of m records, each one user of the stable histogram
    (G's output on it is one item), then n′ fresh records for the generic learner. Sizes only: no data read; with
    ``source`` the split is bound to it (each step then reads its part through :meth:`DataSplit.reader`)."""
    split = DataSplit(n_records, "BLM20's sample", source=source)
    batches = split.blocks(sizes.n_batches, sizes.batch_size, "batch")
    split.users(HIST, batches)
    fresh = split.feed(split.block(sizes.n_generic, "fresh"), SELECT)
    return split, batches, fresh


@dataclass(frozen=True)
class BLM20Result(PrivateFitResult):
    """What a fit of M claims, used and released.

    ``spent`` is M's privacy claim (:func:`blm20_privacy`, the same whether or not the run falls back), ``ledger``
    its parts. Everything here is differentially private (post-processing of the released histogram and choice)
    except the ``diagnostics`` (G's raw output counts, exact Fail rate, examples read), filled only when asked for
    and never saved in model JSON. No timings (they depend on the data).
    """

    epsilon: float
    delta: float
    spent: tuple[float, float]
    claim: PrivacyClaim
    ledger: tuple
    backend: str
    sizes: BLM20Sizes
    examples_given: int
    examples_g: int
    examples_generic: int
    examples_unused: int
    released: tuple[tuple[Any, float], ...]
    fail_estimate: float
    candidates: tuple[tuple[Hypothesis, float], ...]
    chosen: Hypothesis
    fallback: bool
    diagnostics: dict | None = field(default=None)

    def stage_sizes(self) -> dict[str, int]:
        return {"G batches": self.examples_g, "generic learner": self.examples_generic, "unused": self.examples_unused}

    @property
    def fail_rate(self) -> float | None:
        """Exact fraction of G runs that failed (diagnostics only; else None)."""
        return None if self.diagnostics is None else self.diagnostics["fail_rate"]

    def summary(self) -> str:
        s = self.sizes
        lines = [
            f"BLM20 M: d={s.d}, k={s.n_batches} batches of m={s.batch_size:,} (n={s.aux_size}, N={s.cap:,}), "
            f"n′={s.n_generic:,} ({'theory sizes' if s.theory else 'user sizes'})",
            f"  {self.claim_line()} for requested ({self.epsilon:g}, {self.delta:g}); backend {self.backend}",
            f"  examples: given {self.examples_given:,}, G batches {self.examples_g:,}, generic {self.examples_generic:,},"
            f" unused {self.examples_unused:,}",
            f"  released {len(self.released)} histogram items; {len(self.candidates)} candidates ≥ 3η/4; chosen "
            f"{self.chosen!r}{' (fallback: SOA of the class)' if self.fallback else ''}",
        ]
        if self.diagnostics is not None:
            dg = self.diagnostics
            lines.append(
                f"  [non-private diagnostics] Fail rate {dg['fail_rate']:.3f}, G read "
                f"{dg['examples_read_by_g']:,} examples, top G outputs {dg['g_histogram'][:3]}"
            )
        return "\n".join(lines)


def _check_privacy(epsilon: float, delta: float) -> tuple[float, float]:
    eps = check_epsilon(epsilon, error=PrivacyParameterError)
    dlt = check_delta(delta, error=PrivacyParameterError)
    if dlt == 0.0:
        raise PrivacyParameterError(
            "the BLM20 learner needs δ > 0 (its stable histogram is (ε/2, δ)-DP); "
            "use the pure-DP generic learner for δ = 0"
        )
    return eps, dlt


def plan_sizes(
    d: int,
    *,
    epsilon: float,
    delta: float,
    alpha: float,
    beta: float,
    n_batches: int | None = None,
    aux_size: int | None = None,
    cap: int | None = None,
    n_generic: int | None = None,
    eta: float | None = None,
) -> BLM20Sizes:
    """Stage sizes: Theorem 1's (G at α/2, Theorem 17) unless overridden (BLM20 §VI)."""
    n = theory_aux_size(d, alpha / 2.0) if aux_size is None else int(aux_size)
    N = sample_cap(d, n) if cap is None else int(cap)
    eta_ = stability(d) if eta is None else float(eta)
    rep = theorem17(d, alpha, epsilon, delta, beta, m=N + n, eta=eta_)
    k = rep["k"] if n_batches is None else int(n_batches)
    n2 = rep["n_generic"] if n_generic is None else int(n_generic)
    if k < 1 or n < 1 or N < 0 or n2 < 1:
        raise LittlestoneError(f"sizes must be positive: n_batches={k}, aux_size={n}, cap={N}, n_generic={n2}")
    theory = all(v is None for v in (n_batches, aux_size, cap, n_generic, eta))
    return BLM20Sizes(int(d), k, n, N, n2, eta_, theory)


def resolve_backend(backend: Any, rng: np.random.Generator) -> Backend:
    """'secure' (OpenDP), 'seeded' (NumPy, seeded from rng: reproducible, not FP-safe) or a Backend object."""
    if isinstance(backend, Backend):
        return backend
    if backend == "secure":
        return make_backend("secure")
    if backend == "seeded":
        return make_backend("seeded", seed=int(rng.integers(0, 2**63 - 1)))
    raise PrivacyParameterError(f"backend must be 'secure', 'seeded' or a littlestone.privacy Backend, not {backend!r}")


def backend_is_discrete(backend: Any) -> bool | None:
    """Whether a backend parameter draws the secure backend's exact discrete noise (what ``discrete=`` of the claims
    means): 'secure' → True, 'seeded' → False, a Backend object → its ``floating_point_safe``."""
    if isinstance(backend, Backend):
        return bool(backend.floating_point_safe)
    if backend in ("secure", "seeded"):
        return backend == "secure"
    raise PrivacyParameterError(f"backend must be 'secure', 'seeded' or a littlestone.privacy Backend, not {backend!r}")


def blm20_sizes(
    hclass: HypothesisClass,
    given: int,
    *,
    epsilon: float,
    delta: float,
    alpha: float,
    beta: float,
    d: int | None = None,
    n_batches: int | None = None,
    aux_size: int | None = None,
    cap: int | None = None,
    n_generic: int | None = None,
    eta: float | None = None,
) -> tuple[int, Any]:
    """(d, sizes) of M on ``given`` examples; InsufficientSampleError when they are too few — public quantities only,
    checked before any charge (a refusal for a public reason spends nothing)."""
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < float(v) < 1.0:
            raise LittlestoneError(f"{name} must lie in (0, 1), got {v!r}")
    if d is None:
        d = int(hclass.ldim())
        if d < 1:
            raise LittlestoneError(
                f"{hclass.name} has Littlestone dimension {d}; BLM20 needs d ≥ 1 "
                "(a class with d ≤ 0 has at most one function: nothing to learn)"
            )
    else:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
            raise LittlestoneError(
                f"ldim (the Littlestone dimension used for the sizes) must be an integer ≥ 1, got {d!r}"
            )
        d = int(d)
    sizes = plan_sizes(
        d,
        epsilon=epsilon,
        delta=delta,
        alpha=alpha,
        beta=beta,
        n_batches=n_batches,
        aux_size=aux_size,
        cap=cap,
        n_generic=n_generic,
        eta=eta,
    )
    if given < sizes.total:
        how = "Theorem 1 at these (α, β, ε, δ)" if sizes.theory else "the sizes you chose"
        raise InsufficientSampleError(
            f"BLM20 on {hclass.name} (d={d}) needs {sizes.total:,} examples for {how}: k={sizes.n_batches:,} batches "
            f"of m={sizes.batch_size:,} for G plus n′={sizes.n_generic:,} for the generic learner; got {given:,}. "
            "Give more data, or override the sizes (n_batches=, aux_size=, cap=, n_generic=): privacy holds for "
            "every setting, the accuracy guarantee only at the theory sizes."
        )
    return d, sizes


def blm20_learn(
    hclass: HypothesisClass,
    source: ExampleSource,
    *,
    epsilon: float,
    delta: float,
    alpha: float = 0.1,
    beta: float = 0.05,
    d: int | None = None,
    n_batches: int | None = None,
    aux_size: int | None = None,
    cap: int | None = None,
    n_generic: int | None = None,
    eta: float | None = None,
    backend: Any = "secure",
    seed: SeedLike = None,
    n_jobs: int = 1,
    diagnostics: bool = False,
    checkpoint: Any = None,
    checkpoint_every: int | None = None,
    checkpoint_cleanup: bool = False,
    accountant: Any = None,
) -> BLM20Result:
    """Run M (BLM20 Theorem 17; Theorem 1 sizes by default) on a source of validated points and 0/1 labels.
    Randomness: G's coins and the batch split may be public (they come from ``seed`` and do not depend on the data;
    the proof needs no secrecy of them); all privacy noise comes from ``backend``. ``checkpoint=DIR`` saves stage 1
    in chunks of ``checkpoint_every`` G batches and resumes from them (:mod:`littlestone.pac.checkpoint`: same seed
    ⇒ same G outputs; bound to the data and parameters; a local file of the data owner, as sensitive as the data);
    ``checkpoint_cleanup=True`` deletes it after a successful run. ``accountant``: charged M's claim before any example
    is read (None: the default accountant; nothing when called by an estimator, which was)."""
    epsilon, delta = _check_privacy(epsilon, delta)
    if checkpoint is not None:
        from .checkpoint import check_checkpoint_dir

        check_checkpoint_dir(checkpoint)  # before anything is computed
    if not isinstance(checkpoint_cleanup, (bool, np.bool_)):
        raise LittlestoneError(f"checkpoint_cleanup must be True or False, got {checkpoint_cleanup!r}")
    if checkpoint_cleanup and checkpoint is None:
        raise LittlestoneError("checkpoint_cleanup=True needs checkpoint=DIR")
    if not isinstance(backend, Backend) and backend not in ("secure", "seeded"):
        raise PrivacyParameterError(
            f"backend must be 'secure', 'seeded' or a littlestone.privacy Backend, not {backend!r}"
        )
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise LittlestoneError(f"n_jobs must be a nonzero integer (1 = serial, -1 = all cores), got {n_jobs!r}")
    d, sizes = blm20_sizes(
        hclass,
        len(source),
        epsilon=epsilon,
        delta=delta,
        alpha=alpha,
        beta=beta,
        d=d,
        n_batches=n_batches,
        aux_size=aux_size,
        cap=cap,
        n_generic=n_generic,
        eta=eta,
    )
    given = len(source)
    rng = as_generator(seed)
    g_seed = int(rng.integers(0, 2**63 - 1))
    noise = resolve_backend(backend, rng)
    hist, select = blm20_mechanisms(epsilon, delta, discrete=noise.floating_point_safe)
    claim = compose([hist, select], what=BLM20_CLAIM)  # the mechanisms this run constructs and runs
    split, batches, fresh = blm20_split(sizes, given, source)  # from here on, data only through the split's readers
    split.check_disjoint()  # every record feeds one step (the histogram's users and the fresh sample are disjoint)
    if not split.compose({HIST: hist, SELECT: select}).epsilon <= claim.epsilon:  # cannot happen with disjoint parts
        raise AssertionError("BLM20's data split composes to more than its claim")
    budget = PrivacyBudget(epsilon, delta)
    charge_fit(accountant, claim, "blm20_learn")  # before G reads its first batch (inside an estimator: nothing)

    # Stage 1: G on k disjoint batches (BLM20 Theorem 17 step 1).
    G = GlobalStableLearner(hclass, alpha / 2.0, d=d, n=sizes.aux_size, cap=sizes.cap)
    m, k = sizes.batch_size, sizes.n_batches
    readers = [split.reader(b, HIST) for b in batches]  # run i of G reads batch i only (one user's data)
    if checkpoint is None:
        runs: list[GRun] = run_batches(G, None, readers, g_seed, n_jobs=n_jobs)
    else:
        from .checkpoint import DEFAULT_EVERY, run_batches_checkpointed

        every = DEFAULT_EVERY if checkpoint_every is None else checkpoint_every
        params = {"epsilon": epsilon, "delta": delta, "alpha": alpha, "beta": beta}
        runs = run_batches_checkpointed(
            G, source, readers, g_seed, sizes, checkpoint, every=every, n_jobs=n_jobs, run=params
        )

    # Stage 2: stable histogram with (ε/2, δ); keep estimates ≥ 3η/4, never Fail (step 2).
    release = hist([r.output for r in runs], backend=noise, budget=budget)
    released = tuple(sorted(((h, float(c)) for h, c in release.items()), key=lambda hc: (-hc[1], hc[0])))
    fail_estimate = float(release.estimate(FAIL)) / k
    keep = 3.0 * sizes.eta / 4.0
    candidates = tuple(
        sorted(((h, c / k) for h, c in release.items() if h is not FAIL and c / k >= keep), key=lambda hc: hc[0])
    )

    # Stage 3: generic learner with ε/2 on n′ fresh examples (step 3; BLM20 Lemma 16).
    if candidates:
        X, y = split.reader(fresh, SELECT).read()
        y = np.asarray(y, dtype=np.int8)
        scores = np.array(
            [-int(np.count_nonzero(np.asarray(h.predict(X), dtype=np.int8) != y)) for h, _ in candidates], dtype=float
        )
        idx = select(scores, backend=noise, budget=budget)
        chosen, fallback = candidates[idx][0], False
    else:
        chosen, fallback = hclass.soa(), True  # data-independent output when the histogram keeps nothing

    diag = None
    if diagnostics:
        counts = Counter(r.output for r in runs)
        diag = {
            "fail_rate": counts.get(FAIL, 0) / k,
            "g_histogram": [(h, c) for h, c in counts.most_common(10)],
            "distinct_outputs": len(counts),
            "examples_read_by_g": int(sum(r.examples_read for r in runs)),
            "depths": dict(sorted(Counter(r.k for r in runs).items())),
        }
    if checkpoint is not None:
        from .checkpoint import finish_checkpoint

        finish_checkpoint(checkpoint, cleanup=bool(checkpoint_cleanup))
    used_g = k * m
    return BLM20Result(
        epsilon=epsilon,
        delta=delta,
        spent=claim.pair,
        claim=claim,
        ledger=tuple(Charge(c.epsilon, c.delta, c.what) for c in claim.parts),
        backend=noise.name,
        sizes=sizes,
        examples_given=given,
        examples_g=used_g,
        examples_generic=sizes.n_generic,
        examples_unused=given - used_g - sizes.n_generic,
        released=released,
        fail_estimate=fail_estimate,
        candidates=candidates,
        chosen=chosen,
        fallback=fallback,
        diagnostics=diag,
    )


def __getattr__(name: str) -> Any:
    """``BLM20Classifier`` lives in :mod:`littlestone.pac.blm20_classifier` (the scikit-learn estimator); it is
    imported on first use, so code that runs the learner itself (``blm20_learn``, parallel workers) never loads
    scikit-learn."""
    if name == "BLM20Classifier":
        from .blm20_classifier import BLM20Classifier

        return BLM20Classifier
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
