"""``Threshold.absorb_patches`` (the canonical form of a patched threshold, BLM20 Definition 8's local updates) by a
linear sweep must equal the direct O(|P|²) minimisation it replaced, on random patch tables."""

from hypothesis import given, settings
from hypothesis import strategies as st

from littlestone.classes.base import PatchedHypothesis
from littlestone.classes.thresholds import Threshold


def reference(t: int, patches: list) -> object:
    """The direct minimisation: every candidate base c ∈ {t} ∪ P ∪ (P+1) costed by counting, least (cost, c)."""
    table = dict(patches)

    def cost(c: int) -> tuple[int, int]:
        lo, hi = min(t, c), max(t, c)
        inside = sum(1 for x in table if lo <= x < hi)
        wrong = sum(1 for x, v in table.items() if v != int(x >= c))
        return wrong + (hi - lo - inside), c

    c = min(({t} | set(table) | {x + 1 for x in table}), key=cost)
    f = lambda x: table[x] if x in table else int(x >= t)  # noqa: E731
    new = sorted({(x, f(x)) for x in list(table) + list(range(min(t, c), max(t, c))) if f(x) != int(x >= c)})
    return Threshold(c) if not new else PatchedHypothesis(Threshold(c), tuple(new))


@settings(max_examples=400, deadline=None)
@given(
    st.integers(-5, 40),
    st.lists(st.tuples(st.integers(-10, 50), st.integers(0, 1)), min_size=0, max_size=30),
)
def test_sweep_equals_the_direct_minimisation(t: int, patches: list) -> None:
    got = Threshold(t).absorb_patches(patches)
    want = reference(t, patches)
    assert got == want
    assert type(got) is type(want)
    if isinstance(got, PatchedHypothesis):
        assert got.patches == want.patches


def test_patches_that_move_the_threshold_become_a_threshold() -> None:
    assert Threshold(5).absorb_patches([(3, 1), (4, 1)]) == Threshold(3)
    assert Threshold(5).absorb_patches([(5, 0), (6, 0)]) == Threshold(7)
    h = Threshold(5).absorb_patches([(9, 0)])
    assert isinstance(h, PatchedHypothesis) and h.base == Threshold(5) and h.patches == ((9, 0),)
