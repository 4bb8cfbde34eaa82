"""Toy mechanisms with exactly known privacy loss, used to validate the auditor itself (no library mechanism)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RandomizedResponse:
    """Warner's randomized response on one bit: keep it w.p. e^ε/(1+e^ε); exactly ε-DP (Kal-LN, DP examples)."""

    epsilon: float

    def __call__(self, bit: int, rng: np.random.Generator) -> int:
        keep = rng.random() < math.exp(self.epsilon) / (1.0 + math.exp(self.epsilon))
        return int(bit) if keep else 1 - int(bit)

    def batch(self, bit: int, rng: np.random.Generator, size: int) -> np.ndarray:
        keep = rng.random(size) < math.exp(self.epsilon) / (1.0 + math.exp(self.epsilon))
        return np.where(keep, int(bit), 1 - int(bit))


@dataclass(frozen=True)
class LaplaceCount:
    """Count of ones plus Laplace(scale/ε) noise; ε-DP for replace-one neighbours when scale ≥ 1 (Dwork–Roth Thm 3.6)."""

    epsilon: float
    scale: float = 1.0

    def __call__(self, data, rng: np.random.Generator) -> float:
        return float(np.sum(data)) + float(rng.laplace(0.0, self.scale / self.epsilon))

    def batch(self, data, rng: np.random.Generator, size: int) -> np.ndarray:
        return float(np.sum(data)) + rng.laplace(0.0, self.scale / self.epsilon, size)
