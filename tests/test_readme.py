"""README.md and docs/ stay true: the README's Python example runs, its quick start names exactly the two set-up
commands, and every documented `$ littlestone …` command runs as written from a fresh clone."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs_and_prints_what_it_says():
    text = README.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "60" and lines[1] == "60"
    assert "(1.0, 0.0)" in lines[2] and "'benign' 'malignant'" in lines[2]


def test_readme_quick_start_is_the_two_make_commands():
    text = README.read_text(encoding="utf-8")
    block = re.search(r"## Quick start\n\n```bash\n(.*?)```", text, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["make demo", "make test"]


def _console_blocks(path: Path) -> list[tuple[str, list[str]]]:
    """(command, shown output lines) for every `$ littlestone …` line of the file's console blocks."""
    out = []
    for block in re.findall(r"```console\n(.*?)```", path.read_text(encoding="utf-8"), re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:].split("  #")[0].strip(), []))
            elif out and line.strip() and line.strip() != "...":
                out[-1][1].append(line.rstrip())
    return out


ROOT = README.parent

#: verbs whose documented runs take minutes (the audits of every registered mechanism; the demo and experiment runs):
#: run only in the slow set, which runs every documented command
LONG_VERBS = {"audit", "demo", "experiment"}


def _prepare(tmp_path: Path) -> None:
    """What a fresh clone gives the documented commands: the example data of examples/ (nothing made up here)."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")


def _documented_files() -> list[Path]:
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


def _is_long(command: str) -> bool:
    args = command.split()
    return args[1] in LONG_VERBS and "--list" not in args


def _run_documented(tmp_path: Path, monkeypatch, long: bool) -> dict[str, set[str]]:
    """Run every `$ littlestone …` line of README.md and docs/*.md as written, each file's lines in order in a fresh
    directory holding only what a clone provides; the long ones only when ``long`` (and each distinct long command
    once). Returns the verbs run per file."""
    from typer.testing import CliRunner

    from littlestone.cli import app

    done_long: set[str] = set()
    verbs: dict[str, set[str]] = {}
    for path in _documented_files():
        commands = [c for c, _ in _console_blocks(path)]
        if not commands:
            continue
        work = tmp_path / path.stem
        work.mkdir()
        _prepare(work)
        monkeypatch.chdir(work)
        for command in commands:
            args = command.split()
            assert args[0] == "littlestone", (path.name, command)
            if _is_long(command) and (not long or command in done_long):
                continue
            done_long.update([command] if _is_long(command) else [])
            verbs.setdefault(path.name, set()).add(args[1])
            r = CliRunner().invoke(app, args[1:])
            assert r.exit_code == 0, (path.name, command, r.output[-500:])
    return verbs


def test_every_documented_command_runs(tmp_path, monkeypatch):
    """Each `$ littlestone …` line of README.md and docs/*.md exits 0 as written, from a fresh directory with only the
    repository's examples/ (the long audit/demo/experiment runs: test_every_documented_command_runs_slow)."""
    verbs = _run_documented(tmp_path, monkeypatch, long=False)
    assert len(_console_blocks(README)) >= 10
    assert verbs["README.md"] >= {"ldim", "tree", "play", "learn", "predict", "bounds", "experiment"}
    assert {"README_snippets.md", "tutorial.md"} <= set(verbs)
    assert (tmp_path / "README" / "predictions.csv").exists() and (tmp_path / "README" / "tree.png").exists()


@pytest.mark.slow
def test_every_documented_command_runs_slow(tmp_path, monkeypatch):
    """All of them, the long ones too (each distinct long command once)."""
    verbs = _run_documented(tmp_path, monkeypatch, long=True)
    assert verbs["README.md"] >= {"ldim", "tree", "play", "learn", "predict", "bounds", "audit", "experiment", "demo"}
    assert (tmp_path / "README" / "littlestone-report" / "index.html").exists()


def test_docs_console_outputs_are_what_the_cli_prints(tmp_path, monkeypatch):
    """Output lines shown under a command in the tutorial and the README snippets appear in its real output
    (apart from learned values that depend on the noise, written with 'e.g.')."""
    from typer.testing import CliRunner

    from littlestone.cli import app

    _prepare(tmp_path)
    monkeypatch.chdir(tmp_path)
    docs = README.parent / "docs"
    checked = 0
    for path in (docs / "tutorial.md", docs / "README_snippets.md"):
        for command, shown in _console_blocks(path):
            if not shown or "learn" in command.split()[1:2]:
                continue  # no output shown, or a learned hypothesis that depends on the noise
            r = CliRunner().invoke(app, command.split()[1:])
            assert r.exit_code == 0, (command, r.output[-300:])
            for line in shown:
                assert line.strip() in r.output, (path.name, command, line)
            checked += 1
    assert checked >= 4
