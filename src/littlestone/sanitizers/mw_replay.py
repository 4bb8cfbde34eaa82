"""Measurement reuse for MWEM (HLM12 §3, "improvements"): multiplicative-weights updates replayed over every past
noisy measurement, on the atoms of the selected queries — post-processing of released values only.

Every update multiplies A(x) by a factor that depends on x only through the rows of the queries selected so far,
and A_0 is uniform, so A is constant on the *atoms* (the cells where all selected rows agree). The state is one mass
per atom: a query's answer on A is its 0/1 row over the atoms times the masses, an update rescales masses, and a
sweep over t measurements costs O(t · #atoms) instead of O(t · |X|) (thresholds: #atoms ≤ t + 1).
"""

from __future__ import annotations

import numpy as np


class AtomReplay:
    """Synthetic histogram of total ``n`` over ``domain_size`` points, kept as masses on atoms; measurements logged.

    ``add(row, m)`` refines the atoms by a selected query's 0/1 ``row`` over X and logs its noisy measurement ``m``;
    ``update(i)`` is MWEM's step on logged measurement i, A ∝ A·exp(q_i(m_i − q_i(A))/2n); ``sweep()`` runs it for
    every logged measurement in order; ``histogram()`` is A over X.
    """

    def __init__(self, domain_size: int, n: int):
        self.n = float(n)
        self.label = np.zeros(domain_size, dtype=np.int64)  # atom of each point
        self.size = np.array([domain_size], dtype=np.int64)  # points per atom
        self.mass = np.array([self.n])  # A's total on each atom
        self.rows = np.zeros((0, 1))  # logged queries' rows over the atoms
        self.measurements: list[float] = []

    def histogram(self) -> np.ndarray:
        return (self.mass / self.size)[self.label]

    def add(self, row: np.ndarray, m: float) -> None:
        key = self.label * 2 + np.asarray(row, dtype=np.int64)
        atoms, self.label = np.unique(key, return_inverse=True)
        parent = atoms // 2
        size = np.bincount(self.label, minlength=atoms.size)
        self.mass = self.mass[parent] * size / self.size[parent]  # A is uniform inside each old atom
        self.size = size
        self.rows = np.vstack([self.rows[:, parent], (atoms % 2).astype(float)])
        self.measurements.append(float(m))

    def update(self, i: int) -> None:
        r = self.rows[i]
        self.mass = self.mass * np.exp(r * (self.measurements[i] - float(r @ self.mass)) / (2.0 * self.n))
        self.mass *= self.n / self.mass.sum()

    def sweep(self) -> None:
        for i in range(len(self.measurements)):
            self.update(i)
