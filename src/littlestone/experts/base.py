"""The online-prediction-from-experts (OPE) protocol shared by the private and non-private learners.

River-like: ``predict_one()`` returns the index of the expert followed this round (sampled from the learner's
distribution), ``learn_one(losses)`` takes the round's loss vector ℓ_t ∈ [0,1]^N. ``run(losses)`` plays a whole
loss matrix (T × N array, or an iterable of (k × N) chunks, so T·N need not fit in memory) and returns an
:class:`ExpertsRun` with the realized and expected losses, the best expert's loss and the regret.

Neighbouring relation for the private learners: two loss sequences differing in one round's loss vector
(``"replace-one-round"``), the standard one for private OPE (JKT12, AS17, LWY25 §E.3).

Release policy of the private learners: the expert chosen each round and ``distribution()`` are computed from the
outputs of the mechanism objects the learner runs (``privacy()`` is their composition); the exact cumulative losses
are private (``_cumulative``), and a distribution that is a function of them (PrivateHedge's softmin of the exact
losses) is a diagnostic, available only with ``diagnostics=True``. ``run``'s :class:`ExpertsRun` is the caller's own
evaluation of the play on the losses it holds (regret, best expert), not a release of the learner.
:meth:`ExpertsLearner.release` is exactly what the claim covers; the learner object (and a pickle of it) holds the
exact losses the algorithm runs on — the owner's private file, like a checkpoint (issue 26 item 4).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import numpy as np

from .._random import SeedLike, as_generator
from ..errors import LittlestoneError
from ..online.river_compat import CloneFromParams
from ..privacy.accountant_link import ChargedPerGame, resolve_accountant
from ..privacy.exponential import inverse_cdf_rows as sample_rows  # noqa: F401 (the one two-level sampler)
from ..privacy.mechanism import PrivacyClaim  # the one claim type (ε, δ, relation); re-exported here

RELATION = "replace-one-round"


def check_n_experts(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise LittlestoneError(f"number of experts must be an integer >= 1, got {n!r}")
    return int(n)


def check_horizon(T: Any) -> int:
    """The time horizon must be known in advance (LWY25 §5 'Unknown horizon'): a positive integer."""
    if T is None:
        raise LittlestoneError(
            "the time horizon T must be given in advance (these learners tune their rates and "
            "noise to T; use a doubling trick over known horizons for an unknown one)"
        )
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 1:
        raise LittlestoneError(f"time horizon T must be an integer >= 1, got {T!r}")
    return int(T)


def check_loss_vector(loss: Any, n: int) -> np.ndarray:
    try:
        v = np.asarray(loss, dtype=float)
    except (TypeError, ValueError):
        raise LittlestoneError("a loss vector must be numeric") from None
    if v.shape != (n,):
        raise LittlestoneError(f"a loss vector must have shape ({n},) (one loss per expert), got {v.shape}")
    if not np.all((v >= 0.0) & (v <= 1.0)):
        raise LittlestoneError("losses must lie in [0, 1] (NaN or out-of-range entries found)")
    return v


def iter_loss_chunks(losses: Any, n: int) -> Iterator[np.ndarray]:
    """(k × N) float chunks of a loss matrix given as an array or an iterable of chunks, each checked."""
    if isinstance(losses, np.ndarray) or (
        isinstance(losses, (list, tuple))
        and losses
        and np.isscalar(np.asarray(losses[0]).ravel()[0])
        and np.ndim(losses[0]) == 1
    ):
        chunks: Iterable[Any] = [losses]
    else:
        chunks = losses
    for chunk in chunks:
        c = np.asarray(chunk, dtype=float)
        if c.ndim != 2 or c.shape[1] != n:
            raise LittlestoneError(f"loss chunks must be 2-D arrays with {n} columns (one per expert), got {c.shape}")
        if not np.all((c >= 0.0) & (c <= 1.0)):
            raise LittlestoneError("losses must lie in [0, 1] (NaN or out-of-range entries found)")
        yield c


@dataclass(frozen=True)
class ExpertsRun:
    """Outcome of a run: choices i_t, realized loss Σ ℓ_t(i_t), expected loss Σ ⟨p_t, ℓ_t⟩, best expert's loss."""

    choices: np.ndarray
    realized_loss: float
    expected_loss: float
    best_loss: float
    best_expert: int
    rounds: int

    @property
    def regret(self) -> float:
        """Realized regret Σ ℓ_t(i_t) − min_i Σ ℓ_t(i)."""
        return self.realized_loss - self.best_loss

    @property
    def expected_regret(self) -> float:
        """Σ ⟨p_t, ℓ_t⟩ − min_i Σ ℓ_t(i) (the quantity the regret bounds control, given the noise)."""
        return self.expected_loss - self.best_loss


class ExpertsLearner(ChargedPerGame, CloneFromParams, ABC):
    """Common machinery: horizon, round counter, sampling rng from the caller's seed. A private learner reads its
    data only through mechanism objects; its exact cumulative losses stay in ``_cumulative``."""

    private: bool = False
    #: private learners: charged their privacy() at the first learn_one / run (None = the default accountant)
    accountant: Any = None
    _charged: bool = False

    def __init__(self, n_experts: int, horizon: int, *, seed: SeedLike = None, diagnostics: bool = False):
        self.n_experts = check_n_experts(n_experts)
        self.horizon = check_horizon(horizon)
        self._seed = seed
        self.diagnostics = bool(diagnostics)
        self.t = 0
        self._choice: int | None = None

    # ------------------------------------------------------------------ hooks
    @abstractmethod
    def _distribution(self) -> np.ndarray:
        """p_t: the distribution over experts this round's play follows (internal: may be a function of exact
        losses in a private learner, whose draw then goes through a mechanism object)."""

    def distribution(self) -> np.ndarray:
        """p_t, as far as the learner may release it: a non-private learner's (and a private learner's whose p_t is
        computed from mechanism outputs) is the distribution played; see the private learners for theirs."""
        return self._distribution()

    def _diagnostic(self, what: str) -> None:
        """Refuse a diagnostic (a function of exact private data) unless the learner was built with diagnostics=True."""
        if not self.diagnostics:
            raise LittlestoneError(
                f"{type(self).__name__}.{what} is a function of the exact (private) losses, which the privacy claim "
                "does not cover: it is a diagnostic, available only with diagnostics=True"
            )

    @abstractmethod
    def _update(self, loss: np.ndarray) -> None:
        """Consume ℓ_t (validated)."""

    def _sample(self, p: np.ndarray) -> int:
        return int(min(np.searchsorted(np.cumsum(p), self._rng.random() * p.sum(), side="right"), p.size - 1))

    # ------------------------------------------------------------------ public API
    def predict_one(self) -> int:
        """The expert followed in round t+1 (sampled once per round; repeated calls return the same index)."""
        if self.t >= self.horizon:
            raise LittlestoneError(f"the horizon T={self.horizon} is exhausted")
        if self._choice is None:
            self._choice = self._sample(self._distribution())
        return self._choice

    def _charge_accountant(self) -> None:
        """A private learner's whole claim, charged before its first loss is read (BudgetExceededError if it does
        not fit: nothing read, nothing spent)."""
        if self.private:
            from ..privacy.accountant import charge_fit

            charge_fit(resolve_accountant(self), self.privacy(), f"{type(self).__name__} (T={self.horizon})")
        self._charged = True

    def learn_one(self, loss: Any) -> None:
        """Observe the loss vector of the current round (returns None, river's convention)."""
        if not self._charged:
            self._charge_accountant()
        if self.t >= self.horizon:
            raise LittlestoneError(f"the horizon T={self.horizon} is exhausted")
        v = check_loss_vector(loss, self.n_experts)
        self._update(v)
        self.t += 1
        self._choice = None

    def run(self, losses: Any) -> ExpertsRun:
        """Play every round of ``losses`` (T × N array or iterable of chunks); vectorized where the learner allows."""
        if not self._charged:
            self._charge_accountant()
        choices, realized, expected = [], 0.0, 0.0
        cum = np.zeros(self.n_experts)
        for chunk in iter_loss_chunks(losses, self.n_experts):
            if self.t + chunk.shape[0] > self.horizon:
                raise LittlestoneError(f"{self.t + chunk.shape[0]} rounds given for a horizon of T={self.horizon}")
            c, r, e = self._run_chunk(chunk)
            choices.append(c)
            realized += r
            expected += e
            cum += chunk.sum(axis=0)
        ch = np.concatenate(choices) if choices else np.zeros(0, dtype=np.int64)
        best = int(np.argmin(cum))
        return ExpertsRun(ch, realized, expected, float(cum[best]), best, int(ch.size))

    def _run_chunk(self, chunk: np.ndarray) -> tuple[np.ndarray, float, float]:
        out = np.empty(chunk.shape[0], dtype=np.int64)
        realized = expected = 0.0
        for k in range(chunk.shape[0]):
            p = self._distribution()
            i = self._sample(p)
            out[k] = i
            realized += chunk[k, i]
            expected += float(p @ chunk[k]) / float(p.sum())
            self._update(chunk[k])
            self.t += 1
        self._choice = None
        return out, realized, expected

    @abstractmethod
    def regret_bound(self) -> float:
        """A bound on the expected regret after ``horizon`` rounds (formula in the class docstring)."""

    def privacy(self) -> PrivacyClaim | None:
        """The privacy claim (None for a non-private learner)."""
        return None

    #: public scalar parameters shown by :meth:`release` (those a learner has)
    RELEASED_PARAMETERS = ("n_experts", "horizon", "epsilon", "delta", "eta", "batch", "block", "grid", "discrete")

    def release(self) -> dict[str, Any]:
        """Exactly what the privacy claim covers (issue 26 item 4): the public parameters, the rounds played, the
        distribution the learner releases (:meth:`_released_distribution`; None when it releases only the expert
        drawn each round, which ``predict_one`` showed) and the claim — never the exact losses, whatever
        ``diagnostics`` says. The learner object and its pickle hold the exact cumulative losses the algorithm runs
        on: the owner's private file, not a release."""
        return {
            "learner": type(self).__name__,
            "parameters": {k: getattr(self, k) for k in self.RELEASED_PARAMETERS if hasattr(self, k)},
            "rounds": self.t,
            "distribution": self._released_distribution(),
            "privacy": self.privacy(),
        }

    def _released_distribution(self) -> np.ndarray | None:
        """The distribution this learner releases as it is: a non-private learner's p_t; a private learner's only
        where p_t is computed from mechanism outputs (the subclass says so), else None."""
        return None if self.private else self._distribution()


class Workspace:
    """Scratch arrays reused from chunk to chunk (fresh multi-MB arrays cost a page fault per 4 KiB on first touch)."""

    def __init__(self) -> None:
        self._arrays: dict[str, np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
        a = self._arrays.get(name)
        if a is None or a.shape != shape or a.dtype != np.dtype(dtype):
            a = self._arrays[name] = np.empty(shape, dtype=dtype)
        return a


def prefix_rows(chunk: np.ndarray, start: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Inclusive running sums start + chunk[0] + … + chunk[r] for every row r, row by row: k vectorized adds over
    contiguous rows, several times faster than ``np.cumsum(axis=0)``'s strided pass on wide chunks."""
    if out is None:
        out = np.empty(chunk.shape, dtype=np.result_type(chunk, start))
    if chunk.shape[0]:
        np.add(start, chunk[0], out=out[0])
        for r in range(1, chunk.shape[0]):
            np.add(out[r - 1], chunk[r], out=out[r])
    return out


def softmin(L: np.ndarray, eta: float) -> np.ndarray:
    """p(i) ∝ exp(−η L(i)) (stable)."""
    z = -eta * (L - L.min())
    w = np.exp(z)
    return w / w.sum()


def softmin_rows(Lrows: np.ndarray, eta: float, out: np.ndarray) -> np.ndarray:
    """Row-wise p ∝ exp(−η L) into the float32 array ``out`` (``Lrows`` is overwritten): shift by the row minimum
    in float64, then scale and exp in float32 (vectorized exp; the weights only need relative accuracy)."""
    Lrows -= Lrows.min(axis=1, keepdims=True)
    np.multiply(Lrows, -eta, out=out, casting="same_kind")
    np.exp(out, out=out)
    out /= out.sum(axis=1, keepdims=True)
    return out


def expected_losses(P: np.ndarray, chunk: np.ndarray, scratch: np.ndarray) -> float:
    """Σ_r ⟨p_r, ℓ_r⟩ (row dot products in float32 via ``scratch``, summed in float64)."""
    np.copyto(scratch, chunk, casting="same_kind")
    return float(np.einsum("ij,ij->i", P, scratch).sum(dtype=np.float64))


def exponential_weights_chunk(learner: Any, chunk: np.ndarray) -> tuple[np.ndarray, float, float]:
    """k rounds of exponential weights at once (``learner`` has ``_cumulative``, ``eta``, ``_ws``, ``_rng``, ``t``):
    prefix sums of the chunk give every L_{t-1}; row-wise softmin; inverse-CDF sampling. Returns the choices, the
    realized loss and the expected loss, and advances the learner by k rounds."""
    k, n = chunk.shape
    ws = learner._ws
    incl = prefix_rows(chunk, learner._cumulative, out=ws.get("L", (k, n), np.float64))
    last = incl[-1].copy()
    incl -= chunk  # L_{t-1} for every round of the chunk
    P = softmin_rows(incl, learner.eta, ws.get("P", (k, n), np.float32))
    expected = expected_losses(P, chunk, ws.get("S", (k, n), np.float32))
    choices = sample_rows(P, learner._rng.random(k)).astype(np.int64)
    realized = float(chunk[np.arange(k), choices].sum())
    learner._cumulative = last
    learner.t += k
    learner._choice = None
    return choices, realized, expected


def hedge_regret(n: int, T: int, eta: float) -> float:
    """Hedge's regret bound ln N/η + ηT/8 for losses in [0,1] (Cesa-Bianchi–Lugosi 2006 Thm 2.2)."""
    return math.log(n) / eta + eta * T / 8.0


def sampling_rng(seed: SeedLike) -> np.random.Generator:
    return as_generator(seed)
