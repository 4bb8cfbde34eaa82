"""Issue 27 item 5: a citable comparison of the private online learners — mistakes at T = 10³…10⁶ (two seeds) against
every adversary of ``littlestone.online.ADVERSARIES`` for ListAT, BisectAT, PointsAT, IntervalsAT, LWY25 and GL21
(anytime ``lwy25`` / ``gl21`` and paper ``lwy25-paper`` / ``gl21-paper`` variants, practical settings) and the
non-private SOA, on thresholds over 2, 4, 8 and 2⁶⁰ points, points(2⁶⁰), intervals over 2¹⁶ and two random finite
classes (|H| = 16 over 20 points, |H| = 256 over 40 points, seed 0); each cell beside its learner's bound, and the
rounds per second of each learner's vectorised ``run`` (seeded and secure backends).

A cell is (class, learner, adversary, T, seed). ε = 1, δ = 10⁻⁶ (LWY25 / GL21 only; the new learners are pure ε-DP),
β = 0.1, seeded noise (reproducible; seed i of a cell is a child of ``--seed`` keyed by the cell, so a re-run or a
later session draws the same games). Adaptive adversaries (tree, greedy-tree, disagreement, late-commitment) see the
released hypothesis h_t before each round (``littlestone.online.play``); the oblivious ``iid`` stream (target drawn
with ``random_hypothesis``, points by the class's ``uniform_points`` law) is fixed in advance and run through the
learner's vectorised ``run`` (the SOA: the experiment's vectorised ``soa_mistakes``).

Bounds (β = 0.1): ListAT ``listat_bound(|H|, T, ε)``, BisectAT ``bisectat_bound(#candidates, T, ε)``, PointsAT /
IntervalsAT the learner's own ``bound`` (``points_at_bound`` / ``intervals_at_bound``), LWY25 / GL21 the theorem
bound of ``littlestone.experiments.private_online.theorem_bound`` at d = Ldim (LWY25 Thm 3.1 with App. B constants;
GL21 Thm 4.1 in order form; stated for the theory setting and the paper learner, shown for reference), SOA its Ldim.
"vacuous" where the bound is ≥ T, "n/a" where there is none.

Limits: each (class, learner, adversary, seed) runs its horizons in increasing order; a horizon whose estimated wall
time (marginal time per round of the previous horizons × T) exceeds ``--cell-limit`` is not run and a game that
overruns it is stopped (SIGALRM): both are kept as "not run (over N s)" rows, never dropped. Learners that cannot
be built on a class get "cannot be built: <reason>" rows.

Resumable: ``--merge`` reads the existing CSV, skips every cell already run and replaces the others by this run's
rows (a "not run" row never overwrites a run one), so later sessions fill in the big cells, e.g.
    PYTHONPATH=src python benchmarks/bench_private_online_compare.py --jobs 2 --Ts 1e3,1e4
    PYTHONPATH=src python benchmarks/bench_private_online_compare.py --jobs 2 --merge --Ts 1e5,1e6 \
        --learners listat,bisect,points-at,intervals-at --adversaries late-commitment,disagreement,iid --cell-limit 600
    PYTHONPATH=src python benchmarks/bench_private_online_compare.py --merge --throughput-only
Writes benchmarks/results/private_online_compare.{csv,md,png} (``--out`` to write elsewhere).

Tails (issue 34): ``--tails`` writes private_online_compare_tails.{csv,md} instead — the median and worst over
``--seeds`` seeds of each (class, learner, adversary, T) and over every adaptive adversary's games of a (class,
learner, T). The issue-34 run (20 seeds, T = 10⁴ for every learner, then 10⁵ where it fits), one class at a time:
    PYTHONPATH=src nice -n 10 python benchmarks/bench_private_online_compare.py --tails --merge --seeds 20 --Ts 1e4 \
        --classes thresholds:2^60 --learners listat,bisect,points-at,intervals-at,lwy25,lwy25-paper,gl21,gl21-paper,\
soa,segment-em --adversaries disagreement,late-commitment,sparse-mistakes --cell-limit 60 --jobs 2 --throughput 0
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import math
import os
import platform
import re
import signal
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from littlestone.bounds.segment_learners import bisectat_bound, listat_bound
from littlestone.classes.spec import parse_class_spec
from littlestone.errors import LittlestoneError
from littlestone.experiments.private_online import make_learner, soa_mistakes, theorem_bound
from littlestone.online import ADVERSARIES as LIBRARY_ADVERSARIES
from littlestone.online import SOA, play
from littlestone.parallel import map_ordered

HERE = Path(__file__).resolve().parent
EPS, DELTA, BETA = 1.0, 1e-6, 0.1
CLASSES = (
    "thresholds:2",
    "thresholds:4",
    "thresholds:8",
    "thresholds:2^60",
    "points:2^60",
    "intervals:2^16",
    "random:16x20:0",
    "random:256x40:0",
)
NEW = ("listat", "bisect", "points-at", "intervals-at")
LEARNERS = NEW + ("lwy25", "lwy25-paper", "gl21", "gl21-paper", "soa", "segment-em")
#: the default learners (``segment-em``, the agnostic SegmentedEM, is run on request: ``--learners ...,segment-em``)
DEFAULT_LEARNERS = LEARNERS[:-1]
#: every adversary of the library (adaptive ones first, the oblivious i.i.d. last)
ADVERSARIES = tuple(sorted(LIBRARY_ADVERSARIES, key=lambda a: a == "iid"))
ADAPTIVE = tuple(a for a in ADVERSARIES if a != "iid")
KEY = ("class", "learner", "adversary", "T", "seed")
COLS = list(KEY) + ["status", "mistakes", "bound", "stopped", "restarts", "wall_s", "rps_seeded", "rps_secure"]
THROUGHPUT = "run (throughput)"


class OverTime(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise OverTime


def ldim_of(H: Any) -> int:
    return int(SOA(H).mistake_bound())


def bound_of(name: str, H: Any, T: int, learner: Any) -> float:
    """The learner's mistake bound at horizon T (math.inf: no bound)."""
    if name == "listat":
        return float(listat_bound(int(H.version_space().size()), T, EPS, BETA).mistakes)
    if name == "bisect":
        lo, hi, _ = H.version_space().threshold_interval()
        return float(bisectat_bound(hi - lo + 1, T, EPS, BETA).mistakes)
    if name in ("points-at", "intervals-at"):
        return float(learner.bound.mistake_bound)
    return float(theorem_bound(name, ldim_of(H), T, EPS, DELTA)[0])


def bound_text(b: float, T: int) -> str:
    if not math.isfinite(b):
        return "n/a"
    return "vacuous" if b >= T else f"{b:,.0f}"


def cell_seed(root: int, *key: Any) -> np.random.SeedSequence:
    """The seed of a cell, a function of the cell alone (so runs and merges draw the same games)."""
    h = hashlib.sha256(repr((root,) + key).encode()).digest()
    return np.random.SeedSequence([root, int.from_bytes(h[:8], "little")])


def iid_stream(H: Any, T: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    target = H.random_hypothesis(rng)
    pts = H.uniform_points()
    if callable(pts):
        X = np.array([pts(rng) for _ in range(T)])
    else:
        pts = np.asarray(pts)
        X = pts[rng.integers(0, len(pts), T)]
    return X, np.asarray(target.predict(X)).astype(np.int8)


def build(spec: str, name: str, T: int, seed: Any, backend: str = "seeded") -> tuple[Any, Any]:
    H = parse_class_spec(spec)
    return H, make_learner(name, H, T, EPS, DELTA, backend, seed)


def one_game(spec: str, name: str, adv: str, T: int, seed: np.random.SeedSequence) -> dict:
    s_learn, s_data = seed.spawn(2)
    t0 = time.perf_counter()
    H, lrn = build(spec, name, T, s_learn)
    if adv == "iid":
        X, y = iid_stream(H, T, np.random.default_rng(s_data))
        m = soa_mistakes(H, X, y) if isinstance(lrn, SOA) else int(lrn.run(X, y).mistakes)
    else:
        from littlestone.online import make_adversary

        m = int(play(lrn, make_adversary(adv, H, seed=s_data.spawn(1)[0]), T, seed=s_data).mistakes)
    st = lrn.state() if hasattr(lrn, "state") else {}
    return {
        "status": "run",
        "mistakes": m,
        "bound": bound_text(bound_of(name, H, T, lrn), T),
        "stopped": bool(st.get("halted") or st.get("aborted")),
        "restarts": int(st.get("restarts", 0)),
        "wall_s": round(time.perf_counter() - t0, 3),
    }


def series(task: tuple) -> list[dict]:
    """All horizons of one (class, learner, adversary, seed), increasing; ``prior`` = walls already in the CSV."""
    spec, name, adv, k, Ts, limit, root, prior = task
    rows, done = [], sorted(prior)  # done: (T, wall)
    for T in Ts:
        base = {"class": spec, "learner": name, "adversary": adv, "T": T, "seed": k}
        try:
            build(spec, name, 2, 0)
        except LittlestoneError as e:
            rows.append({**base, "status": f"cannot be built: {str(e).splitlines()[0]}"})
            continue
        if done:
            (T1, w1), (T2, w2) = done[-2] if len(done) > 1 else (0, 0.0), done[-1]
            rate = max((w2 - w1) / max(T2 - T1, 1), w2 / T2 / 10)
            est = rate * T
            if est > limit:
                rows.append({**base, "status": f"not run (over {limit:g} s: estimate {est:.0f} s)"})
                continue
        old = signal.signal(signal.SIGALRM, _alarm)
        try:
            signal.setitimer(signal.ITIMER_REAL, limit)
            r = one_game(spec, name, adv, T, cell_seed(root, spec, name, adv, T, k))
        except OverTime:
            rows.append({**base, "status": f"not run (over {limit:g} s: stopped)"})
            done.append((T, 10 * limit))
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        done.append((T, r["wall_s"]))
        rows.append({**base, **r})
        print(f"{spec} {name} {adv} T={T} seed={k}: {r['mistakes']} ({r['wall_s']:.1f} s)", flush=True)
    return rows


#: fresh learners timed per backend in a throughput cell (after one warm-up run); the cell keeps the median
THROUGHPUT_REPEATS = 3


def throughput(task: tuple) -> dict:
    """Rounds per second of the learner's vectorised run over an n-round i.i.d. stream, both backends: one warm-up
    run (imports, compiled kernels), then the median of :data:`THROUGHPUT_REPEATS` fresh learners."""
    spec, name, n, root = task
    base = {"class": spec, "learner": name, "adversary": THROUGHPUT, "T": n, "seed": 1}
    try:
        H, _ = build(spec, name, 2, 0)
    except LittlestoneError as e:
        return {**base, "status": f"cannot be built: {str(e).splitlines()[0]}"}
    if name == "soa":
        return {**base, "status": "n/a (non-private, no backend)"}
    X, y = iid_stream(H, n, np.random.default_rng(cell_seed(root, spec, "throughput")))
    out = {**base, "status": "run"}
    for backend in ("seeded", "secure"):
        build(spec, name, 1000, cell_seed(root, spec, name, backend, "warm-up"), backend)[1].run(X[:1000], y[:1000])
        rates = []
        for r in range(THROUGHPUT_REPEATS):
            lrn = build(spec, name, n, cell_seed(root, spec, name, backend, r), backend)[1]
            t0 = time.perf_counter()
            lrn.run(X, y)
            rates.append(n / (time.perf_counter() - t0))
        out[f"rps_{backend}"] = round(float(np.median(rates)))
    print(f"throughput {spec} {name}: {out['rps_seeded']:,} / {out['rps_secure']:,} r/s", flush=True)
    return out


# --- tables ------------------------------------------------------------------------------------------------------


def key(r: dict) -> tuple:
    return (r["class"], r["learner"], r["adversary"], int(r["T"]), int(r["seed"]))


def read_rows(path: Path) -> list[dict]:
    if not path.exists():
        return []
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    for r in rows:
        r["T"], r["seed"] = int(r["T"]), int(r["seed"])
    return rows


def merge(old: list[dict], new: list[dict]) -> list[dict]:
    """Old rows replaced by new ones of the same cell, except that a run row is never replaced by a not-run one."""
    by = {key(r): r for r in old}
    for r in new:
        if by.get(key(r), {}).get("status") == "run" and r["status"] != "run":
            continue
        by[key(r)] = r
    order = {c: i for i, c in enumerate(CLASSES)}
    lorder = {n: i for i, n in enumerate(LEARNERS)}
    aorder = {a: i for i, a in enumerate(ADVERSARIES + (THROUGHPUT,))}
    return sorted(
        by.values(),
        key=lambda r: (
            (order.get(r["class"], 99), lorder.get(r["learner"], 99), aorder.get(r["adversary"], 99)) + key(r)[3:]
        ),
    )


def _cell_text(sel: list[dict]) -> str:
    ran = [r for r in sel if r["status"] == "run"]
    if not ran:
        st = sel[0]["status"] if sel else ""
        return st.split(":")[0] if st.startswith("cannot") else st
    txt = " / ".join(f"{int(r['mistakes']):,}{' ⊥' if str(r.get('stopped')) == 'True' else ''}" for r in ran)
    if len(ran) < len(sel):
        txt += " (" + "; ".join(r["status"] for r in sel if r["status"] != "run") + ")"
    return txt


def markdown(rows: list[dict], head: str) -> str:
    games = [r for r in rows if r["adversary"] != THROUGHPUT]
    Ts = sorted({int(r["T"]) for r in games})
    out = io.StringIO()
    out.write(head + "\n\n")
    out.write(
        "Cells: mistakes of seed 1 / seed 2 (⊥: the paper learner ended halted / aborted for good), then the "
        "learner's bound at that T (β = 0.1; “vacuous”: bound ≥ T; “n/a”: no bound). The worst-case summary takes "
        "the max over the adaptive adversaries (tree, greedy-tree, disagreement, late-commitment) and seeds of the "
        "cells that ran (“(k/4 adversaries)” when only k adaptive adversaries ran at that T, or some of their games did not).\n\n"
    )
    classes = list(dict.fromkeys(r["class"] for r in rows))
    reasons: dict[tuple, str] = {}
    out.write("### Worst over the adaptive adversaries\n\n")
    hdr = ["class", "learner"] + [f"T = 10^{round(math.log10(T))}" for T in Ts]
    out.write("| " + " | ".join(hdr) + " |\n|" + "---|" * len(hdr) + "\n")
    for c in classes:
        for n in dict.fromkeys(r["learner"] for r in games if r["class"] == c):
            cells = []
            for T in Ts:
                sel = [r for r in games if (r["class"], r["learner"], int(r["T"])) == (c, n, T)]
                ad = [r for r in sel if r["adversary"] in ADAPTIVE]
                ran = [r for r in ad if r["status"] == "run"]
                if sel and sel[0]["status"].startswith("cannot"):
                    reasons[(c, n)] = re.split(r" \(|; ", sel[0]["status"])[0]
                    cells.append("cannot be built")
                elif not ran:
                    cells.append("not run" if ad else "")
                else:
                    b = ran[0]["bound"]
                    k = len({r["adversary"] for r in ran})
                    part = "" if k == len(ADAPTIVE) and len(ran) == len(ad) else f" ({k}/{len(ADAPTIVE)} adversaries)"
                    cells.append(f"{max(int(r['mistakes']) for r in ran):,}{part} [bound {b}]")
            if (c, n) not in reasons:
                out.write("| " + " | ".join([c, n] + cells) + " |\n")
    if reasons:
        out.write("\n#### Cannot be built (left out above; “cannot be built” cells below)\n\n")
        for (c, n), s in reasons.items():
            out.write(f"* {n} on {c}: {s}\n")
    out.write("\n### Every cell (seed 1 / seed 2, bound)\n")
    for c in classes:
        out.write(f"\n#### {c}\n\n")
        hdr = ["learner", "adversary"] + [f"T = 10^{round(math.log10(T))}" for T in Ts]
        out.write("| " + " | ".join(hdr) + " |\n|" + "---|" * len(hdr) + "\n")
        for n in dict.fromkeys(r["learner"] for r in games if r["class"] == c):
            if (c, n) in reasons:
                out.write(f"| {n} | all | " + " | ".join(["cannot be built"] * len(Ts)) + " |\n")
                continue
            for a in dict.fromkeys(r["adversary"] for r in games if (r["class"], r["learner"]) == (c, n)):
                cells = []
                for T in Ts:
                    sel = [r for r in games if (r["class"], r["learner"], r["adversary"], int(r["T"])) == (c, n, a, T)]
                    txt = _cell_text(sel)
                    b = next((r["bound"] for r in sel if r["status"] == "run"), "")
                    cells.append(txt + (f" [{b}]" if b else ""))
                out.write("| " + " | ".join([n, a] + cells) + " |\n")
    thr = [r for r in rows if r["adversary"] == THROUGHPUT]
    if thr:
        out.write(
            f"\n### Rounds per second of the vectorised `run` (i.i.d. stream; per backend one warm-up run, then the "
            f"median of {THROUGHPUT_REPEATS} fresh learners)\n\n"
        )
        out.write(
            "| class | learner | rounds | seeded r/s | secure r/s | seeded / secure |\n|---|---|---:|---:|---:|---:|\n"
        )
        for r in thr:
            if r["status"] == "run":
                a, b = float(r["rps_seeded"]), float(r["rps_secure"])
                vals = [f"{int(a):,}", f"{int(b):,}", f"{a / b:.2f}×"]
            else:
                vals = [r["status"].split(":")[0]] * 3
            out.write(f"| {r['class']} | {r['learner']} | {int(r['T']):,} | " + " | ".join(vals) + " |\n")
    return out.getvalue()


def tails_markdown(rows: list[dict], head: str) -> str:
    """Median and worst mistakes over the seeds of each (class, learner, adversary, T) game cell, then per (class,
    learner, T) the median and worst over every adaptive adversary's games; ``seeds`` counts the games that ran."""
    games = [r for r in rows if r["adversary"] != THROUGHPUT]
    out = io.StringIO()
    out.write(head + "\n\n")
    out.write(
        "Cells: median / worst mistakes over the seeds that ran (ε = 1; δ = 10⁻⁶ for LWY25 / GL21; seeded noise; "
        "⊥ k: k of the games ended with the paper learner halted / aborted for good); `bound` as in "
        "private_online_compare.md (β = 0.1); s/game the mean wall seconds of a game.\n\n"
    )
    groups: dict[tuple, list[dict]] = {}
    for r in games:
        groups.setdefault((r["class"], r["learner"], int(r["T"]), r["adversary"]), []).append(r)

    def stats(sel: list[dict]) -> tuple[str, str, str]:
        ran = [int(r["mistakes"]) for r in sel if r["status"] == "run"]
        if not ran:
            st = sel[0]["status"]
            return (st.split(":")[0] if st.startswith("cannot") else st), "", ""
        return f"{int(np.median(ran)):,}", f"{max(ran):,}", str(len(ran))

    out.write("### Worst over the adaptive adversaries (every game of every adaptive adversary at that T)\n\n")
    out.write(
        "| class | learner | T | adversaries | games | median | worst | bound |\n|---|---|---:|---|---:|---:|---:|---:|\n"
    )
    summary: dict[tuple, list[dict]] = {}
    for (c, n, T, a), sel in groups.items():
        if a in ADAPTIVE:
            summary.setdefault((c, n, T), []).extend(sel)
    cannot = []
    for (c, n, T), sel in summary.items():
        ran = [r for r in sel if r["status"] == "run"]
        if not ran:
            cannot.append(f"* {n} on {c} (T = {T:,}): {sel[0]['status']}")
            continue
        med, worst, k = stats(sel)
        advs = ", ".join(dict.fromkeys(r["adversary"] for r in ran))
        out.write(f"| {c} | {n} | {T:,} | {advs} | {k} | {med} | {worst} | {ran[0]['bound']} |\n")
    if cannot:
        out.write("\nLeft out (no game ran):\n\n" + "\n".join(dict.fromkeys(cannot)) + "\n")
    out.write("\n### Every cell\n\n")
    out.write("| class | learner | adversary | T | seeds | median | worst | bound | s/game |\n")
    out.write("|---|---|---|---:|---:|---:|---:|---:|---:|\n")
    for (c, n, T, a), sel in groups.items():
        med, worst, k = stats(sel)
        if not k:
            continue
        ran = [r for r in sel if r["status"] == "run"]
        halted = sum(str(r.get("stopped")) == "True" for r in ran)
        wall = sum(float(r["wall_s"]) for r in ran) / len(ran)
        worst += f" ⊥ {halted}" if halted else ""
        out.write(f"| {c} | {n} | {a} | {T:,} | {k} | {med} | {worst} | {ran[0]['bound']} | {wall:.2f} |\n")
    return out.getvalue()


def plot(rows: list[dict], path: Path) -> None:
    """One log–log panel per class: the worst mistakes over the adaptive adversaries and seeds against T, a line per
    learner (solid: the new learners; dashed: LWY25 / GL21; dotted: the SOA), and the line y = T (every round wrong)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = [r for r in rows if r["adversary"] in ADAPTIVE and r["status"] == "run"]
    classes = [c for c in CLASSES if any(r["class"] == c for r in games)]
    classes += sorted({r["class"] for r in games} - set(classes))
    ncol = min(4, max(1, len(classes)))
    nrow = max(1, math.ceil(len(classes) / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.2 * ncol, 3.5 * nrow + 0.8), squeeze=False)
    colors = dict(zip(LEARNERS, plt.get_cmap("tab10").colors))
    markers = dict(zip(LEARNERS, "osD^vPX*hp"))
    handles: dict[str, Any] = {}
    for ax, c in zip(axes.flat, classes):
        allT = sorted({int(r["T"]) for r in games if r["class"] == c})
        (ln,) = ax.plot(allT, allT, color="0.6", lw=1, ls=(0, (1, 3)))
        handles["y = T (every round wrong)"] = ln
        for n in LEARNERS:
            pts: dict[int, int] = {}
            for r in games:
                if (r["class"], r["learner"]) == (c, n):
                    pts[int(r["T"])] = max(pts.get(int(r["T"]), 0), int(r["mistakes"]))
            if pts:
                Ts = sorted(pts)
                style = "-" if n in NEW else ("--" if n != "soa" else ":")
                (ln,) = ax.plot(
                    Ts, [max(pts[T], 0.5) for T in Ts], style, marker=markers[n], ms=4, color=colors[n], lw=1.4
                )
                handles[n] = ln
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(c, fontsize=10)
        ax.set_xlabel("T (rounds)")
        ax.set_ylabel("mistakes")
        ax.grid(True, which="major", alpha=0.3)
    for ax in list(axes.flat)[len(classes) :]:
        ax.axis("off")
    fig.suptitle(
        "Mistakes vs T, worst over the adaptive adversaries and seeds (ε = 1, δ = 10⁻⁶ for LWY25 / GL21; 0 plotted "
        "at 0.5)",
        fontsize=11,
    )
    fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=min(len(handles), 6), fontsize=9)
    fig.tight_layout(rect=(0, 0.07 if nrow > 1 else 0.12, 1, 0.96))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run(
    classes: Sequence[str],
    learners: Sequence[str],
    adversaries: Sequence[str],
    Ts: Sequence[int],
    seeds: int,
    limit: float,
    jobs: int = 1,
    root: int = 0,
    prior: list[dict] | None = None,
    throughput_n: int = 0,
    games: bool = True,
) -> list[dict]:
    """The rows of this run: the games of every (class, learner, adversary, seed) not already run in ``prior``,
    then the throughput rows (``throughput_n`` > 0)."""
    prior = prior or []
    done = {key(r) for r in prior if r["status"] == "run"}
    walls: dict[tuple, list] = {}
    for r in prior:
        if r["status"] == "run" and r["adversary"] != THROUGHPUT:
            walls.setdefault(key(r)[:3] + (int(r["seed"]),), []).append((int(r["T"]), float(r["wall_s"])))
    tasks = []
    for c in classes:
        for n in learners:
            for a in adversaries:
                for k in range(1, seeds + 1):
                    todo = [T for T in Ts if (c, n, a, T, k) not in done]
                    if games and todo:
                        tasks.append((c, n, a, k, todo, limit, root, walls.get((c, n, a, k), [])))
    tasks.sort(key=lambda t: (t[2] == "iid", t[1] in ("lwy25", "lwy25-paper")), reverse=False)
    rows = [r for rs in map_ordered(series, tasks, n_jobs=jobs, chunksize=1) for r in rs]
    if throughput_n:
        ttasks = [(c, n, throughput_n, root) for c in classes for n in learners]
        rows += map_ordered(throughput, ttasks, n_jobs=jobs, chunksize=1)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--classes", default=",".join(CLASSES))
    ap.add_argument("--learners", default=",".join(DEFAULT_LEARNERS))
    ap.add_argument("--adversaries", default=",".join(ADVERSARIES))
    ap.add_argument("--Ts", default="1e3,1e4,1e5,1e6")
    ap.add_argument("--seeds", type=int, default=2, help="seeds per cell (2: the citable table; 20: --tails)")
    ap.add_argument(
        "--tails",
        action="store_true",
        help="write the median / worst over the seeds of each cell to private_online_compare_tails.{csv,md}",
    )
    ap.add_argument("--cell-limit", type=float, default=120.0, help="wall seconds a game may take")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--throughput", type=int, default=100_000, help="rounds of the throughput stream (0: skip)")
    ap.add_argument("--throughput-only", action="store_true")
    ap.add_argument("--merge", action="store_true", help="keep the existing CSV's rows; skip cells already run")
    ap.add_argument("--out", default=str(HERE / "results"))
    a = ap.parse_args()
    out = Path(a.out)
    stem = "private_online_compare_tails" if a.tails else "private_online_compare"
    csv_path = out / f"{stem}.csv"
    for n in a.learners.split(","):
        if n not in LEARNERS:
            ap.error(f"unknown learner {n!r} (choose among {', '.join(LEARNERS)})")
    for x in a.adversaries.split(","):
        if x not in ADVERSARIES:
            ap.error(f"unknown adversary {x!r} (choose among {', '.join(ADVERSARIES)})")
    prior = read_rows(csv_path) if a.merge else []
    w0, load0 = time.perf_counter(), os.getloadavg()[0]
    new = run(
        a.classes.split(","),
        a.learners.split(","),
        a.adversaries.split(","),
        sorted(int(float(t)) for t in a.Ts.split(",")),
        a.seeds,
        a.cell_limit,
        a.jobs,
        a.seed,
        prior,
        a.throughput,
        games=not a.throughput_only,
    )
    rows = merge(prior, new)
    line = (
        f"* `{Path(__file__).name} --Ts {a.Ts} --learners {a.learners} --adversaries {a.adversaries} --classes "
        f"{a.classes} --seeds {a.seeds} --cell-limit {a.cell_limit:g} --jobs {a.jobs}"
        f"{' --merge' if a.merge else ''}{' --throughput-only' if a.throughput_only else ''}"
        f"{' --tails' if a.tails else ''}`: {len(new)} rows, "
        f"{time.perf_counter() - w0:.0f} s wall, load average {load0:.1f} → {os.getloadavg()[0]:.1f} (2 cores), "
        f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    md_path = out / f"{stem}.md"
    runs = ""
    if a.merge and md_path.exists():
        text = md_path.read_text(encoding="utf-8")
        for mark in ("\n### Runs\n\n", "\n## Runs\n\n"):
            if mark in text:
                runs = text.split(mark, 1)[1].split("\n\n", 1)[0] + "\n"
                break
    runs += line
    head = "## Private online learners compared (issue 27 item 5)\n\n" + (__doc__ or "").split("\n\n")[0]
    head += "\n\nSee the script's docstring for the protocol; rerun or extend with `--merge`.\n\n### Runs\n\n" + runs
    out.mkdir(parents=True, exist_ok=True)
    tmp = csv_path.with_suffix(".csv.tmp")
    with tmp.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLS)
        w.writeheader()
        for r in rows:
            w.writerow({c: r.get(c, "") for c in COLS})
    tmp.replace(csv_path)
    if a.tails:
        md_path.write_text(
            tails_markdown(rows, head.replace("compared (issue 27 item 5)", "compared: tails")), encoding="utf-8"
        )
        print(f"wrote {csv_path}, {md_path}")
        return 0
    md_path.write_text(markdown(rows, head), encoding="utf-8")
    plot(rows, out / "private_online_compare.png")
    print(f"wrote {csv_path}, {md_path}, {out / 'private_online_compare.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
