"""Private sparse selection with ⊥ (GKM20 Lemma 36 as used by seed 002 Prop 5.6; sparse exponential mechanism of
Lyu 2025 Lemma 3.1; spec §2)."""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Hashable, Iterable
from typing import Any

from ..errors import EmptyDataError, PrivacyParameterError
from .backends import Backend, check_backend
from .budget import PrivacyBudget, charge_if
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


class DataDependentParameterWarning(UserWarning):
    """A privacy parameter was derived from the data; the guarantee then only covers neighbours sharing it."""


def sparse_selection_bottom_score(epsilon: float, delta: float, max_list_size: int) -> float:
    """B = 10·ln(s/δ)/ε_s with ε_s = ε/2 (Lyu 2025 Lemma 3.1: (2ε_s, δ)-DP when every list has ≤ s elements)."""
    eps_s = check_epsilon(epsilon) / 2.0
    return 10.0 * math.log(max(int(max_list_size), 1) / check_delta(delta, positive=True)) / eps_s


def sparse_selection_error_bound(m: int, max_list_size: int, epsilon: float, delta: float, beta: float) -> float:
    """B + τ with τ = ln((m·s+1)/β)/ε_s: w.p. ≥ 1-β the output's count is ≥ OPT - (B + τ) (⊥ counts 0) (spec §2)."""
    eps_s = check_epsilon(epsilon) / 2.0
    tau = math.log((int(m) * int(max_list_size) + 1) / check_probability(beta)) / eps_s
    return sparse_selection_bottom_score(epsilon, delta, max_list_size) + tau


def sparse_selection(
    lists: Iterable[Iterable[Hashable]],
    epsilon: float,
    delta: float,
    *,
    backend: Backend,
    budget: PrivacyBudget | None = None,
    max_list_size: int | None = None,
) -> Any:
    """(ε, δ)-DP choice of an element held by many users, or ``BOTTOM``; neighbours replace one user's whole list.

    Each list is deduplicated; u is output w.p. ∝ exp(ε_s·c(u)) (c(u) = number of lists holding u), ⊥ w.p.
    ∝ exp(ε_s·B), with ε_s = ε/2 and B from :func:`sparse_selection_bottom_score` (Gumbel-max over the present
    elements and ⊥; elements held by nobody are never output). ``max_list_size`` = s must bound every list a
    neighbouring input could hold; pass it (data-independent). If omitted, the largest list is used and a
    DataDependentParameterWarning is emitted."""
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta, positive=True)
    backend = check_backend(backend)
    try:
        users = [list(dict.fromkeys(lst)) for lst in lists]  # deduplicated, first-appearance order (reproducible)
    except TypeError as exc:
        raise PrivacyParameterError(f"sparse_selection: lists must be iterables of hashable elements ({exc})") from None
    if not users:
        raise EmptyDataError("sparse_selection: no lists given (at least one user is needed)")
    largest = max(len(u) for u in users)
    if max_list_size is None:
        warnings.warn(
            "sparse_selection: max_list_size not given, using the largest list; pass a data-independent bound",
            DataDependentParameterWarning,
            stacklevel=2,
        )
        s = max(largest, 1)
    else:
        s = int(max_list_size)
        if s < 1:
            raise PrivacyParameterError(f"max_list_size must be >= 1, got {max_list_size!r}")
        if largest > s:
            raise PrivacyParameterError(f"a list has {largest} distinct elements, more than max_list_size={s}")
    bottom_score = sparse_selection_bottom_score(eps, dlt, s)
    charge_if(budget, eps, dlt, "sparse selection")
    counts: Counter = Counter()
    for u in users:
        counts.update(u)
    keys = list(counts.keys())
    scores = [float(counts[k]) for k in keys] + [bottom_score]
    # P(i) ∝ exp(score_i/scale) with scale = 1/ε_s, i.e. exp(ε_s·c(u)) and exp(ε_s·B) for ⊥.
    idx = backend.noisy_argmax(scores, 2.0 / eps, "gumbel")
    return BOTTOM if idx == len(keys) else keys[idx]
