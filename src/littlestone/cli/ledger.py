"""``--ledger FILE``: one privacy budget per dataset across CLI calls (issue 28 item 1; issue 32 item 2).

The ledger is a JSON file that holds the dataset's budget (ε, δ), the SHA-256 digest of the data file's bytes and
the claim of every ``learn`` / ``play --data`` call on that data — never the data, its size or anything read from it.
A call is charged its learner's claim (the parameters' composition, the same ``privacy()`` the Python accountant
charges) by basic composition, summed exactly (:class:`~littlestone.privacy.BudgetAccountant`); a call past the
budget is refused with one line (exit 2) after the data file has been hashed and before it is parsed, and again,
authoritatively, when it is charged. A ledger belongs to one dataset: a different file (other bytes) is refused. A new
ledger needs ``--ledger-budget EPS[,DELTA]``.

Concurrent calls: the charge is read → check → write under an exclusive lock (``fcntl.flock`` on ``FILE.lock``
beside the ledger, kept there), re-reading the file under the lock, and the file is replaced atomically (a reader
sees the old or the new ledger, never half of one). So calls started together on one ledger never spend more than
its budget together, and the file records exactly the calls that were charged. The lock holds between processes on
one machine and on network filesystems that implement ``flock`` (NFSv4, recent Linux clients); on a filesystem that
ignores it (some older NFS or SMB mounts) concurrent calls can still overspend: keep a shared ledger on a local disk.
A call is charged when its learner starts (after the public checks: a call refused for its parameters or for too few
rows is not charged) and a run that fails later has still been charged (it may have read the data).

What is refused when loading (one line, exit 2): a file that is not a regular file (a FIFO, a device, a directory:
named for what it is, never opened for reading), JSON nested too deeply, a budget that is not a finite ε > 0 and a δ
in [0, 1), a claim that is not two JSON numbers with ε ≥ 0 finite and δ in [0, 1) (``"1e-300"`` as a string, NaN,
negative), and a recorded total that differs from the sum of the claims (a claim edited by hand). The ledger guards
against races and accidents, not against whoever can write it: they can rewrite the budget too.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import stat
from pathlib import Path
from typing import Any, Iterator

import typer

from ..errors import BudgetExceededError, LittlestoneError
from ..io import atomic_write_json
from ..privacy.accountant import BudgetAccountant, claim_pair
from ..privacy.budget import Charge

FORMAT = "littlestone-ledger/1"

LEDGER_OPTION = typer.Option(
    None,
    "--ledger",
    metavar="FILE",
    help="The dataset's privacy ledger (JSON): this call's claim is added, and refused (exit 2) past its budget "
    "or on other data; holds the data's SHA-256 and the claims, never the data.",
)
LEDGER_BUDGET_OPTION = typer.Option(
    None, "--ledger-budget", metavar="EPS[,DELTA]", help="The budget of a new --ledger (fixed at creation)."
)


def data_digest(path: Path) -> str:
    """SHA-256 of the file's bytes (read in blocks; nothing is kept)."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError as exc:
        raise LittlestoneError(f"cannot read {path}: {exc.strerror or exc}") from None
    return h.hexdigest()


def parse_budget(text: str) -> tuple[float, float]:
    """``EPS`` or ``EPS,DELTA`` → (ε, δ) with ε > 0 finite and 0 ≤ δ < 1."""
    parts = [p.strip() for p in str(text).split(",")]
    try:
        vals = [float(p) for p in parts]
    except ValueError:
        vals = []
    if len(vals) not in (1, 2) or not (math.isfinite(vals[0]) and vals[0] > 0):
        raise LittlestoneError(f"--ledger-budget needs EPS or EPS,DELTA with EPS > 0, got {text!r}")
    delta = vals[1] if len(vals) == 2 else 0.0
    if not 0.0 <= delta < 1.0:
        raise LittlestoneError(f"--ledger-budget: DELTA must lie in [0, 1), got {delta!r}")
    return vals[0], delta


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is (None for a regular file)."""
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return None if stat.S_ISREG(mode) else "a special file"


def _check_regular(path: Path, what: str = "--ledger") -> bool:
    """False if ``path`` does not exist; one-line LittlestoneError if it is not a regular file."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise LittlestoneError(f"{what} {path}: {exc.strerror or exc}") from None
    kind = _kind(mode)
    if kind is not None:
        raise LittlestoneError(f"{what} {path} is {kind}, not a regular file")
    return True


def _read_text(path: Path) -> str:
    """The file's text, opened without blocking (a FIFO swapped in after the check is refused, never waited on)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise LittlestoneError(f"--ledger {path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as fh:
        kind = _kind(os.fstat(fh.fileno()).st_mode)
        if kind is not None:
            raise LittlestoneError(f"--ledger {path} is {kind}, not a regular file")
        try:
            return fh.read().decode("utf-8")
        except UnicodeDecodeError:
            raise LittlestoneError(f"--ledger {path} is not a usable ledger (not UTF-8 text)") from None


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive ``flock`` on ``path``.lock (created beside the ledger and kept: removing it would race)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        raise LittlestoneError("--ledger needs file locking (fcntl), which this platform does not have") from None
    lock = path.with_name(path.name + ".lock")
    _check_regular(lock, "--ledger lock file")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o644)
    except OSError as exc:
        raise LittlestoneError(f"--ledger {path}: cannot open its lock file {lock}: {exc.strerror or exc}") from None
    try:
        kind = _kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise LittlestoneError(f"--ledger lock file {lock} is {kind}, not a regular file")
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _number(value: Any, what: str) -> float:
    """A JSON number (not a string, not a bool), finite."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what} must be a JSON number, got {value!r}")
    out = float(value)
    if not math.isfinite(out):
        raise ValueError(f"{what} must be finite, got {value!r}")
    return out


def _claim(c: Any, i: int) -> dict:
    if not isinstance(c, dict):
        raise ValueError(f"claim {i + 1} is not an object")
    eps, dlt = _number(c["epsilon"], f"claim {i + 1}'s epsilon"), _number(c["delta"], f"claim {i + 1}'s delta")
    if eps < 0:
        raise ValueError(f"claim {i + 1}'s epsilon must be >= 0, got {eps!r}")
    if not 0.0 <= dlt < 1.0:
        raise ValueError(f"claim {i + 1}'s delta must lie in [0, 1), got {dlt!r}")
    if not isinstance(c["command"], str) or not isinstance(c["what"], str):
        raise ValueError(f"claim {i + 1}'s command and what must be strings")
    return {"command": c["command"], "what": c["what"], "epsilon": eps, "delta": dlt}


def _parse(path: Path, text: str) -> tuple[tuple[float, float], str | None, list[dict]]:
    """(budget, digest, claims) of a ledger file's text; one-line LittlestoneError for anything malformed."""
    try:
        obj = json.loads(text)
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise ValueError(f"not a littlestone ledger (expected format {FORMAT!r})")
        b = obj["budget"]
        if not isinstance(b, dict):
            raise ValueError("budget is not an object")
        budget = (_number(b["epsilon"], "the budget's epsilon"), _number(b["delta"], "the budget's delta"))
        if not budget[0] > 0 or not 0.0 <= budget[1] < 1.0:
            raise ValueError(f"the budget must have epsilon > 0 and delta in [0, 1), got {budget}")
        if not isinstance(obj["claims"], list):
            raise ValueError("claims is not a list")
        claims = [_claim(c, i) for i, c in enumerate(obj["claims"])]
        digest = obj["data_sha256"]
        if not (isinstance(digest, str) and len(digest) == 64 and all(ch in "0123456789abcdef" for ch in digest)):
            raise ValueError("data_sha256 is not a SHA-256 hex digest")
        acc = BudgetAccountant(*budget)
        for c in claims:
            acc.spend(c["epsilon"], c["delta"], c["what"])
        spent = obj["spent"]
        if not isinstance(spent, dict) or not all(
            math.isclose(_number(spent[k], f"spent {k}"), v, rel_tol=1e-9)
            for k, v in zip(("epsilon", "delta"), acc.spent)
        ):
            raise ValueError("its recorded total differs from the sum of its claims (a claim was edited?)")
    except RecursionError:
        raise LittlestoneError(f"--ledger {path} is not a usable ledger (JSON nested too deeply)") from None
    except (ValueError, KeyError, TypeError, LittlestoneError) as exc:
        what = f"missing entry {exc}" if isinstance(exc, KeyError) else str(exc)
        raise LittlestoneError(f"--ledger {path} is not a usable ledger ({what})") from None
    return budget, digest, claims


class Ledger:
    """A dataset's budget and its claims, loaded from / saved to one JSON file (charged under a file lock)."""

    def __init__(self, path: Path, budget: tuple[float, float], digest: str | None, claims: list[dict]):
        self.path, self.budget, self.digest, self.claims = path, budget, digest, claims
        self.existed = digest is not None
        self.accountant = BudgetAccountant(*budget)
        for c in claims:
            self.accountant.spend(c["epsilon"], c["delta"], c.get("what", "recorded call"))

    @classmethod
    def open(cls, path: Path, budget_text: str | None) -> "Ledger":
        """The ledger at ``path``; a missing file is a new ledger with ``--ledger-budget``'s budget."""
        if not _check_regular(path):
            if budget_text is None:
                raise LittlestoneError(
                    f"--ledger {path} does not exist: a new ledger needs --ledger-budget EPS[,DELTA]"
                )
            return cls(path, parse_budget(budget_text), None, [])
        budget, digest, claims = _parse(path, _read_text(path))
        if budget_text is not None and parse_budget(budget_text) != budget:
            raise LittlestoneError(
                f"--ledger {path} already has the budget (ε = {budget[0]:g}, δ = {budget[1]:g}); a ledger's budget is "
                "fixed when it is created (leave out --ledger-budget)"
            )
        return cls(path, budget, digest, claims)

    def bind(self, data: Path) -> None:
        """Hash the data file; a ledger of other data refuses it (one ledger per dataset)."""
        digest = data_digest(data)
        self._same_data(self.digest, digest, data)
        self.digest = digest

    def _same_data(self, recorded: str | None, digest: str | None, data: Any) -> None:
        if recorded is not None and digest is not None and digest != recorded:
            raise LittlestoneError(
                f"--ledger {self.path} belongs to other data (SHA-256 {recorded[:12]}…, {data} has {digest[:12]}…): "
                "a ledger keeps the budget of one dataset; use a new ledger for this one"
            )

    def charge(self, command: str, what: str, epsilon: float, delta: float) -> None:
        """Under the file lock: re-read the ledger, refuse (one line) a claim past its budget, else record it and
        replace the file atomically."""
        with _locked(self.path):
            if _check_regular(self.path):
                budget, digest, claims = _parse(self.path, _read_text(self.path))
                if budget != self.budget:
                    raise LittlestoneError(
                        f"--ledger {self.path} was created by another call meanwhile with the budget (ε = "
                        f"{budget[0]:g}, δ = {budget[1]:g}), not this call's --ledger-budget"
                    )
                self._same_data(digest, self.digest, "this call's data")
            elif self.existed:
                raise LittlestoneError(f"--ledger {self.path} was removed while this call ran; nothing was charged")
            else:
                claims = []
            book = Ledger(self.path, self.budget, self.digest, claims)
            try:
                book.accountant.spend(epsilon, delta, what)
            except BudgetExceededError as exc:
                self.claims, self.accountant = book.claims, book.accountant
                raise BudgetExceededError(f"--ledger {self.path}: {exc}") from None
            book.claims.append({"command": command, "what": what, "epsilon": float(epsilon), "delta": float(delta)})
            book.save()
        self.claims, self.accountant, self.existed = book.claims, book.accountant, True

    def accountant_for(self, command: str, what: str) -> BudgetAccountant:
        """An accountant for an estimator's ``accountant=``: its charge is this ledger's (:meth:`charge`), made when
        the estimator charges — after its public checks, before it reads the data."""
        return _LedgerAccountant(self, command, what)

    def save(self) -> None:
        spent = self.accountant.spent
        atomic_write_json(
            self.path,
            {
                "format": FORMAT,
                "budget": {"epsilon": self.budget[0], "delta": self.budget[1]},
                "composition": "basic (sums of the claims)",
                "data_sha256": self.digest,
                "spent": {"epsilon": spent[0], "delta": spent[1]},
                "claims": self.claims,
            },
        )

    def summary(self) -> str:
        e, d = self.accountant.spent
        re, rd = self.accountant.remaining()
        return f"ledger {self.path}: spent ε = {e:g}, δ = {d:g} of ({self.budget[0]:g}, {self.budget[1]:g}); left ε = {re:g}, δ = {rd:g}"


class _LedgerAccountant(BudgetAccountant):
    """The accountant a ledgered ``learn`` gives its estimator: a charge is recorded in the ledger file (under its
    lock), then here."""

    def __init__(self, book: Ledger, command: str, what: str):
        super().__init__()  # an unlimited tracker here: the budget is the ledger's
        self._book, self._command, self._what = book, command, what

    def charge(self, epsilon: Any, delta: float = 0.0, what: str = "unnamed mechanism") -> Charge:
        e, d = (epsilon, delta) if isinstance(epsilon, (int, float)) else claim_pair(epsilon)
        e, d = self._checked(e, d)
        self._book.charge(self._command, self._what, e, d)
        return super().charge(e, d, what)


def open_ledger(ledger: Path | None, budget_text: str | None, data: Path | None) -> Ledger | None:
    """The ledger of ``--ledger`` bound to ``data`` (hashed), or None without ``--ledger``."""
    if ledger is None:
        if budget_text is not None:
            raise LittlestoneError("--ledger-budget goes with --ledger FILE")
        return None
    if data is None:
        raise LittlestoneError("--ledger keeps a dataset's budget: it needs the data file (play: --data)")
    out = Ledger.open(Path(ledger), budget_text)
    out.bind(Path(data))
    return out


def claim_of(obj: Any) -> tuple[float, float]:
    """(ε, δ) of a claim in any of littlestone's forms."""
    return claim_pair(obj)
