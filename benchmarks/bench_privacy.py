"""Privacy mechanisms: per-element cost on both backends against the raw samplers (numpy.random.laplace, and one
vectorized OpenDP Laplace call), plus the naive 'one OpenDP call per element' pattern the backends avoid.

Usage: .venv/bin/python benchmarks/bench_privacy.py [--quick]
Writes benchmarks/results/privacy.md.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from littlestone.privacy import (
    AboveThreshold,
    BinaryMechanism,
    PrivacyBudget,
    RunningSumAboveThreshold,
    SecureBackend,
    SeededBackend,
    SparseVector,
    amplified_epsilon,
    bounded_histogram,
    exponential_mechanism,
    laplace_mechanism,
    report_noisy_max,
    sparse_selection,
    stable_histogram,
    subsample,
)
from littlestone.privacy.backends import _float_laplace, _float_laplace_sized, _int_laplace

HERE = Path(__file__).resolve().parent


def best_time(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def per_element_us(fn: Callable[[], object], n: int, repeat: int = 3) -> float:
    return best_time(fn, repeat) / n * 1e6


def workloads(n: int, rng: np.random.Generator) -> dict[str, tuple[int, Callable]]:
    """name -> (elements per call, f(backend) running the mechanism once on n elements)."""
    scores = rng.integers(0, 1000, size=n).astype(float)
    items = rng.zipf(1.5, size=n).tolist()
    lists = [[int(x) for x in rng.integers(0, max(n // 10, 1), size=3)] for _ in range(n)]
    vec = rng.random(n)
    stream = rng.random(n)

    def at_queries(be):
        at = AboveThreshold(1e12, 1.0, backend=be)
        for v in stream:
            at.test(v)

    def binary(be):
        bm = BinaryMechanism(n, 1.0, backend=be)
        for v in stream:
            bm.step(v)

    bits = (stream < 0.5).astype(int).tolist()

    def binary_discrete(be):
        bm = BinaryMechanism(n, 1.0, backend=be, discrete=True)
        for v in bits:
            bm.step(v)

    def sparse_vector(be):
        # c = n positives at threshold 0.5 on U[0,1] queries: it never halts and restarts after about every other
        # query, so this measures the restart path (a fresh threshold noise per run)
        sv = SparseVector(0.5, 1.0, n, backend=be)
        for v in stream:
            sv.test(v)

    def running_sum(be):
        rs = RunningSumAboveThreshold(n / 2.0, 1.0, backend=be)
        for v in stream:
            if rs.halted:
                rs.restart()
            rs.add(v)

    data = (stream < 0.3).astype(float)

    def subsampled_laplace(be):
        sub = subsample(data, n // 10, rng=3)
        laplace_mechanism(float(sub.sum()), 1.0, 1.0, backend=be)
        amplified_epsilon(1.0, 0.0, 0.1)

    def budget_charges(be):
        b = PrivacyBudget(1e9, 0.5, composition="advanced", delta_prime=1e-6)
        for _ in range(n):
            b.charge(1e-3)

    return {
        "backend.laplace (noise vector)": (n, lambda be: be.laplace(1.0, n)),
        "laplace_mechanism (vector)": (n, lambda be: laplace_mechanism(vec, 1.0, 1.0, backend=be)),
        "exponential_mechanism (n candidates)": (n, lambda be: exponential_mechanism(scores, 1.0, backend=be)),
        "report_noisy_max (n candidates)": (n, lambda be: report_noisy_max(scores, 1.0, backend=be)),
        "stable_histogram (n items)": (n, lambda be: stable_histogram(items, 1.0, 1e-6, backend=be)),
        "bounded_histogram (n items)": (n, lambda be: bounded_histogram(items, 1.0, 1e-6, backend=be)),
        "sparse_selection (n lists of 3)": (
            n,
            lambda be: sparse_selection(lists, 1.0, 1e-6, backend=be, max_list_size=3),
        ),
        "AboveThreshold (n queries)": (n, at_queries),
        "BinaryMechanism (n steps)": (n, binary),
        "BinaryMechanism, discrete (n steps of 0/1)": (n, binary_discrete),
        "SparseVector, restarts after ~every 2nd query (n queries)": (n, sparse_vector),
        "RunningSumAboveThreshold (n rounds)": (n, running_sum),
        "subsample n/10 of n + Laplace count (n records)": (n, subsampled_laplace),
        "PrivacyBudget.charge, advanced composition (n charges, no noise)": (n, budget_charges),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="smaller sizes (smoke run)")
    args = ap.parse_args()
    n = 2_000 if args.quick else 20_000
    rng = np.random.default_rng(0)

    # raw samplers (baselines)
    raw_numpy = per_element_us(lambda: np.random.default_rng(1).laplace(0, 1.0, n), n)
    meas = _float_laplace(1.0)
    zeros = [0.0] * n
    meas([0.0])  # warm up the OpenDP library
    raw_opendp = per_element_us(lambda: meas(zeros), n)
    sized = _float_laplace_sized(1.0, n)
    raw_opendp_sized = per_element_us(lambda: sized(zeros), n)
    izeros = [0] * n
    raw_opendp_int = per_element_us(lambda: _int_laplace(2.0)(izeros), n)
    k_naive = min(n, 2000)
    naive_opendp = per_element_us(lambda: [meas([0.0]) for _ in range(k_naive)], k_naive)

    rows = []
    for name, (elems, fn) in workloads(n, rng).items():
        seeded = per_element_us(lambda: fn(SeededBackend(2)), elems)
        secure = per_element_us(lambda: fn(SecureBackend()), elems, repeat=1 if not args.quick else 2)
        rows.append((name, elems, seeded, secure))
        print(f"{name:40s} seeded {seeded:8.3f} us/elem   opendp {secure:8.3f} us/elem", flush=True)

    lines = [
        "## Privacy mechanisms (noise backends, histograms, selection, streaming)",
        "",
        f"`.venv/bin/python benchmarks/bench_privacy.py` — Python {platform.python_version()}, 1 core, n = {n:,} "
        "elements per call (best of 3; OpenDP rows best of 1). Cost is wall time per element (µs). Baselines in the "
        "same run: the raw NumPy sampler `Generator.laplace(size=n)`, one vectorized OpenDP `make_laplace` call on "
        "n zeros, and the naive pattern of one OpenDP call per element.",
        "",
        "| raw sampler | µs / element |",
        "|---|---|",
        f"| numpy `Generator.laplace` (vector) | {raw_numpy:.4f} |",
        f"| OpenDP `make_laplace`, one call on a vector | {raw_opendp:.3f} |",
        f"| OpenDP `make_laplace`, sized domain, k = -60 (what `SecureBackend.laplace` uses) | {raw_opendp_sized:.3f} |",
        f"| OpenDP `make_laplace` on i64 (discrete Laplace), one call on a vector | {raw_opendp_int:.3f} |",
        f"| OpenDP `make_laplace`, one call per element (naive) | {naive_opendp:.2f} |",
        "",
        "| mechanism | seeded µs/elem | seeded / raw numpy | OpenDP µs/elem | OpenDP / raw OpenDP vector | naive per-element OpenDP / ours |",
        "|---|---|---|---|---|---|",
    ]
    for name, _, seeded, secure in rows:
        lines.append(
            f"| {name} | {seeded:.3f} | {seeded / raw_numpy:,.1f}x | {secure:.3f} | {secure / raw_opendp:.2f}x | "
            f"{naive_opendp / secure:,.1f}x |"
        )
    lines += [
        "",
        "Reading: the seeded backend costs a small multiple of raw NumPy (Python-level counting dominates the histograms "
        "and selection); on OpenDP every mechanism draws its data-independent noise in one vectorized call (AboveThreshold "
        "in batches of 64 and its threshold noises in batches of 16, BinaryMechanism all 2T node noises at construction), so it stays near the cost of the raw "
        "vectorized OpenDP sampler and far below one OpenDP call per element. Selection on OpenDP is one exact "
        "`make_noisy_max` call over all candidates; histograms use OpenDP's discrete Laplace on the integer counts "
        "(much cheaper than its float Laplace). `laplace_mechanism` on OpenDP adds the noise to the data inside OpenDP "
        "(exact, default granularity), hence the cost of the unsized float sampler. SparseVector pays one threshold "
        "noise per restart (pre-drawn 16 at a time). The subsampling row draws a single Laplace noise for n records. "
        "The PrivacyBudget row draws no noise (bookkeeping of advanced composition); its ratios only give the scale. "
        "OpenDP figures vary by about 2x between runs on the shared 2-core machine.",
        "",
    ]
    out = HERE / "results" / "privacy.md"
    out.parent.mkdir(exist_ok=True)
    tmp = out.with_suffix(".md.tmp")
    tmp.write_text("\n".join(lines))
    tmp.replace(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
