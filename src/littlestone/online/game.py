"""The online game of the mistake-bound model (BLM20 §3.2): T rounds of propose → predict → reveal → learn."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

import numpy as np

from .._labels import check_label01
from .._random import SeedLike, as_generator
from ..classes.base import Point
from ..errors import LabelError, LittlestoneError
from ..parallel import map_seeded
from .adversaries import Adversary, IIDRealizable


@dataclass(frozen=True, eq=False)
class GameResult:
    """Transcript of one game; labels and predictions are 0/1 (int8), arrays are read-only."""

    points: tuple[Point, ...]
    labels: np.ndarray
    predictions: np.ndarray
    cumulative_mistakes: np.ndarray

    @property
    def T(self) -> int:
        """Number of rounds played."""
        return len(self.points)

    @property
    def mistakes(self) -> int:
        """Total number of rounds where the prediction differed from the label."""
        return int(self.cumulative_mistakes[-1]) if self.T else 0

    @property
    def examples(self) -> list[tuple[Point, int]]:
        """The labelled sequence [(x_1, y_1), …] the adversary produced."""
        return list(zip(self.points, self.labels.tolist()))

    @property
    def mistake_rounds(self) -> np.ndarray:
        """0-based indices of the rounds with a mistake."""
        return np.flatnonzero(self.predictions != self.labels)

    def as_rows(self) -> list[dict[str, Any]]:
        """One dict per round (t, x, prediction, label, mistake, cumulative_mistakes), e.g. for a CSV table."""
        return [
            {
                "t": t,
                "x": x,
                "prediction": int(p),
                "label": int(y),
                "mistake": int(p != y),
                "cumulative_mistakes": int(c),
            }
            for t, (x, p, y, c) in enumerate(zip(self.points, self.predictions, self.labels, self.cumulative_mistakes))
        ]

    def __repr__(self) -> str:
        return f"GameResult(T={self.T}, mistakes={self.mistakes})"


def play(learner: Any, adversary: Adversary, T: int | None = None, seed: SeedLike = None) -> GameResult:
    """Run T rounds: adversary proposes x_t, learner predicts, adversary reveals y_t, learner learns (BLM20 §3.2).

    ``learner`` is any river-style object with ``predict_one``/``learn_one`` (predictions in {0,1} or {−1,+1});
    labels are passed to it in its own coding once fixed (``label_coding``), else in the adversary's (a
    :class:`FixedSequence` given ±1 labels passes ±1), else 0/1. ``seed`` drives the
    adversary's randomness (adversaries with their own seed ignore it). T defaults to the adversary's length.

    >>> from littlestone import Thresholds
    >>> from littlestone.online import SOA, TreeAdversary
    >>> H = Thresholds(1000)
    >>> play(SOA(H), TreeAdversary(H), 20).mistakes  # exactly Ldim(H) = ⌊log2 1001⌋
    9
    """
    if not isinstance(adversary, Adversary):
        raise TypeError(
            f"adversary must be an Adversary (FixedSequence, IIDRealizable, TreeAdversary, "
            f"AdaptiveAdversary), not {type(adversary).__name__}"
        )
    if not (hasattr(learner, "predict_one") and hasattr(learner, "learn_one")):
        raise TypeError(f"learner {type(learner).__name__} needs predict_one(x) and learn_one(x, y) methods")
    if T is None:
        T = adversary.length
        if T is None:
            raise LittlestoneError(f"{type(adversary).__name__} plays forever: give the number of rounds T")
    if not isinstance(T, (int, np.integer)) or isinstance(T, bool) or T < 0:
        raise LittlestoneError(f"T must be a nonnegative integer number of rounds, got {T!r}")
    T = int(T)
    if adversary.length is not None and T > adversary.length:
        raise LittlestoneError(f"T={T} rounds asked but {type(adversary).__name__} has only {adversary.length}")
    adversary.watch(learner)
    adversary.start(as_generator(seed))
    points: list[Point] = []
    labels = np.empty(T, dtype=np.int8)
    preds = np.empty(T, dtype=np.int8)
    for t in range(T):
        x = adversary.propose(t)
        p = _prediction01(learner.predict_one(x))
        y = int(adversary.reveal(t, x, p))
        if y not in (0, 1):
            raise LittlestoneError(f"adversary revealed label {y!r}; adversaries reveal 0/1 labels")
        learner.learn_one(x, _coding_for(learner, adversary)[y])
        points.append(x)
        labels[t] = y
        preds[t] = p
    cum = np.cumsum(preds != labels, dtype=np.int64)
    for a in (labels, preds, cum):
        a.setflags(write=False)
    return GameResult(tuple(points), labels, preds, cum)


@dataclass(frozen=True, eq=False)
class StreamResult:
    """A game played in chunks without keeping its transcript: rounds T, total mistakes, the first rounds."""

    T: int
    mistakes: int
    head: GameResult

    def __repr__(self) -> str:
        return f"StreamResult(T={self.T}, mistakes={self.mistakes})"


def play_stream(
    learner: Any,
    adversary: IIDRealizable,
    T: int,
    seed: SeedLike = None,
    *,
    chunk: int = 1 << 18,
    keep: int = 12,
    on_chunk: Callable[[int], None] | None = None,
) -> StreamResult:
    """An oblivious i.i.d. game of T rounds in chunks of ``chunk`` rounds, memory flat in T: each chunk is drawn
    at once (:meth:`IIDRealizable.draw_many`) and learned with ``learner.learn_many`` — the same rounds as
    predict_one/learn_one one at a time, through the class's vectorized closed form where it has one. Keeps the
    first ``keep`` rounds as a :class:`GameResult`; ``on_chunk(k)`` is called after each chunk of k rounds (a
    progress bar). The draws follow the adversary's law but not the generator stream :func:`play` uses."""
    if not isinstance(adversary, IIDRealizable):
        raise TypeError(f"play_stream needs an IIDRealizable adversary, not {type(adversary).__name__}")
    if not hasattr(learner, "learn_many"):
        raise TypeError(f"learner {type(learner).__name__} needs a learn_many(X, y) method to be streamed")
    if not isinstance(T, (int, np.integer)) or isinstance(T, bool) or T < 0:
        raise LittlestoneError(f"T must be a nonnegative integer number of rounds, got {T!r}")
    if isinstance(chunk, bool) or not isinstance(chunk, (int, np.integer)) or chunk < 1:
        raise LittlestoneError(f"chunk must be a positive integer, got {chunk!r}")
    adversary.watch(learner)
    adversary.start(as_generator(seed))
    done = mistakes = 0
    head_pts: list[Point] = []
    head_y: list[int] = []
    head_p: list[int] = []
    while done < T:
        k = int(min(chunk, T - done))
        X, y = adversary.draw_many(k)
        neg = _coding_for(learner, adversary)[0]
        preds = np.asarray(learner.learn_many(X, np.where(y == 1, 1, neg) if neg != 0 else y))
        p01 = (preds == 1).astype(np.int8)
        mistakes += int(np.count_nonzero(p01 != y))
        if len(head_pts) < keep:
            m = keep - len(head_pts)
            head_pts += [X[i] if not isinstance(X, np.ndarray) else X[i].item() for i in range(min(m, k))]
            head_y += y[:m].tolist()
            head_p += p01[:m].tolist()
        done += k
        if on_chunk is not None:
            on_chunk(k)
    ly, lp = np.array(head_y, dtype=np.int8), np.array(head_p, dtype=np.int8)
    cum = np.cumsum(lp != ly, dtype=np.int64)
    for a in (ly, lp, cum):
        a.setflags(write=False)
    return StreamResult(int(T), mistakes, GameResult(tuple(head_pts), ly, lp, cum))


def _prediction01(p: Any) -> int:
    try:
        return check_label01(p)
    except LabelError:
        raise LabelError(f"the learner predicted {p!r}; predictions must be in {{0,1}} or {{-1,+1}}") from None


def _coding_for(learner: Any, adversary: Adversary) -> tuple[Any, Any]:
    if getattr(learner, "coding_is_set", False):
        return learner.label_coding
    adv = getattr(adversary, "coding", None)
    if adv is not None:
        return (adv.negative, adv.positive)
    return getattr(learner, "label_coding", (0, 1))


def _play_one(
    make_learner: Callable[[], Any],
    make_adversary: Callable[[], Adversary],
    T: int | None,
    stream: bool,
    _index: int,
    seed: np.random.SeedSequence,
) -> "GameResult | StreamResult":
    if stream:
        if T is None:
            raise LittlestoneError("a streamed game needs the number of rounds T")
        return play_stream(make_learner(), make_adversary(), T, seed=seed)
    return play(make_learner(), make_adversary(), T, seed=seed)


def play_many(
    make_learner: Callable[[], Any],
    make_adversary: Callable[[], Adversary],
    T: int | None = None,
    *,
    runs: int = 10,
    seed: SeedLike = None,
    jobs: int = 1,
    cluster: Any = None,
    stream: bool = False,
) -> "list[GameResult] | list[StreamResult]":
    """Independent games (fresh learner and adversary from the factories), game i seeded by the i-th child of
    ``seed``: same seed ⇒ same results for any ``jobs`` or backend (:func:`littlestone.parallel.map_seeded`;
    ``cluster`` names a Dask cluster). ``stream=True`` plays i.i.d. games with :func:`play_stream`."""
    if isinstance(runs, bool) or not isinstance(runs, (int, np.integer)) or runs < 1:
        raise LittlestoneError(f"runs must be a positive integer, got {runs!r}")
    return map_seeded(
        partial(_play_one, make_learner, make_adversary, T, bool(stream)),
        range(int(runs)),
        seed=seed,
        n_jobs=jobs,
        cluster=cluster,
        progress="games",
    )
