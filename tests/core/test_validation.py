"""littlestone.validation (issue 10 item 3): one set of checks, one error type."""

import numpy as np
import pytest

from littlestone.errors import InvalidParameterError, LittlestoneError, PrivacyParameterError
from littlestone.validation import (
    check_delta,
    check_epsilon,
    check_jobs,
    check_positive_int,
    check_seed,
    check_unit_interval,
)


def test_error_hierarchy():
    assert issubclass(InvalidParameterError, LittlestoneError) and issubclass(InvalidParameterError, ValueError)
    assert issubclass(PrivacyParameterError, InvalidParameterError)


@pytest.mark.parametrize(
    "check,good,bad",
    [
        (check_epsilon, [1e-9, 1, 3.5], [0, -1, float("inf"), float("nan"), True, "1", None]),
        (check_delta, [0, 0.5, 1e-12], [1, -0.1, float("nan"), False]),
        (lambda v: check_unit_interval(v, "beta"), [0.5, 1e-9], [0, 1, 2, "x"]),
        (lambda v: check_positive_int(v, "k"), [1, 3.0, np.int64(7)], [0, 1.5, True, "3", -2]),
        (check_jobs, [1, 4, -1], [0, -2, 1.0, True]),
        (check_seed, [None, 0, 5, np.random.SeedSequence(1), np.random.default_rng(0)], [-1, 1.5, "a", True]),
    ],
)
def test_checks(check, good, bad):
    for v in good:
        check(v)
    for v in bad:
        with pytest.raises(InvalidParameterError):
            check(v)


def test_positive_delta_and_closed_interval():
    with pytest.raises(InvalidParameterError, match="> 0"):
        check_delta(0.0, positive=True)
    assert check_unit_interval(1.0, "q", closed=True) == 1.0
