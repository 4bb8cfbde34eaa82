"""Private online learning on noisy streams (issue 33, App. G): designs × classes × streams × T.

Regret R_T = M_T − min_h M_T(h) (the best hypothesis of the class in hindsight on the stream the learner saw), ε = 1,
seeded backend, median and worst over seeds. Designs: SegmentedEM (the default, G.2 + G.1 with the thresholds'
public window), SegmentedEM without the window, EpochEM (G.1), the realizable learner of the class (BisectAT,
PointsAT, IntervalsAT, ListAT — App. F). Reference: non-private Hedge over the same class (lazy: weights updated
every T/500 rounds, learning rate √(8 ln|H|/T)), its expected regret on the stream of the default learner's game.
The bound column is :func:`littlestone.bounds.agnostic_segments.segmented_em_bound` (i.i.d., setting="theory";
"—" for adaptive streams: no regret bound is proved against them).

Streams: ``iid`` (x uniform on the domain — for points, the target point w.p. ¼ — labels of a random target flipped
w.p. η), ``adv`` (reads h_t: x uniform where h_t and the target disagree, uniform when they agree; labels flipped
w.p. η), η = 0 is the clean stream.

    nice -n 10 python benchmarks/bench_agnostic_private_online.py --quick        # T ≤ 10⁴, a minute
    nice -n 10 python benchmarks/bench_agnostic_private_online.py                # T = 10³…10⁵ (+10⁶ default/thresholds)
    nice -n 10 python benchmarks/bench_agnostic_private_online.py --classes intervals16,stumps16,stumps60 \
        --Ts 10000,100000 --seeds 3 --streams iid:0.1,iid:0.3 --out benchmarks/results/agnostic_private_online_ranged.md
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

from littlestone import Intervals, Points, Thresholds
from littlestone.classes.stumps import NegThreshold, Stumps
from littlestone.bounds.agnostic_segments import segmented_em_bound
from littlestone.classes.finite import FiniteClass
from littlestone.private_online import BisectAT, EpochEM, ListAT, SegmentedEM
from littlestone.private_online.intervals_at import IntervalsAT
from littlestone.private_online.points_at import PointsAT
from littlestone.private_online.segment_scores import (
    IntervalScores,
    PointScores,
    StumpScores,
    ThresholdScores,
    scores_for,
)

RESULTS = Path(__file__).parent / "results" / "agnostic_private_online.md"


# ----------------------------------------------------------------------------------------------- classes and targets
def make_class(name: str):
    if name == "thr16":
        return Thresholds(2**16)
    if name == "thr60":
        return Thresholds(2**60)
    if name == "points16":
        return Points(range(2**16))
    if name == "intervals64":
        return Intervals(64)
    if name == "intervals16":
        return Intervals(2**16)
    if name == "stumps16":
        return Stumps(2**16)
    if name == "stumps60":
        return Stumps(2**60)
    if name == "finite":
        M = np.random.default_rng(7).integers(0, 2, size=(64, 256))
        return FiniteClass(M, name="random 64x256")
    raise ValueError(name)


REALIZABLE = {
    "thr16": BisectAT,
    "thr60": BisectAT,
    "points16": PointsAT,
    "intervals64": IntervalsAT,
    "intervals16": IntervalsAT,
    "finite": ListAT,
}
#: classes whose targets and disagreement regions are unions of intervals of {0, …, n−1} (any n)
RANGED = ("intervals16", "stumps16", "stumps60", "intervals64")  # closed-form scores and Hedge


def _as_intervals(h, n: int) -> list[tuple[int, int]]:
    """The points where h is 1, as intervals [a, b] of {0, …, n−1}."""
    if isinstance(h, NegThreshold):
        return [(0, h.s - 1)] if h.s > 0 else []
    if hasattr(h, "t"):
        return [(h.t, n - 1)] if h.t < n else []
    return list(h.intervals)


def _sym_diff(A: list, B: list, n: int) -> list[tuple[int, int]]:
    """The intervals where the unions A and B differ."""
    cuts = sorted({0, n} | {a for a, _ in A + B} | {b + 1 for _, b in A + B})
    out = []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        if lo < hi and any(a <= lo <= b for a, b in A) != any(a <= lo <= b for a, b in B):
            out.append((lo, hi - 1))
    return out


class Game:
    """A class with a target, its domain sampler, and the disagreement region of a hypothesis with the target."""

    def __init__(self, cname: str, H, rng: np.random.Generator):
        self.cname, self.H, self.rng = cname, H, rng
        self.scores = scores_for(H)
        if cname.startswith("thr"):
            n = H.n
            self.n = n
            self.target = int(rng.integers(n // 8, n - n // 8))
        elif cname == "points16":
            self.n = 2**16
            self.target = int(rng.integers(0, self.n))
        elif cname in RANGED:
            n = self.n = H.n
            if cname.startswith("intervals"):  # a target interval covering a quarter to a half of the domain
                a = int(rng.integers(n // 8, n // 2))
                self.target_iv = [(a, a + int(rng.integers(n // 4, n // 2)))]
            else:  # a threshold or a negated threshold, cut in the middle three quarters
                t = int(rng.integers(n // 8, n - n // 8))
                self.target_iv = [(t, n - 1)] if rng.random() < 0.5 else [(0, t - 1)]
        else:
            self.hyps = self.scores.hypotheses
            self.points = list(range(256))
            self.cols = np.array([[h(p) for p in self.points] for h in self.hyps], dtype=np.int8)
            self.ti = int(rng.integers(0, len(self.hyps)))
            self.target_row = self.cols[self.ti]
            self._region: dict = {}

    def label(self, x: np.ndarray) -> np.ndarray:
        if self.cname in RANGED:
            out = np.zeros(len(x), dtype=np.int8)
            for a, b in self.target_iv:
                out |= ((x >= a) & (x <= b)).astype(np.int8)
            return out
        if self.cname.startswith("thr"):
            return (x >= self.target).astype(np.int8)
        if self.cname == "points16":
            return (x == self.target).astype(np.int8)
        return self.target_row[x]

    def uniform(self, k: int) -> np.ndarray:
        if self.cname.startswith("thr") or self.cname in RANGED:
            return self.rng.integers(0, self.n, k, dtype=np.int64)
        if self.cname == "points16":
            x = self.rng.integers(0, self.n, k, dtype=np.int64)
            return np.where(self.rng.random(k) < 0.25, self.target, x)
        return self.rng.integers(0, len(self.points), k, dtype=np.int64)

    def adversarial(self, h) -> int:
        """One point where h and the target disagree (uniform there; uniform on the domain when they agree)."""
        if self.cname in RANGED:
            reg = _sym_diff(_as_intervals(h, self.n), self.target_iv, self.n)
            if not reg:
                return int(self.uniform(1)[0])
            lens = np.array([b - a + 1 for a, b in reg], dtype=float)
            a, b = reg[int(self.rng.choice(len(reg), p=lens / lens.sum()))]
            return a + int(self.rng.integers(0, b - a + 1))
        if self.cname.startswith("thr"):
            a, b = sorted((h.t, self.target))
            return int(self.rng.integers(a, b)) if a < b else int(self.uniform(1)[0])
        if self.cname == "points16":
            region = {self.target} ^ set(getattr(h, "points", ()))
            return int(self.rng.choice(sorted(region))) if region else int(self.uniform(1)[0])
        key = h.key() if hasattr(h, "key") else id(h)
        reg = self._region.get(key)
        if reg is None:
            row = np.array([h(p) for p in self.points], dtype=np.int8)
            reg = self._region[key] = np.flatnonzero(row != self.target_row)
        return int(self.rng.choice(reg)) if reg.size else int(self.uniform(1)[0])


# ----------------------------------------------------------------------------------------------- best and Hedge
def cells_over_stream(game: Game, X: np.ndarray):
    """(log sizes, block-loss function) of the class's cells on the whole stream (a reference computation)."""
    sc = game.scores
    if isinstance(sc, StumpScores):  # thresholds t ∈ [0, n] and negations s ∈ [1, n − 1]: cuts between stream points
        u = np.unique(X)
        n = game.n
        pos = np.log((np.concatenate([u, [n]]) - np.concatenate([[0], u + 1]) + 1).astype(float))
        neg_sz = np.concatenate([np.minimum(u, n - 1), [n - 1]]) - np.concatenate([[1], np.maximum(u + 1, 1)]) + 1
        keep = neg_sz > 0
        logsz = np.concatenate([pos, np.log(neg_sz[keep].astype(float))])

        def loss(xb, yb):
            idx = np.searchsorted(u, xb)
            ones = np.bincount(idx, weights=yb, minlength=u.size)
            zeros = np.bincount(idx, minlength=u.size) - ones
            c1, c0 = np.concatenate([[0], np.cumsum(ones)]), np.concatenate([[0], np.cumsum(zeros)])
            lp = c1 + (c0[-1] - c0)
            return np.concatenate([lp, (len(yb) - lp)[keep]])

        return logsz, loss
    if isinstance(sc, ThresholdScores):
        u = np.unique(X)
        starts = np.concatenate([[sc.lo], u + 1])
        ends = np.concatenate([u, [sc.hi]])
        logsz = np.log((ends - starts + 1).astype(float))

        def loss(xb, yb):
            idx = np.searchsorted(u, xb)
            ones = np.bincount(idx, weights=yb, minlength=u.size)
            zeros = np.bincount(idx, minlength=u.size) - ones
            c1, c0 = np.concatenate([[0], np.cumsum(ones)]), np.concatenate([[0], np.cumsum(zeros)])
            return c1 + (c0[-1] - c0)

        return logsz, loss
    if isinstance(sc, PointScores):
        u = np.unique(X)
        rest = game.n - u.size
        logsz = np.concatenate([np.zeros(u.size + 1), [math.log(rest)] if rest else []])

        def loss(xb, yb):
            idx = np.searchsorted(u, xb)
            ones = np.bincount(idx, weights=yb, minlength=u.size)
            zeros = np.bincount(idx, minlength=u.size) - ones
            O = yb.sum()
            return np.concatenate([O - ones + zeros, [O], [O] if rest else []])

        return logsz, loss
    cols = game.cols

    def loss(xb, yb):
        d = np.bincount(xb, weights=1 - 2 * yb.astype(float), minlength=cols.shape[1])
        return yb.sum() + cols @ d

    return np.zeros(cols.shape[0]), loss


def interval_best_and_hedge(game: Game, X: np.ndarray, Y: np.ndarray, blocks: int = 500) -> tuple[int, float]:
    """Intervals on any domain: the best interval and lazy Hedge over all n(n+1)/2 + 1 intervals, exactly, in O(m) per
    block (m distinct stream points): an interval covering the stream points p_i … p_{j−1} has d_i·d_j copies and
    weight ∝ d_i e^{−λE_i}·d_j e^{λE_j} (E prefix sums of ones − zeros), so Hedge's start and end marginals are
    prefix/suffix log-sum-exps (docs/derivations.md, G.3); the intervals covering no stream point share the empty
    interval's losses."""
    n = game.n
    u = np.unique(X)
    m = u.size
    p = np.concatenate([[-1], u, [n]]).astype(np.int64)
    d = np.diff(p)  # d_0 … d_m
    lnZ = math.log(1 + sum(int(c) * (int(c) + 1) // 2 for c in (d - 1).tolist()))
    lnd = np.log(d.astype(float))
    T = len(Y)
    lr = math.sqrt(8 * math.log(n * (n + 1) // 2 + 1) / T)
    E = np.zeros(m + 1)
    O = 0.0
    hedge = 0.0
    edges = np.linspace(0, T, min(blocks, T) + 1).astype(int)
    for a, b in zip(edges[:-1], edges[1:]):
        xb, yb = X[a:b], Y[a:b].astype(np.int64)
        idx = np.searchsorted(u, xb)
        e = np.bincount(idx, weights=2 * yb - 1, minlength=m)  # ones − zeros per point
        Eb = np.concatenate([[0.0], np.cumsum(e)])
        la, lv = lnd - lr * E, lnd + lr * E  # start weights (i = 0 … m−1), end weights (j = 1 … m)
        lV = np.logaddexp.accumulate(lv[::-1])[::-1]  # lV[k] = LSE_{j ≥ k} lv_j
        lA = np.logaddexp.accumulate(la)  # lA[k] = LSE_{i ≤ k} la_i
        q_start = la[:m] + lV[1:]
        q_end = lv[1:] + lA[:m]
        tot = np.logaddexp(np.logaddexp.reduce(q_start) if m else -np.inf, lnZ)
        ob = float(yb.sum())
        hedge += ob - float(np.exp(q_end - tot) @ Eb[1:]) + float(np.exp(q_start - tot) @ Eb[:m])
        E += Eb
        O += ob
    run = E - np.minimum.accumulate(E)  # max over i ≤ j of E_j − E_i
    return int(round(O - max(0.0, float(run.max())))), hedge


def best_and_hedge(game: Game, X: np.ndarray, Y: np.ndarray, blocks: int = 500) -> tuple[int, float]:
    """(mistakes of the best hypothesis in hindsight, Hedge's expected mistakes) on the stream (X, Y)."""
    if isinstance(game.scores, IntervalScores):
        return interval_best_and_hedge(game, X, Y, blocks)
    logsz, loss = cells_over_stream(game, X)
    T = len(Y)
    ln_h = float(np.logaddexp.reduce(logsz))
    lr = math.sqrt(8 * max(ln_h, 1e-9) / T)
    L = np.zeros(logsz.size)
    hedge = 0.0
    edges = np.linspace(0, T, min(blocks, T) + 1).astype(int)
    for a, b in zip(edges[:-1], edges[1:]):
        lb = loss(X[a:b], Y[a:b].astype(np.int64))
        w = logsz - lr * L
        p = np.exp(w - w.max())
        hedge += float(p @ lb / p.sum())
        L += lb
    return int(L.min()), hedge


# ----------------------------------------------------------------------------------------------- games
def play(design: str, game: Game, stream: str, eta: float, T: int, seed: int):
    H = game.H
    kw = dict(T=T, epsilon=1.0, backend="seeded", seed=seed)
    if design == "segment-em":
        L = SegmentedEM(H, **kw)
    elif design == "segment-em/no-window":
        L = SegmentedEM(H, window=False, **kw)
    elif design == "epoch-em":
        L = EpochEM(H, **kw)
    else:
        L = REALIZABLE[game.cname](H, **kw)
    rng = game.rng
    if stream == "iid":
        X = game.uniform(T)
        Y = game.label(X) ^ (rng.random(T) < eta).astype(np.int8)
        pts = X if not hasattr(game, "points") else X  # finite classes: points are the integers 0..P−1
        M = L.run(pts, Y).mistakes
        return M, X, Y
    X = np.empty(T, np.int64)
    Y = np.empty(T, np.int8)
    flips = rng.random(T) < eta
    M = 0
    for t in range(T):
        h = L.hypothesis()
        x = game.adversarial(h)
        y = int(game.label(np.array([x]))[0]) ^ int(flips[t])
        M += int(h(x) != y)
        L.learn_one(x, y)
        X[t], Y[t] = x, y
    return M, X, Y


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--classes", default="thr16,thr60,points16,intervals64,finite")
    ap.add_argument("--Ts", default=None)
    ap.add_argument("--seeds", type=int, default=None)
    ap.add_argument("--streams", default=None, help="e.g. iid:0.1,iid:0.3 (default: iid and adv, η = 0.1/0.3/0)")
    ap.add_argument("--million", action="store_true", help="also T = 10⁶ for the default on thresholds(2^16)")
    ap.add_argument("--designs", default=None, help="only these designs (comma-separated names as in the table)")
    ap.add_argument("--out", default=str(RESULTS))
    a = ap.parse_args()
    Ts = [int(float(v)) for v in a.Ts.split(",")] if a.Ts else ([1000, 10000] if a.quick else [1000, 10000, 100000])
    streams = [("iid", 0.1), ("iid", 0.3), ("adv", 0.1), ("iid", 0.0), ("adv", 0.0)]
    if a.streams:
        streams = [(k, float(v)) for k, v in (item.split(":") for item in a.streams.split(","))]
    rows = []
    t_start = time.time()
    for cname in a.classes.split(","):
        H = make_class(cname)
        designs = ["segment-em", "epoch-em"] + ([REALIZABLE[cname].__name__] if cname in REALIZABLE else [])
        if cname == "thr16":
            designs.insert(1, "segment-em/no-window")
        if a.designs:
            designs = [d for d in designs if d in a.designs.split(",")]
        for T in Ts + ([10**6] if a.million and cname == "thr16" else []):
            for stream, eta in streams:
                for design in designs:
                    if T == 10**6 and design != "segment-em":
                        continue
                    if stream == "adv" and T > 10**5:
                        continue
                    n_seeds = a.seeds or (5 if T <= 10**4 else 3)
                    regs, bests, hedges, Ms = [], [], [], []
                    t0 = time.time()
                    for seed in range(n_seeds):
                        game = Game(cname, H, np.random.default_rng([seed, 33]))
                        M, X, Y = play(design, game, stream, eta, T, seed)
                        best, hedge = best_and_hedge(game, X, Y)
                        regs.append(M - best)
                        bests.append(best)
                        hedges.append(hedge - best)
                        Ms.append(M)
                    bound = "—"
                    if stream == "iid" and design == "segment-em":
                        bound = f"{segmented_em_bound(H, T, 1.0, 0.1).regret:,.0f}"
                    row = (
                        cname,
                        stream,
                        eta,
                        T,
                        design,
                        float(np.median(regs)),
                        max(regs),
                        float(np.median(Ms)),
                        float(np.median(bests)),
                        float(np.median(hedges)),
                        bound,
                        n_seeds,
                        time.time() - t0,
                    )
                    rows.append(row)
                    print(
                        f"{cname:11s} {stream}{eta:<4} T={T:<8} {design:22s} regret med {row[5]:9.1f} "
                        f"({100 * row[5] / T:6.3f}%) worst {row[6]:8d} ({100 * row[6] / T:6.3f}%) M {row[7]:9.0f} "
                        f"best {row[8]:9.0f} hedge {row[9]:8.1f} bound {bound} [{row[12]:.1f}s]",
                        flush=True,
                    )
    write(rows, a.out, " ".join(sys.argv[1:]), time.time() - t_start)


def write(rows, out: str, args: str, secs: float) -> None:
    lines = [
        "# Private online learning on noisy streams (issue 33): designs × classes × streams × T",
        "",
        f"`nice -n 10 python benchmarks/bench_agnostic_private_online.py {args}` ({secs / 60:.1f} min). ε = 1, "
        "seeded backend. Regret = mistakes − mistakes of the best hypothesis of the class in hindsight on the "
        "stream the learner saw; median and worst over the seeds; Hedge = non-private Hedge's expected regret on "
        "the same stream (lazy, T/500 blocks); bound = `littlestone bounds segment-em` (i.i.d. streams, "
        "setting='theory', w.p. ≥ 0.9; — : none proved for adaptive streams). Streams: iid η (labels flipped "
        "w.p. η), adv η (x where h_t and the target disagree), η = 0 clean.",
        "",
        "| class | stream | η | T | design | regret median | % T | worst | % T | mistakes | best | Hedge regret "
        "| bound | seeds |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c, s, eta, T, d, med, worst, M, best, hedge, bound, ns, _ in rows:
        lines.append(
            f"| {c} | {s} | {eta} | {T:,} | {d} | {med:,.0f} | {100 * med / T:.3f} | {worst:,} | "
            f"{100 * worst / T:.3f} | {M:,.0f} | {best:,.0f} | {hedge:,.1f} | {bound} | {ns} |"
        )
    Path(out).write_text("\n".join(lines) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
