"""Regenerate the pictures of docs/tutorial.md:  .venv/bin/python docs/make_images.py  (about 20 s)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from littlestone import Thresholds
from littlestone.dimensions import ldim
from littlestone.experiments.demo import run_demo
from littlestone.io import atomic_savefig
from littlestone.online import SOA, Halving, TreeAdversary, play

IMAGES = Path(__file__).resolve().parent / "images"


def thresholds_tree() -> None:
    d, tree = ldim(Thresholds(15), witness=True)
    tree.to_png(IMAGES / "thresholds_tree.png", title=f"thresholds on 15 points: a shattered tree of depth {d}")


def soa_vs_tree() -> None:
    H = Thresholds(1000)
    fig = Figure(figsize=(6.5, 3.8))
    ax = fig.subplots()
    for name, make in (("SOA", lambda: SOA(H)), ("Halving", lambda: Halving(H))):
        res = play(make(), TreeAdversary(H), 40, seed=0)
        ax.step(
            np.arange(1, res.T + 1),
            res.cumulative_mistakes,
            where="post",
            label=f"{name}: {res.mistakes}",
            lw=4 if name == "SOA" else 1.5,
            alpha=0.5 if name == "SOA" else 1.0,
        )
    ax.axhline(H.ldim(), color="red", ls="--", lw=1, label=f"Ldim = {H.ldim()}")
    ax.set_xlabel("round t")
    ax.set_ylabel("mistakes so far")
    ax.set_title("thresholds(1000) against the tree adversary")
    ax.legend()
    fig.tight_layout()
    atomic_savefig(fig, IMAGES / "soa_vs_tree.png", dpi=110)


def demo_pictures() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        run_demo(tmp, seed=0, jobs=2, backend="seeded")
        for name, target in (
            ("tree.png", "demo_tree.png"),
            ("accuracy_vs_epsilon.png", "demo_accuracy.png"),
            ("g_histogram.png", "demo_g_histogram.png"),
        ):
            shutil.copyfile(Path(tmp) / name, IMAGES / target)


if __name__ == "__main__":
    IMAGES.mkdir(exist_ok=True)
    thresholds_tree()
    soa_vs_tree()
    demo_pictures()
    print(f"images written to {IMAGES}")
