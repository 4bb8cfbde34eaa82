"""Shared CLI pieces: the console, common options, class loading, atomic figure output and progress bars."""

from __future__ import annotations

import contextlib
import os
import re
import signal
from enum import Enum
from typing import Any, Iterator

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from ..classes.base import HypothesisClass
from .._progress import sigint_blocked
from ..errors import LittlestoneError

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


class BackendKind(str, Enum):
    """Noise source: OpenDP's floating-point-safe samplers, or seeded numpy (reproducible, not FP-safe)."""

    secure = "secure"
    seeded = "seeded"


SEED_OPTION = typer.Option(
    None,
    "--seed",
    min=0,
    help="Seed for every random choice (same seed ⇒ same result on "
    "--backend seeded; under secure, only public randomness).",
)


def _check_jobs(value: int) -> int:
    if value == 0 or value < -1:
        raise typer.BadParameter(f"--jobs must be a positive number of workers or -1 (all cores), not {value}")
    return value


JOBS_OPTION = typer.Option(
    1, "--jobs", "-j", callback=_check_jobs, help="Parallel workers for independent runs (-1 = all cores)."
)


def _check_cluster(value: str | None) -> str | None:
    if value is None:
        return None
    text = value.strip()
    kind, sep, rest = text.partition(":")
    if kind == "local" and sep and rest.isdigit() and int(rest) >= 1:
        return text
    if kind == "tcp" and rest.startswith("//") and len(rest) > 2:
        return text
    raise typer.BadParameter(
        f"--cluster must be tcp://HOST:PORT (a running Dask scheduler) or local:N (N worker "
        f"processes on this machine), not {value!r}"
    )


CLUSTER_OPTION = typer.Option(
    None,
    "--cluster",
    metavar="ADDRESS",
    callback=_check_cluster,
    help="Run the independent work on a Dask cluster: tcp://HOST:8786 or local:N "
    "(default: $LITTLESTONE_CLUSTER if set, else --jobs local processes).",
)


def with_cluster(command: Any) -> Any:
    """Decorate a CLI verb that takes ``cluster``: its parallel work runs on that cluster (littlestone.parallel)."""
    import functools

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        from ..parallel import close_clusters, using_cluster

        try:
            with using_cluster(kwargs.get("cluster")):
                return command(*args, **kwargs)
        finally:  # the command's clients and local clusters closed, their worker processes stopped and reaped,
            # now — not at the interpreter's exit, where a half torn-down process may leave them defunct
            close_clusters()

    return run


BACKEND_OPTION = typer.Option(
    BackendKind.secure,
    "--backend",
    case_sensitive=False,
    help="Noise backend: 'secure' (OpenDP, FP-safe) or 'seeded' (numpy, reproducible).",
)
CLASS_OPTION = typer.Option(
    ...,
    "--class",
    "-c",
    metavar="SPEC",
    help="Hypothesis class: thresholds:1000, points, intervals:64, conjunctions:5,2, "
    "allfunctions:4, random:256x20:7, or a CSV file of a 0/1 matrix.",
)


SEED_NOTE = (
    "note: with --backend secure, --seed fixes only randomness that may be public (data splits, "
    "the order of work); privacy noise and secret subsamples come from OpenDP's secure source and differ "
    "between runs. Use --backend seeded for a reproducible, non-private run."
)


#: notes said once on stderr at the end of a command that ran (after its output, with its warnings); a refused
#: command prints its one error line alone (issue 26 item 5: the note used to come before the error)
_DEFERRED_NOTES: list[str] = []


def note_seed_under_secure(seed: Any, backend: Any) -> None:
    """Say once, on stderr, what --seed does not fix under the secure backend (issue: it was silently ignored) —
    deferred to the end of the command (:func:`take_notes`), so a refusal stays one line."""
    if seed is not None and str(getattr(backend, "value", backend)) == "secure" and SEED_NOTE not in _DEFERRED_NOTES:
        _DEFERRED_NOTES.append(SEED_NOTE)


def take_notes() -> list[str]:
    """The notes deferred so far (each once), cleared."""
    notes = list(_DEFERRED_NOTES)
    _DEFERRED_NOTES.clear()
    return notes


def console_for(out: Any) -> Console:
    """The console for messages: stderr when the output itself goes to standard output (``-o -``)."""
    from ..io import is_stdout

    return err_console if is_stdout(out) else console


_NUMBER = re.compile(r"[-+−]?(?:[\d,]*\.?\d+(?:[eE][-+]?\d+)?|inf|nan)%?|[—–-]|[≤≥<>]\s*\S+")


def print_table(table: Any, out: Console | None = None) -> None:
    """Print a rich table that never cuts a number or a name (piped output and 80-column terminals included).

    Cells and headers fold (wrap inside the cell) instead of ending in '…'; a column whose every cell is a number
    is exactly as wide as its widest number. When the columns cannot all fit side by side, the table is printed
    as several tables, each repeating the first column, with the remaining columns split between them."""
    from rich.cells import cell_len
    from rich.table import Table
    from rich.text import Text

    out = out or console
    cols = table.columns
    least: list[int] = []
    natural: list[int] = []
    numeric: list[bool] = []
    for col in cols:
        cells = [Text.from_markup(c).plain if isinstance(c, str) else str(c) for c in col._cells]
        header = Text.from_markup(col.header).plain if isinstance(col.header, str) else str(col.header)
        widest = max((cell_len(line) for c in [*cells, header] for line in c.splitlines()), default=1)
        if cells and all(_NUMBER.fullmatch(c.strip()) for c in cells if c.strip()):
            head = max((cell_len(w) for w in header.split()), default=1)
            least.append(max(max(cell_len(c) for c in cells), min(head, 7)))  # numbers are never wrapped
            numeric.append(True)
        else:
            numeric.append(False)
            words = [w for c in cells for w in c.split()]
            least.append(min(max((cell_len(w) for w in words), default=1), 14))
        natural.append(max(widest, least[-1], 1))
    room = out.width - 1  # the left border; each column adds its width + padding (2) + border (1)
    groups: list[list[int]] = [[]]
    used = least[0] + 3
    for k in range(1, len(cols)):
        if groups[-1] and used + least[k] + 3 > room:
            groups.append([])
            used = least[0] + 3
        groups[-1].append(k)
        used += least[k] + 3

    def widths(members: list[int]) -> list[int]:
        w = [least[k] for k in members]
        spare = room - sum(x + 3 for x in w)
        while spare > 0:  # text columns first (names and formulas), then headers of number columns
            hungry = [i for i, k in enumerate(members) if w[i] < natural[k] and not numeric[k]] or [
                i for i, k in enumerate(members) if w[i] < natural[k]
            ]
            if not hungry:
                break
            for i in hungry:
                if spare > 0:
                    w[i] += 1
                    spare -= 1
        return w

    if len(groups) == 1:
        members = [0, *groups[0]]
        for k, w in zip(members, widths(members)):
            cols[k].width, cols[k].overflow, cols[k].no_wrap = w, "fold", False
        out.print(table, crop=False)
        return
    title = str(table.title or "")
    for g, group in enumerate(groups):
        members = [0, *group]
        part = Table(title=f"{title} (part {g + 1} of {len(groups)})".strip(), title_justify=table.title_justify)
        for k, w in zip(members, widths(members)):
            part.add_column(cols[k].header, justify=cols[k].justify, overflow="fold", width=w)
        for r in range(table.row_count):
            part.add_row(*[cols[k]._cells[r] for k in members])
        out.print(part, crop=False)


def load_class(spec: str) -> HypothesisClass:
    """Parse a class spec or CSV path (clear ClassSpecError on failure) with the one resolver."""
    from ..classes.resolve import resolve_class

    return resolve_class(spec)


def need(module: str, what: str) -> Any:
    """Import an optional part of the package or fail with a clear message."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise LittlestoneError(f"{what} is not available in this installation ({module}: {exc})") from None


class PlainProgress:
    """Progress for a stderr that is not a terminal (a pipe, a log file, CI): instead of a live bar, one plain
    line every few seconds (``LITTLESTONE_PROGRESS_INTERVAL``, default 5) with the elapsed time and every task's
    state, e.g. ``[  15s] running experiment blm20_accuracy · M runs 12/45``. Nothing is printed for work shorter
    than one interval. Offers the parts of rich's Progress the CLI uses.

    At Ctrl-C the lines stop at once (a SIGINT handler, chained before the previous one, stops the thread while the
    interrupted command cleans up), and the thread never takes SIGINT itself (started with it blocked)."""

    def __init__(self, interval: float | None = None) -> None:
        import threading
        import time

        env = os.environ.get("LITTLESTONE_PROGRESS_INTERVAL", "")
        try:
            self.interval = float(interval if interval is not None else (env or 5.0))
        except ValueError:
            self.interval = 5.0
        self._tasks: dict[int, list[Any]] = {}  # id → [description, completed, total]
        self._next = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._start = time.monotonic()
        self._thread: Any = None
        self._printed = False

    def __enter__(self) -> "PlainProgress":
        import threading
        import time

        self._start = time.monotonic()
        self._thread = threading.Thread(target=self._run, daemon=True, name="littlestone-progress")
        with sigint_blocked():
            self._thread.start()
        self._previous_handler: Any = None
        if threading.current_thread() is threading.main_thread():
            previous = signal.getsignal(signal.SIGINT)
            if callable(previous):  # (SIG_IGN / SIG_DFL: Python raises nothing to stop for)

                def stop_then_interrupt(signum: int, frame: Any) -> Any:
                    self._stop.set()
                    return previous(signum, frame)

                signal.signal(signal.SIGINT, stop_then_interrupt)
                self._previous_handler = previous
        return self

    def __exit__(self, *exc: Any) -> None:
        import time

        self._stop.set()
        if self._previous_handler is not None:
            signal.signal(signal.SIGINT, self._previous_handler)
            self._previous_handler = None
        if self._thread is not None:
            self._thread.join(timeout=1.0)
        # work longer than one interval shows at least one line, even when the thread never got to run (a busy
        # machine, a loop that keeps the GIL): its last state, unless the work ended by an error or Ctrl-C
        if exc[0] is None and not self._printed and time.monotonic() - self._start >= self.interval:
            self._print(self.line())

    def _print(self, line: str) -> None:
        if line:
            self._printed = True
            err_console.print(line, markup=False, highlight=False, soft_wrap=True)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self._print(self.line())

    def line(self) -> str:
        import time

        with self._lock:
            parts = []
            for desc, done, total in self._tasks.values():
                desc = " ".join(str(desc).split())
                parts.append(f"{desc} {int(done)}/{int(total)}" if total else desc)
        if not parts:
            return ""
        return f"[{time.monotonic() - self._start:5.0f}s] " + " · ".join(parts)

    def add_task(self, description: str, total: float | None = None, **_: Any) -> int:
        with self._lock:
            self._next += 1
            self._tasks[self._next] = [description, 0, total]
            return self._next

    def update(
        self,
        task: int,
        *,
        description: str | None = None,
        completed: float | None = None,
        total: float | None = None,
        advance: float | None = None,
        **_: Any,
    ) -> None:
        with self._lock:
            t = self._tasks.get(task)
            if t is None:
                return
            if description is not None:
                t[0] = description
            if total is not None:
                t[2] = total
            if completed is not None:
                t[1] = completed
            if advance is not None:
                t[1] += advance

    def advance(self, task: int, advance: float = 1) -> None:
        self.update(task, advance=advance)

    def remove_task(self, task: int) -> None:
        with self._lock:
            self._tasks.pop(task, None)


class _Progress(Progress):
    """rich's Progress whose refresh thread is started with SIGINT blocked (:func:`sigint_blocked`)."""

    def start(self) -> None:
        with sigint_blocked():
            super().start()


def progress(transient: bool = True) -> Any:
    """A rich progress bar (description, bar, m/n, elapsed) on stderr; plain periodic lines when stderr is not a
    terminal (:class:`PlainProgress`)."""
    if not err_console.is_terminal:
        return PlainProgress()
    return _Progress(
        SpinnerColumn(),
        TextColumn("{task.description}", style="progress.description", markup=False),  # descriptions literally
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=transient,
    )


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
            if total and done >= total:  # a finished stage leaves the display (no stale "80/80" after it)
                bars.remove_task(tasks.pop(stage))

        with _progress.listening(listener):
            yield


@contextlib.contextmanager
def working(description: str) -> Iterator[None]:
    """A spinner with elapsed time for one long step whose progress cannot be counted (plain periodic lines when
    stderr is not a terminal)."""
    if not err_console.is_terminal:
        with PlainProgress() as p:
            p.add_task(description)
            yield
        return
    with _Progress(
        SpinnerColumn(),
        TextColumn("{task.description}", markup=False),  # literally: a class name may hold [ ] or { }
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    ) as p:
        p.add_task(description, total=None)
        yield


@contextlib.contextmanager
def heartbeat(description: str) -> Iterator[None]:
    """Plain periodic progress lines for a step that draws its own live display on a terminal (the demo): on a
    terminal nothing is added; otherwise the stages the library reports, every few seconds."""
    if err_console.is_terminal:
        yield
        return
    with tracking(description):
        yield
