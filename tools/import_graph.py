"""The import graph of littlestone's sub-packages, checked against the layers (imports run one way).

Layers, lowest first: the package root's shared modules (errors, _random, _progress, parallel, ...) → classes →
dimensions → online → privacy → bounds → pac → audit → experiments → testing → cli. A module may import its own
sub-package and any lower layer; an import of a higher layer is a *back edge*. Imports inside functions count (a lazy
import is still a dependency). Also reported: imports of another sub-package's private names (``_name`` modules or
attributes); the root's shared private modules (``littlestone._random`` ...) are everybody's.

Usage: python tools/import_graph.py [--src src/littlestone] [--edges]   (exit 1 if there is a back edge or a private
import; ``--edges`` prints every package-to-package edge with its count).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path

LAYERS = (
    "",
    "classes",
    "dimensions",
    "online",
    "privacy",
    "experts",
    "bounds",
    "pac",
    "sanitizers",
    "private_online",
    "agnostic_online",
    "audit",
    "experiments",
    "testing",
    "cli",
)
RANK = {name: i for i, name in enumerate(LAYERS)}
ROOT = "littlestone"


def module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_of(module: str) -> str:
    """The sub-package (layer) a module belongs to: '' for the root's own modules."""
    parts = module.split(".")
    if len(parts) >= 2 and parts[1] in RANK and parts[1] != "":
        return parts[1]
    return ""


def resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(path: Path, module: str) -> list[tuple[str, str | None, int]]:
    """(imported module, imported name or None, line) for every littlestone import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, None, node.lineno) for a in node.names if a.name.split(".")[0] == ROOT]
        elif isinstance(node, ast.ImportFrom):
            target = resolve(module, path.name == "__init__.py", node)
            if target.split(".")[0] == ROOT:
                out += [(target, a.name, node.lineno) for a in node.names]
    return out


def analyse(src: Path) -> tuple[Counter, list[str], list[str]]:
    edges: Counter = Counter()
    back, private = [], []
    for path in sorted(src.rglob("*.py")):
        module = module_name(path, src)
        if module == ROOT:  # the root __init__ is the facade: it re-exports every layer
            continue
        mine = package_of(module)
        for target, name, line in imports(path, module):
            full = f"{target}.{name}" if name else target
            theirs = package_of(target)
            if name and target.count(".") == 0 and name in RANK:  # "from littlestone import pac"
                theirs = name
            where = f"{path.relative_to(src.parent.parent) if src.parent.parent in path.parents else path}:{line}"
            if theirs != mine:
                edges[(mine or "(root)", theirs or "(root)")] += 1
                if RANK[theirs] > RANK[mine]:
                    back.append(f"{where}: {mine or '(root)'} → {theirs} ({full})")
                if theirs:  # another sub-package's private module or name
                    inner = full.split(".")[2:]
                    if any(p.startswith("_") and not p.startswith("__") for p in inner):
                        private.append(f"{where}: {full}")
    return edges, back, private


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src" / ROOT)
    ap.add_argument("--edges", action="store_true", help="print every package-to-package edge")
    args = ap.parse_args(argv)
    edges, back, private = analyse(args.src)
    print("layers (low → high): " + " → ".join(name or "(root)" for name in LAYERS))
    if args.edges:
        for (a, b), n in sorted(
            edges.items(), key=lambda e: (RANK.get(e[0][0].strip("()").replace("root", ""), 0), e[0])
        ):
            print(f"  {a:>12} → {b:<12} {n:4d} import(s)")
    print(f"{sum(edges.values())} cross-package imports, {len(back)} back edge(s), {len(private)} private import(s)")
    for line in back:
        print("BACK EDGE   " + line)
    for line in private:
        print("PRIVATE     " + line)
    return 1 if back or private else 0


if __name__ == "__main__":
    sys.exit(main())
