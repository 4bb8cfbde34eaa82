"""Audits of the agnostic private online learner SegmentedEM (issue 33, App. G.2) in the adaptive game of LWY25
Def. 2.4, with broken twins the auditor catches.

The game isolates the selections: thresholds(2) (thresholds s ∈ {0, 1, 2}), no window, ``first`` = 4 (public
segments of 4, 4, 8, 16, 32, 64 rounds), τ so large that the stay test never fires, the selection holding 0.9 of
ε = 1. Round t* = 0 is the special round: z⁽⁰⁾ = (0, 0), z⁽¹⁾ = (0, 1); every other round is (1, 1). Both 1[x ≥ 0]
and 1[x ≥ 1] fit every (1, 1); the special example decides which one fits it (s = 1 for b = 0, s = 0 for b = 1), by
one mistake. Feature: the number of public selections (released at rounds 4, 8, 16, 32, 64 and 128) that release
s = 1 (:func:`selections_of_one`).

* honest: only the first selection reads round t*, so the feature's law moves by at most e^{ε_EM}.
* twin ``segment_em_exact_selection``: the selection releases the argmax (no exponential-mechanism noise), with
  the honest claim — the first selection (feature :func:`first_selection`) is then deterministic in b.
* twin ``segment_em_round_read_twice``: every selection reads all the rounds so far (a round feeds every later
  selection, not one), with the honest claim — six selections each moved by round t*.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from ..classes.thresholds import Thresholds
from ..privacy.cell_exponential import CellExponentialMechanism
from ..private_online.segmented_em import SegmentedEM
from .adaptive_game import BrokenLearnerInGame, LearnerInGame

EPS = 1.0
T_GAME = 129
#: the rounds at which a selection's output is first used (ends of the public segments 4, 4, 8, 16, 32, 64)
SELECTION_ROUNDS = (4, 8, 16, 32, 64, 128)


def _segment_em(backend: Any, *, T: int, cls: type = SegmentedEM) -> Any:
    return cls(
        Thresholds(2),
        T=T,
        epsilon=EPS,
        backend=backend,
        split=(0.05, 0.9, 0.05),
        tau=1e9,
        first=4,
        window=False,
        stay_factor=0.0,  # every segment runs its (silent) stay test: the selection keeps 0.9 of ε
    )


def special_then_ones(t: int, released: tuple) -> tuple:
    """t* = 0: z⁽⁰⁾ = (0, 0), z⁽¹⁾ = (0, 1); then (1, 1) every round."""
    return ("special", (0, 0), (0, 1)) if t == 0 else ("example", 1, 1)


def selections_of_one(view: tuple) -> int:
    """Feature: how many of the public selections released the threshold s = 1."""
    count = 0
    for r in SELECTION_ROUNDS:
        h = None
        for t, key in view:
            if t <= r:
                h = key
        count += int(h == (1,))
    return count


def first_selection(view: tuple) -> Any:
    """Feature: the threshold released by the first selection (round 4)."""
    h = None
    for t, key in view:
        if t <= SELECTION_ROUNDS[0]:
            h = key
    return h


class _Argmax(CellExponentialMechanism):
    """BROKEN: the selection of :class:`SegmentedEMExactSelection` — the best cell itself (the honest claim)."""

    def __call__(self, data: Any, *, backend: Any, budget: Any = None) -> int:
        sizes, scores = data
        return int(np.argmax(np.asarray(scores, dtype=float)))


class SegmentedEMExactSelection(SegmentedEM):
    """BROKEN: SegmentedEM whose selection is the exact argmax (no noise), with the honest claim."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.selection_mechanism = _Argmax(self.epsilon_select, 1.0)

    def _selection_mechanism(self, eps: float) -> CellExponentialMechanism:
        return _Argmax(eps, 1.0)  # every kind of segment (quiet ones too) selects by the argmax


class SegmentedEMReadTwice(SegmentedEM):
    """BROKEN: every selection reads all the rounds so far (each round feeds every later selection), with the
    honest claim."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._all_x: list[Any] = []
        self._all_y: list[np.ndarray] = []

    def _selection_examples(self) -> tuple[Any, np.ndarray]:
        x, y = self._segment_examples()
        self._all_x.append(np.asarray(x))
        self._all_y.append(np.asarray(y))
        return np.concatenate(self._all_x), np.concatenate(self._all_y)


def agnostic_segment_audits() -> list[tuple[Any, list[Any]]]:
    """(honest audit, its broken twins) for SegmentedEM's selections in the adaptive game."""
    from .builtin import BuiltinAudit

    make = partial(_segment_em, T=T_GAME)
    honest = BuiltinAudit(
        "segment_em_adaptive_game",
        "SegmentedEM (thresholds(2), segments 4, 4, 8, …, ε_EM = 0.9 of ε = 1, no stay-test ⊤) in the adaptive game "
        "of LWY25 Def. 2.4: t*=0, b=0 gets (0,0), b=1 gets (0,1), then (1,1); feature: selections releasing s=1",
        LearnerInGame(make, T_GAME, special_then_ones),
        0,
        1,
        featurize=selections_of_one,
        runs=4000,
    )
    return [
        (
            honest,
            [
                honest.twin(
                    "segment_em_exact_selection",
                    "SegmentedEM whose selection is the exact argmax (no noise), same game and claim",
                    BrokenLearnerInGame(make, T_GAME, SegmentedEMExactSelection, special_then_ones),
                    featurize=first_selection,
                    runs=300,
                ),
                honest.twin(
                    "segment_em_round_read_twice",
                    "SegmentedEM whose every selection reads all past rounds (round t* feeds six selections), same "
                    "game and claim",
                    BrokenLearnerInGame(make, T_GAME, SegmentedEMReadTwice, special_then_ones),
                ),
            ],
        )
    ]


__all__ = [
    "agnostic_segment_audits",
    "first_selection",
    "SegmentedEMExactSelection",
    "SegmentedEMReadTwice",
    "selections_of_one",
]
