"""The SecureBackend's discrete-Laplace sampler: µs per draw of the native exact sampler
(``SecureBackend("native")``, littlestone.privacy.exact_sampling, CKS20 Alg. 1–2 vectorised over os.urandom) against
OpenDP's (``SecureBackend("opendp")``, the reference, same law) and the seeded NumPy backend (not floating-point safe,
the speed floor), in the same run, for request sizes 1 (one value per call), 64 (AboveThreshold's batch) and 2^16
(a NoiseStream block), at scales 1, 4·1025/0.5 (AboveThreshold's grid scale at ε = 0.5) and raw float Laplace(8).

CPU seconds (``time.process_time``) over a fixed number of draws per cell after one warm-up call (warm: imports and
OpenDP's measurement caches loaded); load average printed.

Usage: .venv/bin/python benchmarks/bench_secure_sampler.py [--draws 200000]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from littlestone.privacy import SecureBackend, SeededBackend

CALLS = {"native": SecureBackend("native"), "opendp": SecureBackend("opendp"), "seeded": SeededBackend(0)}


def per_draw(backend, kind: str, scale: float, size: int, draws: int) -> float:
    f = backend.discrete_laplace if kind == "discrete" else backend.laplace
    f(scale, size)  # warm
    calls = max(1, draws // size)
    t0 = time.process_time()
    for _ in range(calls):
        f(scale, size)
    return (time.process_time() - t0) / (calls * size) * 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--draws", type=int, default=200_000, help="draws per cell (OpenDP cells: a tenth)")
    args = ap.parse_args()
    load = os.getloadavg()
    print(
        f"Python {platform.python_version()}; load average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f}; "
        "CPU µs per draw (process_time), warm"
    )
    print("| noise | scale | draws per call | native µs | OpenDP µs | seeded NumPy µs | OpenDP / native |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kind, scale in (("discrete", 1.0), ("discrete", 4 * 1025 / 0.5), ("float", 8.0)):
        for size in (1, 64, 1 << 16):
            row = {}
            for name, be in CALLS.items():
                n = args.draws // 10 if name == "opendp" else args.draws
                row[name] = per_draw(be, kind, scale, size, max(n, size))
            print(
                f"| {kind} Laplace | {scale:g} | {size:,} | {row['native']:.3f} | {row['opendp']:.3f} | "
                f"{row['seeded']:.3f} | {row['opendp'] / row['native']:.1f}× |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
