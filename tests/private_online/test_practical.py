"""``littlestone play -l private``: the practical pure ε-DP learner picked by the class's structure."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from littlestone.classes.spec import parse_class_spec
from littlestone.cli.main import app
from littlestone.errors import LittlestoneError
from littlestone.private_online import BisectAT, IntervalsAT, ListAT, PointsAT
from littlestone.private_online.practical import practical_learner


@pytest.mark.parametrize(
    "spec, name, cls",
    [
        ("thresholds:4", "bisect", BisectAT),
        ("thresholds:2^60", "bisect", BisectAT),
        ("points:2^60", "points-at", PointsAT),
        ("points:16", "points-at", PointsAT),
        ("intervals:2^16", "intervals-at", IntervalsAT),
        ("random:16x20", "listat", ListAT),
    ],
)
def test_practical_learner_by_class(spec, name, cls):
    H = parse_class_spec(spec)
    picked, learner_cls, why = practical_learner(H)
    assert (picked, learner_cls) == (name, cls) and cls.__name__ in why
    learner_cls(H, T=100, epsilon=1.0, delta=1e-6, backend="seeded", seed=0)  # it can run the class


def test_practical_learner_refuses_a_class_none_fits():
    with pytest.raises(LittlestoneError, match="no practical private online learner fits .* -l lwy25"):
        practical_learner(parse_class_spec("conjunctions:30"))


def test_play_private_names_its_pick():
    r = CliRunner().invoke(
        app,
        ["play", "--class", "thresholds:2^60", "-l", "private", "-a", "late-commitment", "--rounds", "3000"]
        + ["--backend", "seeded", "--seed", "1", "--show", "0"],
    )
    assert r.exit_code == 0, r.output
    assert "-l private: bisect (" in r.output and "bisect vs late-commitment" in r.output and "(1, 0)-DP" in r.output
    r = CliRunner().invoke(app, ["play", "--class", "conjunctions:30", "-l", "private", "--rounds", "10"])
    assert r.exit_code == 2 and "no practical private online learner" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(app, ["play", "--help"])
    assert "--learner private" in r.output
