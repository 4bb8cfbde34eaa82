"""Issue 26 item 5: every refusal is one line and exit 2 — the secure-backend ``--seed`` note comes after a command that
ran, never before an error — and an integer option too large for the work it asks for is refused (``play --runs
2^63 − 1`` ended in an OverflowError, exit 1). Ctrl-C under load: tests/cli/test_cli_subprocess.py and
test_cli_outputs.py (generous timeouts, assertions on exit status and files); the progress lines' SIGINT handling
here."""

from __future__ import annotations

import signal
import threading

import pytest

from littlestone.cli._common import SEED_NOTE, PlainProgress

TRAIN = "x,label\n1,0\n5,1\n7,1\n2,0\n"
BIG = str(2**63 - 1)


@pytest.fixture
def ok_csv(tmp_path):
    p = tmp_path / "ok.csv"
    p.write_text(TRAIN)
    return p


def _refusals(ok, tmp):
    return [
        ("learn", ok, "-c", "thresholds:10", "-o", tmp / "nodir" / "m.json", "--seed", "3"),
        ("learn", ok, "-c", "thresholds:10", "-o", tmp / "m.json", "--seed", "3", "--epsilon", "-1"),
        ("play", "-c", "thresholds:2", "-l", "lwy25", "-a", "iid", "--rounds", "10", "--seed", "3", "--epsilon", "-1"),
        ("audit", "nosuch", "--seed", "3"),
        ("experiment", "blm20_accuracy", "--seed", "3", "-o", tmp / "nodir" / "x"),
    ]


@pytest.mark.parametrize("i", range(5))
def test_a_refusal_with_seed_under_secure_is_one_line(run, ok_csv, tmp_path, i):
    r = run(*_refusals(ok_csv, tmp_path)[i])
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    assert "note:" not in r.output


def test_the_seed_note_comes_after_a_command_that_ran(run, ok_csv, tmp_path):
    r = run("learn", ok_csv, "-c", "thresholds:10", "-o", tmp_path / "m.json", "--seed", "3")
    assert r.exit_code == 0, r.output
    assert r.stderr.strip().splitlines()[-1] == " ".join(SEED_NOTE.split()) or SEED_NOTE in r.stderr.replace("\n", " ")
    assert r.stderr.count("--seed fixes only randomness") == 1
    again = run("learn", ok_csv, "-c", "thresholds:10", "-o", tmp_path / "m.json")  # a later command: no stale note
    assert again.exit_code == 0 and "note:" not in again.stderr


@pytest.mark.parametrize("value", [BIG, "1" + "0" * 30])
def test_play_runs_too_large_is_refused_in_one_line(run, value):
    r = run("play", "-c", "thresholds:10", "--runs", value)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: --runs {value}:") and "games here" in lines[0]


@pytest.mark.parametrize(
    "args",
    [
        ("play", "-c", "thresholds:10", "--jobs", BIG),
        ("play", "-c", "thresholds:10", "--seed", BIG, "--backend", "seeded"),
        ("play", "-c", "thresholds:10", "--show", BIG),
        ("bounds", "lwy25", "--d", "2", "--T", BIG, "--epsilon", "1"),
    ],
)
def test_other_huge_integer_options_run_or_refuse_cleanly(run, args):
    r = run(*args)
    assert r.exit_code in (0, 2), r.output
    assert "internal error" not in r.output and "Traceback" not in r.output


def _blocks_sigint(thread) -> bool | None:
    """Whether ``thread`` has SIGINT blocked (Linux: its SigBlk mask in /proc; None elsewhere)."""
    try:
        with open(f"/proc/self/task/{thread.native_id}/status") as f:
            mask = next(int(line.split()[1], 16) for line in f if line.startswith("SigBlk:"))
    except (OSError, StopIteration):
        return None
    return bool(mask >> (signal.SIGINT - 1) & 1)


def test_progress_lines_stop_at_ctrl_c():
    # the handler PlainProgress chains in front of Python's: SIGINT stops the lines at once (then raises as before),
    # and the display thread never takes SIGINT itself (blocked in it). (An in-process CLI run leaves SIGINT
    # ignored, as the command does at its end: Python's handler is put back for this test.)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with PlainProgress(interval=0.01) as p:
            p.add_task("work", total=3)
            assert p._thread.is_alive() and signal.getsignal(signal.SIGINT) is not signal.default_int_handler
            assert _blocks_sigint(p._thread) in (True, None)
            with pytest.raises(KeyboardInterrupt):
                signal.raise_signal(signal.SIGINT)
            p._thread.join(timeout=5)
            assert not p._thread.is_alive()  # stopped by the interrupt, before the block's end
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored
    finally:
        signal.signal(signal.SIGINT, before)


def test_display_threads_do_not_take_sigint():
    seen = {}

    def probe():
        seen["mask"] = signal.pthread_sigmask(signal.SIG_BLOCK, set())

    from littlestone._progress import sigint_blocked

    with sigint_blocked():
        t = threading.Thread(target=probe)
        t.start()
    t.join()
    assert signal.SIGINT in seen["mask"]
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())  # the caller's mask is restored
