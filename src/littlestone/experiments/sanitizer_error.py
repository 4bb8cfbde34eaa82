"""Experiment: sanitizers' error against n and ε (LWY25 Def 2.7, Def E.1).

MWEM on thresholds over 2¹⁰ points (data: a rounded normal): the largest query error max_h |Est(h) − P̂_S(h)|
beside its proven bound (β = 0.05). The realizable sanitizer (Thm E.5) on thresholds over 6 points: the fraction of
hypotheses where Def E.1 is violated (P̂ ≥ α but Est = 0, or P̂ = 0 but Est = 1), α = 0.3. The Bousquet–Livni–Moran
sequential-fooling sanitizer (BousquetLM20; LWY25 Thm 4.2) on the same thresholds as MWEM, α = 0.1, δ = 10⁻⁶, with the
practical (exponential-mechanism) discriminator learner: its max query error, and α as the bound where n reaches its
sample size (NaN below it).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .. import _progress
from ..classes import Thresholds
from ..errors import LittlestoneError
from ..sanitizers import MWEM
from ..sanitizers.realizable import RealizableSanitizer
from ..sanitizers.sequential_fooling import SequentialFoolingSanitizer
from ._blm20_common import ExperimentResult, new_figure, out_path, save_figure, write_table

BLM = "sequential fooling (Thm 4.2)"
BLM_ALPHA = 0.1
#: where an error of exactly 0 is drawn on the log axis (said in the plot and the verdict)
ZERO_FLOOR = 1e-4


def run(
    ns: Sequence[int] = (1000, 3000, 10_000, 30_000, 100_000),
    epsilons: Sequence[float] = (0.5, 1.0, 2.0),
    reps: int = 3,
    domain_bits: int = 10,
    *,
    seed: Any = 0,
    jobs: int = 1,
    out_dir: Any = None,
    backend: str = "seeded",
) -> ExperimentResult:
    """Max query error of MWEM and Def E.1 violations of the realizable sanitizer vs n and ε."""
    if not all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) and n >= 1 for n in ns):
        raise LittlestoneError(f"ns must be positive integers (dataset sizes), got {list(ns)!r}")
    if isinstance(reps, bool) or not isinstance(reps, int) or reps < 1:
        raise LittlestoneError(f"reps must be an integer >= 1, got {reps!r}")
    if isinstance(domain_bits, bool) or not isinstance(domain_bits, int) or not 3 <= domain_bits <= 20:
        raise LittlestoneError(f"domain_bits must be an integer in [3, 20], got {domain_bits!r}")
    N = 1 << int(domain_bits)
    H = Thresholds(N)
    Hs = Thresholds(6)
    ss = np.random.SeedSequence(seed)
    rows: list[dict] = []
    total = len(ns) * len(epsilons) * int(reps)
    done = 0
    for n in ns:
        for eps in epsilons:
            for r in range(int(reps)):
                c_data, c_mwem, c_real, c_blm = ss.spawn(4)
                rng = np.random.default_rng(c_data)
                X = np.clip(rng.normal(N * 0.4, N * 0.08, int(n)).astype(int), 0, N - 1)
                m = MWEM(H, eps, reuse=0, backend=backend, seed=c_mwem).fit(X)
                rows.append(
                    {
                        "sanitizer": "MWEM",
                        "n": int(n),
                        "epsilon": eps,
                        "rep": r,
                        "error": m.max_error(X),
                        "bound": m.error_bound(),
                    }
                )
                b = SequentialFoolingSanitizer(
                    H, eps, 1e-6, alpha=BLM_ALPHA, learner="exponential", backend=backend, seed=c_blm
                ).fit(X)
                rows.append(
                    {
                        "sanitizer": BLM,
                        "n": int(n),
                        "epsilon": eps,
                        "rep": r,
                        "error": b.max_error(X),
                        "bound": b.error_bound() if b.error_bound() < 1 else float("nan"),
                    }
                )
                Xs = rng.choice([0, 4, 5], size=int(n), p=[0.5, 0.3, 0.2])
                s = RealizableSanitizer(Hs, eps, 1e-6, 0.3, backend=backend, seed=c_real).fit(Xs)
                p = (s.F.matrix.astype(float) @ np.bincount(Xs, minlength=6)) / n
                bad = ((p >= 0.3) & (s.estimate_ == 0)) | ((p == 0) & (s.estimate_ == 1))
                rows.append(
                    {
                        "sanitizer": "realizable (Thm E.5)",
                        "n": int(n),
                        "epsilon": eps,
                        "rep": r,
                        "error": float(bad.mean()),
                        "bound": float("nan"),
                    }
                )
                done += 1
                _progress.report("sanitizer_error runs", done, total)
    table = []
    for san in ("MWEM", BLM, "realizable (Thm E.5)"):
        for eps in epsilons:
            for n in ns:
                sel = [x for x in rows if x["sanitizer"] == san and x["epsilon"] == eps and x["n"] == n]
                table.append(
                    {
                        "sanitizer": san,
                        "epsilon": eps,
                        "n": int(n),
                        "mean_error": float(np.mean([x["error"] for x in sel])),
                        "max_error": float(np.max([x["error"] for x in sel])),
                        "proven_bound": float(sel[0]["bound"]),
                    }
                )
    out = out_path(out_dir)
    csv = write_table(table, out / "sanitizer_error.csv")
    fig, ax = new_figure(8.4, 4.4)
    for san, style in (("MWEM", "o-"), (BLM, "^-."), ("realizable (Thm E.5)", "s--")):
        for eps in epsilons:
            sel = [x for x in table if x["sanitizer"] == san and x["epsilon"] == eps]
            xs = np.array([x["n"] for x in sel], dtype=float)
            ys = np.array([x["mean_error"] for x in sel], dtype=float)
            (line,) = ax.loglog(
                xs,
                np.maximum(ys, ZERO_FLOOR),
                style,
                label=f"{san}, ε={eps:g}"
                + (" (violated fraction)" if san.startswith("realizable") else " (max query error)"),
            )
            zero = ys <= 0
            if zero.any():  # an error of exactly 0 cannot sit on a log axis: drawn at the floor, hollow
                ax.plot(xs[zero], np.full(zero.sum(), ZERO_FLOOR), "v", ms=8, mfc="white", color=line.get_color())
    ax.axhline(ZERO_FLOOR, color="0.6", lw=0.6, ls=":")
    ax.text(
        ax.get_xlim()[0],
        ZERO_FLOOR,
        " an error of exactly 0 is drawn at 10⁻⁴ (hollow ▽)",
        va="bottom",
        fontsize=7,
        color="0.35",
    )
    ax.set_xlabel("n")
    ax.set_ylabel("mean error (0 drawn at 10⁻⁴)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig_path = save_figure(fig, out / "sanitizer_error.png")
    worst = max(x["max_error"] for x in table if x["sanitizer"] == "MWEM")
    return ExperimentResult(
        "sanitizer_error",
        table,
        csv,
        [fig_path],
        verdict=f"MWEM's largest observed query error {worst:.3g}; every run within its bound: "
        f"{all(x['error'] <= x['bound'] for x in rows if x['sanitizer'] == 'MWEM')}; "
        f"sequential fooling's largest "
        f"{max(x['max_error'] for x in table if x['sanitizer'] == BLM):.3g}; in the plot an error of exactly 0 is drawn "
        f"at {ZERO_FLOOR:g} (hollow ▽): {sum(1 for x in table if x['mean_error'] <= 0)} of {len(table)} points",
    )
