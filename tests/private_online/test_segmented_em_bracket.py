"""SegmentedEM's public bracket on wide threshold classes (docs/derivations.md, "The bracket"): a function of the
released thresholds and the released segment ends only, and what it buys on clean adaptive streams."""

from __future__ import annotations

import math

import numpy as np
import pytest

from littlestone import Points, Thresholds
from littlestone.errors import LittlestoneError
from littlestone.private_online import SegmentedEM
from littlestone.private_online.segmented_em import (
    BRACKET_MIN_CLASS,
    FAST_TOP,
    RHO_CAP,
    RHO_DENOMINATOR,
    error_level,
    next_bracket,
)


def _disagreement_game(L, n, T, seed, spy=None):
    """Clean disagreement adversary (x uniform where h_t and the target disagree); yields the public state per round."""
    rng = np.random.default_rng([seed, 33])
    target = int(rng.integers(n // 8, n - n // 8))
    mistakes = 0
    for _ in range(T):
        h = L.hypothesis()
        a, b = sorted((h.t, target))
        x = int(rng.integers(a, b)) if a < b else int(rng.integers(0, n))
        y = int(x >= target)
        mistakes += int(h(x) != y)
        L.learn_one(x, y)
        if spy is not None:
            spy(L.state())
    return mistakes


def _record_error_releases(L):
    """The learner's own error-release mechanism object, its released values recorded in the returned list."""
    released: list[float] = []
    mech = L.error_mechanism

    class Spy(type(mech)):  # the same mechanism object, its outputs recorded
        def __call__(self, *args, **kwargs):
            out = super().__call__(*args, **kwargs)
            released.append(float(out))
            return out

    mech.__class__ = Spy
    return released


def test_the_bracket_is_replayed_from_released_outputs_alone():
    # the bracket (and so the selection's range and the stay test's public offset) is a function of the released
    # thresholds and of which segment ends were ⊤ (released: the release time) — replayed here from those alone
    n = 2**16
    L = SegmentedEM(Thresholds(n), T=4000, epsilon=1.0, backend="seeded", seed=2)
    assert L.bracket
    states = []
    _disagreement_game(L, n, 4000, 2, spy=states.append)
    replay, prev = None, {"hypothesis": SegmentedEM(Thresholds(n), T=4000, epsilon=1.0).hypothesis(), "tops": 0}
    moved = 0
    for s in states:
        if s["segments"] != prev.get("segments", 1):
            top = s["tops"] > prev["tops"]
            replay = next_bracket(replay, prev["hypothesis"].t, s["hypothesis"].t, 0, n) if top else None
            moved += int(top)
        assert s["bracket"] == replay
        prev = s
    assert moved >= 10  # the game moved through many ⊤-ended segments


def test_the_selection_draws_inside_the_public_bracket():
    # every selection's range is the window ∩ bracket of the public state before the segment ended
    n = 2**16
    L = SegmentedEM(Thresholds(n), T=3000, epsilon=1.0, backend="seeded", seed=5)
    windows = []
    cells = L.scores.cells

    def spy(x, yy, window=None):
        windows.append(window)
        return cells(x, yy, window)

    L.scores.cells = spy
    before = []
    _disagreement_game(L, n, 3000, 5, spy=before.append)
    publics = []  # the state in force when each segment ended
    for a, b in zip(before, before[1:]):
        if b["segments"] != a["segments"]:
            publics.append(a)
    checked = 0
    assert len(windows) == len(publics)
    for w, s in zip(windows, publics):
        if s["bracket"] is not None:
            c, W, (lo, hi) = s["hypothesis"].t, s["window"], s["bracket"]
            assert w == (max(lo, c - W), min(hi, c + W))
            checked += 1
    assert checked >= 5


def test_a_public_end_drops_the_bracket_and_small_classes_have_none():
    assert not SegmentedEM(Thresholds(BRACKET_MIN_CLASS - 2), T=100, epsilon=1.0).bracket
    assert SegmentedEM(Thresholds(BRACKET_MIN_CLASS), T=100, epsilon=1.0).bracket
    assert not SegmentedEM(Thresholds(2**16), T=100, epsilon=1.0, bracket=False).bracket
    # i.i.d. clean stream, the stay test silenced: every end is public, no bracket ever
    n = 2**16
    rng = np.random.default_rng(0)
    X = rng.integers(0, n, 5000)
    L = SegmentedEM(Thresholds(n), T=5000, epsilon=1.0, tau=1e9, backend="seeded", seed=0)
    L.run(X, (X >= 20_000).astype(np.int8))
    assert L.segments > 3 and L.state()["bracket"] is None


def test_next_bracket_bisects_on_moves_and_reopens_at_an_end():
    assert next_bracket(None, 500, 700, 0, 1000) == (501, 1000)  # right: thresholds ≤ 500 lost
    assert next_bracket((501, 1000), 700, 600, 0, 1000) == (501, 699)  # left: ≥ 700 lost
    L, U = next_bracket((501, 699), 600, 690, 0, 1000)  # pushed within 1/8 of U: U reopens by the width
    assert L == 601 and U == 699 + 198


def test_the_bracket_cuts_clean_adaptive_mistakes():
    # thresholds 2^16, clean disagreement adversary, T = 10^4: before the bracket 2,515 median (3 seeds)
    n, T = 2**16, 10_000
    on = [
        _disagreement_game(SegmentedEM(Thresholds(n), T=T, epsilon=1.0, backend="seeded", seed=s), n, T, s)
        for s in range(3)
    ]
    off = [
        _disagreement_game(
            SegmentedEM(Thresholds(n), T=T, epsilon=1.0, backend="seeded", seed=s, bracket=False), n, T, s
        )
        for s in range(3)
    ]
    assert sum(on) < 0.7 * sum(off), (on, off)  # merged defaults: (1212, 1211, 1075) vs (1558, 3283, 1542)


def test_rho_after_a_fast_top_is_replayed_from_released_outputs_alone():
    # ρ_{j+1} = error_level(r̂) (the release), capped at rho_after_top after a fast ⊤: n(1 − ρ_j) ≤ FAST_TOP·τ_j with
    # n, ρ_j, τ_j public and the ⊤ released — replayed here from the public state and the released r̂ alone
    n = 2**16
    T = 4000
    L = SegmentedEM(Thresholds(n), T=T, epsilon=1.0, backend="seeded", seed=3)
    assert L.fast_cap and L.rho_after_top == 0.15
    released = _record_error_releases(L)
    states = []
    _disagreement_game(L, n, T, 3, spy=states.append)
    k, fast = 0, 0
    prev = SegmentedEM(Thresholds(n), T=T, epsilon=1.0).state()
    for s in states:
        if s["segments"] != prev["segments"]:
            m = prev["segment_rounds"] + 1
            if not L.stay_active(s["t"] - s["segment_rounds"]):  # a quiet next segment (public): no release, ρ_max
                assert s["rho"] == math.ceil(RHO_CAP * RHO_DENOMINATOR) / RHO_DENOMINATOR
                prev = s
                continue
            rho = error_level(released[k], m, L.epsilon_error, T, L.margin)
            if s["tops"] > prev["tops"] and m * (1 - prev["rho"]) <= FAST_TOP * prev["tau_j"]:
                rho = min(rho, L.rho_after_top)
                fast += 1
            assert s["rho"] == math.ceil(rho * RHO_DENOMINATOR) / RHO_DENOMINATOR
            k += 1
        prev = s
    assert fast >= 5 and k == len(released)


def test_the_fast_top_cap_is_off_on_small_grids_and_in_the_theory_setting():
    assert not SegmentedEM(Thresholds(32), T=100, epsilon=1.0).fast_cap
    assert not SegmentedEM(Thresholds(2**16), T=100, epsilon=1.0, setting="theory").fast_cap
    assert not SegmentedEM(Thresholds(2**16), T=100, epsilon=1.0, rho_after_top=None).fast_cap
    assert SegmentedEM(Points(range(2**16)), T=100, epsilon=1.0).fast_cap
    with pytest.raises(LittlestoneError, match="rho_after_top"):
        SegmentedEM(Thresholds(2**16), T=100, epsilon=1.0, rho_after_top=0.7)


def test_the_theory_settings_rho_is_replayed_from_the_released_errors_alone():
    """setting="theory": ρ_{j+1} = theory_error_level(r̂, n, ε_err, |H|, β′, μ) from the released r̂ and public
    values only (every segment runs its stay test and its error release there)."""
    from littlestone.bounds.agnostic_segments import theory_error_level

    n, T = 2**10, 3000
    L = SegmentedEM(Thresholds(n), T=T, epsilon=1.0, backend="seeded", seed=4, setting="theory")
    released = _record_error_releases(L)
    states = []
    rng = np.random.default_rng(9)
    for _ in range(T):
        x = int(rng.integers(0, n))
        L.learn_one(x, int(x >= 300) ^ int(rng.random() < 0.2))
        states.append(L.state())
    k, prev = 0, SegmentedEM(Thresholds(n), T=T, epsilon=1.0, setting="theory").state()
    for s in states:
        if s["segments"] != prev["segments"]:
            m = prev["segment_rounds"] + 1
            rho = theory_error_level(released[k], m, L.epsilon_error, L._size, L._beta_prime, L.margin)
            assert s["rho"] == math.ceil(rho * RHO_DENOMINATOR) / RHO_DENOMINATOR
            k += 1
        prev = s
    assert k == len(released) >= 3
