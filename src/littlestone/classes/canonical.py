"""Canonical forms of patched hypotheses built on flats or subcubes (one value per function).

BLM20 §IV (Theorem 10, and the histogram of M) counts G's outputs as *functions*; a hypothesis overwritten on a few
points (the extended SOA, BLM20 Definition 8) must therefore get one representation per function. For classes whose
hypotheses are "structures" — affine flats of F_q^n, subcubes of {0,1}^n (conjunctions) — a function f is
represented as

* ``(c, f Δ c)`` for the structure c with |c| > 4·|f Δ c|, when one exists; or else
* the finite set ``{x : f(x) = 1}`` (which then has at most 5·|patches| points).

Why this is well defined (derivation in docs/derivations.md, "Canonical patched hypotheses"): two distinct flats
(subcubes are flats of F_2^n) c ≠ c' meet in a flat of smaller dimension than the larger one, so
|c Δ c'| ≥ max(|c|, |c'|)/2. If c and c' both satisfied |c| > 4|f Δ c| then
|c Δ c'| ≤ |f Δ c| + |f Δ c'| < (|c| + |c'|)/4 ≤ max(|c|, |c'|)/2 — a contradiction, so the structure is unique.
Given f = c0 Δ P, c0 itself qualifies when |c0| > 4|P|; otherwise f has support ≤ |c0| + |P| ≤ 5|P| and the
structure, if any, is *dense* in f's support S (|c ∩ S| > 3|c|/4) and is reached from a point of S by a chain of
dense structures each one dimension larger (split a dense structure into parallel halves/cosets: one of them is
dense), which :func:`near_structure` searches exhaustively.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from ..errors import LittlestoneError

#: the exhaustive search visits at most this many dense structures (a clear error beyond, never a wrong answer)
SEARCH_BUDGET = 200_000


def near_structure(
    S: frozenset,
    point: Callable[[Any], Any],
    join: Callable[[Any, Any], Any],
    size: Callable[[Any], int],
    contains: Callable[[Any, Any], bool],
    key: Callable[[Any], Hashable],
) -> Any | None:
    """The unique structure c with |c| > 4·|c Δ S| (None if there is none).

    ``point(x)`` is the 0-dimensional structure {x}; ``join(c, x)`` the smallest structure containing c and x;
    breadth-first over dense structures (more than 3/4 of their points in S), by dimension."""
    if not S:
        return None
    m = len(S)
    pts = list(S)
    level = {key(c): c for c in (point(x) for x in pts)}
    visited = len(level)
    found = None
    while level:
        for c in level.values():
            inside = sum(1 for x in pts if contains(c, x))
            if size(c) > 4 * ((size(c) - inside) + (m - inside)):
                if found is not None and key(found) != key(c):
                    raise AssertionError("two structures near one function (contradicts uniqueness)")
                found = c
        if found is not None:
            return found
        nxt: dict = {}
        for c in level.values():
            for x in pts:
                if contains(c, x):
                    continue
                c2 = join(c, x)
                s2 = size(c2)
                if 3 * s2 >= 4 * m:  # a qualifying structure has > 3|c|/4 points of S, so |c| < 4|S|/3
                    continue
                k2 = key(c2)
                if k2 in nxt:
                    continue
                if 4 * sum(1 for y in pts if contains(c2, y)) <= 3 * s2:
                    continue  # not dense: no chain to the answer passes through it
                nxt[k2] = c2
                visited += 1
                if visited > SEARCH_BUDGET:
                    raise LittlestoneError(
                        f"canonical form: more than {SEARCH_BUDGET} dense structures near a set of {m} points "
                        "(too many patches to canonicalize exactly)"
                    )
        level = nxt
    return None


def canonical_parts(
    c0: Any | None,
    table: dict,
    members: Callable[[Any], Iterable[Any]],
    size: Callable[[Any], int],
    search: Callable[[frozenset], Any | None],
    contains: Callable[[Any, Any], bool],
) -> tuple[Any | None, dict]:
    """(structure c or None, {point: label}) — the canonical form of the function c0 overwritten by ``table``
    (points where it differs from c0; c0 None = the zero function). With c None the dict lists the 1s."""
    if c0 is not None and size(c0) > 4 * len(table):
        return c0, table
    ones = set(members(c0)) if c0 is not None else set()
    for x, v in table.items():
        if v:
            ones.add(x)
        else:
            ones.discard(x)
    S = frozenset(ones)
    c = search(S)
    if c is None:
        return None, {x: 1 for x in S}
    diff = {x: 1 for x in S if not contains(c, x)}
    diff.update({x: 0 for x in members(c) if x not in S})
    return c, diff
