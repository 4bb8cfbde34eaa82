"""Hypothesis classes from short text specifications (CLI and config files): ``thresholds:1000``, ``points`` …"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable

import numpy as np

from ..errors import ClassSpecError, LittlestoneError
from ..io import read_csv_rows
from .base import HypothesisClass

#: accepted forms, shown in every error message
FORMS = (
    "thresholds:N",
    "stumps:N",
    "points",
    "points:N",
    "intervals:N",
    "conjunctions:N[,K]",
    "monotone-conjunctions:N[,K]",
    "allfunctions:M",
    "affine:Q,N,D",
    "pointsneg",
    "random:HxP[:SEED[:PROB]]",
    "path/to/matrix.csv",
)
_HELP = "accepted forms: " + ", ".join(FORMS) + " (N may be written 2^60)"


#: the largest integer a spec may hold: domain points are 64-bit integers (N may be written 2^63)
_MAX_BITS = 63


def _int(text: str, what: str, spec: str, minimum: int = 1) -> int:
    t = text.strip()
    kind = "a positive integer" if minimum == 1 else f"an integer ≥ {minimum}"
    m = re.fullmatch(r"(\d+)\s*(?:\^|\*\*)\s*(\d+)", t)
    value: int | None = None
    if m:
        base, exp = int(m.group(1)), int(m.group(2))
        if not (base >= 2 and exp > 0 and (base.bit_length() - 1) * exp > _MAX_BITS):  # never compute 2^(10^9)
            value = base**exp
    elif re.fullmatch(r"\d+", t):
        if len(t.lstrip("0")) <= 20:  # longer ones are beyond 2^63 (and Python's 4300-digit limit)
            value = int(t)
    elif re.fullmatch(r"\d+(\.\d*)?[eE]\d+", t) and float(t).is_integer():
        value = int(float(t))
    elif not (re.fullmatch(r"\d+(\.\d*)?[eE]\d+", t) and float(t) == float("inf")):
        raise ClassSpecError(f"class spec {spec!r}: {what} must be {kind}, got {text!r}; {_HELP}")
    if value is None or value > 1 << _MAX_BITS:
        raise ClassSpecError(
            f"class spec {spec!r}: {what} must be at most 2^{_MAX_BITS} (domain points are 64-bit integers), "
            f"got {t}; {_HELP}"
        )
    if value < minimum:
        raise ClassSpecError(f"class spec {spec!r}: {what} must be {kind}, got {value}; {_HELP}")
    return value


def _args(arg: str | None, names: list[str], spec: str, optional: int = 0) -> list[str]:
    if arg is None or not arg.strip():
        raise ClassSpecError(f"class spec {spec!r}: missing {', '.join(names)}; {_HELP}")
    parts = arg.split(",")
    if not len(names) - optional <= len(parts) <= len(names):
        raise ClassSpecError(
            f"class spec {spec!r}: expected {len(names) - optional}"
            f"{'' if not optional else f'–{len(names)}'} numbers ({', '.join(names)}), "
            f"got {len(parts)}; {_HELP}"
        )
    return parts


def _no_args(arg: str | None, spec: str) -> None:
    if arg is not None:
        raise ClassSpecError(f"class spec {spec!r} takes no parameters; {_HELP}")


def _thresholds(arg: str | None, spec: str) -> HypothesisClass:
    from .thresholds import Thresholds

    (n,) = _args(arg, ["N"], spec)
    return Thresholds(_int(n, "N", spec))


def _stumps(arg: str | None, spec: str) -> HypothesisClass:
    from .stumps import Stumps

    (n,) = _args(arg, ["N"], spec)
    return Stumps(_int(n, "N", spec))


def _points(arg: str | None, spec: str) -> HypothesisClass:
    from .points import Points

    if arg is None:
        return Points()
    (n,) = _args(arg, ["N"], spec)
    return Points(range(_int(n, "N", spec)))


def _intervals(arg: str | None, spec: str) -> HypothesisClass:
    from .intervals import Intervals

    (n,) = _args(arg, ["N"], spec)
    return Intervals(_int(n, "N", spec))


def _conjunctions(arg: str | None, spec: str, monotone: bool = False) -> HypothesisClass:
    from .conjunctions import Conjunctions

    parts = _args(arg, ["N", "K"], spec, optional=1)
    n = _int(parts[0], "N (number of variables)", spec)
    k = _int(parts[1], "K (maximum number of literals)", spec, minimum=0) if len(parts) > 1 else None
    if k is not None and k > n:  # a conjunction has at most one literal per variable
        raise ClassSpecError(f"class spec {spec!r}: K (maximum number of literals) must be ≤ N = {n}, got {k}; {_HELP}")
    return Conjunctions(n, k, monotone=monotone)


def _allfunctions(arg: str | None, spec: str) -> HypothesisClass:
    from .allfunctions import AllFunctions

    (m,) = _args(arg, ["M"], spec)
    return AllFunctions(_int(m, "M", spec))


def _affine(arg: str | None, spec: str) -> HypothesisClass:
    from .affine import AffineSubspaces

    q, n, d = _args(arg, ["Q (prime)", "N", "D"], spec)
    return AffineSubspaces(_int(q, "Q", spec, minimum=2), _int(n, "N", spec), _int(d, "D", spec, minimum=0))


def _pointsneg(arg: str | None, spec: str) -> HypothesisClass:
    _no_args(arg, spec)
    from .points_negations import PointsAndNegations

    return PointsAndNegations()


def _random(arg: str | None, spec: str) -> HypothesisClass:
    from .ops import random_class

    if arg is None:
        raise ClassSpecError(f"class spec {spec!r}: missing HxP (hypotheses x points); {_HELP}")
    fields = arg.split(":")
    if len(fields) > 3:
        raise ClassSpecError(f"class spec {spec!r}: expected random:HxP[:SEED[:PROB]]; {_HELP}")
    size = re.fullmatch(r"\s*([^x×]+)[x×]([^x×]+)\s*", fields[0])
    if not size:
        raise ClassSpecError(f"class spec {spec!r}: the size must be written HxP (e.g. random:256x20:7); {_HELP}")
    h = _int(size.group(1), "H (number of hypotheses)", spec)
    p = _int(size.group(2), "P (number of points)", spec)
    seed = _int(fields[1], "SEED", spec, minimum=0) if len(fields) > 1 else 0
    prob = 0.5
    if len(fields) > 2:
        try:
            prob = float(fields[2])
        except ValueError:
            raise ClassSpecError(f"class spec {spec!r}: PROB must be a number in [0, 1]; {_HELP}") from None
        if not 0.0 <= prob <= 1.0:
            raise ClassSpecError(f"class spec {spec!r}: PROB must be in [0, 1], got {prob}; {_HELP}")
    try:
        return random_class(h, p, seed=seed, p=prob)
    except LittlestoneError as e:
        raise ClassSpecError(f"class spec {spec!r}: {e}") from None


_PARSERS: dict[str, Callable[[str | None, str], HypothesisClass]] = {
    "thresholds": _thresholds,
    "stumps": _stumps,
    "points": _points,
    "intervals": _intervals,
    "conjunctions": _conjunctions,
    "monotone-conjunctions": lambda a, s: _conjunctions(a, s, monotone=True),
    "allfunctions": _allfunctions,
    "affine": _affine,
    "pointsneg": _pointsneg,
    "random": _random,
}


def _cell(text: str) -> object:
    t = text.strip()
    try:
        return int(t)
    except ValueError:
        return t


def load_matrix_csv(path: str | os.PathLike) -> HypothesisClass:
    """A finite class from a CSV 0/1 matrix (rows = hypotheses; an optional first row names the points — it must
    contain a name that is not an integer, so that a mistyped first row such as ``1,2,0`` is an error, not a
    header). A header with no rows below it is the empty class (Ldim −1)."""
    from .finite import FiniteClass

    p = Path(path)
    rows = read_csv_rows(p, "class file", _HELP, ClassSpecError)
    if not rows:
        raise ClassSpecError(f"class file {str(p)!r} is empty (expected a 0/1 matrix, rows = hypotheses)")
    header = None
    first = [c.strip() for c in rows[0]]
    if any(not re.fullmatch(r"[-+]?\d+", c) for c in first):  # a header names the points (not all integers)
        header, rows = [_cell(c) for c in rows[0]], rows[1:]
    elif any(c not in ("0", "1") for c in first):  # all integers but not 0/1: a mistyped row, not a header
        bad = next(c for c in first if c not in ("0", "1"))
        raise ClassSpecError(
            f"class file {str(p)!r}: entry {bad!r} in row 1 is not 0 or 1 (a header row naming "
            "the points needs at least one name that is not an integer, e.g. x0,x1,…)"
        )
    if not rows:  # a header and no hypotheses: the empty class over the named points (Ldim −1)
        M0 = np.zeros((0, len(header or [])), dtype=np.uint8)
        return FiniteClass(M0, points=header, name=p.name)
    width = len(rows[0])
    for i, r in enumerate(rows):
        if len(r) != width:
            raise ClassSpecError(f"class file {str(p)!r}: row {i + 1} has {len(r)} entries, expected {width}")
        for j, c in enumerate(r):
            if c.strip() not in ("0", "1"):
                raise ClassSpecError(
                    f"class file {str(p)!r}: entry {c.strip()!r} at row {i + 1}, column {j + 1} is not 0 or 1"
                )
    if header is not None and len(header) != width:
        raise ClassSpecError(f"class file {str(p)!r}: the header names {len(header)} points but rows have {width}")
    M = np.array([[int(c) for c in r] for r in rows], dtype=np.uint8)
    try:
        return FiniteClass(M, points=header, name=p.name)
    except LittlestoneError as e:
        raise ClassSpecError(f"class file {str(p)!r}: {e}") from None


def parse_class_spec(spec: str) -> HypothesisClass:
    """Parse ``name[:params]`` or a CSV path into a class; :class:`ClassSpecError` says what is accepted and what was wrong."""
    if not isinstance(spec, str) or not spec.strip():
        raise ClassSpecError(f"empty class spec; {_HELP}")
    text = spec.strip()
    if text.lower().endswith(".csv") or os.sep in text or Path(text).is_file():
        return load_matrix_csv(text)
    name, _, arg = text.partition(":")
    key = name.strip().lower().replace("_", "-")
    parser = _PARSERS.get(key)
    if parser is None:
        raise ClassSpecError(f"unknown class {name.strip()!r} in spec {spec!r}; {_HELP}")
    try:
        return parser(arg if _ else None, text)
    except ClassSpecError:
        raise
    except LittlestoneError as e:
        raise ClassSpecError(f"class spec {spec!r}: {e}") from None
