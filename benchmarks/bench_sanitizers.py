"""Sanitizers at n = 10⁵ on a domain of 2¹⁶ points: MWEM for thresholds and for H^label (2¹⁷ labelled points),
against the simple private baseline (a Laplace histogram: Lap(2/ε) on each of the |X| counts, replace-one, then every
query answered from it) in the same run; the dyadic sequential sanitizer (LWY25 Alg 5) around MWEM on a stream.
The realizable sanitizer (Thm E.5) builds X_(m,α/2) explicitly and is for tiny domains only (not timed here).

Usage: .venv/bin/python benchmarks/bench_sanitizers.py [--quick]
Writes benchmarks/results/sanitizers.md.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np

from littlestone.classes import LabelClass, Thresholds
from littlestone.sanitizers import MWEM, query_family
from littlestone.sanitizers.dyadic import DyadicSanitizer

HERE = Path(__file__).resolve().parent


def laplace_histogram_error(H, X, eps, seed):
    fam = query_family(H)
    hist = fam.histogram(X)
    noisy = np.clip(hist + np.random.default_rng(seed).laplace(0, 2.0 / eps, hist.size), 0, None)
    est = fam.answers(noisy) / noisy.sum()
    return float(np.max(np.abs(est - fam.answers(hist) / hist.sum())))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    n, N = (10_000, 2**12) if a.quick else (100_000, 2**16)
    rng = np.random.default_rng(0)
    X = np.clip(rng.normal(N * 0.3, N * 0.05, n).astype(int), 0, N - 1)
    Y = (X > N * 0.32).astype(int)
    Y[rng.random(n) < 0.1] ^= 1
    rows = []
    for name, H, data in [
        ("thresholds", Thresholds(N), X),
        ("label(thresholds)", LabelClass(Thresholds(N)), np.c_[X, Y]),
    ]:
        for backend in ("seeded", "secure"):
            t0 = time.perf_counter()
            m = MWEM(H, 1.0, reuse=0, seed=0, backend=backend).fit(data)
            sec = time.perf_counter() - t0
            rows.append((f"MWEM {name} ({backend})", sec, m.max_error(data), m.error_bound(), m.iterations_))
            print(rows[-1], flush=True)
        t0 = time.perf_counter()
        err = laplace_histogram_error(H, data, 1.0, 0)
        rows.append((f"Laplace histogram {name} (baseline)", time.perf_counter() - t0, err, float("nan"), 0))
    Ts = 256 if a.quick else 1024
    t0 = time.perf_counter()
    d = DyadicSanitizer(
        Ts,
        1.0,
        0.0,
        lambda e, dl, k, i: MWEM(Thresholds(N), e, iterations=max(1, min(8, k)), reuse=0, backend="seeded", seed=i),
    )
    for t in range(Ts):
        d.learn_one(int(X[t]))
    rows.append(
        (
            f"DyadicSanitizer(MWEM) stream of {Ts}",
            time.perf_counter() - t0,
            float("nan"),
            float("nan"),
            len(d.synthetic_),
        )
    )
    lines = [
        f"## Sanitizers (n = {n:,}, |X| = {N:,}, ε = 1)",
        "",
        f"`.venv/bin/python benchmarks/bench_sanitizers.py{' --quick' if a.quick else ''}` — "
        f"{platform.python_version()}, numpy {np.__version__}.",
        "",
        "| sanitizer | seconds | max query error | proven bound (β = 0.05) | iterations / runs |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, sec, err, bound, it in rows:
        e = "—" if err != err else f"{err:.4f}"
        b = "—" if bound != bound else f"{bound:.3f}"
        lines.append(f"| {name} | {sec:.2f} | {e} | {b} | {it:,} |")
    lines += [
        "",
        "The Laplace histogram's error on thresholds grows with the number of bins a query sums (√|X|·2/ε "
        "noise over n); MWEM's does not depend on |X| beyond √ln|X|. The secure backend runs OpenDP's exact "
        "noisy-max over all 2¹⁶+1 scores every iteration.",
        "",
    ]
    out = HERE / "results" / "sanitizers.md"
    out.write_text("\n".join(lines))
    print(out.read_text())


if __name__ == "__main__":
    main()
