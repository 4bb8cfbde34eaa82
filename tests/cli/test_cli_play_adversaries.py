"""``play --adversary`` with the adversaries of littlestone.online (issue 20 item 1), i.i.d. targets in closed form
(issue 21 item 17), streamed i.i.d. games and the transcript cap (issue 21 item 5), progress in rounds (item 10)."""

from __future__ import annotations

import io
import re

import pytest

from littlestone.cli import _common


def _mistakes(out: str) -> int:
    return int(re.search(r"(\d+) mistakes?", out).group(1))


@pytest.mark.parametrize("learner", ["soa", "halving"])
def test_late_commitment_forces_ldim_mistakes(run, learner):
    r = run("play", "-c", "thresholds:1000", "-l", learner, "-a", "late-commitment", "--show", "0", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert _mistakes(r.output) == 9 and "respected" in r.output


def test_disagreement_adversary_runs_and_is_seeded(run):
    args = ("play", "-c", "thresholds:1000", "-l", "soa", "-a", "disagreement", "--seed", "3", "--show", "5")
    a, b = run(*args), run(*args)
    assert a.exit_code == 0, a.output
    assert a.output == b.output
    assert 1 <= _mistakes(a.output) <= 9


@pytest.mark.parametrize("spec", ["points:1000000", "intervals:1000000000", "points"])
def test_iid_needs_no_enumeration_of_the_class(run, spec):
    """Before: "drawing a uniform hypothesis … needs at most 1,000,000 hypotheses" for each of these."""
    r = run("play", "-c", spec, "-l", "soa", "-a", "iid", "--rounds", "300", "--show", "0", "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "respected" in r.output


def test_iid_soa_streams_many_rounds_in_flat_memory(run):
    r = run("play", "-c", "thresholds:2", "-l", "soa", "-a", "iid", "--rounds", "3000000", "--show", "2")
    assert r.exit_code == 0, r.output
    assert "in 3000000 rounds" in r.output


def test_transcript_games_refuse_too_many_rounds_up_front(run):
    r = run("play", "-c", "thresholds:2", "-l", "soa", "-a", "tree", "--rounds", "100000000000")
    assert r.exit_code == 2
    assert "too many for a game that keeps its transcript" in r.output or "memory" in r.output


@pytest.mark.parametrize("adversary", ["tree", "iid"])
def test_progress_counts_rounds_not_games(run, monkeypatch, adversary):
    buf = io.StringIO()
    monkeypatch.setattr(_common.err_console, "_file", buf)
    monkeypatch.setenv("LITTLESTONE_PROGRESS_INTERVAL", "0.0001")
    r = run("play", "-c", "thresholds:1000", "-l", "halving", "-a", adversary, "--rounds", "50000", "--show", "0")
    assert r.exit_code == 0, r.output
    text = buf.getvalue()
    assert "games" not in text
    assert re.search(r"\d+/50000", text), text


def test_streamed_iid_games_are_the_same_for_any_jobs(run):
    args = ("play", "-c", "thresholds:1000", "-l", "soa", "-a", "iid", "--runs", "3", "--rounds", "20000")
    a = run(*args, "--seed", "5", "--show", "0")
    b = run(*args, "--seed", "5", "--show", "0", "--jobs", "2")
    assert a.exit_code == 0 and b.exit_code == 0, (a.output, b.output)
    assert a.output.splitlines()[-2:] == b.output.splitlines()[-2:]


def test_work_longer_than_an_interval_shows_a_line_even_if_the_thread_never_ran(monkeypatch):
    """The progress thread may not get to run before a fast, busy job ends (the flake this guards): the job's last
    state is printed at its end once it lasted an interval; nothing for shorter work or after an error."""
    import time

    buf = io.StringIO()
    monkeypatch.setattr(_common.err_console, "_file", buf)
    monkeypatch.setattr(_common.PlainProgress, "_run", lambda self: None)  # a thread that never gets the GIL
    with _common.PlainProgress(interval=0.01) as p:
        t = p.add_task("playing", total=50)
        p.update(t, completed=50)
        time.sleep(0.03)
    assert re.search(r"playing 50/50", buf.getvalue())
    buf.truncate(0)
    buf.seek(0)
    with _common.PlainProgress(interval=10.0) as p:
        p.add_task("short", total=5)
    with pytest.raises(RuntimeError), _common.PlainProgress(interval=0.01) as p:
        p.add_task("failing", total=5)
        time.sleep(0.03)
        raise RuntimeError("boom")
    assert buf.getvalue() == ""
