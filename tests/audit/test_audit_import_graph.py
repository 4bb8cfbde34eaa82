"""The audit package registers one way (issue 34 item 6): the registry imports the audit modules, no audit module
imports the registry (or the package facade) back — the package's module import graph, lazy imports included, has
no cycle. The audits listed are the ones listed before the change."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "littlestone" / "audit"


def _tool():
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "tools" / "import_graph.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def module_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (at module level or inside functions). ``from . import
    x`` is an edge to module ``x`` when ``x`` is a module of the package, else to the package's ``__init__``."""
    tool = _tool()
    src = package.parent
    names = {tool.module_name(p, src) for p in package.glob("*.py")}
    pkg = tool.module_name(package / "__init__.py", src)
    graph: dict[str, set[str]] = {}
    for path in sorted(package.glob("*.py")):
        mod = tool.module_name(path, src)
        out = set()
        for target, name, _ in tool.imports(path, mod):
            if name and f"{target}.{name}" in names:
                out.add(f"{target}.{name}")
            elif target in names:
                out.add(target)
        out.discard(mod)
        graph[mod] = out
    graph.setdefault(pkg, set())
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_audit_package_has_no_import_cycle():
    found = cycles(module_graph(PACKAGE))
    assert found == [], "import cycles in littlestone.audit:\n" + "\n".join(" ↔ ".join(c) for c in found)


def test_no_audit_module_imports_the_registry_or_the_facade():
    graph = module_graph(PACKAGE)
    back = sorted(m for m, out in graph.items() if out & {"littlestone.audit.registry", "littlestone.audit"})
    assert back in ([], ["littlestone.audit"]), back  # only the facade (__init__) re-exports the registry


def test_the_check_sees_a_cycle(tmp_path):
    pkg = tmp_path / "littlestone" / "audit"
    pkg.mkdir(parents=True)
    (pkg.parent / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from .registry import everything\n")
    (pkg / "registry.py").write_text("from . import mine\n\ndef everything():\n    return mine.audits()\n")
    (pkg / "mine.py").write_text("def audits():\n    from .registry import everything\n    return everything\n")
    (pkg / "spec.py").write_text("X = 1\n")
    assert cycles(module_graph(pkg)) == [["littlestone.audit.mine", "littlestone.audit.registry"]]
    (pkg / "mine.py").write_text("from .spec import X\n\ndef audits():\n    return [X]\n")
    assert cycles(module_graph(pkg)) == []
