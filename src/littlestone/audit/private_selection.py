"""Audits of private model selection (:class:`~littlestone.pac.PrivateGridSearchCV`, issue 28 item 2) and its broken
twin, the selection users do by hand: the argmax of the true validation accuracies.

Set-up: two configurations of the generic learner, each with one candidate hypothesis (threshold 2 or 6 on
thresholds:8), so training is data-independent and the release is the selection alone. 7 examples, not shuffled: 4
training examples (two chunks of 2 for "em") and 3 validation examples (1, 3, 7) on which the two hypotheses disagree
at 3 only. D labels 3 positive (threshold 2 is more accurate: 1 vs 2/3), D′ replaces that record by (3, 0) (threshold
6 is: 1 vs 2/3). The honest selectors release the index chosen — "em" (EM at ε = 1 over accuracy, sensitivity 1/3)
and "lt19" (K = 2 forced, random stopping, 3 · ε/3) — and claim (1, 0); the twin releases the argmax of the exact
validation accuracies, keeping the claim, and is caught (the index is a function of the one changed record).
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any

import numpy as np

from ..classes import Thresholds
from ..privacy import Mechanism, PrivacyClaim
from ..privacy.accountant import BudgetAccountant
from .builtin import BuiltinAudit

EPSILON = 1.0
X_TRAIN = (0, 1, 6, 7)
Y_TRAIN = (0, 0, 1, 1)
X_VAL = (1, 3, 7)
D = ([[x] for x in X_TRAIN + X_VAL], list(Y_TRAIN) + [0, 1, 1])
D_PRIME = ([[x] for x in X_TRAIN + X_VAL], list(Y_TRAIN) + [0, 0, 1])


class SelectionRun(Mechanism):
    """The index PrivateGridSearchCV selects on ``data`` = (X, y) (module doc); its claim is the selector's."""

    name = "private selection"

    def __init__(self, epsilon: float, method: str):
        self.epsilon, self.method = float(epsilon), method
        self._accountant = BudgetAccountant()  # the audit's own tracker (the default one is left alone)

    def selector(self, backend: Any, *, diagnostics: bool = False) -> Any:
        from ..pac import GenericLearnerClassifier, PrivateGridSearchCV

        H = Thresholds(8)
        return PrivateGridSearchCV(
            GenericLearnerClassifier("thresholds:8", classes=(0, 1)),
            {"candidates": [[H.hypothesis(2)], [H.hypothesis(6)]]},
            epsilon=self.epsilon,
            method=self.method,
            validation_size=3 / 7 + 1e-3,
            n_iter=4,
            shuffle=False,
            backend=backend,
            accountant=self._accountant,
            diagnostics=diagnostics,
        )

    def privacy(self) -> PrivacyClaim:
        e, d, rel = self.selector("seeded").privacy(len(D[1]))
        return PrivacyClaim(e, d, rel, f"{self.name} ({self.method})")

    def fit(self, data: tuple, backend: Any, diagnostics: bool = False) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return self.selector(backend, diagnostics=diagnostics).fit(np.asarray(data[0]), np.asarray(data[1]))

    def __call__(self, data: tuple, *, backend: Any, budget: Any = None) -> int:
        return int(self.fit(data, backend).best_index_)


class ArgmaxSelection(SelectionRun):
    """BROKEN: the configuration with the highest exact validation accuracy (what GridSearchCV does), same claim."""

    def __call__(self, data: tuple, *, backend: Any, budget: Any = None) -> int:
        sel = self.fit(data, backend, diagnostics=True)
        return int(np.argmax(sel.diagnostics_["validation_accuracies"]))


def private_selection_audits() -> list[tuple[BuiltinAudit, list[BuiltinAudit]]]:
    """(honest audit, its broken twins) of this module, for the one registry."""
    em = BuiltinAudit(
        "private_selection_em",
        "PrivateGridSearchCV (method='em', ε=1): EM over validation accuracy of 2 configurations; one validation "
        "label flipped",
        SelectionRun(EPSILON, "em"),
        D,
        D_PRIME,
        runs=400,  # end-to-end fits (~20 ms a run on a loaded 2-core machine)
    )
    lt19 = dataclasses.replace(
        em,
        name="private_selection_lt19",
        description="PrivateGridSearchCV (method='lt19', ε=1): Liu–Talwar random stopping over 2 configurations; "
        "one validation label flipped",
        mechanism=SelectionRun(EPSILON, "lt19"),
        runs=300,
    )
    return [
        (
            em,
            [
                em.twin(
                    "private_selection_argmax",
                    "model selection by the argmax of the exact validation accuracies; claims ε=1",
                    ArgmaxSelection(EPSILON, "em"),
                    runs=150,  # the index is a function of the changed record: caught at any number of runs
                )
            ],
        ),
        (lt19, []),
    ]
