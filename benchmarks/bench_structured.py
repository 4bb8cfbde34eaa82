"""Structured classes on 2^60-point domains vs their explicit FiniteClass twins on small domains.

Times (µs per call, median over random realizable version spaces, caches cleared before each Ldim/SOA call):
restrict, Ldim, SOA prediction at a random point, split point. Writes benchmarks/results/structured.md.
Usage: .venv/bin/python benchmarks/bench_structured.py [--reps 200]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from littlestone.classes import (
    AffineSubspaces,
    AllFunctions,
    Conjunctions,
    Intervals,
    Points,
    PointsAndNegations,
    Thresholds,
    to_finite,
)
from littlestone.classes import intervals as intervals_mod
from littlestone.classes import points_negations as pn_mod

OUT = Path(__file__).resolve().parent / "results" / "structured.md"
N60 = 2**60


def clear_caches(H: Any, *spaces: Any) -> None:
    """Cold means cold: every memo that could answer the next call is dropped — the module-level memos of the
    structured classes, the finite twin's Ldim solver (its bounds memo and compact frames) and SOA cache
    (``FiniteClass.clear_caches``), and the per-version-space caches of the spaces about to be queried."""
    intervals_mod.gap_family_ldim.cache_clear()
    intervals_mod.gap_family_at_least.cache_clear()
    pn_mod.count_ldim.cache_clear()
    if hasattr(H, "clear_caches"):
        H.clear_caches()
    for V in spaces:
        cache = getattr(V, "_cache", None)
        if isinstance(cache, dict):
            cache.clear()


def int_points(n: int) -> Callable[[np.random.Generator], Any]:
    return lambda rng: int(rng.integers(0, n))


def cube_points(nv: int, q: int = 2) -> Callable[[np.random.Generator], Any]:
    return lambda rng: tuple(int(v) for v in rng.integers(0, q, nv))


def random_version_space(
    H: Any, draw: Callable, rng: np.random.Generator, max_examples: int = 4, negatives_only: bool = False
) -> tuple[Any, list]:
    """Restrict by up to `max_examples` examples labelled by a hypothesis of the current version space."""
    V = H.version_space()
    examples = []
    for _ in range(int(rng.integers(0, max_examples + 1))):
        x = draw(rng)
        y0, y1 = V.restrict(x, 0), V.restrict(x, 1)
        choices = [(y, W) for y, W in ((0, y0), (1, y1)) if not W.is_empty() and (y == 0 or not negatives_only)]
        y, V = choices[int(rng.integers(len(choices)))]
        examples.append((x, y))
    return V, examples


def timed(fn: Callable[[], Any], reps: int = 1) -> float:
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) / reps * 1e6


def measure(H: Any, draw: Callable, reps: int, seed: int, negatives_only: bool = False) -> dict:
    rng = np.random.default_rng(seed)
    spaces = [random_version_space(H, draw, rng, negatives_only=negatives_only)[0] for _ in range(reps)]
    xs = [draw(rng) for _ in range(reps)]
    out: dict[str, list[float]] = {"restrict": [], "ldim": [], "soa": [], "split": []}
    for V, x in zip(spaces, xs):
        out["restrict"].append(timed(lambda: V.restrict(x, 0), 5))
        W = V.restrict(x, 0) if negatives_only or V.restrict(x, 1).is_empty() else V.restrict(x, 1)
        clear_caches(H, V, W)
        out["ldim"].append(timed(W.ldim))
        clear_caches(H, V)
        out["soa"].append(timed(lambda: V.soa_predict(x)))
        clear_caches(H, V)
        out["split"].append(timed(V.split_point))
    return {k: statistics.median(v) for k, v in out.items()} | {"ldim_value": H.ldim()}


CASES: list[tuple[str, Callable[[], Any], Callable, str, Callable[[], Any], Callable]] = [
    (
        "thresholds(2^60)",
        lambda: Thresholds(N60),
        int_points(N60),
        "thresholds(63)",
        lambda: to_finite(Thresholds(63)),
        int_points(63),
    ),
    (
        "points (64-bit ints)",
        lambda: Points(),
        int_points(N60),
        "points(64)",
        lambda: to_finite(Points(range(64))),
        int_points(64),
    ),
    (
        "intervals(2^60)",
        lambda: Intervals(N60),
        int_points(N60),
        "intervals(24)",
        lambda: to_finite(Intervals(24)),
        int_points(24),
    ),
    (
        "intervals(2^60), negatives only",
        lambda: Intervals(N60),
        int_points(N60),
        "intervals(24)",
        lambda: to_finite(Intervals(24)),
        int_points(24),
    ),
    (
        "allfunctions(2^60)",
        lambda: AllFunctions(N60),
        int_points(N60),
        "allfunctions(8)",
        lambda: to_finite(AllFunctions(8)),
        int_points(8),
    ),
    (
        "conjunctions(60 vars)",
        lambda: Conjunctions(60),
        cube_points(60),
        "conjunctions(4 vars)",
        lambda: to_finite(Conjunctions(4)),
        cube_points(4),
    ),
    (
        "affine(F_2^60, dim ≤ 3)",
        lambda: AffineSubspaces(2, 60, 3),
        cube_points(60),
        "affine(F_2^4, dim ≤ 2)",
        lambda: AffineSubspaces(2, 4, 2).twin(),
        cube_points(4),
    ),
    (
        "conjunctions(60 vars), negatives only",
        lambda: Conjunctions(60),
        cube_points(60),
        "conjunctions(4 vars)",
        lambda: to_finite(Conjunctions(4)),
        cube_points(4),
    ),
    (
        "pointsneg (infinite)",
        lambda: PointsAndNegations(),
        int_points(N60),
        "pointsneg(24)",
        lambda: to_finite(PointsAndNegations(range(24))),
        int_points(24),
    ),
]


def stream(H: Any, target: Any, draw: Callable, rounds: int, seed: int) -> tuple[float, int]:
    """µs per example of the SOA loop (soa_predict, then restrict by the true label) and its mistakes."""
    rng = np.random.default_rng(seed)
    xs = [draw(rng) for _ in range(rounds)]
    ys = [int(target(x)) for x in xs]
    V, mistakes = H.version_space(), 0
    t0 = time.perf_counter()
    for x, y in zip(xs, ys):
        mistakes += int(V.soa_predict(x) != y)
        V = V.restrict(x, y)
    return (time.perf_counter() - t0) / rounds * 1e6, mistakes


STREAMS: list[tuple[str, Callable[[], Any], Callable[[Any], Any], Callable]] = [
    ("points", lambda: Points(), lambda H: H.hypothesis(5), int_points(N60)),
    ("intervals(2^60), tiny target", lambda: Intervals(N60), lambda H: H.hypothesis(5, 10), int_points(N60)),
    (
        "intervals(2^60), wide target",
        lambda: Intervals(N60),
        lambda H: H.hypothesis(N60 // 3, N60 // 2),
        int_points(N60),
    ),
    (
        "conjunctions(60 vars), 3 literals",
        lambda: Conjunctions(60),
        lambda H: H.hypothesis([(0, 1), (1, 0), (2, 1)]),
        cube_points(60),
    ),
    (
        "affine(F_2^60, dim ≤ 3), a line",
        lambda: AffineSubspaces(2, 60, 3),
        lambda H: H.flat((0,) * 60, [(1,) + (0,) * 59]),
        cube_points(60),
    ),
    (
        "pointsneg, a negated point",
        lambda: PointsAndNegations(),
        lambda H: H.negated_point_function(5),
        int_points(N60),
    ),
]
TWIN_STREAMS: dict[str, tuple[Callable[[], Any], Callable[[Any], Any], Callable]] = {
    "points": (lambda: to_finite(Points(range(64))), lambda F: F.hypothesis(6), int_points(64)),
    "intervals": (lambda: to_finite(Intervals(24)), lambda F: F.hypothesis(30), int_points(24)),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reps", type=int, default=200)
    args = ap.parse_args()
    rows = []
    for name, make, draw, twin_name, make_twin, twin_draw in CASES:
        H, T = make(), make_twin()
        neg = name.endswith("negatives only")
        s = measure(H, draw, args.reps, seed=1, negatives_only=neg)
        t = measure(T, twin_draw, max(20, args.reps // 4), seed=1, negatives_only=neg)
        rows.append((name, s, twin_name, T, t))
        print(
            f"{name:28s} Ldim {s['ldim_value']:>4}  restrict {s['restrict']:8.1f}  ldim {s['ldim']:9.1f}  "
            f"soa {s['soa']:9.1f}  split {s['split']:9.1f} µs | twin {twin_name}: ldim {t['ldim']:9.1f} "
            f"soa {t['soa']:9.1f}",
            flush=True,
        )
    lines = [
        "## Structured hypothesis classes (closed-form version spaces)",
        "",
        f"`.venv/bin/python benchmarks/bench_structured.py --reps {args.reps}` — Python {platform.python_version()}, "
        '1 core. Median µs per call over random realizable version spaces (0–4 examples, labels drawn from the version space; "negatives only" rows use label 0 throughout, the hardest states), every cache cleared before '
        "each Ldim / SOA / split-point call (cold: the structured classes' module memos, the twin's Ldim solver "
        "memo and SOA cache via `FiniteClass.clear_caches()`, and the queried version spaces' own caches — an earlier "
        "version of this benchmark left the twin's solver memo warm, which understated the speed-ups). Baseline: the explicit `FiniteClass` twin of the same class on "
        "a small domain (bitset version spaces, memoized exact Ldim recursion, also cold); the structured class "
        "answers on a 2^60-point domain where no explicit twin can exist.",
        "",
        "| class (domain 2^60) | Ldim | restrict µs | Ldim µs | SOA predict µs | split point µs | twin baseline "
        "(|H| × |X|) | twin Ldim µs | twin SOA predict µs | Ldim speed-up vs twin |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, s, twin_name, T, t in rows:
        ratio = t["ldim"] / s["ldim"] if s["ldim"] > 0 else float("inf")
        lines.append(
            f"| {name} | {s['ldim_value']} | {s['restrict']:.1f} | {s['ldim']:.1f} | {s['soa']:.1f} | "
            f"{s['split']:.1f} | {twin_name} ({T.n_hypotheses} × {T.n_points}) | {t['ldim']:.1f} | "
            f"{t['soa']:.1f} | {ratio:.2g}x |"
        )
    rounds = max(2000, args.reps * 50)
    lines += [
        "",
        f"Long streams: the SOA loop (`soa_predict`, then `restrict` by the true label) over {rounds} i.i.d. "
        "uniform examples of the 2^60 domain labelled by a fixed target — almost all negative, the hardest case "
        "for version spaces that must remember every negative example (persistent sets keep each step "
        "O(log² r)). Baseline: the same loop on an explicit twin (64 / 24 points).",
        "",
        "| stream | µs per example | SOA mistakes | explicit-twin baseline µs per example |",
        "|---|---|---|---|",
    ]
    for name, make, target, draw in STREAMS:
        H = make()
        us, m = stream(H, target(H), draw, rounds, seed=2)
        twin = TWIN_STREAMS.get(name.split("(")[0].split(",")[0])
        base = "—"
        if twin is not None:
            F = twin[0]()
            base = f"{stream(F, twin[1](F), twin[2], rounds, seed=2)[0]:.1f}"
        print(f"stream {name:40s} {us:8.1f} µs/example, {m} mistakes (twin {base})", flush=True)
        lines.append(f"| {name} | {us:.1f} | {m} | {base} |")
    lines += [
        "",
        "Notes: intervals without a positive example play the weight-splitting game (a compiled greedy run per "
        "query; greedy successes are proofs, its failures are verified exhaustively on small gap sets, see "
        "`classes/intervals.py`); after a positive every query is O(1). Conjunctions and affine subspaces run exact "
        "hitting-set / witness-flat searches whose cost grows with the number of negative examples. pointsneg "
        "recomputes its tiny memoized count recursion from scratch in the cold columns (warm: ~1 µs).",
    ]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    tmp = OUT.with_suffix(".md.tmp")
    tmp.write_text("\n".join(lines) + "\n")
    tmp.replace(OUT)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
