"""File input and output: small CSV reading with named errors; outputs that never destroy what a path points to.

An output path is resolved by :func:`output_target` before anything is computed:

* ``-`` is standard output;
* a symbolic link is followed to its target (the link stays a link);
* an existing character device (``/dev/null``) or FIFO is written *through* (opened and written, never replaced);
* a block device, socket or directory is refused;
* anything else is a regular file, written atomically: to a temporary sibling in the target's directory, then
  ``os.replace``-d into place, so a reader never sees a half-written file;
* the target's directory must exist (it is never created silently).

Output to standard output, devices and FIFOs is assembled in memory and written only once it is complete, so an
error or Ctrl-C leaves nothing half-written there either."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator

from .errors import LittlestoneError

#: the output path that means standard output
STDOUT = "-"


class OutputError(LittlestoneError, OSError):
    """An output file cannot be created where the user asked for it."""


def read_csv_rows(
    path: str | os.PathLike, what: str, expected: str, error: type[LittlestoneError] = LittlestoneError
) -> list[list[str]]:
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


@dataclass(frozen=True)
class OutputTarget:
    """Where an output goes: ``kind`` is "stdout", "stream" (an existing character device or FIFO, written
    through) or "file" (a regular file, replaced atomically); ``path`` is the resolved path (symlinks followed)."""

    kind: str
    path: Path
    given: str

    @property
    def is_stdout(self) -> bool:
        return self.kind == "stdout"


def is_stdout(path: str | os.PathLike | None) -> bool:
    """Whether ``path`` is ``-`` (standard output)."""
    return path is not None and os.fspath(path) == STDOUT


def output_target(path: str | os.PathLike) -> OutputTarget:
    """Resolve an output path (see the module docstring) or fail, naming the path, with :class:`OutputError`."""
    given = os.fspath(path)
    if given == STDOUT:
        return OutputTarget("stdout", Path(STDOUT), given)
    if not given:
        raise OutputError("empty output path")
    target = Path(os.path.realpath(given)) if os.path.islink(given) or _has_link(given) else Path(given)
    try:
        st = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        st = None
    except OSError as exc:
        raise OutputError(f"cannot write {given}: {exc.strerror or exc}") from None
    if st is not None:
        mode = st.st_mode
        if stat.S_ISDIR(mode):
            raise OutputError(f"cannot write {given}: it is a directory (give a file name)")
        if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
            return OutputTarget("stream", target, given)
        if stat.S_ISBLK(mode):
            raise OutputError(f"cannot write {given}: it is a block device (refusing to write to it)")
        if not stat.S_ISREG(mode):
            raise OutputError(f"cannot write {given}: it is not a regular file, device or FIFO")
        return OutputTarget("file", target, given)
    parent = target.parent if str(target.parent) else Path(".")
    for p in (parent, *parent.parents):
        if p.exists():
            if not p.is_dir():
                raise OutputError(f"cannot write {given}: {p} is {_what_is(p)}, not a directory")
            break
    if not parent.is_dir():
        raise OutputError(f"cannot write {given}: directory {parent} does not exist (create it first)")
    return OutputTarget("file", target, given)


def _has_link(path: str) -> bool:
    """Whether a directory component of ``path`` is a symbolic link (resolved for clear messages and rename)."""
    p = Path(path)
    return any(q.is_symlink() for q in p.parents if str(q) not in ("", "."))


def check_output_file(path: str | os.PathLike) -> Path:
    """Fail early, naming ``path``, if it cannot be an output file; returns it (``-`` = standard output)."""
    output_target(path)
    return Path(path)


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w", *, encoding: str | None = "utf-8") -> Iterator[IO[Any]]:
    """Open ``path`` for writing without ever leaving it half-written or destroying what it points to.

    A regular file is written to a temporary sibling that replaces it on success; standard output (``-``), a
    character device or a FIFO receive the whole content on success (assembled in memory). On any exception —
    including KeyboardInterrupt — nothing is written and no temporary file is left. ``mode`` is ``"w"`` (text)
    or ``"wb"`` (binary).
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_write mode must be 'w' or 'wb', not {mode!r}")
    target = output_target(path)
    if target.kind != "file":
        buf: io.BytesIO | io.StringIO = io.BytesIO() if mode == "wb" else io.StringIO()
        yield buf
        _write_through(target, buf.getvalue(), mode, encoding)
        return
    real = target.path
    directory = real.parent if str(real.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:  # report the file the user named, not our temporary sibling
        raise OutputError(f"cannot write {target.given}: {exc.strerror or exc}") from None
    ok = False
    try:
        with os.fdopen(fd, mode, encoding=None if "b" in mode else encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        _apply_umask(tmp)
        try:
            os.replace(tmp, real)
        except OSError as exc:  # e.g. the target became a directory meanwhile: name the user's file
            raise OutputError(f"cannot write {target.given}: {exc.strerror or exc}") from None
        ok = True
    finally:
        if not ok:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def _write_through(target: OutputTarget, data: str | bytes, mode: str, encoding: str | None) -> None:
    if target.kind == "stdout":
        if isinstance(data, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(data)
            sys.stdout.flush()
        return
    try:  # a device or FIFO: opened for writing as it is (never truncated, unlinked or replaced)
        with open(target.path, mode, encoding=None if "b" in mode else encoding) as fh:
            fh.write(data)
    except OSError as exc:
        raise OutputError(f"cannot write {target.given}: {exc.strerror or exc}") from None


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
    """Save a matplotlib figure atomically (format from the suffix of ``path``; PNG for ``-`` or no suffix)."""
    fmt = kwargs.pop("format", None) or (Path(path).suffix.lstrip(".") if not is_stdout(path) else "") or "png"
    with atomic_write(path, "wb") as fh:
        fig.savefig(fh, format=fmt, **kwargs)
    return Path(path)


def _what_is(path: str | os.PathLike) -> str:
    """What an existing path that is not a directory is, for error messages: "a file", "a FIFO (named pipe)",
    "a character device", "a block device", "a socket", or "a symbolic link to …"."""
    p = os.fspath(path)
    if os.path.islink(p):
        real = os.path.realpath(p)
        return f"a symbolic link to {_what_is(real)} ({real})" if os.path.lexists(real) else "a broken symbolic link"
    try:
        mode = os.stat(p).st_mode
    except OSError:
        return "not a directory"
    for test, name in (
        (stat.S_ISREG, "a file"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a directory"


def check_output_dir(path: str | os.PathLike, what: str = "the results") -> Path:
    """An output directory: not ``-``, not an existing non-directory, and its parent must exist."""
    given = os.fspath(path)
    if given == STDOUT:
        raise OutputError(f"{what} go to a directory, not to standard output ('-')")
    out = Path(os.path.realpath(given)) if os.path.islink(given) else Path(given)
    if out.exists():
        if not out.is_dir():
            raise OutputError(f"cannot write {what} to {given}: it is {_what_is(given)}, not a directory")
        return out
    parent = out.parent if str(out.parent) else Path(".")
    for p in (parent, *parent.parents):
        if p.exists():
            if not p.is_dir():
                raise OutputError(f"cannot write {what} to {given}: {p} is {_what_is(p)}, not a directory")
            break
    if not parent.is_dir():
        raise OutputError(f"cannot write {what} to {given}: directory {parent} does not exist (create it first)")
    return out


@contextlib.contextmanager
def staged_directory(path: str | os.PathLike, what: str = "the results") -> Iterator[Path]:
    """Build an output directory's files in a hidden staging directory next to it and move them in only on
    success: an error or Ctrl-C leaves neither a partial directory nor partial files (existing files in ``path``
    that the run does not rewrite are kept)."""
    out = check_output_dir(path, what)
    parent = out.parent if str(out.parent) else Path(".")
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=parent))
    except OSError as exc:
        raise OutputError(f"cannot write {what} to {os.fspath(path)}: {exc.strerror or exc}") from None
    try:
        yield staging
        created = not out.exists()
        out.mkdir(exist_ok=True)
        try:
            _merge_into(staging, out)
        except BaseException:
            if created:
                import shutil

                shutil.rmtree(out, ignore_errors=True)
            raise
    finally:
        import shutil

        shutil.rmtree(staging, ignore_errors=True)


def _merge_into(src: Path, dst: Path) -> None:
    for entry in sorted(src.iterdir()):
        target = dst / entry.name
        if entry.is_dir() and not entry.is_symlink():
            if target.exists() and not target.is_dir():
                raise OutputError(f"cannot write {target}: it is {_what_is(target)}, not a directory")
            target.mkdir(exist_ok=True)
            _merge_into(entry, target)
        else:
            if target.is_dir() and not target.is_symlink():
                raise OutputError(f"cannot write {target}: it is a directory")
            os.replace(entry, target)


def write_figure_atomically(draw: Any, path: str | os.PathLike) -> Path:
    """Call ``draw(tmp_path)`` to produce a file in a private temporary directory, then write it to ``path`` the
    way every output is written (:func:`atomic_write`: atomic for files, written through for ``-``, devices and
    FIFOs; nothing half-written on failure or Ctrl-C)."""
    check_output_file(path)
    suffix = ("" if is_stdout(path) else Path(path).suffix) or ".png"
    with tempfile.TemporaryDirectory(prefix="littlestone-figure-") as tmpdir:
        tmp = Path(tmpdir) / f"figure{suffix}"
        draw(tmp)
        atomic_write_bytes(path, tmp.read_bytes())
    return Path(path)
