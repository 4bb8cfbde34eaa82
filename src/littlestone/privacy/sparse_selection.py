"""Private sparse selection with ⊥ (GKM20 Lemma 36 as used by GGKM21 Prop 5.6; sparse exponential mechanism of
Lyu 2025 Lemma 3.1)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np

from ..errors import EmptyDataError, PrivacyParameterError
from .backends import Backend, check_backend
from .budget import PrivacyBudget
from .mechanism import Mechanism, PrivacyClaim
from .params import check_delta, check_epsilon, check_probability


class _Bottom:
    """⊥: the 'no element' output of sparse selection (an ordinary, expected output)."""

    _instance: "_Bottom | None" = None

    def __new__(cls) -> "_Bottom":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "BOTTOM"

    def __reduce__(self) -> str:
        return "BOTTOM"


BOTTOM = _Bottom()


def _check_list_size(max_list_size: Any) -> int:
    if isinstance(max_list_size, bool) or not isinstance(max_list_size, (int, np.integer)) or int(max_list_size) < 1:
        raise PrivacyParameterError(f"max_list_size (s) must be an integer >= 1, got {max_list_size!r}")
    return int(max_list_size)


def _check_count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) < 1:
        raise PrivacyParameterError(f"{name} must be an integer >= 1, got {value!r}")
    return int(value)


def sparse_selection_bottom_score(epsilon: float, delta: float, max_list_size: int) -> float:
    """The ⊥ score B = max(10·ln(s/δ)/ε_s, 1 + ln(s·(1 + e^{ε_s})/δ)/ε_s), ε_s = ε/2.

    The first term is the spec's (§2, Lyu 2025 Lemma 3.1: (2ε_s, δ)-DP when every list has ≤ s elements), which
    tacitly assumes a small ε: at ε = 20, δ = 0.5, s = 1 it gives B ≈ 0.69 and a lone user's element is output with
    probability 0.96 > δ. The second term makes the guarantee hold for every ε (our derivation, replace-one-list
    neighbours D, D'; W = e^{ε_s B} the ⊥ weight): an element held in both inputs, and ⊥, has weight ratio ≤ e^{ε_s};
    the ≤ s elements held only in D' (count 1) add ≤ s·e^{ε_s} to the normaliser, so Z' ≤ e^{ε_s}·Z·(1 + s/W); the ≤ s
    elements held only in D have total probability ≤ s·e^{ε_s}/W. Hence P_D[O] ≤ e^{2ε_s}P_D'[O] + s·e^{ε_s}(e^{ε_s}+1)/W,
    and s·e^{ε_s}(1 + e^{ε_s})·e^{-ε_s B} ≤ δ is exactly the second term."""
    eps_s = check_epsilon(epsilon) / 2.0
    dlt = check_delta(delta, positive=True)
    s = _check_list_size(max_list_size)
    spec = 10.0 * math.log(s / dlt) / eps_s
    # ln(1 + e^{ε_s}) computed without overflow for large ε_s
    safe = 1.0 + (math.log(s / dlt) + np.logaddexp(0.0, eps_s)) / eps_s
    return max(spec, float(safe))


def sparse_selection_error_bound(m: int, max_list_size: int, epsilon: float, delta: float, beta: float) -> float:
    """B + τ with τ = ln((m·s+1)/β)/ε_s: w.p. ≥ 1-β the output's count is ≥ OPT - (B + τ) (⊥ counts 0) (GKM20 Lemma 36).
    (m users; the union of the lists has ≤ m·s elements, plus ⊥.)"""
    eps_s = check_epsilon(epsilon) / 2.0
    users = _check_count(m, "number of users m")
    s = _check_list_size(max_list_size)
    tau = math.log((users * s + 1) / check_probability(beta)) / eps_s
    return sparse_selection_bottom_score(epsilon, delta, s) + tau


def _user_lists(lists: Any) -> list[list[Hashable]]:
    if isinstance(lists, (str, bytes)):
        raise PrivacyParameterError("sparse_selection: lists must be a sequence of lists (one per user), not a string")
    try:
        users = []
        for i, lst in enumerate(lists):
            if isinstance(lst, (str, bytes)):
                raise PrivacyParameterError(
                    f"sparse_selection: user {i}'s list is a string {lst!r}; wrap it as [{lst!r}] if it is one element"
                )
            users.append(list(dict.fromkeys(lst)))  # deduplicated, first-appearance order (reproducible)
    except TypeError as exc:
        raise PrivacyParameterError(f"sparse_selection: lists must be iterables of hashable elements ({exc})") from None
    if not users:
        raise EmptyDataError("sparse_selection: no lists given (at least one user is needed)")
    return users


def _canonical(element: Hashable) -> tuple[str, str]:
    return (type(element).__name__, repr(element))


def _truncated(users: list[list[Hashable]], s: int) -> list[list[Hashable]]:
    """Every list cut to at most s elements: the s first in a canonical order (type name, repr) — a function of that
    user's list alone, so neighbours (one user's list replaced) stay neighbours and nothing depends on the others.
    (Refusing an over-long list instead would be an exception that depends on the private data.)"""
    return [u if len(u) <= s else sorted(u, key=_canonical)[:s] for u in users]


def sparse_selection_probabilities(
    lists: Iterable[Iterable[Hashable]], epsilon: float, delta: float, max_list_size: int
) -> dict[Any, float]:
    """The exact output law of :func:`sparse_selection` (element or ``BOTTOM`` -> probability), for tests/analysis."""
    eps_s = check_epsilon(epsilon) / 2.0
    s = _check_list_size(max_list_size)
    users = _truncated(_user_lists(lists), s)
    bottom = sparse_selection_bottom_score(epsilon, delta, s)
    counts: Counter = Counter()
    for u in users:
        counts.update(u)
    keys = list(counts) + [BOTTOM]
    logits = eps_s * np.array([float(counts[k]) for k in keys[:-1]] + [bottom])
    w = np.exp(logits - logits.max())
    return dict(zip(keys, (w / w.sum()).tolist()))


class SparseSelection(Mechanism):
    """(ε, δ)-DP choice of an element held by many users, or ``BOTTOM`` (GKM20 Lemma 36); ``data`` are the users'
    lists and neighbours replace one user's whole list.

    Each list is deduplicated; u is output w.p. ∝ exp(ε_s·c(u)) (c(u) = number of lists holding u), ⊥ w.p.
    ∝ exp(ε_s·B), with ε_s = ε/2 and B from :func:`sparse_selection_bottom_score` (Gumbel-max over the present
    elements and ⊥; elements held by nobody are never output); (ε, δ)-DP for every ε > 0 and 0 < δ < 1.
    ``max_list_size`` = s must not be computed from the data; a longer list is cut to its s first elements in a
    canonical order (never an error: that would depend on the private data)."""

    name = "sparse selection"

    def __init__(self, epsilon: float, delta: float, max_list_size: int):
        self.epsilon = check_epsilon(epsilon)
        self.delta = check_delta(delta, positive=True)
        self.max_list_size = _check_list_size(max_list_size)
        self.bottom_score = sparse_selection_bottom_score(self.epsilon, self.delta, self.max_list_size)

    def privacy(self) -> PrivacyClaim:
        return PrivacyClaim(self.epsilon, self.delta, "replace-one-user", self.name)

    def counts(self, data: Iterable[Iterable[Hashable]]) -> Counter:
        """c(u) for every element u held by a user (lists deduplicated and cut to s elements)."""
        counts: Counter = Counter()
        for u in _truncated(_user_lists(data), self.max_list_size):
            counts.update(u)
        return counts

    def __call__(self, data: Iterable[Iterable[Hashable]], *, backend: Any, budget: PrivacyBudget | None = None) -> Any:
        backend = check_backend(backend)
        counts = self.counts(data)
        self.charge_to(budget)
        keys = list(counts.keys())
        scores = [float(counts[k]) for k in keys] + [self.bottom_score]
        # P(i) ∝ exp(score_i/scale) with scale = 1/ε_s, i.e. exp(ε_s·c(u)) and exp(ε_s·B) for ⊥.
        idx = backend.noisy_argmax(scores, 2.0 / self.epsilon, "gumbel")
        return BOTTOM if idx == len(keys) else keys[idx]


def sparse_selection(
    lists: Iterable[Iterable[Hashable]],
    epsilon: float,
    delta: float,
    *,
    backend: Backend,
    budget: PrivacyBudget | None = None,
    max_list_size: int,
) -> Any:
    """(ε, δ)-DP choice of an element held by many users, or ``BOTTOM``; neighbours replace one user's whole list
    (:class:`SparseSelection`). Charges (ε, δ). ``max_list_size`` = s is required and must not be computed from the
    data; a longer list is cut to its s first elements in a canonical order (never an error: that would depend on
    the private data)."""
    return SparseSelection(epsilon, delta, max_list_size)(lists, backend=backend, budget=budget)
