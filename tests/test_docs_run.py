"""Docs are code: every ```python block and every ``$ littlestone …`` console line of README.md and docs/*.md runs,
and the figures the text states next to them are checked (issue 32 item 5). Files are found by glob, so blocks
added later to any of them are picked up.

Conventions (for whoever writes docs):

* **Python blocks of one file share one namespace, in the order they appear** (a page reads top to bottom: a later
  block may use the names an earlier one defined); every file starts from a fresh namespace. A block that is run
  must not need anything else (no undefined data: define ``X, y`` in the block or an earlier one of the same file).
* **Stated figures.** A statement whose line ends with ``# -> EXPECTED`` must print (``print(...)``) or evaluate to
  (a bare expression) EXPECTED: ``…`` in EXPECTED matches anything (a value that depends on the noise),
  ``≈ V`` means within 0.05 of the number V, and text after `` — `` is commentary. ``# e.g. …`` states no figure.
* **Console lines.** Each ``$ littlestone …`` line of a ```console block runs as written (exit 0) in a fresh
  directory holding only a copy of the repository's ``examples/`` (outputs land there, never in the repository),
  the lines of one file in order. The output lines shown under a command must appear in its output, unless the
  command's line ends with a comment holding ``e.g.`` (the output depends on the noise).
* **Markers.** An HTML comment on the line just before a block's fence: ``<!-- docs-test: skip REASON -->`` (a
  block that needs a cluster, a browser, …: skipped with the reason) or ``<!-- docs-test: slow -->`` (runs only in
  the slow set: ``make test-slow``). ``audit``, ``demo`` and ``experiment`` console lines (not ``--list``) are slow
  too. A block whose import of an optional extra fails (river, distributed) is skipped naming the extra.
* **Printed output.** A ```text block marked ``<!-- docs-test: output -->`` on the line before its fence is what
  the nearest ```python block above it prints (its ``print`` calls, not the values of bare expressions): its
  non-blank lines, stripped, must equal the printed non-blank lines one for one, in order. ``…`` inside a line
  matches anything (a figure that depends on the noise); a line that is ``…`` alone stands for any number of lines.
  It runs (and is checked) whenever its Python block runs. A paragraph right after a python block that says what
  it prints ("It prints …", "prints `…`", "… prints:") must be followed by one (the indented or inline figures it used to show were never checked).
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"

#: verbs whose documented runs take minutes (the audits of every registered mechanism; demo and experiment runs)
LONG_VERBS = {"audit", "demo", "experiment"}
#: optional extras a block may import; a block failing on one of these is skipped (the extra is not installed)
OPTIONAL_MODULES = {"river", "distributed", "dask", "playwright"}

_FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[A-Za-z]*)[ \t]*$")
_MARKER = re.compile(r"<!--\s*docs-test:\s*(?P<kind>skip|slow|output)\b\s*(?P<reason>.*?)\s*-->")
_EXPECT = re.compile(r"#\s*->\s*(?P<want>.+?)\s*$")


@dataclass
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    lang: str
    code: str
    skip: str | None = None
    slow: bool = False
    output: bool = False  # a ```text block holding what the python block above it prints
    shown: list = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{_rel(self.path)}:{self.line}"


def _rel(path: Path) -> str:
    """``path`` relative to the repository (a page written elsewhere, as the mutation tests do: its name)."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def documented_files() -> list[Path]:
    """README.md, docs/*.md (found by glob: pages added later are picked up) and examples/README.md."""
    return [README, *sorted(DOCS.glob("*.md")), ROOT / "examples" / "README.md"]


def blocks(path: Path) -> list[Block]:
    """Every fenced block of ``path`` (indented ones inside list items too), with its marker."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang, start = m.group("indent"), m.group("lang"), i
        body = []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        block = Block(path, start + 1, lang, "\n".join(body) + "\n")
        prev = next((lines[k] for k in range(start - 1, -1, -1) if lines[k].strip()), "")
        mk = _MARKER.search(prev)
        if mk:
            if mk.group("kind") == "skip":
                block.skip = mk.group("reason") or "marked skip"
            elif mk.group("kind") == "output":
                block.output = True
            else:
                block.slow = True
        out.append(block)
        i += 1
    return out


# --- Python blocks -------------------------------------------------------------------------------------------------


def _matches(want: str, got: str) -> bool:
    want = want.split(" — ")[0].strip()
    got = got.strip()
    if want.startswith("≈"):
        try:
            return abs(float(got) - float(want[1:].split()[0])) <= 0.05
        except ValueError:
            return False
    pattern = ".*".join(re.escape(part.strip()) for part in want.split("…"))
    return re.fullmatch(pattern, got, re.S) is not None or (want == got)


def _output_matches(shown: str, printed: str) -> bool:
    """The printed-output convention: the shown non-blank lines equal the printed ones in order, ``…`` inside a line
    matching anything and a line of ``…`` alone any number of lines."""

    def line(want: str) -> str:
        return ".*".join(re.escape(part) for part in want.split("…"))

    want = [ln.strip() for ln in shown.splitlines() if ln.strip()]
    got = [ln.strip() for ln in printed.splitlines() if ln.strip()]
    pattern = "".join(r"(?:[^\n]*\n)*" if w == "…" else line(w) + r"\n" for w in want)
    return re.fullmatch(pattern, "".join(g + "\n" for g in got)) is not None


def _run_python(block: Block, namespace: dict, printed: io.StringIO | None = None) -> int:
    """Run ``block`` statement by statement in ``namespace``; check every ``# -> EXPECTED``. Returns how many
    stated figures it checked; what the block prints is also written to ``printed``."""
    tree = ast.parse(block.code, filename=block.where)
    src = block.code.splitlines()
    offset = block.line  # tracebacks name the doc's own line numbers
    filename = _rel(block.path)
    printed = printed if printed is not None else io.StringIO()
    checked = 0
    for stmt in tree.body:
        want = None
        for ln in range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1):
            m = _EXPECT.search(src[ln - 1])
            if m:
                want = m.group("want")
        is_print = (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and getattr(stmt.value.func, "id", None) == "print"
        )
        out = io.StringIO()
        node = ast.increment_lineno(stmt, offset)
        with contextlib.redirect_stdout(out):
            if isinstance(node, ast.Expr) and not is_print:
                value = eval(compile(ast.Expression(node.value), filename, "eval"), namespace)
                print(value)
            else:
                exec(compile(ast.Module([node], type_ignores=[]), filename, "exec"), namespace)
                printed.write(out.getvalue())
        if want is not None and not want.startswith("e.g."):
            got = out.getvalue()
            assert _matches(want, got), f"{filename}:{node.lineno}: stated {want!r}, got {got.strip()!r}"
            checked += 1
    return checked


def _python_files() -> list[Path]:
    return [p for p in documented_files() if any(b.lang == "python" for b in blocks(p))]


def _run_python_file(path: Path, tmp_path: Path, monkeypatch, slow: bool) -> tuple[int, list[str]]:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    checked, skipped = 0, []
    last: tuple[Block, str] | None = None  # the last python block that ran and what it printed
    for block in blocks(path):
        if block.output:
            if last is not None:
                assert _output_matches(block.code, last[1]), (
                    f"{block.where}: the output shown is not what {last[0].where} printed:\n{last[1]}"
                )
                checked += 1
            continue
        if block.lang != "python":
            continue
        last = None
        if block.skip:
            skipped.append(f"{block.where}: {block.skip}")
            continue
        if block.slow and not slow:
            skipped.append(f"{block.where}: slow")
            continue
        printed = io.StringIO()
        try:
            checked += _run_python(block, namespace, printed)
            last = (block, printed.getvalue())
        except ModuleNotFoundError as e:
            if (e.name or "").split(".")[0] not in OPTIONAL_MODULES:
                raise
            skipped.append(f"{block.where}: needs the optional {e.name}")
    return checked, skipped


@pytest.mark.parametrize("path", _python_files(), ids=lambda p: p.name)
def test_python_blocks_run_and_print_what_they_state(path, tmp_path, monkeypatch):
    """Each file's blocks run in order (one namespace per file) and print the figures they state; blocks marked
    slow run in the slow twin."""
    _run_python_file(path, tmp_path, monkeypatch, slow=False)


@pytest.mark.slow
@pytest.mark.parametrize("path", _python_files(), ids=lambda p: p.name)
def test_python_blocks_run_slow(path, tmp_path, monkeypatch):
    """The blocks marked slow too."""
    _run_python_file(path, tmp_path, monkeypatch, slow=True)


def test_the_stated_figures_are_checked():
    """The conventions are in use where the text states figures (the README's 60s, the tutorial's 9s)."""
    stated = [
        (b.where, line)
        for p in documented_files()
        for b in blocks(p)
        if b.lang == "python"
        for line in b.code.splitlines()
        if _EXPECT.search(line)
    ]
    where = {w.split(":")[0] for w, _ in stated}
    assert {"README.md", "docs/tutorial.md", "docs/README_snippets.md"} <= where, stated


def test_the_figure_convention():
    assert _matches("60 — the SOA errs exactly Ldim times", "60\n") and not _matches("60", "61\n")
    assert _matches(
        "Threshold(…,) (1.0, 0.0) ['benign' 'malignant']", "Threshold(37,) (1.0, 0.0) ['benign' 'malignant']"
    )
    assert not _matches(
        "Threshold(…,) (1.0, 0.0) ['benign' 'malignant']", "Threshold(37,) (0.5, 0.0) ['benign' 'malignant']"
    )
    assert _matches("≈ 0.9 — each fit ε-DP", "0.93\n") and not _matches("≈ 0.9", "0.8\n")


def _output_blocks(path: Path) -> list[Block]:
    return [b for b in blocks(path) if b.output]


def _output_problems(path: Path) -> list[str]:
    """Where ``path`` breaks the printed-output convention: an output block that is not a ```text block below a
    python block, or a paragraph right after a python block saying it "prints" with no output block next."""
    lines = path.read_text(encoding="utf-8").splitlines()
    bs, problems = blocks(path), []
    for i, b in enumerate(bs):
        if b.output and (b.lang != "text" or not any(o.lang == "python" for o in bs[:i])):
            problems.append(f"{b.where}: an output block is a ```text block below a python block")
        if b.lang != "python":
            continue
        after = "\n".join(lines[b.line + len(b.code.splitlines()) + 1 :]).strip().split("\n\n")[0]  # past the fence
        says = re.match(r"(?i)(?:it |this |that |the (?:block|code|snippet) )?prints\b", after)
        if says or (after.endswith(":") and re.search(r"\bprints\b", after)):
            if not (i + 1 < len(bs) and bs[i + 1].output):
                problems.append(f"{b.where}: the text says it prints; show it in an output block")
    return problems


def test_the_printed_output_is_checked(tmp_path):
    """The convention is in use where a page shows what a block prints (sklearn.md's private grid search,
    private_online.md's feature grid) and every page keeps it; a page that states printed figures in prose is
    caught."""
    where = {_rel(p) for p in documented_files() if _output_blocks(p)}
    assert {"docs/sklearn.md", "docs/private_online.md"} <= where, where
    assert [q for p in documented_files() for q in _output_problems(p)] == []
    old = tmp_path / "old.md"  # private_online.md's feature-grid passage as it was
    old.write_text("```python\nprint((12, 15, 4), 'constant 1')\n```\n\nprints `(12, 15, 4) constant 1`.\n")
    assert _output_problems(old) == ["old.md:1: the text says it prints; show it in an output block"]


@pytest.mark.parametrize(
    ("page", "figure", "changed"),
    [("private_online.md", "(12, 15, 4) constant 1", "(12, 15, 5) constant 1"), ("sklearn.md", "0.825;", "0.826;")],
)
def test_a_changed_printed_figure_turns_red(page, figure, changed, tmp_path, monkeypatch):
    """Mutation: the page as it is passes; one printed figure changed in its output block fails."""
    text = (DOCS / page).read_text(encoding="utf-8")
    block = next(b for b in _output_blocks(DOCS / page) if figure in b.code)
    lines = text.splitlines(keepends=True)
    # the page cut down to its output block: the python blocks above it run, nothing below
    cut = "".join(lines[: block.line + len(block.code.splitlines()) + 1])
    for name, doc in [("same", cut), ("changed", cut.replace(figure, changed))]:
        (tmp_path / name).mkdir()
        (tmp_path / name / page).write_text(doc, encoding="utf-8")
    _run_python_file(tmp_path / "same" / page, tmp_path / "run_same", monkeypatch, slow=False)
    with pytest.raises(AssertionError, match="the output shown is not what"):
        _run_python_file(tmp_path / "changed" / page, tmp_path / "run_changed", monkeypatch, slow=False)


def test_the_output_convention():
    printed = "a 1\nb 2\n\nc 3\n"
    assert _output_matches("a 1\nb 2\nc 3", printed) and _output_matches("  a …\n\nb 2\nc 3\n", printed)
    assert _output_matches("a 1\n…\nc 3", printed) and _output_matches("…\nc 3", printed)
    assert not _output_matches("a 1\nb 3\nc 3", printed)  # a changed figure
    assert not _output_matches("a 1\nc 3", printed)  # a missing line
    assert not _output_matches("a 1\nb 2", printed)  # an extra printed line
    assert not _output_matches("a 1\nb 2\nc 3\nd 4", printed)


def test_skipped_blocks_say_why():
    for p in documented_files():
        for b in blocks(p):
            assert b.skip is None or len(b.skip) > 10, f"{b.where}: a skip needs its reason"


# --- console lines -------------------------------------------------------------------------------------------------


@dataclass
class Command:
    block: Block
    text: str
    shown: list[str]
    noisy: bool

    @property
    def args(self) -> list[str]:
        return self.text.split()

    @property
    def long(self) -> bool:
        return self.block.slow or (self.args[1] in LONG_VERBS and "--list" not in self.args)


def commands(path: Path) -> list[Command]:
    """(command, shown output lines) for every ``$ littlestone …`` line of the file's console blocks."""
    out: list[Command] = []
    for block in blocks(path):
        if block.lang != "console":
            continue
        for line in block.code.splitlines():
            if line.startswith("$ "):
                text, _, comment = line[2:].partition("  #")
                out.append(Command(block, text.strip(), [], "e.g." in comment))
            elif out and out[-1].block is block and line.strip() and line.strip() != "...":
                out[-1].shown.append(line.rstrip())
    return out


def _run_console(tmp_path: Path, monkeypatch, long: bool) -> dict[str, set[str]]:
    """Run every documented command, each file's lines in order in a fresh directory with only examples/; the long
    ones only when ``long`` (each distinct one once). Returns the verbs run per file."""
    from typer.testing import CliRunner

    from littlestone.cli import app

    done_long: set[str] = set()
    verbs: dict[str, set[str]] = {}
    for path in documented_files():
        cmds = commands(path)
        if not cmds:
            continue
        work = tmp_path / str(path.relative_to(ROOT).with_suffix("")).replace("/", "_")
        work.mkdir()
        shutil.copytree(ROOT / "examples", work / "examples")
        monkeypatch.chdir(work)
        for c in cmds:
            assert c.args[0] == "littlestone", (c.block.where, c.text)
            if c.block.skip or (c.long and (not long or c.text in done_long)):
                continue
            if c.long:
                done_long.add(c.text)
            verbs.setdefault(path.name, set()).add(c.args[1])
            r = CliRunner().invoke(app, c.args[1:])
            assert r.exit_code == 0, (c.block.where, c.text, r.output[-800:])
            if not c.noisy:
                for line in c.shown:
                    assert line.strip() in r.output, (c.block.where, c.text, line, r.output[-800:])
    return verbs


def test_every_documented_command_runs_and_prints_what_is_shown(tmp_path, monkeypatch):
    """Each ``$ littlestone …`` line of README.md and docs/*.md exits 0 as written and prints the lines shown under
    it (the long audit/demo/experiment runs: the slow twin)."""
    verbs = _run_console(tmp_path, monkeypatch, long=False)
    assert len(commands(README)) >= 10
    assert verbs["README.md"] >= {"ldim", "tree", "play", "learn", "predict", "bounds", "experiment"}
    assert {"README_snippets.md", "tutorial.md", "cli.md", "private_online.md"} <= set(verbs)
    assert (tmp_path / "examples_README" / "ledger.json").exists()  # examples/README.md's play --data --ledger
    assert (tmp_path / "README" / "predictions.csv").exists() and (tmp_path / "README" / "tree.png").exists()


@pytest.mark.slow
def test_every_documented_command_runs_slow(tmp_path, monkeypatch):
    """All of them, the long ones too (each distinct long command once)."""
    verbs = _run_console(tmp_path, monkeypatch, long=True)
    assert verbs["README.md"] >= {"ldim", "tree", "play", "learn", "predict", "bounds", "audit", "experiment", "demo"}
    assert (tmp_path / "README" / "littlestone-report" / "index.html").exists()


# --- the rest of what the README promises --------------------------------------------------------------------------


def test_readme_quick_start_is_the_two_make_commands():
    block = re.search(r"## Quick start\n\n```bash\n(.*?)```", README.read_text(encoding="utf-8"), re.S).group(1)
    assert [line.split("#")[0].strip() for line in block.strip().splitlines()] == ["make demo", "make test"]


def test_tutorial_images_exist():
    images = re.findall(r"\]\((images/[^)]+)\)", (DOCS / "tutorial.md").read_text(encoding="utf-8"))
    assert len(images) >= 5
    for rel in images:
        assert (DOCS / rel).read_bytes()[:4] == b"\x89PNG", rel


def test_command_lines_outside_console_blocks_are_none():
    """A ``littlestone …`` example in a bare ``` block would escape this test: every one is a console line."""
    for p in documented_files():
        for b in blocks(p):
            if b.lang == "":
                assert not re.search(r"^\s*\$?\s*littlestone ", b.code, re.M), f"{b.where}: use ```console and '$ '"
