"""``littlestone experiment`` (registered experiments: a CSV table and a PNG plot each) and ``littlestone demo``."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.markup import escape
from rich.table import Table

from ..errors import LittlestoneError
from .. import _progress
from ..io import check_output_dir, staged_directory
from ._common import (
    BACKEND_OPTION,
    CLUSTER_OPTION,
    JOBS_OPTION,
    SEED_OPTION,
    BackendKind,
    _check_jobs,
    console,
    heartbeat,
    note_seed_under_secure,
    print_table,
    tracking,
    with_cluster,
)
from .learn_cmds import _check_param_value

EXPERIMENT_EPILOG = """Examples:

  littlestone experiment --list

  littlestone experiment <name> --seed 0 --jobs 2 --out results/

  littlestone experiment <name> --set runs=50 --set epsilon=0.5

  littlestone experiment blm20_accuracy --set fractions=0.01,0.1 --set reps=2 --backend secure"""

DEMO_EPILOG = """Examples:

  littlestone demo                       (writes ./littlestone-report/index.html)

  littlestone demo --out /tmp/report --seed 7 --jobs 2

  littlestone demo --fast                (a small version, a few seconds)

  littlestone demo --online              (adds private online learning on a stream of the data)"""


def _parse_value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if "," in text:
        return [_parse_value(t) for t in text.split(",") if t]
    return text


def _relocated(path: Any, staging: Path, out: Path) -> Any:
    """A path inside the staging directory, as it is named once moved into ``out``."""
    try:
        return out / Path(path).relative_to(staging)
    except (TypeError, ValueError):
        return path


def _registry() -> Any:
    try:
        return importlib.import_module("littlestone.experiments").REGISTRY
    except (ImportError, AttributeError) as exc:
        raise LittlestoneError(f"no experiments are available in this installation ({exc})") from None


@with_cluster
def experiment(
    name: Optional[str] = typer.Argument(None, help="Experiment to run (see --list)."),
    list_: bool = typer.Option(False, "--list", help="List the experiments and exit."),
    out: Path = typer.Option(Path("littlestone-experiments"), "--out", "-o", help="Directory for tables and plots."),
    settings: Optional[List[str]] = typer.Option(
        None, "--set", metavar="KEY=VALUE", help="Extra parameter of the experiment (repeatable)."
    ),
    seed: Optional[int] = SEED_OPTION,
    jobs: int = JOBS_OPTION,
    cluster: Optional[str] = CLUSTER_OPTION,
    backend: Optional[BackendKind] = typer.Option(
        None,
        "--backend",
        case_sensitive=False,
        help="Noise backend for experiments that draw privacy noise: "
        "'secure' (OpenDP) or 'seeded' (numpy; their default, "
        "reproducible).",
    ),
) -> None:
    """Run a registered experiment: it writes a CSV table and a PNG plot, and prints the table."""
    registry = _registry()
    if list_ or name is None:
        if not list_:
            raise LittlestoneError(f"name an experiment (available: {', '.join(sorted(registry))})")
        exps = importlib.import_module("littlestone.experiments")
        for key in sorted(registry):
            when = exps.RUN_TIMES.get(key, "")
            console.print(f"[bold]{escape(key)}[/]{'  (' + escape(when) + ')' if when else ''}")
            console.print("    " + escape(exps.describe(key)), highlight=False)
        return
    if name not in registry:
        raise LittlestoneError(f"unknown experiment {name!r} (available: {', '.join(sorted(registry))})")
    kwargs: dict[str, Any] = {}
    for item in settings or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise LittlestoneError(f"--set needs KEY=VALUE, got {item!r}")
        kwargs[key.strip()] = _parse_value(value.strip())
    fn = registry[name]
    params = inspect.signature(fn).parameters
    reserved = {"seed": "--seed", "jobs": "--jobs", "out_dir": "--out", "backend": "--backend"}
    for key in kwargs:
        if key in reserved:
            raise LittlestoneError(f"set {key} with {reserved[key]}, not --set")
    for key, value in list(kwargs.items()):  # typed like the default; one value where a list is taken: a list of one
        if key in params:
            default = params[key].default
            kwargs[key] = _check_param_value(
                f"--set {key}", value, None if default is inspect.Parameter.empty else default
            )
    if not any(p.kind == p.VAR_KEYWORD for p in params.values()):
        bad = [k for k in kwargs if k not in params]
        if bad:
            raise LittlestoneError(
                f"experiment {name!r} has no parameter {bad[0]!r} "
                f"(parameters: {', '.join(k for k in params if k not in ('seed', 'jobs', 'out_dir', 'backend'))})"
            )
    check_output_dir(out, "the results")
    if backend is not None:
        if "backend" not in params:
            raise LittlestoneError(f"experiment {name!r} draws no privacy noise: --backend does not apply")
        kwargs["backend"] = backend.value
    note_seed_under_secure(seed, kwargs.get("backend"))
    with staged_directory(out, "the results") as staging, tracking(f"running experiment {name}"):
        result = fn(seed=seed, jobs=jobs, out_dir=staging, **kwargs)
        _progress.check_interrupt()  # a Ctrl-C Python dropped: the staged files are not moved in
    _print_result(name, result, lambda p: _relocated(p, staging, out))


def _cell(v: Any) -> str:
    """A summary cell: whole numbers in full (749986, not 7.5e+05), other floats to 4 significant digits (the CSV
    table holds every digit)."""
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else f"{v:.4g}"
    return str(v)


def _print_result(name: str, result: Any, where: Any = lambda p: p) -> None:
    rows = list(getattr(result, "rows", None) or getattr(result, "table", None) or [])
    if rows and isinstance(rows[0], dict):
        cols = list(rows[0].keys())
        table = Table(title=f"experiment {escape(name)}", title_justify="left")
        for c in cols:
            table.add_column(escape(str(c)), justify="right")
        for r in rows[:40]:
            table.add_row(*[escape(_cell(r.get(c))) for c in cols])
        print_table(table)
        if len(rows) > 40:
            console.print(f"… {len(rows) - 40} more rows in the CSV table")
    for attr in ("table_path", "csv_path"):
        p = getattr(result, attr, None)
        if p:
            console.print(f"table: {where(p)}", markup=False)
    for p in getattr(result, "figures", None) or getattr(result, "figure_paths", None) or []:
        console.print(f"figure: {where(p)}", markup=False)
    verdict = getattr(result, "verdict", "")
    if verdict:
        console.print(f"[bold]{escape(verdict)}[/]")  # literally: a verdict may hold brackets


@with_cluster
def demo(
    out: Path = typer.Option(Path("littlestone-report"), "--out", "-o", help="Report directory (index.html + PNGs)."),
    fast: bool = typer.Option(False, "--fast", help="A small, quick version (fewer ε values and repetitions)."),
    backend: BackendKind = BACKEND_OPTION,
    seed: Optional[int] = typer.Option(
        None,
        "--seed",
        min=0,
        help="Seed for every random choice (default 0; same seed ⇒ same report on --backend seeded).",
    ),
    jobs: int = typer.Option(
        2, "--jobs", "-j", callback=_check_jobs, help="Parallel workers for the train/test splits."
    ),
    cluster: Optional[str] = CLUSTER_OPTION,
    online: bool = typer.Option(
        False,
        "--online",
        help="Add the online section: the practical private learners (BisectAT, ListAT) first, the private experts "
        "learners, Algorithm 3, and the papers' LWY25 and GL21, against the SOA and Hedge on a stream of the data "
        "(10,000 rounds; 2,000 with --fast; a few seconds more).",
    ),
) -> None:
    """Learn privately from scikit-learn's breast-cancer data and write a self-contained HTML report."""
    check_output_dir(out, "the report")
    note_seed_under_secure(seed, backend)
    seed = 0 if seed is None else seed
    console.print(
        f"littlestone demo: private learning on breast-cancer data{' (fast version)' if fast else ''}, "
        f"noise backend {backend.value}"
        f"{' (not private: seeded backend)' if backend.value == 'seeded' else ''}, "
        f"{jobs} worker{'s' if jobs != 1 else ''} → {out}/",
        markup=False,
    )
    from ..experiments import demo as demo_module

    with staged_directory(out, "the report") as staging, heartbeat("demo"):  # Ctrl-C leaves nothing behind
        path = demo_module.run_demo(
            out_dir=staging, fast=fast, seed=seed, jobs=jobs, backend=backend.value, console=console, online=online
        )
        _progress.check_interrupt()  # a Ctrl-C Python dropped (raised in a __del__): nothing is moved in
    path = _relocated(path, staging, out)
    console.print(f"report written to [bold]{escape(str(path.resolve()))}[/]")


def register(app: typer.Typer) -> None:
    app.command(epilog=EXPERIMENT_EPILOG)(experiment)
    app.command(epilog=DEMO_EPILOG)(demo)
