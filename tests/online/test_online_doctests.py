"""The examples in the online modules' docstrings run."""

from __future__ import annotations

import doctest

import pytest

import littlestone.online.game
import littlestone.online.soa


@pytest.mark.parametrize("module", [littlestone.online.soa, littlestone.online.game])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_game_result_rows():
    from littlestone import Thresholds
    from littlestone.online import SOA, FixedSequence, play

    rows = play(SOA(Thresholds(10)), FixedSequence([5, 2], [1, 0])).as_rows()
    assert rows == [
        {"t": 0, "x": 5, "prediction": 0, "label": 1, "mistake": 1, "cumulative_mistakes": 1},
        {"t": 1, "x": 2, "prediction": 0, "label": 0, "mistake": 0, "cumulative_mistakes": 1},
    ]
