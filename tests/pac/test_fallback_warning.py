"""FallbackLikelyWarning (issue 28 item 3): estimators warn once per fit when their public sizes make the
data-independent output near certain, and not when they don't; the bounds behind it hold; the which-learner table
generator runs on a tiny grid."""

from __future__ import annotations

import importlib.util
import math
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from littlestone.errors import FallbackLikelyWarning
from littlestone.pac import BLM20Classifier, PolyPriLearnClassifier, PolyPriPropLearnClassifier
from littlestone.pac.fallback_warning import NEAR_CERTAIN, blm20_success_bound, polyprilearn_success_bound
from littlestone.pac.grid import grid_stumps
from littlestone.privacy.sparse_selection import sparse_selection_bottom_score, sparse_selection_probabilities

H = grid_stumps(4, 1)
RNG = np.random.default_rng(0)
X = RNG.integers(0, 4, size=(400, 1))
Y = (X[:, 0] >= 2).astype(int)  # realizable by a stump: the most favourable data for a non-fallback


def _blm20(eps: float, k: int, seed: int = 0) -> BLM20Classifier:
    return BLM20Classifier(
        H, epsilon=eps, delta=1e-4, n_batches=k, aux_size=1, cap=2, n_generic=100, eta=0.1, backend="seeded",
        random_state=seed,
    )  # fmt: skip


def _fit(est, n: int = 400) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        est.fit(X[:n], Y[:n])
    return [w for w in rec if issubclass(w.category, FallbackLikelyWarning)]


def test_blm20_warns_once_at_small_size_naming_the_size_needed():
    got = _fit(_blm20(0.1, 100))
    assert len(got) == 1 and got[0].filename == __file__  # points at the user's fit call
    msg = str(got[0].message)
    assert "BLM20Classifier" in msg and "n_batches ≥ 116" in msg and "n ≥ 448" in msg
    assert issubclass(FallbackLikelyWarning, UserWarning)


def test_blm20_warned_setting_falls_back_on_realizable_data():
    """The warning is right: the (ε = 0.1, k = 100) setting falls back on data a stump labels perfectly."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackLikelyWarning)
        assert all(_blm20(0.1, 100, seed=s).fit(X, Y).result_.fallback for s in range(5))


def test_blm20_no_warning_where_a_fit_can_succeed():
    est = _blm20(8.0, 100)
    assert _fit(est) == []
    assert not est.result_.fallback  # and it does succeed here


def test_blm20_bound_is_an_upper_bound_and_tight_at_the_named_size():
    # one item holding all k batches passes the noisy threshold with at most the bound's probability
    from littlestone.privacy.stable_histogram import calibrated_threshold, count_one_release_probability

    for k in (10, 100, 300):
        tau = calibrated_threshold(0.05, 1e-4, discrete=False)[0]
        assert count_one_release_probability(0.05, tau - (k - 1), discrete=False) <= blm20_success_bound(k, 0.1, 1e-4)
    assert blm20_success_bound(115, 0.1, 1e-4) < NEAR_CERTAIN <= blm20_success_bound(116, 0.1, 1e-4)


def test_polyprilearn_warns_once_and_not_at_large_epsilon():
    est = PolyPriLearnClassifier(H, epsilon=0.1, delta=1e-4, n=2, m=200, K=2, backend="seeded", random_state=0)
    got = _fit(est)
    assert len(got) == 1 and "m ≥ " in str(got[0].message) and est.result_.bottom
    ok = PolyPriLearnClassifier(H, epsilon=8.0, delta=1e-4, n=2, m=200, K=2, backend="seeded", random_state=0)
    assert _fit(ok) == [] and not ok.result_.bottom


def test_polyprilearn_bound_dominates_the_exact_law():
    """P[not ⊥] from the exact output law of sparse selection on the most favourable lists (every user holds the
    same s elements) never exceeds the bound."""
    for eps, m, s in ((0.5, 20, 3), (1.0, 60, 2), (2.0, 10, 4)):
        lists = [list(range(s))] * m
        p_not_bottom = (
            1.0
            - sparse_selection_probabilities(lists, eps, 1e-4, s)[
                next(k for k in sparse_selection_probabilities(lists, eps, 1e-4, s) if repr(k) == "BOTTOM")
            ]
        )
        B = sparse_selection_bottom_score(eps, 1e-4, s)
        assert p_not_bottom <= polyprilearn_success_bound(m, s, eps, B) + 1e-12


def test_polypriproplearn_warns_once():
    est = PolyPriPropLearnClassifier(
        H, epsilon=0.1, delta=1e-4, n=2, m=150, K=2, n_generic=100, backend="seeded", random_state=0
    )
    got = _fit(est)
    assert len(got) == 1 and "n ≥ " in str(got[0].message)


def test_no_warning_when_the_learner_refuses_the_size():
    """Sizes above n: the learner's own InsufficientSampleError speaks, no warning before it."""
    from littlestone.errors import InsufficientSampleError

    with pytest.raises(InsufficientSampleError), warnings.catch_warnings():
        warnings.simplefilter("error", FallbackLikelyWarning)
        _blm20(0.1, 1000).fit(X, Y)


def _bench():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_which_learner.py"
    spec = importlib.util.spec_from_file_location("bench_which_learner", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_which_learner_table_on_a_tiny_grid():
    b = _bench()
    assert b.n_grid(124, 64) == [64, 124] and b.n_grid(100, 16)[-1] == 100  # capped at the data, never beyond
    names = ("GenericLearnerClassifier", "BLM20Classifier")
    out = b.run(b.load_tasks(("wine",)), names, (8.0,), 1, start=64)
    assert out["grids"]["wine"] == [64, 124]  # 70 % of 178 = 124 training examples: the last grid point
    text = b.markdown(out, names, (8.0,))
    assert "| GenericLearnerClassifier | — / " in text and "| BLM20Classifier |" in text
    assert "FallbackLikelyWarning" in text and all(out["cells"][c][0] > 0 for c in out["warned"])
    rows = b.summary(out, names, (8.0,))
    assert all(r[3] is None or r[3] in (64, 124) for r in rows)
    assert math.isclose(out["majority"][("wine", 124)], 36 / 54, rel_tol=0.05)  # class 0 is a third of wine


def test_agnostic_blm20_warns_on_its_inner_run():
    from littlestone.pac import AgnosticBLM20Classifier

    sizes = {"n_batches": 10, "aux_size": 1, "cap": 2, "n_generic": 10, "eta": 0.1}
    est = AgnosticBLM20Classifier(
        H, epsilon=4.0, delta=1e-4, subsample_size=100, inner_sizes=sizes, backend="seeded", random_state=0
    )
    got = _fit(est)
    assert len(got) == 1 and "subsample_size" in str(got[0].message) and est.result_.inner.fallback


def test_bad_parameters_are_the_learners_to_refuse():
    """The check never raises: a bad alpha gets the learner's own one-line error, not the planner's."""
    from littlestone.errors import LittlestoneError

    with pytest.raises(LittlestoneError, match=r"alpha must lie in \(0, 1\), got 2\.0"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        BLM20Classifier(H, epsilon=1.0, delta=1e-4, alpha=2.0, backend="seeded").fit(X, Y)  # theory sizes


def test_fit_source_warns_too_pointing_at_the_caller():
    from littlestone.pac.sources import ArraySource

    for est in (
        _blm20(0.1, 100),
        PolyPriLearnClassifier(H, epsilon=0.1, delta=1e-4, n=2, m=200, K=2, backend="seeded", random_state=0),
    ):
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            est.fit_source(ArraySource(H.validate_points(X[:, 0]), Y))
        got = [w for w in rec if issubclass(w.category, FallbackLikelyWarning)]
        assert len(got) == 1 and got[0].filename == __file__


def test_agnostic_polypriproplearn_warns_on_its_inner_run_and_the_warned_fit_falls_back():
    from littlestone.pac import AgnosticPolyPriPropLearnClassifier

    from littlestone.pac.agnostic_proper import eps0_for

    def est(eps: float) -> AgnosticPolyPriPropLearnClassifier:
        # the bench's user sizes at n = 400 (benchmarks/bench_which_learner.py)
        inner = max(1, math.ceil(eps0_for(eps) * 400) // 8)
        return AgnosticPolyPriPropLearnClassifier(
            H,
            epsilon=eps,
            delta=1e-4,
            n=400,
            n_inner=2,
            K=2,
            m=inner,
            n_generic=inner,
            backend="seeded",
            random_state=0,
        )

    warned = est(8.0)
    got = _fit(warned)
    assert len(got) == 1 and "inner PolyPriPropLearn run" in str(got[0].message) and "m ≥ " in str(got[0].message)
    assert warned.result_.inner.bottom  # the warned fit did return ⊥ (its data-independent output)
