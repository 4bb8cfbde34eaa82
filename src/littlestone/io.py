"""File input and output: small CSV reading with named errors; atomic output (write to a temporary file in the
target directory, then ``os.replace`` it into place)."""

from __future__ import annotations

import contextlib
import csv
import json
import os
import tempfile
from pathlib import Path
from typing import IO, Any, Iterator

from .errors import LittlestoneError


class OutputError(LittlestoneError, OSError):
    """An output file cannot be created where the user asked for it."""


def read_csv_rows(path: str | os.PathLike, what: str, expected: str,
                  error: type[LittlestoneError] = LittlestoneError) -> list[list[str]]:
    """The non-blank rows of a small CSV file; ``error`` names ``what`` the file is and what was ``expected`` in it
    when the file is missing or unreadable."""
    p = Path(path)
    if not p.is_file():
        raise error(f"{what} {str(p)!r} does not exist ({expected})")
    try:
        with p.open(newline="") as f:
            return [r for r in csv.reader(f) if r and any(c.strip() for c in r)]
    except (OSError, UnicodeDecodeError) as e:
        raise error(f"{what} {str(p)!r} cannot be read as CSV: {e}") from None


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", *, encoding: str | None = "utf-8") -> Iterator[IO[Any]]:
    """Open a temporary sibling of ``path`` for writing; on success it replaces ``path`` atomically.

    On any exception — including KeyboardInterrupt — the temporary file is removed and ``path`` is untouched, so a
    reader never sees a half-written file. ``mode`` is ``"w"`` (text) or ``"wb"`` (binary).
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_write mode must be 'w' or 'wb', not {mode!r}")
    target = Path(path)
    check_output_file(target)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:  # report the file the user named, not our temporary sibling
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    ok = False
    try:
        with os.fdopen(fd, mode, encoding=None if "b" in mode else encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        _apply_umask(tmp)
        try:
            os.replace(tmp, target)
        except OSError as exc:  # e.g. the target became a directory meanwhile: name the user's file
            raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
        ok = True
    finally:
        if not ok:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def check_output_file(path: str | os.PathLike) -> Path:
    """Fail early, naming ``path``, if it cannot be an output file (it is a directory, or its parent is a file)."""
    target = Path(path)
    if target.is_dir():
        raise OutputError(f"cannot write {target}: it is a directory (give a file name)")
    for parent in target.parents:
        if parent.exists():
            if not parent.is_dir():
                raise OutputError(f"cannot write {target}: {parent} is a file, not a directory")
            break
    return target


def _apply_umask(path: str) -> None:
    """mkstemp creates 0600 files; give the result the permissions a plain open() would (0666 minus umask)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    """Write a whole text file atomically; returns the path."""
    with atomic_write(path, "w") as fh:
        fh.write(text)
    return Path(path)


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write a whole binary file atomically; returns the path."""
    with atomic_write(path, "wb") as fh:
        fh.write(data)
    return Path(path)


def atomic_write_json(path: str | os.PathLike, obj: Any) -> Path:
    """Write JSON (indented, UTF-8) atomically; returns the path."""
    return atomic_write_text(path, json.dumps(obj, indent=2, sort_keys=False) + "\n")


def atomic_savefig(fig: Any, path: str | os.PathLike, **kwargs: Any) -> Path:
    """Save a matplotlib figure atomically (format from the suffix of ``path``)."""
    fmt = kwargs.pop("format", Path(path).suffix.lstrip(".") or "png")
    with atomic_write(path, "wb") as fh:
        fig.savefig(fh, format=fmt, **kwargs)
    return Path(path)


def write_figure_atomically(draw: Any, path: Path) -> Path:
    """Call ``draw(tmp_path)`` to produce a file, then move it to ``path`` (nothing half-written on failure)."""
    path = check_output_file(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    tmp = path.with_name(f".{path.stem}.partial{path.suffix or '.png'}")
    try:
        draw(tmp)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return path
