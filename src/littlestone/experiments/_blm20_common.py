"""Shared pieces of the BLM20 experiments: the result type, CSV/PNG writers, the test distributions."""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np


@dataclass(frozen=True)
class ExperimentResult:
    """Rows of the table (dicts), where the CSV table and the PNG figures were written, and a one-line verdict."""

    name: str
    rows: list[dict]
    table_path: Path
    figures: list[Path] = field(default_factory=list)
    verdict: str = ""


def write_table(rows: list[dict], path: Path) -> Path:
    """CSV with a header row, written atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.StringIO()
    cols = list(rows[0].keys()) if rows else []
    w = csv.DictWriter(buf, fieldnames=cols)
    w.writeheader()
    for r in rows:
        w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(buf.getvalue(), encoding="utf-8")
    os.replace(tmp, path)
    return path


def new_figure(width: float = 7.0, height: float = 4.2) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width, height))
    return fig, ax


def save_figure(fig: Any, path: Path, tight: bool = True) -> Path:
    """Write ``fig`` atomically as PNG (``tight``: apply ``tight_layout`` first; False keeps a layout set by hand)."""
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.stem + ".tmp.png")
    if tight:
        fig.tight_layout()
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    os.replace(tmp, path)
    return path


def fitted_slope(Ts: Any, values: Any) -> float:
    """Least-squares slope of log(value) on log(T) over the points with a positive value (nan if fewer than 2)."""
    import math

    pts = [(math.log(t), math.log(v)) for t, v in zip(Ts, values) if v > 0]
    if len(pts) < 2:
        return float("nan")
    x, yv = np.array(pts).T
    return float(np.polyfit(x, yv, 1)[0])


def vacuous_box(ax: Any, lines: list[str], head: str = "bound vacuous (≥ T) over this range, nothing claimed:") -> None:
    """Name, in the panel's top-left corner, the curves whose theorem's bound is ≥ T (no claim made about them)."""
    if lines:
        ax.text(
            0.02,
            0.98,
            head + "\n" + "\n".join(lines),
            transform=ax.transAxes,
            va="top",
            fontsize=6.5,
            color="0.3",
            bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "0.8"},
        )


def out_path(out_dir: Any) -> Path:
    p = Path("littlestone-experiments" if out_dir is None else out_dir)
    p.mkdir(parents=True, exist_ok=True)
    return p


class UniformOn:
    """Uniform points on {0, …, K−1} (picklable sampler for RealizableStream)."""

    def __init__(self, K: int):
        self.K = int(K)

    def __call__(self, rng: np.random.Generator, size: int) -> np.ndarray:
        return rng.integers(0, self.K, size=size, dtype=np.int64)


class Harmonic:
    """P(x) ∝ 1/(x+1) on {0, …, K−1}: a skewed distribution (picklable)."""

    def __init__(self, K: int):
        w = 1.0 / np.arange(1, K + 1)
        self.p = w / w.sum()

    def __call__(self, rng: np.random.Generator, size: int) -> np.ndarray:
        return rng.choice(len(self.p), size=size, p=self.p).astype(np.int64)


def exact_loss(h: Any, target: Any, probs: np.ndarray) -> float:
    """loss_D(h) for D = (x ∼ probs on {0..K−1}, y = target(x))."""
    X = np.arange(len(probs))
    return float(probs @ (np.asarray(h.predict(X)) != np.asarray(target.predict(X))))
