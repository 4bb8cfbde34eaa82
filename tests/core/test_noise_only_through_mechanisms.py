"""Noise only through mechanism objects (issue 19 item 2): no module of ``src/littlestone`` outside ``privacy/`` calls
a noise sampler — a backend's ``laplace``, ``discrete_laplace``, ``gumbel``, ``noisy_argmax`` or ``add_*`` method, or
the same-named samplers of a NumPy generator — so every draw goes through a ``Mechanism`` of
:mod:`littlestone.privacy` whose claim the learner composes. An AST scan, like the import-graph test."""

from __future__ import annotations

import ast
from pathlib import Path

from littlestone.privacy.backends import Backend

ROOT = Path(__file__).resolve().parents[2] / "src" / "littlestone"

#: the noise samplers a learner must not call itself: the backend's samplers and every add_* noise method it has,
#: plus NumPy's samplers of the same laws
NOISE_METHODS = frozenset(
    {"laplace", "discrete_laplace", "discrete_laplace_at_least", "gumbel", "noisy_argmax", "exponential"}
    | {name for name in dir(Backend) if name.startswith("add_")}
)

#: modules allowed to draw noise themselves: the mechanisms (privacy/), the auditor's deliberately broken twins and
#: the toy mechanisms that validate the auditor itself (no library mechanism). Doc examples are strings, not calls.
ALLOWED = (
    "privacy/",
    "audit/broken.py",  # broken twins: subclasses overriding __call__ with a bug, keeping the claim
    "audit/threshold_label.py",  # its broken twin _FloatNoisedTree (noise added in floats)
    "audit/segment_learners.py",  # only its broken twins (_first_top: AboveThreshold at a wrong scale or shape)
    "audit/toy.py",  # toy mechanisms with known privacy loss, for the auditor's own tests
    "testing/calibration.py",  # RecordingBackend: a backend whose samplers log and delegate to SeededBackend's
)

#: offenders outside this change's scope, each to be emptied by the helper named (the lead empties this list after
#: merging; the test fails if an entry no longer offends, so the list cannot go stale)
PENDING: set[str] = set()


def noise_calls(root: Path = ROOT) -> dict[str, list[str]]:
    """module (relative path) -> ["line: method", …] for every call of a noise method outside ALLOWED."""
    out: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(ALLOWED):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in NOISE_METHODS:
                out.setdefault(rel, []).append(f"{node.lineno}: .{node.func.attr}(…)")
    return out


def test_no_noise_drawn_outside_mechanism_objects():
    found = noise_calls()
    offenders = {m: calls for m, calls in found.items() if m not in PENDING}
    assert offenders == {}, "noise drawn outside littlestone.privacy's mechanism objects:\n" + "\n".join(
        f"  {m}: {', '.join(c)}" for m, c in offenders.items()
    )


def test_pending_offenders_still_offend():
    """An entry of PENDING whose calls are gone must leave the list (so it empties as the work lands)."""
    stale = sorted(m for m in PENDING if m not in noise_calls())
    assert stale == [], f"no longer drawing noise directly, remove from PENDING: {stale}"


def test_the_scan_sees_a_direct_draw(tmp_path):
    pkg = tmp_path / "littlestone"
    (pkg / "experts").mkdir(parents=True)
    (pkg / "privacy").mkdir()
    (pkg / "experts" / "bad.py").write_text(
        "def f(backend, v):\n    return backend.add_discrete_laplace(v, 2.0) + backend.laplace(1.0)\n"
    )
    (pkg / "privacy" / "ok.py").write_text("def g(backend):\n    return backend.gumbel(1.0)\n")
    (pkg / "experts" / "doc.py").write_text('"""backend.laplace(1.0) in a doc example"""\n')
    found = noise_calls(pkg)
    assert list(found) == ["experts/bad.py"] and len(found["experts/bad.py"]) == 2
