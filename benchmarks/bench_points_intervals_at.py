"""PointsAT on points(2^60) and IntervalsAT on intervals over 2^16 (issue 27 item 1c): mistakes against every
adversary of the library (littlestone.online.ADVERSARIES, adaptive ones see every released hypothesis), two seeds,
beside the theory bound; then rounds per second of the vectorised ``run`` (seeded and secure backends) against the
round-by-round protocol (the baseline, same learner, same stream).

    PYTHONPATH=src python benchmarks/bench_points_intervals_at.py [--T 1000000] [--seeds 1 2] [--out FILE]
        [--at step standard]   # the segments' AboveThreshold kinds to compare (same games, same seeds)

Writes benchmarks/results/points_intervals_at.md (a table per class, the throughput table, the load).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from littlestone.classes.spec import parse_class_spec
from littlestone.online import ADVERSARIES, make_adversary, play
from littlestone.private_online.intervals_at import IntervalsAT
from littlestone.private_online.points_at import PointsAT

CASES = (("points:2^60", PointsAT), ("intervals:2^16", IntervalsAT))


def games(
    T: int, seeds: list[int], lines: list[str], classes: list[str], adversaries: list[str], at: str = "step"
) -> None:
    for spec, cls in CASES:
        if spec not in classes:
            continue
        H = parse_class_spec(spec)
        bound = cls(H, T=T, epsilon=1.0, backend="seeded", seed=0, at=at).bound.mistake_bound
        title = f"{cls.__name__} ({at} AboveThreshold) on {spec}, T = {T:,}, ε = 1, β = 0.1 (theory bound {bound:,})"
        lines += [f"### {title}", ""]
        lines += ["| adversary | seed | mistakes | seconds |", "|---|---:|---:|---:|"]
        worst: dict[str, int] = {}
        for name in adversaries:
            for s in seeds:
                learner = cls(H, T=T, epsilon=1.0, backend="seeded", seed=s, at=at)
                t0 = time.perf_counter()
                r = play(learner, make_adversary(name, H, seed=s), T, seed=s)
                dt = time.perf_counter() - t0
                worst[name] = max(worst.get(name, 0), r.mistakes)
                lines.append(f"| {name} | {s} | {r.mistakes:,} | {dt:.0f} |")
                print(spec, at, name, s, r.mistakes, f"{dt:.0f}s", flush=True)
        adaptive = [v for k, v in worst.items() if k != "iid"]
        if adaptive:
            lines += ["", f"worst over the adaptive adversaries and seeds: **{max(adaptive):,}**", ""]


def stream(spec: str, n: int, rng: np.random.Generator) -> tuple:
    """A realizable fixed stream: points — the target 12345 on every 10th round (positive), uniform negatives;
    intervals — uniform points labelled by [1000, 40000]."""
    if spec.startswith("points"):
        X = rng.integers(0, 2**60, size=n, dtype=np.int64)
        X[::10] = 12345
        return X, (X == 12345).astype(np.int8)
    X = rng.integers(0, 2**16, size=n, dtype=np.int64)
    return X, ((X >= 1000) & (X <= 40000)).astype(np.int8)


def throughput(n: int, lines: list[str]) -> None:
    lines += ["", f"### rounds per second ({n:,}-round fixed stream; baseline: learn_one round by round)", ""]
    lines += ["| learner | backend | run (vectorised) r/s | learn_one r/s | mistakes |", "|---|---|---:|---:|---:|"]
    rng = np.random.default_rng(0)
    warm = PointsAT(parse_class_spec("points:16"), T=2000, epsilon=1.0, backend="secure")
    warm.run(np.full(2000, 3, dtype=np.int64), np.ones(2000, dtype=np.int8))  # imports OpenDP (≈ 1 s, once)
    for spec, cls in CASES:
        H = parse_class_spec(spec)
        X, y = stream(spec, n, rng)
        for backend in ("seeded", "secure"):
            kw = {"backend": "seeded", "seed": 1} if backend == "seeded" else {"backend": "secure"}
            learner = cls(H, T=n, epsilon=1.0, **kw)
            t0 = time.perf_counter()
            res = learner.run(X, y)
            fast = n / (time.perf_counter() - t0)
            m = min(n, 100_000)
            learner = cls(H, T=m, epsilon=1.0, **kw)
            t0 = time.perf_counter()
            for x, v in zip(X[:m].tolist(), y[:m].tolist()):
                learner.learn_one(x, v)
            slow = m / (time.perf_counter() - t0)
            lines.append(f"| {cls.__name__} on {spec} | {backend} | {fast:,.0f} | {slow:,.0f} | {res.mistakes} |")
            print(spec, backend, f"{fast:,.0f}", f"{slow:,.0f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--T", type=int, default=1_000_000)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--stream", type=int, default=1_000_000)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "points_intervals_at.md"))
    ap.add_argument("--skip-games", action="store_true")
    ap.add_argument("--skip-throughput", action="store_true")
    ap.add_argument("--classes", nargs="+", default=[c for c, _ in CASES])
    ap.add_argument("--adversaries", nargs="+", default=list(ADVERSARIES))
    ap.add_argument("--at", nargs="+", default=["step"], help="AboveThreshold kinds: step, monotone, standard")
    args = ap.parse_args()
    lines = ["## PointsAT / IntervalsAT (issue 27 item 1c)", "", f"load before: {os.getloadavg()}", ""]
    if not args.skip_games:
        for at in args.at:
            games(args.T, args.seeds, lines, args.classes, args.adversaries, at)
    if not args.skip_throughput:
        throughput(args.stream, lines)
    lines += ["", f"load after: {os.getloadavg()}", ""]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("wrote", args.out)


if __name__ == "__main__":
    main()
