"""Private online learners on river's bundled real streams (issue 33 "What to build" 4 and 8): progressive-validation
accuracy, one feature on a declared public grid, ε = 1, seeded backend, median and worst over the seeds — beside the
best hypothesis of the class in hindsight, the majority class, non-private Hedge / follow-the-leader over the same
class and river's GaussianNB / HoeffdingTree / LogisticRegression on all raw features (context, not targets).

Streams, grids (declared with their sources, never read from the stream), classes and learners:
:mod:`littlestone.experiments.real_streams`. Target: worst seed within 2 points of the best in hindsight and not
below the majority class.

    nice -n 10 env PYTHONPATH=src .venv/bin/python benchmarks/bench_real_streams.py            # ≈ minutes
    nice -n 10 env PYTHONPATH=src .venv/bin/python benchmarks/bench_real_streams.py --quick    # prefixes, seconds

Writes benchmarks/results/real_streams.md (the table) and real_streams.csv (one row per cell and learner).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from littlestone.experiments import real_streams as rs
from littlestone.experiments._blm20_common import write_table

HERE = Path(__file__).resolve().parent


def _cell_text(accs, best: float, majority: float) -> str:
    if accs is None:
        return "—"
    if isinstance(accs, str):
        return "failed†" if " failed on " in accs else "cannot run†"
    med, worst = 100 * float(np.median(accs)), 100 * float(np.min(accs))
    mark = " ✓" if rs.meets_target(accs, best, majority) else ""
    return f"{med:.1f} ({worst:.1f}){mark}"


def markdown(cells: list[dict], context: dict[str, dict], seeds: int, seconds: float, command: str) -> str:
    names = [e.name for e in rs.PRIVATE_LEARNERS]
    out = [
        "# Private online learners on river's bundled real streams",
        "",
        f"`{command}` — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {seconds:.0f} s on the shared 2-core "
        f"machine (load {os.getloadavg()[0]:.1f}).",
        "",
        "Progressive validation (round t predicts with the hypothesis released before (x_t, y_t) is read), accuracy "
        f"in %. One feature on a declared public grid; ε = 1, seeded backend, seeds 0…{seeds - 1}: **median (worst)**. "
        "✓ = issue 33's target met (worst seed within 2 points of the best hypothesis of the class in hindsight and "
        "not below the majority class). Classes on m cells: `x≥t` thresholds, `x<t` the other direction (thresholds "
        "on the mirrored cells), `stumps` both directions in one class, `intervals`. *Best* = the best hypothesis of "
        "the class in hindsight (exact); *Hedge* = non-private Hedge over the class (expected accuracy); *FTL* = "
        "follow-the-leader. Algorithm 3 = LWY25 §4 (ThresholdsAlgorithm3 on thresholds, Algorithm3 with MWEM "
        "otherwise; defaults). The constructed-experts learner (LWY25 Thm E.10, run at ε/2 + ε/2) needs "
        "|J| = Σ_{k≤Ldim} C(T+k, 2k) experts — † where that exceeds 2^28.",
        "",
        "Grids (public, from the data sets' documentation or declared in "
        "`src/littlestone/experiments/real_streams.py` with their source — never computed from the stream):",
        "",
    ]
    for name in dict.fromkeys(c["stream"] for c in cells):
        spec = rs.STREAMS[name]
        sources = dict.fromkeys((g.source, g.low, g.high, g.cells, g.scale) for g in spec.grids)
        for src, lo, hi, m, scale in sources:
            feats = [
                g.feature for g in spec.grids if (g.source, g.low, g.high, g.cells, g.scale) == (src, lo, hi, m, scale)
            ]
            out.append(
                f"* **{name}** {', '.join(f'`{f}`' for f in feats)}: [{lo:g}, {hi:g}], {m} cells ({scale}) — {src}."
            )
    out.append("")
    summary: dict[str, list] = {n: [0, 0, [], 0, 0] for n in names}  # met, run, gaps, within 2 points, ≥ majority
    for name in dict.fromkeys(c["stream"] for c in cells):
        sel = [c for c in cells if c["stream"] == name]
        spec = rs.STREAMS[name]
        ctx = context.get(name, {})
        out += [
            f"## {name} — {spec.about}, T = {sel[0]['T']:,}",
            "",
            f"Majority class {100 * sel[0]['majority']:.1f} %. River on all raw features (context, not targets): "
            + ", ".join(f"{m} {100 * ctx[m]:.1f} %" for m in rs.RIVER_MODELS if m in ctx)
            + ".",
            "",
            "| feature | class | |H| | best | Hedge | FTL | " + " | ".join(names) + " |",
            "|---|---|---:|---:|---:|---:|" + "---:|" * len(names),
        ]
        for c in sel:
            cols = [_cell_text(c["private"].get(n), c["best"], c["majority"]) for n in names]
            out.append(
                f"| {c['feature']} | {c['class']} | {c['hypotheses']} | {100 * c['best']:.1f} | "
                f"{100 * c['hedge']:.1f} | {100 * c['ftl']:.1f} | " + " | ".join(cols) + " |"
            )
            for n in names:
                a = c["private"].get(n)
                if a is None or isinstance(a, str):
                    continue
                worst = float(np.min(a))
                summary[n][1] += 1
                summary[n][0] += int(rs.meets_target(a, c["best"], c["majority"]))
                summary[n][2].append(100 * (c["best"] - worst))
                summary[n][3] += int(worst >= c["best"] - 0.02 - 1e-12)
                summary[n][4] += int(worst >= c["majority"] - 1e-12)
        reasons = sorted({a for c in sel for a in c["private"].values() if isinstance(a, str)})
        out += [""] + [f"† {r}" for r in reasons] + ([""] if reasons else [])
    out += [
        "## Summary: cells where the target is met",
        "",
        "Worst seed of each cell. Where the best hypothesis is barely above the majority class (Shuttle: the best"
        ' constant is 92.8 %, the best threshold 92.9 %), "not below the majority" asks for a regret under 0.1 '
        "point: the two halves of the target are counted apart.",
        "",
        "| learner | target met | within 2 points of best | not below majority | cells run | median gap to best "
        "(points) | largest gap |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for n, (k, m, gaps, near, above) in summary.items():
        if m:
            out.append(f"| {n} | {k} | {near} | {above} | {m} | {np.median(gaps):.1f} | {max(gaps):.1f} |")
        else:
            out.append(f"| {n} | — | — | — | 0 | — | — |")
    streams = list(dict.fromkeys(c["stream"] for c in cells))
    ran = [n for n in names if summary[n][1]]
    out += [
        "",
        "Per stream: cells where the target is met / cells run (median gap to the best, points, worst seed).",
        "",
        "| stream | " + " | ".join(ran) + " |",
        "|---|" + "---:|" * len(ran),
    ]
    for st in streams:
        cols = []
        for n in ran:
            sel = [c for c in cells if c["stream"] == st and not isinstance(c["private"].get(n, ""), str)]
            if not sel:
                cols.append("—")
                continue
            met = sum(rs.meets_target(c["private"][n], c["best"], c["majority"]) for c in sel)
            gap = np.median([100 * (c["best"] - float(np.min(c["private"][n]))) for c in sel])
            cols.append(f"{met}/{len(sel)} ({gap:.1f})")
        out.append(f"| {st} | " + " | ".join(cols) + " |")
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--streams", default=",".join(rs.STREAMS), help="comma-separated stream names")
    ap.add_argument("--kinds", default=",".join((*rs.CLASS_KINDS, *rs.MULTI_KINDS)), help="comma-separated class kinds")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--limit", type=int, default=None, help="the first rounds of each stream only")
    ap.add_argument("--quick", action="store_true", help="300-round prefixes, 2 seeds, no river models")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "real_streams.md")
    args = ap.parse_args()
    limit, seeds = (300, 2) if args.quick else (args.limit, args.seeds)
    t0 = time.perf_counter()
    cells, context = [], {}
    for name in args.streams.split(","):
        stream = rs.load_stream(name, limit)
        if not args.quick:
            context[name] = rs.river_accuracies(stream)
        kinds = args.kinds.split(",")
        single = [k for k in kinds if k not in rs.MULTI_KINDS]
        jobs = [(g.feature, k) for g in stream.spec.grids for k in single]
        jobs += [("", k) for k in kinds if k in rs.MULTI_KINDS]
        for feature, kind in jobs:
            t1 = time.perf_counter()
            cells.append(rs.evaluate_cell(stream, feature, kind, seeds=seeds))
            print(f"{name:18s} {feature:28s} {kind:9s} {time.perf_counter() - t1:6.1f} s", flush=True)
    seconds = time.perf_counter() - t0
    cmd = "nice -n 10 env PYTHONPATH=src .venv/bin/python benchmarks/bench_real_streams.py" + (
        " --quick" if args.quick else f" --seeds {seeds}" + (f" --limit {limit}" if limit else "")
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(markdown(cells, context, seeds, seconds, cmd), encoding="utf-8")
    write_table(rs.flat_rows(cells), args.out.with_suffix(".csv"))
    print(f"wrote {args.out} ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
