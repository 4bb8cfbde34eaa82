"""Distinguishing events: feature batches, candidate events and their counts (selection phase of the auditor)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from numbers import Real
from typing import Any, Callable, Hashable, Sequence

import numpy as np

from ..errors import LittlestoneError

#: Numeric outputs with at most this many distinct values also get likelihood-ratio set events.
MAX_ATOMS_FOR_NUMERIC = 64
#: Linear quantile grid size for half-line thresholds (plus geometric tail grids at both ends).
LINEAR_GRID = 129
TAIL_GRID = 48


def _is_real_scalar(value: Any) -> bool:
    return isinstance(value, (Real, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


@dataclass(frozen=True)
class Features:
    """A batch of (featurized) mechanism outputs: ``kind`` is "numeric" (1-D floats), "vector" (2-D floats) or "discrete"."""

    kind: str
    values: Any  # np.ndarray for numeric/vector, list of hashables for discrete

    def __len__(self) -> int:
        return len(self.values)


def _freeze(value: Any) -> Any:
    """Lists and arrays as (nested) tuples, so that they can serve as atoms."""
    if isinstance(value, np.ndarray):
        return tuple(_freeze(v) for v in value.tolist()) if value.ndim else value.item()
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def classify(outputs: Sequence[Any] | np.ndarray) -> Features:
    """Decide how to treat a batch of outputs: real scalars, fixed-length real vectors, or hashable atoms."""
    if isinstance(outputs, np.ndarray) and outputs.dtype.kind in "iuf":
        if outputs.ndim == 1:
            return Features("numeric", outputs.astype(float))
        if outputs.ndim == 2:
            return Features("vector", outputs.astype(float))
    outputs = list(outputs)
    if not outputs:
        raise LittlestoneError("the mechanism produced no outputs to audit")
    if all(_is_real_scalar(o) for o in outputs):
        return Features("numeric", np.asarray(outputs, dtype=float))
    first = outputs[0]
    if isinstance(first, (tuple, list, np.ndarray)) and len(first) > 0:
        width = len(first)
        if all(
            isinstance(o, (tuple, list, np.ndarray)) and len(o) == width and all(_is_real_scalar(v) for v in o)
            for o in outputs
        ):
            return Features("vector", np.asarray(outputs, dtype=float).reshape(len(outputs), width))
    atoms = []
    for o in outputs:
        o = _freeze(o)
        try:
            hash(o)
        except TypeError:
            raise LittlestoneError(
                f"mechanism output of type {type(o).__name__} is neither numeric nor hashable; "
                "pass featurize= to map outputs to numbers or hashable values"
            ) from None
        atoms.append(o)
    return Features("discrete", atoms)


def merge(batches: Sequence[Features]) -> Features:
    """Concatenate feature batches (re-classifying if the kinds disagree, e.g. ints in one chunk, floats in another)."""
    kinds = {b.kind for b in batches}
    if len(kinds) == 1:
        kind = kinds.pop()
        if kind == "discrete":
            return Features(kind, [v for b in batches for v in b.values])
        if kind == "vector" and len({b.values.shape[1] for b in batches}) > 1:
            return classify([tuple(row) for b in batches for row in b.values])
        return Features(kind, np.concatenate([b.values for b in batches]))
    raw: list[Any] = []
    for b in batches:
        raw.extend(b.values.tolist() if isinstance(b.values, np.ndarray) else b.values)
    return classify(raw)


@dataclass(frozen=True)
class Event:
    """A measurable set of outputs E; ``indicator(features)`` says which outputs fall in E."""

    description: str
    kind: str  # "above" | "below" | "in" | "custom"
    projection: int | None = None  # vector features: coordinate, or -1 for the coordinate sum
    threshold: float | None = None
    members: frozenset = field(default_factory=frozenset)
    predicate: Callable[[Any], bool] | None = None

    def indicator(self, features: Features) -> np.ndarray:
        if self.kind == "custom":
            vals = features.values
            seq = vals.tolist() if isinstance(vals, np.ndarray) else vals
            return np.fromiter((bool(self.predicate(v)) for v in seq), dtype=bool, count=len(seq))
        if self.kind == "in":
            if features.kind == "numeric":
                return np.isin(features.values, np.fromiter(self.members, dtype=float, count=len(self.members)))
            vals = features.values if features.kind == "discrete" else [tuple(r) for r in features.values]
            return np.fromiter((v in self.members for v in vals), dtype=bool, count=len(vals))
        x = _project(features, self.projection)
        return x > self.threshold if self.kind == "above" else x < self.threshold


def _project(features: Features, projection: int | None) -> np.ndarray:
    if features.kind == "numeric":
        return features.values
    if features.kind != "vector":
        raise LittlestoneError("half-line events need numeric mechanism outputs")
    if projection == -1:
        return features.values.sum(axis=1)
    return features.values[:, projection]


def _projection_name(projection: int | None) -> str:
    if projection is None:
        return "output"
    return "sum(output)" if projection == -1 else f"output[{projection}]"


@dataclass
class Candidates:
    """Candidate events with their counts on the two selection batches; ``build(i)`` materializes event i."""

    count_a: np.ndarray
    count_b: np.ndarray
    builders: list[tuple[Callable[[int], Event], int]]  # (builder, number of candidates it covers)

    def build(self, index: int) -> Event:
        for builder, size in self.builders:
            if index < size:
                return builder(index)
            index -= size
        raise IndexError(index)

    def extend(self, count_a: np.ndarray, count_b: np.ndarray, builder: Callable[[int], Event]) -> None:
        self.count_a = np.concatenate([self.count_a, np.asarray(count_a, dtype=float)])
        self.count_b = np.concatenate([self.count_b, np.asarray(count_b, dtype=float)])
        self.builders.append((builder, len(count_a)))


def _thresholds(pooled: np.ndarray) -> np.ndarray:
    """Half-line cut points: all distinct values if few, else a linear quantile grid plus geometric tail grids."""
    finite = np.sort(pooled[np.isfinite(pooled)])
    if finite.size == 0:
        return np.array([0.0])
    distinct = np.unique(finite)
    if distinct.size <= LINEAR_GRID + 2 * TAIL_GRID:
        return distinct
    n = finite.size
    tail = np.unique(np.round(np.geomspace(1, n / 2, TAIL_GRID)).astype(int)) - 1
    idx = np.unique(np.concatenate([np.linspace(0, n - 1, LINEAR_GRID).round().astype(int), tail, n - 1 - tail]))
    return np.unique(finite[idx])


def _halfline_candidates(cands: Candidates, xa: np.ndarray, xb: np.ndarray, projection: int | None) -> None:
    cuts = _thresholds(np.concatenate([xa, xb]))
    sa, sb = np.sort(xa), np.sort(xb)
    name = _projection_name(projection)
    above_a = xa.size - np.searchsorted(sa, cuts, side="right")
    above_b = xb.size - np.searchsorted(sb, cuts, side="right")
    cands.extend(above_a, above_b, lambda i: Event(f"{name} > {cuts[i]:.6g}", "above", projection, float(cuts[i])))
    below_a = np.searchsorted(sa, cuts, side="left")
    below_b = np.searchsorted(sb, cuts, side="left")
    cands.extend(below_a, below_b, lambda i: Event(f"{name} < {cuts[i]:.6g}", "below", projection, float(cuts[i])))


def _describe_set(members: list[Hashable]) -> str:
    shown = ", ".join(repr(m) for m in members[:6])
    more = f", … ({len(members)} values)" if len(members) > 6 else ""
    return f"output ∈ {{{shown}{more}}}"


def _atom_candidates(cands: Candidates, atoms_a: Sequence[Hashable], atoms_b: Sequence[Hashable]) -> None:
    """Likelihood-ratio level sets in both orders: top-k atoms by (c_A+½)/(c_B+½), and by the inverse ratio."""
    ca, cb = Counter(atoms_a), Counter(atoms_b)
    atoms = list(ca.keys() | cb.keys())
    try:
        atoms.sort()
    except TypeError:
        atoms.sort(key=repr)
    a = np.array([ca[o] for o in atoms], dtype=float)
    b = np.array([cb[o] for o in atoms], dtype=float)
    na, nb = max(len(atoms_a), 1), max(len(atoms_b), 1)
    log_ratio = np.log((a + 0.5) / na) - np.log((b + 0.5) / nb)
    for sign in (1.0, -1.0):
        order = np.argsort(-sign * log_ratio, kind="stable")
        cands.extend(np.cumsum(a[order]), np.cumsum(b[order]), partial(_level_set, atoms, order))


def _level_set(atoms: list[Hashable], order: np.ndarray, i: int) -> Event:
    members = [atoms[j] for j in order[: i + 1]]
    return Event(_describe_set(members), "in", members=frozenset(members))


def candidate_events(fa: Features, fb: Features, events: Sequence[Any] | None = None) -> Candidates:
    """All candidate events with their counts on batch A (from D) and batch B (from D′)."""
    cands = Candidates(np.zeros(0), np.zeros(0), [])
    if events is not None:
        custom = [_as_event(e, k) for k, e in enumerate(events)]
        if not custom:
            raise LittlestoneError("events= was given but is empty")
        ka = [int(ev.indicator(fa).sum()) for ev in custom]
        kb = [int(ev.indicator(fb).sum()) for ev in custom]
        cands.extend(np.array(ka), np.array(kb), lambda i: custom[i])
        return cands
    if fa.kind != fb.kind:
        raw_a = fa.values.tolist() if isinstance(fa.values, np.ndarray) else fa.values
        raw_b = fb.values.tolist() if isinstance(fb.values, np.ndarray) else fb.values
        both = classify(list(raw_a) + list(raw_b))
        fa, fb = Features(both.kind, both.values[: len(raw_a)]), Features(both.kind, both.values[len(raw_a) :])
    if fa.kind == "numeric":
        _halfline_candidates(cands, fa.values, fb.values, None)
        if np.unique(np.concatenate([fa.values, fb.values])).size <= MAX_ATOMS_FOR_NUMERIC:
            _atom_candidates(cands, fa.values.tolist(), fb.values.tolist())
    elif fa.kind == "vector":
        for j in list(range(fa.values.shape[1])) + ([-1] if fa.values.shape[1] > 1 else []):
            _halfline_candidates(cands, _project(fa, j), _project(fb, j), j)
        rows = np.unique(np.concatenate([fa.values, fb.values]), axis=0)
        if rows.shape[0] <= MAX_ATOMS_FOR_NUMERIC:
            _atom_candidates(cands, [tuple(r) for r in fa.values.tolist()], [tuple(r) for r in fb.values.tolist()])
    else:
        _atom_candidates(cands, fa.values, fb.values)
    return cands


def _as_event(spec: Any, index: int) -> Event:
    if isinstance(spec, Event):
        return spec
    if isinstance(spec, tuple) and len(spec) == 2 and callable(spec[1]):
        return Event(str(spec[0]), "custom", predicate=spec[1])
    if callable(spec):
        name = getattr(spec, "__name__", f"event {index}")
        return Event(name if name != "<lambda>" else f"event {index}", "custom", predicate=spec)
    raise LittlestoneError(f"events[{index}] must be an Event, a predicate, or a (name, predicate) pair")


def log_ratio_bound(p_lower: np.ndarray, q_upper: np.ndarray, delta: float) -> np.ndarray:
    """ln((p_lb − δ)/q_ub), −inf where p_lb ≤ δ: the privacy loss an event certifies (Kal-LN DP definition)."""
    p = np.asarray(p_lower, dtype=float) - delta
    q = np.asarray(q_upper, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(p > 0, np.log(np.where(p > 0, p, 1.0)) - np.log(q), -math.inf)
    return out
