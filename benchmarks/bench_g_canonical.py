"""Does G's output histogram count functions? (BLM20 §IV, Theorem 10 and M's histogram count *functions*.)

Runs algorithm G many times on Intervals(8) (Ldim 4) with a realizable target, then compares the number of distinct
histogram keys (hypothesis values) with the number of distinct functions (value vectors on the 8 points), and how
the target function's mass is split over keys. Run it on the current tree, or on an older tree for a before/after:

    .venv/bin/python benchmarks/bench_g_canonical.py --runs 3000 --jobs 2
    PYTHONPATH=/path/to/old/src .venv/bin/python benchmarks/bench_g_canonical.py --runs 3000 --jobs 2 --no-write

Writes benchmarks/results/g_canonical.md (unless --no-write).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import numpy as np

import littlestone
from littlestone.classes.intervals import Intervals
from littlestone.pac.global_stable import GlobalStableLearner, run_batches
from littlestone.pac.sources import RealizableStream, UniformIntegers
from littlestone.pac.tournament import FAIL

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3000)
    ap.add_argument("--alpha", type=float, default=0.5, help="G's accuracy α (n = ⌈d/α⌉)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=2020)
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()

    H = Intervals(8)
    target = H.hypothesis(2, 5)
    G = GlobalStableLearner(H, a.alpha)
    stream = RealizableStream(target, UniformIntegers(0, 8), G.m * a.runs, seed=a.seed)
    batches = [(i * G.m, (i + 1) * G.m) for i in range(a.runs)]
    t0 = time.perf_counter()
    runs = run_batches(G, stream, batches, a.seed, n_jobs=a.jobs)
    secs = time.perf_counter() - t0

    X = np.arange(8)
    outs = [r.output for r in runs if r.output is not FAIL]
    keys = Counter(outs)
    funcs = Counter(tuple(h.predict(X).tolist()) for h in outs)
    tvec = tuple(target.predict(X).tolist())
    target_keys = [k for k in keys if tuple(k.predict(X).tolist()) == tvec]
    top = keys.most_common(1)[0][1] / a.runs if keys else 0.0
    lines = [
        f"G on {H.name} (d = {G.d}), target [2,5], uniform on 0..7, α = {a.alpha} (n = {G.n}, N = {G.cap}), "
        f"{a.runs} runs, seed {a.seed}; littlestone from {Path(littlestone.__file__).parent}; {secs:.1f} s.",
        "",
        "| quantity | value |",
        "|---|---:|",
        f"| runs that output a hypothesis (not Fail) | {len(outs)} |",
        f"| distinct histogram keys (hypothesis values) | {len(keys)} |",
        f"| distinct functions (value vectors on 0..7) | {len(funcs)} |",
        f"| keys holding the target function | {len(target_keys)} |",
        f"| target mass (fraction of runs) | {funcs[tvec] / a.runs:.4f} |",
        f"| largest single key's mass | {top:.4f} |",
        f"| largest single function's mass | {max(funcs.values()) / a.runs if funcs else 0:.4f} |",
    ]
    text = "\n".join(lines)
    print(text)
    if not a.no_write:  # keep the recorded "before" section (measured once on the tree before the fix)
        out = HERE / "results" / "g_canonical.md"
        old = out.read_text(encoding="utf-8") if out.exists() else ""
        before = old[old.index("### Before") :] if "### Before" in old else ""
        out.write_text(
            "## G's histogram keys vs functions (BLM20 §IV)\n\nRerun: `.venv/bin/python "
            "benchmarks/bench_g_canonical.py --runs 3000 --jobs 2`.\n\n### After (one value per function)"
            "\n\n" + text + "\n\n" + before,
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
