"""``littlestone play``: an online learner against an adversary (mistake-bound game, seed 000 §3.2)."""

from __future__ import annotations

import math
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import numpy as np
import typer
from rich.table import Table

from .._random import as_generator, spawn_seeds
from ..errors import LittlestoneError
from ..io import read_csv_rows
from ._common import (CLASS_OPTION, CLUSTER_OPTION, JOBS_OPTION, SEED_OPTION, console, load_class, print_table,
                      tracking, with_cluster, working)

PLAY_EPILOG = """Examples:

  littlestone play --class thresholds:1000 --learner soa --adversary tree

  littlestone play --class points:16 --learner halving --adversary tree --rounds 20

  littlestone play --class thresholds:100 --learner soa-extended --adversary fixed --data sequence.csv
                                             (rows x,y; several x columns make a tuple point)

  littlestone play --class intervals:32 --learner soa --adversary iid --rounds 500 --runs 20 --seed 1 --jobs 2"""


class LearnerName(str, Enum):
    soa = "soa"
    soa_extended = "soa-extended"
    halving = "halving"


class AdversaryName(str, Enum):
    tree = "tree"
    greedy_tree = "greedy-tree"
    iid = "iid"
    fixed = "fixed"


def _cell(text: str) -> Any:
    t = text.strip()
    for conv in (int, float):
        try:
            return conv(t)
        except ValueError:
            pass
    return t


def load_sequence_csv(path: Path) -> tuple[list[Any], list[Any]]:
    """Examples (x, y) from a CSV file: one row per round, the label last; several x columns form a tuple point
    (e.g. a point of {0,1}^n for conjunctions). A first row whose label cell is not a number is a header."""
    rows = read_csv_rows(path, "sequence file", "expected CSV rows x,y")
    if rows and isinstance(_cell(rows[0][-1]), str):
        rows = rows[1:]
    if not rows:
        raise LittlestoneError(f"sequence file {str(path)!r} has no examples (expected CSV rows x,y)")
    width = len(rows[0])
    if width < 2:
        raise LittlestoneError(f"sequence file {str(path)!r}: each row needs a point and a label (x,y), "
                               f"got {width} column")
    X, y = [], []
    for i, r in enumerate(rows):
        if len(r) != width:
            raise LittlestoneError(f"sequence file {str(path)!r}: row {i + 1} has {len(r)} entries, expected {width}")
        cells = [_cell(c) for c in r]
        X.append(cells[0] if width == 2 else tuple(cells[:-1]))
        y.append(cells[-1])
    return X, y


def _random_target(H: Any, rng: np.random.Generator) -> Any:
    from ..classes.thresholds import Threshold, Thresholds

    if type(H) is Thresholds:
        return Threshold(int(rng.integers(0, H.n + 1)))
    V = H.version_space()
    size = V.size()
    if not math.isfinite(size) or size > 1_000_000:
        raise LittlestoneError(f"--adversary iid needs a class with at most 10^6 hypotheses to draw a target; "
                               f"{H.name} has {size}")
    hyps = list(V.hypotheses())
    return hyps[int(rng.integers(0, len(hyps)))]


def _support(H: Any) -> Any:
    from ..classes.thresholds import Thresholds

    if type(H) is Thresholds and H.n > 1 << 20:
        n = H.n
        return lambda rng: int(rng.integers(0, n))
    try:
        return H.domain_points()
    except TypeError:
        raise LittlestoneError(f"--adversary iid draws points uniformly from a finite domain; {H.name} has none "
                               "that can be enumerated") from None


@with_cluster
def play(
    hclass: str = CLASS_OPTION,
    learner: LearnerName = typer.Option(LearnerName.soa, "--learner", "-l", help="Online learner."),
    adversary: AdversaryName = typer.Option(AdversaryName.tree, "--adversary", "-a",
                                            help="tree: forces Ldim mistakes then replays; greedy-tree: forces "
                                                 "while it can; iid: uniform points labelled by a random target; "
                                                 "fixed: the examples of --data in order (oblivious)."),
    data: Optional[Path] = typer.Option(None, "--data", metavar="CSV",
                                        help="Sequence for --adversary fixed: rows x,y (label last)."),
    rounds: Optional[int] = typer.Option(None, "--rounds", "-T", min=1, help="Rounds per game "
                                         "(default: 2·Ldim+10 for tree adversaries, 200 for iid)."),
    runs: int = typer.Option(1, "--runs", min=1, help="Independent games (seeded from --seed)."),
    show: int = typer.Option(12, "--show", min=0, help="Rounds of the first game to print."),
    seed: Optional[int] = SEED_OPTION,
    jobs: int = JOBS_OPTION,
    cluster: Optional[str] = CLUSTER_OPTION,
) -> None:
    """Play an online learner against an adversary and count its mistakes (SOA: at most Ldim on realizable data)."""
    online = __import__("littlestone.online", fromlist=["play"])
    H = load_class(hclass)
    if (data is not None) != (adversary == AdversaryName.fixed):
        raise LittlestoneError("--data goes with --adversary fixed (and --adversary fixed needs --data FILE.csv)")
    fixed = None
    realizable = True
    if data is not None:
        X, y = load_sequence_csv(data)
        fixed = ([H.validate_point(x) for x in X], y)
        seq = online.FixedSequence(*fixed)  # checks the labels
        if rounds is not None and rounds > seq.length:
            raise LittlestoneError(f"--rounds {rounds} but {data} has only {seq.length} examples")
        n = rounds if rounds is not None else seq.length
        realizable = H.version_space().restrict_sample(fixed[0][:n], seq.y[:n])[1] == n
        if not realizable and learner != LearnerName.soa_extended:
            raise LittlestoneError(f"the examples in {data} are not realizable by {H.name}; use --learner "
                                   "soa-extended (seed 000 Def 8), which continues with local updates")
    with working(f"computing Ldim of {H.name}"):
        d = H.ldim()
    if rounds is not None:
        T = rounds
    elif fixed is not None:
        T = len(fixed[0])
    else:
        T = 2 * max(d, 0) + 10 if adversary != AdversaryName.iid else 200
    seeds = spawn_seeds(seed, runs + 1)
    target = _random_target(H, as_generator(seeds[-1])) if adversary == AdversaryName.iid else None
    support = _support(H) if adversary == AdversaryName.iid else None

    def make_learner() -> Any:
        if learner == LearnerName.halving:
            return online.Halving(H)
        return online.SOA(H, extended=learner == LearnerName.soa_extended)

    def make_adversary() -> Any:
        if adversary == AdversaryName.iid:
            return online.IIDRealizable(H, target, support)
        if fixed is not None:
            return online.FixedSequence(*fixed)
        return online.TreeAdversary(H, greedy=adversary == AdversaryName.greedy_tree)

    with tracking(f"{learner.value} vs {adversary.value}"):  # game i seeded by child i of --seed, as seeds above
        results = online.play_many(make_learner, make_adversary, T, runs=runs, seed=seed, jobs=jobs)

    first = results[0]
    if show:
        table = Table(title=f"first game, rounds 1–{min(show, first.T)}")
        for col in ("t", "x_t", "prediction", "label", "mistakes so far"):
            table.add_column(col, justify="right")
        for t in range(min(show, first.T)):
            table.add_row(str(t + 1), str(first.points[t]), str(int(first.predictions[t])),
                          str(int(first.labels[t])), str(int(first.cumulative_mistakes[t])))
        print_table(table)
    mistakes = np.array([r.mistakes for r in results])
    what = f"{learner.value} vs {adversary.value} adversary on {H.name}"
    if runs == 1:
        m = int(mistakes[0])
        console.print(f"{what}: [bold]{m}[/] mistake{'' if m == 1 else 's'} in {T} rounds (Ldim = {d})")
    else:
        console.print(f"{what}: mistakes over {runs} games of {T} rounds: mean {mistakes.mean():.2f}, "
                      f"max {mistakes.max()} (Ldim = {d})")
    if learner != LearnerName.halving:
        bound, name = d, f"SOA mistake bound Ldim(H) = {d}"
    else:
        size = H.version_space().size()
        bound = int(size).bit_length() - 1 if math.isfinite(size) else None
        name = f"Halving mistake bound ⌊log2 |H|⌋ = {bound}"
    if not realizable:
        console.print("the sequence is not realizable by the class: no mistake bound applies")
    elif bound is not None:
        ok = bool(mistakes.max() <= bound)
        console.print(f"{name}: " + ("[green]respected[/]" if ok else "[red]exceeded[/]"))


def register(app: typer.Typer) -> None:
    app.command(epilog=PLAY_EPILOG)(play)
