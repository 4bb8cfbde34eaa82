"""``littlestone play``: an online learner against an adversary (mistake-bound game, BLM20 §3.2)."""

from __future__ import annotations

import math
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import numpy as np
import typer
from rich.markup import escape
from rich.table import Table

from .ledger import LEDGER_BUDGET_OPTION, LEDGER_OPTION, claim_of, open_ledger
from .._random import spawn_seeds
from ..errors import LittlestoneError
from ..io import read_csv_rows
from ._common import (
    BACKEND_OPTION,
    CLASS_OPTION,
    CLUSTER_OPTION,
    JOBS_OPTION,
    SEED_OPTION,
    BackendKind,
    console,
    load_class,
    print_table,
    progress,
    tracking,
    with_cluster,
    err_console,
    note_seed_under_secure,
    working,
)

PLAY_EPILOG = """Examples:

  littlestone play --class thresholds:1000 --learner soa --adversary tree

  littlestone play --class points:16 --learner halving --adversary tree --rounds 20

  littlestone play --class thresholds:100 --learner soa-extended --adversary fixed --data sequence.csv
                                             (rows x,y; several x columns make a tuple point)

  littlestone play --class intervals:32 --learner soa --adversary iid --rounds 500 --runs 20 --seed 1 --jobs 2

  littlestone play --class thresholds:2^60 --learner private --adversary late-commitment --rounds 100000
                                             (private: the practical pure ε-DP learner for the class —
                                              bisect for thresholds, points-at, intervals-at, listat for a
                                              finite class —, named in the output; the released h_t predicts;
                                              --backend seeded --seed 1 for a reproducible run; it assumes
                                              a hypothesis with no mistakes; with --data FILE, -l private
                                              picks segment-em: real data may be noisy)

  littlestone play --class random:16x20 --learner listat --adversary disagreement --rounds 100000 --epsilon 1

  littlestone play --class thresholds:2 --learner lwy25 --adversary iid --rounds 20000 --epsilon 1 --delta 1e-6
                                             (the papers' algorithms, faithful: lwy25, lwy25-paper, gl21, …)"""


class LearnerName(str, Enum):
    soa = "soa"
    soa_extended = "soa-extended"
    halving = "halving"
    lwy25 = "lwy25"
    lwy25_paper = "lwy25-paper"
    gl21 = "gl21"
    gl21_paper = "gl21-paper"
    gl21_adaptive = "gl21-adaptive"
    points_at = "points-at"
    intervals_at = "intervals-at"
    listat = "listat"
    bisect = "bisect"
    segment_em = "segment-em"
    epoch_em = "epoch-em"
    private = "private"


PRIVATE_LEARNERS = (
    "lwy25",
    "lwy25-paper",
    "gl21",
    "gl21-paper",
    "gl21-adaptive",
    "listat",
    "bisect",
    "points-at",
    "intervals-at",
    "segment-em",
    "epoch-em",
    "private",
)
#: ``-l private`` picks one of these by the class (littlestone.private_online.practical)
PRACTICAL_LEARNERS = ("bisect", "points-at", "intervals-at", "listat")
#: the pure ε-DP segment learners (App. F): --setting is "practical", "theory" or a threshold τ
SEGMENT_LEARNERS = ("listat", "bisect")
#: bytes a game record keeps per round (the point, the prediction, the label), for the up-front memory check
#: a game's own memory besides its rounds (its seed, its result)
_BYTES_PER_GAME = 1024
_BYTES_PER_ROUND = 48
#: rounds between two progress updates of a private learner's game (at most; T/100 for shorter games)
_PROGRESS_EVERY = 10_000


def _segment_setting(text: str) -> Any:
    """``--setting`` of listat / bisect: "practical", "theory" or a threshold τ > 0."""
    t = text.strip()
    if t in ("practical", "theory"):
        return t
    try:
        return float(t.removeprefix("tau="))
    except ValueError:
        raise LittlestoneError(
            f"--setting for listat / bisect is 'practical', 'theory' or a threshold τ, not {text!r}"
        ) from None


def parse_setting(text: str, learner: str, d: int) -> Any:
    """``--setting N0=…,m_exp=…`` → an LWY25Setting (lwy25, lwy25-paper: N0, m_coef, m_exp) or a GL21Setting (gl21,
    gl21-paper, gl21-adaptive: k1, k2, eta, c); fields not given keep the practical setting's value for d."""
    from dataclasses import fields, replace

    from ..private_online import GL21Setting, LWY25Setting

    base = LWY25Setting.practical(d) if learner.startswith("lwy25") else GL21Setting.practical(d)
    kinds = {f.name: f.type for f in fields(base) if f.name != "name"}
    values: dict[str, Any] = {}
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        key, eq, val = item.partition("=")
        key = key.strip()
        if not eq or key not in kinds:
            raise LittlestoneError(
                f"--setting {text!r}: {item!r} is not KEY=VALUE with KEY one of {', '.join(kinds)} (for {learner})"
            )
        integer = str(kinds[key]) in ("int", "<class 'int'>")
        try:
            v = float(val) if not integer else int(float(val)) if float(val).is_integer() else None
        except (ValueError, OverflowError):
            v = None
        if v is None or not math.isfinite(v) or v <= 0:
            raise LittlestoneError(
                f"--setting {key}={val.strip()!r}: expected a positive {'integer' if integer else 'number'}"
            )
        values[key] = v
    return replace(base, name="custom", **values)


def _too_large_message(learner: str, d: int, setting: object) -> str:
    """Where a setting of d cannot be allocated: the N₀ (k₂) it needs, and how to pass another (shared with Python)."""
    from ..private_online.too_large import too_large_message

    return too_large_message(learner, d, setting, cli=True)


class AdversaryName(str, Enum):
    tree = "tree"
    greedy_tree = "greedy-tree"
    iid = "iid"
    disagreement = "disagreement"
    late_commitment = "late-commitment"
    fixed = "fixed"


#: rounds per game a transcript-keeping game may play (≈ 50 bytes a round); i.i.d. games of SOA/Halving stream
MAX_TRANSCRIPT_ROUNDS = 20_000_000


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
        raise LittlestoneError(
            f"sequence file {str(path)!r}: each row needs a point and a label (x,y), got {width} column"
        )
    X, y = [], []
    for i, r in enumerate(rows):
        if len(r) != width:
            raise LittlestoneError(f"sequence file {str(path)!r}: row {i + 1} has {len(r)} entries, expected {width}")
        cells = [_cell(c) for c in r]
        X.append(cells[0] if width == 2 else tuple(cells[:-1]))
        y.append(cells[-1])
    return X, y


def _check_iid_law(H: Any) -> None:
    """--adversary iid needs the class's law on points and on targets (closed form for thresholds, points,
    intervals of any size; enumeration of ≤ 10^6 hypotheses otherwise): fail up front with one line."""
    from ..online.adversaries import point_law

    point_law(H)
    try:
        H.random_hypothesis(np.random.default_rng(0))
    except LittlestoneError as exc:
        raise LittlestoneError(f"--adversary iid needs a target: {exc}") from None


@with_cluster
def play(
    hclass: str = CLASS_OPTION,
    learner: LearnerName = typer.Option(
        LearnerName.soa,
        "--learner",
        "-l",
        help="Online learner. Real, noisy data (no hypothesis right every time): segment-em, pure ε-DP, regret "
        "against the best hypothesis in hindsight. private: with --data, segment-em (a file's stream may be "
        "noisy); against the synthetic adversaries, the practical pure ε-DP learner for a clean stream of "
        "the class (bisect for thresholds, points-at, intervals-at, listat for a finite class; named in the "
        "output) — fewer mistakes when some hypothesis makes none, far more on noisy data; the papers' algorithms "
        "under their names (lwy25, lwy25-paper, gl21, gl21-paper, gl21-adaptive).",
    ),
    adversary: AdversaryName = typer.Option(
        AdversaryName.tree,
        "--adversary",
        "-a",
        help="tree: forces Ldim mistakes then replays; greedy-tree: forces "
        "while it can; iid: uniform points labelled by a random target (oblivious; SOA/Halving stream in chunks); "
        "disagreement: a point where the released hypothesis and a random target disagree; late-commitment: the "
        "opposite of the released hypothesis where the flip keeps the most hypotheses (adaptive, LWY25 §3); "
        "fixed: the examples of --data in order (oblivious).",
    ),
    data: Optional[Path] = typer.Option(
        None, "--data", metavar="CSV", help="Sequence for --adversary fixed: rows x,y (label last)."
    ),
    rounds: Optional[int] = typer.Option(
        None, "--rounds", "-T", min=1, help="Rounds per game (default: 2·Ldim+10 for tree adversaries, 200 for iid)."
    ),
    runs: int = typer.Option(1, "--runs", min=1, help="Independent games (seeded from --seed)."),
    show: int = typer.Option(12, "--show", min=0, help="Rounds of the first game to print."),
    seed: Optional[int] = SEED_OPTION,
    jobs: int = JOBS_OPTION,
    cluster: Optional[str] = CLUSTER_OPTION,
    epsilon: Optional[float] = typer.Option(
        None, "--epsilon", "-e", help="Privacy ε of a private learner (default 1; private, bisect, lwy25, …)."
    ),
    delta: Optional[float] = typer.Option(
        None, "--delta", help="Privacy δ ∈ (0,1) of a private learner (default 1e-6)."
    ),
    beta: Optional[float] = typer.Option(
        None, "--beta", help="Failure probability β of a private learner (default 0.1)."
    ),
    setting: Optional[str] = typer.Option(
        None,
        "--setting",
        metavar="KEY=VAL,…",
        help="Private learner's setting: N0, m_coef, m_exp (lwy25) or k1, k2, eta, c (gl21); unset keys keep the "
        "practical setting of the class's Ldim. listat / bisect: practical, theory or a threshold τ; points-at / "
        "intervals-at: practical or theory.",
    ),
    backend: BackendKind = BACKEND_OPTION,
    diagnostics: bool = typer.Option(
        False,
        "--diagnostics",
        help="Private learners: also print the exact counts of the private stream (insertions, merges, …) in the "
        "learner's state — NOT covered by the privacy claim; off by default (only the public state is printed).",
    ),
    ledger: Optional[Path] = LEDGER_OPTION,
    ledger_budget: Optional[str] = LEDGER_BUDGET_OPTION,
) -> None:
    """Play an online learner against an adversary and count its mistakes (SOA: at most Ldim on realizable data;
    private learners: mistakes of the released hypotheses h_t, practical setting)."""
    online = __import__("littlestone.online", fromlist=["play"])
    H = load_class(hclass)
    if (data is not None) != (adversary == AdversaryName.fixed):
        raise LittlestoneError("--data goes with --adversary fixed (and --adversary fixed needs --data FILE.csv)")
    fixed = None
    realizable = True
    book = open_ledger(ledger, ledger_budget, data)  # hashes --data: nothing parsed yet
    if book is not None and learner.value not in PRIVATE_LEARNERS:
        raise LittlestoneError(f"--ledger refuses {learner.value}: a non-private learner has no finite privacy claim")
    if data is not None:
        X, y = load_sequence_csv(data)
        fixed = ([H.validate_point(x) for x in X], y)
        seq = online.FixedSequence(*fixed)  # checks the labels
        if rounds is not None and rounds > seq.length:
            raise LittlestoneError(f"--rounds {rounds} but {data} has only {seq.length} examples")
        n = rounds if rounds is not None else seq.length
        # a private learner runs on any stream: whether the private examples are realizable is a fact about them
        # that no claim covers, so it is neither checked nor reported (issue 33 item 5); SOA / Halving need it
        if learner.value not in PRIVATE_LEARNERS:
            realizable = H.version_space().restrict_sample(fixed[0][:n], seq.y[:n])[1] == n
        if not realizable and learner != LearnerName.soa_extended:
            raise LittlestoneError(
                f"the examples in {data} are not realizable by {H.name}; use --learner "
                "soa-extended (BLM20 Def 8), which continues with local updates"
            )
    with working(f"computing Ldim of {H.name}"):
        d = H.ldim()
    if rounds is not None:
        T = rounds
    elif fixed is not None:
        T = len(fixed[0])
    else:
        T = 2 * max(d, 0) + 10 if adversary != AdversaryName.iid else 200
    _check_rounds(T, runs)
    seeds = spawn_seeds(seed, runs + 1)
    if adversary == AdversaryName.iid:
        _check_iid_law(H)

    private = learner.value in PRIVATE_LEARNERS
    if learner == LearnerName.private:
        from ..private_online.practical import practical_learner

        picked, _, why = practical_learner(H, noisy=fixed is not None)
        console.print(f"-l private: {picked} ({why})", markup=False, highlight=False)
        learner = LearnerName(picked)
    if not private:
        given = [
            n
            for n, v in (
                ("--epsilon", epsilon),
                ("--delta", delta),
                ("--beta", beta),
                ("--setting", setting),
                ("--diagnostics", diagnostics or None),
            )
            if v is not None
        ]
        if given:
            raise LittlestoneError(
                f"{', '.join(given)} {'applies' if len(given) == 1 else 'apply'} only to the private learners ({', '.join(PRIVATE_LEARNERS)}); "
                f"{learner.value} is not private"
            )
    epsilon = 1.0 if epsilon is None else epsilon
    delta = 1e-6 if delta is None else delta
    beta = 0.1 if beta is None else beta
    if private:
        note_seed_under_secure(seed, backend)
        if cluster is not None and runs == 1:
            err_console.print(
                "warning: --cluster is not used: a single game of a private learner runs in this process "
                "(the games of --runs > 1 run one after another too)",
                markup=False,
                highlight=False,
            )
        from ..private_online import GL21, LWY25, AnytimeGL21, AnytimeLWY25, BisectAT, GL21Adaptive, ListAT
        from ..private_online.intervals_at import IntervalsAT
        from ..private_online.epoch_em import EpochEM
        from ..private_online.points_at import PointsAT
        from ..private_online.segmented_em import SegmentedEM

        cls = {
            "lwy25": AnytimeLWY25,
            "lwy25-paper": LWY25,
            "gl21": AnytimeGL21,
            "gl21-paper": GL21,
            "gl21-adaptive": GL21Adaptive,
            "listat": ListAT,
            "bisect": BisectAT,
            "points-at": PointsAT,
            "intervals-at": IntervalsAT,
            "segment-em": SegmentedEM,
            "epoch-em": EpochEM,
        }[learner.value]
        if learner.value in SEGMENT_LEARNERS:
            chosen = "practical" if setting is None else _segment_setting(setting)
        elif learner.value in (
            "points-at",
            "intervals-at",
            "segment-em",
            "epoch-em",
        ):  # settings by name: practical (default) or theory
            chosen = "practical" if setting is None else setting
        else:
            chosen = "practical" if setting is None else parse_setting(setting, learner.value, d)
        try:  # parameter errors first
            cls(H, T=T, epsilon=epsilon, delta=delta, beta=beta, backend="seeded", seed=0, setting=chosen)
        except LittlestoneError as exc:
            if "cannot be allocated" in str(exc):  # the same text as Python's, with --setting for the way out
                from ..private_online import GL21Setting, LWY25Setting

                rule = LWY25Setting if learner.value.startswith("lwy25") else GL21Setting
                failed = rule.practical(d) if isinstance(chosen, str) else chosen
                raise LittlestoneError(_too_large_message(learner.value, d, failed)) from None
            raise
        if learner == LearnerName.gl21_adaptive:
            _gl21_adaptive_notes(T, epsilon, delta)
        if book is not None:  # every game is a run on the data: runs × the learner's claim, before any is played
            how = {"backend": "secure"} if backend == BackendKind.secure else {"backend": "seeded", "seed": 0}
            e, dl = claim_of(cls(H, T=T, epsilon=epsilon, delta=delta, beta=beta, setting=chosen, **how).privacy())
            book.charge("play", f"play --learner {learner.value} (T = {T}, {runs} game(s))", runs * e, runs * dl)
            console.print(escape(book.summary()))
    learner_seeds = spawn_seeds(None if seed is None else seed + 1, runs)
    made = iter(range(runs))

    def make_learner() -> Any:
        if private:
            i = next(made, 0)
            kw = dict(T=T, epsilon=epsilon, delta=delta, beta=beta, setting=chosen, diagnostics=diagnostics)
            if backend == BackendKind.secure:
                return cls(H, backend="secure", **kw)
            return cls(H, backend="seeded", seed=learner_seeds[i], **kw)
        if learner == LearnerName.halving:
            return online.Halving(H)
        return online.SOA(H, extended=learner == LearnerName.soa_extended)

    def make_adversary() -> Any:
        if fixed is not None:
            return online.FixedSequence(*fixed)
        return online.make_adversary(adversary.value, H)  # each game seeded by play's seed

    streamed = not private and adversary == AdversaryName.iid
    if not streamed and T > MAX_TRANSCRIPT_ROUNDS:
        raise LittlestoneError(
            f"--rounds {T} is too many for a game that keeps its transcript (at most {MAX_TRANSCRIPT_ROUNDS:,} "
            "rounds, about 50 bytes each); --adversary iid with soa/halving streams any number of rounds"
        )
    results: list[Any] = []
    if streamed and jobs == 1 and cluster is None:
        with progress() as bar:
            task = bar.add_task(f"{learner.value} vs {adversary.value} ({runs} × {T} rounds)", total=runs * T)
            for s in seeds[:runs]:
                results.append(
                    online.play_stream(
                        make_learner(),
                        make_adversary(),
                        T,
                        seed=s,
                        keep=show,
                        chunk=max(1, min(1 << 18, T // 100)),  # the bar moves every T/100 rounds, as the other games'
                        on_chunk=lambda k: bar.advance(task, k),
                    )
                )
    elif streamed:
        with tracking(f"{learner.value} vs {adversary.value}"):
            results = online.play_many(
                make_learner, make_adversary, T, runs=runs, seed=seed, jobs=jobs, cluster=cluster, stream=True
            )
    elif not private and jobs == 1 and cluster is None:
        with progress() as bar:  # the bar counts rounds (every T/100), not games
            task = bar.add_task(f"{learner.value} vs {adversary.value} ({runs} × {T} rounds)", total=runs * T)
            for s in seeds[:runs]:
                every = max(T // 100, 1)
                results.append(online.play(make_learner(), _ticking(make_adversary(), bar, task, every), T, seed=s))
                bar.update(task, completed=len(results) * T)
    elif private:
        with progress() as bar:
            task = bar.add_task(f"{learner.value} vs {adversary.value} ({runs} × {T} rounds)", total=runs * T)
            for s in seeds[:runs]:
                last = make_learner()
                every = progress_every(T)
                results.append(online.play(last, _ticking(make_adversary(), bar, task, every), T, seed=s))
    else:
        with tracking(f"{learner.value} vs {adversary.value}"):  # game i seeded by child i of --seed, as seeds above
            results = online.play_many(make_learner, make_adversary, T, runs=runs, seed=seed, jobs=jobs)

    first = results[0].head if isinstance(results[0], online.StreamResult) else results[0]
    if show:
        table = Table(title=f"first game, rounds 1–{min(show, first.T)}")
        for col in ("t", "x_t", "prediction", "label", "mistakes so far"):
            table.add_column(col, justify="right")
        for t in range(min(show, first.T)):
            table.add_row(
                str(t + 1),
                str(first.points[t]),
                str(int(first.predictions[t])),
                str(int(first.labels[t])),
                str(int(first.cumulative_mistakes[t])),
            )
        print_table(table)
    mistakes = np.array([r.mistakes for r in results])
    what = f"{learner.value} vs {adversary.value} adversary on {H.name}"
    if runs == 1:
        m = int(mistakes[0])
        console.print(f"{escape(what)}: [bold]{m}[/] mistake{'' if m == 1 else 's'} in {T} rounds (Ldim = {d})")
    else:
        console.print(
            f"{escape(what)}: mistakes over {runs} games of {T} rounds: mean {mistakes.mean():.2f}, "
            f"max {mistakes.max()} (Ldim = {d})"
        )
    if private:
        claim = last.privacy()
        console.print(
            f"setting: {last.setting}; claim: ({claim.epsilon:.4g}, {claim.delta:.3g})-DP "
            f"({claim.composition}); backend {backend.value}"
        )
        label = "state (with non-private diagnostics)" if diagnostics else "public state"
        console.print(f"{label} at the end of the last game: {last.state()}", markup=False)
        console.print(
            "mistakes are those of the released hypotheses h_t; the theorem's mistake bound holds only for "
            f"its own parameters (littlestone bounds {learner.value if learner.value.endswith(('-at', '-em')) else learner.value.split('-')[0]})"
        )
        return
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


def progress_every(T: int) -> int:
    """Rounds between two progress updates of a private learner's game: T/100, at most 10⁴ (a 10⁹-round game moves
    every 10⁴ rounds, not every 10⁷), at least 1."""
    return max(min(T // 100, _PROGRESS_EVERY), 1)


def _check_rounds(T: int, runs: int = 1) -> None:
    """Refuse up front games whose records (point, prediction, label per round; one seed per game) cannot fit in this
    machine's memory — also before a count too large for any array (issue 26 item 5: ``--runs 2^63 − 1`` ended in an
    OverflowError)."""
    import os

    try:
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        mem = 1 << 40
    if T > mem // _BYTES_PER_ROUND:
        raise LittlestoneError(
            f"--rounds {T}: a game keeps every round's point, prediction and label (~{_BYTES_PER_ROUND} bytes a "
            f"round), more than this machine's {mem / 2**30:.0f} GiB of memory; at most {mem // _BYTES_PER_ROUND:,} "
            "rounds here"
        )
    per_game = _BYTES_PER_ROUND * T + _BYTES_PER_GAME
    if runs > mem // per_game:
        raise LittlestoneError(
            f"--runs {runs}: {runs:,} games of {T:,} rounds keep ~{per_game:,} bytes each (every round's record and "
            f"the game's seed), more than this machine's {mem / 2**30:.0f} GiB of memory; at most "
            f"{mem // per_game:,} games here"
        )


def _gl21_adaptive_notes(T: int, epsilon: float, delta: float) -> None:
    """GL21 Thm 4.2 rebuilds its forest on all past examples every round (O(T²)), and releases nothing learned from
    the data before T reaches :func:`~littlestone.bounds.gl21.adaptive_min_horizon` (whatever the forest)."""
    from ..bounds.gl21 import adaptive_min_horizon

    t_min = adaptive_min_horizon(epsilon, delta)
    if t_min is None or T < t_min:
        at = (
            "at any T"
            if t_min is None
            else f"before T = {t_min:,} (where its O(T²) rebuilds cost ~{t_min**2 / 2:.1e} example steps)"
        )
        err_console.print(
            f"note: gl21-adaptive cannot release a hypothesis learned from the data {at} at ε = {epsilon:g}, "
            f"δ = {delta:g}: after t rounds at most t trees differ from the initial one, fewer than the stable "
            "histogram's threshold τ(ε′, δ′); it releases SOA(∅) or the constant 0 throughout, so it is left out of "
            "comparisons (littlestone.bounds.gl21.adaptive_min_horizon)",
            markup=False,
            highlight=False,
        )
    if T > 2_000:
        err_console.print(
            f"warning: gl21-adaptive rebuilds its forest on every past example each round: O(T²) ≈ {T * T / 2:.1e} "
            "example steps for this game",
            markup=False,
            highlight=False,
        )


def _ticking(inner: Any, bar: Any, task: Any, every: int) -> Any:
    """The adversary, advancing a progress bar every ``every`` rounds (the game itself is unchanged)."""
    from ..online import Adversary

    class Ticking(Adversary):
        def start(self, rng: Any) -> None:
            inner.start(rng)

        def watch(self, learner: Any) -> None:
            inner.watch(learner)

        def propose(self, t: int) -> Any:
            if t % every == 0 and t:
                bar.advance(task, every)
            return inner.propose(t)

        def reveal(self, t: int, x: Any, prediction: int) -> int:
            return inner.reveal(t, x, prediction)

        @property
        def length(self) -> int | None:
            return inner.length

    return Ticking()


def register(app: typer.Typer) -> None:
    app.command(epilog=PLAY_EPILOG)(play)
