"""Online learning in the mistake-bound model (BLM20 §3.2, Kal-LN §4): the SOA (optionally extended to
non-realizable sequences, BLM20 Def 8), Halving, and the game runner with oblivious and adaptive adversaries (incl. those that see the released
hypotheses, LWY25 §3)."""

from .adversaries import AdaptiveAdversary, Adversary, FixedSequence, IIDRealizable, TreeAdversary
from .base import OnlineLearner
from .extended_soa import extended_soa
from .game import GameResult, StreamResult, play, play_many, play_stream
from .halving import Halving
from .released import ADVERSARIES, DisagreementSeeking, LateCommitment, SparseMistakes, make_adversary
from .soa import SOA, soa_classifier

__all__ = [
    "OnlineLearner",
    "SOA",
    "soa_classifier",
    "Halving",
    "extended_soa",
    "play",
    "play_many",
    "play_stream",
    "StreamResult",
    "GameResult",
    "Adversary",
    "FixedSequence",
    "IIDRealizable",
    "TreeAdversary",
    "AdaptiveAdversary",
    "DisagreementSeeking",
    "SparseMistakes",
    "LateCommitment",
    "ADVERSARIES",
    "make_adversary",
]
