"""One selection of SegmentedEM/EpochEM on intervals: IntervalScores (closed form, two-stage O(m) draw) against the
vector of scores over the listed class (FiniteScores, the path intervals took before: n ≲ 1,000), same stretch, same
mechanism. Time per selection (cells + release + decode), median of repeats; m = distinct points of the stretch.

    nice -n 10 python benchmarks/bench_interval_scores.py            # 3–4 minutes (the vector's column cache)
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from littlestone.classes import Intervals
from littlestone.private_online.list_at import list_hypotheses
from littlestone.private_online.segment_scores import FiniteScores, IntervalScores
from littlestone.privacy.backends import SeededBackend
from littlestone.privacy.cell_exponential import CellExponentialMechanism


def one_selection(sc, mech, backend, rng, x, y) -> float:
    t0 = time.perf_counter()
    sizes, mist, decode = sc.cells(x, y)
    decode(mech((sizes, -np.asarray(mist, dtype=float)), backend=backend), rng)
    return time.perf_counter() - t0


def main() -> None:
    mech = CellExponentialMechanism(0.8, 1.0)
    rows = []
    for n, k in [(256, 1000), (1000, 1000), (1000, 10_000), (2**16, 10_000), (2**16, 100_000), (2**60, 100_000)]:
        rng = np.random.default_rng(0)
        x = rng.integers(0, n, k, dtype=np.int64)
        y = ((x >= n // 4) & (x < n // 2)).astype(np.int8) ^ (rng.random(k) < 0.1).astype(np.int8)
        m = np.unique(x).size
        closed = IntervalScores(n)
        closed.bind(mech, SeededBackend(1))
        t_closed = np.median([one_selection(closed, mech, SeededBackend(2), rng, x, y) for _ in range(5)])
        t_vec = float("nan")
        if n <= 1000:
            vec = FiniteScores(list_hypotheses(Intervals(n)))
            one_selection(vec, mech, SeededBackend(2), rng, x, y)  # fill the column cache (as in a long run)
            t_vec = np.median([one_selection(vec, mech, SeededBackend(2), rng, x, y) for _ in range(3)])
        rows.append((n, k, m, t_closed, t_vec))
        print(f"n={n:<22} examples={k:<7} m={m:<7} closed form {1e3 * t_closed:9.2f} ms   vector {1e3 * t_vec:9.2f} ms")
    lines = [
        "# One selection on intervals: IntervalScores (two-stage O(m) draw) vs the vector of scores (FiniteScores)",
        "",
        "`nice -n 10 python benchmarks/bench_interval_scores.py`. Median time of one selection (cells + release + "
        "decode), ε_EM = 0.8, seeded backend; the vector's column cache filled beforehand (as in a long run); "
        "— : the class is too large to list (more than 2²⁰ intervals).",
        "",
        "| n | examples | m (distinct) | closed form (ms) | vector of scores (ms) |",
        "|---|---|---|---|---|",
    ]
    for n, k, m, a, b in rows:
        vec = "—" if np.isnan(b) else f"{1e3 * b:,.1f}"
        lines.append(f"| {n:,} | {k:,} | {m:,} | {1e3 * a:,.2f} | {vec} |")
    out = Path(__file__).parent / "results" / "interval_scores.md"
    out.write_text("\n".join(lines) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
