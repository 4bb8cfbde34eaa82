"""Issue 28 item 6: at d ≥ 4 the Python learners name the N₀ (k₁·k₂) the default 'practical' setting needs and the
smallest setting accepted — the CLI's text, spelled for Python — instead of advising the default they already use."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from littlestone.classes import Thresholds
from littlestone.cli.main import app
from littlestone.errors import LittlestoneError
from littlestone.private_online import GL21, LWY25, AnytimeGL21, AnytimeLWY25, GL21Setting, LWY25Setting


@pytest.mark.parametrize("cls", [LWY25, AnytimeLWY25])
def test_lwy25_default_at_d4_names_the_n0_it_needs(cls):
    with pytest.raises(LittlestoneError) as e:
        cls(Thresholds(16), T=100, epsilon=1.0, delta=1e-6, backend="seeded", seed=0)
    msg = str(e.value)
    assert "Ldim 4" in msg and "N0 = 2^(11+6(d-1)) = 536,870,912" in msg and "limit 16,777,216" in msg
    assert "setting=LWY25Setting(N0=32" in msg
    assert "use setting='practical'" not in msg  # the default it already runs
    # the way out it names works, and privacy is unchanged by the setting
    ok = cls(Thresholds(16), T=100, epsilon=1.0, delta=1e-6, backend="seeded", seed=0, setting=LWY25Setting(32))
    assert (ok.privacy().epsilon, ok.privacy().delta) == pytest.approx((1.0, 1e-6))


@pytest.mark.parametrize("cls", [GL21, AnytimeGL21])
def test_gl21_default_at_d5_names_the_forest_it_needs(cls):
    with pytest.raises(LittlestoneError) as e:
        cls(Thresholds(31), T=100, epsilon=1.0, delta=1e-6, backend="seeded", seed=0)
    msg = str(e.value)
    assert "Ldim 5" in msg and "64·524,288 leaves" in msg and "setting=GL21Setting(k1=64" in msg
    assert "'practical' (the default)" not in msg
    cls(Thresholds(31), T=100, epsilon=1.0, delta=1e-6, backend="seeded", seed=0, setting=GL21Setting(64, 8, 1.0, 4))


def test_explicit_settings_point_to_the_default_when_it_fits():
    with pytest.raises(LittlestoneError, match=r"setting='practical' \(the default\) for N0 = 2,048"):
        LWY25(Thresholds(2), T=3, epsilon=1, delta=1e-6, backend="seeded", seed=0, setting="theory")
    with pytest.raises(LittlestoneError, match=r"custom setting needs a forest of k1·k2 = 4·1,073,741,824"):
        GL21(Thresholds(2), T=3, epsilon=1, delta=1e-6, backend="seeded", seed=0, setting=GL21Setting(4, 2**30, 1.0, 4))


def test_cli_says_the_same_with_its_flag():
    with pytest.raises(LittlestoneError) as e:
        LWY25(Thresholds(16), T=200, epsilon=1.0, delta=1e-6, backend="seeded", seed=0)
    r = CliRunner().invoke(app, ["play", "-c", "thresholds:15", "-l", "lwy25-paper", "-a", "iid", "--rounds", "200"])
    assert r.exit_code == 2
    cli = " ".join(r.output.split())
    py = str(e.value).split(": pass ")[0]
    assert py in cli and "--setting N0=32,m_exp=" in cli and "LWY25Setting(" not in cli


def test_gl21_theory_setting_too_large_names_a_way_that_fits():
    from littlestone.private_online.gl21 import MAX_FOREST, GL21Setting

    with pytest.raises(LittlestoneError, match=r"setting='practical' \(the default: k1·k2 = 65,536 trees\)"):
        GL21Setting.theory(2, 10**6, 1.0, 1e-6, 0.1)
    # at Ldim 5 the practical forest is too large too: the message must not advise it
    with pytest.raises(LittlestoneError) as err:
        GL21Setting.theory(5, 10**6, 1.0, 1e-6, 0.1)
    assert "setting='practical'" not in str(err.value) and f"≤ {MAX_FOREST:,}" in str(err.value)
