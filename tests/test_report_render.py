"""Issue 28 item 5: the demo report reads at 1280 px and 390 px — rendered in headless Chromium (playwright with a
system browser), no sideways overflow, no text under 10 px, no figure whose smallest text renders under 10 px — and
the pieces that make it so (ε ticks at the tested values, coinciding curves named, the HTML checks catching a bad
report)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from littlestone.experiments.figure_style import MIN_TEXT_PX, coinciding, epsilon_ticks
from littlestone.experiments.report import figure, page, table

_WHY = None
if importlib.util.find_spec("playwright") is None:
    _WHY = "playwright is not installed (pip install 'littlestone[report-check]')"
else:
    from littlestone.experiments.report_check import find_chromium

    if find_chromium() is None:
        _WHY = "no Chromium found (apt-get install chromium, or set LITTLESTONE_CHROMIUM)"
needs_browser = pytest.mark.skipif(_WHY is not None, reason=_WHY or "")


def test_epsilon_ticks_are_the_tested_values():
    from matplotlib.figure import Figure

    ax = Figure().subplots()
    ax.plot([0.5, 2.0, 8.0], [1, 2, 3])
    ax.set_xscale("log")
    epsilon_ticks(ax, [0.5, 2.0, 8.0])
    assert list(ax.get_xticks()) == [0.5, 2.0, 8.0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0.5", "2", "8"]
    assert list(ax.xaxis.get_minorticklocs()) == []


def test_coinciding_series_are_found():
    same = coinciding(
        {"ERM": [0.928] * 3, "SOA": [0.928] * 3, "generic": [0.928, 0.9281, 0.928], "BLM20": [0.6, 0.6, 0.8]}
    )
    assert same == {"SOA": "ERM", "generic": "ERM"}
    assert coinciding({"a": np.arange(5), "b": np.arange(5) + 1}, atol=0) == {}


@needs_browser
@pytest.mark.slow
def test_the_check_catches_a_report_that_does_not_read(tmp_path):
    from littlestone.experiments.report_check import check_report

    wide = table([{"a": "x" * 300}]).replace("<table class='stack'>", "<table style='white-space:nowrap'>")
    small = "<p style='font-size:8px'>tiny</p>"
    img = tmp_path / "a.png"
    from matplotlib.figure import Figure

    Figure(figsize=(9, 2)).savefig(img, dpi=110)
    fig = figure(img, "a picture with 12 px text in 990 px", min_text_px=12)
    (tmp_path / "bad.html").write_text(page("bad", wide + small + fig))
    found = check_report(tmp_path / "bad.html")
    assert any("cut or scrolled sideways" in p for p in found[1280])
    assert any("text at 8px" in p for p in found[1280])
    assert any("smallest text renders at" in p for p in found[390])


@needs_browser
@pytest.mark.slow
def test_demo_report_reads_at_desktop_and_phone_widths(tmp_path):
    from littlestone.experiments.demo import run_demo
    from littlestone.experiments.report_check import WIDTHS, check_report

    path = run_demo(tmp_path / "report", fast=True, seed=0, backend="seeded", online=True, online_rounds=400)
    assert MIN_TEXT_PX * 356 / 506 >= 10  # the figures' design: 10 pt text still 10 px in a phone's column
    found = check_report(path, screenshots=tmp_path / "shots")
    assert set(found) == set(WIDTHS)
    assert found == {w: [] for w in WIDTHS}, found
