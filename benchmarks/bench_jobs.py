"""`--jobs 2` against `--jobs 1` on whole commands (fresh processes: interpreter start-up, imports and worker start-up
all count), interleaved in the same run: BLM20 M at Theorem 1's size for d = 2 (thresholds on 6 points, seeded
backend, streamed examples), `littlestone demo --fast` and `littlestone demo`.

For each setting and workload it reports, over ``--repeats`` fresh runs (1, 2, 1, 2, ... interleaved):
* wall time, min and median;
* CPU of the command and all its workers (user + sys, ``wait4`` of the command, which includes its reaped
  children), median — the CPU ratio jobs 2 / jobs 1 is the overhead parallelism adds;
* CPU of the command's main process alone (user + sys read at its exit), median — with the fork backend this
  process also runs tasks, so on an idle machine the wall time of `--jobs 2` is at least
  max(main CPU, all CPU / 2), and the speed-up at most the "idle bound"
  CPU(jobs 1) / max(main CPU(jobs 2), CPU(jobs 2) / 2) — a figure a loaded machine does not depress (the main
  process's waits for its workers are not counted: the bound is reached when the work is balanced).
The wall speed-up is min wall(jobs 1) / min wall(jobs 2); on a shared machine it is capped by the CPU other jobs
leave free (the load average around the run is printed). Outputs of the two settings are asserted equal.

Usage: .venv/bin/python benchmarks/bench_jobs.py [--repeats 3] [--only blm20|demo-fast|demo]
Prints one line per workload ending in the speed-ups; writes benchmarks/results/jobs.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: runs argv[2:] (a script or the CLI) and writes this process's own CPU (user + sys) to the file argv[1] at exit
WRAP = """
import atexit, os, resource, sys
out = sys.argv[1]
def _cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    with open(out, "w") as f:
        f.write(repr(r.ru_utime + r.ru_stime))
atexit.register(_cpu)
sys.argv = sys.argv[2:]
if sys.argv[0] == "littlestone":
    from littlestone.cli import main  # the console script's entry point (atexit handlers run: see cli._finish)
    main()
else:
    exec(compile(sys.argv[1], "<bench>", "exec"))
"""
BLM20_D2 = """
import resource, sys
import littlestone.pac.global_stable as _gs
_split = []
_inner = _gs.map_seeded
def _timed(*a, **k):  # this process's CPU inside the parallel stage (G's runs), for the serial/parallel split
    c0 = resource.getrusage(resource.RUSAGE_SELF)
    try:
        return _inner(*a, **k)
    finally:
        c1 = resource.getrusage(resource.RUSAGE_SELF)
        _split.append(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime)
_gs.map_seeded = _timed
from littlestone import Thresholds
from littlestone.bounds.blm20 import theorem1
from littlestone.pac.blm20 import blm20_learn
from littlestone.pac.sources import RealizableStream, UniformIntegers
H = Thresholds(6)
rep = theorem1(2, 0.1, 1.0, 1e-6, 0.05)
src = RealizableStream(H.hypothesis(4), UniformIntegers(0, 6), rep.total, seed=0)
res = blm20_learn(H, src, epsilon=1.0, delta=1e-6, alpha=0.1, beta=0.05, backend="seeded", seed=0,
                  n_jobs=int(sys.argv[2]))
print("parallel-stage CPU", sum(_split), file=sys.stderr)
print(repr(res.chosen))
"""


def run(cmd: list[str]) -> tuple[float, float, float, str, float | None]:
    """(wall, CPU of the command and its reaped workers, CPU of its main process, last line printed, the main
    process's CPU inside the parallel stage when the command reports it)."""
    with tempfile.NamedTemporaryFile(suffix=".cpu", delete=False) as f:
        cpu_file = f.name
    try:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", WRAP, cpu_file, *cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out, err = proc.stdout.read(), proc.stderr.read()
        if proc.returncode != 0:
            raise SystemExit(f"{cmd} failed ({proc.returncode}):\n{err}")
        main_cpu = float(Path(cpu_file).read_text())
    finally:
        os.unlink(cpu_file)
    lines = out.strip().splitlines()
    par = [float(ln.split()[-1]) for ln in err.splitlines() if ln.startswith("parallel-stage CPU")]
    return wall, usage.ru_utime + usage.ru_stime, main_cpu, lines[-1] if lines else "", par[0] if par else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", choices=("blm20", "demo-fast", "demo"), action="append")
    args = ap.parse_args()
    load0 = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        workloads = {
            "blm20": ("BLM20 M, d = 2 (Theorem 1 size)", lambda j: ["-c", BLM20_D2, str(j)]),
            "demo-fast": (
                "littlestone demo --fast",
                lambda j: [
                    "littlestone",
                    "demo",
                    "--fast",
                    "--backend",
                    "seeded",
                    "--jobs",
                    str(j),
                    "-o",
                    str(Path(tmp) / f"report{j}"),
                ],
            ),
            "demo": (
                "littlestone demo",
                lambda j: [
                    "littlestone",
                    "demo",
                    "--backend",
                    "seeded",
                    "--jobs",
                    str(j),
                    "-o",
                    str(Path(tmp) / f"report{j}"),
                ],
            ),
        }
        for key, (name, make) in workloads.items():
            if args.only and key not in args.only:
                continue
            runs: dict[int, list[tuple[float, float, float]]] = {1: [], 2: []}
            par1: list[float] = []
            outs = {}
            for _ in range(args.repeats):
                for j in (1, 2):
                    wall, cpu, main_cpu, out, par = run(make(j))
                    runs[j].append((wall, cpu, main_cpu))
                    if j == 1 and par is not None:
                        par1.append(par)
                    outs[j] = out.replace(f"report{j}", "report")
            assert outs[1] == outs[2], (name, outs)
            w = {j: [r[0] for r in runs[j]] for j in runs}
            c = {j: statistics.median(r[1] for r in runs[j]) for j in runs}
            m = {j: statistics.median(r[2] for r in runs[j]) for j in runs}
            wall_ratio = min(w[1]) / min(w[2])
            idle = c[1] / max(m[2], c[2] / 2)
            wk = c[2] - m[2]  # CPU of the worker processes at jobs 2
            # Amdahl from the measured split at jobs 1: p = CPU inside the parallel stage (G's runs), s = the rest of
            # the process (start-up, imports, sizes, histogram, generic learner); bound = (s + p) / (s + p/2).
            p_par = statistics.median(par1) if par1 else float("nan")
            serial = c[1] - p_par
            amdahl = c[1] / (serial + p_par / 2)
            rows.append(
                (
                    name,
                    f"{min(w[1]):.1f} / {statistics.median(w[1]):.1f}",
                    f"{min(w[2]):.1f} / {statistics.median(w[2]):.1f}",
                    f"**{wall_ratio:.2f}×**",
                    f"{c[1]:.2f}",
                    f"{c[2]:.2f}",
                    f"{c[2] / c[1]:.2f}",
                    f"{m[2]:.2f}",
                    f"{wk:.2f}",
                    f"{serial:.2f} + {p_par:.2f}",
                    f"**{idle:.2f}×**",
                    f"**{amdahl:.2f}×**",
                )
            )
            print(
                f"{name}: wall jobs1 {min(w[1]):.2f} s, jobs2 {min(w[2]):.2f} s (min of {args.repeats}) → "
                f"speed-up {wall_ratio:.2f}×; CPU {c[1]:.2f} → {c[2]:.2f} s (×{c[2] / c[1]:.2f}), main process "
                f"{m[2]:.2f} s + worker {wk:.2f} s; jobs 1 split serial {serial:.2f} s + parallel {p_par:.2f} s → "
                f"idle bound {idle:.2f}×, "
                f"Amdahl {amdahl:.2f}×",
                flush=True,
            )
    load1 = os.getloadavg()
    lines = [
        "## `--jobs 2` vs `--jobs 1` (whole commands, fresh processes)",
        "",
        f"`.venv/bin/python benchmarks/bench_jobs.py --repeats {args.repeats}` — Python "
        f"{platform.python_version()}, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC; "
        f"load average (1 min) {load0[0]:.1f} before, {load1[0]:.1f} after. Each command runs in a fresh process "
        "(start-up, imports, worker start-up included), the two settings interleaved; same output asserted. "
        "Local backend: fork (workers forked at the call inherit imports, compiled kernels and the tasks; the "
        "calling process runs chunks too). Wall: min / median. CPU: median of the command and all its workers. "
        "Main CPU: median CPU of the command's main process at `--jobs 2`. Idle bound: CPU(jobs 1) / "
        "max(main CPU(jobs 2), CPU(jobs 2) / 2), the most an idle 2-core machine allows (reached when the "
        "work is balanced; a loaded machine depresses the wall ratio, not this bound). Worker CPU = CPU(jobs 2) − "
        "main CPU. Split s + p at jobs 1 (BLM20 only): p = CPU of the process inside the parallel stage (G's runs, "
        "`map_seeded`), s = the rest (start-up, imports, sizes, histogram, generic learner), medians; Amdahl bound "
        "= (s + p) / (s + p/2).",
        "",
        "| workload | wall, jobs 1 (s) | wall, jobs 2 (s) | wall speed-up | CPU, jobs 1 (s) | CPU, jobs 2 (s) | "
        "CPU ratio | main CPU, jobs 2 (s) | worker CPU, jobs 2 (s) | split s + p, jobs 1 (s) | idle bound | "
        "Amdahl bound |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    out = HERE / "results" / "jobs.md"
    tmp_out = out.with_suffix(".md.tmp")
    tmp_out.write_text("\n".join(lines) + "\n")
    tmp_out.replace(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
