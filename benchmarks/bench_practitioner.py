"""What a practitioner would pick instead: accuracy vs ε on the demo's data (breast cancer, offline copy) for the
project's private learners beside a DP-quantile threshold learner and diffprivlib's LogisticRegression and GaussianNB.

Data and splits as in `littlestone demo` (littlestone.experiments.demo): feature 27 (worst concave points) on the
published range [0, 0.291]; stratified 70/30 train/test splits from the demo's ``stratified_split``; labels coded
0 = benign, 1 = malignant (declared pair). Learners, each at every ε on the same splits:

* generic learner (ε-DP; Kal-LN §3) over the demo's class: stumps 1[x ≥ t] / 1[x < t] on 4 equal cells of the range;
* BLM20 (ε, δ = 10⁻⁴) at the demo's reduced sizes (k = 80 batches of 3, n′ = 100, η = 0.1; same class);
* PolyPriLearn (GGKM21 Alg. 2; ε, δ = 10⁻⁴; m datasets of 2 examples, K = 2 — the best of n ∈ {2,4,8,16,40},
  K ∈ {1,2,3} on split 0 at ε ∈ {1, 8}: a choice that looked at data, favouring it; same class);
* DP-quantile threshold learner (ε-DP, implemented here, not in the library): the exponential mechanism over every
  threshold t of the *continuous* published range and both directions, score −#training errors of 1[x ≥ t] (or
  1[x < t]) — sensitivity 1 under replace-one; the errors are constant between consecutive sorted training values,
  so it samples an interval ∝ length · exp(ε · score / 2) (Gumbel-max over the log-weights) then t uniformly inside
  (Smith 2011's private quantile on the sorted data, with the ERM score in place of the rank score);
* diffprivlib's LogisticRegression (data_norm = 1) and GaussianNB (bounds = [0, 1]) on the raw feature divided by
  the published range's upper end (public scaling; unscaled, LogisticRegression's default regularization
  underfits), in a scratch virtual environment (``--venv``, default benchmarks/.peer-venv; created with ``python3 -m
  venv`` + ``pip install diffprivlib "scikit-learn<1.6"`` if missing — diffprivlib 0.6.6 does not import with
  scikit-learn 1.9 — never a project dependency). If it cannot be made, the table says so and has no diffprivlib
  rows.

Non-private references on the same splits: ERM over the demo's class and a non-private best threshold on the raw
feature. Seeded backend throughout (reproducible; the numbers are the same in law on the secure backend).

Usage: .venv/bin/python benchmarks/bench_practitioner.py [--splits 10] [--venv DIR] [--quick]
Writes benchmarks/results/practitioner.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
EPSILONS = (0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
FEATURE, LO, HI = 27, 0.0, 0.291
DELTA = 1e-4


def dp_threshold(x: np.ndarray, y: np.ndarray, epsilon: float, rng: np.random.Generator) -> tuple[float, int]:
    """(t, direction): the exponential mechanism over [LO, HI] × {≥, <} with score −errors (see the module doc)."""
    xs = np.clip(np.sort(x), LO, HI)
    order = np.argsort(x, kind="stable")
    ys = y[order]
    edges = np.concatenate([[LO], xs, [HI]])
    lengths = np.diff(edges)
    # errors of 1[x ≥ t] for t in interval j (between edges j and j+1): positives below t + negatives at/above t
    pos_below = np.concatenate([[0], np.cumsum(ys == 1)])
    neg_above = np.concatenate([[0], np.cumsum((ys == 0)[::-1])])[::-1]
    err_ge = pos_below + neg_above
    err_lt = len(y) - err_ge
    with np.errstate(divide="ignore"):
        loglen = np.log(lengths)  # −inf for empty intervals (ties): never drawn
        logw = np.concatenate([loglen - epsilon * err_ge / 2.0, loglen - epsilon * err_lt / 2.0])
        j = int(np.argmax(logw + rng.gumbel(size=logw.size)))  # exact sampling ∝ exp(logw); empty intervals: −inf
    direction, j = (1, j) if j < lengths.size else (0, j - lengths.size)
    return float(edges[j] + rng.random() * lengths[j]), direction


def best_threshold(x: np.ndarray, y: np.ndarray) -> tuple[float, int]:
    """Non-private ERM threshold on the raw feature."""
    cands = np.concatenate([[LO], np.sort(x), [HI + 1]])
    accs = [(np.mean((x >= t) == y), t, 1) for t in cands] + [(np.mean((x < t) == y), t, 0) for t in cands]
    _, t, d = max(accs)
    return t, d


def predict_threshold(t: float, direction: int, x: np.ndarray) -> np.ndarray:
    return (x >= t).astype(int) if direction == 1 else (x < t).astype(int)


PEER_SCRIPT = r"""
import json, sys, time, warnings
import numpy as np
warnings.filterwarnings("ignore")
from diffprivlib.models import GaussianNB, LogisticRegression
job = json.load(open(sys.argv[1]))
x, y, lo, hi = np.array(job["x"]), np.array(job["y"]), job["lo"], job["hi"]
out = {"LogisticRegression": {}, "GaussianNB": {}, "seconds": 0.0}
t0 = time.process_time()
for s, (tr, te) in enumerate(job["splits"]):
    Xtr, Xte = x[tr].reshape(-1, 1) / hi, x[te].reshape(-1, 1) / hi  # scaled by the published range (public)
    for eps in job["epsilons"]:
        for name in ("LogisticRegression", "GaussianNB"):
            if name == "LogisticRegression":
                m = LogisticRegression(epsilon=eps, data_norm=1.0, random_state=1000 * s + int(eps * 100))
            else:
                m = GaussianNB(epsilon=eps, bounds=([lo / hi], [1.0]), random_state=1000 * s + int(eps * 100))
            m.fit(Xtr, y[tr])
            out[name].setdefault(str(eps), []).append(float(np.mean(m.predict(Xte) == y[te])))
out["seconds"] = time.process_time() - t0
import diffprivlib
out["version"] = diffprivlib.__version__
json.dump(out, open(sys.argv[2], "w"))
"""


def peer_python(venv: Path) -> tuple[Path | None, str]:
    """The scratch venv's python with diffprivlib, made if missing; (None, why) if it cannot be made."""
    py = venv / "bin" / "python"
    try:
        if not py.exists():
            subprocess.run(["python3", "-m", "venv", str(venv)], check=True, capture_output=True, timeout=600)
        ok = (
            subprocess.run([str(py), "-c", "from diffprivlib.models import GaussianNB"], capture_output=True).returncode
            == 0
        )
        if not ok:
            subprocess.run([str(py), "-m", "pip", "install", "-q", "diffprivlib", "scikit-learn<1.6"], check=True, capture_output=True,
                           timeout=1800)  # fmt: skip
        return py, ""
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"diffprivlib could not be installed in {venv}: {type(exc).__name__}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--splits", type=int, default=10)
    ap.add_argument("--venv", default=str(HERE / ".peer-venv"))
    ap.add_argument("--quick", action="store_true", help="3 splits, ε ∈ {0.5, 2, 8}")
    args = ap.parse_args()
    from littlestone._labels import encode_declared
    from littlestone.experiments.demo import LABELS, DemoConfig, class_points, load_data, read_breast_cancer
    from littlestone.experiments.demo import stratified_split
    from littlestone.pac.baselines import erm_learn
    from littlestone.pac.blm20 import blm20_learn
    from littlestone.pac.candidates import candidate_list
    from littlestone.pac.generic import generic_learn
    from littlestone.pac.polyprilearn import polyprilearn
    from littlestone.pac.sources import ArraySource

    epsilons = (0.5, 2.0, 8.0) if args.quick else EPSILONS
    n_splits = 3 if args.quick else args.splits
    cfg = DemoConfig()
    data = load_data(cfg.bins, (FEATURE,))
    raw = read_breast_cancer()[0][:, FEATURE]
    y01, _ = encode_declared(data.y, LABELS)
    cands = candidate_list(data.hclass)
    load0 = os.getloadavg()
    splits = [stratified_split(data.y, cfg.test_fraction, np.random.SeedSequence(2026, spawn_key=(s,))) for s in range(n_splits)]  # fmt: skip
    acc: dict[str, dict[float, list[float]]] = {}
    cpu: dict[str, float] = {}
    fallbacks: dict[str, int] = {"BLM20": 0, "PolyPriLearn": 0}

    def add(name: str, eps: float, a: float) -> None:
        acc.setdefault(name, {}).setdefault(eps, []).append(a)

    def timed(name: str, f):
        c0 = time.process_time()
        out = f()
        cpu[name] = cpu.get(name, 0.0) + time.process_time() - c0
        return out

    for s, (tr, te) in enumerate(splits):
        ptr, pte, ytr, yte = class_points(data, tr), class_points(data, te), y01[tr], y01[te]
        erm = erm_learn(cands, ptr, ytr)[0]
        t, dirn = best_threshold(raw[tr], ytr)
        for eps in epsilons:
            add("ERM over the class (non-private)", eps, float(np.mean(erm.predict(pte) == yte)))
            add("best raw threshold (non-private)", eps, float(np.mean(predict_threshold(t, dirn, raw[te]) == yte)))
            seed = 1000 * s + int(eps * 100)
            h, _ = timed("generic", lambda: generic_learn(cands, ptr, ytr, epsilon=eps, backend="seeded", seed=seed))
            add("generic (ε)", eps, float(np.mean(h.predict(pte) == yte)))
            b = timed(
                "BLM20",
                lambda: blm20_learn(
                    data.hclass, ArraySource(ptr, ytr), epsilon=eps, delta=DELTA, n_batches=cfg.blm20_batches,
                    aux_size=cfg.blm20_aux, cap=cfg.blm20_cap, n_generic=cfg.blm20_generic, eta=cfg.blm20_eta,
                    backend="seeded", seed=seed,
                ),
            )  # fmt: skip
            fallbacks["BLM20"] += b.fallback
            add("BLM20 (ε, 1e-4)", eps, float(np.mean(b.chosen.predict(pte) == yte)))
            p = timed(
                "PolyPriLearn",
                lambda: polyprilearn(
                    data.hclass, ArraySource(ptr, ytr), epsilon=eps, delta=DELTA, n=2, m=len(ytr) // 2, K=2,
                    backend="seeded", seed=seed,
                ),
            )  # fmt: skip
            fallbacks["PolyPriLearn"] += p.bottom
            add("PolyPriLearn (ε, 1e-4)", eps, float(np.mean(p.chosen.predict(pte) == yte)))
            rng = np.random.default_rng(seed)
            tq, dq = timed("DP threshold", lambda: dp_threshold(raw[tr], ytr, eps, rng))
            add("DP-quantile threshold (ε)", eps, float(np.mean(predict_threshold(tq, dq, raw[te]) == yte)))

    note = ""
    py, why = peer_python(Path(args.venv))
    peer: dict = {}
    if py is not None:
        with tempfile.TemporaryDirectory() as tmp:
            job = Path(tmp) / "job.json"
            res = Path(tmp) / "out.json"
            job.write_text(json.dumps({"x": raw.tolist(), "y": y01.tolist(), "lo": LO, "hi": HI,
                                       "epsilons": list(epsilons),
                                       "splits": [[a.tolist(), b.tolist()] for a, b in splits]}))  # fmt: skip
            script = Path(tmp) / "peer.py"
            script.write_text(PEER_SCRIPT)
            run = subprocess.run([str(py), str(script), str(job), str(res)], capture_output=True, text=True)
            if run.returncode == 0:
                peer = json.loads(res.read_text())
            else:
                note = f"diffprivlib run failed: {run.stderr.strip().splitlines()[-1:]}"
    else:
        note = why
    for name in ("LogisticRegression", "GaussianNB"):
        for eps, vals in peer.get(name, {}).items():
            acc.setdefault(f"diffprivlib {name} (ε)", {})[float(eps)] = vals
    if peer:
        cpu["diffprivlib (both)"] = peer["seconds"]

    load1 = os.getloadavg()
    lines = [
        "## Practitioner head-to-head: accuracy vs ε on the demo's data (`benchmarks/bench_practitioner.py`)",
        "",
        f"`.venv/bin/python benchmarks/bench_practitioner.py{' --quick' if args.quick else ''}` — Python "
        f"{platform.python_version()}, numpy {np.__version__}"
        + (f", diffprivlib {peer['version']} (scratch venv)" if peer else "")
        + f"; breast cancer, feature {FEATURE} (worst concave points, published range [{LO}, {HI}]); {n_splits} "
        f"stratified 70/30 splits (the demo's); seeded backend; mean test accuracy (min–max over splits). "
        f"Load average at start/end: {load0[0]:.1f}/{load1[0]:.1f} (2 cores, shared). CPU seconds (all splits and ε): "
        + ", ".join(f"{k} {v:.2f}" for k, v in cpu.items())
        + f". Fallbacks (data-independent output): BLM20 {fallbacks['BLM20']}, PolyPriLearn "
        f"{fallbacks['PolyPriLearn']} of {n_splits * len(epsilons)} fits." + (f" **{note}**" if note else ""),
        "",
        "| learner | " + " | ".join(f"ε = {e:g}" for e in epsilons) + " |",
        "|---|" + "---:|" * len(epsilons),
    ]
    for name, by_eps in acc.items():
        cells = []
        for e in epsilons:
            v = by_eps.get(e, [])
            cells.append(f"{np.mean(v):.3f} ({min(v):.2f}–{max(v):.2f})" if v else "—")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "practitioner.md").write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
