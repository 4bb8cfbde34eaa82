"""Exception types: every bad input raises one of these with a message naming the problem."""

from __future__ import annotations


class LittlestoneError(ValueError):
    """Base class of all errors raised deliberately by littlestone (a ValueError, so sklearn treats it as bad input)."""


class DomainError(LittlestoneError):
    """A point lies outside the hypothesis class's domain (or is NaN / of the wrong type)."""


class LabelError(LittlestoneError):
    """Labels are not a valid binary label set ({0,1}, {-1,+1}, or two distinct values where allowed)."""


class EmptyDataError(LittlestoneError):
    """A dataset, candidate list or class is empty where something is needed."""


class NotRealizableError(LittlestoneError):
    """The data are not realizable by the class, and the algorithm requires realizability."""


class ClassSpecError(LittlestoneError):
    """A hypothesis-class specification string or file is malformed."""


class InvalidParameterError(LittlestoneError):
    """A parameter (ε, δ, a probability, a count, jobs, a seed, ...) is out of range or of the wrong type
    (raised by :mod:`littlestone.validation`)."""


class PrivacyParameterError(InvalidParameterError):
    """epsilon, delta, sensitivity or another privacy parameter is out of range."""


class BudgetExceededError(LittlestoneError):
    """A mechanism would spend more privacy budget than remains."""


class InsufficientSampleError(LittlestoneError):
    """Too few examples for the requested parameters (the message says how many are needed)."""


class SearchBudgetError(LittlestoneError):
    """An exact exponential search (VC or threshold dimension) reached its cap before finishing; ``cap`` is the cap
    and ``parameter`` the keyword that sets it (``None`` lifts it)."""

    def __init__(self, message: str, *, what: str = "", cap: int = 0, parameter: str = ""):
        super().__init__(message)
        self.what, self.cap, self.parameter = what, cap, parameter


class IrreducibilityError(LittlestoneError):
    """The irreducibility order of a class cannot be computed (no closed form and no explicit twin)."""


class PrivacyLeakWarning(UserWarning):
    """A private estimator read something from the private data that its privacy claim does not cover (e.g. the
    label set, when ``classes=None``), as diffprivlib's warning of the same name does for data-derived bounds."""


class SplitReadError(LittlestoneError):
    """A learner tried to read records outside the part of its :class:`~littlestone.privacy.DataSplit` that a step
    was handed (or a part for a step it does not feed): the split's composed claim would not cover the read."""


class FallbackLikelyWarning(UserWarning):
    """A private estimator's sizes (public parameters only: ε, δ, the class's Ldim and the planned or declared stage
    sizes) make its data-independent output (BLM20's SOA fallback, GGKM21's ⊥) near certain, whatever the data;
    the message names the size needed (:mod:`littlestone.pac.fallback_warning`)."""
