"""Issue 34: tails of the segment learners (ListAT, BisectAT — sign and sign-free —, PointsAT, IntervalsAT) at
T = 10⁶, ε = 1 over many seeds against three adaptive adversaries played in closed form, median and worst per cell.

Adversaries (each sees the released hypothesis h_t before round t, LWY25 Def. 2.4; the same rules as the library's
``littlestone.online`` adversaries of the same name, written here as *plans* so that a game runs fast):

* ``disagreement`` — a target h* drawn by the class's law; while h_t ≠ h* it asks a point where they disagree (a
  mistake every round); once h_t = h* it plays i.i.d. points of the class's law labelled by h*;
* ``late-commitment`` — no target: the version space V of its answers; each round the flip point of h_t (the label
  1 − h_t(x) keeping V largest); when none is left (h_t agrees with all of V) i.i.d. points labelled by h_t;
* ``sparse-mistakes`` — a target h* drawn; it asks a disagreement point only every ``--gap`` rounds and otherwise
  points (of the class's law) where h_t and h* agree, so that a segment's count grows slowly while its
  AboveThreshold is queried many times: low-count segments end and decide (``littlestone.online.SparseMistakes``).

Speed: rounds that can be mistakes go through ``learn_one`` one at a time; a planned stretch of ≥ 64 agreeing rounds
(h_t fixed) is run by the learner's vectorised ``run`` on a copy, kept when the released hypothesis did not change
inside it (every prediction right and the same h at the end), else replayed round by round on the original (the
vectorised and round-by-round paths draw the same noise in the same order, so the replay releases the same ⊤) until
h changes and the adversary re-plans. The game is then exactly the adaptive one.

BEFORE / AFTER: ``--before DIR`` also runs the same cells with the learners of another checkout (e.g. git main:
``git worktree add --detach /tmp/main-base main``) in a subprocess whose PYTHONPATH is DIR/src; cells a checkout
cannot build (a learner that does not exist there) are "n/a".

    PYTHONPATH=src nice -n 10 python benchmarks/bench_segment_tails.py --seeds 20 --jobs 2 \
        --before /tmp/main-base --out benchmarks/results/segment_tails.md

Quick check: ``--seeds 2 --T 1e5``; ``--check`` asserts that the closed-form games equal ``littlestone.online.play``
with the library's adversaries (same mistakes, every cell, T = 2·10⁴). Seed i of a cell is child i of ``--seed`` keyed by the cell (same games in both
checkouts). Writes a markdown table (median / worst / mean seconds per game) and a CSV beside it.
"""

from __future__ import annotations

import argparse
import copy
import csv
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
EPS, BETA = 1.0, 0.1
#: (class, learner) cells; a learner spec is name or name:setting
CELLS = (
    ("thresholds:2^60", "bisect"),
    ("thresholds:2^60", "bisect-signfree"),
    ("thresholds:2", "bisect"),
    ("thresholds:4", "bisect"),
    ("thresholds:8", "bisect"),
    ("thresholds:2", "listat"),
    ("thresholds:4", "listat"),
    ("thresholds:8", "listat"),
    ("points:2^60", "points-at"),
    ("intervals:2^16", "intervals-at"),
    ("random:16x20:0", "listat"),
)
THEORY_CELLS = (
    ("thresholds:2^60", "bisect:theory"),
    ("thresholds:8", "listat:theory"),
    ("points:2^60", "points-at:theory"),
    ("intervals:2^16", "intervals-at:theory"),
)
ADVERSARIES = ("disagreement", "late-commitment", "sparse-mistakes")
BLOCK = 64  # agreeing stretches at least this long go through the vectorised run


# --------------------------------------------------------------------------------------------- learners
def build_learner(spec: str, H: Any, T: int, seed: int) -> Any:
    import littlestone.private_online as po

    name, _, setting = spec.partition(":")
    kw: dict[str, Any] = {"T": T, "epsilon": EPS, "beta": BETA, "backend": "seeded", "seed": seed}
    if setting:
        kw["setting"] = float(setting) if setting.replace(".", "", 1).isdigit() else setting
    if name == "bisect-signfree":
        if not hasattr(po, "SignFreeBisectAT"):
            raise LookupError("no SignFreeBisectAT in this checkout")
        return po.SignFreeBisectAT(H, **kw)
    cls = {"listat": po.ListAT, "bisect": po.BisectAT, "points-at": po.PointsAT, "intervals-at": po.IntervalsAT}[name]
    return cls(H, **kw)


def bound_of(learner: Any) -> int | None:
    try:
        return int(learner.mistake_bound())
    except Exception:
        b = getattr(learner, "bound", None)
        if getattr(learner, "setting_", None) == "theory" and b is not None:
            return int(b.mistake_bound)
        return None


# --------------------------------------------------------------------------------------------- adversaries
class _Plans:
    """Shared: the class, its point law (vectorised on integer ranges), the adversary's generator."""

    def __init__(self, H: Any, rng: np.random.Generator):
        self.H, self.rng = H, rng
        r = getattr(getattr(H, "domain", None), "integer_range", None)
        n = getattr(H, "n", None) if r is None else (len(r) if r.start == 0 else None)
        self._n = int(n) if isinstance(n, int) and 0 < n <= 2**62 else None
        if self._n is None:
            law = H.uniform_points()
            self._pts = np.asarray(law) if not callable(law) else None
            self._law = law

    def draw(self, k: int) -> np.ndarray:
        if self._n is not None:
            return self.rng.integers(0, self._n, size=k, dtype=np.int64)
        if self._pts is not None:
            return self._pts[self.rng.integers(0, len(self._pts), size=k)]
        return np.asarray([self._law(self.rng) for _ in range(k)])

    def stream(self, h: Any, k: int) -> tuple[np.ndarray, np.ndarray]:
        X = self.draw(k)
        return X, np.asarray(h.predict(X), dtype=np.int8)

    def agreeing(self, h: Any, g: Any, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Up to k points of the law where h and g agree, labelled by g."""
        out: list[np.ndarray] = []
        have = 0
        for _ in range(8):
            X = self.draw(2 * k + 16)
            X = X[np.asarray(h.predict(X)) == np.asarray(g.predict(X))]
            out.append(X)
            have += len(X)
            if have >= k:
                break
        X = np.concatenate(out)[:k]
        return X, np.asarray(g.predict(X), dtype=np.int8)

    def changed(self) -> None:
        pass

    def reveal(self, x: Any, y: int) -> None:
        pass


class Disagreement(_Plans):
    def __init__(self, H: Any, rng: np.random.Generator):
        super().__init__(H, rng)
        self.target = H.random_hypothesis(rng)

    def plan(self, h: Any, left: int) -> tuple:
        x = self.H.disagreement(h, self.target)
        if x is not None:
            return ("one", x, int(self.target(x)))
        return ("block", *self.stream(self.target, min(left, 1 << 16)))


class LateCommitment(_Plans):
    def __init__(self, H: Any, rng: np.random.Generator):
        super().__init__(H, rng)
        self.V = H.version_space()

    def plan(self, h: Any, left: int) -> tuple:
        move = self.V.flip_point(h)
        if move is not None:
            return ("one", move[0], int(move[1]))
        return ("block", *self.stream(h, min(left, 1 << 16)))

    def reveal(self, x: Any, y: int) -> None:
        W = self.V.restrict(x, y)
        if not W.is_empty():
            self.V = W


class SparseMistakes(_Plans):
    def __init__(self, H: Any, rng: np.random.Generator, gap: int):
        super().__init__(H, rng)
        self.target = H.random_hypothesis(rng)
        self.gap, self.since = gap, gap

    def plan(self, h: Any, left: int) -> tuple:
        x = self.H.disagreement(h, self.target)
        if x is None:
            return ("block", *self.stream(self.target, min(left, 1 << 16)))
        if self.since >= self.gap - 1:
            return ("one", x, int(self.target(x)))
        X, y = self.agreeing(h, self.target, min(left, self.gap - 1 - self.since))
        if len(X) == 0:
            return ("one", x, int(self.target(x)))
        return ("block", X, y)

    def reveal(self, x: Any, y: int) -> None:
        self.since += 1

    def mistake(self) -> None:
        self.since = 0


def make_adversary(name: str, H: Any, rng: np.random.Generator, gap: int) -> _Plans:
    if name == "disagreement":
        return Disagreement(H, rng)
    if name == "late-commitment":
        return LateCommitment(H, rng)
    return SparseMistakes(H, rng, gap)


# --------------------------------------------------------------------------------------------- one game
def same(h: Any, g: Any) -> bool:
    return h is g or h == g


def game(learner: Any, adv: _Plans, T: int, final: list | None = None) -> int:
    """The mistakes of one game of T rounds; ``final`` (a list) receives the learner object the game ended with."""
    t = mistakes = 0
    h = learner.hypothesis()
    while t < T:
        kind, X, Y = adv.plan(h, T - t)
        if kind == "one":
            m = int(h(X) != Y)
            learner.learn_one(X, Y)
            adv.reveal(X, Y)
            if m and isinstance(adv, SparseMistakes):
                adv.mistake()
            mistakes += m
            t += 1
            g = learner.hypothesis()
            if not same(g, h):
                h = g
                adv.changed()
            continue
        n = len(Y)
        if n >= BLOCK:
            cp = copy.deepcopy(learner)
            preds = np.asarray(cp.run(X, Y).predictions)
            if np.array_equal(preds, Y) and same(cp.hypothesis(), h):
                learner = cp
                t += n
                if isinstance(adv, SparseMistakes):
                    adv.since += n
                continue
        for i in range(n):
            x, y = X[i].item() if hasattr(X[i], "item") else X[i], int(Y[i])
            m = int(h(x) != y)
            learner.learn_one(x, y)
            adv.reveal(x, y)
            mistakes += m
            t += 1
            g = learner.hypothesis()
            if not same(g, h):
                h = g
                adv.changed()
                break
    if final is not None:
        final.append(learner)
    return mistakes


def child_seed(root: int, *key: Any) -> int:
    return int.from_bytes(hashlib.sha256(repr((root,) + key).encode()).digest()[:8], "little") >> 1


def run_cell(item: tuple) -> dict:
    cls, spec, adv_name, T, seed_i, root, gap = item
    from littlestone.classes.spec import parse_class_spec

    H = parse_class_spec(cls)
    row = {"class": cls, "learner": spec, "adversary": adv_name, "T": T, "seed": seed_i}
    try:
        learner = build_learner(spec, H, T, child_seed(root, cls, spec.partition(":")[0], adv_name, T, seed_i))
    except (LookupError, Exception) as exc:  # a learner this checkout cannot build
        return {**row, "status": f"n/a: {type(exc).__name__}", "mistakes": None, "bound": None, "wall_s": 0.0}
    adv = make_adversary(adv_name, H, np.random.default_rng(child_seed(root, "adversary", cls, adv_name, seed_i)), gap)
    t0 = time.perf_counter()
    m = game(learner, adv, T)
    return {**row, "status": "run", "mistakes": m, "bound": bound_of(learner), "wall_s": time.perf_counter() - t0}


def run_all(cells: list, adversaries: list, T: int, seeds: int, root: int, gap: int, jobs: int) -> list[dict]:
    from littlestone.parallel import map_ordered

    items = [(c, s, a, T, i, root, gap) for c, s in cells for a in adversaries for i in range(seeds)]
    return map_ordered(run_cell, items, n_jobs=jobs)


# --------------------------------------------------------------------------------------------- tables
def summarise(rows: list[dict]) -> dict[tuple, dict]:
    out: dict[tuple, dict] = {}
    for r in rows:
        k = (r["class"], r["learner"], r["adversary"])
        d = out.setdefault(k, {"m": [], "w": [], "bound": r.get("bound"), "status": r["status"]})
        if r["status"] == "run":
            d["m"].append(r["mistakes"])
            d["w"].append(r["wall_s"])
    return out


def fmt(d: dict | None) -> tuple[str, str]:
    if d is None or not d["m"]:
        return "n/a", "n/a"
    return f"{statistics.median(d['m']):,.0f}", f"{max(d['m']):,}"


def table(after: list[dict], before: list[dict] | None, T: int, seeds: int, gap: int, cmd: str) -> str:
    A, B = summarise(after), summarise(before or [])
    lines = [
        f"# Segment learners: tails at T = {T:,}, ε = {EPS:g}, {seeds} seeds per cell (issue 34)",
        "",
        f"Command: `{cmd}`",
        "",
        "Median and worst mistakes over the seeds of each (class, learner, adversary) cell; adaptive adversaries in "
        f"closed form (benchmarks/bench_segment_tails.py; sparse-mistakes gap = {gap}); seeded noise. "
        "BEFORE = git main's learners, AFTER = this tree's. `bound` = the theory setting's mistake bound (β = 0.1).",
        "",
        "| class | learner | adversary | before median | before worst | after median | after worst | bound | s/game |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for k in A:
        bm, bw = fmt(B.get(k)) if before is not None else ("", "")
        am, aw = fmt(A[k])
        bound = A[k]["bound"]
        wall = statistics.mean(A[k]["w"]) if A[k]["w"] else 0.0
        lines.append(
            f"| {k[0]} | {k[1]} | {k[2]} | {bm} | {bw} | {am} | {aw} | {'' if bound is None else f'{bound:,}'} "
            f"| {wall:.2f} |"
        )
    worst_lines = ["", "Worst over every adversary (the issue's targets):", ""]
    worst_lines += ["| class | learner | before median / worst | after median / worst |", "|---|---|---:|---:|"]
    groups: dict[tuple, dict] = {}
    for k, d in A.items():
        g = groups.setdefault(k[:2], {"a": [], "b": []})
        g["a"] += d["m"]
        g["b"] += B.get(k, {"m": []})["m"]
    for k, g in groups.items():
        a = f"{statistics.median(g['a']):,.0f} / {max(g['a']):,}" if g["a"] else "n/a"
        b = f"{statistics.median(g['b']):,.0f} / {max(g['b']):,}" if g["b"] else "n/a"
        worst_lines.append(f"| {k[0]} | {k[1]} | {b} | {a} |")
    return "\n".join(lines + worst_lines) + "\n"


def check(T: int = 20_000, seeds: int = 2) -> None:
    """The closed-form games equal the library's ``play`` with ``littlestone.online``'s adversaries (same learner
    seed, same target): the same mistakes in every practical cell. Late commitment plays the library's own rule (its
    version space is the only state), so the games match exactly."""
    from littlestone.classes.spec import parse_class_spec
    from littlestone.online import DisagreementSeeking, SparseMistakes as LibSparse, play
    from littlestone.online.released import LateCommitment as LibLC

    for cls, spec in CELLS:
        H = parse_class_spec(cls)
        for s in range(seeds):
            for name in ADVERSARIES:
                adv = make_adversary(name, H, np.random.default_rng(s), 64)
                lib = (
                    LibLC(H, seed=s)
                    if name == "late-commitment"
                    else DisagreementSeeking(H, target=adv.target, seed=s)
                    if name == "disagreement"
                    else LibSparse(H, gap=64, target=adv.target, seed=s)
                )
                a = game(build_learner(spec, H, T, 100 + s), adv, T)
                b = play(build_learner(spec, H, T, 100 + s), lib, T=T).mistakes
                print(f"{cls:16} {spec:16} {name:16} seed {s}: closed form {a}, play {b}", flush=True)
                assert a == b, (cls, spec, name, s)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--T", type=float, default=1e6)
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--seed", type=int, default=34)
    p.add_argument("--gap", type=int, default=64, help="sparse-mistakes: rounds between two asked mistakes")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--cells", default="all", help="'all', 'theory', or class=learner pairs, comma-separated")
    p.add_argument("--adversaries", default=",".join(ADVERSARIES))
    p.add_argument("--before", default=None, help="another checkout: run the same cells with its learners too")
    p.add_argument("--check", action="store_true", help="compare the closed-form games with littlestone's play")
    p.add_argument("--json-out", default=None, help=argparse.SUPPRESS)  # the subprocess's rows
    p.add_argument("--out", default=str(HERE / "results" / "segment_tails.md"))
    a = p.parse_args(argv)
    T = int(a.T)
    if a.check:
        check()
        return
    if a.cells == "all":
        cells = list(CELLS)
    elif a.cells == "theory":
        cells = list(THEORY_CELLS)
    else:
        cells = [tuple(c.split("=")) for c in a.cells.split(",")]
    advs = a.adversaries.split(",")
    if a.json_out:
        rows = run_all(cells, advs, T, a.seeds, a.seed, a.gap, a.jobs)
        Path(a.json_out).write_text(json.dumps(rows))
        return
    before = None
    if a.before:
        tmp = Path(a.out).with_suffix(".before.json")
        env = {**os.environ, "PYTHONPATH": str(Path(a.before) / "src")}
        args = [sys.executable, __file__, "--json-out", str(tmp), "--T", str(T), "--seeds", str(a.seeds)]
        args += ["--seed", str(a.seed), "--gap", str(a.gap), "--jobs", str(a.jobs), "--adversaries", a.adversaries]
        args += ["--cells", ",".join(f"{c}={s}" for c, s in cells)]
        subprocess.run(args, env=env, check=True)
        before = json.loads(tmp.read_text())
        tmp.unlink()  # the CSV keeps both checkouts' rows
    after = run_all(cells, advs, T, a.seeds, a.seed, a.gap, a.jobs)
    cmd = "PYTHONPATH=src nice -n 10 python benchmarks/bench_segment_tails.py " + " ".join(argv or sys.argv[1:])
    Path(a.out).write_text(table(after, before, T, a.seeds, a.gap, cmd))
    with open(Path(a.out).with_suffix(".csv"), "w", newline="") as f:
        w = csv.DictWriter(
            f,
            fieldnames=[
                "checkout",
                "class",
                "learner",
                "adversary",
                "T",
                "seed",
                "status",
                "mistakes",
                "bound",
                "wall_s",
            ],
        )
        w.writeheader()
        for name, rows in (("before", before or []), ("after", after)):
            for r in rows:
                w.writerow({"checkout": name, **r})
    print(Path(a.out).read_text())


if __name__ == "__main__":
    main()
