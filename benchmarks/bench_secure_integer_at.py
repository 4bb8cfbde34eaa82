"""Issue 27 target "the secure backend within 3× of seeded": rounds per second of the practical private online
learners' vectorised ``run`` on the seeded backend, on the secure backend (the AboveThresholds on the integer counts,
unit grid, dyadic discrete Laplace — the default), and on the secure backend's previous path (the 2^-10 grid with the
exact discrete Laplace at scale c·1025/ε, forced here for comparison), all in the same process; plus the samplers'
cost per draw.

Each cell: an i.i.d. realizable stream of T rounds (target and points from the class's own laws, fixed per class),
a fresh learner per repetition (ε = 1), the wall time of ``run`` only; one warm-up run per backend first (imports,
the Numba kernel's load). Figures: min / median / max rounds per second over ``--repeats`` runs; the ratio is
seeded median / secure median.

    PYTHONPATH=src python benchmarks/bench_secure_integer_at.py [--T 1000000] [--repeats 5]

Writes benchmarks/results/secure_integer_at.md (``--out`` to write elsewhere).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from littlestone.classes.spec import parse_class_spec
from littlestone.experiments.private_online import make_learner
from littlestone.privacy import above_threshold as at_module
from littlestone.privacy import exact_sampling as es

CELLS = [
    ("thresholds:8", "bisect"),
    ("thresholds:2^60", "bisect"),
    ("thresholds:8", "listat"),
    ("random:16x20:0", "listat"),
    ("points:2^60", "points-at"),
    ("intervals:2^16", "intervals-at"),
]


def stream(spec: str, T: int) -> tuple[np.ndarray, np.ndarray]:
    H = parse_class_spec(spec)
    rng = np.random.default_rng(27)
    target = H.random_hypothesis(rng)
    pts = H.uniform_points()
    X = np.array([pts(rng) for _ in range(T)]) if callable(pts) else np.asarray(pts)[rng.integers(0, len(pts), T)]
    return X, np.asarray(target.predict(X)).astype(np.int8)


@contextmanager
def previous_secure_path():
    """The secure path before issue 27's fast path: every AboveThreshold on the 2^-10 grid (integer_queries off)."""
    original = at_module.AboveThreshold.__init__

    def init(self, *args, **kwargs):
        kwargs["integer_queries"] = False
        original(self, *args, **kwargs)

    at_module.AboveThreshold.__init__ = init
    try:
        yield
    finally:
        at_module.AboveThreshold.__init__ = original


def rates(spec: str, name: str, backend: str, X: np.ndarray, y: np.ndarray, repeats: int) -> list[float]:
    H = parse_class_spec(spec)
    make_learner(name, H, 1000, 1.0, 1e-6, backend, 0).run(X[:1000], y[:1000])  # warm-up
    out = []
    for r in range(repeats):
        lrn = make_learner(name, H, len(X), 1.0, 1e-6, backend, r + 1)
        t0 = time.perf_counter()
        lrn.run(X, y)
        out.append(len(X) / (time.perf_counter() - t0))
    return out


def fmt(v: list[float]) -> str:
    return f"{min(v) / 1e6:.2f} / {statistics.median(v) / 1e6:.2f} / {max(v) / 1e6:.2f}"


def sampler_rows(n: int, repeats: int) -> list[str]:
    rows = []
    for label, fn in [
        ("dyadic, b = 1 (step AT at ε = 1, unit grid)", lambda: es.discrete_laplace_at_least(1.0, n)),
        ("dyadic, b = 4 (standard AT query noise, unit grid)", lambda: es.discrete_laplace_at_least(4.0, n)),
        ("exact DLap, b = 1025 (step AT at ε = 1, 2^-10 grid)", lambda: es.discrete_laplace(1025.0, n)),
        ("exact DLap, b = 1 ", lambda: es.discrete_laplace(1.0, n)),
    ]:
        fn()
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t0) / n * 1e9)
        rows.append(f"| {label} | {min(times):.0f} / {statistics.median(times):.0f} / {max(times):.0f} |")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--T", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "secure_integer_at.md"))
    a = ap.parse_args()
    lines = [
        "## The secure backend's fast path for running counts (`bench_secure_integer_at.py`)",
        "",
        f"`PYTHONPATH=src python benchmarks/bench_secure_integer_at.py --T {a.T} --repeats {a.repeats}` — "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
        f"{' / '.join(f'{x:.1f}' for x in os.getloadavg())} on the shared 2-core machine, Python "
        f"{sys.version.split()[0]}. Millions of rounds per second of the vectorised `run` over an i.i.d. realizable "
        f"stream of T = {a.T:,} rounds, ε = 1, min / median / max of {a.repeats} fresh learners after one warm-up; "
        "ratio = seeded median / secure median (target: ≤ 3).",
        "",
        "| class | learner | seeded | secure (integer path) | ratio | secure, previous 2^-10 grid path | ratio |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for spec, name in CELLS:
        X, y = stream(spec, a.T)
        seeded = rates(spec, name, "seeded", X, y, a.repeats)
        secure = rates(spec, name, "secure", X, y, a.repeats)
        with previous_secure_path():
            old = rates(spec, name, "secure", X, y, max(2, a.repeats // 2))
        med = statistics.median
        row = (
            f"| {spec} | {name} | {fmt(seeded)} | {fmt(secure)} | {med(seeded) / med(secure):.2f}× | {fmt(old)} | "
            f"{med(seeded) / med(old):.1f}× |"
        )
        print(row, flush=True)
        lines.append(row)
    lines += [
        "",
        "Samplers, ns per draw (min / median / max of the repetitions, blocks of 65,536 draws):",
        "",
        "| sampler | ns per draw |",
        "|---|---:|",
        *sampler_rows(1 << 16, a.repeats),
        "",
    ]
    Path(a.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines[-8:]))
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
