"""One BudgetAccountant across processes: a pickled accountant is a link to the live one, never a copy.

joblib's process backends (loky, multiprocessing: ``n_jobs=2`` in ``cross_val_score``, ``GridSearchCV``) pickle the
estimator into each worker. A copy of the accountant there would charge a budget nobody looks at, so pickling a
:class:`~littlestone.privacy.BudgetAccountant` gives a *link* to it instead:

* the process that owns accountants (the *owner*) serves them at its first pickle of one: a
  ``multiprocessing.connection`` listener on a local socket (a Unix socket; localhost on Windows) with a random
  32-byte key, answered by one daemon thread (one thread per connected worker);
* in another process the link unpickles as a :class:`LinkedAccountant`, whose ``charge`` / ``spend`` / ``check`` /
  ``remaining`` / ``spent`` / ``ledger`` are carried out by the owner's accountant under its lock — so every worker's
  charges are checked and recorded one at a time against the one budget, exactly as charges from threads are;
* unpickled in the owner itself, the link is the accountant itself (identity survives the round trip);
* an estimator or online learner with ``accountant=None`` pickles a :class:`DefaultLink`: "the default accountant of
  the owner", resolved when it charges (the one ``with BudgetAccountant(…):`` or ``set_default()`` installed in the
  parent), never a fresh default of the worker's own.

What it guarantees: charges made in worker processes on the same machine reach the owner's accountant and are
refused there past its budget (each refusal raised in the worker, as a BudgetExceededError with the owner's one-line
message), while the owner process runs. A link to a given accountant whose owner has exited or cannot be reached
raises a one-line LittlestoneError when it charges — never a silent fresh budget. A link to the default of an owner
that has exited (an estimator saved with joblib and loaded later) is this process's default, as for any estimator
built here: the owner's default budget ended with it. ``sklearn.clone`` of an estimator drops the link
(a clone is built from its parameters: ``accountant=None`` is then this process's default). The key travels inside
the pickle: whoever holds a pickle with a link may charge that accountant and read its spends (never any data) while
the owner runs. It is not a budget shared between separate programs: the CLI's ``--ledger`` file is that.
"""

from __future__ import annotations

import itertools
import numbers
import os
import secrets
import threading
import weakref
from multiprocessing import AuthenticationError
from multiprocessing.connection import Client, Listener
from typing import Any

from ..errors import BudgetExceededError, LittlestoneError, PrivacyParameterError
from .accountant import BudgetAccountant, claim_pair
from .budget import Charge

__all__ = [
    "ChargesTheDefaultOfItsPickler",
    "DefaultLink",
    "LinkedAccountant",
    "link_to",
    "open_link",
    "resolve_accountant",
    "state_with_link",
]

#: the target of a link to the owner's default accountant
DEFAULT = "default"
_ERRORS: dict[str, type[Exception]] = {
    "BudgetExceededError": BudgetExceededError,
    "PrivacyParameterError": PrivacyParameterError,
}
_CALLS = frozenset({"charge", "check", "remaining", "can_afford"})
_READS = frozenset({"spent", "ledger", "describe"})


class _Owner:
    """This process's server of its accountants (one per process, started at the first pickle of one)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.key = secrets.token_bytes(32)
        self.listener = Listener(authkey=self.key)
        self.address = self.listener.address
        self.objects: weakref.WeakValueDictionary[int, BudgetAccountant] = weakref.WeakValueDictionary()
        self._tokens = itertools.count(1)
        threading.Thread(target=self._serve, name="littlestone-accountant-owner", daemon=True).start()

    def register(self, acc: BudgetAccountant) -> int:
        mark = acc.__dict__.get("_link_mark")
        if mark is not None and mark[0] == self.pid:
            return mark[1]
        token = next(self._tokens)
        acc.__dict__["_link_mark"] = (self.pid, token)
        self.objects[token] = acc
        return token

    def _serve(self) -> None:
        while True:
            try:
                conn = self.listener.accept()
            except (AuthenticationError, EOFError, ConnectionError):  # a client without the key, or one that left
                continue
            except OSError:  # the listener was closed (interpreter exit)
                return
            threading.Thread(target=self._handle, args=(conn,), name="littlestone-accountant-link", daemon=True).start()

    def _handle(self, conn: Any) -> None:
        with conn:
            while True:
                try:
                    request = conn.recv()
                except (EOFError, OSError):
                    return
                conn.send(self._answer(request))

    def _answer(self, request: Any) -> tuple:
        try:
            op, target, name, args = request
            acc = BudgetAccountant.default() if target == DEFAULT else self.objects.get(target)
            if acc is None:
                return (
                    "error",
                    "LittlestoneError",
                    f"the linked BudgetAccountant no longer exists in process {self.pid}",
                )
            if op == "call" and name in _CALLS:
                return ("ok", getattr(acc, name)(*args))
            if op == "read" and name in _READS:
                return ("ok", (acc.epsilon, acc.delta, acc.slack) if name == "describe" else getattr(acc, name))
            return ("error", "LittlestoneError", f"not an accountant request: {op} {name}")
        except LittlestoneError as exc:
            return ("error", type(exc).__name__, str(exc))
        except Exception as exc:  # a malformed request: answered, never fatal to the owner
            return ("error", "LittlestoneError", f"bad accountant request ({type(exc).__name__}: {exc})")


_OWNER: _Owner | None = None
_OWNER_LOCK = threading.Lock()
_LINKED: weakref.WeakValueDictionary[tuple, "LinkedAccountant"] = weakref.WeakValueDictionary()


def _owner() -> _Owner:
    global _OWNER
    with _OWNER_LOCK:
        if _OWNER is None or _OWNER.pid != os.getpid():  # a forked child serves its own
            _OWNER = _Owner()
        return _OWNER


def link_to(acc: BudgetAccountant) -> tuple:
    """(owner pid, address, key, target) of an accountant: its own link if it is linked, else this process's."""
    if isinstance(acc, LinkedAccountant):
        return acc._link
    own = _owner()
    return (own.pid, own.address, own.key, own.register(acc))


def _linked(link: tuple) -> "LinkedAccountant":
    key = (link[0], link[1], link[3])
    with _OWNER_LOCK:
        acc = _LINKED.get(key)
        if acc is None:
            acc = LinkedAccountant(link)
            _LINKED[key] = acc
        return acc


def open_link(link: tuple) -> BudgetAccountant:
    """Unpickle a link: the accountant itself in its owner, a :class:`LinkedAccountant` elsewhere."""
    pid, _, _, target = link
    if pid == os.getpid() and target != DEFAULT:
        acc = _OWNER.objects.get(target) if _OWNER is not None and _OWNER.pid == pid else None
        if acc is None:
            raise LittlestoneError("a pickled BudgetAccountant names an accountant this process no longer holds")
        return acc
    if pid == os.getpid():
        return BudgetAccountant.default()
    return _linked(link)


class LinkedAccountant(BudgetAccountant):
    """The accountant of another process (its owner), seen from a worker: every call is carried out there."""

    def __init__(self, link: tuple):  # no budget here: the state lives in the owner
        self._link = link
        self._conn: Any = None
        self._conn_pid = os.getpid()
        self._conn_lock = threading.Lock()

    def _ask(self, op: str, name: str, *args: Any) -> Any:
        pid, address, key, target = self._link
        with self._conn_lock:
            try:
                if self._conn is None or self._conn_pid != os.getpid():  # a forked child opens its own connection
                    self._conn, self._conn_pid = Client(address, authkey=key), os.getpid()
                self._conn.send((op, target, name, args))
                answer = self._conn.recv()
            except (OSError, EOFError, AuthenticationError) as exc:
                self._conn = None
                raise LittlestoneError(
                    f"the BudgetAccountant of process {pid}, which this object was pickled from, cannot be reached "
                    f"({type(exc).__name__}): a pickled accountant is a link to the live one, valid while that "
                    "process runs (give this process's own accountant=, or sklearn.clone the estimator)"
                ) from None
        if answer[0] == "ok":
            return answer[1]
        raise _ERRORS.get(answer[1], LittlestoneError)(answer[2])

    # the budget, read from the owner (the default may change there between calls)
    @property  # type: ignore[override]
    def epsilon(self) -> float:
        return self._ask("read", "describe")[0]

    @property  # type: ignore[override]
    def delta(self) -> float:
        return self._ask("read", "describe")[1]

    @property  # type: ignore[override]
    def slack(self) -> float:
        return self._ask("read", "describe")[2]

    @property  # type: ignore[override]
    def composition(self) -> str:
        return "basic" if self.slack == 0 else "advanced (KOV17 Thm 3.5)"

    def charge(self, epsilon: Any, delta: float = 0.0, what: str = "unnamed mechanism") -> Charge:
        if isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real):
            what = what if what != "unnamed mechanism" else getattr(epsilon, "what", "") or type(epsilon).__name__
            epsilon, delta = claim_pair(epsilon)
        eps, dlt = self._checked(epsilon, delta)
        return self._ask("call", "charge", eps, dlt, what)

    def check(self, epsilon: float, delta: float = 0.0, what: str = "this spend") -> bool:
        eps, dlt = self._checked(epsilon, delta)
        return self._ask("call", "check", eps, dlt, what)

    def can_afford(self, epsilon: float, delta: float = 0.0) -> bool:
        return self._ask("call", "can_afford", float(epsilon), float(delta))

    def remaining(self, k: int = 1) -> tuple[float, float]:  # type: ignore[override]
        return self._ask("call", "remaining", k)

    @property
    def spent(self) -> tuple[float, float]:
        return self._ask("read", "spent")

    @property
    def ledger(self) -> list[Charge]:
        return self._ask("read", "ledger")

    def __repr__(self) -> str:
        e, d = self.spent
        return (
            f"LinkedAccountant(process {self._link[0]}: epsilon={self.epsilon:g}, delta={self.delta:g}; "
            f"spent=({e:.6g}, {d:.3g}))"
        )


def _alive(pid: int) -> bool:
    """Whether a process with this id exists (a reused id counts as alive: the link then refuses to connect)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists but is another user's (PermissionError), or the platform cannot tell
        return True
    return True


class DefaultLink:
    """ "The default accountant of the process that made me": there, :func:`BudgetAccountant.default`; in a process
    that unpickled me, the owner's default (through a :class:`LinkedAccountant`). Copies are the same link."""

    __slots__ = ("link",)

    def __init__(self, link: tuple | None = None):
        self.link = link

    def accountant(self) -> BudgetAccountant:
        if self.link is None or self.link[0] == os.getpid() or not _alive(self.link[0]):
            return BudgetAccountant.default()  # here, or the owner has exited: its default budget is gone with it
        return _linked(self.link)

    def __reduce__(self) -> Any:
        if self.link is None:
            own = _owner()
            return (DefaultLink, ((own.pid, own.address, own.key, DEFAULT),))
        return (DefaultLink, (self.link,))

    def __copy__(self) -> "DefaultLink":
        return self

    def __deepcopy__(self, memo: dict) -> "DefaultLink":
        return self


def state_with_link(state: dict, accountant_attr: str = "accountant") -> dict:
    """A copy of an object's pickle state that names its parent's default accountant when it has none of its own
    (``accountant=None``), so a worker charges the parent's default (pickled: a link; copied in-process: the same
    default as before)."""
    state = dict(state)
    if state.get(accountant_attr) is None and "_default_link" not in state:
        state["_default_link"] = DefaultLink()
    return state


def resolve_accountant(obj: Any, accountant_attr: str = "accountant") -> BudgetAccountant | None:
    """The accountant ``obj`` charges: its own, else the default of the process that pickled it (if it was
    pickled), else None (this process's default)."""
    acc = getattr(obj, accountant_attr, None)
    if acc is not None:
        return acc
    link = getattr(obj, "__dict__", {}).get("_default_link")
    return None if link is None else link.accountant()


class ChargesTheDefaultOfItsPickler:
    """Mixin of objects charged at ``fit`` through ``accountant=`` (the sanitizers): pickled with ``accountant=None``
    (joblib's process workers) they name the pickling process's default accountant (:func:`state_with_link`), and
    they charge :func:`resolve_accountant` of themselves — never a fresh default of the worker's own."""

    def __getstate__(self) -> dict:
        return state_with_link(dict(self.__dict__))


class ChargedPerGame:
    """Mixin of online learners charged their whole claim once, at their first round (``_charged``): a copy
    (``copy.copy``, ``copy.deepcopy``, pickle) of a learner that has started is another game, so it is charged the
    whole claim again at its next round — two games never run under one charge (a copy refused by its accountant
    cannot play). A fresh clone (river's ``clone``, ``sklearn.clone``) is an unstarted learner and is charged at its
    first round as usual. Pickled with ``accountant=None`` it names the pickling process's default accountant
    (:func:`state_with_link`)."""

    def __getstate__(self) -> dict:
        state = dict(super().__getstate__() or {})  # type: ignore[misc]
        if state.get("_charged"):
            state["_charged"] = False
        return state_with_link(state)
