"""Counting-query families of a hypothesis class over a finite domain: the queries a sanitizer answers.

A query is a hypothesis h; on a histogram w over the domain its answer is Σ_x w(x)·h(x) (P̂_S(h)·n on the data
histogram, LWY25 §2.3). Families evaluate all answers at once: an explicit class by a matrix product, a structured
class by its counting closed form (thresholds: a reversed cumulative sum, 2¹⁶ points and 2¹⁶+1 queries in O(|X|);
points: the weights themselves), H^label from its base family
(h^label(x, y) = h(x) ⊕ y, domain index y·|X| + x).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from ..classes import FiniteClass, HypothesisClass, LabelClass, to_finite
from ..classes.base import CountingForm, Hypothesis
from ..errors import DomainError, LittlestoneError


class QueryFamily(ABC):
    """|Q| queries over a domain of ``domain_size`` points (indices 0..|X|−1)."""

    size: int
    domain_size: int

    @abstractmethod
    def answers(self, w: np.ndarray) -> np.ndarray:
        """All Σ_x w(x) q_j(x), j = 0..|Q|−1."""

    @abstractmethod
    def row(self, j: int) -> np.ndarray:
        """q_j as a 0/1 float vector over the domain."""

    @abstractmethod
    def hypothesis(self, j: int) -> Hypothesis:
        """q_j as a hypothesis of the class."""

    @abstractmethod
    def index_points(self, X: Any) -> np.ndarray:
        """Domain indices of data points (DomainError for a point outside the domain)."""

    @abstractmethod
    def point(self, i: int) -> Any:
        """The domain point of index i."""

    def columns(self, idx: np.ndarray) -> np.ndarray:
        """(len(idx) × |Q|) values q_j(x) at the domain points of the given indices."""
        return (
            np.stack([np.array([self.row(j)[i] for j in range(self.size)]) for i in idx])
            if len(idx)
            else np.zeros((0, self.size))
        )

    def histogram(self, X: Any) -> np.ndarray:
        idx = self.index_points(X)
        return np.bincount(idx, minlength=self.domain_size).astype(float)


class MatrixQueries(QueryFamily):
    """An explicit finite class: rows of its matrix."""

    def __init__(self, F: FiniteClass):
        self.F = F
        self.M = F.matrix.astype(float)
        self.size, self.domain_size = self.M.shape

    def answers(self, w: np.ndarray) -> np.ndarray:
        return self.M @ w

    def row(self, j: int) -> np.ndarray:
        return self.M[j]

    def hypothesis(self, j: int) -> Hypothesis:
        return self.F.hypothesis(j)

    def columns(self, idx: np.ndarray) -> np.ndarray:
        return self.M[:, np.asarray(idx, dtype=np.int64)].T

    def index_points(self, X: Any) -> np.ndarray:
        return self.F.domain.indices(X)

    def point(self, i: int) -> Any:
        return self.F.domain.points[i]


class ClosedFormQueries(QueryFamily):
    """A structured class through its :meth:`~littlestone.classes.base.HypothesisClass.counting_closed_form`
    (e.g. thresholds: all answers by one reversed cumulative sum, 2¹⁶ points and 2¹⁶+1 queries in O(|X|))."""

    def __init__(self, H: HypothesisClass, form: CountingForm):
        self.H = H
        self.form = form
        self.size, self.domain_size = int(form.size), int(form.domain_size)

    def answers(self, w: np.ndarray) -> np.ndarray:
        return self.form.answers(w)

    def row(self, j: int) -> np.ndarray:
        return self.form.row(int(j))

    def hypothesis(self, j: int) -> Hypothesis:
        return self.form.hypothesis(int(j))

    def columns(self, idx: np.ndarray) -> np.ndarray:
        return self.form.columns(np.asarray(idx, dtype=np.int64))

    def index_points(self, X: Any) -> np.ndarray:
        return self.form.index_points(X)

    def point(self, i: int) -> Any:
        return self.form.point(int(i))


class LabelQueries(QueryFamily):
    """H^label from the family of H: domain index of (x, y) is y·|X| + index(x)."""

    def __init__(self, base: QueryFamily, H: LabelClass):
        self.base = base
        self.H = H
        self.size = base.size
        self.domain_size = 2 * base.domain_size

    def answers(self, w: np.ndarray) -> np.ndarray:
        n = self.base.domain_size
        w0, w1 = w[:n], w[n:]
        return self.base.answers(w0) + (w1.sum() - self.base.answers(w1))

    def row(self, j: int) -> np.ndarray:
        r = self.base.row(j)
        return np.concatenate([r, 1.0 - r])

    def hypothesis(self, j: int) -> Hypothesis:
        return self.H.hypothesis_of(self.base.hypothesis(j))

    def index_points(self, X: Any) -> np.ndarray:
        arr = np.asarray(X, dtype=object) if not isinstance(X, np.ndarray) else X
        if isinstance(arr, np.ndarray) and arr.ndim == 2 and arr.shape[1] == 2 and arr.dtype.kind in "iu":
            xs, ys = arr[:, 0], arr[:, 1]
        else:
            pairs = list(X)
            if not all(isinstance(p, (tuple, list, np.ndarray)) and len(p) == 2 for p in pairs):
                raise DomainError("labelled data for an H^label sanitizer must be pairs (x, y)")
            xs = [p[0] for p in pairs]
            ys = np.asarray([p[1] for p in pairs])
        ys = np.asarray(ys)
        if ys.size and not np.all((ys == 0) | (ys == 1)):
            raise DomainError("labels of the data must be 0 or 1")
        return self.base.index_points(xs) + self.base.domain_size * ys.astype(np.int64)

    def point(self, i: int) -> Any:
        n = self.base.domain_size
        return (self.base.point(i % n), int(i // n))


def query_family(H: HypothesisClass) -> QueryFamily:
    """The query family of a class with a finite domain (H^label from its base; the class's counting closed form
    when it has one; else the explicit twin's matrix)."""
    if isinstance(H, LabelClass):
        return LabelQueries(query_family(H.base), H)
    if isinstance(H, FiniteClass):
        return MatrixQueries(H)
    form = H.counting_closed_form()
    if form is not None:
        return ClosedFormQueries(H, form)
    if H.domain_size == float("inf"):
        raise LittlestoneError(f"{H.name} has an infinite domain: these sanitizers need a finite one")
    return MatrixQueries(to_finite(H))
