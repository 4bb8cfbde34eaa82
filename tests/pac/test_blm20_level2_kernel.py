"""The compiled D̃_2 (``tournament._draw_level2_compiled``) and the compiled step (iii) at level ≥ 2
(``tournament._same_extended_soa``) are exact: the same samples, the same examples drawn and the same generator
state as the Python rounds of BLM20 §IV-B/C they replace — across stream blocks, under a cap (Fail) and on
non-realizable (noisy) streams, where the compiled draw hands back to Python."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.pac import tournament
from littlestone.pac.sources import Cursor, RealizableStream, SampleCapExceeded, UniformIntegers
from littlestone.pac.tournament import SOAState, sample_tournament


def _draw(H, src, k, n, seed, cap):
    rng = np.random.default_rng(seed)
    rng.integers(0, 4)  # as G draws k first: the contest labels start on an odd 32-bit half of the generator
    cursor = Cursor(src, 0, len(src), cap=cap)
    try:
        out = sample_tournament(H, cursor, k, n, rng)
    except SampleCapExceeded:
        out = "Fail"
    return out, cursor.position, rng.bit_generator.state


@pytest.mark.parametrize(
    "npts, n, k, block, noise, cap",
    [
        (14, 5, 2, 64, 0.0, None),  # rounds straddle every block boundary
        (14, 7, 3, 1000, 0.0, None),
        (6, 3, 3, 37, 0.0, None),
        (14, 5, 2, 64, 0.0, 400),  # the cap is reached inside D̃_2 (Fail at the same position)
        (14, 5, 3, 128, 0.0, 900),
        (30, 4, 2, 256, 0.05, None),  # noisy blocks: the compiled draw gives up, Python draws
        (200, 6, 2, 512, 0.0, None),  # a domain larger than the data's range
    ],
)
def test_compiled_level2_draw_equals_the_python_rounds(npts, n, k, block, noise, cap, monkeypatch):
    H = Thresholds(npts)
    for seed in range(12):
        src = RealizableStream(
            H.hypothesis(npts // 2 + 1), UniformIntegers(0, npts), 40_000, seed=seed, block_size=block, noise=noise
        )
        fast = _draw(H, src, k, n, seed, cap)
        with monkeypatch.context() as m:
            m.setattr(tournament, "_draw_level2_compiled", lambda *a: None)
            slow = _draw(H, src, k, n, seed, cap)
        assert fast == slow  # sample (SOA state and segments) or Fail, examples drawn, generator state


def test_compiled_level2_draw_is_used_on_plain_thresholds(monkeypatch):
    """The equality above is not vacuous: on a realizable stream the compiled draw returns the sample itself."""
    H = Thresholds(14)
    src = RealizableStream(H.hypothesis(8), UniformIntegers(0, 14), 40_000, seed=1, block_size=64)
    got = tournament._draw_level2_compiled(H, H.version_space(), Cursor(src, 0, len(src)), 5, np.random.default_rng(1))
    assert got is not None and len(got.tournament_examples) == 2  # S_i's contest, then level 2's


def _python_repeats(H, s0, T0, s1, T1):
    """Step (iii) as :func:`tournament._draw` decides it: f0 = f1, or no point where they disagree."""
    f0, f1 = s0.extend(*T0).hypothesis(), s1.extend(*T1).hypothesis()
    return f0 == f1 or H.disagreement(f0, f1) is None


def _random_state(H, rng, npts):
    lo = int(rng.integers(0, npts + 1))
    hi = int(rng.integers(lo, npts + 1))
    V = H.version_space().with_threshold_interval(lo, hi)
    if rng.random() < 0.5:
        return SOAState(V)
    P = [(int(rng.integers(0, npts)), int(rng.integers(0, 2))) for _ in range(int(rng.integers(1, 4)))]
    return SOAState(V, False, tuple(dict(P).items()))


def test_compiled_step_iii_is_function_equality():
    """On random SOA states (realizable or patched) and random continuations, the kernel says "repeat" exactly when
    the Python objects do — both ways (the caller relies on "repeat" being sound, and on "differ" being rare)."""
    rng = np.random.default_rng(0)
    for npts in (3, 6, 14):
        H = Thresholds(npts)
        seen = set()
        for _ in range(3000):
            s0, s1 = _random_state(H, rng, npts), _random_state(H, rng, npts)
            m = int(rng.integers(0, 4))
            T0 = (rng.integers(0, npts, m), rng.integers(0, 2, m).astype(np.int8))
            T1 = (rng.integers(0, npts, m), rng.integers(0, 2, m).astype(np.int8))
            if rng.random() < 0.5:  # realizable continuations too (labels of a threshold)
                t = int(rng.integers(0, npts + 1))
                T0 = (T0[0], (T0[0] >= t).astype(np.int8))
                T1 = (T1[0], (T1[0] >= t).astype(np.int8))
            want = _python_repeats(H, s0, T0, s1, T1)
            assert tournament._same_extended_soa(s0, *T0, s1, *T1) == want
            seen.add(want)
        assert seen == {True, False}


def test_compiled_level2_draw_fails_where_python_does(monkeypatch):
    """Every cap from 0 to 1,500 (n = 5): Fail at the same position — inside a level-1 draw, or between T0 and T1."""
    H = Thresholds(14)
    src = RealizableStream(H.hypothesis(8), UniformIntegers(0, 14), 40_000, seed=2, block_size=64)
    fails = 0
    for cap in range(0, 1500, 3):
        fast = _draw(H, src, 2, 5, 2, cap)
        with monkeypatch.context() as m:
            m.setattr(tournament, "_draw_level2_compiled", lambda *a: None)
            assert fast == _draw(H, src, 2, 5, 2, cap)
        fails += fast[0] == "Fail"
    assert 0 < fails < 500
