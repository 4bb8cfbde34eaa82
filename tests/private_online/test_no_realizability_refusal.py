"""Issue 33 item 5: no refusal, warning or message that depends on whether the private data are realizable. A private
learner runs on any stream — ``play --data`` included — and its output on a noisy stream differs from its output on a
realizable one only in the numbers (mistakes, the released hypothesis), never in kind; the offline private
estimators likewise. Non-private learners (SOA, Halving) keep reporting realizability."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from typer.testing import CliRunner

from littlestone.cli import app
from littlestone.pac import (
    AgnosticBLM20Classifier,
    BLM20Classifier,
    GenericLearnerClassifier,
    PolyPriLearnClassifier,
    PolyPriPropLearnClassifier,
)
from littlestone.private_online import BisectAT, ListAT

N = 400


def _stream(noisy: bool, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 100, N)
    y = (x >= 53).astype(int)
    if noisy:
        y[rng.random(N) < 0.05] ^= 1
    return x, y


def _csv(tmp_path, noisy: bool):
    x, y = _stream(noisy)
    path = tmp_path / ("noisy.csv" if noisy else "clean.csv")
    path.write_text("x,label\n" + "".join(f"{a},{b}\n" for a, b in zip(x, y)))
    return path


def _kind(text: str) -> str:
    """The output with every number, hypothesis and state value blanked: what the message says, not the counts."""
    text = re.sub(r"\{.*\}", "{…}", text)
    return re.sub(r"[-+]?\d[\d,]*(\.\d+)?(e[-+]?\d+)?", "#", text)


PLAY = [
    ("private", ()),
    ("bisect", ()),
    ("listat", ()),
    ("lwy25", ("--setting", "N0=128")),
    ("gl21", ("--setting", "k2=1")),
]


@pytest.mark.parametrize("learner, extra", PLAY, ids=[p[0] for p in PLAY])
def test_play_private_runs_on_noisy_data_as_on_clean_data(tmp_path, learner, extra):
    runner = CliRunner()
    outs = {}
    for noisy in (False, True):
        r = runner.invoke(
            app,
            [
                "play", "-c", "thresholds:100", "-l", learner, "-a", "fixed", "--data", str(_csv(tmp_path, noisy)),
                "--backend", "seeded", "--seed", "1", "--show", "0", *extra,
            ],
        )  # fmt: skip
        assert r.exit_code == 0, r.output
        assert "realizable" not in r.output
        outs[noisy] = _kind(r.output)
    assert outs[False] == outs[True]


def test_play_non_private_learners_still_report_realizability(tmp_path):
    r = CliRunner().invoke(app, ["play", "-c", "thresholds:100", "-a", "fixed", "--data", str(_csv(tmp_path, True))])
    assert r.exit_code == 2 and "not realizable" in r.output


@pytest.mark.parametrize("cls", [BisectAT, ListAT])
def test_online_learners_run_on_noisy_streams(cls):
    from littlestone.classes import Thresholds

    for noisy in (False, True):
        x, y = _stream(noisy)
        L = cls(Thresholds(100), T=N, epsilon=1.0, backend="seeded", seed=0)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            for a, b in zip(x.tolist(), y.tolist()):
                L.predict_one(a)
                L.learn_one(a, b)
        assert set(L.release()) == {"learner", "hypothesis", "parameters", "state", "privacy"}


SMALL = dict(n_batches=2, aux_size=1, cap=1, n_generic=2)
OFFLINE = {
    "generic": lambda: GenericLearnerClassifier("thresholds:100", epsilon=1.0, backend="seeded", random_state=0),
    "blm20": lambda: BLM20Classifier(
        "thresholds:100", epsilon=1.0, delta=1e-3, backend="seeded", random_state=0, **SMALL
    ),
    "blm20-agnostic": lambda: AgnosticBLM20Classifier(
        "thresholds:100",
        epsilon=4.0,
        delta=1e-3,
        subsample_size=6,
        inner_sizes=SMALL,
        backend="seeded",
        random_state=0,
    ),
    "polyprilearn": lambda: PolyPriLearnClassifier(
        "thresholds:100", epsilon=1.0, delta=1e-3, n=20, m=20, K=2, backend="seeded", random_state=0
    ),
    "polypriproplearn": lambda: PolyPriPropLearnClassifier(
        "thresholds:100", epsilon=1.0, delta=1e-3, n=20, m=19, K=2, n_generic=20, backend="seeded", random_state=0
    ),
}


@pytest.mark.parametrize("name", sorted(OFFLINE))
def test_offline_private_estimators_fit_noisy_data_as_clean_data(name):
    kinds = {}
    for noisy in (False, True):
        x, y = _stream(noisy)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            est = OFFLINE[name]().fit(x.reshape(-1, 1), y)
        assert est.predict(x.reshape(-1, 1)).shape == (N,)
        kinds[noisy] = sorted({(type(w.message).__name__, _kind(str(w.message))) for w in caught})
    assert kinds[False] == kinds[True]


LEARN = [
    ("generic", ()),
    ("blm20", ("--param", "n_batches=2", "--param", "aux_size=1", "--param", "cap=1", "--param", "n_generic=2")),
]


@pytest.mark.parametrize("learner, extra", LEARN, ids=[p[0] for p in LEARN])
def test_learn_private_runs_on_noisy_data_as_on_clean_data(tmp_path, learner, extra):
    runner = CliRunner()
    outs = {}
    for noisy in (False, True):
        r = runner.invoke(
            app,
            [
                "learn", str(_csv(tmp_path, noisy)), "-c", "thresholds:100", "-l", learner,
                "-o", str(tmp_path / "m.json"), "--backend", "seeded", "--seed", "1", *extra,
            ],
        )  # fmt: skip
        assert r.exit_code == 0, r.output
        outs[noisy] = _kind(r.output.replace(str(tmp_path), "DIR"))
    assert outs[False] == outs[True]
