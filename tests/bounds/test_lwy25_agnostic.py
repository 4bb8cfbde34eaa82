"""LWY25 agnostic calculators: |J| by brute force, rows present, CLI errors."""

from __future__ import annotations

import pytest

from littlestone.bounds.lwy25_agnostic import lwy25_agnostic, number_of_experts, number_of_experts_upto
from littlestone.errors import LittlestoneError


def _brute(T, M):
    def rec(start, k):
        if k == 0:
            return 1
        return sum(rec(i + 1, k - 1) for j in range(start, T + 1) for i in range(j, T + 1))

    return rec(1, M)


@pytest.mark.parametrize("T,M", [(5, 1), (7, 2), (9, 3), (6, 0)])
def test_number_of_experts_matches_brute_force(T, M):
    assert number_of_experts(T, M) == _brute(T, M)
    assert number_of_experts_upto(T, M) == sum(_brute(T, k) for k in range(M + 1))


def test_rows_and_proven_rows():
    r = lwy25_agnostic(1, 1, 1, 1, 10_000, 1.0, 1e-6, hypotheses=17, domain=16)
    assert r["batch B"] == 100  # Cor 4.3 with d = d* = 1, ε = 1: √T
    assert r["regret bound"] > 0 and r["sanitizer n (H^label)"] > 0
    with pytest.raises(LittlestoneError):
        lwy25_agnostic(1, 1, 1, 1, 1, 1.0, 1e-6)
    with pytest.raises(LittlestoneError):
        lwy25_agnostic(1, 1, 1, 1, 100, 1.0, 0.0)


def test_cli():
    from typer.testing import CliRunner

    from littlestone.cli import app

    def cli(*args):
        return CliRunner().invoke(app, list(args))

    ok = cli("bounds", "lwy25-agnostic", "--class", "thresholds:8", "--T", "1000")
    assert ok.exit_code == 0 and "Cor 4.3" in ok.output
    bad = cli("bounds", "lwy25-agnostic", "--d", "1", "--T", "100")
    assert bad.exit_code == 2 and "missing" in (bad.output + str(getattr(bad, "stderr", "")))
