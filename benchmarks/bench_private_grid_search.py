"""Cost of PrivateGridSearchCV against the plain fits of the candidates it trains, before and after issue 32.

Before, ``sklearn.clone`` deep-copied the estimator's hypothesis class for every candidate and for every claim it
computed (16 copies for 4 configurations of the "auto" method); now classes are immutable values shared by clones
and each configuration is prepared once. The search's cost is compared with the plain fits of the same candidates
on the same data, in the same process:

* ``method="em"``: K fits, candidate k on a chunk of ⌊n_train/K⌋ rows at ε — the plain fits are those K fits;
* ``method="lt19"``: one fit per run on the whole training part at ε/3 — the plain fits are ``runs`` such fits
  (``runs`` from ``diagnostics_``).

The search also predicts on the validation part once per trained candidate (its score), which the plain fits do not.
"One fit" is a plain fit of the first configuration on the whole training part at ε (the issue's yardstick).

Set-up (the issue's): the generic learner with the class of decision stumps on a 16^4 grid of 4 features
(``grid_stumps(16, 4)``: 122 stumps on 65,536 points), the grid ``mode`` × ``alpha`` (4 configurations; it now warns,
IdenticalCandidatesWarning, which does not change the cost), n rows of integer features, ε = 1, seeded backend.

"Before" is the code of a git ref (default ``main``), extracted with ``git archive`` into a temporary directory and
run in a subprocess; "after" is this tree's ``src`` in another subprocess; both in the same invocation. Usage::

    nice -n 10 .venv/bin/python benchmarks/bench_private_grid_search.py [--before main] [--repeats 5] [--quick]
        [--write]

``--write`` saves benchmarks/results/private_grid_search.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------------------------------------ worker (one tree)
def _worker(n: int, repeats: int) -> dict:
    import warnings

    import gc

    import numpy as np

    from littlestone.pac import GenericLearnerClassifier, PrivateGridSearchCV, grid_stumps

    warnings.simplefilter("ignore")
    rng = np.random.default_rng(0)
    X = rng.integers(0, 16, size=(n, 4))
    y = (X[:, 0] + X[:, 1] >= 16).astype(int)
    H = grid_stumps(16, 4)
    grid = {"mode": ["agnostic", "realizable"], "alpha": [0.1, 0.2]}
    configs = [{"mode": m, "alpha": a} for a in grid["alpha"] for m in grid["mode"]]
    k, eps, v = len(configs), 1.0, 0.3
    n_val = int(v * n)
    n_train = n - n_val
    est = GenericLearnerClassifier(H, backend="seeded")

    def plain(cfg: dict, rows: int, e: float, seed: int) -> float:
        """One plain fit, as a user runs it: the estimator built on the user's class (no clone), garbage collected
        before the clock starts."""
        c = GenericLearnerClassifier(H, **cfg, epsilon=e, backend="seeded", random_state=seed)
        gc.collect()
        t = time.perf_counter()
        c.fit(X[:rows], y[:rows])
        return time.perf_counter() - t

    out: dict = {"n": n, "k": k, "n_points": H.n_points, "n_stumps": H.n_hypotheses}
    for method in ("em", "lt19"):
        search_t, plain_t, runs_l = [], [], []
        for r in range(repeats):
            gc.collect()
            sel = PrivateGridSearchCV(
                est, grid, epsilon=eps, method=method, backend="seeded", random_state=r, diagnostics=True
            )
            t = time.perf_counter()
            sel.fit(X, y)
            search_t.append(time.perf_counter() - t)
            runs = int(sel.diagnostics_["runs"])
            runs_l.append(runs)
            if method == "em":
                plain_t.append(sum(plain(c, n_train // k, eps, r) for c in configs))
            else:
                plain_t.append(sum(plain(configs[i % k], n_train, eps / 3, r) for i in range(runs)))
        ratios = [s / p for s, p in zip(search_t, plain_t)]
        one = float(np.median([plain(configs[0], n_train, eps, r) for r in range(repeats)]))
        out[method] = {
            "one_fit_s": one,
            "search_per_one_fit": float(np.median(search_t)) / one,
            "search_s": float(np.median(search_t)),
            "plain_s": float(np.median(plain_t)),
            "ratio_median": float(np.median(ratios)),
            "ratio_worst": float(np.max(ratios)),
            "runs": runs_l,
        }
    return out


# ------------------------------------------------------------------------------------------------ driver
def _extract(ref: str, into: Path) -> Path:
    """``src`` of git ``ref`` in ``into`` (the AOT kernels are untracked: the old tree runs without them, which the
    generic learner does not use)."""
    with tempfile.TemporaryFile() as fh:
        subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"], stdout=fh, check=True)
        fh.seek(0)
        with tarfile.open(fileobj=fh) as tar:
            tar.extractall(into, filter="data")
    return into / "src"


def _run(src: Path, n: int, repeats: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src))
    cmd = [sys.executable, __file__, "--worker", "--n", str(n), "--repeats", str(repeats)]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", default="main", help="git ref of the 'before' code (default: main)")
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="n = 1000, 2 repeats")
    ap.add_argument("--write", action="store_true", help="save benchmarks/results/private_grid_search.md")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.quick:
        a.n, a.repeats = 1000, 2
    if a.worker:
        print(json.dumps(_worker(a.n, a.repeats)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        before = _run(_extract(a.before, Path(tmp)), a.n, a.repeats)
    after = _run(ROOT / "src", a.n, a.repeats)
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", a.before], capture_output=True, text=True)
    lines = [
        "# PrivateGridSearchCV: cost against the plain fits of its candidates (issue 32)",
        "",
        f"`benchmarks/bench_private_grid_search.py --n {a.n} --repeats {a.repeats}` on {platform.machine()}, "
        f"Python {platform.python_version()}, {os.cpu_count()} cores (shared). Generic learner, "
        f"`grid_stumps(16, 4)` ({after['n_stumps']} stumps on {after['n_points']:,} points), grid mode × alpha "
        f"(K = {after['k']}), n = {a.n}, ε = 1, seeded backend. Before = `{a.before}` "
        f"({head.stdout.strip()}); after = this tree. Median over {a.repeats} repeats (worst ratio in brackets); "
        "plain fits = the fits of the candidates the search trains, timed in the same process (built on the user's "
        "class, garbage collected first); one fit = a plain fit of the first configuration on the whole training "
        "part at ε (the issue's yardstick).",
        "",
        "| method | code | search (s) | plain fits (s) | search / plain fits | one fit on the training part (s) | "
        "search / one fit |",
        "|---|---|---|---|---|---|---|",
    ]
    for method in ("em", "lt19"):
        for label, res in (("before", before), ("after", after)):
            m = res[method]
            lines.append(
                f"| {method} | {label} | {m['search_s']:.3f} | {m['plain_s']:.3f} | "
                f"{m['ratio_median']:.2f}× ({m['ratio_worst']:.2f}×) | {m['one_fit_s']:.3f} | "
                f"{m['search_per_one_fit']:.1f}× |"
            )
    text = "\n".join(lines) + "\n"
    print(text)
    if a.write:
        out = ROOT / "benchmarks" / "results" / "private_grid_search.md"
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
