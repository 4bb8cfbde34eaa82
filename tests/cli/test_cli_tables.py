"""Console tables never cut a number or a name, piped or at 80 columns (issue 9 item 9)."""

from __future__ import annotations

import csv
import io
import os
import subprocess

import pytest
from rich.console import Console
from rich.table import Table

from littlestone.cli._common import print_table
from test_cli_subprocess import ENV, EXE

needs_exe = pytest.mark.skipif(EXE is None, reason="console script not installed")
NARROW = {**ENV, "COLUMNS": "80"}


def _run(*args, cwd=None):
    return subprocess.run([EXE, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=300, env=NARROW)


def _column_text(out: str, col: int) -> str:
    """The text of column ``col`` of every box-drawn table in ``out``, read top to bottom (folded cells joined)."""
    pieces = []
    for line in out.splitlines():
        if line.startswith("│"):
            pieces.append(line.split("│")[col + 1].strip())
    return "".join(pieces)


def _check_fits(out: str) -> None:
    assert "…" not in out
    assert max(len(line) for line in out.splitlines() if line.startswith(("│", "┃", "┏", "└"))) <= 80


def test_print_table_folds_and_splits_never_elides():
    table = Table(title="wide")
    names = [f"a_rather_long_column_name_{i}" for i in range(12)]
    for n in names:
        table.add_column(n, justify="right")
    values = [[f"{(r + 1) * 10**i:,}" for i in range(12)] for r in range(3)]
    for row in values:
        table.add_row(*row)
    buf = io.StringIO()
    print_table(table, Console(file=buf, width=80, force_terminal=False))
    out = buf.getvalue()
    _check_fits(out)
    for row in values:
        for v in row:
            assert v in out  # every number whole, on one line
    assert "(part 2 of" in out


@needs_exe
def test_bounds_blm20_at_80_columns_keeps_every_value(tmp_path):
    from littlestone.bounds.blm20 import theorem1
    from littlestone.cli.bounds_cmds import _fmt

    r = _run("bounds", "blm20", "--d", "3", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    _check_fits(r.stdout)
    for row in theorem1(3, 0.1, 1.0, 1e-6, 0.05).rows():
        assert _fmt(list(row)[2]) in r.stdout
    formulas = "".join(str(list(row)[3]).replace(" ", "") for row in theorem1(3, 0.1, 1.0, 1e-6, 0.05).rows())
    assert _column_text(r.stdout, 3).replace(" ", "") == formulas  # formulas wrap, never end in '…'


@needs_exe
def test_audit_names_whole_at_80_columns(tmp_path):
    from littlestone.audit import list_builtin_audits

    longest = sorted(list_builtin_audits(), key=len)[-3:]
    r = _run("audit", *longest, "--runs", "50", "--seed", "1", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    _check_fits(r.stdout)
    assert _column_text(r.stdout, 0) == "".join(longest)


@needs_exe
def test_experiment_table_at_80_columns_keeps_every_number(tmp_path):
    r = _run("experiment", "blm20_sample_cost", "--set", "runs=5", "--set", "points=7", "-o", "out", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    _check_fits(r.stdout)
    with open(tmp_path / "out" / "blm20_sample_cost.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows
    for row in rows:
        for value in row.values():
            try:
                x = float(value)
            except ValueError:
                continue
            shown = f"{x:.4g}" if ("." in value or "e" in value.lower()) and not x.is_integer() else value
            if x.is_integer() and ("." in value or "e" in value.lower()):
                shown = str(int(x)) if abs(x) < 1e15 else f"{x:.4g}"  # whole numbers in full
            assert shown in r.stdout, (shown, value)
    assert os.path.exists(tmp_path / "out" / "blm20_sample_cost.png")
