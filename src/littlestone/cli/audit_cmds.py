"""``littlestone audit``: empirical privacy audits of the built-in mechanisms (lower bounds on ε)."""

from __future__ import annotations

import importlib
from typing import Any, List, Optional

import typer
from rich.table import Table

from ..errors import LittlestoneError
from ._common import JOBS_OPTION, SEED_OPTION, BackendKind, console, progress

AUDIT_EPILOG = """Examples:

  littlestone audit --list

  littlestone audit laplace --runs 20000 --seed 1

  littlestone audit --all --runs 5000 --jobs 2

Exit code 1 if an audit's lower bound on ε exceeds the claimed ε (a broken mechanism)."""


def _audit_module() -> Any:
    try:
        mod = importlib.import_module("littlestone.audit")
    except ImportError as exc:
        raise LittlestoneError(f"the audit module is not available in this installation ({exc})") from None
    if not (hasattr(mod, "list_builtin_audits") and hasattr(mod, "run_builtin_audit")):
        raise LittlestoneError("this installation's littlestone.audit has no built-in audits")
    return mod


def audit(
    names: Optional[List[str]] = typer.Argument(None, metavar="[MECHANISM]...", help="Built-in audits to run."),
    all_: bool = typer.Option(False, "--all", help="Run every built-in audit."),
    list_: bool = typer.Option(False, "--list", help="List the built-in audits and exit."),
    runs: Optional[int] = typer.Option(None, "--runs", "-n", min=10, help="Runs of the mechanism on each neighbour "
                                       "(default: each audit's own)."),
    backend: BackendKind = typer.Option(BackendKind.seeded, "--backend", case_sensitive=False,
                                        help="Randomness of the audited mechanism: 'seeded' (numpy, fast) or "
                                             "'secure' (OpenDP's samplers)."),
    details: bool = typer.Option(False, "--details", help="Print every quantity of each audit."),
    seed: Optional[int] = SEED_OPTION,
    jobs: int = JOBS_OPTION,
) -> None:
    """Audit built-in mechanisms: run them on neighbouring datasets and bound ε from below, with confidence."""
    mod = _audit_module()
    available = list(mod.list_builtin_audits())
    if list_:
        for name in available:
            console.print(name)
        return
    chosen = available if all_ else list(names or [])
    if not chosen:
        raise LittlestoneError(f"name a mechanism to audit or pass --all (available: {', '.join(available)})")
    unknown = [n for n in chosen if n not in available]
    if unknown:
        raise LittlestoneError(f"unknown audit {unknown[0]!r} (available: {', '.join(available)})")
    table = Table(title="privacy audits", title_justify="left")
    for col in ("mechanism", "claimed ε", "ε lower bound", "δ lower bound", "runs", "verdict"):
        table.add_column(col, justify="left" if col in ("mechanism", "verdict") else "right")
    failed: list[str] = []
    reports: list[Any] = []
    with progress() as bar:
        task = bar.add_task("auditing", total=len(chosen))
        for name in chosen:
            bar.update(task, description=f"auditing {name}")
            rep = mod.run_builtin_audit(name, runs=runs, seed=seed, jobs=jobs, randomness=backend.value)
            passed = getattr(rep, "passed", None)
            if passed is False:
                failed.append(name)
            claimed = getattr(rep, "claimed_epsilon", None)
            table.add_row(name, "—" if claimed is None else f"{claimed:.4g}", f"{rep.epsilon_lb:.4g}",
                          f"{getattr(rep, 'delta_lb', 0.0):.3g}", f"{getattr(rep, 'runs', runs):,}",
                          {True: "[green]consistent[/]", False: "[red]VIOLATION[/]"}.get(passed, "no claim"))
            reports.append(rep)
            bar.advance(task)
    console.print(table)
    if details:
        for rep in reports:
            console.print(str(rep), markup=False)
            console.print()
    console.print("An audit gives a lower bound on ε: 'consistent' means it does not exceed the claimed ε.")
    if failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command(epilog=AUDIT_EPILOG)(audit)
