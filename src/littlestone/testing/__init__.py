"""Tools for testing classes and learners: the contract checks every new class or learner must pass in one call,
and the one brute-force oracle (:mod:`littlestone.testing.oracle`) the project's own tests compare against."""

from . import oracle
from .calibration import RecordingBackend
from .contract import check_hypothesis_class, check_online_learner

__all__ = ["RecordingBackend", "check_hypothesis_class", "check_online_learner", "oracle"]
