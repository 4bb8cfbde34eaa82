"""CSV input for the CLI: a header row, then examples; cells become ints, floats or strings (clear errors)."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import EmptyDataError, LittlestoneError


@dataclass
class CsvTable:
    """Columns by name (values parsed to int / float / str)."""

    path: Path
    header: list[str]
    rows: list[list[Any]]

    def column_index(self, name: str) -> int:
        if name in self.header:
            return self.header.index(name)
        raise LittlestoneError(f"{self.path}: no column named {name!r} (columns: {', '.join(self.header)})")

    def columns(self, names: list[str]) -> np.ndarray:
        idx = [self.column_index(n) for n in names]
        values = [[r[i] for i in idx] for r in self.rows]
        for j, name in enumerate(names):
            for i, row in enumerate(values):
                v = row[j]
                if isinstance(v, int) and not -(2**63) <= v < 2**63:
                    raise LittlestoneError(
                        f"{self.path}, line {i + 2}: {v} in column {name!r} is too large "
                        "(integers must lie in [-2^63, 2^63))"
                    )
        if all(isinstance(v, (int, float)) for row in values for v in row):
            return np.array(
                values, dtype=np.float64 if any(isinstance(v, float) for row in values for v in row) else np.int64
            )
        return np.array(values, dtype=object)

    def check_no_nan(self, name: str, what: str) -> None:
        """Fail, naming the line, if the column holds NaN (a missing value) — e.g. labels must be present."""
        i = self.column_index(name)
        for lineno, r in enumerate(self.rows, start=2):
            v = r[i]
            if isinstance(v, float) and v != v:
                raise LittlestoneError(
                    f"{self.path}, line {lineno}: the {what} in column {name!r} is NaN (a missing value)"
                )

    def column(self, name: str) -> np.ndarray:
        return self.columns([name])[:, 0]


def _cell(text: str) -> Any:
    s = text.strip()
    try:
        return int(s)
    except ValueError:
        pass
    try:
        return float(s)
    except ValueError:
        return s


def read_csv(path: str | Path) -> CsvTable:
    """Read a CSV with a header row; every row must have the header's number of cells, none empty."""
    path = Path(path)
    with open(path, newline="", encoding="utf-8") as fh:
        try:
            raw = list(csv.reader(fh))
        except csv.Error as exc:
            raise LittlestoneError(f"{path}: not a readable CSV file ({exc})") from None
    raw = [r for r in raw if any(c.strip() for c in r)]
    if not raw:
        raise EmptyDataError(f"{path}: the file is empty")
    header = [h.strip() for h in raw[0]]
    if len(set(header)) != len(header) or any(not h for h in header):
        raise LittlestoneError(f"{path}: the first row must be a header of distinct, non-empty column names")
    rows = []
    for lineno, r in enumerate(raw[1:], start=2):
        if len(r) != len(header):
            raise LittlestoneError(f"{path}, line {lineno}: {len(r)} cells but the header has {len(header)} columns")
        cells = [_cell(c) for c in r]
        for name, c in zip(header, cells):
            if c == "":
                raise LittlestoneError(f"{path}, line {lineno}: empty cell in column {name!r}")
        rows.append(cells)
    if not rows:
        raise EmptyDataError(f"{path}: no examples after the header row")
    return CsvTable(path, header, rows)


def split_columns(table: CsvTable, label: str | None, features: str | None) -> tuple[list[str], str | None]:
    """(feature column names, label column name): label defaults to 'label'/'y' or else the last column."""
    if label is None:
        label = next((c for c in ("label", "y", "target", "class") if c in table.header), table.header[-1])
    table.column_index(label)
    if features:
        names = [f.strip() for f in features.split(",") if f.strip()]
        for n in names:
            table.column_index(n)
        if label in names:
            raise LittlestoneError(f"column {label!r} is both the label and a feature")
    else:
        names = [h for h in table.header if h != label]
    if not names:
        raise LittlestoneError(f"{table.path}: no feature columns besides the label column {label!r}")
    return names, label
