"""Private online learners: LWY25 (practical setting) over T = 10⁷ rounds at d = 1 and d = 2, against the
non-private SOA over the same stream in the same run (baseline ratio = LWY25 time / SOA time).

Stream: thresholds(2) (d = 1) and thresholds(4) (d = 2), x_t uniform, labels of the threshold t = 0 (SOA(∅) errs on
half resp. three quarters of the points). LWY25 runs its vectorized ``run`` (rounds between two AboveThreshold events
as NumPy blocks; Laplace noise drawn in vectors); the SOA baseline is vectorized the same way (predict a block with
the current SOA hypothesis, update at the first mistake). Seeded backend (reproducible) and the secure backend with
its native exact sampler (``LITTLESTONE_SECURE_SAMPLER=native``, littlestone.privacy.exact_sampling) at T rounds, and the
secure backend with OpenDP's samplers (``LITTLESTONE_SECURE_SAMPLER=opendp``, the reference) on min(T, 10⁶) rounds. Wall and
CPU seconds per row, load average at the start. Peak memory = max resident set size of the process.

Usage: .venv/bin/python benchmarks/bench_private_online.py [--T 10000000] [--quick] [--gl21 T]
Writes benchmarks/results/private_online.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import time
from pathlib import Path

import numpy as np

from littlestone import Thresholds
from littlestone.experiments.private_online import soa_mistakes as soa_run
from littlestone.private_online import LWY25
from littlestone.privacy.backends import SAMPLER_ENV

HERE = Path(__file__).resolve().parent
OUT = HERE / "results" / "private_online.md"


def one(d: int, T: int, backend: str) -> dict:
    n = {1: 2, 2: 4}[d]
    H = Thresholds(n)
    rng = np.random.default_rng(d)
    X = rng.integers(0, n, T)
    y = (X >= 0).astype(np.int8)
    t0 = time.perf_counter()
    base = soa_run(H, X, y)
    t_soa = time.perf_counter() - t0
    if backend == "seeded":
        kw = {"backend": "seeded", "seed": 1}
    else:  # "secure-native" / "secure-opendp": the SecureBackend with that sampler (the learners build their own
        # SecureBackend()s, which read the switch from the environment)
        os.environ[SAMPLER_ENV] = backend.split("-")[1]
        kw = {"backend": "secure"}
    t0, c0 = time.perf_counter(), time.process_time()
    learner = LWY25(H, T=T, epsilon=1.0, delta=1e-6, **kw)
    res = learner.run(X, y)
    t_lwy, c_lwy = time.perf_counter() - t0, time.process_time() - c0
    st = learner.state()
    return {
        "d": d,
        "T": T,
        "backend": backend,
        "lwy_s": t_lwy,
        "lwy_cpu": c_lwy,
        "soa_s": t_soa,
        "ratio": t_lwy / t_soa,
        "mistakes": res.mistakes,
        "soa_mistakes": base,
        "setting": learner.setting,
        "layer": st["layer"],
        "lists": st["list_sizes"],
        "halted": st["halted"],
        "us_per_round": 1e6 * t_lwy / T,
    }


def gl21_rows(T: int) -> None:
    """GL21 on thresholds(4) (labels of the threshold 2), T rounds, seeded vs secure (native and OpenDP samplers):
    prints one line per backend with wall and CPU seconds (the other per-round private learner)."""
    from littlestone.private_online import GL21

    H = Thresholds(4)
    rng = np.random.default_rng(2)
    X = rng.integers(0, 4, T)
    y = (X >= 2).astype(np.int8)
    for backend in ("seeded", "secure-native", "secure-opendp"):
        if backend == "seeded":
            kw = {"backend": "seeded", "seed": 0}
        else:
            os.environ[SAMPLER_ENV] = backend.split("-")[1]
            kw = {"backend": "secure"}
        t0, c0 = time.perf_counter(), time.process_time()
        res = GL21(H, T=T, epsilon=1.0, delta=1e-6, **kw).run(X, y)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(f"GL21 T={T:,} {backend}: wall {wall:.2f} s, CPU {cpu:.2f} s, mistakes {res.mistakes:,}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--T", type=int, default=10_000_000)
    ap.add_argument("--quick", action="store_true", help="T = 10⁶")
    ap.add_argument(
        "--gl21", type=int, metavar="T", help="only GL21 at T rounds, three backends (printed, not written)"
    )
    args = ap.parse_args()
    if args.gl21:
        print(f"load average {os.getloadavg()[0]:.1f}")
        gl21_rows(args.gl21)
        return 0
    T = 1_000_000 if args.quick else args.T
    load = os.getloadavg()
    rows = [
        one(1, T, "seeded"),
        one(2, T, "seeded"),
        one(1, T, "secure-native"),
        one(2, T, "secure-native"),
        one(1, min(T, 1_000_000), "secure-opendp"),
    ]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    for r in rows:
        print(r)
    lines = [
        "## Private online learning (LWY25, practical setting)",
        "",
        f"`{Path(__file__).name}` — LWY25 `run` over T rounds of thresholds(2) (d = 1) and thresholds(4) (d = 2), "
        "uniform points, target threshold 0; baseline: the non-private SOA over the same stream, vectorized alike, "
        "in the same run. ε = 1, δ = 10⁻⁶, β = 0.1. Python " + platform.python_version() + f". Warm process "
        f"(rows run one after another); load average at the start {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} "
        "(1/5/15 min) on a shared 2-core machine. Ratio = LWY25 wall / SOA wall.",
        "",
        "| d | T | backend | LWY25 wall (s) | LWY25 CPU (s) | µs/round (wall) | SOA baseline (s) | ratio | "
        "LWY25 mistakes | SOA mistakes | final layer | list sizes | setting |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['d']} | {r['T']:,} | {r['backend']} | {r['lwy_s']:.2f} | {r['lwy_cpu']:.2f} | "
            f"{r['us_per_round']:.3f} | "
            f"{r['soa_s']:.3f} | {r['ratio']:.1f} | {r['mistakes']:,} | {r['soa_mistakes']} | {r['layer']} | "
            f"{r['lists']} | {r['setting']} |"
        )
    lines += [
        "",
        f"Peak resident memory of the whole run: {peak:.0f} MiB (the stream arrays of T rounds included; "
        "the learner holds N₀ sequences of ≤ 2s + 1 examples).",
        "",
    ]
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text("\n".join(lines))
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
