"""Noise only through mechanism objects (issue 19 item 2, for pac/): no module of littlestone.pac calls a backend's
noise methods directly; every draw goes through a Mechanism of littlestone.privacy, whose claim the learner composes."""

from __future__ import annotations

import ast
from pathlib import Path

import littlestone.pac

NOISE_METHODS = {"laplace", "discrete_laplace", "gumbel", "noisy_argmax", "exponential", "uniform"}
#: attribute calls named add_* that are not noise (argparse)
NOT_NOISE = {"add_argument", "add_argument_group", "add_parser", "add_subparsers"}


def _noise_calls(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name in NOISE_METHODS or (name.startswith("add_") and name not in NOT_NOISE):
                found.append(f"{path.name}:{node.lineno} .{name}(")
    return found


def test_no_pac_module_draws_noise_from_a_backend():
    pac = Path(littlestone.pac.__file__).parent
    found = [hit for path in sorted(pac.glob("*.py")) for hit in _noise_calls(path)]
    assert not found, "backend noise called outside a mechanism object: " + ", ".join(found)


def test_the_scan_sees_a_direct_draw(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(backend, x):\n    return x + backend.laplace(1.0)\n")
    assert _noise_calls(bad) == ["bad.py:2 .laplace("]
