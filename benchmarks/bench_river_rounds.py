"""River-speed rounds (issue 33 item 6): µs per round of ``predict_one(x)`` + ``learn_one(x, y)`` for the practical
private online learners, beside a plain-Python loop doing the same per-round work (read the feature, check the point
is in the domain, evaluate the released hypothesis, encode the label, count the mistake, compare count + pre-drawn
noise with the noisy threshold, start the next segment at ⊤), before (a git ref, ``main`` by default, exported to a
temporary directory and imported in a subprocess) and after (this tree), in the same run.

    PYTHONPATH=src python benchmarks/bench_river_rounds.py [--T 100000] [--rounds 3] [--repeat 2] [--before main] [--out FILE]
    PYTHONPATH=src python benchmarks/bench_river_rounds.py --T 5000 --rounds 1 --out -      # a quick check

Each configuration is timed ``--rounds`` times in fresh subprocesses (``--repeat`` times in each, learner, loop and
model interleaved), before and after alternating, and the fastest run is kept (the machine is shared: the minimum is the least disturbed). Streams: noisy (labels flipped with
probability 0.1 around a target), ints and river dicts ``{"x": v}``; ListAT also on river dicts of 3 features on a
public 16×16×16 grid (after only: the grid is new). Writes benchmarks/results/river_rounds.md.

SegmentedEM and EpochEM (the noisy-stream learners) and SignFreeBisectAT have their own plain models
(:class:`PlainEMModel`, :class:`PlainTwoSidedModel`; :data:`WORK`): SegmentedEM's round is h_j(x), the mistake and
round counts, the example buffered for the segment's selection, the stay test (b·count − a·rounds − offset + pre-drawn
noise ≥ the noisy threshold) and the public doubling end; the selection runs once per segment — a numpy scoring of
every cut of the segment, a Gumbel-max draw, the selected threshold's mistakes (:func:`plain_selection`) — and its
cost is spread over the segment's rounds, inside µs/round, as the learner's own selection is. EpochEM: the same
without the stay test. SignFreeBisectAT: two one-sided counts and two AboveThreshold comparisons per round.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from bisect import bisect_right
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# (case, class, domain size n, point form)
CASES = (
    ("BisectAT", "thresholds", 1 << 16, "int"),
    ("BisectAT", "thresholds", 1 << 16, "dict"),
    ("ListAT", "thresholds", 64, "int"),
    ("ListAT", "thresholds", 64, "dict"),
    ("PointsAT", "points", 1 << 16, "int"),
    ("PointsAT", "points", 1 << 16, "dict"),
    ("IntervalsAT", "intervals", 1 << 16, "int"),
    ("IntervalsAT", "intervals", 1 << 16, "dict"),
    ("ListAT", "grid stumps 16³", 16, "dict3"),
    ("SegmentedEM", "thresholds", 1 << 16, "int"),
    ("SegmentedEM", "thresholds", 1 << 16, "dict"),
    ("EpochEM", "thresholds", 1 << 16, "int"),
    ("EpochEM", "thresholds", 1 << 16, "dict"),
    ("SignFreeBisectAT", "thresholds", 1 << 16, "int"),
    ("SignFreeBisectAT", "thresholds", 1 << 16, "dict"),
)
NOISE = 0.1
NAMES = ("a", "b", "c")
#: the per-round work of a case beyond "count" (one AboveThreshold on the segment's running mistake count): "em" =
#: SegmentedEM (stay test on b·mistakes − a·rounds − offset, the example buffered for the segment's selection, a public
#: doubling end), "epochs" = EpochEM (buffering and the doubling end only), "two" = SignFreeBisectAT (two one-sided
#: counts, two AboveThreshold comparisons)
WORK = {"SegmentedEM": "em", "EpochEM": "epochs", "SignFreeBisectAT": "two"}


def make_stream(kind: str, n: int, form: str, T: int, seed: int = 0) -> tuple[list, list]:
    rng = np.random.default_rng(seed)
    if form == "dict3":
        V = rng.uniform(0.0, 1.0, size=(T, 3))
        y = (V[:, 1] >= 0.4).astype(int)
        flip = rng.random(T) < NOISE
        y = np.where(flip, 1 - y, y)
        return [dict(zip(NAMES, row)) for row in V.tolist()], y.tolist()
    X = rng.integers(0, n, size=T)
    if kind == "points":
        X[::10] = 12345
        y = (X == 12345).astype(int)
    elif kind == "intervals":
        y = ((X >= 1000) & (X <= 40000)).astype(int)
    else:
        y = (X >= n // 3).astype(int)
    y = np.where(rng.random(T) < NOISE, 1 - y, y)
    xs = X.tolist()
    return ([{"x": v} for v in xs] if form == "dict" else xs), y.tolist()


# ----------------------------------------------------------------------------------------------- reference loops
def reference(kind: str, n: int, form: str, xs: list, ys: list, work: str = "count") -> float:
    """The same per-round work in a plain-Python loop (µs/round): feature read, domain check, h_t(x), label
    encoding, mistake count, AboveThreshold comparison with pre-drawn noise, a new hypothesis at ⊤."""
    if work == "em" or work == "epochs":
        return reference_em(n, form, xs, ys, stay=work == "em")
    if work == "two":
        return reference_two(n, form, xs, ys)
    T = len(ys)
    rng = np.random.default_rng(1)
    noise = rng.laplace(0, 1.0, T).tolist()
    tnoise = rng.laplace(0, 1.0, T + 1).tolist()
    tau = 10.0
    labels = (0, 1)
    edges = [np.linspace(0, 1, 17)[1:-1].tolist()] * 3
    t0 = time.perf_counter()
    c = j = k = 0
    rho = tau + tnoise[0]
    t, a, b, q, f = n // 2, n // 4, n // 2, 7, 0
    for x, y in zip(xs, ys):
        if form == "dict3":  # river dict → grid cells, then a stump on feature f
            v = tuple([bisect_right(edges[i], x[nm]) for i, nm in enumerate(NAMES)])
            h = v[f] >= t
        else:
            v = x["x"] if form == "dict" else x
            if not (type(v) is int and 0 <= v < n):
                raise ValueError(v)
            h = (v == q) if kind == "points" else (a <= v <= b) if kind == "intervals" else (v >= t)
        p = labels[h]  # predict_one's answer
        yy = 1 if y == 1 else 0
        c += h != yy
        if c + noise[j] >= rho:  # ⊤: next segment, next hypothesis
            c, k = 0, k + 1
            rho = tau + tnoise[k]
            t, q, f = (t * 7 + 1) % n, (q * 31 + 1) % n, (f + 1) % 3
        j += 1
    del p
    return (time.perf_counter() - t0) / T * 1e6


def plain_selection(px: list, py: list, n: int, gumbel: float, epsilon: float) -> tuple[int, int]:
    """The plain model's selection at a segment's end (once per segment; its cost is spread over the segment's rounds
    and counted in µs/round): every cut's mistakes on the segment (sort, prefix sums), an exponential-mechanism draw
    (Gumbel-max with one pre-drawn Gumbel shift on the winner's side: the work of a draw, not its law), and the
    selected threshold's mistakes (for the error release). Returns (threshold, its mistakes)."""
    X = np.asarray(px, dtype=np.int64)
    Y = np.asarray(py, dtype=np.int64)
    order = np.argsort(X, kind="stable")
    X, Y = X[order], Y[order]
    pos_before = np.concatenate(([0], np.cumsum(Y)))
    neg_from = (len(Y) - np.arange(len(Y) + 1)) - (int(Y.sum()) - pos_before)
    err = pos_before + neg_from
    i = int(np.argmax(-0.5 * epsilon * err + gumbel * (np.arange(err.size) % 2)))
    return (int(X[i]) if i < len(X) else n - 1), int(err[i])


def reference_em(n: int, form: str, xs: list, ys: list, stay: bool) -> float:
    """SegmentedEM's (``stay``) or EpochEM's round inline: h_j(x), the mistake count, the round count, the example
    buffered for the selection, (SegmentedEM) the stay test b·count − a·rounds − offset + noise ≥ noisy threshold, the
    public doubling end; at an end :func:`plain_selection` and a new segment."""
    T = len(ys)
    rng = np.random.default_rng(1)
    noise = (1024 * rng.laplace(0, 1 / 0.15, T)).tolist()
    tnoise = (1024 * rng.laplace(0, 1 / 0.15, T + 1)).tolist()
    gum = rng.gumbel(0, 1, T + 1).tolist()
    b, a, off, tau = 1024, 512, 0, 1024 * 76.0
    t0 = time.perf_counter()
    c = m = j = k = start = 0
    px: list = []
    py: list = []
    rho, cap, t = tau + tnoise[0], 64, n // 2
    for x, y in zip(xs, ys):
        v = x["x"] if form == "dict" else x
        if not (type(v) is int and 0 <= v < n):
            raise ValueError(v)
        h = v >= t
        p = h  # predict_one's answer
        yy = 1 if y == 1 else 0
        c += h != yy
        m += 1
        px.append(v)
        py.append(yy)
        top = stay and b * c - a * m - off + noise[j] >= rho
        if top or m >= cap:
            t, err = plain_selection(px, py, n, gum[k], 0.8)
            if stay:
                a = min(512, int(1024 * (err + tnoise[k + 1]) / m) + 20)
            k += 1
            start += m
            c, m, px, py = 0, 0, [], []
            rho, cap = tau + tnoise[k], max(64, start)
        j += 1
    del p
    return (time.perf_counter() - t0) / T * 1e6


def reference_two(n: int, form: str, xs: list, ys: list) -> float:
    """SignFreeBisectAT's round inline: h_t(x), two one-sided mistake counts, two AboveThreshold comparisons with
    pre-drawn noise, a new threshold at the first ⊤ of either."""
    T = len(ys)
    rng = np.random.default_rng(1)
    n0, n1 = rng.laplace(0, 2.0, T).tolist(), rng.laplace(0, 2.0, T).tolist()
    t0n, t1n = rng.laplace(0, 2.0, T + 1).tolist(), rng.laplace(0, 2.0, T + 1).tolist()
    tau = 29.0
    t0 = time.perf_counter()
    c0 = c1 = j = k = 0
    r0, r1, t = tau + t0n[0], tau + t1n[0], n // 2
    for x, y in zip(xs, ys):
        v = x["x"] if form == "dict" else x
        if not (type(v) is int and 0 <= v < n):
            raise ValueError(v)
        h = v >= t
        p = h  # predict_one's answer
        yy = 1 if y == 1 else 0
        miss = h != yy
        c0 += miss & yy
        c1 += miss & (1 - yy)
        left, right = c0 + n0[j] >= r0, c1 + n1[j] >= r1
        if left or right:
            k += 1
            c0 = c1 = 0
            r0, r1, t = tau + t0n[k], tau + t1n[k], (t * 7 + 1) % n
        j += 1
    del p
    return (time.perf_counter() - t0) / T * 1e6


class PlainThresholdReader:
    """What a hand-written threshold model does to read a point and predict: x itself or river's {"x": v}, checked
    to be an int of the domain; the prediction 1[v ≥ t] in the declared labels."""

    def _read(self, x):
        v = x["x"] if self.form == "dict" else x
        if not (type(v) is int and 0 <= v < self.n):
            raise ValueError(v)
        return v

    def predict_one(self, x):
        return self.labels[self._read(x) >= self.t]


class PlainEMModel(PlainThresholdReader):
    """SegmentedEM's (``stay``) or EpochEM's round as a hand-written plain-Python river model: predict_one reads and
    checks x and evaluates h_j; learn_one does it again, counts the mistake and the round, buffers the example, runs
    the stay test (SegmentedEM) and the public doubling end, and at an end :func:`plain_selection` (amortised: its cost
    is inside µs/round)."""

    def __init__(self, n: int, form: str, T: int, stay: bool):
        rng = np.random.default_rng(1)
        self.noise = (1024 * rng.laplace(0, 1 / 0.15, T)).tolist()
        self.tnoise = (1024 * rng.laplace(0, 1 / 0.15, T + 1)).tolist()
        self.gum = rng.gumbel(0, 1, T + 1).tolist()
        self.n, self.form, self.stay = n, form, stay
        self.b, self.a, self.off, self.tau = 1024, 512, 0, 1024 * 76.0
        self.c = self.m = self.j = self.k = self.start = 0
        self.px: list = []
        self.py: list = []
        self.rho, self.cap, self.t = self.tau + self.tnoise[0], 64, n // 2
        self.labels = (0, 1)

    def learn_one(self, x, y):
        v = self._read(x)
        yy = 1 if y == 1 else 0
        self.c += (v >= self.t) != yy
        self.m += 1
        self.px.append(v)
        self.py.append(yy)
        top = self.stay and self.b * self.c - self.a * self.m - self.off + self.noise[self.j] >= self.rho
        if top or self.m >= self.cap:
            self.t, err = plain_selection(self.px, self.py, self.n, self.gum[self.k], 0.8)
            if self.stay:
                self.a = min(512, int(1024 * (err + self.tnoise[self.k + 1]) / self.m) + 20)
            self.k += 1
            self.start += self.m
            self.c, self.m, self.px, self.py = 0, 0, [], []
            self.rho, self.cap = self.tau + self.tnoise[self.k], max(64, self.start)
        self.j += 1


class PlainTwoSidedModel(PlainThresholdReader):
    """SignFreeBisectAT's round as a hand-written plain-Python river model: two one-sided mistake counts, two
    AboveThreshold comparisons with pre-drawn noise, a new threshold at the first ⊤ of either."""

    def __init__(self, n: int, form: str, T: int):
        rng = np.random.default_rng(1)
        self.n0, self.n1 = rng.laplace(0, 2.0, T).tolist(), rng.laplace(0, 2.0, T).tolist()
        self.t0n, self.t1n = rng.laplace(0, 2.0, T + 1).tolist(), rng.laplace(0, 2.0, T + 1).tolist()
        self.tau, self.n, self.form = 29.0, n, form
        self.c0 = self.c1 = self.j = self.k = 0
        self.r0, self.r1, self.t = self.tau + self.t0n[0], self.tau + self.t1n[0], n // 2
        self.labels = (0, 1)

    def learn_one(self, x, y):
        yy = 1 if y == 1 else 0
        miss = (self._read(x) >= self.t) != yy
        self.c0 += miss & yy
        self.c1 += miss & (1 - yy)
        left = self.c0 + self.n0[self.j] >= self.r0
        right = self.c1 + self.n1[self.j] >= self.r1
        if left or right:
            self.k += 1
            self.c0 = self.c1 = 0
            self.r0, self.r1 = self.tau + self.t0n[self.k], self.tau + self.t1n[self.k]
            self.t = (self.t * 7 + 1) % self.n
        self.j += 1


class PlainModel:
    """The same per-round work as a plain-Python river model (predict_one / learn_one methods, no library): what a
    data scientist would write by hand. Each method reads and checks x itself, as a hand-written model does."""

    def __init__(self, kind: str, n: int, form: str, T: int):
        rng = np.random.default_rng(1)
        self.noise = rng.laplace(0, 1.0, T).tolist()
        self.tnoise = rng.laplace(0, 1.0, T + 1).tolist()
        self.tau, self.kind, self.n, self.form = 10.0, kind, n, form
        self.edges = [np.linspace(0, 1, 17)[1:-1].tolist()] * 3
        self.c = self.j = self.k = 0
        self.rho = self.tau + self.tnoise[0]
        self.t, self.a, self.b, self.q, self.f = n // 2, n // 4, n // 2, 7, 0
        self.labels = (0, 1)

    def _read(self, x):
        if self.form == "dict3":
            return tuple([bisect_right(self.edges[i], x[nm]) for i, nm in enumerate(NAMES)])
        v = x["x"] if self.form == "dict" else x
        if not (type(v) is int and 0 <= v < self.n):
            raise ValueError(v)
        return v

    def _h(self, v):
        if self.form == "dict3":
            return v[self.f] >= self.t
        if self.kind == "points":
            return v == self.q
        if self.kind == "intervals":
            return self.a <= v <= self.b
        return v >= self.t

    def predict_one(self, x):
        return self.labels[self._h(self._read(x))]

    def learn_one(self, x, y):
        yy = 1 if y == 1 else 0
        self.c += self._h(self._read(x)) != yy
        if self.c + self.noise[self.j] >= self.rho:
            self.c, self.k = 0, self.k + 1
            self.rho = self.tau + self.tnoise[self.k]
            self.t, self.q, self.f = (self.t * 7 + 1) % self.n, (self.q * 31 + 1) % self.n, (self.f + 1) % 3
        self.j += 1


def reference_model(kind: str, n: int, form: str, xs: list, ys: list, work: str = "count") -> float:
    """µs/round of the plain model of the case's work (:class:`PlainModel`, :class:`PlainEMModel`,
    :class:`PlainTwoSidedModel`) driven as river drives a model."""
    T = len(ys)
    if work in ("em", "epochs"):
        return drive(PlainEMModel(n, form, T, stay=work == "em"), xs, ys)
    if work == "two":
        return drive(PlainTwoSidedModel(n, form, T), xs, ys)
    return drive(PlainModel(kind, n, form, T), xs, ys)


def drive(model, xs: list, ys: list) -> float:
    """µs/round of ``predict_one(x)`` then ``learn_one(x, y)`` over the stream (river's progressive validation)."""
    predict, learn = model.predict_one, model.learn_one
    t0 = time.perf_counter()
    for x, y in zip(xs, ys):
        predict(x)
        learn(x, y)
    return (time.perf_counter() - t0) / len(ys) * 1e6


# ----------------------------------------------------------------------------------------------- the learners
def build(case: str, kind: str, n: int, form: str, T: int):
    from littlestone.classes import Intervals, Points, Thresholds
    from littlestone.private_online import BisectAT, ListAT
    from littlestone.private_online.intervals_at import IntervalsAT
    from littlestone.private_online.points_at import PointsAT

    if case in WORK:  # the noisy-stream learners and the sign-free bisection (thresholds)
        from littlestone.private_online.epoch_em import EpochEM
        from littlestone.private_online.segmented_em import SegmentedEM
        from littlestone.private_online.signfree_bisect_at import SignFreeBisectAT

        cls = {"SegmentedEM": SegmentedEM, "EpochEM": EpochEM, "SignFreeBisectAT": SignFreeBisectAT}[case]
        return cls(Thresholds(n), T=T, epsilon=1.0, backend="seeded", seed=0)
    kw = dict(T=T, epsilon=1.0, backend="seeded", seed=0)
    if form == "dict3":
        from littlestone.classes.feature_grid import FeatureGrid
        from littlestone.classes.grid_classes import GridStumps

        return ListAT(GridStumps(FeatureGrid({nm: (0.0, 1.0) for nm in NAMES}, bins=16)), **kw)
    H = {"thresholds": Thresholds, "points": Points, "intervals": Intervals}[kind](n)
    return {"BisectAT": BisectAT, "ListAT": ListAT, "PointsAT": PointsAT, "IntervalsAT": IntervalsAT}[case](H, **kw)


def time_learner(case: str, kind: str, n: int, form: str, xs: list, ys: list) -> float:
    return drive(build(case, kind, n, form, len(ys)), xs, ys)


def worker(T: int, tree: str, repeat: int = 1) -> None:
    """Time every case this tree supports (one process: the tree's littlestone on sys.path); each case ``repeat``
    times, learner, loop and model interleaved, the fastest of each kept."""
    out = {}
    for case, kind, n, form in CASES:
        xs, ys = make_stream(kind, n, form, T)
        key = f"{case}|{kind}|{form}"
        work = WORK.get(case, "count")
        try:
            runs = [
                (
                    time_learner(case, kind, n, form, xs, ys),
                    reference(kind, n, form, xs, ys, work),
                    reference_model(kind, n, form, xs, ys, work),
                )
                for _ in range(repeat)
            ]
            out[key] = {
                "learner": min(r[0] for r in runs),
                "reference": min(r[1] for r in runs),
                "model": min(r[2] for r in runs),
            }
        except Exception as exc:  # noqa: BLE001 - a case the old tree does not support
            out[key] = {"error": f"{type(exc).__name__}: {str(exc)[:80]}"}
    print(json.dumps({"tree": tree, "results": out}))


def export_tree(ref: str, into: Path) -> Path:
    """``git archive ref src`` unpacked into ``into`` (the old code imported from there)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def run_worker(src: Path, T: int, tree: str, repeat: int = 1) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", tree, "--T", str(T), "--repeat", str(repeat)]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])["results"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--T", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--before", default="main", help="git ref of the 'before' code (default: main)")
    ap.add_argument("--out", default=str(HERE / "results" / "river_rounds.md"), help="'-' = print only")
    ap.add_argument("--repeat", type=int, default=2, help="timings of each case per run (fastest kept)")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.T, args.worker, args.repeat)
        return
    sha = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", args.before], check=True, capture_output=True, text=True
    ).stdout.strip()
    best: dict[str, dict[str, dict]] = {"before": {}, "after": {}}
    with tempfile.TemporaryDirectory() as tmp:
        old_src = export_tree(args.before, Path(tmp))
        for r in range(args.rounds):
            for tree, src in (("before", old_src), ("after", ROOT / "src")):
                res = run_worker(src, args.T, tree, args.repeat)
                for key, v in res.items():
                    cur = best[tree].setdefault(key, v)
                    if "learner" in v and "learner" in cur:
                        cur["learner"] = min(cur["learner"], v["learner"])
                        cur["reference"] = min(cur["reference"], v["reference"])
                        cur["model"] = min(cur["model"], v["model"])
                print(f"round {r + 1}/{args.rounds} done", flush=True)
    load = os.getloadavg()
    lines = [
        "## River-speed rounds: predict_one + learn_one (issue 33 item 6)",
        "",
        f"`PYTHONPATH=src python benchmarks/bench_river_rounds.py --T {args.T} --rounds {args.rounds} --repeat {args.repeat} "
        f"--before {args.before}` — "
        f"before = `{args.before}` ({sha}), after = this tree; fastest of {args.rounds} runs × {args.repeat} timings each, T = {args.T:,} "
        f"rounds of a noisy stream (labels flipped w.p. {NOISE}), ε = 1, seeded backend; load average "
        f"{load[0]:.1f} / {load[1]:.1f} (2 cores). reference = a plain-Python loop of the same per-round work "
        "(feature read, domain check, h_t(x), label, mistake count, AboveThreshold comparison with pre-drawn noise; "
        "SegmentedEM / EpochEM also buffer the example and run a numpy selection once per segment, amortised in "
        "µs/round; SignFreeBisectAT two counts and two comparisons: see the script's docstring) "
        "inline; plain model = the same work as a hand-written plain-Python river model (predict_one / learn_one "
        "methods). Ratios are to the plain model (the issue's target: within 3×); ÷ loop to the inline loop.",
        "",
        "| learner | class | x | before µs/round | after µs/round | plain model µs | inline loop µs | "
        "before ÷ model | after ÷ model | after ÷ loop | speed-up |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for case, kind, n, form in CASES:
        key = f"{case}|{kind}|{form}"
        b, a = best["before"].get(key, {}), best["after"].get(key, {})
        if "learner" not in a:
            lines.append(f"| {case} | {kind} | {form} | — | error: {a.get('error')} | | | | | | |")
            continue
        ref = min(a["reference"], b.get("reference", a["reference"]))
        mod = min(a["model"], b.get("model", a["model"]))
        cls = f"{kind}({n})" if form != "dict3" else kind
        x = {"int": "int", "dict": 'river dict {"x": v}', "dict3": "river dict, 3 features"}[form]
        if "learner" in b:
            lines.append(
                f"| {case} | {cls} | {x} | {b['learner']:.2f} | {a['learner']:.2f} | {mod:.2f} | {ref:.2f} | "
                f"{b['learner'] / mod:.1f}× | {a['learner'] / mod:.1f}× | {a['learner'] / ref:.1f}× | "
                f"{b['learner'] / a['learner']:.1f}× |"
            )
        else:
            lines.append(
                f"| {case} | {cls} | {x} | — (not supported before) | {a['learner']:.2f} | {mod:.2f} | {ref:.2f} | — | "
                f"{a['learner'] / mod:.1f}× | {a['learner'] / ref:.1f}× | — |"
            )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out != "-":
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"→ {args.out}")


if __name__ == "__main__":
    main()
