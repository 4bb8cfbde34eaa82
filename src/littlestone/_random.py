"""One source of randomness: every random choice flows from a caller-given seed / Generator / SeedSequence."""

from __future__ import annotations

from typing import Any, Sequence, Union, overload

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
    return _root(seed).spawn(n)


class ChildSeeds(Sequence[np.random.SeedSequence]):
    """``spawn_seeds(seed, n)`` built on demand: item i is the same child SeedSequence (same entropy, spawn key
    ``(…, i)`` and pool size), made when it is read. Building a child costs a few µs (its entropy pool is hashed), so
    a runner hands each worker the range of its chunk and the children are made there, in parallel, instead of all
    in the caller first (50 ms for BLM20's 12,578 batches at d = 2)."""

    def __init__(self, seed: SeedLike, n: int):
        root = _root(seed)
        self._entropy, self._key, self._pool, self._n = root.entropy, tuple(root.spawn_key), root.pool_size, int(n)

    def __len__(self) -> int:
        return self._n

    def _child(self, i: int) -> np.random.SeedSequence:
        return np.random.SeedSequence(self._entropy, spawn_key=(*self._key, i), pool_size=self._pool)

    @overload
    def __getitem__(self, i: int) -> np.random.SeedSequence: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[np.random.SeedSequence]: ...

    def __getitem__(self, i: int | slice) -> np.random.SeedSequence | Sequence[np.random.SeedSequence]:
        if isinstance(i, slice):
            return _ChildRange(self, range(self._n)[i])
        j = range(self._n)[i]  # IndexError and negative indices as for a list
        return self._child(j)


class _ChildRange(Sequence[np.random.SeedSequence]):
    """A slice of :class:`ChildSeeds` (still lazy: a few numbers to pickle, whatever its length)."""

    def __init__(self, seeds: ChildSeeds, r: range):
        self._seeds, self._range = seeds, r

    def __len__(self) -> int:
        return len(self._range)

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return _ChildRange(self._seeds, self._range[i])
        return self._seeds._child(self._range[i])


def _root(seed: SeedLike) -> np.random.SeedSequence:
    """The SeedSequence whose children :func:`spawn_seeds` hands out (a fresh copy: spawning advances a counter)."""
    if isinstance(seed, np.random.Generator):
        ss = np.random.SeedSequence(int(seed.integers(0, 2**63 - 1)))
    elif isinstance(seed, np.random.SeedSequence):
        # a copy: SeedSequence.spawn advances a counter, and the same seed must give the same children every time
        ss = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size)
    else:
        ss = np.random.SeedSequence(None if seed is None else int(seed))
    return ss
