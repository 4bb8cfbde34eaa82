"""Example sources: in-memory arrays or lazy, deterministic streams read by position (``batch(start, stop)``).

A source has ``__len__`` and ``batch(start, stop) -> (X, y)`` (labels 0/1, points validated). Lazy sources generate
block j from ``SeedSequence(seed, spawn_key=(j,))`` so any worker can produce any range, and the same seed gives the
same examples whatever the number of workers. :class:`Cursor` reads a range strictly in order and never re-uses an
example (the BLM20 learner's consumption discipline, BLM20 §IV-C).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np

from ..classes.base import Hypothesis, HypothesisClass
from ..errors import EmptyDataError, LittlestoneError


@runtime_checkable
class ExampleSource(Protocol):
    """A dataset of labelled examples addressed by position."""

    def __len__(self) -> int: ...

    def batch(self, start: int, stop: int) -> tuple[Any, np.ndarray]: ...


class ArraySource:
    """In-memory (or np.memmap) points and 0/1 labels; ``batch`` slices (no copy for arrays)."""

    def __init__(self, X: Any, y: Any):
        if len(X) != len(y):
            raise LittlestoneError(f"X has {len(X)} points but y has {len(y)} labels")
        if len(y) == 0:
            raise EmptyDataError("no examples given (empty data)")
        self.X = X
        self.y = np.asarray(y, dtype=np.int8)

    def __len__(self) -> int:
        return len(self.y)

    def batch(self, start: int, stop: int) -> tuple[Any, np.ndarray]:
        return self.X[start:stop], self.y[start:stop]

    def rows(self, indices: np.ndarray) -> tuple[Any, np.ndarray]:
        """The examples at ``indices`` (a secret subsample's records, read through its part)."""
        X = self.X[indices] if isinstance(self.X, np.ndarray) else [self.X[int(i)] for i in indices]
        return X, self.y[indices]


class UniformIntegers:
    """Point sampler: integers uniform on [low, high) (picklable, so joblib workers can regenerate blocks)."""

    def __init__(self, low: int, high: int):
        if high <= low:
            raise LittlestoneError(f"empty point range [{low}, {high})")
        self.low, self.high = int(low), int(high)

    def __call__(self, rng: np.random.Generator, size: int) -> np.ndarray:
        return rng.integers(self.low, self.high, size=size, dtype=np.int64)

    def __repr__(self) -> str:
        return f"UniformIntegers({self.low}, {self.high})"


class RealizableStream:
    """A lazy realizable sample of ``length`` examples: x ~ sampler, y = target(x), generated block by block.

    Nothing is materialized: ``batch(start, stop)`` generates only the blocks it touches and keeps the
    ``cache_blocks`` most recently used ones (the tournament peeks ahead, then reads on from inside what it peeked:
    no block is generated twice while it stays cached). Optional ``noise`` flips each label with that probability
    (an agnostic stream). A block's content depends only on (seed, its index): caching changes no example.
    """

    def __init__(
        self,
        target: Hypothesis,
        sampler: Callable[[np.random.Generator, int], Any],
        length: int,
        seed: int,
        *,
        block_size: int = 1 << 14,
        noise: float = 0.0,
        cache_blocks: int = 64,
    ):
        if int(length) < 1:
            raise EmptyDataError("a stream needs length ≥ 1")
        if not 0.0 <= noise < 1.0:
            raise LittlestoneError(f"label noise must lie in [0, 1), got {noise}")
        self.target, self.sampler = target, sampler
        self.length, self.seed, self.block_size, self.noise = int(length), int(seed), int(block_size), float(noise)
        self.cache_blocks = max(1, int(cache_blocks))
        self._cache: dict[int, tuple[Any, np.ndarray]] = {}

    def __len__(self) -> int:
        return self.length

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_cache"] = {}
        return state

    def __setstate__(self, state: dict) -> None:
        state.setdefault("cache_blocks", 64)
        if not isinstance(state.get("_cache"), dict):
            state["_cache"] = {}
        self.__dict__.update(state)

    def _block(self, j: int) -> tuple[Any, np.ndarray]:
        cache = self._cache
        got = cache.pop(j, None)
        if got is not None:
            cache[j] = got  # most recently used last
            return got
        rng = np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(j,)))
        size = min(self.block_size, self.length - j * self.block_size)
        X = self.sampler(rng, size)
        y = np.asarray(self.target.predict(X), dtype=np.int8)
        if self.noise > 0:
            y = y ^ (rng.random(size) < self.noise).astype(np.int8)
        if len(cache) >= self.cache_blocks:
            del cache[next(iter(cache))]  # least recently used
        cache[j] = (X, y)
        return X, y

    def batch(self, start: int, stop: int) -> tuple[Any, np.ndarray]:
        start, stop = max(0, int(start)), min(self.length, int(stop))
        if stop <= start:
            X0, y0 = self._block(0)
            return X0[:0], y0[:0]
        B = self.block_size
        j0 = start // B
        if (stop - 1) // B == j0:  # inside one block: views, no copy
            X, y = self._block(j0)
            return X[start - j0 * B : stop - j0 * B], y[start - j0 * B : stop - j0 * B]
        parts_X, parts_y = [], []
        for j in range(start // B, (stop - 1) // B + 1):
            X, y = self._block(j)
            lo, hi = max(start - j * B, 0), min(stop - j * B, len(y))
            parts_X.append(X[lo:hi])
            parts_y.append(y[lo:hi])
        if len(parts_y) == 1:
            return parts_X[0], parts_y[0]
        if isinstance(parts_X[0], np.ndarray):
            return np.concatenate(parts_X), np.concatenate(parts_y)
        return [x for p in parts_X for x in p], np.concatenate(parts_y)

    def __repr__(self) -> str:
        return f"RealizableStream(target={self.target!r}, sampler={self.sampler!r}, length={self.length:,})"


class ValidatedSource:
    """Wraps a user source: validates points through the class and checks labels are 0/1 on every read."""

    def __init__(self, source: ExampleSource, hclass: HypothesisClass):
        self.source, self.hclass = source, hclass

    def __len__(self) -> int:
        return len(self.source)

    def batch(self, start: int, stop: int) -> tuple[Any, np.ndarray]:
        return self._checked(*self.source.batch(start, stop))

    def rows(self, indices: np.ndarray) -> tuple[Any, np.ndarray]:
        from ..privacy.partition import read_rows

        return self._checked(*read_rows(self.source, indices))

    def _checked(self, X: Any, y: Any) -> tuple[Any, np.ndarray]:
        y = np.asarray(y)
        if y.size and not np.isin(y, (0, 1)).all():
            from ..errors import LabelError

            bad = y[~np.isin(y, (0, 1))][0]
            raise LabelError(f"source returned label {bad!r}; sources must give labels in {{0,1}}")
        return self.hclass.validate_points(X), y.astype(np.int8, copy=False)


class SampleCapExceeded(Exception):
    """Internal signal: D̃_k asked for more than N examples (the process outputs Fail)."""


@dataclass
class Cursor:
    """Reads source[start:stop] strictly in order; ``take`` never returns an example twice.

    ``cap`` bounds how many examples the current phase may draw (exceeding it raises :class:`SampleCapExceeded`);
    running past ``stop`` raises it too (the batch is exhausted).
    """

    source: ExampleSource
    start: int
    stop: int
    cap: int | None = None
    position: int = -1

    def __post_init__(self) -> None:
        if self.position < 0:
            self.position = self.start

    @property
    def used(self) -> int:
        return self.position - self.start

    def available(self) -> int:
        """How many examples may still be drawn (under the cap and inside the batch)."""
        left = self.stop - self.position
        return left if self.cap is None else min(left, self.cap - self.used)

    def peek(self, count: int) -> tuple[Any, np.ndarray]:
        """The next ``count`` examples without drawing them (the caller then draws a prefix with :meth:`skip`)."""
        if count > self.available():
            raise SampleCapExceeded(self.used + count)
        return self.source.batch(self.position, self.position + int(count))

    def skip(self, count: int) -> None:
        """Draw ``count`` examples already inspected with :meth:`peek`."""
        if count > self.available():
            raise SampleCapExceeded(self.used + count)
        self.position += int(count)

    def take(self, count: int) -> tuple[Any, np.ndarray]:
        new = self.position + int(count)
        if (self.cap is not None and new - self.start > self.cap) or new > self.stop:
            raise SampleCapExceeded(new - self.start)
        X, y = self.source.batch(self.position, new)
        self.position = new
        return X, y
