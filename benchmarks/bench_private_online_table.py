"""Issue 20's table: mistakes vs T of LWY25, GL21 (and GL21 Thm 4.2) and the non-private SOA at d = 1, 2, 3 against
every adversary of ``littlestone.online.ADVERSARIES`` used by the experiment (iid, tree, disagreement,
late-commitment), T = 10³…10⁶, two seeds — BEFORE (the paper learners LWY25 / GL21 at their practical settings) or
AFTER (the anytime learners AnytimeLWY25 / AnytimeGL21 that restart a fresh instance when one stops, at their default
settings).

Class: thresholds over 2^d points (Ldim d), ε = 1, δ = 10⁻⁶, β = 0.1, seeded backend (reproducible). The i.i.d.
stream is fixed in advance and run through the learners' vectorised ``run``; the adaptive adversaries play round by
round (``littlestone.online.play``). Each (learner, adversary, d, seed) runs its horizons in increasing order and
estimates the next one's wall time from the marginal wall time per round of the last two it ran (the first from the
smallest one alone); a horizon whose estimate is above ``--cell-limit`` seconds (default 180) is not run and the table
says "not run: X µs/round estimate". GL21 Thm 4.2 (``gl21-adaptive``, O(T²)) runs only up to T = 10³.

Columns: mistakes of seed 1 / seed 2; "⊥" marks a run whose learner ended stopped for good (LWY25 halted after
exhausting L_d, GL21 aborted after its c-th histogram); "↻k" the restarts of an anytime learner (max over seeds); the
last column, the fraction of rounds erred in the last 10 % of the largest horizon run (per seed).

Usage (the machine's load matters; figures are wall times on a loaded 2-core machine):
    PYTHONPATH=src .venv/bin/python benchmarks/bench_private_online_table.py --phase before --jobs 2
    PYTHONPATH=src .venv/bin/python benchmarks/bench_private_online_table.py --phase after --jobs 2
Writes benchmarks/results/private_online_table_{phase}.csv and .table (markdown; not .md, so run_all.py does not assemble it twice) (``--out`` to write elsewhere).
``--merge`` re-runs only the selected series (e.g. ``--ds 3 --learners lwy25,gl21``) and replaces those (learner,
adversary, d) series in the existing CSV and table, whose header then names the re-run (a re-run series draws new
seeds). The per-cell estimate is the marginal wall time per round × T plus the last build of the learner (LWY25 at
d = 3 builds N₀ = 2²³ sequences whatever T).
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from littlestone.experiments._blm20_common import write_table
from littlestone.experiments.private_online import ADVERSARIES, BETA, adversary, soa_mistakes, threshold_class
from littlestone.online import SOA, play
from littlestone.parallel import map_seeded

HERE = Path(__file__).resolve().parent
EPS, DELTA = 1.0, 1e-6
#: learner name → (module, class) per phase
PHASES: dict[str, dict[str, tuple[str, str]]] = {
    "before": {
        "lwy25": ("littlestone.private_online", "LWY25"),
        "gl21": ("littlestone.private_online", "GL21"),
        "gl21-adaptive": ("littlestone.private_online", "GL21Adaptive"),
        "soa": ("littlestone.online", "SOA"),
    },
    "after": {
        "lwy25": ("littlestone.private_online", "AnytimeLWY25"),
        "gl21": ("littlestone.private_online", "AnytimeGL21"),
        "gl21-adaptive": ("littlestone.private_online", "GL21Adaptive"),
        "soa": ("littlestone.online", "SOA"),
    },
}
ADAPTIVE_T_MAX = 1_000
TAIL = 0.1


def make(phase: str, name: str, H: Any, T: int, seed: Any) -> Any:
    module, attr = PHASES[phase][name]
    cls = getattr(importlib.import_module(module), attr)
    if cls is SOA:
        return cls(H)
    return cls(H, T=T, epsilon=EPS, delta=DELTA, beta=BETA, backend="seeded", seed=seed)


def stopped(learner: Any) -> tuple[bool, int]:
    """(the learner ended stopped for good, its restarts) from its state(); an anytime GL21 whose instance aborted is
    not stopped while its guard watches the kept hypothesis."""
    st = learner.state() if hasattr(learner, "state") else {}
    return bool(st.get("halted") or st.get("aborted")) and not st.get("guarding"), int(st.get("restarts", 0))


def one_game(phase: str, name: str, adv: str, d: int, T: int, seed: np.random.SeedSequence) -> dict:
    H = threshold_class(d)
    s_learn, s_data = seed.spawn(2)
    t0, c0 = time.perf_counter(), time.process_time()
    lrn = make(phase, name, H, T, s_learn)
    build = time.perf_counter() - t0
    if adv == "iid":  # oblivious: the stream fixed in advance, run vectorised (as the experiment does)
        rng = np.random.default_rng(s_data)
        theta = int(rng.integers(0, H.n + 1))
        X = rng.integers(0, H.n, T)
        y = (X >= theta).astype(np.int8)
        if isinstance(lrn, SOA):
            m = soa_mistakes(H, X, y)
            tail = soa_mistakes(H, X, y) - soa_mistakes(H, X[: T - int(TAIL * T)], y[: T - int(TAIL * T)])
        else:
            cum = lrn.run(X, y).cumulative_mistakes
            m, tail = int(cum[-1]), int(cum[-1] - cum[T - int(TAIL * T) - 1])
    else:
        g = play(lrn, adversary(adv, H, seed=s_data.spawn(1)[0]), T, seed=s_data)
        cum = g.cumulative_mistakes
        m, tail = int(cum[-1]), int(cum[-1] - cum[T - int(TAIL * T) - 1])
    stop, restarts = stopped(lrn)
    return {
        "mistakes": m,
        "tail_mistakes": tail,
        "stopped": stop,
        "restarts": restarts,
        "wall_s": time.perf_counter() - t0,
        "build_s": build,
        "cpu_s": time.process_time() - c0,
        "setting": str(getattr(lrn, "setting", "") or "non-private"),
        "class": type(lrn).__name__,
    }


def cell(task: tuple, seed: np.random.SeedSequence) -> list[dict]:
    """All horizons of one (phase, learner, adversary, d, seed index), increasing, skipping the ones estimated
    above the cell limit."""
    phase, name, adv, d, k, Ts, limit = task
    rows, done = [], []  # done: (T, wall of the rounds alone, wall of building the learner)
    for T, s in zip(Ts, seed.spawn(len(Ts))):
        base = {"phase": phase, "learner": name, "adversary": adv, "d": d, "T": T, "seed": k}
        if name == "gl21-adaptive" and T > ADAPTIVE_T_MAX:
            rows.append({**base, "status": f"not run: O(T²) work, only T ≤ {ADAPTIVE_T_MAX:g}"})
            continue
        if done:  # rounds at the marginal rate per round, plus the last build (N₀ does not grow with T)
            if len(done) >= 2:
                (T1, w1, _), (T2, w2, _) = done[-2], done[-1]
                rate = max((w2 - w1) / (T2 - T1), w2 / T2 / 10)
            else:
                rate = done[-1][1] / done[-1][0]
            est = rate * T + done[-1][2]
            if est > limit:
                rows.append({**base, "status": f"not run: {1e6 * rate:.0f} µs/round estimate (≈{est:.0f} s)"})
                continue
        r = one_game(phase, name, adv, d, T, s)
        done.append((T, r["wall_s"] - r["build_s"], r["build_s"]))
        rows.append({**base, "status": "run", **r})
        print(f"{phase} {name} {adv} d={d} T={T} seed={k}: {r['mistakes']} ({r['wall_s']:.1f} s)", flush=True)
    return rows


COLS = ["phase", "learner", "class", "setting", "adversary", "d", "T", "seed", "status", "mistakes", "tail_mistakes"]
COLS += ["stopped", "restarts", "wall_s", "build_s", "cpu_s"]


def markdown(rows: list[dict], phase: str, Ts: list[int], seeds: int) -> str:
    keys = list(dict.fromkeys((r["learner"], r["adversary"], r["d"]) for r in rows))
    head = ["learner", "adversary", "d"] + [f"T = {T:.0e}".replace("e+0", "e") for T in Ts] + ["last 10 % erred"]
    out = io.StringIO()
    out.write("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")
    for key in keys:
        cells = []
        last: list[dict] = []
        for T in Ts:
            sel = [r for r in rows if (r["learner"], r["adversary"], r["d"]) == key and r["T"] == T]
            ran = [r for r in sel if r["status"] == "run"]
            if not ran:
                cells.append(sel[0]["status"] if sel else "")
                continue
            last = ran
            txt = " / ".join(f"{r['mistakes']}{' ⊥' if r['stopped'] else ''}" for r in ran)
            if len(ran) < len(sel):
                txt += " (" + "; ".join(r["status"] for r in sel if r["status"] != "run") + ")"
            rs = max(r["restarts"] for r in ran)
            cells.append(txt + (f" ↻{rs}" if rs else ""))
        tail = " / ".join(f"{r['tail_mistakes'] / (TAIL * r['T']):.0%}" for r in last)
        out.write("| " + " | ".join([key[0], key[1], str(key[2])] + cells + [tail]) + " |\n")
    return out.getvalue()


_INT = ("d", "T", "seed", "mistakes", "tail_mistakes", "restarts")


def merged(
    out: Path, phase: str, new: list[dict], Ts: list[int], run_line: str, ds: list[int], learners: list[str]
) -> tuple[list[dict], list[int], str]:
    """The phase's existing rows with this run's (learner, adversary, d) series replaced by the new ones; the horizons
    of both; the existing table's header followed by a line naming what this run replaced."""
    old_rows = list(csv.DictReader((out / f"private_online_table_{phase}.csv").open(encoding="utf-8")))
    for r in old_rows:
        for c in _INT:
            if r.get(c) not in (None, ""):
                r[c] = int(float(r[c]))
        r["stopped"] = r.get("stopped") == "True"
    keys = {(r["learner"], r["adversary"], r["d"]) for r in new}
    rows = [r for r in old_rows if (r["learner"], r["adversary"], r["d"]) not in keys] + new
    order = list(dict.fromkeys([r["learner"] for r in old_rows] + [r["learner"] for r in new]))
    advs = list(dict.fromkeys([r["adversary"] for r in old_rows] + [r["adversary"] for r in new]))
    rows.sort(key=lambda r: (order.index(r["learner"]), advs.index(r["adversary"]), r["d"], r["T"], r["seed"]))
    table = out / f"private_online_table_{phase}.table"
    old_head = table.read_text(encoding="utf-8").split("\n\n", 1)[0] if table.exists() else ""
    what = f"d = {', '.join(map(str, ds))}, learners {', '.join(learners)}"
    head = f"{old_head}\n\nRows re-run and merged ({what}): {run_line}"
    return rows, sorted(set(Ts) | {r["T"] for r in old_rows}), head


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--phase", choices=list(PHASES), required=True)
    ap.add_argument("--Ts", default="1000,10000,100000,1000000")
    ap.add_argument("--ds", default="1,2,3")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--learners", default="lwy25,gl21,gl21-adaptive,soa")
    ap.add_argument("--adversaries", default=",".join(ADVERSARIES))
    ap.add_argument("--cell-limit", type=float, default=180.0, help="seconds of wall time a game may take (estimate)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(HERE / "results"))
    ap.add_argument(
        "--merge",
        action="store_true",
        help="replace only the (learner, adversary, d) series of this run in the phase's existing CSV and table",
    )
    a = ap.parse_args()
    Ts = sorted(int(float(t)) for t in a.Ts.split(","))
    ds = [int(d) for d in a.ds.split(",")]
    learners = a.learners.split(",")
    for n in learners:
        if n not in PHASES[a.phase]:
            sys.exit(f"error: unknown learner {n!r} (choose among {', '.join(PHASES[a.phase])})")
        module, attr = PHASES[a.phase][n]
        if not hasattr(importlib.import_module(module), attr):
            sys.exit(f"error: {module}.{attr} not found: phase {a.phase!r} needs the anytime learners (pola)")
    advs = a.adversaries.split(",")
    tasks = [
        (a.phase, n, adv, d, k, Ts, a.cell_limit)
        for n in learners
        for adv in advs
        for d in ds
        for k in range(1, a.seeds + 1)
    ]
    tasks.sort(key=lambda t: (t[3], t[1] != "lwy25"), reverse=True)  # the slow cells (large d, LWY25) first
    w0, load0 = time.perf_counter(), os.getloadavg()[0]
    rows = [r for rs in map_seeded(cell, tasks, seed=a.seed, n_jobs=a.jobs, chunksize=1) for r in rs]
    wall = time.perf_counter() - w0
    rows.sort(key=lambda r: (learners.index(r["learner"]), advs.index(r["adversary"]), r["d"], r["T"], r["seed"]))
    out = Path(a.out)
    import littlestone

    run_line = (
        f"`{Path(__file__).name} --phase {a.phase}{' --merge' if a.merge else ''}` (littlestone from "
        f"{Path(littlestone.__file__).parent}; {len(tasks)} games series, --jobs {a.jobs}, {wall:.0f} s wall, "
        f"load average {load0:.1f} → {os.getloadavg()[0]:.1f}, Python {platform.python_version()})"
    )
    head = run_line
    if a.merge:
        rows, Ts, head = merged(out, a.phase, rows, Ts, run_line, ds, learners)
    write_table([{c: r.get(c, "") for c in COLS} for r in rows], out / f"private_online_table_{a.phase}.csv")
    md = head + "\n\n" + markdown(rows, a.phase, Ts, a.seeds)
    (out / f"private_online_table_{a.phase}.table").write_text(md, encoding="utf-8")
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
