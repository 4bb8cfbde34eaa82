"""Imports run one way (tools/import_graph.py): the tool sees back edges and private imports, and the tree has no
import of another sub-package's private names."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "tools" / "import_graph.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_no_private_imports_across_sub_packages():
    edges, _, private = _tool().analyse(ROOT / "src" / "littlestone")
    assert edges, "the analysis found no imports at all"
    assert private == [], "private imports:\n" + "\n".join(private)


def test_the_tool_sees_a_back_edge_and_a_private_import(tmp_path):
    pkg = tmp_path / "littlestone"
    for sub in ("classes", "cli"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "classes" / "bad.py").write_text("def f():\n    from ..cli import _common\n")
    _, back, private = _tool().analyse(pkg)
    assert len(back) == 1 and "classes → cli" in back[0]
    assert len(private) == 1 and "littlestone.cli._common" in private[0]


def test_no_back_edges_between_layers():
    """classes → dimensions → online → privacy → … → cli: no package imports one above it."""
    _, back, _ = _tool().analyse(ROOT / "src" / "littlestone")
    assert back == [], "back edges:\n" + "\n".join(back)


def test_every_sub_package_has_a_layer():
    """A new sub-package must be placed in the layer order, or its imports would not be checked."""
    tool = _tool()
    packages = {p.name for p in (ROOT / "src" / "littlestone").iterdir() if (p / "__init__.py").exists()}
    assert packages <= set(tool.LAYERS), f"not in LAYERS: {sorted(packages - set(tool.LAYERS))}"
