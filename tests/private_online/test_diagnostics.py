"""The release policy of the private online learners (issue 19 item 4): by default state() shows only what is public
or computed from mechanism outputs, and the attributes holding exact counts of the private stream refuse to be read;
``diagnostics=True`` (passed through by the anytime wrappers) turns them on."""

from __future__ import annotations

import numpy as np
import pytest

from littlestone import Thresholds
from littlestone.errors import LittlestoneError
from littlestone.private_online import GL21, LWY25, AnytimeGL21, AnytimeLWY25, GL21Adaptive, GL21Setting, LWY25Setting

T = 400
_rng = np.random.default_rng(3)
X = _rng.integers(0, 4, T)
Y = (X >= 2).astype(np.int8)
LWY_KEYS = {"agreeing_pairs", "bottom_sequences", "insertions"}
GL21_KEYS = {"distinct_in_list", "released_frequency", "merges"}


def _make(cls, diagnostics):
    kw = dict(T=T, epsilon=1.0, delta=1e-6, backend="seeded", seed=0, diagnostics=diagnostics)
    if cls in (LWY25, AnytimeLWY25):
        kw["setting"] = LWY25Setting(64, 128, 3.0)
    elif cls is not GL21Adaptive:
        kw["setting"] = GL21Setting(4, 64, 1.0, 3)
    else:
        kw.update(T=20, setting=GL21Setting(4, 16, 1.0, 3))
    learner = cls(Thresholds(4), **kw)
    learner.run(X[: learner.T], Y[: learner.T])
    return learner


@pytest.mark.parametrize(
    "cls, keys",
    [(LWY25, LWY_KEYS), (AnytimeLWY25, LWY_KEYS), (GL21, GL21_KEYS), (AnytimeGL21, GL21_KEYS), (GL21Adaptive, set())],
)
def test_state_shows_exact_counts_only_with_diagnostics(cls, keys):
    public, diag = _make(cls, False), _make(cls, True)
    assert public.diagnostics is False and diag.diagnostics is True
    assert not keys & set(public.state())
    assert set(diag.state()) == set(public.state()) | keys
    # the flag does not change the run: same seed, same released stream and public state
    assert {k: v for k, v in diag.state().items() if k not in keys} == public.state()
    assert diag.hypothesis() == public.hypothesis()
    if keys:
        assert any(diag.state()[k] for k in keys)  # the counts are real (something was inserted / merged)


GUARDED = [  # (learner, attribute holding exact counts, how to read it, the state key it must agree with)
    (LWY25, "insertions", lambda i: i.insertions, "insertions"),
    (AnytimeLWY25, "insertions", lambda i: i.insertions, "insertions"),
    (LWY25, "sequences", lambda i: sum(1 for s in i.sequences() if s), None),
    (GL21, "forest", lambda i: i.forest.merges, "merges"),
    (AnytimeGL21, "forest", lambda i: i.forest.merges, "merges"),
]


@pytest.mark.parametrize("cls, name, read, key", GUARDED, ids=[f"{c.__name__}.{n}" for c, n, _, _ in GUARDED])
def test_exact_counts_refuse_to_be_read_without_diagnostics(cls, name, read, key):
    learner = _make(cls, False)
    inst = getattr(learner, "current", learner)
    with pytest.raises(LittlestoneError, match=f"{name}.*diagnostics=True"):
        read(inst)
    assert name not in vars(inst)  # no public attribute carries it
    on = _make(cls, True)
    inst = getattr(on, "current", on)
    assert read(inst) > 0 and (key is None or read(inst) == on.state()[key])


def test_diagnostics_must_be_a_bool():
    with pytest.raises(LittlestoneError, match="diagnostics must be True or False"):
        LWY25(Thresholds(2), T=10, epsilon=1.0, delta=1e-6, backend="seeded", seed=0, diagnostics="yes")
