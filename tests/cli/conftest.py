from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from littlestone.cli import app


@pytest.fixture
def run():
    """Invoke the CLI in-process; returns the click Result (exit_code, output, stdout, stderr)."""
    runner = CliRunner()

    def _run(*args: str):
        return runner.invoke(app, [str(a) for a in args])

    return _run


@pytest.fixture
def train_csv(tmp_path):
    """Noisy threshold data on 0..99 with string labels."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 100, 300)
    y = np.where(x >= 40, "spam", "ham")
    flip = rng.random(300) < 0.05
    y[flip] = np.where(y[flip] == "spam", "ham", "spam")
    path = tmp_path / "train.csv"
    path.write_text("x,label\n" + "".join(f"{a},{b}\n" for a, b in zip(x, y)))
    return path
