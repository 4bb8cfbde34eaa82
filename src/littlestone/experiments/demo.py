"""The showcase: private learning of decision stumps on scikit-learn's breast-cancer data (offline), compared with
non-private ERM and SOA, the pure-DP generic learner (Kal-LN §3 Thm 1) and BLM20 (BLM20 Thm 1), across ε."""

from __future__ import annotations

import importlib
import math
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .._progress import sigint_blocked
from .._random import spawn_seeds
from ..classes.finite import FiniteClass
from ..errors import InsufficientSampleError
from ..parallel import map_ordered

#: the label pair of the breast-cancer data, declared (private learners never read it from the labels)
LABELS = ("benign", "malignant")

#: features the demo may use: index → (name, range as published in the dataset's documentation, DESCR "Summary
#: Statistics"), so the grid is fixed before looking at the data (a data-dependent grid would leak)
PUBLISHED_RANGES: dict[int, tuple[str, float, float]] = {
    22: ("worst perimeter", 50.41, 251.2),
    27: ("worst concave points", 0.0, 0.291),
}


@dataclass(frozen=True)
class DemoConfig:
    """What the demo runs; ``fast()`` is the small version used by the test suite.

    The default class — thresholds in both directions on one feature cut into 4 cells (8 functions, Ldim 3) — is
    small enough that BLM20 shows global stability on ~400 examples at reduced sizes (k = 80 batches of 3); finer
    grids (e.g. ``bins=16, features=(22, 27)``, Ldim 5) leave BLM20 at its fallback for every ε at this scale.
    """

    bins: int = 4
    features: tuple[int, ...] = (27,)
    epsilons: tuple[float, ...] = (0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
    repeats: int = 20
    blm20_repeats: int = 20
    test_fraction: float = 0.3
    delta: float = 1e-4
    # BLM20 at reduced, non-theory sizes: Theorem 1 asks for ~10^9 examples at d = 3 (see `littlestone bounds`)
    blm20_batches: int = 80
    blm20_aux: int = 1
    blm20_cap: int = 2
    blm20_generic: int = 100
    blm20_eta: float = 0.1
    tree_depth: int = 6

    @classmethod
    def fast(cls) -> "DemoConfig":
        return cls(epsilons=(0.5, 2.0, 8.0), repeats=3, blm20_repeats=2)


@dataclass
class DemoData:
    """The discretized data set and the class."""

    X: np.ndarray  # (n, k) grid cells
    y: np.ndarray  # labels as strings ("malignant" / "benign")
    hclass: FiniteClass
    feature_names: list[str]
    edges: list[np.ndarray]
    ranges: list[tuple[float, float]] = field(default_factory=list)


#: scikit-learn's copy of the breast-cancer data (Wisconsin diagnostic), inside the installed package
BREAST_CANCER_CSV = ("datasets", "data", "breast_cancer.csv")


def read_breast_cancer() -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(features (569, 30), target (0 = malignant, 1 = benign), target names): the data of scikit-learn's
    ``load_breast_cancer``, read from the CSV file scikit-learn ships, without importing scikit-learn (its import
    costs more than the rest of the demo's start-up). The file's first line is ``n_samples,n_features,names...``,
    then one row per example: the features, then the target. Falls back to ``load_breast_cancer()`` when the file is
    not where scikit-learn 1.x keeps it or does not have that shape."""
    import importlib.util

    spec = importlib.util.find_spec("sklearn")
    path = Path(spec.origin).parent.joinpath(*BREAST_CANCER_CSV) if spec is not None and spec.origin else None
    try:
        if path is None:
            raise OSError("scikit-learn not found")
        with path.open(encoding="utf-8") as f:
            head = f.readline().strip().split(",")
            n, p, names = int(head[0]), int(head[1]), head[2:]
            table = np.loadtxt(f, delimiter=",", ndmin=2)
        if table.shape != (n, p + 1) or len(names) != 2:
            raise ValueError(f"unexpected shape {table.shape}")
        target = table[:, -1]
        if not np.all(np.isin(target, (0, 1))):
            raise ValueError("targets outside {0, 1}")
        return table[:, :-1], target.astype(np.int64), names
    except (OSError, ValueError, IndexError):
        from sklearn.datasets import load_breast_cancer

        data = load_breast_cancer()
        return np.asarray(data.data), np.asarray(data.target), [str(t) for t in data.target_names]


def load_data(bins: int, features: Sequence[int] = (27,)) -> DemoData:
    """Breast cancer (569 examples, ships with scikit-learn) → the chosen features on a fixed grid of ``bins`` equal
    cells each; the class is all decision stumps 1[x_f ≥ t] / 1[x_f < t] on the grid (an explicit FiniteClass)."""
    from ..errors import LittlestoneError
    from ..pac.grid import grid_cells, grid_edges, grid_stumps

    features = tuple(features)
    unknown = [f for f in features if f not in PUBLISHED_RANGES]
    if not features or unknown:
        raise LittlestoneError(
            f"demo features must be among {sorted(PUBLISHED_RANGES)} (published ranges), got {list(features)}"
        )
    values, target, names = read_breast_cancer()
    ranges = [PUBLISHED_RANGES[f][1:] for f in features]
    edges = grid_edges(ranges, bins)
    X = grid_cells(values[:, list(features)], edges)
    y = np.asarray(names)[target]
    H = grid_stumps(bins, len(features))
    return DemoData(X, y, H, [PUBLISHED_RANGES[f][0] for f in features], edges, ranges)


def stratified_split(
    y: np.ndarray, test_fraction: float, seed: np.random.SeedSequence | int
) -> tuple[np.ndarray, np.ndarray]:
    """(train indices, test indices), each in a random order, from ``seed``. The test set has ⌈test_fraction · n⌉
    examples shared among the labels in proportion to their counts (largest remainders get the leftover places, ties
    to the label sorted first), drawn uniformly within each label; the rest is the training set."""
    rng = np.random.default_rng(seed)
    n = len(y)
    n_test = math.ceil(test_fraction * n)
    labels, inverse, counts = np.unique(y, return_inverse=True, return_counts=True)
    quota = n_test * counts / n
    take = np.floor(quota).astype(np.int64)
    order = np.argsort(-(quota - take), kind="stable")
    take[order[: n_test - int(take.sum())]] += 1
    test = []
    for c in range(len(labels)):
        members = np.flatnonzero(inverse == c)
        test.append(rng.choice(members, size=int(take[c]), replace=False))
    test_idx = rng.permutation(np.concatenate(test))
    mask = np.ones(n, dtype=bool)
    mask[test_idx] = False
    return rng.permutation(np.flatnonzero(mask)), test_idx


def class_points(data: DemoData, idx: np.ndarray) -> Any:
    """Rows ``idx`` of the grid data as points of the class (ints for one feature, tuples for several), checked to
    lie in its domain — what the estimators hand their learners."""
    X = data.X[idx]
    pts: Any = X[:, 0] if X.shape[1] == 1 else [tuple(int(v) for v in row) for row in X]
    return data.hclass.validate_points(pts)


def _accuracy(h: Any, points: Any, y01: np.ndarray) -> float:
    """Test accuracy: the fraction of test examples h labels correctly (what an estimator's ``score`` computes)."""
    return float(np.mean(np.asarray(h.predict(points)) == y01))


@dataclass
class RepeatResult:
    """Test accuracies of one train/test split: baselines once, private learners at every ε."""

    erm: float
    soa: float
    generic: dict[float, float]
    blm20: dict[float, float]
    blm20_fallback: dict[float, bool]
    theory_n_generic: dict[float, int]


def _blm20(
    data: DemoData,
    cfg: DemoConfig,
    points: Any,
    y01: np.ndarray,
    epsilon: float,
    backend: str,
    seed: int,
    diagnostics: bool = False,
) -> Any:
    """BLM20 at the demo's reduced sizes (``seed`` drives the seeded backend only)."""
    from ..pac.blm20 import blm20_learn
    from ..pac.sources import ArraySource

    return blm20_learn(
        data.hclass,
        ArraySource(points, y01),
        epsilon=epsilon,
        delta=cfg.delta,
        n_batches=cfg.blm20_batches,
        aux_size=cfg.blm20_aux,
        cap=cfg.blm20_cap,
        n_generic=cfg.blm20_generic,
        eta=cfg.blm20_eta,
        backend=backend,
        seed=seed if backend == "seeded" else None,
        diagnostics=diagnostics,
    )


def _repeat_task(
    data: DemoData, cfg: DemoConfig, backend: str, plan: tuple[np.random.SeedSequence, bool]
) -> RepeatResult:
    return _one_repeat(data, cfg, plan[0], backend, plan[1])


def _one_repeat(
    data: DemoData, cfg: DemoConfig, seed: np.random.SeedSequence, backend: str, with_blm20: bool
) -> RepeatResult:
    """One train/test split: every learner through its function (labels coded 0/1 with the declared pair
    :data:`LABELS`; the estimators give the same numbers, without scikit-learn's input checks)."""
    from .._labels import encode_declared
    from ..pac.baselines import erm_learn, soa_learn
    from ..pac.candidates import candidate_list
    from ..pac.generic import generic_learn

    # a fresh copy: SeedSequence.spawn advances a counter, and a repeat must not depend on earlier calls
    seed = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size)
    split_seed, *learner_seeds = spawn_seeds(seed, 1 + 2 * len(cfg.epsilons))
    train, test = stratified_split(data.y, cfg.test_fraction, split_seed)
    y01, _ = encode_declared(data.y, LABELS)
    ptr, ytr = class_points(data, train), y01[train]
    pte, yte = class_points(data, test), y01[test]
    cands = candidate_list(data.hclass)  # the class's hypotheses, listed once for ERM and every ε
    erm = _accuracy(erm_learn(cands, ptr, ytr)[0], pte, yte)
    soa = _accuracy(soa_learn(data.hclass, ptr, ytr)[0], pte, yte)
    gen, blm, fallback, theory = {}, {}, {}, {}
    for i, eps in enumerate(cfg.epsilons):
        rs = int(learner_seeds[2 * i].generate_state(1)[0])
        h, g = generic_learn(
            cands,
            ptr,
            ytr,
            epsilon=eps,
            mode="agnostic",
            backend=backend,
            seed=rs if backend == "seeded" else None,
        )
        gen[eps] = _accuracy(h, pte, yte)
        theory[eps] = g.theory_n
        if with_blm20:
            rs = int(learner_seeds[2 * i + 1].generate_state(1)[0])
            b = _blm20(data, cfg, ptr, ytr, eps, backend, rs)
            blm[eps] = _accuracy(b.chosen, pte, yte)
            fallback[eps] = bool(b.fallback)
    return RepeatResult(erm, soa, gen, blm, fallback, theory)


@dataclass
class DemoResult:
    """Everything the report shows."""

    config: DemoConfig
    data: DemoData
    ldim: int
    vc: int | None
    repeats: list[RepeatResult]
    tree_png: Path
    accuracy_png: Path
    histogram_png: Path
    histogram_run: Any  # the BLM20Result of the diagnostic run drawn in the histogram (None: too few examples)
    seconds: float
    backend: str
    rows: list[dict] = field(default_factory=list)
    game: Any = None  # the SOA against the tree adversary on the demo class
    histogram_epsilon: float | None = None
    online: Any = None  # the online section (``--online``): an online_demo.OnlineDemoResult


def accuracy_rows(cfg: DemoConfig, repeats: Sequence[RepeatResult]) -> list[dict]:
    """Table rows: learner, ε, mean and std of test accuracy over the repeats."""
    rows = []
    for name, vals in (
        ("ERM (non-private)", [r.erm for r in repeats]),
        ("SOA (non-private)", [r.soa for r in repeats]),
    ):
        rows.append(
            {
                "learner": name,
                "epsilon": math.inf,
                "mean accuracy": float(np.mean(vals)),
                "std": float(np.std(vals)),
                "runs": len(vals),
            }
        )
    for eps in cfg.epsilons:
        vals = [r.generic[eps] for r in repeats]
        rows.append(
            {
                "learner": "generic (ε-DP)",
                "epsilon": eps,
                "mean accuracy": float(np.mean(vals)),
                "std": float(np.std(vals)),
                "runs": len(vals),
            }
        )
    for eps in cfg.epsilons:
        vals = [r.blm20[eps] for r in repeats if eps in r.blm20]
        if vals:
            fb = [r.blm20_fallback[eps] for r in repeats if eps in r.blm20_fallback]
            rows.append(
                {
                    "learner": "BLM20 ((ε,δ)-DP, reduced sizes)",
                    "epsilon": eps,
                    "mean accuracy": float(np.mean(vals)),
                    "std": float(np.std(vals)),
                    "runs": len(vals),
                    "fallback rate": float(np.mean(fb)),
                }
            )
    return rows


def _plot_accuracy(cfg: DemoConfig, data: DemoData, rows: list[dict], path: Path) -> Path:
    """Accuracy vs ε (one narrow panel, text ≥ 10 pt: figure_style), ticks at the tested ε; series that coincide
    are named so in the legend and stay visible (markers on top of dashes)."""
    from matplotlib.figure import Figure

    from ..io import atomic_savefig
    from .figure_style import DPI, FIG_WIDTH_IN, coinciding, epsilon_ticks, legible

    learners = [("generic (ε-DP)", "o", "-"), ("BLM20 ((ε,δ)-DP, reduced sizes)", "s", "--")]
    curves = {n: [r for r in rows if r["learner"] == n] for n, _, _ in learners}
    curves = {n: sel for n, sel in curves.items() if sel}
    flat = {
        n: next(r for r in rows if r["learner"] == n)["mean accuracy"]
        for n in ("ERM (non-private)", "SOA (non-private)")
    }
    eps = sorted({r["epsilon"] for sel in curves.values() for r in sel})
    same = coinciding(
        {
            **{n: [flat[n]] * len(eps) for n in flat},
            **{n: [r["mean accuracy"] for r in sel] for n, sel in curves.items()},
        }
    )
    with legible():
        legend_in = 0.2 * (2 + len(curves)) + 0.1  # one legend row per series, under the axes
        fig = Figure(figsize=(FIG_WIDTH_IN, 3.7 + legend_in))
        ax = fig.subplots()
        for name, color, ls in (("ERM (non-private)", "black", ":"), ("SOA (non-private)", "grey", (0, (1, 3)))):
            label = f"{name}: {flat[name]:.3f}" + (f" (= {same[name].split(' ')[0]})" if name in same else "")
            ax.axhline(flat[name], color=color, ls=ls, lw=1.6, label=label, zorder=3)
        for k, (name, marker, ls) in enumerate((x for x in learners if x[0] in curves)):
            sel = curves[name]
            e = [r["epsilon"] for r in sel]
            m = np.array([r["mean accuracy"] for r in sel])
            sd = np.array([r["std"] for r in sel])
            label = name + (f" (= {same[name].split(' ')[0]} at every ε)" if name in same else "")
            ax.plot(
                e,
                m,
                ls=ls,
                marker=marker,
                ms=8 - 2 * k,
                mfc="none" if name in same else None,
                lw=1.4,
                label=label,
                zorder=2,
            )
            ax.fill_between(e, m - sd, m + sd, alpha=0.15)
        ax.set_xscale("log")
        epsilon_ticks(ax, eps)
        ax.set_xlabel("privacy parameter ε (log scale; ticks: tested)")
        ax.set_ylabel("test accuracy (mean ± std)")
        ax.set_title("accuracy vs ε")
        ax.set_ylim(0.3, 1.0)
        ax.grid(alpha=0.3)
        fig.legend(loc="lower center", ncol=1, frameon=False)
        fig.tight_layout(rect=(0, legend_in / (3.7 + legend_in), 1, 1))
        return atomic_savefig(fig, path, dpi=DPI)


def histogram_epsilon(cfg: DemoConfig, rows: Sequence[dict]) -> float:
    """The ε of the G-histogram picture: the smallest ε at which BLM20's fallback rate is lowest (so the one run
    drawn most likely releases a hypothesis), else the largest ε."""
    rates = {r["epsilon"]: r.get("fallback rate", 1.0) for r in rows if r["learner"].startswith("BLM20")}
    if not rates:
        return max(cfg.epsilons)
    best = min(rates.values())
    return min(e for e, rate in rates.items() if rate == best)


def _plot_histogram(res: Any, data: DemoData, path: Path, epsilon: float) -> Path:
    """G's outputs over the k batches (non-private diagnostic counts) next to the released noisy histogram (``res``:
    the BLM20Result of a run with diagnostics); one narrow panel, text ≥ 10 pt (figure_style)."""
    from matplotlib.figure import Figure

    from ..io import atomic_savefig
    from ..pac.tournament import FAIL
    from .figure_style import DPI, FIG_WIDTH_IN, legible

    raw = dict(res.diagnostics["g_histogram"]) if res.diagnostics else {}
    released = dict(res.released)
    items = sorted(set(raw) | set(released), key=lambda h: -raw.get(h, 0))[:12]
    labels = ["Fail" if h is FAIL else stump_name(h, data) for h in items]
    with legible():
        fig = Figure(figsize=(FIG_WIDTH_IN, 5.6))
        ax = fig.subplots()
        x = np.arange(len(items))
        ax.bar(x - 0.2, [raw.get(h, 0) for h in items], 0.4, label="G's outputs (exact; diagnostic, not private)")
        ax.bar(x + 0.2, [released.get(h, 0) for h in items], 0.4, label="released by the stable histogram (noisy)")
        k = res.sizes.n_batches
        tau = 1 + (4.0 / epsilon) * math.log(2.0 / res.delta)
        keep = 0.75 * res.sizes.eta * k
        if abs(tau - keep) <= 0.02 * max(tau, keep, 1.0):  # one line, not two legend entries on top of each other
            ax.axhline(tau, color="red", ls="--", lw=1, label=f"threshold τ ≈ {tau:.1f} = keep level 3η/4·k (coincide)")
        else:
            ax.axhline(tau, color="red", ls="--", lw=1, label=f"release threshold τ ≈ {tau:.1f}")
            ax.axhline(keep, color="purple", ls=":", lw=1, label=f"keep: 3η/4 · k = {keep:.1f}")
        ax.set_xticks(x, labels, rotation=50, ha="right")
        ax.set_xlabel(f"G's output ({feature_legend(data)})")
        ax.set_ylabel(f"count among k = {k} runs")
        ax.set_title(f"G's outputs (ε = {epsilon:g}, δ = {res.delta:g})")
        fig.legend(loc="lower center", ncol=1, frameon=False)
        fig.tight_layout(rect=(0, 0.17, 1, 1))
        return atomic_savefig(fig, path, dpi=DPI)


def _feature_tag(data: DemoData, f: int) -> str:
    """The feature's symbol in pictures: x for a single feature, else x1, x2, … (named in the figure titles)."""
    return "x" if len(data.feature_names) == 1 else f"x{f + 1}"


def feature_legend(data: DemoData) -> str:
    """'x = worst concave points' or 'x1 = worst perimeter, x2 = worst concave points'."""
    return ", ".join(f"{_feature_tag(data, f)} = {name}" for f, name in enumerate(data.feature_names))


def cell_text(x: Any, data: DemoData) -> str:
    """A grid point as the feature ranges it stands for, e.g. 'x ∈ [0.146, 0.218)'."""
    cells = x if isinstance(x, tuple) else (x,)
    parts = []
    for f, (c, edges, (lo, hi)) in enumerate(zip(cells, data.edges, data.ranges)):
        bounds = [lo, *edges.tolist(), hi]
        c = int(c)
        parts.append(f"{_feature_tag(data, f)} ∈ [{bounds[c]:.3g}, {bounds[c + 1]:.3g})")
    return "\n".join(parts)


def stump_name(h: Any, data: DemoData) -> str:
    """A hypothesis of the demo class named by the rule it computes (the set where it is 1), e.g. 'x ≥ 0.146' or
    'always 0'; improper hypotheses on a small grid by their value table;
    a stump patched on a few points (BLM20 Def 8) gets '+p patches'; anything else its repr."""
    base = getattr(h, "base", None)
    if base is not None:
        n = len(h.patches)
        return f"{stump_name(base, data)} +{n} patch{'es' if n > 1 else ''}"
    vals = getattr(h, "values", None)
    if vals is None:
        return repr(h)[:28]
    k, bins = len(data.feature_names), len(data.edges[0]) + 1
    v = np.frombuffer(bytes(vals), dtype=np.uint8)
    if v.size != bins**k:
        return repr(h)[:28]
    grid = v.reshape((bins,) * k)
    if grid.min() == grid.max():
        return f"always {int(grid.flat[0])}"
    for f in range(k):
        col = np.moveaxis(grid, f, 0).reshape(bins, -1)
        if (col == col[:, :1]).all():  # depends on feature f only
            col = col[:, 0]
            t = int(np.flatnonzero(col != col[0])[0])
            if np.all(col[t:] == col[t]) and np.all(col[:t] == col[0]):
                cut = f"{data.edges[f][t - 1]:.3g}"
                return f"{_feature_tag(data, f)} {'≥' if col[0] == 0 else '<'} {cut}"
    if v.size <= 16:  # an improper hypothesis (e.g. an SOA predictor): its value table, one digit per cell
        return "table " + "".join(map(str, v.tolist()))
    return "(not a stump)"


def _draw_tree(data: DemoData, depth: int, path: Path) -> tuple[int, Path]:
    from ..io import write_figure_atomically
    from ..dimensions import ldim

    H = data.hclass
    d, tree = ldim(H, witness=True)
    shown = min(d, depth)
    title = f"a mistake tree of depth {d} shattered by {H.name} ({feature_legend(data)}; leaves: where h = 1)"
    if shown < d:
        title += f", drawn to depth {shown}"
    write_figure_atomically(
        lambda p: tree.to_png(
            p,
            max_depth=depth,
            leaf_label=lambda h: stump_name(h, data),
            point_label=lambda x: cell_text(x, data),
            title=title,
        ),
        path,
    )
    from ..io import atomic_write_text
    from .report import tree_outline

    outline = tree_outline(
        tree,
        max_depth=depth,
        leaf_label=lambda h: stump_name(h, data),
        point_label=lambda x: cell_text(x, data).replace("\n", ", "),
    )
    atomic_write_text(path.with_suffix(".html"), outline)  # the report's form of the tree (fits any width)
    return d, path


def _first_part(
    data: DemoData, cfg: DemoConfig, backend: str, tree_path: Path, plan: tuple[np.random.SeedSequence, bool] | None
) -> Any:
    """One train/test split (``plan``), or the shattered tree's picture (``plan`` None)."""
    if plan is None:
        return _draw_tree(data, cfg.tree_depth, tree_path)
    return _repeat_task(data, cfg, backend, plan)


def _second_part(
    data: DemoData, cfg: DemoConfig, backend: str, rows: list[dict], eps_h: float, hist_seed: int, out: Path, part: str
) -> Any:
    """The accuracy plot, or the BLM20 run with diagnostics and its histogram picture (the run is None when the
    sample is too small for the demo's sizes)."""
    if part == "accuracy":
        return _plot_accuracy(cfg, data, rows, out / "accuracy_vs_epsilon.png")
    from .._labels import encode_declared

    y01, _ = encode_declared(data.y, LABELS)
    try:
        res = _blm20(data, cfg, class_points(data, np.arange(len(y01))), y01, eps_h, backend, hist_seed, True)
    except InsufficientSampleError:
        return None, out / "g_histogram.png"
    return res, _plot_histogram(res, data, out / "g_histogram.png", eps_h)


def _advance(bar: Any, task: Any, stage: str, done: int, total: int) -> None:
    """The demo's own bar (on a terminal) and the library's progress reports (plain lines when piped; a Ctrl-C that
    Python dropped is raised here, between units of work)."""
    from .. import _progress

    bar.update(task, completed=done, total=total)
    _progress.report(stage, done, total)


def run_demo(
    out_dir: str | Path = "littlestone-report",
    *,
    fast: bool = False,
    seed: int | None = 0,
    jobs: int = 1,
    backend: str = "seeded",
    config: DemoConfig | None = None,
    console: Any = None,
    online: bool = False,
    online_rounds: int | None = None,
) -> Path:
    """Run the demo and write ``out_dir/index.html`` (self-contained) plus its PNGs; returns the HTML path.
    ``online`` adds the online section (private online learners on a stream of the data, ``online_rounds`` rounds:
    default 10,000, 2,000 with ``fast``)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from .report import write_demo_report

    t0 = time.perf_counter()
    cfg = config or (DemoConfig.fast() if fast else DemoConfig())
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    # the pictures' paths as the tasks get them: absolute, since a task may run in a worker started elsewhere (the
    # loky backend reuses its workers, whose working directory is where they started)
    work = out.absolute()
    disable = console is None or not getattr(console, "is_terminal", False)
    bars = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=disable,
    )
    with sigint_blocked():  # its refresh thread never takes Ctrl-C (the main thread must)
        bars.start()
    with bars as bar:
        step = bar.add_task("data, class", total=None)
        data = load_data(cfg.bins, cfg.features)
        vc = None
        if data.hclass.n_points <= 64:  # the generic VC search is quick on a small grid (minutes on a 16×16 one)
            from ..dimensions import vc_dim

            vc = int(vc_dim(data.hclass))
        bar.remove_task(step)
        seeds = spawn_seeds(seed, cfg.repeats + 1)
        # the units counted: the splits only, as many as the table has (the tree, drawn alongside, counts for none)
        stage = f"train/test splits ({cfg.repeats}, every learner, every ε; the shattered tree alongside)"
        task = bar.add_task(stage, total=cfg.repeats)
        plan: list[Any] = [(s, i < cfg.blm20_repeats) for i, s in enumerate(seeds[: cfg.repeats])]
        # what the tasks of both stages need, imported once here and inherited by forked workers (the learners for
        # the splits, matplotlib for the three pictures): a worker that imported it itself would leave the next
        # stage's workers, forked from this process, to import it again
        for module in ("littlestone.pac.baselines", "littlestone.pac.blm20", "littlestone.pac.generic"):
            importlib.import_module(module)
        importlib.import_module("matplotlib.figure")
        # repeat i is seeded by child i of the seed (as the plan above), whatever the backend or number of workers;
        # the tree — the longest task — is drawn alongside, first, so that the splits fill in around it
        (d, tree_png), *repeats = map_ordered(
            partial(_first_part, data, cfg, backend, work / "tree.png"),
            [None, *plan],
            n_jobs=jobs,
            chunksize=1,
            progress=lambda done, total: _advance(bar, task, stage, done, total),
            units=[0] + [1] * cfg.repeats,
        )
        bar.remove_task(task)
        after = "plots, BLM20 diagnostic run"
        after_task = bar.add_task(after, total=2)
        from ..online import SOA, TreeAdversary, play

        game = play(SOA(data.hclass), TreeAdversary(data.hclass), 2 * d + 6, seed=0)
        rows = accuracy_rows(cfg, repeats)
        # one BLM20 run with diagnostics for the picture of G's output histogram, at the smallest ε of the sweep
        # where BLM20 fell back least often; drawn alongside the accuracy plot
        eps_h = histogram_epsilon(cfg, rows)
        hist_seed = int(seeds[-1].generate_state(1)[0])
        accuracy_png, (run, histogram_png) = map_ordered(
            partial(_second_part, data, cfg, backend, rows, eps_h, hist_seed, work),
            ["accuracy", "histogram"],
            n_jobs=jobs,
            chunksize=1,
            progress=lambda done, total: _advance(bar, after_task, after, done, total),
        )
        result = DemoResult(
            cfg,
            data,
            d,
            vc,
            repeats,
            tree_png,
            accuracy_png,
            histogram_png,
            run,
            time.perf_counter() - t0,
            backend,
            rows,
            game,
            eps_h,
        )
        if online:
            from .online_demo import run_online

            from .online_demo import LEARNER_NAMES

            online_stage = "online section: learners played on the stream, figures"
            online_task = bar.add_task(online_stage, total=len(LEARNER_NAMES) + 1)
            stream = data if (cfg.features, cfg.bins) == ((27,), 4) else load_data(4, (27,))
            rounds = online_rounds if online_rounds is not None else (2_000 if fast else 10_000)
            result.online = run_online(
                stream,
                work,
                T=rounds,
                backend=backend,
                seed=seeds[-1].spawn(1)[0],
                progress=lambda done, total: _advance(bar, online_task, online_stage, done, total),
            )
        writing = bar.add_task("writing the report", total=1)
        _advance(bar, writing, "writing the report", 0, 1)  # (raises a Ctrl-C Python dropped: no report written)
        path = write_demo_report(out, result)
        _advance(bar, writing, "writing the report", 1, 1)
    if console is not None:
        print_summary(console, result)
    return path


def print_summary(console: Any, result: DemoResult) -> None:
    """Mean test accuracy, one row per ε and one column per learner (fits 80 columns; the report has the details)."""
    from rich.table import Table

    rows, cfg = result.rows, result.config
    H = result.data.hclass
    table = Table(
        title=f"breast cancer, {H.name} (Ldim {result.ldim}): mean test accuracy over {len(result.repeats)} splits",
        title_justify="left",
    )
    table.add_column("ε", justify="right")
    learners = list(dict.fromkeys(r["learner"] for r in rows))
    for name in learners:  # short headers; the caption gives the full names
        table.add_column(name.split(" (")[0], justify="right")
    table.add_column("BLM20 fallback", justify="right")
    table.caption = " · ".join(learners)
    acc = {(r["learner"], r["epsilon"]): r for r in rows}
    for eps in (math.inf, *cfg.epsilons):
        found = [acc.get((name, eps)) for name in learners]
        fb = next((f"{r['fallback rate']:.0%}" for r in found if r is not None and "fallback rate" in r), "")
        table.add_row(
            "none (∞)" if eps == math.inf else f"{eps:g}",
            *["" if r is None else f"{r['mean accuracy']:.3f}" for r in found],
            fb,
        )
    console.print(table)
    console.print(f"{len(result.repeats)} splits in {result.seconds:.1f} s, noise backend {result.backend}")
