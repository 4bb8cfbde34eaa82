"""Experiment: private online learners on river's bundled real streams, one feature on a declared public grid,
against the best hypothesis of the class in hindsight, the majority class and non-private Hedge / follow-the-leader.

Streams (:data:`STREAMS`; read from the files river ships in ``river/datasets`` — nothing is downloaded): Phishing
(T = 1,250), Bananas (T = 5,300), ImageSegments as "sky" against the rest and "foliage" against the rest
(T = 2,310), Shuttle (T = 49,097, anomaly against normal). Labels: the positive class is declared per stream.

**Public grids.** Every feature is mapped to ``cells`` equal cells of a range written in this module with its source
(:class:`PublicGrid`): the data set's documented encoding or a fixed declared range — never computed from the
stream. Values outside the range go to the end cells (a public rule). Features without a documented range are left
out (ImageSegments' edge and centroid statistics), and Shuttle, whose documentation states no ranges, is read on a
declared signed-log grid of 16-bit readings. :func:`stream_points` maps a stream to cells; the best hypothesis in
hindsight is computed on the same grid, so every column of a row is judged against the same class.

**Classes** per feature on m cells (:data:`CLASS_KINDS`): thresholds 1[x ≥ t] ("x≥t"), the other direction
1[x < t] ("x<t": thresholds on the mirrored cells m − 1 − x, a public relabelling), stumps (both directions in one
class, 2(m + 1) functions) and intervals.

**Learners.** Private (:data:`PRIVATE_LEARNERS`, ε = 1, seeded backend, ``seeds`` seeds: median and worst accuracy),
each on the kinds it takes; adding a learner is one entry. The seeds' agnostic learners stand beside them
(LWY25 Algorithm 3: ThresholdsAlgorithm3 on thresholds, Algorithm3 with MWEM on the finite classes; the
constructed-experts learner of LWY25 Thm E.10 where its expert set fits in memory — at these T it does not, and the
table says so with the number of experts). Non-private: the best hypothesis in hindsight (exact, over the class),
the majority class in hindsight, Hedge over the class (expected accuracy, η of :class:`littlestone.experts.Hedge`),
follow-the-leader (ties: the first hypothesis). Context, not targets: river's GaussianNB, HoeffdingTreeClassifier
and LogisticRegression (standardised) on all raw features of the stream, progressive validation.

**Target** (issue 33): a private learner meets it on a (stream, feature, class) cell when its worst seed is within
2 points of the best hypothesis in hindsight and not below the majority class.
Accuracy is progressive validation throughout: round t predicts with the hypothesis released before reading (x_t, y_t).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..errors import LittlestoneError
from ._blm20_common import ExperimentResult, new_figure, out_path, save_figure, write_table

# --------------------------------------------------------------------------------------------------- public grids


@dataclass(frozen=True)
class PublicGrid:
    """A feature's public grid: ``cells`` equal cells over [low, high] (after the public ``scale``), declared with
    its ``source`` — never read from the stream. ``scale="symlog"`` reads v as sign(v)·log2(1 + |v|) first."""

    feature: str
    low: float
    high: float
    cells: int
    source: str
    scale: str = "linear"

    def __post_init__(self) -> None:
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise LittlestoneError(f"grid of {self.feature!r}: needs finite low < high, got [{self.low}, {self.high}]")
        if isinstance(self.cells, bool) or not isinstance(self.cells, int) or self.cells < 2:
            raise LittlestoneError(f"grid of {self.feature!r}: cells must be an integer ≥ 2, got {self.cells!r}")
        if self.scale not in ("linear", "symlog"):
            raise LittlestoneError(f"grid of {self.feature!r}: scale must be 'linear' or 'symlog', got {self.scale!r}")

    def cells_of(self, values: Any) -> np.ndarray:
        """The cell (0 … cells − 1) of every value; values outside [low, high] go to the end cells."""
        from ..pac.grid import grid_cells, grid_edges

        v = np.asarray(values, dtype=float).reshape(-1)
        if np.isnan(v).any():
            raise LittlestoneError(f"feature {self.feature!r} has a missing value (NaN): no cell for it")
        if self.scale == "symlog":
            v = np.sign(v) * np.log2(1.0 + np.abs(v))
        return grid_cells(v[:, None], grid_edges([(self.low, self.high)], self.cells))[:, 0]


@dataclass(frozen=True)
class StreamSpec:
    """A river data set as a binary stream: ``positive`` is the declared positive label (the rest is 0)."""

    name: str
    dataset: str
    positive: Any
    about: str
    grids: tuple[PublicGrid, ...]
    #: the features of the multi-feature stumps (their grid must fit an explicit class: ≤ 2^16 cells)
    multi: tuple[str, ...] = ()
    #: the two features of the boxes (each grid coarsened to at most ``box_cells`` cells by merging neighbours)
    box: tuple[str, ...] = ()
    box_cells: int = 16


_PHISHING_SRC = (
    "UCI Website Phishing: every attribute is coded −1 / 0 / 1 (phishy / suspicious / legitimate), which river's "
    "phishing.csv stores as 0 / ½ / 1 (the two binary ones as 0 / 1): range [0, 1]"
)
_RGB = "UCI Statlog Image Segmentation defines it as an average of R, G, B values over the 3×3 region; 8-bit channels: [0, 255]"
_SHUTTLE_SRC = (
    "UCI Statlog Shuttle documents no ranges (integer sensor readings); declared: 16-bit readings |v| < 2^15 on a "
    "signed-log scale sign(v)·log2(1 + |v|) ∈ [−15, 15], 30 one-octave cells"
)


def _segments(positive: str) -> StreamSpec:
    grids = tuple(PublicGrid(f, 0.0, 255.0, 32, _RGB) for f in ("intensity-mean", "rawred-mean", "rawblue-mean"))
    grids += (
        PublicGrid("rawgreen-mean", 0.0, 255.0, 32, _RGB),
        PublicGrid("value-mean", 0.0, 255.0, 32, "UCI: V of the HSV transform of RGB (Foley & van Dam); [0, 255]"),
        PublicGrid("saturation-mean", 0.0, 1.0, 32, "UCI: S of the HSV transform of RGB, a fraction: [0, 1]"),
        PublicGrid("hue-mean", -math.pi, math.pi, 32, "UCI: H of the HSV transform of RGB, an angle: [−π, π]"),
        PublicGrid("exred-mean", -510.0, 510.0, 32, "UCI: excess red 2R − (G + B) of 8-bit channels: [−510, 510]"),
        PublicGrid("exblue-mean", -510.0, 510.0, 32, "UCI: excess blue 2B − (G + R): [−510, 510]"),
        PublicGrid("exgreen-mean", -510.0, 510.0, 32, "UCI: excess green 2G − (R + B): [−510, 510]"),
    )
    return StreamSpec(
        f"segments-{positive}",
        "ImageSegments",
        positive,
        f"ImageSegments, {positive!r} against the other 6 classes (features without a documented range left out)",
        grids,
        multi=("rawred-mean", "rawgreen-mean", "rawblue-mean"),
        box=("hue-mean", "saturation-mean"),
    )


_PHISHING_TERNARY = (
    "empty_server_form_handler",
    "popup_window",
    "https",
    "request_from_other_domain",
    "anchor_from_other_domain",
    "is_popular",
    "long_url",
)
_PHISHING_BINARY = ("age_of_domain", "ip_in_url")

#: the streams: name → spec (grids declared here, with their sources)
STREAMS: dict[str, StreamSpec] = {
    "phishing": StreamSpec(
        "phishing",
        "Phishing",
        True,
        "Phishing websites (is_phishing)",
        tuple(PublicGrid(f, 0.0, 1.0, 3, _PHISHING_SRC) for f in _PHISHING_TERNARY)
        + tuple(PublicGrid(f, 0.0, 1.0, 2, _PHISHING_SRC) for f in _PHISHING_BINARY),
        multi=_PHISHING_TERNARY + _PHISHING_BINARY,
        box=("empty_server_form_handler", "popup_window"),
    ),
    "bananas": StreamSpec(
        "bananas",
        "Bananas",
        True,
        "Bananas (two banana-shaped clusters, label 1)",
        tuple(
            PublicGrid(
                f,
                -4.0,
                4.0,
                32,
                "OpenML 1460 / KEEL banana: two standardised attributes (KEEL's header lists [−3.09, 2.81] and "
                "[−2.39, 3.19]); declared [−4, 4], ±4 standard units",
            )
            for f in ("1", "2")
        ),
        multi=("1", "2"),
        box=("1", "2"),
    ),
    "segments-sky": _segments("sky"),
    "segments-foliage": _segments("foliage"),
    "shuttle": StreamSpec(
        "shuttle",
        "Shuttle",
        1,
        "Shuttle (ODDS cast: anomaly = 1 against the majority 'Rad Flow' class)",
        tuple(PublicGrid(f"f{i}", -15.0, 15.0, 30, _SHUTTLE_SRC, "symlog") for i in range(1, 10)),
        multi=("f1", "f2", "f3"),
        box=("f1", "f2"),
        box_cells=8,  # 1 + 36² boxes: 49,097 rounds of the larger 15×15 class take minutes per run
    ),
}


@dataclass
class Stream:
    """A loaded stream: raw feature columns (in stream order), 0/1 labels, the spec."""

    spec: StreamSpec
    columns: dict[str, np.ndarray]
    y: np.ndarray
    rows: list[dict] = field(repr=False, default_factory=list)

    @property
    def T(self) -> int:
        return int(self.y.size)


def load_stream(name: str, limit: int | None = None) -> Stream:
    """The first ``limit`` rounds (all by default) of the stream ``name`` from river's bundled files (no download)."""
    if name not in STREAMS:
        raise LittlestoneError(f"unknown stream {name!r} (choose among {', '.join(STREAMS)})")
    spec = STREAMS[name]
    try:
        import river.datasets as rd
    except ImportError:
        raise LittlestoneError("the real streams come with river: pip install 'littlestone[river]'") from None
    cls = getattr(rd, spec.dataset, None)
    if cls is None:
        raise LittlestoneError(f"this river has no data set {spec.dataset} (river ≥ 0.26 ships it)")
    ds = cls()
    if not getattr(ds, "is_downloaded", True) or not Path(ds.path).exists():
        raise LittlestoneError(f"river's {spec.dataset} is not bundled in this installation (nothing is downloaded)")
    rows: list[dict] = []
    labels: list[int] = []
    for x, y in ds:
        rows.append(x)
        labels.append(int(y == spec.positive))
        if limit is not None and len(rows) >= limit:
            break
    columns = {g.feature: np.array([r[g.feature] for r in rows], dtype=float) for g in spec.grids}
    return Stream(spec, columns, np.array(labels, dtype=np.int8), rows)


def stream_points(stream: Stream, feature: str) -> np.ndarray:
    """The feature's cells on its declared public grid."""
    grid = next((g for g in stream.spec.grids if g.feature == feature), None)
    if grid is None:
        raise LittlestoneError(f"stream {stream.spec.name} declares no grid for feature {feature!r}")
    return grid.cells_of(stream.columns[feature])


# --------------------------------------------------------------------------------------------------- classes


#: class kinds on m cells: name → (class factory, map of the cells to the class's points)
CLASS_KINDS: dict[str, tuple[Callable[[int], Any], Callable[[np.ndarray, int], np.ndarray]]] = {}


def _thresholds(m: int) -> Any:
    from ..classes import Thresholds

    return Thresholds(m)


def _stumps(m: int) -> Any:
    from ..pac.grid import grid_stumps

    return grid_stumps(m, 1)


def _intervals(m: int) -> Any:
    from ..classes import Intervals

    return Intervals(m)


CLASS_KINDS.update(
    {
        "x≥t": (_thresholds, lambda c, m: c),
        "x<t": (_thresholds, lambda c, m: m - 1 - c),
        "stumps": (_stumps, lambda c, m: c),
        "intervals": (_intervals, lambda c, m: c),
    }
)
THRESHOLD_KINDS = ("x≥t", "x<t")


#: multi-feature class kinds: stumps over the stream's ``multi`` features, boxes over its two ``box`` features
MULTI_KINDS = ("stumps-k", "boxes")


def multi_class_and_points(stream: "Stream", kind: str) -> tuple[Any, list[tuple[int, ...]], str, str]:
    """(class, points as tuples of cells, the features' names, the cells) of a multi-feature kind on ``stream``: the
    class lives on a :class:`~littlestone.classes.feature_grid.FeatureGrid` whose cells are the declared grids' cells
    (the boxes' grids coarsened to at most ``spec.box_cells`` cells by merging neighbouring cells — a public rule;
    1 + (b(b+1)/2)² boxes on b × b cells)."""
    from ..classes.feature_grid import FeatureGrid
    from ..classes.grid_classes import GridBoxes, GridStumps

    spec = stream.spec
    if kind not in MULTI_KINDS:
        raise LittlestoneError(f"unknown multi-feature kind {kind!r} (choose among {', '.join(MULTI_KINDS)})")
    feats = spec.multi if kind == "stumps-k" else spec.box
    if not feats:
        raise LittlestoneError(f"stream {spec.name} declares no features for {kind}")
    grids = [next(g for g in spec.grids if g.feature == f) for f in feats]
    cols, bins = [], []
    for g in grids:
        c = stream_points(stream, g.feature)
        if kind == "boxes" and g.cells > spec.box_cells:
            merge = -(-g.cells // spec.box_cells)  # ⌈cells / box_cells⌉ neighbours per cell
            c, m = c // merge, -(-g.cells // merge)
        else:
            m = g.cells
        cols.append(c)
        bins.append(m)
    # cell c of a feature with m cells is the value c on the grid [0, m) of m unit cells
    grid = FeatureGrid([(0, m) for m in bins], bins=bins)
    H = GridStumps(grid) if kind == "stumps-k" else GridBoxes(grid)
    points = [tuple(r) for r in np.stack(cols, axis=1).tolist()] if cols[0].size else []
    return H, points, "+".join(feats), "×".join(map(str, bins))


def class_and_points(kind: str, cells: np.ndarray, m: int) -> tuple[Any, np.ndarray]:
    """(the class of ``kind`` on m cells, the stream's points in it)."""
    if kind not in CLASS_KINDS:
        raise LittlestoneError(f"unknown class kind {kind!r} (choose among {', '.join(CLASS_KINDS)})")
    make, to_points = CLASS_KINDS[kind]
    return make(m), np.asarray(to_points(np.asarray(cells, dtype=np.int64), m), dtype=np.int64)


# --------------------------------------------------------------------------------------------------- learners


@dataclass(frozen=True)
class PrivateEntry:
    """A private online learner of the comparison: the class kinds it takes and how to build it for (H, T, ε, seed);
    ``cannot_run(H, T)`` gives the reason it cannot run at this size (None: it can)."""

    name: str
    kinds: tuple[str, ...]
    build: Callable[[Any, int, float, int | None], Any]  # seed None: the secure backend
    cannot_run: Callable[[Any, int], str | None] = lambda H, T: None
    agnostic: bool = False


def _noise(seed: int | None) -> dict[str, Any]:
    """The seeded backend with ``seed``, or (None) the secure one."""
    return {"backend": "secure"} if seed is None else {"backend": "seeded", "seed": seed}


def _bisect(H: Any, T: int, eps: float, seed: int | None) -> Any:
    from ..private_online import BisectAT

    return BisectAT(H, T=T, epsilon=eps, **_noise(seed))


def _listat(H: Any, T: int, eps: float, seed: int | None) -> Any:
    from ..private_online import ListAT

    return ListAT(H, T=T, epsilon=eps, **_noise(seed))


def _intervals_at(H: Any, T: int, eps: float, seed: int | None) -> Any:
    from ..private_online import IntervalsAT

    return IntervalsAT(H, T=T, epsilon=eps, **_noise(seed))


def _algorithm3(H: Any, T: int, eps: float, seed: int | None) -> Any:
    from ..agnostic_online import Algorithm3, ThresholdsAlgorithm3
    from ..classes import Thresholds

    if isinstance(H, Thresholds):
        return ThresholdsAlgorithm3(H, T, eps, **_noise(seed))
    return Algorithm3(H, T, eps, **_noise(seed))


#: δ of the constructed-experts learner (approximate DP: LWY25 Thm E.10 needs δ > 0)
EXPERTS_DELTA = 1e-6


def _experts(H: Any, T: int, eps: float, seed: int | None) -> Any:
    from ..agnostic_online import ConstructedExpertsLearner

    # (2ε, 2δ)-DP by Thm 4.4's composition: run at ε/2 so that the whole claim is ε like the others'
    return ConstructedExpertsLearner(H, T, eps / 2, EXPERTS_DELTA / 2, **_noise(seed))


def _ldim_lower_bound(H: Any) -> int:
    """A cheap lower bound on Ldim(H): the least d with Σ_{i≤d} C(n, i) ≥ |H| (Sauer–Shelah, VC ≤ Ldim), n points."""
    from ..sanitizers.queries import query_family

    fam = query_family(H)
    d, total = 0, 1
    while total < fam.size:
        d += 1
        total += math.comb(fam.domain_size, d)
    return d


def _experts_too_many(H: Any, T: int) -> str | None:
    from ..agnostic_online.constructed_experts import MAX_EXPERTS
    from ..bounds.lwy25_agnostic import number_of_experts_upto

    d = _ldim_lower_bound(H)  # enough to refuse without the exact Ldim of a large class
    if number_of_experts_upto(T, d) <= MAX_EXPERTS:
        d = H.version_space().ldim()
    n = number_of_experts_upto(T, d)
    if n > MAX_EXPERTS:
        return f"|J| ≥ {n:.2e} constructed experts > 2^28 (the per-expert state must fit in memory)"
    return None


def _segment_em(H: Any, T: int, eps: float, seed: int | None) -> Any:
    from ..private_online.segmented_em import SegmentedEM

    return SegmentedEM(H, T=T, epsilon=eps, **_noise(seed))


def _epoch_em(H: Any, T: int, eps: float, seed: int | None) -> Any:
    from ..private_online.epoch_em import EpochEM

    return EpochEM(H, T=T, epsilon=eps, **_noise(seed))


ALL_KINDS = ("x≥t", "x<t", "stumps", "intervals", "stumps-k", "boxes")

#: the private learners of the table, in column order (ε = 1; one line each); SegmentedEM is the noisy-stream default
PRIVATE_LEARNERS: list[PrivateEntry] = [
    PrivateEntry("SegmentedEM", ALL_KINDS, _segment_em, agnostic=True),
    PrivateEntry("EpochEM", ALL_KINDS, _epoch_em, agnostic=True),
    PrivateEntry("BisectAT", THRESHOLD_KINDS, _bisect),
    PrivateEntry("ListAT", ALL_KINDS, _listat),
    PrivateEntry("IntervalsAT", ("intervals",), _intervals_at),
    PrivateEntry("Algorithm 3 (LWY25)", ALL_KINDS, _algorithm3, agnostic=True),
    PrivateEntry(
        "constructed experts (LWY25 Thm E.10)",
        ALL_KINDS,
        _experts,
        _experts_too_many,
        agnostic=True,
    ),
]


def _predictions(learner: Any, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """0/1 predictions of a learner's released hypotheses on the fixed stream (its vectorised ``run`` or, for a
    learner without one, predict_one then learn_one)."""
    if hasattr(learner, "run"):
        out = learner.run(X, y)
        if hasattr(learner, "predictions_"):  # the constructed-experts learner: run returns an ExpertsRun
            out = learner.predictions_
        return np.asarray(getattr(out, "predictions", out), dtype=np.int8)
    preds = np.empty(len(y), dtype=np.int8)
    for t in range(len(y)):
        preds[t] = int(learner.predict_one(int(X[t])))
        learner.learn_one(int(X[t]), int(y[t]))
    return preds


def private_accuracies(entry: PrivateEntry, H: Any, X: np.ndarray, y: np.ndarray, epsilon: float, seeds: int) -> Any:
    """Progressive-validation accuracies of ``entry`` over ``seeds`` seeds, or the reason it cannot run (a str)."""
    T = len(y)
    why = entry.cannot_run(H, T)
    if why is not None:
        return why
    accs = []
    for s in range(seeds):
        try:
            preds = _predictions(entry.build(H, T, epsilon, s), X, y)
        except Exception as exc:  # shown in the table as a failure of that learner, never hidden
            return f"{entry.name} failed on {getattr(H, 'name', H)} (seed {s}): {type(exc).__name__}: {exc}"
        accs.append(float(np.mean(preds == y)))
    return np.array(accs)


# --------------------------------------------------------------------------------------------------- baselines


def loss_matrix(H: Any, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(T × |H|) 0/1 losses 1[h(x_t) ≠ y_t] as int8, hypotheses in the order of the class's query family."""
    from ..agnostic_online.baselines import class_losses

    parts = [c.astype(np.int8) for c in class_losses(H, X, y)]
    return np.concatenate(parts, axis=0) if parts else np.zeros((0, 1), dtype=np.int8)


#: rows per block of the baselines' passes over the loss matrix (bounded memory on long streams and large classes)
BLOCK = 4096


def best_in_hindsight(losses: np.ndarray) -> int:
    """min_h Σ_t 1[h(x_t) ≠ y_t]."""
    return int(losses.sum(axis=0, dtype=np.int64).min())


def follow_the_leader(losses: np.ndarray) -> int:
    """Mistakes of follow-the-leader: round t plays the hypothesis with the fewest mistakes on rounds < t (ties: the
    first in the class's order)."""
    total = np.zeros(losses.shape[1], dtype=np.int32)
    mistakes = 0
    for s in range(0, losses.shape[0], BLOCK):
        block = losses[s : s + BLOCK]
        cum = np.cumsum(block, axis=0, dtype=np.int32)
        before = cum - block + total  # each hypothesis's mistakes on the rounds before
        mistakes += int(block[np.arange(block.shape[0]), before.argmin(axis=1)].sum())
        total = total + cum[-1]
    return mistakes


def hedge_expected(losses: np.ndarray) -> float:
    """Hedge's expected mistakes Σ_t ⟨p_t, ℓ_t⟩ over the class (:class:`littlestone.experts.Hedge`, horizon T)."""
    from ..experts import Hedge

    T = losses.shape[0]
    chunks = (losses[s : s + BLOCK].astype(float) for s in range(0, T, BLOCK))
    run = Hedge(losses.shape[1], max(1, T), seed=0).run(chunks)
    return float(run.expected_loss)


RIVER_MODELS = ("GaussianNB", "HoeffdingTree", "LogisticRegression")


def river_accuracies(stream: Stream) -> dict[str, float]:
    """Progressive-validation accuracy of river's GaussianNB, HoeffdingTreeClassifier and LogisticRegression (with a
    StandardScaler) on all raw features of the stream (context, not targets: they are not private)."""
    from river import linear_model, naive_bayes, preprocessing, tree

    models = {
        "GaussianNB": naive_bayes.GaussianNB(),
        "HoeffdingTree": tree.HoeffdingTreeClassifier(),
        "LogisticRegression": preprocessing.StandardScaler() | linear_model.LogisticRegression(),
    }
    out = {}
    for name, model in models.items():
        right = 0
        for x, y in zip(stream.rows, stream.y.tolist()):
            right += int(model.predict_one(x) == bool(y))
            model.learn_one(x, bool(y))
        out[name] = right / max(1, stream.T)
    return out


# --------------------------------------------------------------------------------------------------- one cell


def evaluate_cell(
    stream: Stream,
    feature: str,
    kind: str,
    *,
    epsilon: float = 1.0,
    seeds: int = 3,
    learners: Sequence[PrivateEntry] | None = None,
) -> dict[str, Any]:
    """One row of the table: the (stream, feature, class kind) cell — accuracies (fractions) of the majority class,
    the best hypothesis in hindsight, Hedge, follow-the-leader and every private learner that takes the kind
    (``{name: array of per-seed accuracies}``, or ``{name: reason}`` where it cannot run)."""
    if kind in MULTI_KINDS:  # ``feature`` is not used: the stream declares the features
        H, X, feature, cells = multi_class_and_points(stream, kind)
    else:
        grid = next(g for g in stream.spec.grids if g.feature == feature)
        H, X = class_and_points(kind, stream_points(stream, feature), grid.cells)
        cells = grid.cells
    y = stream.y
    T = stream.T
    L = loss_matrix(H, X, y)
    pos = float(y.mean()) if T else 0.0
    row: dict[str, Any] = {
        "stream": stream.spec.name,
        "feature": feature,
        "class": kind,
        "cells": cells,
        "hypotheses": L.shape[1],
        "T": T,
        "majority": max(pos, 1 - pos),
        "best": 1 - best_in_hindsight(L) / T,
        "hedge": 1 - hedge_expected(L) / T,
        "ftl": 1 - follow_the_leader(L) / T,
        "private": {},
    }
    for entry in PRIVATE_LEARNERS if learners is None else learners:
        if kind in entry.kinds:
            row["private"][entry.name] = private_accuracies(entry, H, X, y, epsilon, seeds)
    return row


def meets_target(accs: Any, best: float, majority: float, points: float = 2.0) -> bool:
    """Issue 33's target on a cell: the worst seed within ``points`` points of the best in hindsight and not below
    the majority class."""
    if isinstance(accs, str):
        return False
    worst = float(np.min(accs))
    return worst >= best - points / 100 - 1e-12 and worst >= majority - 1e-12


def target_halves(rows: Sequence[dict], points: float = 2.0) -> list[dict]:
    """Issue 33's target split in its two halves, per learner of the table's rows (:func:`flat_rows`, or the CSV read
    back: values may be strings), the non-private baselines included: ``within`` = cells whose worst seed is within
    ``points`` points of the best hypothesis in hindsight (of ``cells`` where the learner ran); ``majority_cells`` =
    cells whose best hypothesis does no better than the majority class (the best *is* the majority constant: there
    "never below the majority" asks for zero regret) and ``at_majority`` = those where the worst seed is not below
    the majority; ``target`` = cells meeting the whole target (:func:`meets_target`). Learners in first-seen order."""
    by_cell: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        by_cell.setdefault((r["stream"], r["feature"], r["class"]), {})[r["learner"]] = r
    out: dict[str, dict] = {}
    for cell in by_cell.values():
        if "best in hindsight" not in cell or "majority" not in cell:
            continue  # river's models: one row per stream, not a cell of a class
        best = float(cell["best in hindsight"]["worst"])
        majority = float(cell["majority"]["worst"])
        trivial = best <= majority + 1e-12
        for name, r in cell.items():
            if name in ("best in hindsight", "majority"):
                continue
            k = out.setdefault(
                name, {"learner": name, "cells": 0, "within": 0, "majority_cells": 0, "at_majority": 0, "target": 0}
            )
            if r["worst"] in ("", None):
                continue  # could not run
            worst = float(r["worst"])
            k["cells"] += 1
            k["within"] += int(worst >= best - points / 100 - 1e-12)
            k["majority_cells"] += int(trivial)
            k["at_majority"] += int(trivial and worst >= majority - 1e-12)
            k["target"] += int(meets_target(np.array([worst]), best, majority, points))
    return list(out.values())


# --------------------------------------------------------------------------------------------------- the experiment

#: the default (quick) grid and the full one (``grid="full"``)
GRIDS: dict[str, dict[str, Any]] = {
    "quick": {"streams": ("phishing", "bananas"), "seeds": 3, "limit": None, "kinds": (*CLASS_KINDS, "stumps-k")},
    "full": {"streams": tuple(STREAMS), "seeds": 5, "limit": None, "kinds": (*CLASS_KINDS, *MULTI_KINDS)},
}


def flat_rows(cells: list[dict]) -> list[dict]:
    """The CSV rows: one per (cell, learner) with median / worst accuracy, or the reason a learner could not run."""
    rows = []
    for c in cells:
        base = {k: c[k] for k in ("stream", "feature", "class", "cells", "hypotheses", "T")}
        for name, key in (("majority", "majority"), ("best in hindsight", "best"), ("Hedge", "hedge"), ("FTL", "ftl")):
            rows.append({**base, "learner": name, "private": False, "median": c[key], "worst": c[key], "note": ""})
        for name, accs in c["private"].items():
            if isinstance(accs, str):
                rows.append({**base, "learner": name, "private": True, "median": "", "worst": "", "note": accs})
            else:
                ok = meets_target(accs, c["best"], c["majority"])
                rows.append(
                    {
                        **base,
                        "learner": name,
                        "private": True,
                        "median": float(np.median(accs)),
                        "worst": float(np.min(accs)),
                        "note": "meets target" if ok else "",
                    }
                )
    return rows


def run(
    streams: Sequence[str] = GRIDS["quick"]["streams"],
    kinds: Sequence[str] = GRIDS["quick"]["kinds"],
    seeds: int = GRIDS["quick"]["seeds"],
    epsilon: float = 1.0,
    limit: int = 0,
    grid: str = "quick",
    river_models: bool = True,
    seed: Any = None,
    jobs: int = 1,
    out_dir: Any = None,
) -> ExperimentResult:
    """Progressive-validation accuracy of the private online learners (ε = 1, seeded, median and worst of ``seeds``)
    on river's bundled real streams, one feature on a declared public grid, beside the best hypothesis of the class
    in hindsight, the majority class, non-private Hedge / follow-the-leader and river's GaussianNB / HoeffdingTree /
    LogisticRegression.

    ``streams``: names of :data:`STREAMS`; ``kinds``: class kinds (x≥t, x<t, stumps, intervals on each feature;
    stumps-k, boxes on the stream's declared several features); ``limit``: the first rounds only (0: all);
    ``grid``: "quick" (the defaults: Phishing and Bananas, 3 seeds, no boxes) or "full" (every stream, 5 seeds, every
    kind — for each of streams / kinds / seeds left at its default). The learners' seeds are 0 … seeds − 1 (``seed``
    and ``jobs`` are not used: the runs are seeded)."""
    from .. import _progress

    if grid not in GRIDS:
        raise LittlestoneError(f"grid must be one of {', '.join(GRIDS)}, got {grid!r}")
    quick, g = GRIDS["quick"], GRIDS[grid]
    names = (streams,) if isinstance(streams, str) else tuple(streams)
    names = g["streams"] if names == quick["streams"] else names
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    kinds = g["kinds"] if kinds == quick["kinds"] else kinds
    seeds = int(g["seeds"] if seeds == quick["seeds"] else seeds)
    if seeds < 1:
        raise LittlestoneError(f"seeds must be ≥ 1, got {seeds}")
    limit = g["limit"] if not limit else int(limit)
    for k in kinds:
        if k not in MULTI_KINDS:
            class_and_points(k, np.zeros(0, dtype=np.int64), 2)  # a clear error for an unknown kind
    single = [k for k in kinds if k not in MULTI_KINDS]
    multi = [k for k in kinds if k in MULTI_KINDS]
    cells: list[dict] = []
    context: list[dict] = []
    total = sum(len(STREAMS[n].grids) * len(single) + len(multi) for n in names if n in STREAMS)
    done = 0
    for name in names:
        stream = load_stream(name, limit)
        if river_models:
            context.append({"stream": name, "T": stream.T, **river_accuracies(stream)})
        jobs_ = [(grid_.feature, kind) for grid_ in stream.spec.grids for kind in single] + [("", k) for k in multi]
        for feature, kind in jobs_:
            cells.append(evaluate_cell(stream, feature, kind, epsilon=epsilon, seeds=seeds))
            done += 1
            _progress.report("real_streams cells", done, total)
    out = out_path(out_dir)
    rows = flat_rows(cells)
    for c in context:
        for m in RIVER_MODELS:
            rows.append(
                {
                    "stream": c["stream"],
                    "feature": "(all, raw)",
                    "class": "river model",
                    "cells": "",
                    "hypotheses": "",
                    "T": c["T"],
                    "learner": m,
                    "private": False,
                    "median": c[m],
                    "worst": c[m],
                    "note": "context, not a target",
                }
            )
    csv = write_table(rows, out / "real_streams.csv")
    fig_path = _figure(cells, out / "real_streams.png")
    verdict = target_summary(cells)
    return ExperimentResult("real_streams", rows, csv, [fig_path], verdict=verdict)


def target_summary(cells: list[dict]) -> str:
    """'name meets the target on k of n cells' for every private learner, then the same for the non-private
    follow-the-leader and Hedge (context: where the best hypothesis is the majority constant the target asks for zero
    regret, which they do not reach either)."""
    counts: dict[str, list[int]] = {}
    for c in cells:
        runs = [*c["private"].items(), ("non-private follow-the-leader", c["ftl"]), ("non-private Hedge", c["hedge"])]
        for name, accs in runs:
            k = counts.setdefault(name, [0, 0])
            k[1] += 1
            k[0] += int(meets_target(accs, c["best"], c["majority"]))  # accs: seeds' accuracies, one float or why not
    return "; ".join(f"{n} meets the target on {k} of {m} cells" for n, (k, m) in counts.items())


def _figure(cells: list[dict], path: Path) -> Path:
    """Gap to the best in hindsight (points) of every private learner's worst seed, cell by cell."""
    fig, ax = new_figure(8.4, 4.4)
    names = sorted({n for c in cells for n, a in c["private"].items() if not isinstance(a, str)})
    for i, name in enumerate(names):
        ran = [c for c in cells if not isinstance(c["private"].get(name, ""), str)]
        gaps = [100 * (c["best"] - float(np.min(c["private"][name]))) for c in ran]
        ax.plot(np.full(len(gaps), i) + np.linspace(-0.2, 0.2, max(1, len(gaps))), gaps, "o", ms=3, alpha=0.6)
    ax.axhline(2.0, color="0.4", ls="--", lw=0.8)
    ax.text(len(names) - 0.5, 2.0, " target: 2 points", va="bottom", ha="right", fontsize=7, color="0.3")
    ax.set_xticks(range(len(names)), names, rotation=15, fontsize=7)
    ax.set_ylabel("best in hindsight − worst seed (points)")
    ax.set_title("real streams: gap to the best hypothesis of the class in hindsight", fontsize=9)
    return save_figure(fig, path)


# --------------------------------------------------------------------------------------------------- the demo's panel

#: the learners of the demo's real-stream panel: the noisy-stream default, the realizable learner ``play -l
#: private`` picks for a finite class, LWY25's Algorithm 3
PANEL_LEARNERS = ("SegmentedEM", "ListAT", "Algorithm 3 (LWY25)")


@dataclass
class RealStreamPanel:
    """The demo's real-stream panel: accuracy against rounds of private learners on one stream, one feature."""

    stream: str
    about: str
    feature: str
    kind: str
    cells: int
    T: int
    epsilon: float
    majority: float
    best: float
    rows: list[dict]
    figure: Path


def stream_panel(
    out_dir: Any,
    *,
    stream: str = "phishing",
    feature: str = "https",
    kind: str = "stumps",
    epsilon: float = 1.0,
    backend: str = "seeded",
    seed: Any = 0,
) -> RealStreamPanel:
    """Running progressive-validation accuracy of :data:`PANEL_LEARNERS` on a real stream (default: Phishing, the
    ``https`` feature on its documented 3-cell grid, stumps in both directions), beside the best hypothesis of the
    class in hindsight and the majority class; writes ``real_stream.png``. ``backend="secure"`` draws the learners'
    randomness from the OS (``seed`` is then not used)."""
    from .._random import spawn_seeds
    from .figure_style import FIG_WIDTH_IN, legible

    s = load_stream(stream)
    grid = next(g for g in s.spec.grids if g.feature == feature)
    H, X = class_and_points(kind, stream_points(s, feature), grid.cells)
    y, T = s.y, s.T
    L = loss_matrix(H, X, y)
    best_h = int(L.sum(axis=0).argmin())
    t = np.arange(1, T + 1)
    best_curve = 1 - np.cumsum(L[:, best_h]) / t
    major = int(y.mean() >= 0.5)
    major_curve = np.cumsum(y == major) / t
    entries = {e.name: e for e in PRIVATE_LEARNERS}
    rows, curves = [], {}
    for name, child in zip(PANEL_LEARNERS, spawn_seeds(seed, len(PANEL_LEARNERS))):
        entry = entries[name]
        secure = backend != "seeded"  # the secure backend's randomness never comes from the user's seed
        lrn = entry.build(H, T, epsilon, None if secure else int(child.generate_state(1)[0]))
        preds = _predictions(lrn, X, y)
        curves[name] = np.cumsum(preds == y) / t
        p = lrn.privacy()
        rows.append(
            {
                "learner": name,
                "agnostic": "yes" if entry.agnostic else "no (realizable)",
                "privacy (ε, δ)": f"({p.epsilon:.3g}, {p.delta:.2g})",
                "accuracy": float(curves[name][-1]),
            }
        )
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = out_path(out_dir)
    with legible():
        fig, ax = plt.subplots(figsize=(FIG_WIDTH_IN, 4.6))
        for i, (name, cur) in enumerate(curves.items()):
            ax.plot(t, 100 * cur, ["-", "--", "-."][i % 3], lw=1.5, color=f"C{i}", label=name)
        ax.plot(t, 100 * best_curve, "k-", lw=2.2, alpha=0.35, label="best of the class in hindsight")
        ax.plot(t, 100 * major_curve, "k:", lw=1.2, label="majority class")
        ax.set_xlabel("round t")
        ax.set_ylabel("accuracy so far (%)")
        ax.set_ylim(30, 100)
        ax.set_title(f"{s.spec.dataset}: {feature}, {kind}, ε = {epsilon:g}")
        fig.legend(loc="lower center", ncol=1, frameon=False)
        fig.tight_layout(rect=(0, 0.23, 1, 1))
        fig_path = save_figure(fig, out / "real_stream.png", tight=False)
    return RealStreamPanel(
        s.spec.name,
        s.spec.about,
        feature,
        kind,
        grid.cells,
        T,
        epsilon,
        float(major_curve[-1]),
        float(best_curve[-1]),
        rows,
        fig_path,
    )


__all__ = [
    "CLASS_KINDS",
    "GRIDS",
    "MULTI_KINDS",
    "PRIVATE_LEARNERS",
    "PANEL_LEARNERS",
    "PrivateEntry",
    "PublicGrid",
    "RealStreamPanel",
    "STREAMS",
    "Stream",
    "StreamSpec",
    "best_in_hindsight",
    "class_and_points",
    "evaluate_cell",
    "follow_the_leader",
    "hedge_expected",
    "load_stream",
    "loss_matrix",
    "meets_target",
    "multi_class_and_points",
    "private_accuracies",
    "river_accuracies",
    "run",
    "stream_panel",
    "stream_points",
    "target_halves",
]
