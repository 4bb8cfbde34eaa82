#!/usr/bin/env python3
"""Privacy-focused mutation testing for littlestone (``make mutation``; not part of ``make test``).

A test suite guards privacy only if it turns red when the code that earns a claim is weakened. This runner makes the
weakenings a privacy reviewer cares about, one at a time, and runs the tests that reach each one:

* ``halve``   — a noise scale (a keyword argument or assignment named ``scale``, ``sigma``, ``sensitivity``, ``b``,
  ``noise_scale``, ``*_scale``) is halved;
* ``double``  — a privacy parameter (``epsilon``, ``eps*``, ``*_epsilon``, ``delta*``, ``rho``) is doubled, i.e. the noise
  calibrated from it is halved or a budget split hands out twice its share;
* ``count``   — a composition count (``k``, ``n_*``, ``*_count``, ``rounds``, ``steps``, ``parts``, ``batches``,
  ``repetitions``) feeding a privacy computation is decremented;
* ``overlap`` — a slice ``a[i:j]`` reads one more example (``j + 1``, or ``i - 1``): one example feeds two steps;
* ``drop``    — ``x + noise`` (an operand whose source mentions ``noise``) loses its noise term;
* ``misread`` — a read leaves its declared part (issue 26 item 3): a part's bound ``p.stop`` reads one more record
  (``p.stop + 1``), ``p.start`` one earlier (``p.start - 1``), and ``parts[i]`` (a container named ``parts``,
  ``batches``, ``datasets``, ``blocks``, ``readers``, ``ranges`` or ``*_parts``) reads the neighbouring part
  (``parts[(i + 1) % len(parts)]``): one record, or a whole part, feeds a step the split did not charge it to.

How it runs (mutation schemata, as in mutmut / Untch et al. 1993): every target module is rewritten once into a shadow
copy of ``src/`` where each mutation site reads ``(MUTANT if _lsmut.on(ID) else ORIGINAL)``; the parent imports the
package once and forks one child per mutant, which switches its mutant on and runs ``pytest`` on the tests that reached
the site in a recorded coverage run (so a mutant is only charged the tests that can see it). A mutant is *killed* when
its tests fail or time out, *survived* when they pass, *uncovered* when no test reaches it. Numba-compiled functions and
module-level code are not mutated (the switch is read at call time).

Usage::

    python tools/mutate.py src/littlestone/privacy src/littlestone/experts --jobs 2 --out mutation.json
    python tools/mutate.py --list src/littlestone/private_online      # the mutants, without running them

The JSON report lists every mutant with its site, operator, status and the tests run; ``--justify FILE`` reads a JSON
map ``{key: reason}`` (key: ``path | operator | line text``, or ``path:line:col:operator``) whose survivors are reported as *justified* (equivalent mutants, or steps no claim rests
on) instead of *survived*.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
SWITCH = "_lsmut"

SCALE_NAMES = re.compile(r"^(scale|sigma|sensitivity|b|noise_scale|\w+_scale|scale_\w+|\w+_sensitivity)$")
PRIVACY_NAMES = re.compile(r"^(epsilon|eps|eps_\w+|epsilon_\w+|\w+_epsilon|\w+_eps|delta|delta_\w+|\w+_delta|rho)$")
COUNT_NAMES = re.compile(
    r"^(k|n_\w+|\w+_count|count|rounds|n_rounds|steps|n_steps|parts|n_parts|batches|n_batches|repetitions|times)$"
)
PART_CONTAINERS = re.compile(r"^(parts|batches|datasets|blocks|readers|ranges|\w+_parts)$")
SKIP_DECORATORS = {"njit", "jit", "vectorize", "guvectorize", "cfunc", "overload", "generated_jit"}
SKIP_FILES = {"_kernels.py", "_kernels_build.py", "_aot.py", "__init__.py"}


@dataclass
class Mutant:
    id: int
    path: str
    line: int
    col: int
    op: str
    source: str
    status: str = "pending"
    tests: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def key(self) -> str:
        return f"{self.path}:{self.line}:{self.col}:{self.op}"

    @property
    def stable_key(self) -> str:
        """path | operator | the mutated line's text: survives edits elsewhere in the file (used by --justify)."""
        return f"{self.path} | {self.op} | {self.source}"


def _name_of(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_numeric_expr(node: ast.AST) -> bool:
    """Exclude what can't be a number: strings, containers, None/bools, lambdas, comprehensions."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    return not isinstance(
        node,
        (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.JoinedStr, ast.Lambda, ast.ListComp, ast.DictComp, ast.SetComp),
    )


class Instrument(ast.NodeTransformer):
    """Rewrites mutation sites into ``(mutant if _lsmut.on(i) else original)``, recording each site."""

    def __init__(self, rel: str, text: str, start_id: int):
        self.rel = rel
        self.lines = text.splitlines()
        self.next_id = start_id
        self.mutants: list[Mutant] = []
        self.depth = 0  # inside a (non-jitted) function

    # --- bookkeeping -------------------------------------------------------------------------------------------
    def _site(self, node: ast.AST, op: str, original: ast.expr, mutated: ast.expr) -> ast.expr:
        i = self.next_id
        self.next_id += 1
        src = self.lines[node.lineno - 1].strip() if 0 < node.lineno <= len(self.lines) else ""
        self.mutants.append(Mutant(i, self.rel, node.lineno, node.col_offset, op, src[:160]))
        test = ast.Call(
            func=ast.Attribute(value=ast.Name(id=SWITCH, ctx=ast.Load()), attr="on", ctx=ast.Load()),
            args=[ast.Constant(i)],
            keywords=[],
        )
        return ast.copy_location(ast.IfExp(test=test, body=mutated, orelse=original), original)

    def _halve(self, node: ast.expr) -> ast.expr:
        return ast.BinOp(left=node, op=ast.Div(), right=ast.Constant(2))

    def _double(self, node: ast.expr) -> ast.expr:
        return ast.BinOp(left=node, op=ast.Mult(), right=ast.Constant(2))

    def _minus_one(self, node: ast.expr) -> ast.expr:
        return ast.BinOp(left=node, op=ast.Sub(), right=ast.Constant(1))

    def _by_name(self, name: str | None, value: ast.expr, anchor: ast.AST) -> ast.expr:
        if name is None or not _is_numeric_expr(value):
            return value
        if SCALE_NAMES.match(name):
            return self._site(anchor, "halve", value, self._halve(_clone(value)))
        if PRIVACY_NAMES.match(name):
            return self._site(anchor, "double", value, self._double(_clone(value)))
        if COUNT_NAMES.match(name):
            return self._site(anchor, "count", value, self._minus_one(_clone(value)))
        return value

    # --- scopes ------------------------------------------------------------------------------------------------
    def _function(self, node):
        decorators = {(_name_of(d.func) if isinstance(d, ast.Call) else _name_of(d)) for d in node.decorator_list}
        if decorators & SKIP_DECORATORS:
            return node
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        return node

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_Lambda(self, node):
        return node

    # --- sites -------------------------------------------------------------------------------------------------
    def visit_Call(self, node: ast.Call):
        if isinstance(node.func, ast.Attribute):
            node.func._lsmut_callee = True  # ``x.start()`` is a method, not a part's bound
        self.generic_visit(node)
        if self.depth:
            for kw in node.keywords:
                if kw.arg is not None:
                    kw.value = self._by_name(kw.arg, kw.value, kw.value)
        return node

    def visit_Assign(self, node: ast.Assign):
        self.generic_visit(node)
        if self.depth and len(node.targets) == 1:
            node.value = self._by_name(_name_of(node.targets[0]), node.value, node)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign):
        self.generic_visit(node)
        if self.depth and node.value is not None:
            node.value = self._by_name(_name_of(node.target), node.value, node)
        return node

    def visit_Subscript(self, node: ast.Subscript):
        self.generic_visit(node)
        if self.depth and isinstance(node.slice, ast.Slice) and isinstance(node.ctx, ast.Load):
            sl = node.slice
            if sl.step is None and sl.upper is not None and sl.lower is not None:
                upper = ast.BinOp(left=_clone(sl.upper), op=ast.Add(), right=ast.Constant(1))
                sl.upper = self._site(node, "overlap", sl.upper, upper)
        elif (
            self.depth
            and isinstance(node.ctx, ast.Load)
            and not isinstance(node.slice, (ast.Slice, ast.Tuple, ast.Constant, ast.UnaryOp))
            and PART_CONTAINERS.match(_name_of(node.value) or "")
        ):  # parts[i] -> parts[(i + 1) % len(parts)]: a step reads the neighbouring part
            nxt = ast.BinOp(left=_clone(node.slice), op=ast.Add(), right=ast.Constant(1))
            length = ast.Call(func=ast.Name(id="len", ctx=ast.Load()), args=[_clone(node.value)], keywords=[])
            mutated = ast.Subscript(value=_clone(node.value), slice=ast.BinOp(nxt, ast.Mod(), length), ctx=ast.Load())
            return self._site(node, "misread", node, mutated)
        return node

    def visit_Attribute(self, node: ast.Attribute):
        self.generic_visit(node)
        if (
            self.depth
            and node.attr in ("start", "stop")
            and isinstance(node.ctx, ast.Load)
            and not getattr(node, "_lsmut_callee", False)
        ):  # a part's bound moved by one record outwards: the read covers one record of the next/previous part
            op = ast.Add() if node.attr == "stop" else ast.Sub()
            return self._site(node, "misread", node, ast.BinOp(left=_clone(node), op=op, right=ast.Constant(1)))
        return node

    def visit_BinOp(self, node: ast.BinOp):
        self.generic_visit(node)
        if self.depth and isinstance(node.op, (ast.Add, ast.Sub)):
            for side, other in ((node.right, node.left), (node.left, node.right)):
                if "noise" in ast.unparse(side).lower() and "noise" not in ast.unparse(other).lower():
                    return self._site(node, "drop", node, _clone(other))
        return node


def _clone(node: ast.expr) -> ast.expr:
    return ast.parse(ast.unparse(node), mode="eval").body


def target_files(targets: list[str]) -> list[Path]:
    out: list[Path] = []
    for t in targets:
        p = (ROOT / t).resolve() if not Path(t).is_absolute() else Path(t)
        files = sorted(p.rglob("*.py")) if p.is_dir() else [p]
        out += [f for f in files if f.name not in SKIP_FILES]
    return out


def build_shadow(files: list[Path], shadow: Path) -> list[Mutant]:
    """Copies src/ to ``shadow`` and instruments ``files`` there; returns the mutants in id order."""
    shutil.copytree(SRC, shadow, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    (shadow / f"{SWITCH}.py").write_text(
        "ACTIVE = -1\nHITS = set()\n\n\ndef on(i):\n    HITS.add(i)\n    return i == ACTIVE\n", encoding="utf-8"
    )
    mutants: list[Mutant] = []
    for f in files:
        rel = str(f.relative_to(ROOT))
        text = f.read_text(encoding="utf-8")
        tree = ast.parse(text)
        inst = Instrument(rel, text, len(mutants))
        tree = inst.visit(tree)
        if not inst.mutants:
            continue
        # the switch import goes after the module docstring and any ``from __future__`` import
        body = tree.body
        at = 0
        while at < len(body) and (
            (isinstance(body[at], ast.Expr) and isinstance(getattr(body[at], "value", None), ast.Constant))
            or (isinstance(body[at], ast.ImportFrom) and body[at].module == "__future__")
        ):
            at += 1
        body.insert(at, ast.Import(names=[ast.alias(name=SWITCH)]))
        ast.fix_missing_locations(tree)
        (shadow / f.relative_to(SRC)).write_text(ast.unparse(tree), encoding="utf-8")
        mutants += inst.mutants
    return mutants


class _Recorder:
    """pytest plugin: which mutation sites each test reaches."""

    def __init__(self, switch):
        self.switch = switch
        self.hits: dict[int, list[str]] = {}
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report):
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration

    def pytest_runtest_protocol(self, item, nextitem):  # noqa: ARG002 - pytest hook signature
        self.switch.HITS.clear()

    def pytest_runtest_logfinish(self, nodeid, location):  # noqa: ARG002
        for i in self.switch.HITS:
            self.hits.setdefault(i, []).append(nodeid)
        self.switch.HITS.clear()


def _pytest_args(tests: list[str], extra: list[str]) -> list[str]:
    return [*tests, "-q", "-x", "-p", "no:cacheprovider", "-p", "no:xdist", "--no-header", "-W", "ignore", *extra]


def _child(fn, out: Path, timeout: float) -> tuple[int, float]:
    """Runs ``fn`` in a forked child writing its exit code to ``out``; returns (code, seconds); -9 on a timeout."""
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.setpgid(0, 0)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            code = fn()
        except BaseException:  # noqa: BLE001 - any crash is a red run
            code = 99
        os._exit(int(code) if isinstance(code, int) else 98)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status), time.perf_counter() - t0
        if time.perf_counter() - t0 > timeout:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            return -9, time.perf_counter() - t0
        time.sleep(0.02)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("targets", nargs="+", help="files or folders under src/littlestone to mutate")
    ap.add_argument("--tests", nargs="*", default=["tests"], help="test paths for the coverage run (default: tests)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds a mutant's tests may take (then: killed)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    ap.add_argument("--out", default="mutation.json", help="JSON report path")
    ap.add_argument("--justify", help="JSON {mutant_key: reason} of surviving mutants judged harmless")
    ap.add_argument("--list", action="store_true", help="only list the mutants")
    ap.add_argument("--ops", default="halve,double,count,overlap,drop,misread", help="operators to run")
    args = ap.parse_args(argv)

    files = target_files(args.targets)
    ops = set(args.ops.split(","))
    shadow_root = Path(tempfile.mkdtemp(prefix="lsmut-"))
    shadow = shadow_root / "src"
    mutants = build_shadow(files, shadow)
    selected = [m for m in mutants if m.op in ops]
    if args.list:
        for m in selected:
            print(f"{m.id:5d} {m.op:8s} {m.path}:{m.line}  {m.source}")
        print(f"{len(selected)} mutants in {len(files)} files", file=sys.stderr)
        shutil.rmtree(shadow_root)
        return 0

    # the parent imports the shadow package once; every child inherits it
    for p in (SRC, ROOT / "src"):
        while str(p) in sys.path:
            sys.path.remove(str(p))
    sys.path.insert(0, str(shadow))
    os.environ["PYTHONPATH"] = str(shadow) + os.pathsep + os.environ.get("PYTHONPATH", "")
    os.chdir(ROOT)
    import importlib

    switch = importlib.import_module(SWITCH)
    import littlestone  # noqa: F401

    for f in files:
        mod = ".".join(f.relative_to(SRC).with_suffix("").parts)
        try:
            importlib.import_module(mod)
        except Exception as exc:  # noqa: BLE001
            print(f"warning: {mod} does not import in the shadow tree: {exc}", file=sys.stderr)
    import pytest

    # 1. coverage: which tests reach which site (one run of the test paths, recorded in a child)
    hits_file = shadow_root / "hits.json"

    def record():
        rec = _Recorder(switch)
        code = pytest.main(
            [*args.tests, "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-W", "ignore"], plugins=[rec]
        )
        hits_file.write_text(json.dumps({"hits": {str(k): v for k, v in rec.hits.items()}, "seconds": rec.seconds}))
        return 0 if code in (0, 1) else int(code)

    print(f"coverage run over {' '.join(args.tests)} ...", file=sys.stderr, flush=True)
    code, secs = _child(record, shadow_root / "rec", timeout=3600)
    if not hits_file.exists():
        print(f"coverage run failed (exit {code})", file=sys.stderr)
        return 2
    recorded = json.loads(hits_file.read_text())
    hits = {int(k): v for k, v in recorded["hits"].items()}
    seconds = recorded["seconds"]
    print(f"coverage run: {secs:.0f} s, {len(hits)} of {len(mutants)} sites reached", file=sys.stderr, flush=True)

    justified = json.loads(Path(args.justify).read_text()) if args.justify else {}

    # 2. one child per mutant (up to --jobs at once)
    running: dict[int, tuple[Mutant, float]] = {}
    for m in selected:
        # fastest tests first: a killed mutant usually dies in its first few
        m.tests = sorted(set(hits.get(m.id, [])), key=lambda t: (seconds.get(t, 0.0), t))
        if not m.tests:
            m.status = "uncovered"
    queue = [m for m in selected if m.status == "pending"]
    done = 0

    def launch(m: Mutant) -> int:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            os.setpgid(0, 0)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            switch.ACTIVE = m.id
            try:
                rc = pytest.main(_pytest_args(m.tests, []))
            except BaseException:  # noqa: BLE001
                rc = 99
            os._exit(int(rc))
        return pid

    while queue or running:
        while queue and len(running) < max(1, args.jobs):
            m = queue.pop(0)
            running[launch(m)] = (m, time.perf_counter())
        time.sleep(0.05)
        for pid, (m, t0) in list(running.items()):
            got, status = os.waitpid(pid, os.WNOHANG)
            elapsed = time.perf_counter() - t0
            if got:
                rc = os.waitstatus_to_exitcode(status)
                m.status = "survived" if rc == 0 else "killed"
            elif elapsed > args.timeout:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                os.waitpid(pid, 0)
                m.status = "timeout"
            else:
                continue
            m.seconds = elapsed
            del running[pid]
            done += 1
            if m.status == "survived" and (m.key in justified or m.stable_key in justified):
                m.status = "justified"
            print(
                f"[{done}/{len(selected)}] {m.seconds:5.1f}s {m.status:9s} {m.op:7s} {m.path}:{m.line}  {m.source[:70]}",
                file=sys.stderr,
                flush=True,
            )
    for m in selected:
        if m.status == "uncovered" and (m.key in justified or m.stable_key in justified):
            m.status = "justified"

    summary = summarise(selected)
    report = {"targets": args.targets, "summary": summary, "mutants": [asdict(m) | {"key": m.key} for m in selected]}
    tmp = Path(args.out + ".tmp")
    tmp.write_text(json.dumps(report, indent=1), encoding="utf-8")
    tmp.replace(args.out)
    print_summary(summary, selected)
    shutil.rmtree(shadow_root, ignore_errors=True)
    return 0


def summarise(mutants: list[Mutant]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for m in mutants:
        pkg = "/".join(Path(m.path).parts[2:3]) or m.path
        row = out.setdefault(pkg, {"killed": 0, "timeout": 0, "survived": 0, "uncovered": 0, "justified": 0})
        row[m.status] = row.get(m.status, 0) + 1
    return out


def print_summary(summary: dict[str, dict[str, int]], mutants: list[Mutant]) -> None:
    print(
        f"\n{'package':18s} {'mutants':>8s} {'killed':>7s} {'timeout':>8s} {'justified':>10s} {'survived':>9s}"
        f" {'uncovered':>10s} {'kill rate':>10s}"
    )
    for pkg, r in sorted(summary.items()):
        total = sum(r.values())
        caught = r["killed"] + r["timeout"]
        rate = 100.0 * caught / max(1, total - r["justified"])
        print(
            f"{pkg:18s} {total:8d} {r['killed']:7d} {r['timeout']:8d} {r['justified']:10d} {r['survived']:9d}"
            f" {r['uncovered']:10d} {rate:9.1f}%"
        )
    left = [m for m in mutants if m.status in ("survived", "uncovered")]
    if left:
        print("\nsurviving / uncovered mutants:")
        for m in left:
            print(f"  {m.status:9s} {m.key}  {m.source[:90]}")


if __name__ == "__main__":
    sys.exit(main())
