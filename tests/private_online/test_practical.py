"""``littlestone play -l private``: the practical pure ε-DP learner picked by the class's structure."""

from __future__ import annotations

import numpy as np
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


@pytest.mark.parametrize(
    "spec, realizable", [("thresholds:2^60", "bisect"), ("points:16", "points-at"), ("random:16x20", "listat")]
)
def test_noisy_pick_is_segment_em_and_names_the_realizable_alternative(spec, realizable):
    from littlestone.private_online import SegmentedEM

    H = parse_class_spec(spec)
    picked, cls, why = practical_learner(H, noisy=True)
    assert (picked, cls) == ("segment-em", SegmentedEM) and f"-l {realizable}" in why
    cls(H, T=100, epsilon=1.0, backend="seeded", seed=0)


def test_noisy_pick_covers_classes_without_a_realizable_practical_learner():
    H = parse_class_spec("stumps:2^40")  # no realizable practical learner; SegmentedEM's closed form
    with pytest.raises(LittlestoneError):
        practical_learner(H)
    picked, cls, why = practical_learner(H, noisy=True)
    assert picked == "segment-em" and "makes fewer mistakes" not in why
    cls(H, T=100, epsilon=1.0, backend="seeded", seed=0)
    picked, _, why = practical_learner(parse_class_spec("intervals:2^16"), noisy=True)
    assert picked == "segment-em" and "-l intervals-at" in why


def test_play_private_with_data_picks_the_noisy_stream_learner(tmp_path):
    """``--data FILE`` (how the examples come — never what they are) leads to SegmentedEM; the same data, clean or
    with flipped labels, gets the same pick and the same kind of output."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 100, 300)
    for flip in (0.0, 0.2):
        y = (x >= 40).astype(int) ^ (rng.random(300) < flip)
        path = tmp_path / f"s{flip}.csv"
        path.write_text("x,y\n" + "".join(f"{a},{b}\n" for a, b in zip(x, y)))
        r = CliRunner().invoke(
            app,
            ["play", "-c", "thresholds:100", "-l", "private", "-a", "fixed", "--data", str(path)]
            + ["--backend", "seeded", "--seed", "0", "--show", "0"],
        )
        assert r.exit_code == 0, r.output
        assert "-l private: segment-em (" in r.output and "-l bisect makes fewer mistakes" in r.output
        assert "segment-em vs fixed adversary" in r.output
