"""Algorithm G (BLM20 Theorem 10): sizes, consumption, determinism across workers, global stability (slow)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from littlestone import FiniteClass, Thresholds
from littlestone.classes.points import Points
from littlestone.errors import LittlestoneError
from littlestone.pac.blm20 import blm20_learn
from littlestone.pac.global_stable import GlobalStableLearner, run_batches
from littlestone.pac.sources import ArraySource, RealizableStream, UniformIntegers
from littlestone.pac.tournament import FAIL


def test_theory_parameters():
    G = GlobalStableLearner(Thresholds(7), 0.1)
    assert (G.d, G.n, G.cap, G.m) == (3, 30, 8**4 * 30, (8**4 + 1) * 30)
    assert G.eta == 1 / (4 * 16)
    with pytest.raises(LittlestoneError, match="must be an integer ≥ 1, got 0"):
        GlobalStableLearner(Thresholds(7), 0.1, d=0)
    with pytest.raises(LittlestoneError, match="has Littlestone dimension 0"):
        GlobalStableLearner(FiniteClass(np.zeros((1, 3), dtype=np.uint8)), 0.1)


def test_reads_at_most_its_batch_and_failures_stay_under_the_cap():
    H = Thresholds(7)
    G = GlobalStableLearner(H, 0.5)
    src = RealizableStream(H.hypothesis(3), UniformIntegers(0, 7), 300 * G.m, seed=0)
    runs = run_batches(G, src, [(i * G.m, (i + 1) * G.m) for i in range(300)], 1)
    assert all(r.examples_read <= G.m for r in runs)
    assert all(r.examples_read <= G.cap for r in runs if r.failed)
    assert Counter(r.k for r in runs).keys() == {0, 1, 2, 3}
    assert all(not r.failed and r.examples_read == G.n for r in runs if r.k == 0)  # k = 0: SOA(T) only


def test_same_seed_same_outputs_for_any_number_of_workers():
    H = Thresholds(7)
    G = GlobalStableLearner(H, 0.5)
    src = RealizableStream(H.hypothesis(3), UniformIntegers(0, 7), 64 * G.m, seed=3)
    batches = [(i * G.m, (i + 1) * G.m) for i in range(64)]
    a = run_batches(G, src, batches, 9, n_jobs=1)
    b = run_batches(G, src, batches, 9, n_jobs=2)
    assert a == b


def test_progress_reports_do_not_change_the_outputs():
    """A listener (the CLI's bars) sees "G runs" climb to k, for 1 and 2 workers, with the same outputs."""
    from littlestone import _progress

    H = Thresholds(7)
    G = GlobalStableLearner(H, 0.5)
    src = RealizableStream(H.hypothesis(3), UniformIntegers(0, 7), 64 * G.m, seed=3)
    batches = [(i * G.m, (i + 1) * G.m) for i in range(64)]
    plain = run_batches(G, src, batches, 9, n_jobs=1)
    for jobs in (1, 2):
        seen: list[tuple[str, int, int]] = []
        with _progress.listening(lambda *r: seen.append(r)):
            assert run_batches(G, src, batches, 9, n_jobs=jobs) == plain
        assert seen[0] == ("G runs", 0, 64) and seen[-1] == ("G runs", 64, 64) and len(seen) > 2
        assert [d for _, d, _ in seen] == sorted(d for _, d, _ in seen)
    _progress.report("G runs", 1, 2)  # nobody listens: a no-op


def test_g_on_an_in_memory_sample():
    H = Thresholds(15)
    X = np.random.default_rng(0).integers(0, 15, size=GlobalStableLearner(H, 0.9).m)
    y = (X >= 6).astype(np.int8)
    r = GlobalStableLearner(H, 0.9)(X, y, seed=0, depth=0)
    assert r.output is not FAIL and np.array_equal(r.output.predict(X[:4]), y[:4])


def test_m_learns_points_over_strings():
    """An infinite class (Points over any hashable value): the generic learner alone has no finite list to use."""
    H = Points()
    rng = np.random.default_rng(0)
    words = np.array([f"user-{i}" for i in rng.integers(0, 10**12, size=6000)], dtype=object)
    words[rng.random(6000) < 0.5] = "alice"
    y = (words == "alice").astype(np.int8)
    res = blm20_learn(
        H,
        ArraySource(words, y),
        epsilon=1.0,
        delta=1e-6,
        backend="seeded",
        seed=1,
        n_batches=300,
        aux_size=10,
        cap=5,
        n_generic=500,
        eta=0.1,
    )
    assert res.chosen("alice") == 1 and res.chosen("bob") == 0 and res.chosen("user-17") == 0


@pytest.mark.slow
@pytest.mark.parametrize("points, alpha", [(3, 0.5), (7, 0.5)])
def test_global_stability_theorem10(points, alpha):
    """Some f has Pr[G(S) = f] ≥ 2^{-(d+1)}/(d+1) and loss ≤ α (uniform points; exact losses)."""
    H = Thresholds(points)
    G = GlobalStableLearner(H, alpha)
    R = 3000
    target = H.hypothesis(points // 2 + 1)
    src = RealizableStream(target, UniformIntegers(0, points), R * G.m, seed=5)
    counts = Counter(r.output for r in run_batches(G, src, [(i * G.m, (i + 1) * G.m) for i in range(R)], 2))
    X = np.arange(points)
    good = [
        (f, c / R) for f, c in counts.items() if f is not FAIL and np.mean(f.predict(X) != target.predict(X)) <= alpha
    ]
    # one-sided 4-sigma margin on the empirical frequency
    assert max(p for _, p in good) - 4 * np.sqrt(G.eta / R) >= G.eta


@pytest.mark.slow
def test_lemma14_expected_sample_cost():
    H = Thresholds(15)
    G = GlobalStableLearner(H, 1.0, n=2)
    target = H.hypothesis(9)
    for depth in range(G.d + 1):
        src = RealizableStream(target, UniformIntegers(0, 15), 500 * G.m, seed=depth)
        runs = run_batches(G, src, [(i * G.m, (i + 1) * G.m) for i in range(500)], depth, depth=depth)
        drawn = np.mean([r.examples_read - G.n for r in runs if not r.failed])
        assert drawn <= 4 ** (depth + 1) * G.n
