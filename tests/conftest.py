"""Fixtures shared across the test packages."""

from __future__ import annotations

import pytest


@pytest.fixture
def fresh_default_accountant():
    """The test starts with no default BudgetAccountant and leaves none behind (the one it found is put back)."""
    from littlestone.privacy import BudgetAccountant

    saved = BudgetAccountant._default
    BudgetAccountant._default = None
    yield
    BudgetAccountant._default = saved
