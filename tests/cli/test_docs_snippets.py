"""The README-ready Python snippet in docs/README_snippets.md runs and prints what it claims."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_readme_python_snippet_runs():
    text = (DOCS / "README_snippets.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README_snippets.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "9" and lines[1] == "9"
    assert "(1.0, 0.0)" in lines[2] and "['benign' 'malignant']" in lines[2]


def test_readme_pipeline_snippet_runs():
    text = (DOCS / "README_snippets.md").read_text(encoding="utf-8")
    code = re.findall(r"```python\n(.*?)```", text, re.S)[1]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README_snippets.md", "exec"), {})
    assert float(out.getvalue().strip()) > 0.8


def test_tutorial_images_exist():
    text = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    images = re.findall(r"\]\((images/[^)]+)\)", text)
    assert len(images) >= 5
    for rel in images:
        assert (DOCS / rel).read_bytes()[:4] == b"\x89PNG", rel
