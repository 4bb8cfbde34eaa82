"""Explicit finite classes at scale: build + exact Ldim, each case in a fresh process (cold: nothing memoized,
nothing imported beforehand), CPU seconds and peak memory, against the former construction in the same run.

Cases (issue sizes): a random 131072×52 class and the thresholds on 2^14 points as a FiniteClass.
*New*: ``FiniteClass(M)`` (rows hashed by their packed bits, column masks by ``np.packbits`` + ``int.from_bytes``)
then ``ldim`` (bitset decision search; a version space 32× smaller than its solver's rows is searched in a compact
frame of its own). *Old build*: the former per-entry loop summing big integers, with ``np.isin`` and
``np.unique(axis=0)`` (a copy of it lives in this script), killed after --timeout seconds. *Search without frames*:
the same decision search with compact frames off (the former search). Peak memory: the child's ru_maxrss, with the
size of the input matrix alone for reference; all caches of a class are capped by ``FiniteClass.CACHE_BYTES``.

Usage: .venv/bin/python benchmarks/bench_finite_scale.py [--timeout 120]
Writes benchmarks/results/finite_scale.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
CASES = {
    "random 131072x52 (seed 6)": "random",
    "thresholds on 2^14 points": "thresholds",
}


def make(kind: str):
    import numpy as np

    if kind == "random":
        return (np.random.default_rng(6).random((131072, 52)) < 0.5).astype(np.uint8)
    n = 2**14
    M = np.empty((n + 1, n), dtype=np.uint8)
    x = np.arange(n)
    for t in range(n + 1):  # row by row: no temporaries the size of the matrix
        M[t] = x >= t
    return M


def legacy_build(M):
    """The former FiniteClass construction (quadratic in |H|): the baseline."""
    import numpy as np

    if not np.isin(M, (0, 1)).all():
        raise ValueError
    M = M.astype(np.uint8)
    _, first = np.unique(M, axis=0, return_index=True)
    M = M[np.sort(first)]
    n = M.shape[0]
    full = (1 << n) - 1
    weights = [1 << r for r in range(n)]
    ones = [sum(w for w, b in zip(weights, M[:, j]) if b) for j in range(M.shape[1])]
    return [full ^ c for c in ones], ones


def child(kind: str, mode: str) -> None:
    import resource

    import numpy as np  # noqa: F401

    M = make(kind)
    out: dict = {"matrix_mib": M.nbytes / 2**20}
    t0 = time.process_time()
    if mode == "legacy":
        legacy_build(M)
        out["build"] = time.process_time() - t0
    else:
        from littlestone import FiniteClass
        from littlestone.classes.finite_ldim import FiniteLdimSolver, solver_for

        H = FiniteClass(M)
        out["build"] = time.process_time() - t0
        del M
        t1 = time.process_time()
        if mode == "noframes":
            s = FiniteLdimSolver(H, H.memo_bytes())
            s.compact_min = 1 << 62
            out["ldim"] = s.ldim(H.full_mask)
        else:
            from littlestone.dimensions import ldim

            out["ldim"] = int(ldim(H))  # type: ignore[arg-type]
            out["memo"] = len(solver_for(H).bounds)
        out["search"] = time.process_time() - t1
    out["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


def run(kind: str, mode: str, timeout: float) -> dict | None:
    try:
        p = subprocess.run(
            [sys.executable, __file__, "--child", kind, mode],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return None
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds before a baseline child is killed")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return 0
    from littlestone import FiniteClass

    rows = []
    for name, kind in CASES.items():
        new = run(kind, "new", 600)
        assert new is not None
        old = run(kind, "legacy", args.timeout)
        plain = run(kind, "noframes", args.timeout)
        total = new["build"] + new["search"]
        old_txt = f"> {args.timeout:g} s" if old is None else f"{old['build']:.2f} s"
        old_ratio = f"> {args.timeout / new['build']:,.0f}x" if old is None else f"{old['build'] / new['build']:,.0f}x"
        if plain is None:
            plain_txt, plain_ratio = f"> {args.timeout:g} s", f"> {args.timeout / new['search']:.1f}x"
        else:
            assert plain["ldim"] == new["ldim"]
            plain_txt, plain_ratio = f"{plain['search']:.2f} s", f"{plain['search'] / new['search']:.1f}x"
        row = (
            name,
            str(new["ldim"]),
            f"{new['build']:.2f} s",
            f"{new['search']:.2f} s",
            f"**{total:.2f} s**",
            f"{new['peak_mib']:.0f} MiB ({new['matrix_mib']:.0f})",
            old_txt,
            old_ratio,
            plain_txt,
            plain_ratio,
        )
        rows.append(row)
        print(" | ".join(row), flush=True)
    head = (
        "class",
        "Ldim",
        "build",
        "Ldim search",
        "build + Ldim",
        "peak RSS (input matrix)",
        "old build",
        "build speed-up",
        "search without frames",
        "search speed-up",
    )
    cap = FiniteClass.CACHE_BYTES / 2**20
    lines = [
        "## Explicit classes at scale: build + Ldim (`FiniteClass`, `littlestone.dimensions.ldim`)",
        "",
        f"`.venv/bin/python benchmarks/bench_finite_scale.py` — Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d', time.gmtime())}. Every figure is CPU seconds (`time.process_time`) of one fresh "
        "process per cell (cold: no memo, no warm imports), one core, taken in the same run. *Build*: "
        "`FiniteClass(M)` (packed rows hashed for duplicates, column masks by `np.packbits` + `int.from_bytes`). "
        "*Ldim search*: the bitset decision search with compact frames (a version space 32× smaller than its "
        "solver's rows, and at least 256 rows, is searched with its rows renumbered, so its bitmasks are short). "
        "*Old build*: the former per-entry loop summing big integers plus `np.isin` and `np.unique(axis=0)`, "
        f"killed after {args.timeout:g} s. *Search without frames*: the same search with frames off (the former "
        f"search). Peak RSS is the whole child process (Python, NumPy, the input matrix and the class). Memory cap: "
        f"all caches of one class (Ldim memo, compact frames' memos, SOA classifiers) stay within "
        f"`FiniteClass.CACHE_BYTES` = {cap:.0f} MiB (approximate accounting; caches are cleared when full — answers "
        "never change, only their cost); the class itself holds the matrix (|H|·|X| bytes) and two column masks "
        "per point (|H|·|X|/4 bytes).",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    out = RESULTS / "finite_scale.md"
    tmp = out.with_suffix(".md.tmp")
    tmp.write_text("\n".join(lines) + "\n")
    tmp.replace(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
