"""The demo's online section (``littlestone demo --online``): private online learning on a real stream.

The stream: T rounds, each an example drawn uniformly (with replacement, seeded) from the 569 breast-cancer examples,
the point being the example's cell on the demo's grid of one feature (``worst concave points`` in 4 equal cells over
its published range), the label 1 for malignant. The class: thresholds h_t(x) = 1[x ≥ t] on the 4 cells
(5 functions, Ldim 2). Real data is not realizable by thresholds (the stream is agnostic), so every learner is
measured by its mistakes and its regret against the best threshold in hindsight on the same stream.

Learners (ε = 1, δ = 10⁻⁶ for the private ones), in the table's order: the non-private baselines (the SOA, restarted
on the example that empties its version space, and Hedge over the class); the practical pure ε-DP learners first —
BisectAT (private bisection over thresholds, the library's recommended private online learner for this class) and
ListAT (any small finite class) —; the private experts learners over the class (PrivateHedge, LWY25 Thm E.11's rate;
TreeAggregationHedge; BatchedPrivateHedge, oblivious adversaries); Algorithm 3 on thresholds (LWY25 §4, private
proper agnostic); and the papers' realizable learners for researchers, faithful under their names — LWY25 (Alg. 2,
practical setting) and GL21 DP-SOA (Thm 4.1, practical setting). The realizable learners (BisectAT, ListAT, LWY25,
GL21) run here outside their theorems' assumptions: their privacy holds on every stream, their mistake bounds do not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .. import _progress
from .._random import spawn_seeds

#: the learners of the section, in the order of the table: name → (private?, factory(H, T, ε, δ, backend, seed))
LEARNER_NAMES = (
    "SOA (restarted; non-private)",
    "Hedge over H (non-private)",
    "BisectAT (practical, pure ε-DP)",
    "ListAT (practical, pure ε-DP)",
    "PrivateHedge",
    "TreeAggregationHedge",
    "BatchedPrivateHedge",
    "Algorithm 3 (thresholds)",
    "LWY25 (practical)",
    "GL21 (practical)",
)


@dataclass
class OnlineDemoResult:
    """What the report's online section shows."""

    T: int
    epsilon: float
    delta: float
    rows: list[dict]
    figure: Path
    best_mistakes: int
    best_threshold: int
    cells: int
    seconds: float
    notes: dict[str, str] = field(default_factory=dict)
    #: the regret panel (``figure`` is the cumulative-mistakes panel): one panel per picture, stacked on a phone
    regret_figure: Path | None = None
    #: the real-stream panel (river's Phishing; :func:`littlestone.experiments.real_streams.stream_panel`), None
    #: without river
    real_stream: Any = None


def soa_restarted(H: Any, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Predictions of the SOA (:class:`littlestone.online.SOA`) on a stream that may not be realizable: when an example
    contradicts every hypothesis left, the SOA starts again from the whole class and learns that example."""
    from ..errors import NotRealizableError
    from ..online import SOA

    preds = np.empty(len(y), dtype=np.int8)
    soa = SOA(H)
    for t, (x, lab) in enumerate(zip(X.tolist(), y.tolist())):
        preds[t] = soa.predict_one(x)
        try:
            soa.learn_one(x, lab)
        except NotRealizableError:
            soa = SOA(H)
            soa.learn_one(x, lab)
    return preds


def _experts(learner: Any, cols: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, Any]:
    """Run an experts learner over the class (expert j = threshold j); its predictions and the learner."""
    losses = (cols != y[:, None]).astype(float)
    run = learner.run(losses)
    return cols[np.arange(len(y)), np.asarray(run.choices)], learner


def _learners(
    H: Any, T: int, eps: float, delta: float, backend: str
) -> dict[str, Callable[[Any, np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, Any]]]:
    from ..agnostic_online import ThresholdsAlgorithm3
    from ..experts import BatchedPrivateHedge, Hedge, PrivateHedge, TreeAggregationHedge
    from ..private_online import GL21, LWY25, BisectAT, ListAT

    N = H.n + 1
    kw: dict[str, Any] = {"backend": backend}
    secure = backend != "seeded"  # the secure backend's randomness is never taken from the user's seed

    def priv(make: Callable[[Any], Any]) -> Callable:
        return lambda seed, X, y, cols: _experts(make(seed), cols, y)

    def realizable(cls: Any) -> Callable:
        def go(seed: Any, X: np.ndarray, y: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, Any]:
            lrn = cls(H, T=T, epsilon=eps, delta=delta, seed=None if secure else seed, **kw)
            return np.asarray(lrn.run(X, y).predictions, dtype=np.int8), lrn

        return go

    def alg3(seed: Any, X: np.ndarray, y: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, Any]:
        lrn = ThresholdsAlgorithm3(H, T, eps, seed=None if secure else seed, **kw)
        return np.asarray(lrn.run(X, y), dtype=np.int8), lrn

    return {
        "SOA (restarted; non-private)": lambda seed, X, y, cols: (soa_restarted(H, X, y), None),
        "Hedge over H (non-private)": priv(lambda s: Hedge(N, T, seed=s)),
        "BisectAT (practical, pure ε-DP)": realizable(BisectAT),
        "ListAT (practical, pure ε-DP)": realizable(ListAT),
        "PrivateHedge": priv(lambda s: PrivateHedge(N, T, eps, delta, seed=None if secure else s, **kw)),
        "TreeAggregationHedge": priv(lambda s: TreeAggregationHedge(N, T, eps, seed=None if secure else s, **kw)),
        "BatchedPrivateHedge": priv(lambda s: BatchedPrivateHedge(N, T, eps, delta, seed=None if secure else s, **kw)),
        "Algorithm 3 (thresholds)": alg3,
        "LWY25 (practical)": realizable(LWY25),
        "GL21 (practical)": realizable(GL21),
    }


def _claim(lrn: Any) -> str:
    p = None if lrn is None else lrn.privacy()
    if p is None:
        return "not private"
    eps, dlt = (p.epsilon, p.delta) if hasattr(p, "epsilon") else (p[0], p[1])
    return f"({eps:.3g}, {dlt:.2g})"


def run_online(
    data: Any,
    out_dir: Path,
    *,
    T: int = 10_000,
    epsilon: float = 1.0,
    delta: float = 1e-6,
    backend: str = "secure",
    seed: Any = 0,
    progress: Callable[[int, int], None] | None = None,
) -> OnlineDemoResult:
    """Play every learner on one stream of T examples drawn from ``data`` (the demo's :class:`DemoData`, one
    feature); write ``online_mistakes.png`` and ``online_regret.png``; return the table rows. ``progress(done,
    total)`` is called before the first learner, after each one and after the figures (the default reports the stage to
    ``littlestone._progress``)."""
    import time

    from .._labels import encode_declared
    from ..classes.thresholds import Thresholds
    from .demo import LABELS

    t0 = time.perf_counter()
    if data.X.shape[1] != 1:
        raise ValueError("the online section needs the demo's one-feature grid")
    cells = len(data.edges[0]) + 1  # the grid's cells (interior edges + 1), fixed before the data
    H = Thresholds(cells)
    y_all, _ = encode_declared(data.y, LABELS)
    s_stream, *s_learners = spawn_seeds(seed, 1 + len(LEARNER_NAMES))
    idx = np.random.default_rng(s_stream).integers(0, len(y_all), T)
    X = data.X[idx, 0].astype(np.int64)
    y = np.asarray(y_all[idx], dtype=np.int8)
    cols = (np.arange(H.n + 1)[None, :] <= X[:, None]).astype(np.int8)  # h_t(x_s) for every threshold t
    per_h = np.cumsum(cols != y[:, None], axis=0)  # each threshold's cumulative mistakes
    best_cum = per_h.min(axis=1)  # the best threshold in hindsight up to each round
    best_t = int(np.argmin(per_h[-1]))
    rows, curves = [], {}
    if progress is None:
        progress = partial(_progress.report, "online section: learners played on the stream, figures")
    units = len(LEARNER_NAMES) + 1  # every learner's game, then the two figures
    progress(0, units)
    for i, (name, s) in enumerate(zip(LEARNER_NAMES, s_learners)):
        preds, lrn = _learners(H, T, epsilon, delta, backend)[name](s, X, y, cols)
        cum = np.cumsum(preds != y)
        curves[name] = cum
        bound = getattr(lrn, "regret_bound", None)
        try:
            b = float(bound()) if callable(bound) else None
        except Exception:  # a learner without a bound in this setting (e.g. Algorithm 3 with the SOA pool)
            b = None
        rows.append(
            {
                "learner": name,
                "privacy (ε, δ)": _claim(lrn),
                "mistakes": int(cum[-1]),
                "mistake rate": float(cum[-1] / T),
                "regret": int(cum[-1] - best_cum[-1]),
                "regret bound": round(b) if b is not None else "—",
                "setting": getattr(lrn, "setting", "") or "",
            }
        )
        progress(i + 1, units)
    mistakes_png, regret_png = _plot(curves, best_cum, T, Path(out_dir), epsilon, delta)
    real = _real_stream_panel(Path(out_dir), epsilon, backend, s_stream)
    progress(units, units)
    return OnlineDemoResult(
        T,
        epsilon,
        delta,
        rows,
        mistakes_png,
        int(best_cum[-1]),
        best_t,
        cells,
        time.perf_counter() - t0,
        regret_figure=regret_png,
        real_stream=real,
    )


def _real_stream_panel(out: Path, epsilon: float, backend: str, seed: Any) -> Any:
    """The real-stream panel (river's bundled Phishing stream), or None where river is not installed."""
    try:
        import river.datasets  # noqa: F401
    except ImportError:
        return None
    from .real_streams import stream_panel

    return stream_panel(out, epsilon=epsilon, backend=backend, seed=seed)


def _plot(curves: dict, best: np.ndarray, T: int, out: Path, epsilon: float, delta: float) -> tuple[Path, Path]:
    """Two narrow panels (figure_style: text ≥ 10 pt, legible on a phone): cumulative mistakes, and regret log–log.
    A learner whose curve equals an earlier one's is named so in the legend and drawn with markers over the dashes."""
    from ._blm20_common import new_figure, save_figure
    from .figure_style import FIG_WIDTH_IN, coinciding, legible

    new_figure(1, 1)
    import matplotlib.pyplot as plt

    plt.close("all")
    t = np.arange(1, T + 1)
    styles = ["-", "--", "-.", ":"]
    same = coinciding(curves, atol=0)
    every = max(T // 12, 1)
    paths = []
    with legible():
        for panel in ("mistakes", "regret"):
            entries = len(curves) + (panel == "mistakes")
            legend_in = 0.2 * entries + 0.1  # one legend row per learner under the axes
            fig, ax = plt.subplots(figsize=(FIG_WIDTH_IN, 3.9 + legend_in))
            for i, (name, cum) in enumerate(curves.items()):
                label = name + (f" (same curve as {same[name]})" if name in same else "")
                kw = dict(marker="o", markevery=(every // 2, every), ms=5, mfc="none") if name in same else {}
                yv = cum if panel == "mistakes" else np.maximum(cum - best, 0.5)
                ax.plot(t, yv, styles[i % 4], lw=1.4, color=f"C{i}", label=label, **kw)
            if panel == "mistakes":
                ax.plot(t, best, "k-", lw=2.2, alpha=0.35, label="best threshold in hindsight")
                ax.set_ylabel("cumulative mistakes")
                ax.set_title("mistakes on the stream")
            else:
                ax.set_xscale("log")
                ax.set_yscale("log")
                ax.plot(t, t, "k-", lw=0.6)
                ax.text(t[-1], t[-1], "t ", ha="right", va="bottom")
                ax.plot(t, np.sqrt(t), "k-.", lw=0.6)
                ax.text(t[-1], np.sqrt(t[-1]), "√t ", ha="right", va="bottom")
                ax.set_ylabel("regret (≤ 0 drawn at 0.5)")
                ax.set_title(f"regret, log–log ($\\varepsilon$ = {epsilon:g}, $\\delta$ = {delta:g})")
            ax.set_xlabel("round t")
            fig.legend(loc="lower center", ncol=1, frameon=False)
            fig.tight_layout(rect=(0, legend_in / (3.9 + legend_in), 1, 1))
            paths.append(save_figure(fig, out / f"online_{panel}.png", tight=False))
    return paths[0], paths[1]
