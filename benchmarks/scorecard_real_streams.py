"""Issue 33's real-stream target, fast: one agnostic learner (its constructor options as JSON) on all 170 cells of
river's bundled streams (Phishing, Bananas, ImageSegments sky / foliage, Shuttle; every feature on its declared public
grid; ε = 1, seeded backend), against the best hypothesis of the class in hindsight and the majority class.

Per cell the worst of ``--seeds`` seeds: "within2" counts the cells within 2 points of the best, "target" those also
not below the majority class, "nontrivial" the cells whose best beats the majority by more than 2 points (where the
target asks for learning, not for zero regret against a constant). Cells that miss by more than 2 points are printed
(all cells with ``--verbose``). The last line gives a view with less seed-to-seed variance than the worst seed: the
share of (cell, seed) runs within 2 points, per stream. About 2 minutes on a busy machine; only the learner under test runs (the full table
with Hedge, FTL and the realizable learners is benchmarks/bench_real_streams.py).

    PYTHONPATH=$PWD/src nice python benchmarks/scorecard_real_streams.py                       # the default learner
    PYTHONPATH=$PWD/src nice python benchmarks/scorecard_real_streams.py '{"first": 64}' --seeds 5
    PYTHONPATH=$PWD/src nice python benchmarks/scorecard_real_streams.py '{}' --cls ep --streams phishing
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from littlestone.experiments import real_streams as rs
from littlestone.private_online.epoch_em import EpochEM
from littlestone.private_online.segmented_em import SegmentedEM

LEARNERS = {"seg": SegmentedEM, "ep": EpochEM}


def cells_of(stream, kinds: list[str]) -> list[tuple[str, str]]:
    """(feature, kind) of every cell of a stream: each single-feature kind on every feature, each multi-feature kind
    once (the stream declares its features)."""
    feats = [f for g in stream.spec.grids for f in ([g.feature] if isinstance(g.feature, str) else g.feature)]
    single = [(f, k) for f in feats for k in kinds if k not in rs.MULTI_KINDS]
    return single + [(feats[0], k) for k in kinds if k in rs.MULTI_KINDS]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant", nargs="?", default="{}", help="constructor options as JSON, e.g. '{\"first\": 16}'")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--streams", default="phishing,bananas,segments-sky,segments-foliage,shuttle")
    ap.add_argument("--kinds", default="x≥t,x<t,stumps,intervals,stumps-k,boxes")
    ap.add_argument("--cls", default="seg", choices=sorted(LEARNERS), help="seg: SegmentedEM, ep: EpochEM")
    ap.add_argument("--verbose", action="store_true", help="print every cell, not only those more than 2 points off")
    a = ap.parse_args()
    kw = json.loads(a.variant)
    cls = LEARNERS[a.cls]
    entry = rs.PrivateEntry(
        "V",
        rs.ALL_KINDS,
        lambda H, T, eps, seed: cls(H, T=T, epsilon=eps, backend="seeded", seed=seed, **kw),
        agnostic=True,
    )
    t0 = time.time()
    n = within2 = target = nontrivial = nontrivial_ok = 0
    gaps = []
    pairs: dict[str, list[int]] = {}  # stream -> [seed runs within 2 points, seed runs]
    for sname in a.streams.split(","):
        stream = rs.load_stream(sname)
        for feature, kind in cells_of(stream, a.kinds.split(",")):
            r = rs.evaluate_cell(stream, feature, kind, seeds=a.seeds, learners=[entry])
            acc = r["private"]["V"]
            if isinstance(acc, str):
                print("cannot run:", sname, feature, kind, acc)
                continue
            worst = float(acc.min())
            gap = (r["best"] - worst) * 100
            k = pairs.setdefault(sname, [0, 0])
            k[0] += int(np.sum(acc >= r["best"] - 0.02 - 1e-9))
            k[1] += acc.size
            ok = gap <= 2 + 1e-9
            n += 1
            within2 += ok
            target += rs.meets_target(acc, r["best"], r["majority"])
            gaps.append(gap)
            if r["best"] > r["majority"] + 0.02:
                nontrivial += 1
                nontrivial_ok += ok
            if a.verbose or not ok:
                print(
                    f"{sname:16} {str(feature)[:20]:20} {kind:9} best {r['best'] * 100:5.1f} "
                    f"maj {r['majority'] * 100:5.1f} med {np.median(acc) * 100:5.1f} worst {worst * 100:5.1f} "
                    f"gap {gap:4.1f}",
                    flush=True,
                )
    print(
        f"{cls.__name__} {kw}: cells {n} within2 {within2} target {target} nontrivial(best>maj+2) "
        f"{nontrivial_ok}/{nontrivial} median gap {np.median(gaps):.2f} max {max(gaps):.1f} ({time.time() - t0:.0f}s)"
    )
    # a lower-variance view than the worst seed: the share of (cell, seed) runs within 2 points, per stream
    per = ", ".join(f"{s} {k[0] / k[1]:.1%}" for s, k in pairs.items())
    runs = [sum(k[0] for k in pairs.values()), sum(k[1] for k in pairs.values())]
    print(f"runs within 2 points: {runs[0]}/{runs[1]} ({runs[0] / max(runs[1], 1):.1%}; {per})")


if __name__ == "__main__":
    main()
