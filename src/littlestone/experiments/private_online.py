"""Experiment: mistakes of private online learners against the horizon T, judged only where the theorems speak.

Learners (``learners``, names resolved through :data:`LEARNERS`; ``name:setting`` passes ``setting=`` to the
constructor, e.g. ``lwy25-paper:practical``; the names of ``littlestone play -l``): ``lwy25-paper`` = LWY25 (LWY25
Alg. 2, Thm 3.1, adaptive adversaries), ``gl21-paper`` = GL21 DP-SOA (GL21 Thm 4.1, oblivious), ``lwy25`` / ``gl21``
their anytime variants (a fresh instance whenever one halts / aborts, :mod:`littlestone.private_online.anytime`; an
extension beyond the papers, shown the paper's bound for reference), ``gl21-adaptive`` = GL21 re-initialised every
round (GL21 Thm 4.2, adaptive; O(T²) work, run up to ``adaptive_T_max``) and the non-private SOA (mistake bound
Ldim(H) = d, Kal-LN §4). Classes: thresholds with
Ldim d (Thresholds(2^d): 2^d + 1 functions, Ldim ⌊log2(2^d + 1)⌋ = d).

Adversaries (``adversaries``, names resolved through :func:`adversary`; all realizable):
* ``iid``: oblivious, x_t uniform on the domain, labels of a target threshold drawn uniformly at the start;
* ``tree``: the mistake-tree adversary (:class:`littlestone.online.TreeAdversary`): forces a mistake on each of the
  first d rounds, then replays its points;
* ``disagreement``: disagreement-seeking (LWY25 Def. 2.4's adaptive adversary): a target drawn at the start; each round
  a point where the learner's released hypothesis h_t and the target disagree (a uniform point when none), labelled
  by the target;
* ``late-commitment``: commits to no target; each round the point x whose flipped label 1 − h_t(x) keeps the most
  hypotheses consistent (ties: the first), labelled 1 − h_t(x) while that stays realizable, else a point labelled
  by a consistent hypothesis.
All are :data:`littlestone.online.ADVERSARIES` (``littlestone.online.released``), the ones ``play --adversary`` runs.

Judgement: every curve is compared with its theorem's bound at the same (d, T, ε, δ) — LWY25 Thm 3.1 with App. B's
constants (``littlestone.bounds.lwy25``), GL21 Thm 4.1 / 4.2 in their Õ form with hidden constants and logarithms set to
1 (GL21 give no constants; labelled "order"), SOA's d. Where the bound is ≥ T the row says "bound vacuous" and no
exponent or claim is made; where it is < T, the measured mean is checked against it and a log–log slope fitted over
that range only. The private learners run their practical settings (``learner.setting``), so their bounds (stated
for the theorem's setting) are drawn for reference, not as a guarantee of these runs. Noise from the seeded backend
by default (reproducible).
"""

from __future__ import annotations

import importlib
import math
from typing import Any, Sequence

import numpy as np

from ..classes.thresholds import Thresholds
from ..errors import LittlestoneError
from ..online import ADVERSARIES as LIBRARY_ADVERSARIES
from ..online import SOA, Adversary, make_adversary, play
from ..parallel import map_seeded
from ._blm20_common import ExperimentResult, fitted_slope, new_figure, out_path, save_figure, vacuous_box, write_table

#: learner name → (module, class); ``soa`` is the non-private baseline
#: (the names of ``littlestone play -l``: lwy25 / gl21 are the anytime variants, -paper the papers' algorithms)
LEARNERS: dict[str, tuple[str, str]] = {
    "lwy25": ("littlestone.private_online", "AnytimeLWY25"),
    "lwy25-paper": ("littlestone.private_online", "LWY25"),
    "gl21": ("littlestone.private_online", "AnytimeGL21"),
    "gl21-paper": ("littlestone.private_online", "GL21"),
    "gl21-adaptive": ("littlestone.private_online", "GL21Adaptive"),
    "listat": ("littlestone.private_online", "ListAT"),
    "bisect": ("littlestone.private_online", "BisectAT"),
    "soa": ("littlestone.online", "SOA"),
    "points-at": ("littlestone.private_online.points_at", "PointsAT"),
    "intervals-at": ("littlestone.private_online.intervals_at", "IntervalsAT"),
    "segment-em": ("littlestone.private_online.segmented_em", "SegmentedEM"),
    "epoch-em": ("littlestone.private_online.epoch_em", "EpochEM"),
}
#: the learners run by default: both variants of LWY25 and GL21, GL21 Thm 4.2, the SOA
DEFAULT_LEARNERS = ("lwy25", "lwy25-paper", "gl21", "gl21-paper", "gl21-adaptive", "soa")
#: the adversaries of LWY25's setting (oblivious i.i.d., tree, disagreement-seeking, late-commitment)
ADVERSARIES = ("iid", "tree", "disagreement", "late-commitment")
#: the default (quick) grid and the full one (``grid="full"``)
GRIDS: dict[str, dict[str, Any]] = {
    "quick": {"Ts": (100, 1_000, 10_000), "ds": (1, 2), "seeds": 2, "adaptive_T_max": 100},
    "full": {"Ts": (1_000, 10_000, 100_000, 1_000_000), "ds": (1, 2, 3), "seeds": 2, "adaptive_T_max": 1_000},
}
BETA = 0.1
VACUOUS = "bound vacuous"


def threshold_class(d: int) -> Thresholds:
    """Thresholds over 2^d points: 2^d + 1 functions, Ldim ⌊log2(2^d + 1)⌋ = d."""
    return Thresholds(2**d)


# --- adversaries -------------------------------------------------------------------------------------------------


def adversary(name: str, H: Thresholds, seed: Any = None) -> Adversary:
    """The adversary called ``name`` (:data:`littlestone.online.ADVERSARIES`); ``play`` shows it the learner."""
    if name not in ADVERSARIES and name not in LIBRARY_ADVERSARIES:
        raise LittlestoneError(f"unknown adversary {name!r} (choose among {', '.join(ADVERSARIES)})")
    return make_adversary(name, H, seed=seed)


# --- learners ----------------------------------------------------------------------------------------------------


def _split(spec: str) -> tuple[str, str | None]:
    name, _, setting = spec.partition(":")
    return name, (setting or None)


def make_learner(spec: str, H: Thresholds, T: int, epsilon: float, delta: float, backend: str, seed: Any) -> Any:
    """The learner ``name`` or ``name:setting`` of :data:`LEARNERS` for horizon T."""
    name, setting = _split(spec)
    if name not in LEARNERS:
        raise LittlestoneError(f"unknown learner {name!r} (choose among {', '.join(LEARNERS)})")
    module, attr = LEARNERS[name]
    cls = getattr(importlib.import_module(module), attr)
    if name == "soa":
        return cls(H)
    kw: dict[str, Any] = {"backend": "seeded", "seed": seed} if backend == "seeded" else {"backend": "secure"}
    if setting is not None:
        kw["setting"] = setting
    return cls(H, T=T, epsilon=epsilon, delta=delta, beta=BETA, **kw)


def theorem_bound(spec: str, d: int, T: int, epsilon: float, delta: float) -> tuple[float, str]:
    """(bound on the mistakes at horizon T, which theorem and in what form) for the learner ``spec`` (the anytime
    variants ``lwy25`` / ``gl21`` are shown their paper's bound for reference: the theorems do not cover restarts)."""
    name = _split(spec)[0].removesuffix("-paper")
    if name == "soa":
        return float(d), "Ldim (SOA, Kal-LN §4)"
    if name == "lwy25":
        from ..bounds.lwy25 import theorem_3_1

        return float(theorem_3_1(d, T, epsilon, delta, BETA).mistake_bound), "LWY25 Thm 3.1 (App. B constants)"
    if name == "gl21":
        return 2.0 ** (8 * 2**d) * (math.log(T) - math.log(delta)) / epsilon, "GL21 Thm 4.1 order 2^(8·2^d) ln(T/δ)/ε"
    if name == "gl21-adaptive":
        return (
            2.0 ** (8 * 2**d) * math.exp(0.5 * math.log(T)) * math.log(1 / delta) / epsilon,
            "GL21 Thm 4.2 order 2^(8·2^d) √T ln(1/δ)/ε",
        )
    return math.inf, "no bound"


def smallest_useful_T(spec: str, d: int, epsilon: float, delta: float) -> float:
    """The least T with bound(T) < T (the bounds grow slower than T), by doubling then bisection; inf past 2^1000."""
    lo, hi = 1, 2
    while theorem_bound(spec, d, hi, epsilon, delta)[0] >= hi:
        lo, hi = hi, hi * 2
        if hi > 2**1000:
            return math.inf
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if theorem_bound(spec, d, mid, epsilon, delta)[0] < mid else (mid, hi)
    return float(hi)


# --- the runs ----------------------------------------------------------------------------------------------------


def soa_mistakes(H: Thresholds, X: np.ndarray, y: np.ndarray, block: int = 1 << 16) -> int:
    """The non-private SOA over a fixed stream, vectorized: predict a block with SOA(V), restrict at the first
    mistake (the same predictions as ``SOA.predict_one``/``learn_one`` round by round)."""
    V = H.version_space()
    mistakes, pos, n = 0, 0, len(y)
    while pos < n:
        end = min(n, pos + block)
        wrong = np.flatnonzero(V.soa().predict(X[pos:end]) != y[pos:end])
        if wrong.size == 0:
            pos = end
            continue
        t = pos + int(wrong[0])
        mistakes += 1
        V = V.restrict(int(X[t]), int(y[t]))
        pos = t + 1
    return mistakes


def _one(task: tuple, seed: np.random.SeedSequence) -> dict:
    spec, adv, d, T, epsilon, delta, backend = task
    H = threshold_class(d)
    s_learn, s_data = seed.spawn(2)
    lrn = make_learner(spec, H, T, epsilon, delta, backend, s_learn)
    if adv == "iid":  # oblivious: the whole stream fixed in advance, run vectorized
        rng = np.random.default_rng(s_data)
        theta = int(rng.integers(0, H.n + 1))
        X = rng.integers(0, H.n, T)
        y = (X >= theta).astype(np.int8)
        mistakes = soa_mistakes(H, X, y) if isinstance(lrn, SOA) else lrn.run(X, y).mistakes
    else:
        mistakes = play(lrn, adversary(adv, H, seed=s_data.spawn(1)[0]), T, seed=s_data).mistakes
    return {
        "learner": spec,
        "adversary": adv,
        "d": d,
        "T": T,
        "mistakes": int(mistakes),
        "setting": getattr(lrn, "setting", "") or "non-private",
    }


def _check_grid(grid: str) -> dict[str, Any]:
    if grid not in GRIDS:
        raise LittlestoneError(f"grid must be one of {', '.join(GRIDS)}, got {grid!r}")
    return GRIDS[grid]


def run(
    Ts: Sequence[int] | None = None,
    ds: Sequence[int] | None = None,
    seeds: int | None = None,
    epsilon: float = 1.0,
    delta: float = 1e-6,
    adaptive_T_max: int | None = None,
    learners: Sequence[str] = DEFAULT_LEARNERS,
    adversaries: Sequence[str] = ADVERSARIES,
    grid: str = "quick",
    *,
    seed: Any = 0,
    jobs: int = 1,
    out_dir: Any = None,
    backend: str = "seeded",
) -> ExperimentResult:
    """Mistakes vs T of LWY25, GL21, GL21 Thm 4.2 and the SOA against the oblivious i.i.d., tree, disagreement-seeking
    and late-commitment adversaries, each compared with its theorem's bound only where that bound is below T
    ("bound vacuous" elsewhere). grid=quick (default: T = 10²…10⁴, d = 1, 2, 2 seeds) or grid=full (T = 10³…10⁶,
    d = 1, 2, 3); Ts, ds, seeds override the grid; GL21 Thm 4.2 (O(T²)) only up to adaptive_T_max."""
    g = _check_grid(grid)
    Ts = tuple(int(t) for t in (g["Ts"] if Ts is None else Ts))
    ds = tuple(int(d) for d in (g["ds"] if ds is None else ds))
    seeds = int(g["seeds"] if seeds is None else seeds)
    adaptive_T_max = int(g["adaptive_T_max"] if adaptive_T_max is None else adaptive_T_max)
    learners = [learners] if isinstance(learners, str) else list(learners)
    adversaries = [adversaries] if isinstance(adversaries, str) else list(adversaries)
    for spec in learners:
        if _split(spec)[0] not in LEARNERS:
            raise LittlestoneError(f"unknown learner {spec!r} (choose among {', '.join(LEARNERS)})")
    for a in adversaries:
        if a not in LIBRARY_ADVERSARIES:
            raise LittlestoneError(f"unknown adversary {a!r} (choose among {', '.join(ADVERSARIES)})")
    if not Ts or any(t < 2 for t in Ts):
        raise LittlestoneError(f"Ts must be horizons >= 2, got {list(Ts)!r}")
    if not ds or any(not 1 <= d <= 4 for d in ds):
        raise LittlestoneError(f"ds must be Littlestone dimensions in 1..4, got {list(ds)!r}")
    if seeds < 1:
        raise LittlestoneError(f"seeds must be >= 1, got {seeds}")
    if backend not in ("seeded", "secure"):
        raise LittlestoneError(f"backend must be 'seeded' or 'secure', got {backend!r}")
    tasks = [
        (spec, adv, d, T, epsilon, delta, backend)
        for spec in learners
        for adv in adversaries
        for d in ds
        for T in Ts
        if not (_split(spec)[0] == "gl21-adaptive" and T > adaptive_T_max)
        for _ in range(seeds)
    ]
    rows = map_seeded(_one, tasks, seed=seed, n_jobs=jobs, progress="games")  # game i: child i of seed
    out = out_path(out_dir)
    write_table(rows, out / "private_online_runs.csv")
    summary, fig_path, verdict = summarize(rows, out, epsilon=epsilon, delta=delta)
    return ExperimentResult("private_online", summary, out / "private_online.csv", [fig_path], verdict)


def summarize(rows: list[dict], out: Any, *, epsilon: float, delta: float) -> tuple[list[dict], Any, str]:
    """Mean mistakes per (learner, adversary, d, T) beside the theorem's bound, "bound vacuous" where it is ≥ T;
    the CSV, the PNG (one panel per adversary) and the verdict."""
    out = out_path(out)
    keys = sorted({(r["learner"], r["adversary"], r["d"]) for r in rows}, key=str)
    summary: list[dict] = []
    curves: dict[tuple, dict] = {}
    for key in keys:
        sel = [r for r in rows if (r["learner"], r["adversary"], r["d"]) == key]
        Tgrid = sorted({r["T"] for r in sel})
        means = [float(np.mean([r["mistakes"] for r in sel if r["T"] == T])) for T in Tgrid]
        maxes = [max(r["mistakes"] for r in sel if r["T"] == T) for T in Tgrid]
        bounds = [theorem_bound(key[0], key[2], T, epsilon, delta) for T in Tgrid]
        live = [i for i, (b, _) in enumerate(bounds) if b < Tgrid[i]]
        slope = fitted_slope([Tgrid[i] for i in live], [means[i] for i in live]) if len(live) >= 2 else float("nan")
        curves[key] = {"T": Tgrid, "mean": means, "bound": [b for b, _ in bounds], "live": live}
        for i, T in enumerate(Tgrid):
            b, what = bounds[i]
            status = VACUOUS if b >= T else ("within bound" if maxes[i] <= b else "ABOVE BOUND")
            summary.append(
                {
                    "learner": key[0],
                    "adversary": key[1],
                    "d": key[2],
                    "T": T,
                    "mean_mistakes": means[i],
                    "max_mistakes": maxes[i],
                    "seeds": sum(1 for r in sel if r["T"] == T),
                    "bound": b,
                    "bound_source": what,
                    "status": status,
                    "slope_where_bound_below_T": slope if i in live else "",
                    "setting": sel[0]["setting"],
                }
            )
    write_table(summary, out / "private_online.csv")
    fig_path = _plot(curves, out, epsilon, delta)
    return summary, fig_path, _verdict(summary, epsilon, delta)


_COLORS = {
    "lwy25": "tab:blue",
    "lwy25-paper": "tab:cyan",
    "gl21": "tab:orange",
    "gl21-paper": "tab:brown",
    "gl21-adaptive": "tab:red",
    "soa": "tab:gray",
}


def _plot(curves: dict[tuple, dict], out: Any, epsilon: float, delta: float) -> Any:
    new_figure(1, 1)  # selects the Agg backend
    import matplotlib.pyplot as plt

    plt.close("all")
    advs = [a for a in ADVERSARIES if any(k[1] == a for k in curves)] + sorted(
        {k[1] for k in curves} - set(ADVERSARIES)
    )
    ncol = min(2, len(advs))
    nrow = math.ceil(len(advs) / ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(6.2 * ncol, 4.6 * nrow), squeeze=False, sharey=True)
    marks = {1: "o", 2: "s", 3: "^", 4: "D"}
    Tall = sorted({T for c in curves.values() for T in c["T"]})
    for ax, adv in zip(axes.flat, advs):
        for (spec, a, d), c in curves.items():
            if a != adv:
                continue
            col = _COLORS.get(_split(spec)[0], "tab:green")
            ax.plot(
                c["T"], np.maximum(c["mean"], 0.5), "-" + marks.get(d, "o"), color=col, ms=4, label=f"{spec}, d = {d}"
            )
            b = np.array(c["bound"], dtype=float)
            T = np.array(c["T"], dtype=float)
            live = np.isfinite(b) & (b < T)
            if live.any():  # the bound only where it says something (below T)
                ax.plot(T[live], np.maximum(b[live], 0.5), ":", color=col, lw=1.2)
        vac = sorted(
            {
                f"{spec}, d = {d}: bound ≥ {min(c['bound']):.2g}"
                for (spec, a, d), c in curves.items()
                if a == adv and all(b >= T for b, T in zip(c["bound"], c["T"]))
            }
        )
        vacuous_box(ax, vac)
        ax.plot(Tall, Tall, "k-", lw=0.6, label="T (a mistake every round)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("T (rounds)")
        ax.set_title(f"{adv} adversary, $\\varepsilon$ = {epsilon:g}, $\\delta$ = {delta:g}", fontsize=10)
    for ax in axes.flat[len(advs) :]:
        ax.axis("off")
    axes[0][0].set_ylabel("mistakes (mean over seeds; 0 drawn at 0.5)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    rows = math.ceil(len(labels) / 4)
    height = fig.get_size_inches()[1]
    fig.legend(
        handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.3 / height), ncol=4, fontsize=7, frameon=False
    )
    fig.text(
        0.5,
        0.008,
        "dotted: the theorem's bound where it is below T (SOA: d mistakes); where every bound is ≥ T the panel "
        "lists the learners whose bound is vacuous (smallest value over the range)",
        ha="center",
        fontsize=7,
    )
    fig.tight_layout(rect=(0, (0.45 + 0.16 * rows) / height, 1, 1))
    return save_figure(fig, out / "private_online.png", tight=False)


def _verdict(summary: list[dict], epsilon: float, delta: float) -> str:
    parts = []
    learners = list(dict.fromkeys(r["learner"] for r in summary))
    ds = sorted({r["d"] for r in summary})
    for spec in learners:
        sel = [r for r in summary if r["learner"] == spec]
        live = [r for r in sel if r["status"] != VACUOUS]
        if not live:
            starts = ", ".join(f"d={d}: T ≥ {smallest_useful_T(spec, d, epsilon, delta):.3g}" for d in ds)
            parts.append(
                f"{spec}: bound vacuous over the whole range (below T only from {starts}); measured mistakes "
                f"reported, nothing claimed"
            )
            continue
        above = [r for r in live if r["status"] == "ABOVE BOUND"]
        parts.append(
            f"{spec}: bound below T in {len(live)}/{len(sel)} cells; "
            + (
                "reproduced (max mistakes ≤ bound in every one)"
                if not above
                else f"NOT reproduced ({len(above)} cells above the bound)"
            )
        )
    return "; ".join(parts)
