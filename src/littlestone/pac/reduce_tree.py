"""ReduceTree (GGKM21 §5, Algorithm 1): a generalized tree of reducing arrays over empirical-error classes, whose
leaves' irreducible classes give a small set Ĥ of SOA classifiers containing, with high probability, one of d+1
data-independent functions (Lemma 5.4).

Schedule (GGKM21 §5, constants ours where the paper's were lost — each one overridable):

* α_t = A − 4η(t − 1), t = 1 … d+2 (level of round t; the theory default η = A/(4(d+1)) makes α_{d+2} = 0);
* c_t = α_t − 2η, the output level of round t (α_{t+1} + 2η ≤ c_t ≤ α_t − 2η: the population sandwich);
* k_t = 2^{t−1}·K, t = 1 … d+1 (k_t ≥ K + Σ_{s<t} k_s, since the tree grows by ≤ k_t in height per round).

Round t: d̂_t = max over leaves v of Ldim(H_{P̂,α_t}|S(v)); break if some leaf has Ldim(H_{P̂,α_{t+1}}|S(v)) = d̂_t with
that class nonempty and k_t-irreducible; otherwise every leaf whose α_{t+1}-class keeps d̂_t is expanded by the
reducing array of order irr + 1 ≤ k_t (Lemma 4.5). After a break at t̂:
Ĥ = {SOA_G : G = H_{P̂,c_t̂}|S(v) nonempty and K-irreducible}, deduplicated by value and sorted.

Every input yields a bounded output: when no break happens (impossible on realizable data, Lemma 5.1) or every class
is empty (data no hypothesis fits within A), Ĥ = ∅; always |Ĥ| ≤ #leaves ≤ Π_{s<t̂}(k_s + 1) (Lemma 5.5).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from ..classes.base import Hypothesis, HypothesisClass, VersionSpace
from ..classes.empirical import EmpiricalErrors, empirical_errors
from ..dimensions.generalized_trees import GeneralizedTree
from ..dimensions.irreducibility import irr_at_least, irr_of, reducing_array
from ..errors import LittlestoneError


#: relative float round-off tolerated on a bound of the schedule (clamped onto it, see ReduceTreeSchedule.theory)
_ROUNDOFF = Fraction(1, 10**12)


def _is_real(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float, np.integer, np.floating))


def _level(v: Any, name: str) -> Fraction:
    if not _is_real(v) or not 0.0 <= float(v) <= 1.0:
        raise LittlestoneError(f"every level {name} must be a number in [0, 1], got {v!r}")
    return Fraction(float(v))


@dataclass(frozen=True)
class ReduceTreeSchedule:
    """Levels α_1..α_{d+2}, output levels c_1..c_{d+1}, orders k_1..k_{d+1}, final order K."""

    d: int
    A: float
    eta: float
    K: int
    alphas: tuple[float, ...]
    outputs: tuple[float, ...]
    orders: tuple[int, ...]

    @classmethod
    def theory(
        cls,
        d: int,
        A: float,
        K: int,
        *,
        eta: float | None = None,
        alphas: Sequence[float] | None = None,
        outputs: Sequence[float] | None = None,
        orders: Sequence[int] | None = None,
    ) -> "ReduceTreeSchedule":
        """The module's schedule; any of η, α_t, c_t, k_t may be given instead, and every given value is checked
        against what the analysis needs (GGKM21 §5; a violation raises :class:`LittlestoneError` naming it):

        * η ≥ 0 and α_1 ≥ α_2 ≥ … ≥ α_{d+2} ≥ 0 with gaps α_t − α_{t+1} ≥ 4η (so α_1 − 4η(d+1) ≥ 0);
        * α_{t+1} + 2η ≤ c_t ≤ α_t − 2η (the population sandwich of Lemma 5.4);
        * k_t ≥ K + Σ_{s<t} k_s (Lemma 5.2: the tree is at most Σ_{s<t} k_s high when round t starts).

        The default levels are computed in exact rational arithmetic on the given floats (α_t = A − 4η(t − 1) with
        η = A/(4(d+1)) makes α_{d+2} exactly 0; in floats it can come out −1·10⁻¹⁷, an empty last level). A level
        or gap that misses its bound only by float round-off (relative 10⁻¹², e.g. a user η that is A/(4(d+1))
        rounded up) is clamped onto the bound: err ≤ θ is decided on mistake counts ⌊θ·n + 10⁻⁹⌋
        (:func:`littlestone.classes.empirical.mistake_budget`), which such a change cannot move.

        K is not checked against d + 1 or ⌊A·n⌋ + 1: that is the caller's requirement (GGKM21 Lemma 4.4, Claim 5.9;
        tests run toy classes at K = 1). The raw constructor checks nothing.
        """
        if isinstance(d, bool) or not isinstance(d, int) or d < 0:
            raise LittlestoneError(f"ReduceTree needs the Littlestone dimension d as an integer ≥ 0, got {d!r}")
        if not _is_real(A) or not 0.0 <= float(A) <= 1.0:
            raise LittlestoneError(f"the top error level A must lie in [0, 1], got {A!r}")
        if isinstance(K, bool) or not isinstance(K, int) or K < 1:
            raise LittlestoneError(f"the irreducibility order K must be an integer ≥ 1, got {K!r}")
        A_ = Fraction(float(A))
        if eta is None:
            eta_ = A_ / (4 * (d + 1))
        else:
            if not _is_real(eta) or not 0.0 <= float(eta) < math.inf:
                raise LittlestoneError(f"the level gap η must be a finite number ≥ 0, got {eta!r}")
            eta_ = Fraction(float(eta))
        if alphas is None:
            a = [A_ - 4 * eta_ * (t - 1) for t in range(1, d + 3)]
            if a[-1] < 0 and -a[-1] <= _ROUNDOFF * max(A_, Fraction(1, 10**300)):
                a[-1] = Fraction(0)  # η = A/(4(d+1)) rounded up in floats
        else:
            a = [_level(v, "α_t") for v in alphas]
        if len(a) != d + 2:
            raise LittlestoneError(f"a schedule for d={d} needs {d + 2} levels α_t, got {len(a)}")
        if a[-1] < 0:
            raise LittlestoneError(
                f"the last level α_{d + 2} = {float(a[-1]):.6g} is negative (it must be ≥ 0): with A = {float(A_):.6g} "
                f"and d = {d} the level gap η can be at most A/(4(d+1)) = {float(A_ / (4 * (d + 1))):.6g}, "
                f"got η = {float(eta_):.6g}"
            )
        for t in range(d + 1):
            gap = a[t] - a[t + 1]
            if gap < 4 * eta_ and 4 * eta_ - gap > _ROUNDOFF * max(4 * eta_, Fraction(1, 10**300)):
                raise LittlestoneError(
                    f"the levels α_{t + 1} = {float(a[t]):.6g} and α_{t + 2} = {float(a[t + 1]):.6g} must be at "
                    f"least 4η = {float(4 * eta_):.6g} apart (GGKM21 §5: round t tests Ldims at α_t and breaks at "
                    f"α_(t+1)); give a smaller η or wider levels"
                )
        if outputs is None:
            c = [a[t] - 2 * eta_ for t in range(d + 1)]
        else:
            c = [_level(v, "c_t") for v in outputs]
            if len(c) != d + 1:
                raise LittlestoneError(f"a schedule for d={d} needs {d + 1} output levels c_t, got {len(c)}")
            for t in range(d + 1):
                lo, hi = a[t + 1] + 2 * eta_, a[t] - 2 * eta_
                tol = _ROUNDOFF * max(abs(lo), abs(hi), Fraction(1, 10**300))
                if not lo - tol <= c[t] <= hi + tol:
                    raise LittlestoneError(
                        f"the output level c_{t + 1} = {float(c[t]):.6g} must lie in [α_{t + 2} + 2η, α_{t + 1} − 2η] "
                        f"= [{float(lo):.6g}, {float(hi):.6g}] (the sandwich of GGKM21 Lemma 5.4)"
                    )
        if orders is None:
            k = [(1 << t) * K for t in range(d + 1)]
        else:
            k = list(orders)
            if any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in k):
                raise LittlestoneError(f"the orders k_t must be integers, got {tuple(k)!r}")
            k = [int(v) for v in k]
            if len(k) != d + 1:
                raise LittlestoneError(f"a schedule for d={d} needs {d + 1} orders k_t, got {len(k)}")
            for t in range(d + 1):
                need = K + sum(k[:t])
                if k[t] < need:
                    rule = "K" if t == 0 else ("K + k_1" if t == 1 else f"K + k_1 + … + k_{t}")
                    raise LittlestoneError(
                        f"the order k_{t + 1} = {k[t]} must be ≥ {rule} = {need} (GGKM21 Lemma 5.2: the tree is up to "
                        f"{need - K} high when round {t + 1} starts); orders given: {tuple(k)}"
                    )
        return cls(d, float(A_), float(eta_), int(K), tuple(map(float, a)), tuple(map(float, c)), tuple(k))

    def leaf_bound(self, rounds: int | None = None) -> int:
        """Π_{t ≤ rounds}(k_t + 1) (Lemma 5.5); rounds defaults to d (so |Ĥ| ≤ leaf_bound())."""
        r = self.d if rounds is None else rounds
        return math.prod(k + 1 for k in self.orders[:r])

    def height_bound(self, rounds: int | None = None) -> int:
        """Σ_{t ≤ rounds} k_t (Lemma 5.2)."""
        r = self.d if rounds is None else rounds
        return sum(self.orders[:r])


@dataclass
class ReduceTreeResult:
    """Output of one ReduceTree run: Ĥ (sorted, deduplicated), the break round (None: no break), the tree."""

    hypotheses: tuple[Hypothesis, ...]
    t_hat: int | None
    tree: GeneralizedTree
    d_hats: list[int] = field(default_factory=list)

    @property
    def n_leaves(self) -> int:
        return self.tree.n_leaves()

    @property
    def height(self) -> int:
        return self.tree.height()


def _restrict(V: VersionSpace, path: Sequence[tuple[Any, int]]) -> VersionSpace:
    for x, y in path:
        if V.is_empty():
            return V
        V = V.restrict(x, y)
    return V


def reduce_tree(
    data: EmpiricalErrors | HypothesisClass, schedule: ReduceTreeSchedule, X: Any = None, y: Any = None
) -> ReduceTreeResult:
    """Algorithm 1 of GGKM21 on one dataset, given as its error table (or a class with X, y)."""
    emp = data if isinstance(data, EmpiricalErrors) else empirical_errors(data, X, y)
    sch = schedule
    tree = GeneralizedTree()
    d_hats: list[int] = []
    t_hat = None
    for t in range(sch.d + 1):  # round t+1 of the paper
        Va, Vb = emp.level(sch.alphas[t]), emp.level(sch.alphas[t + 1])
        leaves = list(tree.leaves())
        ga = [_restrict(Va, p) for p, _ in leaves]
        gb = [_restrict(Vb, p) for p, _ in leaves]
        d_hat = max(G.ldim() for G in ga)
        d_hats.append(d_hat)
        if d_hat < 0:  # every class empty: no hypothesis within α_t (non-realizable data only)
            break
        if any(G.ldim() == d_hat and not G.is_empty() and irr_at_least(G, sch.orders[t]) for G in gb):
            t_hat = t + 1
            break
        for (path, leaf), G in zip(leaves, gb):
            if G.ldim() < d_hat:
                continue
            arr = reducing_array(G, int(irr_of(G)) + 1)
            leaf.expand(arr.points, arr.rows)
    if t_hat is None:
        return ReduceTreeResult((), None, tree, d_hats)
    Vc = emp.level(sch.outputs[t_hat - 1])
    out: set[Hypothesis] = set()
    for path, _ in tree.leaves():
        G = _restrict(Vc, path)
        if not G.is_empty() and irr_at_least(G, sch.K):
            out.add(G.soa())
    return ReduceTreeResult(tuple(sorted(out)), t_hat, tree, d_hats)
