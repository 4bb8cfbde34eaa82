"""README.md stays true: its Python example runs, and its quick start names exactly the two set-up commands."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

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


def _prepare(tmp_path: Path) -> None:
    rows = "".join(f"{i % 100},{int(i % 100 >= 37)}\n" for i in range(400))
    (tmp_path / "train.csv").write_text("x,label\n" + rows)
    (tmp_path / "test.csv").write_text("x,label\n5,0\n50,1\n")


def test_every_readme_command_runs(tmp_path, monkeypatch):
    """Each command of README.md's command-line block exits 0 (run in a scratch directory, in order)."""
    from typer.testing import CliRunner

    from littlestone.cli import app

    _prepare(tmp_path)
    monkeypatch.chdir(tmp_path)
    commands = _console_blocks(README)
    assert len(commands) >= 10
    verbs = set()
    for command, _ in commands:
        args = command.split()
        assert args[0] == "littlestone"
        verbs.add(args[1])
        r = CliRunner().invoke(app, args[1:])
        assert r.exit_code == 0, (command, r.output[-500:])
    assert verbs >= {"ldim", "tree", "play", "learn", "predict", "bounds", "audit", "experiment", "demo"}
    assert (tmp_path / "littlestone-report" / "index.html").exists() and (tmp_path / "predictions.csv").exists()


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
