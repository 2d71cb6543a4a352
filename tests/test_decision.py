"""Decisions (SPEC §4): z, ranking confidence, CI-aware ranks, trials needed."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from scorio_core import decision
from scorio_core import eval as ev


def test_z_and_confidence_matrices():
    mu = np.array([0.6, 0.5, 0.5])
    sigma = np.array([0.03, 0.04, 0.0])
    z = decision.z_matrix(mu, sigma)
    assert z[0, 1] == pytest.approx(0.1 / 0.05)
    assert z[1, 2] == 0.0 and np.allclose(z, z.T) and np.all(np.diag(z) == 0)
    rho = decision.confidence_matrix(mu, sigma)
    assert rho[0, 1] == pytest.approx(0.5 * (1 + __import__("math").erf(2.0 / np.sqrt(2))))
    P = decision.prob_better_matrix(mu, sigma)
    np.testing.assert_allclose(P + P.T, 1.0)
    assert P[0, 1] > 0.97 and P[1, 0] < 0.03


def test_z_threshold_is_one_sided():
    assert decision.z_threshold(0.95) == pytest.approx(1.644854, abs=1e-6)
    assert stats.norm.cdf(1.645) == pytest.approx(0.95, abs=1e-4)  # 000 §2.5


def test_ci_aware_ranks_adjacent_rule():
    # adjacent z-scores: 3.0 (split), 1.0 (share), 1.0 (share), 2.0 (split)
    sigma = np.full(5, 0.01 / np.sqrt(2))
    mu = np.array([0.90, 0.87, 0.86, 0.85, 0.83])
    assert decision.ci_aware_ranks(mu, sigma, 0.95).tolist() == [1, 2, 2, 2, 3]
    # a chain of unresolved neighbours shares one rank even when its ends are far apart
    assert decision.ci_aware_ranks(mu, sigma, 0.99).tolist() == [1, 2, 2, 2, 2]
    # order of the input does not matter
    perm = np.array([3, 0, 4, 2, 1])
    assert decision.ci_aware_ranks(mu[perm], sigma[perm]).tolist() == [2, 1, 3, 2, 2]


def test_overlap_rule_counts_models_entirely_above():
    lo = np.array([0.80, 0.70, 0.60, 0.20])
    hi = np.array([0.90, 0.85, 0.75, 0.50])
    # model 2 (hi .75) has model 0 entirely above (lo .80 > .75): rank 2
    assert decision.overlap_ranks(lo, hi).tolist() == [1, 1, 2, 4]


def test_point_ranks_are_competition_ranks():
    assert decision.point_ranks([0.5, 0.7, 0.5, 0.1]).tolist() == [2, 1, 2, 4]


def test_point_ranks_tie_values_one_ulp_apart():
    # the same counts summed in another question order land an ulp or two apart: a tie, not
    # a rank (seen on a 16 x 15 x 4 table: rank_mu 4, 5, 5 for three equal Bayes@N)
    x = 0.5444444444444444
    up, down = np.nextafter(x, 1.0), np.nextafter(np.nextafter(x, 0.0), 0.0)
    assert decision.point_ranks([0.9, up, x, down, 0.1]).tolist() == [1, 2, 2, 2, 5]
    # a real difference on the scale of one outcome in a billion still ranks
    assert decision.point_ranks([x + 1e-9, x]).tolist() == [1, 2]


def test_trials_needed_reproduces_current_z_and_scales():
    rng = np.random.default_rng(0)
    p = rng.uniform(0.2, 0.9, 40)
    R = np.stack([rng.random((40, 50)) < p[:, None] for _ in range(3)]).astype(int)
    R[1] = (rng.random((40, 50)) < (p - 0.05).clip(0.01)[:, None]).astype(int)
    mu, sigma = ev.bayes(R)
    need = decision.trials_needed(R, confidence=0.95)
    z = decision.z_matrix(mu, sigma)
    np.testing.assert_allclose(need.z_now, z[need.upper, need.lower], rtol=1e-12)
    # resolved pairs need no more than N trials, unresolved ones need more
    thr = decision.z_threshold(0.95)
    assert np.all((need.z_now >= thr) == (need.n_needed <= need.n_now))
    # a stricter confidence needs more trials
    assert np.all(decision.trials_needed(R, confidence=0.99).n_needed >= need.n_needed)


def test_trials_needed_prediction_matches_simulation():
    """At the predicted N the simulated probability of the right order is ~95 %."""
    rng = np.random.default_rng(1)
    M = 30
    p_hi = rng.uniform(0.3, 0.9, M)
    p_lo = p_hi - 0.01
    # estimate from plenty of data so p-hat is close to the truth
    R = np.stack([rng.random((M, 4000)) < p[:, None] for p in (p_hi, p_lo)]).astype(np.int8)
    need = decision.trials_needed(R, confidence=0.95)
    n = int(need.n_needed[0])
    assert 100 < n < 2000
    prob = decision.prob_correct_order(p_hi, p_lo, [n], n_sims=4000, rng=2)[0]
    assert prob == pytest.approx(0.95, abs=0.02)


def test_exact_tie_needs_infinite_trials():
    R = np.zeros((2, 3, 4), dtype=int)
    R[:, 0, :2] = 1
    need = decision.trials_needed(R)
    assert np.isinf(need.n_needed[0]) and need.z_now[0] == 0.0
