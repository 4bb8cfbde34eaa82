"""The BLM20 tournament's level-1 path and SOA-state updates as they were before the fused kernel (NumPy per chunk,
``restrict_sample`` and ``soa()`` per block, a one-block stream cache) — the baseline of bench_blm20.py's throughput
table. ``installed()`` swaps them into littlestone.pac.tournament for the duration of a with-block."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

from littlestone.pac import tournament as T


def _draw_level1(hclass, V, cursor, n, rng, max_rounds):
    chunk, rounds = 4, 0
    while True:
        R = min(chunk, cursor.available() // (2 * n))
        if R <= 0:
            cursor.take(2 * n)
        if max_rounds is not None:
            R = min(R, max_rounds - rounds)
            if R <= 0:
                raise T._undefined(1, max_rounds)
        X, y = cursor.peek(2 * n * R)
        keys = T._block_keys(V, X, y, n, 2 * R)
        for r in range(R):
            k0, k1 = keys[2 * r], keys[2 * r + 1]
            if k0 == k1:
                continue
            a0 = cursor.position + 2 * n * r
            S0 = T.empty_sample(V).then(X[2 * n * r : 2 * n * r + n], y[2 * n * r : 2 * n * r + n], a0, a0 + n)
            S1 = T.empty_sample(V).then(
                X[2 * n * r + n : 2 * n * (r + 1)], y[2 * n * r + n : 2 * n * (r + 1)], a0 + n, a0 + 2 * n
            )
            f0, f1 = S0.state.hypothesis(), S1.state.hypothesis()
            if f0 == f1 or hclass.disagreement(f0, f1) is None:
                continue
            cursor.skip(2 * n * (r + 1))
            return T._contest(hclass, S0, S1, f0, f1, rng)
        cursor.skip(2 * n * R)
        rounds += R
        chunk = min(2 * chunk, 1 << 12)


def _hypothesis(self: Any) -> Any:
    h = self.V.soa()
    return h if self.realizable or not self.patches else T.canonical(T.patch(h, self.patches))


@contextlib.contextmanager
def installed() -> Iterator[None]:
    saved = (T._draw_level1, T._restrict, T.SOAState.hypothesis)
    T._draw_level1 = _draw_level1
    T._restrict = lambda V, X, y: V.restrict_sample(X, y)
    T.SOAState.hypothesis = _hypothesis
    try:
        yield
    finally:
        T._draw_level1, T._restrict, T.SOAState.hypothesis = saved


def stream_kwargs() -> dict:
    return {"cache_blocks": 1}
