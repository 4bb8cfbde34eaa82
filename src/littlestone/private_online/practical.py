"""The practical private online learner that fits a class (``littlestone play -l private``, the docs' first example).

The library's practical learners are pure ε-DP against adaptive adversaries (LWY25 Def. 2.4) and make hundreds of
mistakes where the papers' algorithms (LWY25, GL21 — kept faithful under their own names) make thousands to
millions (issue 27; benchmarks/results/). :func:`practical_learner` picks, by the class's structure only (public;
never the data):

* thresholds (a class with the thresholds closed form, any domain size — 2^60 and the infinite forms included):
  :class:`~littlestone.private_online.BisectAT` (``bisect``);
* point functions (:class:`~littlestone.classes.Points`): :class:`~littlestone.private_online.PointsAT`
  (``points-at``);
* intervals (:class:`~littlestone.classes.Intervals`): :class:`~littlestone.private_online.IntervalsAT`
  (``intervals-at``);
* any other class that lists its hypotheses (at most ``list_at.MAX_LIST``):
  :class:`~littlestone.private_online.ListAT` (``listat``).

Other classes have no practical learner yet: the error names the papers' learners (``lwy25``, ``gl21``), which take
any class of finite Littlestone dimension.

With ``noisy=True`` (``play -l private --data FILE``: a stream of the user's, which may be noisy — the choice is made
on how the examples come, never on what they are) the pick is
:class:`~littlestone.private_online.SegmentedEM` (``segment-em``) for every class it takes in closed form: regret
against the best hypothesis in hindsight on any stream, where the realizable learners above wander once no hypothesis
is right every time. The reason says when the realizable learner is the better choice.
"""

from __future__ import annotations

from typing import Any

from ..classes.base import HypothesisClass, VersionSpace
from ..classes.intervals import Intervals
from ..classes.points import Points
from ..errors import LittlestoneError
from .bisect_at import BisectAT, threshold_candidates
from .intervals_at import IntervalsAT
from .list_at import ListAT, list_hypotheses
from .points_at import PointsAT
from .segment_scores import scores_for
from .segmented_em import SegmentedEM


def practical_learner(H: HypothesisClass | VersionSpace, *, noisy: bool = False) -> tuple[str, Any, str]:
    """(name, learner class, why) of the practical private online learner for ``H`` — the name as in
    ``littlestone play -l`` and ``experiments.private_online.LEARNERS``; refuses, in one line, a class none fits.
    ``noisy=True``: the noisy-stream learner (SegmentedEM) where it takes the class, the realizable one otherwise."""
    hclass = getattr(H, "hclass", H)
    name = getattr(hclass, "name", type(hclass).__name__)
    if noisy:
        try:
            scores_for(H)
        except LittlestoneError:
            pass
        else:
            try:
                clean = f"; if one labels every example right, -l {practical_learner(H)[0]} makes fewer mistakes"
            except LittlestoneError:  # no realizable practical learner for the class (stumps over a large domain)
                clean = ""
            return (
                "segment-em",
                SegmentedEM,
                f"examples from a file may be noisy: SegmentedEM competes with the best hypothesis of {name} in "
                f"hindsight{clean}",
            )
    whole = not isinstance(H, VersionSpace) or H.key() == hclass.version_space().key()
    if isinstance(hclass, Points) and whole:
        return "points-at", PointsAT, f"{name} is a class of point functions: PointsAT"
    if isinstance(hclass, Intervals) and whole:
        return "intervals-at", IntervalsAT, f"{name} is a class of intervals: IntervalsAT"
    try:
        threshold_candidates(H)
        return "bisect", BisectAT, f"{name} is a class of thresholds: BisectAT (private bisection)"
    except LittlestoneError:
        pass
    try:
        k = len(list_hypotheses(H))
    except LittlestoneError as exc:
        raise LittlestoneError(
            f"no practical private online learner fits {name} ({exc}); the papers' learners -l lwy25 / -l gl21 take "
            "any class of finite Littlestone dimension"
        ) from None
    return "listat", ListAT, f"{name} lists {k:,} hypotheses: ListAT"


__all__ = ["practical_learner"]
