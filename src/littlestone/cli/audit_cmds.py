"""``littlestone audit``: empirical privacy audits of the built-in mechanisms (lower bounds on ε)."""

from __future__ import annotations

import importlib
import time
from typing import Any, List, Optional

import typer
from rich.table import Table

from ..errors import LittlestoneError
from ._common import (
    CLUSTER_OPTION,
    JOBS_OPTION,
    SEED_OPTION,
    BackendKind,
    console,
    err_console,
    note_seed_under_secure,
    print_table,
    progress,
    with_cluster,
)

AUDIT_EPILOG = """Examples:

  littlestone audit --list

  littlestone audit laplace --runs 20000 --seed 1

  littlestone audit --all --runs 500 --jobs 2

  littlestone audit --broken --all --seed 1

The expected duration (a cost model of each audit × runs) is printed first and the time left is shown as the
audits run. Exit code 1 if an audit's lower bound on ε exceeds the claimed ε (a broken mechanism). With --broken the
deliberately broken twins are audited instead (evidence that the audits have power): exit code 1 if one is
NOT caught."""


def _audit_module() -> Any:
    try:
        mod = importlib.import_module("littlestone.audit")
    except ImportError as exc:
        raise LittlestoneError(f"the audit module is not available in this installation ({exc})") from None
    if not (hasattr(mod, "list_builtin_audits") and hasattr(mod, "run_builtin_audit")):
        raise LittlestoneError("this installation's littlestone.audit has no built-in audits")
    return mod


def _run_twin(mod: Any, name: str, *, runs: Optional[int], seed: Optional[int], jobs: int, randomness: str) -> Any:
    if randomness != "seeded":
        raise LittlestoneError(
            "--broken audits run on their own backend (seeded, or secure for floating-point "
            "twins); drop --backend secure"
        )
    return mod.run_broken_audit(name, runs=runs, seed=seed, jobs=jobs)


def _estimate(mod: Any, chosen: List[str], runs: Optional[int], jobs: int, broken: bool) -> Any:
    """The expected duration of the chosen audits (cost model × runs), updated as they finish (audit/estimate.py)."""
    from ..audit.estimate import Estimate

    audits = mod.broken_audits() if broken else mod.builtin_audits()
    return Estimate(chosen, [runs if runs is not None else audits[n].runs for n in chosen], jobs)


@with_cluster
def audit(
    names: Optional[List[str]] = typer.Argument(None, metavar="[MECHANISM]...", help="Built-in audits to run."),
    all_: bool = typer.Option(False, "--all", help="Run every built-in audit."),
    list_: bool = typer.Option(False, "--list", help="List the built-in audits and exit."),
    broken: bool = typer.Option(
        False,
        "--broken",
        help="Audit the deliberately broken twins instead (each should be caught: ε lower bound above the claimed ε).",
    ),
    runs: Optional[int] = typer.Option(
        None, "--runs", "-n", min=10, help="Runs of the mechanism on each neighbour (default: each audit's own)."
    ),
    backend: BackendKind = typer.Option(
        BackendKind.seeded,
        "--backend",
        case_sensitive=False,
        help="Randomness of the audited mechanism: 'seeded' (numpy, fast) or 'secure' (OpenDP's samplers).",
    ),
    details: bool = typer.Option(False, "--details", help="Print every quantity of each audit."),
    seed: Optional[int] = SEED_OPTION,
    jobs: int = JOBS_OPTION,
    cluster: Optional[str] = CLUSTER_OPTION,
) -> None:
    """Audit built-in mechanisms: run them on neighbouring datasets and bound ε from below, with confidence."""
    mod = _audit_module()
    available = list(mod.list_broken_audits() if broken else mod.list_builtin_audits())
    kind = "broken twin" if broken else "audit"
    if list_:
        for name in available:
            console.print(name)
        return
    chosen = available if all_ else list(names or [])
    if not chosen:
        raise LittlestoneError(f"name a {kind} to audit or pass --all (available: {', '.join(available)})")
    unknown = [n for n in chosen if n not in available]
    if unknown:
        raise LittlestoneError(f"unknown {kind} {unknown[0]!r} (available: {', '.join(available)})")
    note_seed_under_secure(seed, backend)
    table = Table(
        title="privacy audits of deliberately broken twins" if broken else "privacy audits", title_justify="left"
    )
    for col in ("mechanism", "claimed\nε", "ε lower\nbound", "δ lower\nbound", "runs", "verdict"):
        table.add_column(col, justify="left" if col in ("mechanism", "verdict") else "right")
    failed: list[str] = []
    reports: list[Any] = []
    from ..audit.estimate import duration_text

    eta = _estimate(mod, chosen, runs, jobs, broken)
    err_console.print(eta.announcement(len(chosen)), markup=False, highlight=False)  # with the progress, on stderr
    with progress() as bar:
        task = bar.add_task("auditing", total=len(chosen))
        for name in chosen:
            left = f" · ≈ {duration_text(eta.remaining())} left" if len(chosen) > 1 else ""
            bar.update(task, description=f"auditing {name}{left}")
            t0 = time.perf_counter()
            if broken:
                rep = _run_twin(mod, name, runs=runs, seed=seed, jobs=jobs, randomness=backend.value)
            else:
                rep = mod.run_builtin_audit(name, runs=runs, seed=seed, jobs=jobs, randomness=backend.value)
            passed = getattr(rep, "passed", None)
            if (passed is not False) if broken else (passed is False):
                failed.append(name)
            claimed = getattr(rep, "claimed_epsilon", None)
            table.add_row(
                name,
                "—" if claimed is None else f"{claimed:.4g}",
                f"{rep.epsilon_lb:.4g}",
                f"{getattr(rep, 'delta_lb', 0.0):.3g}",
                f"{getattr(rep, 'runs', runs):,}",
                (
                    {True: "[red]NOT caught[/]", False: "[green]caught[/]"}
                    if broken
                    else {True: "[green]consistent[/]", False: "[red]VIOLATION[/]"}
                ).get(passed, "no claim"),
            )
            reports.append(rep)
            eta.finished(time.perf_counter() - t0)
            bar.advance(task)
    print_table(table)
    if details:
        for rep in reports:
            console.print(str(rep), markup=False)
            console.print()
    if broken:
        console.print(
            "Each twin has one deliberate bug and keeps the real claim: 'caught' means the audit's lower "
            "bound on ε exceeds that claim, i.e. the audit has the power to detect the bug."
        )
    else:
        console.print("An audit gives a lower bound on ε: 'consistent' means it does not exceed the claimed ε.")
    if failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command(epilog=AUDIT_EPILOG)(audit)
