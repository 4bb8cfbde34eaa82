"""``littlestone bounds``: theorem sample sizes, every stage with its formula (generic learner; BLM20)."""

from __future__ import annotations

import importlib
import math
from enum import Enum
from typing import Any, Optional

import typer
from rich.table import Table

from ..errors import LittlestoneError
from ._common import console, load_class, print_table

bounds_app = typer.Typer(
    help="Theorem sample sizes, stage by stage.",
    no_args_is_help=True,
    epilog="Examples:\n\n  littlestone bounds generic --class thresholds:1000 --mode agnostic\n\n"
    "  littlestone bounds blm20 --d 3 --alpha 0.1 --epsilon 1 --delta 1e-6 --beta 0.05",
)

GENERIC_EPILOG = """Examples:

  littlestone bounds generic --class thresholds:1000 --alpha 0.1 --epsilon 1 --beta 0.05

  littlestone bounds generic --hypotheses 1e6 --mode agnostic --alpha 0.05 --epsilon 0.5"""

BLM20_EPILOG = """Examples:

  littlestone bounds blm20 --d 3 --alpha 0.1 --epsilon 1 --delta 1e-6 --beta 0.05

  littlestone bounds blm20 --d 2 --theorem theorem10 --alpha 0.1 --epsilon 1 --delta 1e-6 --beta 0.05

  littlestone bounds blm20 --d 3 --histogram lemma15"""


class Mode(str, Enum):
    realizable = "realizable"
    agnostic = "agnostic"


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        if v == int(v) and abs(v) < 1e15:
            return f"{int(v):,}"
        return f"{v:,.4g}" if abs(v) < 1e15 else f"{v:.4e}"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def print_report(title: str, report: Any) -> None:
    """A bound report as a table (stage, quantity, value, formula) with the total last."""
    table = Table(title=title, title_justify="left")
    for col, just in (("stage", "left"), ("quantity", "left"), ("value", "right"), ("formula", "left")):
        table.add_column(col, justify=just, no_wrap=col == "value")  # type: ignore[arg-type]
    for row in report.rows():
        stage, quantity, value, formula = (list(row) + ["", "", "", ""])[:4]
        table.add_row(str(stage), str(quantity), _fmt(value), str(formula))
    print_table(table)
    console.print(f"total sample size: [bold]{_fmt(report.total)}[/]")


@bounds_app.command("generic", epilog=GENERIC_EPILOG)
def generic(
    hclass: Optional[str] = typer.Option(None, "--class", "-c", metavar="SPEC", help="Class whose size |H| is used."),
    hypotheses: Optional[float] = typer.Option(None, "--hypotheses", "-H", help="|H| directly (instead of --class)."),
    alpha: float = typer.Option(0.1, "--alpha", help="Accuracy α ∈ (0,1)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy ε > 0."),
    beta: float = typer.Option(0.05, "--beta", help="Failure probability β ∈ (0,1)."),
    mode: Mode = typer.Option(
        Mode.realizable, "--mode", help="realizable (BLM20 Lemma 16) or agnostic (Kal-LN §3 Theorem 1)."
    ),
) -> None:
    """Sample size of the pure-DP generic learner (exponential mechanism over a finite class)."""
    from ..bounds.generic import sample_size

    if (hclass is None) == (hypotheses is None):
        raise LittlestoneError("give exactly one of --class or --hypotheses")
    if hclass is not None:
        H = load_class(hclass)
        size = H.version_space().size()
        name = H.name
    else:
        size, name = float(hypotheses), f"|H| = {hypotheses:g}"  # type: ignore[arg-type]
    report = sample_size(size, alpha, epsilon, beta, mode.value)
    print_report(f"generic learner on {name}: {report.theorem} ({report.guarantee})", report)


class HistogramReading(str, Enum):
    proof = "proof"
    lemma15 = "lemma15"


class Blm20Theorem(str, Enum):
    theorem1 = "theorem1"
    theorem10 = "theorem10"
    theorem17 = "theorem17"
    corollary2 = "corollary2"


@bounds_app.command("blm20", epilog=BLM20_EPILOG)
def blm20(
    d: int = typer.Option(..., "--d", min=0, help="Littlestone dimension d of the class."),
    alpha: float = typer.Option(0.1, "--alpha", help="Accuracy α ∈ (0,1)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy ε > 0."),
    delta: float = typer.Option(1e-6, "--delta", help="Privacy δ ∈ (0,1)."),
    beta: float = typer.Option(0.05, "--beta", help="Failure probability β ∈ (0,1)."),
    theorem: Blm20Theorem = typer.Option(Blm20Theorem.theorem1, "--theorem", help="Which statement of BLM20."),
    histogram: HistogramReading = typer.Option(
        HistogramReading.proof,
        "--histogram",
        help="How the stable histogram's batches k are sized (theorem1/theorem17): 'proof' = the condition "
        "Theorem 17's proof uses (h* released, estimates within η/8); 'lemma15' = Lemma 15 literally at "
        "accuracy (η/8, β/3) (every item of frequency ≥ η/8 released; larger k).",
    ),
) -> None:
    """Every stage's sample size in Bun–Livni–Moran's private learner (BLM20)."""
    try:
        mod = importlib.import_module("littlestone.bounds.blm20")
    except ImportError as exc:
        raise LittlestoneError(f"BLM20 bounds are not available in this installation ({exc})") from None
    fn = getattr(mod, theorem.value, None)
    if fn is None:
        raise LittlestoneError(f"littlestone.bounds.blm20 has no {theorem.value}")
    if theorem.value in ("theorem1", "theorem17"):
        report = fn(d, alpha, epsilon, delta, beta, histogram=histogram.value)
        how = (
            ", histogram sized by the condition of Theorem 17's proof"
            if histogram is HistogramReading.proof
            else ", histogram sized by Lemma 15 literally at (η/8, β/3)"
        )
    elif histogram is not HistogramReading.proof:
        raise LittlestoneError(
            f"--histogram applies to theorem1 and theorem17 (the stable histogram of M), not to {theorem.value}"
        )
    else:
        report, how = fn(d, alpha, epsilon, delta, beta), ""
    title = getattr(report, "title", theorem.value)
    print_report(
        f"BLM20 {theorem.value} — {title}: d = {d}, α = {alpha:g}, ε = {epsilon:g}, δ = {delta:g}, β = {beta:g}{how}",
        report,
    )


LWY25_AGNOSTIC_EPILOG = """Examples:

  littlestone bounds lwy25-agnostic --d 1 --d-star 1 --d-vc 1 --d-vc-star 1 --T 1000000 --epsilon 1 --delta 1e-6

  littlestone bounds lwy25-agnostic --class thresholds:16 --T 100000 --epsilon 1 --delta 1e-6"""


@bounds_app.command("lwy25-agnostic", epilog=LWY25_AGNOSTIC_EPILOG)
def lwy25_agnostic_cmd(
    hclass: Optional[str] = typer.Option(
        None,
        "--class",
        "-c",
        metavar="SPEC",
        help="A finite class: its dimensions are computed, and the proven rows added.",
    ),
    d: Optional[int] = typer.Option(None, "--d", min=0, help="Littlestone dimension d."),
    d_star: Optional[int] = typer.Option(None, "--d-star", min=0, help="Dual Littlestone dimension d*."),
    d_vc: Optional[int] = typer.Option(None, "--d-vc", min=0, help="VC dimension d_V."),
    d_vc_star: Optional[int] = typer.Option(None, "--d-vc-star", min=0, help="Dual VC dimension d_V*."),
    T: int = typer.Option(..., "--T", help="Time horizon T (known in advance)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy ε > 0."),
    delta: float = typer.Option(1e-6, "--delta", help="Privacy δ ∈ (0,1)."),
    alpha: float = typer.Option(0.1, "--alpha", help="Sanitizer accuracy α ∈ (0,1)."),
    beta: float = typer.Option(0.05, "--beta", help="Failure probability β ∈ (0,1)."),
) -> None:
    """LWY25 §4 / App. E: sanitizer sizes (Thm 4.2, E.5), batch B (Cor 4.3), |J| (Alg 7), regret (Cor 4.3, Thm 4.4)."""
    from ..bounds.lwy25_agnostic import lwy25_agnostic

    hyps = dom = None
    if hclass is not None:
        from ..dimensions import dual_ldim, dual_vc_dim, ldim, vc_dim

        H = load_class(hclass)
        dims = (ldim(H), dual_ldim(H), vc_dim(H), dual_vc_dim(H))
        given = (d, d_star, d_vc, d_vc_star)
        if any(g is not None and g != c for g, c in zip(given, dims)):
            raise LittlestoneError(f"--d/--d-star/--d-vc/--d-vc-star contradict {H.name}'s dimensions {dims}")
        d, d_star, d_vc, d_vc_star = dims
        hyps, dom = int(H.version_space().size()), int(H.domain_size)
    missing = [
        n for n, x in (("--d", d), ("--d-star", d_star), ("--d-vc", d_vc), ("--d-vc-star", d_vc_star)) if x is None
    ]
    if missing:
        raise LittlestoneError(f"give --class or all four dimensions (missing {', '.join(missing)})")
    report = lwy25_agnostic(
        d,
        d_star,
        d_vc,
        d_vc_star,
        T,
        epsilon,
        delta,
        alpha,
        beta,  # type: ignore[arg-type]
        hypotheses=hyps,
        domain=dom,
    )
    exact = []
    if hclass is not None:
        from ..classes import majority_xor_class
        from ..dimensions import dual_ldim, ldim, vc_dim

        m = max(1, d_vc_star)  # type: ignore[arg-type]
        try:
            C = majority_xor_class(H, m)
            exact = [
                (
                    "Claim E.7 (computed)",
                    f"Ldim / dual Ldim / VC of H_(m,1/2)⊕H, m = {m}",
                    f"{ldim(C)} / {dual_ldim(C)} / {vc_dim(C)}",
                    C.name,
                )
            ]
        except LittlestoneError as exc:
            exact = [("Claim E.7 (computed)", "H_(m,1/2)⊕H", "—", f"not built: {exc}")]
    table = Table(
        title=f"LWY25 agnostic private online learning: d={d}, d*={d_star}, d_V={d_vc}, d_V*={d_vc_star}, "
        f"T={T:,}, ε={epsilon:g}, δ={delta:g}, α={alpha:g}, β={beta:g}",
        title_justify="left",
    )
    for col, just in (("result", "left"), ("quantity", "left"), ("value", "right"), ("formula", "left")):
        table.add_column(col, justify=just, overflow="fold")  # type: ignore[arg-type]
    for stage, q, value, formula in report.rows():
        table.add_row(stage, q, _fmt(value), formula)
    for stage, q, value, formula in exact:
        table.add_row(stage, q, value, formula)
    print_table(table)
    console.print(
        "(order) rows: LWY25's Õ(·) with every hidden constant and log set to 1; (proven) rows: the bounds "
        "of the implemented components, constants written out."
    )


GGKM21_EPILOG = """Examples:

  littlestone bounds ggkm21 --d 2 --alpha 0.1 --epsilon 1 --delta 1e-6 --beta 0.05

  littlestone bounds ggkm21 --d 1 --alpha 0.25 --learner improper"""

COMPARE_EPILOG = """Examples:

  littlestone bounds compare --d 1..8

  littlestone bounds compare --d 1..8 --alpha 0.1 --plot compare.png"""


class GgkmLearner(str, Enum):
    proper = "proper"
    improper = "improper"


@bounds_app.command("ggkm21", epilog=GGKM21_EPILOG)
def ggkm21(
    d: int = typer.Option(..., "--d", min=1, help="Littlestone dimension d ≥ 1 of the class."),
    alpha: float = typer.Option(0.1, "--alpha", help="Accuracy α ∈ (0,1)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy ε > 0."),
    delta: float = typer.Option(1e-6, "--delta", help="Privacy δ ∈ (0,1)."),
    beta: float = typer.Option(0.05, "--beta", help="Failure probability β ∈ (0,1)."),
    learner: GgkmLearner = typer.Option(
        GgkmLearner.proper, "--learner", help="proper (Theorem 6.4, PolyPriPropLearn) or improper (Theorem 5.7)."
    ),
) -> None:
    """Every stage of GGKM21's learner (n, m, K, s, sparse-selection error), with the LWY25 Theorem D.2 variant."""
    from ..bounds import ggkm21 as g

    fn = g.theorem64 if learner is GgkmLearner.proper else g.theorem57
    head = f"d = {d}, α = {alpha:g}, ε = {epsilon:g}, δ = {delta:g}, β = {beta:g}"
    add = fn(d, alpha, epsilon, delta, beta)
    rel = fn(d, alpha, epsilon, delta, beta, convergence="relative")
    print_report(f"{add.title}: {head}", add)
    print_report(f"{rel.title} — LWY25 Theorem D.2 variant (Lemma D.1): {head}", rel)


def _parse_range(text: str) -> list[int]:
    try:
        if ".." in text:
            a, b = text.split("..", 1)
            lo, hi = int(a), int(b)
            out = list(range(lo, hi + 1))
        else:
            out = [int(v) for v in text.split(",")]
    except ValueError:
        raise LittlestoneError(f"--d must look like 1..8 or 1,2,3 (integers), got {text!r}") from None
    if not out or min(out) < 1 or max(out) > 64:
        raise LittlestoneError(f"--d must give dimensions between 1 and 64, got {text!r}")
    return out


@bounds_app.command("compare", epilog=COMPARE_EPILOG)
def compare(
    d: str = typer.Option("1..8", "--d", help="Dimensions: a range 1..8 or a list 1,2,3."),
    alpha: float = typer.Option(0.1, "--alpha", help="Accuracy α ∈ (0,1)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy ε > 0."),
    delta: float = typer.Option(1e-6, "--delta", help="Privacy δ ∈ (0,1)."),
    beta: float = typer.Option(0.05, "--beta", help="Failure probability β ∈ (0,1)."),
    plot: Optional[str] = typer.Option(None, "--plot", metavar="FILE", help="Also draw the totals (PNG)."),
) -> None:
    """BLM20 (Theorem 1) against GGKM21 (Theorems 5.7 and 6.4) total sample sizes, and where GGKM21 wins."""
    from ..bounds import ggkm21 as g

    ds = _parse_range(d)
    if plot is not None:
        from ..io import check_output_file

        check_output_file(plot)
    rows = g.compare_blm20(ds, alpha, epsilon, delta, beta)
    table = Table(
        title=f"total examples: α = {alpha:g}, ε = {epsilon:g}, δ = {delta:g}, β = {beta:g}", title_justify="left"
    )
    cols = (
        ("d", "d"),
        ("BLM20", "blm20"),
        ("improper", "ggkm21_improper"),
        ("proper", "ggkm21_proper"),
        ("proper+D.2", "ggkm21_proper_relative"),
    )
    for name, _ in cols:
        table.add_column(name, justify="right", no_wrap=True)
    for r in rows:
        table.add_row(*(str(r[k]) if k == "d" else _fmt(r[k]) for _, k in cols))
    print_table(table)
    console.print(
        "BLM20 = Theorem 1; improper = GGKM21 Thm 5.7 (PolyPriLearn); proper = Thm 6.4 (PolyPriPropLearn); "
        "proper+D.2 = Thm 6.4 with LWY25 Lemma D.1 (relative uniform convergence)"
    )
    for label, key in (
        ("improper", "ggkm21_improper"),
        ("proper", "ggkm21_proper"),
        ("proper + D.2", "ggkm21_proper_relative"),
    ):
        x = g.crossover(rows, key)
        console.print(
            f"GGKM21 {label} below BLM20 from d = {x}"
            if x is not None
            else f"GGKM21 {label} never below BLM20 for d in {ds[0]}..{ds[-1]}"
        )
    if plot is not None:
        from matplotlib.figure import Figure

        from ..io import atomic_savefig

        fig = Figure(figsize=(6.5, 4.2))
        ax = fig.subplots()
        xs = [r["d"] for r in rows]
        for name, key in cols[1:]:
            ax.semilogy(
                xs,
                [r[key] for r in rows],
                marker="o",
                label={
                    "BLM20": "BLM20 Thm 1",
                    "improper": "GGKM21 Thm 5.7",
                    "proper": "GGKM21 Thm 6.4",
                    "proper+D.2": "Thm 6.4 + LWY25 D.2",
                }[name],
            )
        ax.set_xlabel("Littlestone dimension d")
        ax.set_ylabel("total examples")
        ax.set_title(f"BLM20 vs GGKM21 (α={alpha:g}, ε={epsilon:g}, δ={delta:g}, β={beta:g})", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        atomic_savefig(fig, plot, format="png", dpi=120)
        console.print(f"wrote {plot}", markup=False)


PRIVATE_ONLINE_EPILOG = """Examples:

  littlestone bounds lwy25 --d 1 --T 1000000 --epsilon 1 --delta 1e-6 --beta 0.1

  littlestone bounds gl21 --d 2 --T 1000000 --epsilon 1 --delta 1e-6 --adaptive"""


def _rows_table(title: str, rows: list) -> None:
    table = Table(title=title, title_justify="left")
    for col, just in (("quantity", "left"), ("value", "right"), ("formula", "left")):
        table.add_column(col, justify=just, overflow="fold")  # type: ignore[arg-type]
    for q, v, f in rows:
        table.add_row(q, v, f)
    console.print(table)


@bounds_app.command("lwy25", epilog=PRIVATE_ONLINE_EPILOG)
def lwy25(
    d: int = typer.Option(..., "--d", min=0, max=8, help="Littlestone dimension d of the class."),
    T: int = typer.Option(..., "--T", min=2, help="Horizon T (rounds)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy ε > 0."),
    delta: float = typer.Option(1e-6, "--delta", help="Privacy δ ∈ (0,1)."),
    beta: float = typer.Option(0.1, "--beta", help="Failure probability β ∈ (0,1)."),
) -> None:
    """LWY25 Thm 3.1 (realizable private online learner, adaptive adversaries): N0, M_s, the mistake bound and the
    smallest T at which the bound beats T, with App. B's constants."""
    from ..bounds.lwy25 import smallest_useful_T, theorem_3_1

    rep = theorem_3_1(d, T, epsilon, delta, beta)
    _rows_table(f"LWY25 Thm 3.1: d = {d}, T = {T}, ε = {epsilon:g}, δ = {delta:g}, β = {beta:g}", rep.rows())
    t_min = smallest_useful_T(d, epsilon, delta, beta)
    console.print("smallest T with mistake bound < T: " + (f"{t_min:.4e}" if t_min else "beyond 2^1000"))
    console.print(
        "runs use an explicit practical setting (littlestone play --learner lwy25): privacy holds for "
        "every setting, this bound only for N0 above"
    )


@bounds_app.command("gl21", epilog=PRIVATE_ONLINE_EPILOG)
def gl21(
    d: int = typer.Option(..., "--d", min=0, max=6, help="Littlestone dimension d of the class."),
    T: int = typer.Option(..., "--T", min=2, help="Horizon T (rounds)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy ε > 0."),
    delta: float = typer.Option(1e-6, "--delta", help="Privacy δ ∈ (0,1)."),
    beta: float = typer.Option(0.1, "--beta", help="Failure probability β ∈ (0,1)."),
    adaptive: bool = typer.Option(False, "--adaptive", help="GL21 Thm 4.2 (re-initialised every round)."),
) -> None:
    """GL21 DP-SOA parameters k1, k2, η, c (Thm 4.1; Thm 4.2 with --adaptive)."""
    from ..bounds.gl21 import theorem_4_1

    rep = theorem_4_1(d, T, epsilon, delta, beta, adaptive=adaptive)
    what = "Thm 4.2 (adaptive)" if adaptive else "Thm 4.1 (oblivious)"
    _rows_table(f"GL21 {what}: d = {d}, T = {T}, ε = {epsilon:g}, δ = {delta:g}, β = {beta:g}", rep.rows())


AT_EPILOG = """Examples:

  littlestone bounds points-at --N 2^60 --T 1000000 --epsilon 1

  littlestone bounds points-at --N inf --T 1000000 --selection histogram --delta 1e-6

  littlestone bounds intervals-at --N 2^16 --T 1000000 --epsilon 1"""


def _domain_size(text: str, infinite: bool) -> float:
    """N as an integer, 2^k, or (points only) inf."""
    t = text.strip().lower()
    try:
        if infinite and t in ("inf", "infinite"):
            return math.inf
        n = 2 ** int(t[2:]) if t.startswith("2^") else int(t)
    except ValueError:
        n = 0
    if n < 1:
        raise LittlestoneError(f"--N {text!r}: give a positive integer or 2^k{' (or inf)' if infinite else ''}")
    return n


@bounds_app.command("points-at", epilog=AT_EPILOG)
def points_at(
    N: str = typer.Option(..., "--N", help="Domain size: an integer, 2^k, or inf (the 64-bit integers)."),
    T: int = typer.Option(..., "--T", min=1, help="Horizon T (rounds)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy ε > 0."),
    beta: float = typer.Option(0.1, "--beta", help="Failure probability β ∈ (0,1)."),
    selection: str = typer.Option("exponential", "--selection", help="exponential (pure ε-DP) or histogram (δ > 0)."),
    delta: float = typer.Option(0.0, "--delta", help="Privacy δ of the histogram selection."),
    at: str = typer.Option("step", "--at", help="The segments' AboveThreshold: step (default), monotone, standard."),
) -> None:
    """PointsAT (points on huge domains, adaptive adversaries): thresholds, ε split and the mistake bound
    (docs/derivations.md, "PointsAT and IntervalsAT")."""
    from ..bounds.points_intervals_at import points_at_bound

    rep = points_at_bound(_domain_size(N, True), T, epsilon, beta, selection=selection, delta=delta, at=at)
    _rows_table(f"PointsAT: N = {N}, T = {T}, ε = {epsilon:g}, β = {beta:g}", [(q, v, "") for q, v in rep.lines()])
    console.print(f"mistake bound: {rep.mistake_bound}", markup=False)


@bounds_app.command("intervals-at", epilog=AT_EPILOG)
def intervals_at(
    N: str = typer.Option(..., "--N", help="Domain size: an integer or 2^k (points 0..N−1)."),
    T: int = typer.Option(..., "--T", min=1, help="Horizon T (rounds)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy ε > 0."),
    beta: float = typer.Option(0.1, "--beta", help="Failure probability β ∈ (0,1)."),
    at: str = typer.Option("step", "--at", help="The segments' AboveThreshold: step (default), monotone, standard."),
) -> None:
    """IntervalsAT (intervals, adaptive adversaries, pure ε-DP): both phases' thresholds and the mistake bound."""
    from ..bounds.points_intervals_at import intervals_at_bound

    rep = intervals_at_bound(int(_domain_size(N, False)), T, epsilon, beta, at=at)
    _rows_table(f"IntervalsAT: N = {N}, T = {T}, ε = {epsilon:g}, β = {beta:g}", [(q, v, "") for q, v in rep.lines()])
    console.print(f"mistake bound: {rep.mistake_bound}", markup=False)


SEGMENT_EPILOG = """Examples:

  littlestone bounds listat --k 16 --T 1000000 --epsilon 1

  littlestone bounds listat --class random:16x20 --T 1000000

  littlestone bounds bisectat --class thresholds:2^60 --T 1000000 --epsilon 1"""


def _segment_report(title: str, bound: Any) -> None:
    _rows_table(title, bound.rows())
    console.print(f"mistake bound: [bold]{bound.mistakes:,}[/] (w.p. ≥ {1 - bound.beta:g}, setting='theory')")
    console.print(
        "realizable streams, adaptive adversaries (LWY25 Def. 2.4), pure ε-DP; privacy holds for every setting, "
        "this bound for the theory τ (derivations: docs/derivations.md, F.2 / F.3)"
    )


@bounds_app.command("listat", epilog=SEGMENT_EPILOG)
def listat(
    k: Optional[int] = typer.Option(None, "--k", min=1, help="Number of listed hypotheses k."),
    hclass: Optional[str] = typer.Option(None, "--class", "-c", help="A finite class spec (k = its size)."),
    T: int = typer.Option(..., "--T", min=1, help="Horizon T (rounds)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy ε > 0 (pure ε-DP)."),
    beta: float = typer.Option(0.1, "--beta", help="Failure probability β ∈ (0,1)."),
    at: str = typer.Option("step", "--at", help="AboveThreshold: step (default), monotone or standard."),
) -> None:
    """ListAT (App. F.2): theory τ and mistake bound (k − 1)·⌈τ + A_ρ + A_ν⌉ over k listed hypotheses."""
    from ..bounds.segment_learners import listat_bound

    if (k is None) == (hclass is None):
        raise LittlestoneError("give exactly one of --k and --class")
    if hclass is not None:
        size = load_class(hclass).version_space().size()
        if not float(size).is_integer():
            raise LittlestoneError(f"{hclass} is infinite: ListAT needs a finite class")
        k = int(size)
    assert k is not None
    rep = listat_bound(k, T, epsilon, beta, at=at)
    _segment_report(f"ListAT: k = {k:,}, T = {T}, ε = {epsilon:g}, β = {beta:g}", rep)


@bounds_app.command("bisectat", epilog=SEGMENT_EPILOG)
def bisectat(
    n: Optional[int] = typer.Option(None, "--n", min=1, help="Domain size n (thresholds over n points: n + 1)."),
    hclass: Optional[str] = typer.Option(None, "--class", "-c", help="A thresholds class spec, e.g. thresholds:2^60."),
    T: int = typer.Option(..., "--T", min=1, help="Horizon T (rounds)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy ε > 0 (pure ε-DP)."),
    beta: float = typer.Option(0.1, "--beta", help="Failure probability β ∈ (0,1)."),
    at: str = typer.Option("step", "--at", help="AboveThreshold: step (default), monotone or standard."),
) -> None:
    """BisectAT (App. F.3): theory split, τ and mistake bound ⌊log₂ N⌋·⌈τ + A_ρ + A_ν⌉ over N = n + 1 thresholds."""
    from ..bounds.segment_learners import bisectat_bound
    from ..private_online.bisect_at import threshold_candidates

    if (n is None) == (hclass is None):
        raise LittlestoneError("give exactly one of --n and --class")
    if hclass is not None:
        lo, hi = threshold_candidates(load_class(hclass))
        n_cand = hi - lo + 1
    else:
        assert n is not None
        n_cand = n + 1
    rep = bisectat_bound(n_cand, T, epsilon, beta, at=at)
    _segment_report(f"BisectAT: N = {n_cand:,} thresholds, T = {T}, ε = {epsilon:g}, β = {beta:g}", rep)


bounds_app.command("bisect", hidden=True, epilog=SEGMENT_EPILOG)(bisectat)  # the learner's name in play -l


AGNOSTIC_EPILOG = """Examples:

  littlestone bounds segment-em --class thresholds:2^16 --T 100000

  littlestone bounds epoch-em --class random:16x20 --T 1000000 --epsilon 0.5"""


def _agnostic(name: str, hclass: str, T: int, epsilon: float, beta: float) -> None:
    from ..bounds.agnostic_segments import epoch_em_bound, segmented_em_bound

    if T < 1:
        raise LittlestoneError(f"--T must be a positive number of rounds, not {T}")
    H = load_class(hclass)
    rep = (segmented_em_bound if name == "segment-em" else epoch_em_bound)(H, T, epsilon, beta)
    rows = [(f"{stage}: {q}", _fmt(v), f) for stage, q, v, f in rep.rows()]
    _rows_table(f"{rep.learner}: |H| = {rep.size:,}, T = {T:,}, ε = {epsilon:g}, β = {beta:g}", rows)
    console.print(
        f"regret bound: [bold]{rep.regret:,.0f}[/] ({100 * rep.regret / T:.3g} % of T; w.p. ≥ {1 - beta:g}, "
        "i.i.d. streams, setting='theory')"
    )
    console.print(
        "pure ε-DP under LWY25 Def. 2.4 on every stream and setting; against adaptive adversaries no regret bound is "
        "proved (each segment keeps ≤ ρ_j·n_j + τ + α + 1 mistakes); derivations: docs/derivations.md, G.1 / G.2"
    )


@bounds_app.command("segment-em", epilog=AGNOSTIC_EPILOG)
def segment_em(
    hclass: str = typer.Option(..., "--class", "-c", help="A class spec (thresholds:2^60, points:N, random:HxP, …)."),
    T: int = typer.Option(..., "--T", help="Horizon T (rounds)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", min=1e-12, help="Privacy ε > 0 (pure ε-DP)."),
    beta: float = typer.Option(0.1, "--beta", min=1e-12, max=0.999999, help="Failure probability β ∈ (0,1)."),
) -> None:
    """SegmentedEM (App. G.2): the i.i.d. regret bound of the theory setting, term by term."""
    _agnostic("segment-em", hclass, T, epsilon, beta)


@bounds_app.command("epoch-em", epilog=AGNOSTIC_EPILOG)
def epoch_em(
    hclass: str = typer.Option(..., "--class", "-c", help="A class spec (thresholds:2^60, points:N, random:HxP, …)."),
    T: int = typer.Option(..., "--T", help="Horizon T (rounds)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", min=1e-12, help="Privacy ε > 0 (pure ε-DP)."),
    beta: float = typer.Option(0.1, "--beta", min=1e-12, max=0.999999, help="Failure probability β ∈ (0,1)."),
) -> None:
    """EpochEM (App. G.1): the i.i.d. regret bound, term by term."""
    _agnostic("epoch-em", hclass, T, epsilon, beta)


def register(app: typer.Typer) -> None:
    app.add_typer(bounds_app, name="bounds")
