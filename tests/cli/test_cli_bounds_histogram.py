"""`bounds blm20 --histogram`: the report says which stable-histogram condition sized k (BLM20 Theorem 17)."""

from __future__ import annotations


def test_bounds_blm20_says_which_histogram_condition(run):
    r = run("bounds", "blm20", "--d", "3")
    assert r.exit_code == 0, r.output
    assert "Theorem 17's proof" in r.output and "8,245,056,060" in r.output
    r = run("bounds", "blm20", "--d", "3", "--histogram", "lemma15")
    assert r.exit_code == 0, r.output
    assert "Lemma 15 literally" in r.output and "15,401,122,080" in r.output


def test_bounds_blm20_histogram_needs_a_histogram_theorem(run):
    r = run("bounds", "blm20", "--d", "3", "--theorem", "theorem10", "--histogram", "lemma15")
    assert r.exit_code == 2 and "--histogram applies to theorem1 and theorem17" in r.output
