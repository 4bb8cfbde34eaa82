"""``--ledger FILE``: one privacy budget per dataset across CLI calls (issue 28 item 1).

The ledger is a JSON file that holds the dataset's budget (ε, δ), the SHA-256 digest of the data file's bytes and
the claim of every ``learn`` / ``play --data`` call on that data — never the data, its size or anything read from it.
A call is charged its learner's claim (the parameters' composition, the same ``privacy()`` the Python accountant
charges) by basic composition (:class:`~littlestone.privacy.BudgetAccountant`); a call past the budget is refused with
one line (exit 2) after the data file has been hashed and before it is parsed. A ledger belongs to one dataset: a
different file (other bytes) is refused. A new ledger needs ``--ledger-budget EPS[,DELTA]``. The file is rewritten
atomically, and before the learner runs (a run that fails later has still been charged: it may have read the data).
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

import typer

from ..errors import BudgetExceededError, LittlestoneError
from ..io import atomic_write_json
from ..privacy.accountant import BudgetAccountant

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


class Ledger:
    """A dataset's budget and its claims, loaded from / saved to one JSON file."""

    def __init__(self, path: Path, budget: tuple[float, float], digest: str | None, claims: list[dict]):
        self.path, self.budget, self.digest, self.claims = path, budget, digest, claims
        self.accountant = BudgetAccountant(*budget)
        for c in claims:
            self.accountant.spend(c["epsilon"], c["delta"], c.get("what", "recorded call"))

    @classmethod
    def open(cls, path: Path, budget_text: str | None) -> "Ledger":
        """The ledger at ``path``; a missing file is a new ledger with ``--ledger-budget``'s budget."""
        if not path.exists():
            if budget_text is None:
                raise LittlestoneError(
                    f"--ledger {path} does not exist: a new ledger needs --ledger-budget EPS[,DELTA]"
                )
            return cls(path, parse_budget(budget_text), None, [])
        try:
            obj = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(obj, dict) or obj.get("format") != FORMAT:
                raise ValueError(f"not a littlestone ledger (expected format {FORMAT!r})")
            budget = (float(obj["budget"]["epsilon"]), float(obj["budget"]["delta"]))
            claims = [
                {
                    "command": str(c["command"]),
                    "what": str(c["what"]),
                    "epsilon": float(c["epsilon"]),
                    "delta": float(c["delta"]),
                }
                for c in obj["claims"]
            ]
            ledger = cls(path, budget, str(obj["data_sha256"]), claims)
        except (OSError, ValueError, KeyError, TypeError, LittlestoneError) as exc:
            what = f"missing entry {exc}" if isinstance(exc, KeyError) else str(exc)
            raise LittlestoneError(f"--ledger {path} is not a usable ledger ({what})") from None
        if budget_text is not None and parse_budget(budget_text) != budget:
            raise LittlestoneError(
                f"--ledger {path} already has the budget (ε = {budget[0]:g}, δ = {budget[1]:g}); a ledger's budget is "
                "fixed when it is created (leave out --ledger-budget)"
            )
        return ledger

    def bind(self, data: Path) -> None:
        """Hash the data file; a ledger of other data refuses it (one ledger per dataset)."""
        digest = data_digest(data)
        if self.digest is not None and digest != self.digest:
            raise LittlestoneError(
                f"--ledger {self.path} belongs to other data (SHA-256 {self.digest[:12]}…, {data} has {digest[:12]}…): "
                "a ledger keeps the budget of one dataset; use a new ledger for this one"
            )
        self.digest = digest

    def charge(self, command: str, what: str, epsilon: float, delta: float) -> None:
        """Refuse (one line) a claim past the budget; else record it and rewrite the file atomically."""
        try:
            self.accountant.spend(epsilon, delta, what)
        except BudgetExceededError as exc:
            raise BudgetExceededError(f"--ledger {self.path}: {exc}") from None
        self.claims.append({"command": command, "what": what, "epsilon": float(epsilon), "delta": float(delta)})
        self.save()

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
    from ..privacy.accountant import claim_pair

    return claim_pair(obj)
