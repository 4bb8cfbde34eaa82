"""Practical private online learners (issue 27): mistakes of ListAT / BisectAT against the library's adversaries, and
their vectorised throughput on both backends.

Games: each adversary of ``littlestone.online.ADVERSARIES`` (late-commitment, disagreement, tree, iid) sees the
released hypothesis h_t before it picks round t (LWY25 §3), seeds 1–2, ε = 1; the worst over seeds and adversaries
is reported beside the learner's theory bound (``littlestone bounds listat / bisectat``, β = 0.1). A game is played
round by round (the adversaries are Python per round): ``x = adversary.propose(t)``, ``p = h_t(x)`` with
``h_t = learner.hypothesis()``, ``y = adversary.reveal(t, x, p)``, ``learner.learn_one(x, y)`` — the loop of
``littlestone.online.play`` without its transcript.

Throughput: ``learner.run(X, y)`` on an oblivious i.i.d. realizable stream of 10⁶ rounds, seeded and secure backends,
best of 3, beside LWY25's vectorised run on the same stream (baseline, d = 1).

    PYTHONPATH=src python benchmarks/bench_practical_private_online.py   # T = 10⁵, every case, every adversary
    PYTHONPATH=src python benchmarks/bench_practical_private_online.py --T 1e6 --cases 2,3,7,6 \
        --adversaries late-commitment,disagreement --no-throughput \
        --out benchmarks/results/practical_private_online_T1e6.md
    PYTHONPATH=src python benchmarks/bench_practical_private_online.py --quick --out /tmp/x.md   # T = 10⁴, smoke
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from littlestone.bounds.segment_learners import bisectat_bound, listat_bound
from littlestone.classes.spec import parse_class_spec
from littlestone.online import make_adversary
from littlestone.private_online import LWY25, BisectAT, ListAT

ADVERSARIES = ("late-commitment", "disagreement", "tree", "iid")
CASES = (  # (class spec, learner name)
    ("thresholds:2", "bisect"),
    ("thresholds:4", "bisect"),
    ("thresholds:8", "bisect"),
    ("thresholds:2^60", "bisect"),
    ("thresholds:2", "listat"),
    ("thresholds:4", "listat"),
    ("thresholds:8", "listat"),
    ("random:16x20:0", "listat"),
    ("random:256x40:0", "listat"),
)
LEARNERS = {"bisect": BisectAT, "listat": ListAT}


def play_game(learner: Any, adversary: Any, T: int, seed: int) -> int:
    adversary.watch(learner)
    adversary.start(np.random.default_rng(seed))
    mistakes = 0
    for t in range(T):
        x = adversary.propose(t)
        p = int(learner.hypothesis()(x))
        y = int(adversary.reveal(t, x, p))
        mistakes += p != y
        learner.learn_one(x, y)
    return mistakes


def bound_of(name: str, H: Any, T: int, eps: float) -> int:
    if name == "bisect":
        lo, hi, _ = H.version_space().threshold_interval()
        return bisectat_bound(hi - lo + 1, T, eps).mistakes
    return listat_bound(int(H.version_space().size()), T, eps).mistakes


def games(T: int, eps: float, cases: Any, adversaries: Any, seeds: Any) -> list[dict]:
    rows = []
    for spec, name in cases:
        H = parse_class_spec(spec)
        worst, cells = 0, []
        t0 = time.perf_counter()
        for adv in adversaries:
            for seed in seeds:
                learner = LEARNERS[name](H, T=T, epsilon=eps, backend="seeded", seed=seed)
                m = play_game(learner, make_adversary(adv, H, seed=seed), T, seed)
                cells.append(f"{adv}/{seed}: {m}")
                worst = max(worst, m)
                print(f"  {spec} {name} {adv} seed {seed}: {m}", file=sys.stderr, flush=True)
        rows.append(
            {
                "class": spec,
                "learner": name,
                "worst": worst,
                "bound": bound_of(name, H, T, eps),
                "cells": "; ".join(cells),
                "seconds": time.perf_counter() - t0,
            }
        )
    return rows


def throughput(n: int, eps: float) -> list[dict]:
    rng = np.random.default_rng(0)
    out = []
    for spec, name in (("thresholds:8", "bisect"), ("thresholds:2^60", "bisect"), ("random:16x20:0", "listat")):
        H = parse_class_spec(spec)
        target = H.random_hypothesis(rng)
        if spec.startswith("thresholds:2^60"):
            X = rng.integers(0, 2**60, n, dtype=np.int64)
        else:
            X = np.asarray(H.domain_points())[rng.integers(0, int(H.domain_size), n)]
        y = target.predict(X).astype(np.int8)
        row = {"class": spec, "learner": name}
        for backend in ("seeded", "secure"):
            best = np.inf
            for rep in range(3):
                kw = {"backend": "seeded", "seed": rep} if backend == "seeded" else {"backend": "secure"}
                learner = LEARNERS[name](H, T=n, epsilon=eps, **kw)
                t0 = time.perf_counter()
                learner.run(X, y)
                best = min(best, time.perf_counter() - t0)
            row[backend] = n / best
        out.append(row)
    # baseline: LWY25's vectorised run (d = 1, practical setting) on an i.i.d. stream of thresholds(2)
    H = parse_class_spec("thresholds:2")
    X = rng.integers(0, 2, n)
    y = (X >= 1).astype(np.int8)
    row = {"class": "thresholds:2", "learner": "lwy25-paper (baseline)"}
    for backend in ("seeded", "secure"):
        kw = {"backend": "seeded", "seed": 0} if backend == "seeded" else {"backend": "secure"}
        learner = LWY25(H, T=n, epsilon=eps, delta=1e-6, **kw)
        t0 = time.perf_counter()
        learner.run(X, y)
        row[backend] = n / (time.perf_counter() - t0)
    out.append(row)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--T", type=float, default=1e5)
    ap.add_argument("--epsilon", type=float, default=1.0)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cases", default="all", help="comma-separated indices into CASES, or 'all'")
    ap.add_argument("--adversaries", default=",".join(ADVERSARIES))
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--no-throughput", action="store_true")
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "practical_private_online.md"))
    a = ap.parse_args()
    T = 10_000 if a.quick else int(a.T)
    cases = CASES if a.cases == "all" else [CASES[int(i)] for i in a.cases.split(",")]
    seeds = [int(s) for s in a.seeds.split(",")]
    advs = a.adversaries.split(",")
    load = os.getloadavg()
    lines = [
        f"# Practical private online learners: T = {T:,}, ε = {a.epsilon:g}",
        "",
        f"load average at start: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (2 cores shared)",
        "",
    ]
    if not a.no_throughput:
        tp = throughput(1_000_000 if not a.quick else 100_000, a.epsilon)
        lines += [
            "| class | learner | rounds/s seeded | rounds/s secure | secure / seeded |",
            "|---|---|---:|---:|---:|",
        ]
        for r in tp:
            lines.append(
                f"| {r['class']} | {r['learner']} | {r['seeded']:,.0f} | {r['secure']:,.0f} | "
                f"{r['seeded'] / r['secure']:.2f}× slower |"
            )
        lines.append("")
        print("\n".join(lines), flush=True)
    rows = games(T, a.epsilon, cases, advs, seeds)
    lines += [
        f"Adversaries: {', '.join(advs)}; seeds {', '.join(map(str, seeds))}.",
        "",
        "| class | learner | worst mistakes | theory bound (β = 0.1) | every game | seconds |",
        "|---|---|---:|---:|---|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['class']} | {r['learner']} | {r['worst']:,} | {r['bound']:,} | {r['cells']} | {r['seconds']:.0f} |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
