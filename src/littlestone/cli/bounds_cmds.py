"""``littlestone bounds``: theorem sample sizes, every stage with its formula (generic learner; BLM20)."""

from __future__ import annotations

import importlib
from enum import Enum
from typing import Any, Optional

import typer
from rich.table import Table

from ..errors import LittlestoneError
from ._common import console, load_class

bounds_app = typer.Typer(help="Theorem sample sizes, stage by stage.", no_args_is_help=True,
                         epilog="Examples:\n\n  littlestone bounds generic --class thresholds:1000 --mode agnostic\n\n"
                                "  littlestone bounds blm20 --d 3 --alpha 0.1 --epsilon 1 --delta 1e-6 --beta 0.05")

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
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for row in report.rows():
        stage, quantity, value, formula = (list(row) + ["", "", "", ""])[:4]
        table.add_row(str(stage), str(quantity), _fmt(value), str(formula))
    console.print(table)
    console.print(f"total sample size: [bold]{_fmt(report.total)}[/]")


@bounds_app.command("generic", epilog=GENERIC_EPILOG)
def generic(
    hclass: Optional[str] = typer.Option(None, "--class", "-c", metavar="SPEC", help="Class whose size |H| is used."),
    hypotheses: Optional[float] = typer.Option(None, "--hypotheses", "-H", help="|H| directly (instead of --class)."),
    alpha: float = typer.Option(0.1, "--alpha", help="Accuracy α ∈ (0,1)."),
    epsilon: float = typer.Option(1.0, "--epsilon", "-e", help="Privacy ε > 0."),
    beta: float = typer.Option(0.05, "--beta", help="Failure probability β ∈ (0,1)."),
    mode: Mode = typer.Option(Mode.realizable, "--mode", help="realizable (seed 000 Lemma 16) or agnostic "
                              "(seed 003 §3 Theorem 1)."),
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
        HistogramReading.proof, "--histogram",
        help="How the stable histogram's batches k are sized (theorem1/theorem17): 'proof' = the condition "
             "Theorem 17's proof uses (h* released, estimates within η/8); 'lemma15' = Lemma 15 literally at "
             "accuracy (η/8, β/3) (every item of frequency ≥ η/8 released; larger k)."),
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
        how = (", histogram sized by the condition of Theorem 17's proof" if histogram is HistogramReading.proof
               else ", histogram sized by Lemma 15 literally at (η/8, β/3)")
    elif histogram is not HistogramReading.proof:
        raise LittlestoneError(f"--histogram applies to theorem1 and theorem17 (the stable histogram of M), "
                               f"not to {theorem.value}")
    else:
        report, how = fn(d, alpha, epsilon, delta, beta), ""
    title = getattr(report, "title", theorem.value)
    print_report(f"BLM20 {theorem.value} — {title}: d = {d}, α = {alpha:g}, ε = {epsilon:g}, δ = {delta:g}, "
                 f"β = {beta:g}{how}", report)


LWY25_AGNOSTIC_EPILOG = """Examples:

  littlestone bounds lwy25-agnostic --d 1 --d-star 1 --d-vc 1 --d-vc-star 1 --T 1000000 --epsilon 1 --delta 1e-6

  littlestone bounds lwy25-agnostic --class thresholds:16 --T 100000 --epsilon 1 --delta 1e-6"""


@bounds_app.command("lwy25-agnostic", epilog=LWY25_AGNOSTIC_EPILOG)
def lwy25_agnostic_cmd(
    hclass: Optional[str] = typer.Option(None, "--class", "-c", metavar="SPEC",
                                         help="A finite class: its dimensions are computed, and the proven rows added."),
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
    missing = [n for n, x in (("--d", d), ("--d-star", d_star), ("--d-vc", d_vc), ("--d-vc-star", d_vc_star))
               if x is None]
    if missing:
        raise LittlestoneError(f"give --class or all four dimensions (missing {', '.join(missing)})")
    report = lwy25_agnostic(d, d_star, d_vc, d_vc_star, T, epsilon, delta, alpha, beta,  # type: ignore[arg-type]
                            hypotheses=hyps, domain=dom)
    exact = []
    if hclass is not None:
        from ..classes import majority_xor_class
        from ..dimensions import dual_ldim, ldim, vc_dim

        m = max(1, d_vc_star)  # type: ignore[arg-type]
        try:
            C = majority_xor_class(H, m)
            exact = [("Claim E.7 (computed)", f"Ldim / dual Ldim / VC of H_(m,1/2)⊕H, m = {m}",
                      f"{ldim(C)} / {dual_ldim(C)} / {vc_dim(C)}", C.name)]
        except LittlestoneError as exc:
            exact = [("Claim E.7 (computed)", "H_(m,1/2)⊕H", "—", f"not built: {exc}")]
    table = Table(title=f"LWY25 agnostic private online learning: d={d}, d*={d_star}, d_V={d_vc}, d_V*={d_vc_star}, "
                        f"T={T:,}, ε={epsilon:g}, δ={delta:g}, α={alpha:g}, β={beta:g}", title_justify="left")
    for col, just in (("result", "left"), ("quantity", "left"), ("value", "right"), ("formula", "left")):
        table.add_column(col, justify=just, overflow="fold")  # type: ignore[arg-type]
    for stage, q, value, formula in report.rows():
        table.add_row(stage, q, _fmt(value), formula)
    for stage, q, value, formula in exact:
        table.add_row(stage, q, value, formula)
    console.print(table)
    console.print("(order) rows: LWY25's Õ(·) with every hidden constant and log set to 1; (proven) rows: the bounds "
                  "of the implemented components, constants written out.")


def register(app: typer.Typer) -> None:
    app.add_typer(bounds_app, name="bounds")
