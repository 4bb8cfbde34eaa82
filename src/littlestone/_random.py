"""One source of randomness: every random choice flows from a caller-given seed / Generator / SeedSequence."""

from __future__ import annotations

from typing import Union

import numpy as np

SeedLike = Union[None, int, np.random.SeedSequence, np.random.Generator]


def as_generator(seed: SeedLike = None) -> np.random.Generator:
    """A numpy Generator from an int, SeedSequence, Generator (returned as is) or None (fresh entropy)."""
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, (np.random.SeedSequence, int, np.integer)) or seed is None:
        return np.random.default_rng(seed)
    raise TypeError(f"seed must be None, an int, a SeedSequence or a numpy Generator, not {type(seed).__name__}")


def spawn_seeds(seed: SeedLike, n: int) -> list[np.random.SeedSequence]:
    """n independent child SeedSequences; the same seed gives the same children, whoever consumes them."""
    if isinstance(seed, np.random.Generator):
        ss = np.random.SeedSequence(int(seed.integers(0, 2**63 - 1)))
    elif isinstance(seed, np.random.SeedSequence):
        # a copy: SeedSequence.spawn advances a counter, and the same seed must give the same children every time
        ss = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size)
    else:
        ss = np.random.SeedSequence(None if seed is None else int(seed))
    return ss.spawn(n)
