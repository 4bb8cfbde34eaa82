"""The tournament's closed-form paths for plain thresholds (contests, integer patches, block-aligned peeks) draw exactly
the samples of the generic paths: same stream, same generator ⇒ same D̃_k sample, segment for segment."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.classes.base import patch
from littlestone.classes.thresholds import Threshold
from littlestone.pac import tournament as tour
from littlestone.pac.sources import Cursor, RealizableStream, SampleCapExceeded, UniformIntegers


class GenericThresholds(Thresholds):
    """The same class, but not ``Thresholds`` itself: the tournament takes its generic contest path."""


class Unblocked:
    """A stream without ``block_size``: level-1 peeks are not aligned to blocks."""

    def __init__(self, source):
        self.source = source

    def __len__(self):
        return len(self.source)

    def batch(self, start, stop):
        return self.source.batch(start, stop)


def _samples(hclass, source, k, n, seeds, cap):
    out, pos = [], 0
    for s in seeds:
        cursor = Cursor(source, pos, len(source), cap=cap)
        try:
            S = tour.sample_tournament(hclass, cursor, k, n, np.random.default_rng(s))
            h = S.state.hypothesis()
            out.append((S.state.V.threshold_interval(), S.state.realizable, S.state.patches, S.segments, h.key()))
        except SampleCapExceeded:
            out.append("Fail")
        pos = cursor.position
    return out


@pytest.mark.parametrize(
    ("npts", "k", "n", "noise"), [(6, 1, 8, 0.0), (14, 2, 12, 0.0), (14, 3, 12, 0.05), (30, 3, 20, 0.0)]
)
def test_closed_form_contests_draw_the_generic_samples(npts, k, n, noise):
    H, G = Thresholds(npts), GenericThresholds(npts)
    src = RealizableStream(H.hypothesis(npts // 2 + 1), UniformIntegers(0, npts), 600_000, seed=7, noise=noise)
    fast = _samples(H, src, k, n, range(40), cap=12_000)
    generic = _samples(G, Unblocked(src), k, n, range(40), cap=12_000)
    assert fast == generic
    assert any(s != "Fail" and not s[1] for s in fast)  # non-realizable states (patched SOA) were exercised


def test_integer_patches_match_the_generic_patch():
    rng = np.random.default_rng(0)
    for _ in range(300):
        t = int(rng.integers(0, 20))
        pts = rng.integers(0, 20, int(rng.integers(1, 8))).tolist()
        patches = tuple((int(x), int(rng.integers(0, 2))) for x in pts)
        assert tour._patch_threshold(Threshold(t), patches) == patch(Threshold(t), patches)
