"""`littlestone experiment --list`: every experiment with its whole description and its measured run time."""

from __future__ import annotations

from typer.testing import CliRunner

from littlestone.cli.main import app
from littlestone.experiments import REGISTRY, RUN_TIMES, describe


def test_list_gives_whole_descriptions_and_run_times():
    r = CliRunner().invoke(app, ["experiment", "--list"])
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())  # the terminal wraps long lines; compare the words
    for name in REGISTRY:
        text = describe(name)
        assert text.endswith(".") and len(text) > 40  # a whole paragraph, not its first line
        assert " ".join(text.split()) in flat
        assert name in RUN_TIMES and RUN_TIMES[name] in flat
