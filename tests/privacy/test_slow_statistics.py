"""Long statistical checks (run with -m slow): exact laws on OpenDP and empirical privacy inequalities."""

import math

import numpy as np
import pytest
from scipy import stats

from littlestone.privacy import (
    BOTTOM,
    AboveThreshold,
    SecureBackend,
    SeededBackend,
    above_threshold_accuracy,
    exponential_mechanism,
    exponential_probabilities,
    sparse_selection,
    stable_histogram,
)
from littlestone.privacy.stable_histogram import count_one_release_probability

pytestmark = pytest.mark.slow


def upper(k, n, conf=1e-4):
    return stats.beta.ppf(1 - conf, k + 1, n - k) if k < n else 1.0


def lower(k, n, conf=1e-4):
    return stats.beta.ppf(conf, k, n - k + 1) if k > 0 else 0.0


def test_exponential_mechanism_law_opendp_many_runs():
    be = SecureBackend()
    scores = np.array([0.0, 2.0, 4.0, 5.0, 1.0])
    runs = 20_000
    picks = np.bincount([exponential_mechanism(scores, 0.8, backend=be) for _ in range(runs)], minlength=5)
    assert stats.chisquare(picks, runs * exponential_probabilities(scores, 0.8)).pvalue > 1e-4


def test_stable_histogram_count_one_rate_discrete_opendp():
    be = SecureBackend()
    eps, delta = 0.5, 0.3
    tau = stable_histogram(["a"], eps, delta, backend=be).threshold
    d1 = count_one_release_probability(eps, tau, discrete=True)
    hits = sum(len(stable_histogram([f"s{i}" for i in range(1000)], eps, delta, backend=be)) for _ in range(40))
    assert stats.binomtest(hits, 40_000, d1).pvalue > 1e-4


def test_stable_histogram_privacy_inequality_on_neighbours():
    # D = {a×3, x}, D' = {a×4}: event "x released" and events on a's noisy count; check P ≤ e^ε P' + δ both ways
    be = SeededBackend(77)
    eps, delta = 1.0, 0.4
    runs = 40_000
    D, Dp = ["a"] * 3 + ["x"], ["a"] * 4

    def features(data):
        out = []
        for _ in range(runs):
            rel = stable_histogram(data, eps, delta, backend=be)
            out.append(("x" in rel, rel.get("a", -np.inf)))
        return out

    f, fp = features(D), features(Dp)
    rel = stable_histogram(D, eps, delta, backend=be)
    events = [lambda o: o[0]] + [lambda o, c=c: o[1] > c for c in (3.0, 4.0, 5.0, 7.0)]
    for ev in events:
        k, kp = sum(map(ev, f)), sum(map(ev, fp))
        # lower confidence bound of one side vs upper bound of the other
        assert lower(k, runs) <= math.exp(eps) * upper(kp, runs) + rel.delta
        assert lower(kp, runs) <= math.exp(eps) * upper(k, runs) + rel.delta


def test_sparse_selection_privacy_inequality():
    be = SeededBackend(5)
    eps, delta, s = 1.0, 0.45, 2
    runs = 20_000
    base = [["a", "b"]] * 6 + [["a"]] * 3
    D, Dp = base + [["b", "c"]], base + [["a", "d"]]
    outs = [sparse_selection(D, eps, delta, backend=be, max_list_size=s) for _ in range(runs)]
    outs_p = [sparse_selection(Dp, eps, delta, backend=be, max_list_size=s) for _ in range(runs)]
    for u in ["a", "b", "c", "d", BOTTOM]:
        k, kp = outs.count(u), outs_p.count(u)
        assert lower(k, runs) <= math.exp(eps) * upper(kp, runs) + delta
        assert lower(kp, runs) <= math.exp(eps) * upper(k, runs) + delta


def test_above_threshold_accuracy_many_queries_opendp():
    be = SecureBackend()
    eps, beta, k, threshold = 0.5, 0.05, 400, 100.0
    alpha = above_threshold_accuracy(k, eps, beta)
    values = np.linspace(0, 200 + alpha, k)
    bad = 0
    runs = 300
    for _ in range(runs):
        at = AboveThreshold(threshold, eps, backend=be)
        for v in values:
            above = at.test(v)
            if (above and v < threshold - alpha) or (not above and v > threshold + alpha):
                bad += 1
            if above:
                break
    assert bad / runs <= beta


@pytest.mark.parametrize("discrete", [False, True])
def test_bounded_histogram_privacy_inequality_at_the_truncation_boundary(discrete):
    # D = {a×10, b×10}, D' = {a×11, b×9} (one b replaced by a): events at the edges of the noise support, where the
    # truncation δ lives, must satisfy P ≤ e^ε P' + δ both ways
    from littlestone.privacy import bounded_histogram, truncation_bound

    be = SeededBackend(31)
    eps, delta = 1.0, 0.3
    big_a, spent = truncation_bound(eps, delta, discrete=discrete)
    D, Dp = ["a"] * 10 + ["b"] * 10, ["a"] * 11 + ["b"] * 9
    runs = 20_000

    def feats(data):
        rows = []
        for _ in range(runs):
            rel = bounded_histogram(data, eps, delta, backend=be, discrete=discrete)
            rows.append((rel.estimate("a"), rel.estimate("b")))
        return np.array(rows)

    f, fp = feats(D), feats(Dp)
    events = [
        lambda r: r[:, 0] > 10 + big_a,  # impossible from D, probability δ' from D'
        lambda r: r[:, 1] < 10 - big_a,  # impossible from D, probability δ' from D'
        lambda r: (r[:, 0] > 10 + big_a) | (r[:, 1] < 10 - big_a),
        lambda r: r[:, 0] > 11,
    ]
    for ev in events:
        k, kp = int(ev(f).sum()), int(ev(fp).sum())
        assert lower(k, runs) <= math.exp(eps) * upper(kp, runs) + spent
        assert lower(kp, runs) <= math.exp(eps) * upper(k, runs) + spent
    assert int(events[2](fp).sum()) > 0 and int(events[2](f).sum()) == 0  # the δ is really used, and only there
