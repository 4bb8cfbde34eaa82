"""Run every benchmark script (bench_*.py) and assemble benchmarks/README.md from benchmarks/results/*.md.

Usage: python benchmarks/run_all.py [--only NAME ...] [--assemble-only]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEADER = """# Benchmarks

Scripts here measure speed against a simple baseline in the same run (never as timed unit tests).
Run everything with `make bench` (or `python benchmarks/run_all.py`); a single one with
`.venv/bin/python benchmarks/bench_<name>.py`. Each script writes `results/<area>.md`; this page is assembled
from those files by `run_all.py`. Machine: 2 cores, 24 GiB (the project's reference machine); figures vary with load.
"""


def assemble() -> Path:
    parts = [HEADER]
    for md in sorted((HERE / "results").glob("*.md")):
        parts.append(md.read_text().strip() + "\n")
    out = HERE / "README.md"
    tmp = out.with_suffix(".md.tmp")
    tmp.write_text("\n".join(parts))
    tmp.replace(out)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", nargs="*", default=None, help="bench names (e.g. ldim privacy)")
    ap.add_argument("--assemble-only", action="store_true")
    args = ap.parse_args()
    failed = []
    if not args.assemble_only:
        for script in sorted(HERE.glob("bench_*.py")):
            name = script.stem.removeprefix("bench_")
            if args.only and name not in args.only:
                continue
            print(f"== {script.name}", flush=True)
            t0 = time.perf_counter()
            rc = subprocess.call([sys.executable, str(script)])
            print(f"   {script.name}: exit {rc} in {time.perf_counter() - t0:.1f}s", flush=True)
            if rc:
                failed.append(script.name)
    print(f"wrote {assemble()}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
