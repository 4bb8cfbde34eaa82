"""Measure every duration the README states, on a fresh clone (issue 28 item 4), and print them with the machine.

    .venv/bin/python benchmarks/measure_readme_times.py [--repo PATH_OR_URL] [--make] [--long]

Clones the repository (default: this checkout's HEAD) into a temporary directory and, in the clone, times with
wall clock and CPU (user + system of the child processes):

* set-up: the ahead-of-time build of the BLM20 kernels (``python -m littlestone.pac._kernels_build``, what
  ``make venv`` adds to ``pip install``); with ``--make`` the whole ``make venv`` instead (a new .venv, pip install:
  needs the package index);
* ``littlestone demo`` — the job ``make demo`` runs after the set-up — and ``littlestone demo --fast --online``;
* ``littlestone audit --all --runs 500 --seed 1`` (the README's quick form); ``--long`` adds ``--runs 5000``.

Without ``--make`` the clone runs on this interpreter (its installed dependencies) with ``PYTHONPATH=<clone>/src``,
so nothing is downloaded. Prints a table and one README-ready line per command; the load average is printed at
start and end (a busy machine inflates wall times; CPU time is the steadier figure).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str], cwd: Path, env: dict) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the process tree, exit code)."""
    c0, t0 = _children_cpu(), time.perf_counter()
    rc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    return time.perf_counter() - t0, _children_cpu() - c0, rc


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", default=str(ROOT), help="what to clone (default: this checkout)")
    ap.add_argument("--make", action="store_true", help="time `make venv` (new .venv + pip install) as the set-up")
    ap.add_argument("--long", action="store_true", help="also time `audit --all --runs 5000` (tens of minutes)")
    args = ap.parse_args()
    load0 = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory(prefix="littlestone-clone-") as tmp:
        clone = Path(tmp) / "littlestone"
        subprocess.run(["git", "clone", "--quiet", args.repo, str(clone)], check=True)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LITTLESTONE_KERNELS")}
        if args.make:
            py = [str(clone / ".venv" / "bin" / "python")]
            setup = ("make venv (new .venv, pip install, kernels)", ["make", "venv"])
        else:
            py = [sys.executable]
            env["PYTHONPATH"] = str(clone / "src")
            setup = ("kernels build (set-up of make venv)", [*py, "-m", "littlestone.pac._kernels_build"])
        cli = [*py, "-m", "littlestone.cli"]
        out = str(Path(tmp) / "report")
        steps = [
            setup,
            ("littlestone demo  (the job of make demo)", [*cli, "demo", "--out", out]),
            ("littlestone demo --fast --online", [*cli, "demo", "--fast", "--online", "--out", out + "-online"]),
            ("littlestone audit --all --runs 500 --seed 1", [*cli, "audit", "--all", "--runs", "500", "--seed", "1"]),
        ]
        if args.long:
            steps.append(
                (
                    "littlestone audit --all --runs 5000 --seed 1",
                    [*cli, "audit", "--all", "--runs", "5000", "--seed", "1"],
                )
            )
        for what, cmd in steps:
            wall, cpu, rc = timed(cmd, clone, env)
            rows.append((what, wall, cpu, rc))
            print(f"{what:50s} wall {wall:8.1f} s  CPU {cpu:8.1f} s  exit {rc}", flush=True)
    load1 = os.getloadavg()
    print(
        f"\nmachine: {machine()}; load average {load0[0]:.1f} at start, {load1[0]:.1f} at end; {time.strftime('%Y-%m-%d')}"
    )
    print("\nREADME lines:")
    for what, wall, cpu, rc in rows:
        if rc == 0:
            print(f"  {what}: {wall:.0f} s wall, {cpu:.0f} s CPU")


if __name__ == "__main__":
    main()
