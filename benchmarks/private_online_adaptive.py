"""Mistakes of the private online learners against adaptive adversaries (issue 20 item 2), on thresholds.

Local adversaries (the shared ones live in littlestone.online.adversaries):
* late: late-commitment — each round the point whose label flipped against h_t(x) keeps the most thresholds
  consistent (realizable; when no flip is realizable, a uniform point labelled to keep the larger version space);
* disagree: disagreement-seeking — a fixed random target; a uniform point where h_t and the target disagree
  (a uniform point when they agree everywhere);
* tree: the library's TreeAdversary; iid: uniform points labelled by a random target (vectorised ``run``).
One game of horizon T_max per (learner, d, adversary, seed); cumulative mistakes are read at T = 10³ … T_max, then
the mistakes of the last 10 % of rounds (0: it stopped erring) and the status (halted / restarts=k).

Run: PYTHONPATH=src python benchmarks/private_online_adaptive.py --learners lwy25,gl21 --ds 1,2,3 --Tmax 100000
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from littlestone import Thresholds

N_OF_D = {1: 2, 2: 4, 3: 8}  # thresholds on n points: Ldim ⌊log2(n+1)⌋ (n = 2, 4, 8 → d = 1, 2, 3)


def late_commitment(n: int, rng: np.random.Generator):
    lo, hi = 0, n  # version space {h_t : lo ≤ t ≤ hi}, h_t(x) = 1 ⇔ x ≥ t

    def step(h):
        nonlocal lo, hi
        best, bx, by = -1, 0, 0
        for x in range(n):
            y = 1 - int(h(x))
            size = (min(hi, x) - lo + 1) if y else (hi - max(lo, x + 1) + 1)
            if size > best:
                best, bx, by = size, x, y
        if best <= 0:
            bx = int(rng.integers(0, n))
            s1, s0 = min(hi, bx) - lo + 1, hi - max(lo, bx + 1) + 1
            by = 1 if s1 >= s0 else 0
        if by:
            hi = min(hi, bx)
        else:
            lo = max(lo, bx + 1)
        return bx, by

    return step


def disagreement(n: int, rng: np.random.Generator):
    t = int(rng.integers(0, n + 1))

    def step(h):
        bad = [x for x in range(n) if int(h(x)) != int(x >= t)]
        x = bad[int(rng.integers(0, len(bad)))] if bad else int(rng.integers(0, n))
        return x, int(x >= t)

    return step


def make(learner: str, H, T: int, seed: int, variant: str):
    from littlestone.private_online import GL21, LWY25, AnytimeGL21, AnytimeLWY25

    cls = {"lwy25": LWY25, "gl21": GL21, "lwy25-anytime": AnytimeLWY25, "gl21-anytime": AnytimeGL21}[learner]
    kw = {} if variant == "default" else {"setting": variant}
    return cls(H, T=T, epsilon=1.0, delta=1e-6, backend="seeded", seed=seed, **kw)


def _status(L) -> str:
    """Whether the learner stopped for good (paper algorithms) or how often it restarted (anytime variants)."""
    if hasattr(L, "restarts"):
        return f"restarts={L.restarts}"
    return "halted" if getattr(L, "halted", False) or getattr(L, "aborted", False) else "running"


def game(learner: str, d: int, adv: str, seed: int, Tmax: int, checkpoints: list[int], variant: str) -> list:
    """Cumulative mistakes at the checkpoints, then the mistakes of the last 10 % of rounds and the status."""
    n = N_OF_D[d]
    H = Thresholds(n)
    L = make(learner, H, Tmax, seed, variant)
    rng = np.random.default_rng(10_000 + seed)
    out = []
    if adv == "iid":
        t = int(rng.integers(0, n + 1))
        X = rng.integers(0, n, Tmax)
        r = L.run(X, (X >= t).astype(np.int8))
        cm = r.cumulative_mistakes
        return [int(cm[c - 1]) for c in checkpoints] + [int(cm[-1] - cm[Tmax - Tmax // 10 - 1]), _status(L)]
    if adv == "tree":
        from littlestone.online import TreeAdversary

        A = TreeAdversary(H)
        A.start(rng)

        def step(h, _t=[0]):
            x = A.propose(_t[0])
            y = A.reveal(_t[0], x, int(h(x)))
            _t[0] += 1
            return x, y

    else:
        step = (late_commitment if adv == "late" else disagreement)(n, rng)
    m = 0
    cps = set(checkpoints)
    tail_from = Tmax - Tmax // 10
    m_tail = 0
    for t in range(1, Tmax + 1):
        h = L.hypothesis()
        x, y = step(h)
        m += int(h(x)) != y
        L.learn_one(x, y)
        if t in cps:
            out.append(m)
        if t == tail_from:
            m_tail = m
    return out + [m - m_tail, _status(L)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--learners", default="lwy25,gl21")
    ap.add_argument("--ds", default="1,2,3")
    ap.add_argument("--advs", default="late,disagree,tree,iid")
    ap.add_argument("--seeds", default="0,1")
    ap.add_argument("--Tmax", type=int, default=100_000)
    ap.add_argument("--variant", default="default")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    cps = [c for c in (10**3, 10**4, 10**5, 10**6, 10**7) if c <= a.Tmax]
    rows = []
    for learner in a.learners.split(","):
        for d in map(int, a.ds.split(",")):
            for adv in a.advs.split(","):
                for seed in map(int, a.seeds.split(",")):
                    t0 = time.perf_counter()
                    try:
                        res = game(learner, d, adv, seed, a.Tmax, cps, a.variant)
                    except Exception as exc:  # noqa: BLE001 - a benchmark row records the failure
                        res = [f"error: {exc}"[:80]]
                    row = dict(
                        learner=learner,
                        variant=a.variant,
                        d=d,
                        adv=adv,
                        seed=seed,
                        Tmax=a.Tmax,
                        checkpoints=cps,
                        mistakes=res,
                        wall=round(time.perf_counter() - t0, 1),
                    )
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    if a.out:
        with open(a.out, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    sys.exit(main())
