"""Shared CLI pieces: the console, common options, class loading, atomic figure output and progress bars."""

from __future__ import annotations

import contextlib
from enum import Enum
from typing import Any, Iterator

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from ..classes.base import HypothesisClass
from ..errors import LittlestoneError

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False)


class BackendKind(str, Enum):
    """Noise source: OpenDP's floating-point-safe samplers, or seeded numpy (reproducible, not FP-safe)."""

    secure = "secure"
    seeded = "seeded"


SEED_OPTION = typer.Option(None, "--seed", help="Seed for every random choice (same seed ⇒ same result).")
def _check_jobs(value: int) -> int:
    if value == 0 or value < -1:
        raise typer.BadParameter(f"--jobs must be a positive number of workers or -1 (all cores), not {value}")
    return value


JOBS_OPTION = typer.Option(1, "--jobs", "-j", callback=_check_jobs,
                           help="Parallel workers for independent runs (-1 = all cores).")


def _check_cluster(value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip()
    kind, sep, rest = text.partition(":")
    if kind == "local" and sep and rest.isdigit() and int(rest) >= 1:
        return text
    if kind == "tcp" and rest.startswith("//") and len(rest) > 2:
        return text
    raise typer.BadParameter(f"--cluster must be tcp://HOST:PORT (a running Dask scheduler) or local:N (N worker "
                             f"processes on this machine), not {value!r}")


CLUSTER_OPTION = typer.Option(None, "--cluster", metavar="ADDRESS", callback=_check_cluster,
                              help="Run the independent work on a Dask cluster: tcp://HOST:8786 or local:N "
                                   "(default: $LITTLESTONE_CLUSTER if set, else --jobs local processes).")


def with_cluster(command: Any) -> Any:
    """Decorate a CLI verb that takes ``cluster``: its parallel work runs on that cluster (littlestone.parallel)."""
    import functools

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        from ..parallel import using_cluster

        with using_cluster(kwargs.get("cluster")):
            return command(*args, **kwargs)

    return run


BACKEND_OPTION = typer.Option(BackendKind.secure, "--backend", case_sensitive=False,
                              help="Noise backend: 'secure' (OpenDP, FP-safe) or 'seeded' (numpy, reproducible).")
CLASS_OPTION = typer.Option(..., "--class", "-c", metavar="SPEC",
                            help="Hypothesis class: thresholds:1000, points, intervals:64, conjunctions:5,2, "
                                 "allfunctions:4, random:256x20:7, or a CSV file of a 0/1 matrix.")


def load_class(spec: str) -> HypothesisClass:
    """Parse a class spec (clear ClassSpecError on failure); avoids importing scikit-learn for speed."""
    try:
        from ..classes.spec import parse_class_spec
    except ImportError:
        from ..pac._sklearn import resolve_class

        return resolve_class(spec)
    return parse_class_spec(spec)


def need(module: str, what: str) -> Any:
    """Import an optional part of the package or fail with a clear message."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise LittlestoneError(f"{what} is not available in this installation ({module}: {exc})") from None


def progress(transient: bool = True) -> Progress:
    """A rich progress bar (description, bar, m/n, elapsed) on stderr."""
    return Progress(SpinnerColumn(), TextColumn("[progress.description]{task.description}"), BarColumn(),
                    MofNCompleteColumn(), TimeElapsedColumn(), console=err_console, transient=transient,
                    disable=not err_console.is_terminal)


@contextlib.contextmanager
def tracking(description: str) -> Iterator[None]:
    """A spinner for a long step, plus a bar for each stage the library reports (littlestone._progress)."""
    from .. import _progress

    with progress() as bars:
        bars.add_task(description, total=None)
        tasks: dict[str, Any] = {}

        def listener(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bars.add_task(f"  {stage}", total=total)
            bars.update(tasks[stage], completed=done, total=total)

        with _progress.listening(listener):
            yield


@contextlib.contextmanager
def working(description: str) -> Iterator[None]:
    """A spinner with elapsed time for one long step whose progress cannot be counted."""
    with Progress(SpinnerColumn(), TextColumn(description), TimeElapsedColumn(), console=err_console,
                  transient=True, disable=not err_console.is_terminal) as p:
        p.add_task(description, total=None)
        yield
