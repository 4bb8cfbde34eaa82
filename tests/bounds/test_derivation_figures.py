"""The figures docs/derivations.md quotes for the segment learners are the calculators' (issue 34 item 6)."""

from __future__ import annotations

import re
from pathlib import Path

from littlestone.bounds.segment_learners import listat_bound

DOC = Path(__file__).resolve().parents[2] / "docs" / "derivations.md"


def _section(title: str) -> str:
    text = DOC.read_text()
    start = text.index(title)
    end = text.index("\n### ", start + len(title))
    return text[start:end]


def test_f2_listat_figures_are_the_calculators():
    """Every "k = K → B" in F.2 (step AboveThreshold, T = 10⁶, ε = 1, β = 0.1) and the monotone/standard figures at
    k = 3 equal ``littlestone bounds listat``'s (the section once said k = 9 → 356; the formula gives 360)."""
    sec = _section("### F.2 ListAT")
    pairs = re.findall(r"k = (\d+) → (\d+)", sec)
    assert {int(k) for k, _ in pairs} >= {3, 9, 16}
    for k, b in pairs:
        assert listat_bound(int(k), 10**6, 1.0, 0.1).mistakes == int(b), (k, b)
    assert "k = 9 → 360" in sec
    monotone = listat_bound(3, 10**6, 1.0, 0.1, at="monotone").mistakes
    standard = listat_bound(3, 10**6, 1.0, 0.1, at="standard").mistakes
    assert f"monotone\nAboveThreshold {monotone}" in sec or f"monotone AboveThreshold {monotone}" in sec
    assert f"standard one {standard} at k = 3" in sec
