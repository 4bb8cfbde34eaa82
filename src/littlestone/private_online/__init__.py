"""Private online learning: learners whose whole stream of released hypotheses is (ε, δ)-DP.

base.py    the interface (predict_one / learn_one / hypothesis / run / privacy / state), ⊥, the base learner
lwy25.py   LWY25 realizable learner against adaptive adversaries (Alg. 1 Update, Alg. 2, Thm 3.1)
gl21.py    GL21 DP-SOA (oblivious adversaries) and its per-round re-initialised variant (GL21 Thm 4.2)
anytime.py AnytimeLWY25 / AnytimeGL21: a fresh instance whenever one stops for good (extension beyond the papers)
points_at.py    PointsAT: points on huge domains (zero segments, AboveThreshold, a private selection of the point)
intervals_at.py IntervalsAT: intervals (a private point inside the target, then one bisection per endpoint)
segments.py   segments ended by an AboveThreshold on the running mistake count (the disjoint-segment lemma, F.1)
list_at.py    ListAT: any listable finite class, pure ε-DP, adaptive adversaries (App. F.2)
bisect_at.py  BisectAT: thresholds on any domain (2^60), pure ε-DP, adaptive adversaries (App. F.3)
segment_scores.py  every hypothesis's mistakes on a stretch of the stream, as cells (thresholds, points, finite)
segmented_em.py  SegmentedEM: noisy streams (regret), stay test + exponential mechanism per segment (App. G.2)
epoch_em.py   EpochEM: noisy i.i.d. streams, public doubling epochs + exponential mechanism (App. G.1)
"""

from .base import BOT, BaseLearner, ConstantHypothesis, LearnerPrivacy, PrivateOnlineLearner, RunResult, SOABase
from .anytime import AnytimeGL21, AnytimeLWY25
from .gl21 import GL21, GL21Adaptive, GL21Setting
from .lwy25 import LWY25, LWY25Setting, lwy_update
from .points_at import PointsAT
from .intervals_at import IntervalsAT
from .list_at import ListAT
from .bisect_at import BisectAT
from .segmented_em import SegmentedEM
from .epoch_em import EpochEM

__all__ = [
    "AnytimeGL21",
    "AnytimeLWY25",
    "BisectAT",
    "EpochEM",
    "SegmentedEM",
    "ListAT",
    "BOT",
    "BaseLearner",
    "ConstantHypothesis",
    "LearnerPrivacy",
    "PrivateOnlineLearner",
    "RunResult",
    "SOABase",
    "GL21",
    "GL21Adaptive",
    "GL21Setting",
    "IntervalsAT",
    "PointsAT",
    "LWY25",
    "LWY25Setting",
    "lwy_update",
]
