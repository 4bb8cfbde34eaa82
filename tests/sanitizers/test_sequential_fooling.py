"""Sequential-fooling sanitizer (BousquetLM20; LWY25 Thm 4.2, Lemma D.7): its claim is the advanced composition of
its rounds, every query within α (statistically) and a check that can fail, the GGKM21 discriminator end to end, a
privacy audit with a broken (noiseless) discriminator caught, Algorithm 3 with it as the sanitizer, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from littlestone.agnostic_online.algorithm3 import Algorithm3
from littlestone.audit import audit_mechanism
from littlestone.classes import Intervals, LabelClass, Points, Thresholds, random_class
from littlestone.errors import DomainError, EmptyDataError, LittlestoneError, PrivacyParameterError
from littlestone.privacy.composition import advanced_composition, heterogeneous_advanced_composition
from littlestone.sanitizers.sequential_fooling import (
    SequentialFoolingSanitizer,
    fooling_rounds,
    round_privacy,
    sequential_fooling_factory,
)


def _skewed(n, seed, N=8):
    rng = np.random.default_rng(seed)
    return np.minimum(rng.geometric(0.5, n) - 1, N - 1)


# ---------------------------------------------------------------------------------------------------- (a) privacy
@pytest.mark.parametrize(
    "eps,dlt,alpha,learner", [(1.0, 1e-6, 0.25, "exponential"), (0.5, 1e-3, 0.1, "ggkm21"), (3.0, 1e-5, 0.3, "ggkm21")]
)
def test_claim_is_the_advanced_composition_of_the_rounds(eps, dlt, alpha, learner):
    s = SequentialFoolingSanitizer(Thresholds(8), eps, dlt, alpha=alpha, learner=learner)
    R = s.rounds
    assert R == fooling_rounds(8, alpha) == math.floor(2 * math.log(8) / alpha**2) + 1
    e1, d1 = round_privacy(eps, dlt, R)
    assert e1 == pytest.approx(eps / (2 * math.sqrt(2 * R * math.log(2 / dlt)))) and d1 == pytest.approx(dlt / (2 * R))
    parts = s.round_parts()
    assert sum(e for e, _ in parts) == pytest.approx(e1)  # three parts at ε′/3 each
    d_round = d1 if learner == "ggkm21" else 0.0
    assert sum(d for _, d in parts) == pytest.approx(d_round)
    claim = s.privacy()
    assert claim[:2] == pytest.approx(advanced_composition(e1, d_round, R, dlt / 2))
    assert claim[:2] == pytest.approx(heterogeneous_advanced_composition([(e1, d_round)] * R, dlt / 2))
    assert claim[0] <= eps and claim[1] <= dlt and claim[2] == "replace-one"
    # hand-written Dwork–Roth Thm 3.20
    assert claim[0] == pytest.approx(e1 * math.sqrt(2 * R * math.log(2 / dlt)) + R * e1 * math.expm1(e1))


def test_a_setting_whose_composition_exceeds_the_target_is_refused():
    with pytest.raises(PrivacyParameterError, match="compose"):
        SequentialFoolingSanitizer(Thresholds(4), 30.0, 1e-3, alpha=0.5, rounds=2)


# ---------------------------------------------------------------------------------------------------- (b) accuracy
def test_every_query_within_alpha_with_probability_1_minus_beta():
    beta = 0.05
    s0 = SequentialFoolingSanitizer(Thresholds(8), 1.0, 1e-6, alpha=0.25, beta=beta, learner="exponential")
    n = s0.sample_size()
    X = _skewed(n, 0)
    fails = 0
    for seed in range(20):
        s = SequentialFoolingSanitizer(
            Thresholds(8), 1.0, 1e-6, alpha=0.25, beta=beta, learner="exponential", backend="seeded", seed=seed
        ).fit(X)
        assert s.error_bound() == 0.25
        fails += s.max_error(X) > 0.25
    assert fails <= 4  # P[Bin(20, 0.05) ≥ 5] < 0.003


def test_explicit_class_and_label_class():
    H = random_class(12, 6, seed=3)
    X = _skewed(100_000, 1, 6)
    s = SequentialFoolingSanitizer(H, 1.0, 1e-6, alpha=0.3, learner="exponential", backend="seeded", seed=4).fit(X)
    assert s.won_ and s.max_error(X) <= 0.3
    assert len(s.synthetic(10)) == 10
    rng = np.random.default_rng(1)
    Y = (X >= 3).astype(int)
    Y[rng.random(X.size) < 0.1] ^= 1
    s2 = SequentialFoolingSanitizer(
        LabelClass(Thresholds(6)), 1.0, 1e-6, alpha=0.3, learner="exponential", backend="seeded", seed=5
    ).fit(np.c_[X, Y])
    assert s2.won_ and s2.max_error(np.c_[X, Y]) <= 0.3


def test_the_accuracy_check_can_fail():
    # the generator's starting point (uniform, no round played) is off by more than α on skewed data
    X = _skewed(100_000, 0)
    s = SequentialFoolingSanitizer(
        Thresholds(8), 1.0, 1e-6, alpha=0.25, learner="exponential", backend="seeded", seed=0
    ).fit(X)
    s.synthetic_histogram_ = np.full(8, 1 / 8)
    assert s.max_error(X) > 0.25


def test_same_seed_same_output():
    X = _skewed(5_000, 2)
    a = SequentialFoolingSanitizer(Thresholds(8), 1.0, alpha=0.3, learner="exponential", backend="seeded", seed=5).fit(
        X
    )
    b = SequentialFoolingSanitizer(Thresholds(8), 1.0, alpha=0.3, learner="exponential", backend="seeded", seed=5).fit(
        X
    )
    assert np.array_equal(a.estimates(), b.estimates()) and a.transcript_ == b.transcript_


def test_ggkm21_discriminator_end_to_end():
    # the theorem's learner (LWY25 Alg. 4 over GGKM21) inside the discriminator; one round so that its share ε′/3
    # is ≈ 1.3 and the learner runs on 3·10⁶ points with small inner sizes
    X = _skewed(3_000_000, 0, 4)
    s = SequentialFoolingSanitizer(
        Thresholds(4),
        30.0,
        1e-3,
        alpha=0.5,
        rounds=1,
        learner="ggkm21",
        learner_options=dict(n=30, m=100, K=3, n_generic=200),
        backend="seeded",
        seed=1,
    )
    assert s.privacy()[:2] == pytest.approx(round_privacy(30.0, 1e-3, 1))
    s.fit(X)
    j, h, found = s.transcript_[0]
    assert 0 <= h < 2 * 5 and 1 <= j <= math.ceil(10 / 0.5)
    Q = np.array([[float(x >= t) for x in range(4)] for t in range(5)])
    F = np.concatenate([Q, 1 - Q])
    gap = F[h] @ np.bincount(X, minlength=4) / X.size - F[h].mean()  # P̂_S(h) − P_1(h), P_1 uniform
    if found:  # Lemma D.7: a returned query is off by ≥ α/2
        assert gap >= 0.25
    else:  # "WIN": every query within α
        assert s.max_error(X) <= 0.5


# ---------------------------------------------------------------------------------------------------- (c) audit
class _NoiselessDiscriminator(SequentialFoolingSanitizer):
    """Broken twin: the bucket and the query chosen without noise (argmax), i.e. non-privately."""

    def _choose_bucket(self, utility, eps, n, backend):
        return int(np.argmax(utility))

    def _learn(self, rows, ones, idx, n, eps, backend, rng):
        return int(np.argmax(ones))


def _transcripts(cls):
    def mech(data, backend):
        s = cls(Thresholds(4), 1.0, 1e-6, alpha=0.5, rounds=1, learner="exponential", backend=backend)
        return tuple((j, h) for j, h, _ in s.fit(data).transcript_)

    return mech


@pytest.mark.parametrize("cls,ok", [(SequentialFoolingSanitizer, True), (_NoiselessDiscriminator, False)])
def test_sequential_fooling_audit(cls, ok):
    D, D_prime = np.array([0, 0, 0, 1]), np.array([1, 0, 0, 1])  # the noiseless choice flips
    claim = SequentialFoolingSanitizer(Thresholds(4), 1.0, 1e-6, alpha=0.5, rounds=1, learner="exponential").privacy()
    rep = audit_mechanism(
        _transcripts(cls), D, D_prime, runs=4_000, seed=0, randomness="seeded", claimed_epsilon=claim[0]
    )
    assert rep.passed is ok


# ---------------------------------------------------------------------------------------------------- Algorithm 3
def test_plugs_into_algorithm3():
    H = Thresholds(4)
    factory = sequential_fooling_factory(
        LabelClass(H), 1e-6, seed=3, alpha=0.5, learner="exponential", backend="seeded"
    )
    alg = Algorithm3(H, horizon=40, epsilon=1.0, batch=10, sanitizer=factory, seed=1)
    assert alg.privacy().pair == pytest.approx(factory(1.0, 10, 0).privacy()[:2])
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, 40)
    alg.run(X, (X >= 2).astype(int))
    assert np.all(alg.subsequence_sizes_ == 4)


# ---------------------------------------------------------------------------------------------------- (d) bad input
def test_bad_input():
    with pytest.raises(LittlestoneError):
        SequentialFoolingSanitizer(Thresholds(4), epsilon=0.0)
    with pytest.raises(LittlestoneError):
        SequentialFoolingSanitizer(Thresholds(4), 1.0, delta=0.0)
    with pytest.raises(LittlestoneError, match="alpha"):
        SequentialFoolingSanitizer(Thresholds(4), 1.0, alpha=1.5)
    with pytest.raises(LittlestoneError, match="rounds"):
        SequentialFoolingSanitizer(Thresholds(4), 1.0, rounds=0)
    with pytest.raises(LittlestoneError, match="learner"):
        SequentialFoolingSanitizer(Thresholds(4), 1.0, learner="argmax")
    with pytest.raises(DomainError):
        SequentialFoolingSanitizer(Thresholds(4), 1.0, learner="exponential").fit([7])
    with pytest.raises(EmptyDataError):
        SequentialFoolingSanitizer(Thresholds(4), 1.0, learner="exponential").fit(np.zeros(0, dtype=int))
    with pytest.raises(LittlestoneError, match="fit"):
        SequentialFoolingSanitizer(Thresholds(4), 1.0).estimates()


# ---------------------------------------------------------------------------------------------------- vector form
@pytest.mark.parametrize(
    "H",
    [Thresholds(37), Points(23), Points(23, include_zero=False), Points(["a", "b", "c"]), Intervals(9), Intervals(1)],
)
def test_counting_closed_form_matches_the_explicit_twin(H):
    from littlestone.classes import to_finite
    from littlestone.sanitizers.queries import ClosedFormQueries, MatrixQueries, query_family

    fam = query_family(H)
    assert isinstance(fam, ClosedFormQueries)
    F = to_finite(H)
    pts = H.domain_points()
    assert fam.domain_size == len(pts) and fam.size == F.n_hypotheses
    M = np.stack([fam.row(j) for j in range(fam.size)])
    for j in range(fam.size):  # row j is hypothesis j evaluated on the domain, in the family's point order
        assert np.array_equal(
            M[j], fam.hypothesis(j).predict(H.validate_points([fam.point(i) for i in range(len(pts))]))
        )
    w = np.random.default_rng(0).random(len(pts))
    assert np.allclose(fam.answers(w), M @ w)
    idx = fam.index_points(pts[::-1])
    assert np.array_equal(fam.columns(idx), M[:, idx].T)
    assert sorted(map(tuple, M.tolist())) == sorted(map(tuple, F.matrix.astype(float).tolist()))
    assert not isinstance(query_family(F), ClosedFormQueries) and isinstance(query_family(F), MatrixQueries)


def test_vector_form_plays_the_same_game_as_the_explicit_class():
    # thresholds in closed form (O(|X|) per round) and their explicit twin (matrix products): same transcript
    from littlestone.classes import to_finite

    X = np.minimum(np.random.default_rng(0).geometric(0.05, 20_000), 63)
    kw = dict(alpha=0.2, learner="exponential", backend="seeded", seed=7)
    a = SequentialFoolingSanitizer(Thresholds(64), 1.0, 1e-6, **kw).fit(X)
    b = SequentialFoolingSanitizer(to_finite(Thresholds(64)), 1.0, 1e-6, **kw).fit(X)
    assert a.rounds_ > 1 and a.transcript_ == b.transcript_
    assert np.allclose(a.estimates(), b.estimates())
    # intervals (prefix sums) likewise
    Xi = np.minimum(np.random.default_rng(0).geometric(0.4, 20_000) - 1, 11)
    c = SequentialFoolingSanitizer(Intervals(12), 1.0, 1e-6, **kw).fit(Xi)
    d = SequentialFoolingSanitizer(to_finite(Intervals(12)), 1.0, 1e-6, **kw).fit(Xi)
    assert c.rounds_ > 1 and c.transcript_ == d.transcript_


def test_ggkm21_learner_refuses_a_domain_too_large_to_enumerate():
    with pytest.raises(LittlestoneError, match="exponential"):
        SequentialFoolingSanitizer(Thresholds(2**16), 1.0, 1e-6, learner="ggkm21")
