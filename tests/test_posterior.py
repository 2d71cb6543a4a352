"""Joint posterior in two scopes, rank intervals and multiplicity control (issue 10)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from scorio_core import decision
from scorio_core import eval as ev
from scorio_core.leaderboard import leaderboard, prior_note
from scorio_core.posterior import (
    CHUNK,
    diff_variance,
    joint_posterior,
    question_moments,
    sample_scores,
    scope_sigma,
)


def _moments(R, w=None, R0=None):
    n, n0, wv = ev.prepare_counts(R, w, R0)
    return question_moments(n, wv, n0)


def aime_like(seed=0):
    """16 models x 15 questions x 4 trials, accuracies evenly spread 0.80 .. 0.03.

    Questions differ in difficulty; model l answers question α correctly in a
    number of its 4 trials that keeps its overall accuracy on the schedule.
    """
    rng = np.random.default_rng(seed)
    acc = np.linspace(0.80, 0.03, 16)
    difficulty = np.linspace(-1.5, 1.5, 15)
    R = np.zeros((16, 15, 4), dtype=np.int8)
    for i, a in enumerate(acc):
        total = int(round(a * 60))
        # easier questions first: spread the model's successes over questions by difficulty
        score = -difficulty + rng.normal(0, 0.3, 15)
        per_q = np.zeros(15, dtype=int)
        for _ in range(total):
            open_ = np.nonzero(per_q < 4)[0]
            per_q[open_[np.argmax(score[open_] - per_q[open_])]] += 1
        for q, c in enumerate(per_q):
            R[i, q, :c] = 1
    return R, acc


def test_aime_like_table_chain_collapses_but_rank_intervals_do_not():
    R, acc = aime_like()
    np.testing.assert_allclose(R.mean((1, 2)), np.round(acc * 60) / 60)
    for scope in ("questions", "population"):
        board = leaderboard(R, scope=scope, confidence=0.95)
        t = board.table
        assert t["model"].iloc[0] == "model_0" and t["model"].iloc[-1] == "model_15"
        if scope == "questions":
            # the paper's adjacent rule chains every neighbour gap into one rank
            assert (t["rank_chain"] == 1).all()
            assert len(board.chained_conflicts()) > 0
        # ... while the pairwise posterior separates the best from the worst
        assert t["rank"].iloc[0] == 1 and t["rank"].iloc[-1] > 1
        assert t["rank_hi"].iloc[0] < t["rank_lo"].iloc[-1]
        assert t["p_best"].iloc[0] == t["p_best"].max()
    # small N: the prior's weight is large and the page explains mu vs avg
    assert "pulled" in prior_note(board)
    assert t["mu"].iloc[0] < t["avg"].iloc[0]


@pytest.mark.parametrize("seed", range(12))
def test_ranks_never_contradict_pairwise_decisions(seed):
    rng = np.random.default_rng(seed)
    L, M, N = rng.integers(3, 12), rng.integers(4, 30), rng.integers(1, 9)
    p = rng.uniform(0, 1, (L, 1, 1)) * rng.uniform(0.3, 1, (1, M, 1))
    R = (rng.random((L, M, N)) < p).astype(int)
    scope = ("questions", "population")[seed % 2]
    adjust = ("none", "holm", "bh")[seed % 3]
    conf = (0.8, 0.9, 0.95, 0.99)[seed % 4]
    board = leaderboard(R, scope=scope, adjust=adjust, confidence=conf, draws=4000, seed=seed)
    D, P = board.decided, board.prob_better
    idx = {m: i for i, m in enumerate(board.models)}
    t = board.table.assign(i=lambda d: d["model"].map(idx)).set_index("i").sort_index()
    lo, hi = t["rank_lo"].to_numpy(), t["rank_hi"].to_numpy()
    assert (lo <= hi).all() and lo.min() >= 1 and hi.max() <= L
    assert not (D & D.T).any()
    for j, i in zip(*np.nonzero(D), strict=True):  # j beats i at the chosen confidence
        assert P[j, i] > 0.5
        assert lo[j] < lo[i] and hi[j] < hi[i]  # never ranked above a model that beats it
    if adjust == "none":
        assert (D >= (P >= conf)).all()  # every pair at the threshold is decided


def test_adjustments_are_nested():
    rng = np.random.default_rng(5)
    R = (rng.random((12, 40, 6)) < np.linspace(0.2, 0.8, 12)[:, None, None]).astype(int)
    P = joint_posterior(R).prob_better
    none, holm, bh = (decision.decide(P, 0.95, a) for a in ("none", "holm", "bh"))
    assert holm.sum() <= bh.sum() <= none.sum()
    assert (holm <= bh).all() and (bh <= none).all() and holm.sum() > 0


def test_questions_scope_is_bayes_at_n_with_weights_and_prior():
    rng = np.random.default_rng(2)
    R = rng.integers(0, 3, (4, 9, 5))
    R0 = rng.integers(0, 3, (9, 2))
    w = [0.0, 0.25, 1.0]
    q = _moments(R, w, R0)
    mu, sigma = ev.bayes(R, w, R0)
    np.testing.assert_allclose(q.mu, mu, atol=1e-12)
    np.testing.assert_allclose(scope_sigma(q, "questions"), sigma, atol=1e-12)
    V = diff_variance(q, "questions")
    np.testing.assert_allclose(V[0, 1], sigma[0] ** 2 + sigma[1] ** 2, rtol=1e-12)


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_paired_difference_variance_matches_sampler(scope):
    rng = np.random.default_rng(11)
    p = rng.beta(2, 2, (1, 25, 1)) + np.array([0.0, 0.05, -0.1, 0.02])[:, None, None]
    R = (rng.random((4, 25, 6)) < np.clip(p, 0, 1)).astype(int)
    R0 = rng.integers(0, 2, (25, 1))
    q = _moments(R, None, R0)
    S = sample_scores(q, scope, 100_000, seed=3)
    V = diff_variance(q, scope)
    for i, j in [(0, 1), (0, 2), (1, 3), (2, 3)]:
        assert np.var(S[:, i] - S[:, j]) == pytest.approx(V[i, j], rel=0.01)
    np.testing.assert_allclose(S.mean(0), q.mu, atol=4 * scope_sigma(q, scope).max() / 300)
    if scope == "population":  # pairing: the shared question weights make differences tighter
        sig = scope_sigma(q, scope)
        assert V[0, 1] < sig[0] ** 2 + sig[1] ** 2


def test_population_intervals_never_narrower_than_questions():
    rng = np.random.default_rng(8)
    for _ in range(20):
        L, M, N = rng.integers(2, 8), rng.integers(1, 40), rng.integers(1, 10)
        R = rng.integers(0, 2, (L, M, N))
        if rng.random() < 0.3:
            R[:] = R[:, :1]  # identical questions: no question spread at all
        bq = leaderboard(R, scope="questions", draws=200).table.set_index("model")
        bp = leaderboard(R, scope="population", draws=200).table.set_index("model")
        assert (bp["sigma"] >= bq["sigma"] - 1e-15).all()
        assert (bp["lo"] <= bq["lo"] + 1e-15).all() and (bp["hi"] >= bq["hi"] - 1e-15).all()


def test_draws_do_not_depend_on_how_many_are_requested():
    R = np.random.default_rng(0).integers(0, 2, (5, 20, 3))
    q = _moments(R)
    big = sample_scores(q, "population", 3 * CHUNK + 17, seed=4)
    small = sample_scores(q, "population", CHUNK + 5, seed=4)
    np.testing.assert_array_equal(big[: CHUNK + 5], small)
    assert not np.array_equal(big[:10], sample_scores(q, "population", 10, seed=5))


def test_questions_prob_better_is_the_normal_closed_form():
    R = np.random.default_rng(1).integers(0, 2, (4, 12, 5))
    post = joint_posterior(R, draws=50_000, seed=2)
    mu, sigma = ev.bayes(R)
    expected = special.ndtr((mu[:, None] - mu[None, :]) / np.hypot(sigma[:, None], sigma[None, :]))
    np.fill_diagonal(expected, 0.5)
    np.testing.assert_allclose(post.prob_better, expected, atol=1e-12)
    # and the joint draws agree with it
    S = post.draws
    np.testing.assert_allclose((S[:, [0]] > S).mean(0)[1:], expected[0, 1:], atol=0.01)
    np.testing.assert_allclose(post.rank_dist.sum(0), 1.0)
    np.testing.assert_allclose(post.rank_dist.sum(1), 1.0)


def _coverage(lo, hi, truth):
    return float(np.mean((lo <= truth) & (truth <= hi)))


def test_calibration_questions_scope_covers_mean_over_drawn_questions():
    # Truth drawn from the uniform prior Bayes@N assumes: per-question p ~ U(0, 1).
    rng = np.random.default_rng(2024)
    reps, M, N = 4000, 40, 5
    p = rng.random((reps, M))
    c = rng.binomial(N, p)
    q = question_moments(np.stack([N - c, c], -1), np.array([0.0, 1.0]))
    sig = scope_sigma(q, "questions")
    z = ev.z_value(0.95)
    cov = _coverage(q.mu - z * sig, q.mu + z * sig, p.mean(1))
    assert 0.93 <= cov <= 0.97, cov


def test_calibration_population_scope_covers_population_mean():
    # Questions drawn from a known population (p ~ U(0, 1), mean 0.5); many trials.
    rng = np.random.default_rng(7)
    reps, M, N = 4000, 50, 40
    p = rng.random((reps, M))
    c = rng.binomial(N, p)
    q = question_moments(np.stack([N - c, c], -1), np.array([0.0, 1.0]))
    sig = scope_sigma(q, "population")
    z = ev.z_value(0.95)
    cov = _coverage(q.mu - z * sig, q.mu + z * sig, 0.5)
    assert 0.93 <= cov <= 0.97, cov
    # the questions-scope interval is far too narrow for the population mean
    sq = scope_sigma(q, "questions")
    narrow = _coverage(q.mu - z * sq, q.mu + z * sq, 0.5)
    assert narrow < 0.5


def test_questions_p_best_integral_matches_the_joint_draws():
    rng = np.random.default_rng(9)
    for L, M, N in [(3, 8, 2), (6, 20, 4), (12, 15, 4)]:
        R = (rng.random((L, M, N)) < rng.uniform(0.3, 0.7, (L, 1, 1))).astype(int)
        post = joint_posterior(R, draws=200_000, seed=1)
        S = post.draws
        sampled = np.bincount(S.argmax(1), minlength=L) / len(S)
        np.testing.assert_allclose(post.p_best, sampled, atol=0.005)
        np.testing.assert_allclose(post.rank_dist[:, 0], sampled)
    # a model with no uncertainty is a point mass: it is first exactly when all others are below
    q = _moments(np.ones((2, 5, 3), dtype=int))
    q = type(q)(np.array([[0.5] * 5, [0.6] * 5]), np.array([[0.0] * 5, [0.01] * 5]), q.T, 0.0)
    from scorio_core.posterior import posterior_from_moments

    p = posterior_from_moments(q).p_best
    sd = np.sqrt(0.05) / 5
    assert p[0] == pytest.approx(special.ndtr((0.5 - 0.6) / sd), abs=1e-3)


def test_rank_distribution_table_and_export():
    import json

    from scorio_core import export

    R = np.random.default_rng(4).integers(0, 2, (5, 12, 4))
    board = leaderboard(R, scope="population", draws=3000)
    rd = board.rank_distribution()
    assert list(rd.index) == board.table["model"].tolist() and list(rd.columns) == [1, 2, 3, 4, 5]
    np.testing.assert_allclose(rd.sum(axis=1), 1.0)
    np.testing.assert_allclose(rd.sum(axis=0), 1.0)
    np.testing.assert_allclose(rd[1].to_numpy(), board.table["p_best"].to_numpy())
    payload = json.loads(export.to_json(board))
    assert payload["settings"]["scope"] == "population"
    assert payload["rank_distribution"][rd.index[0]] == pytest.approx(rd.iloc[0].tolist(), abs=1e-6)


def test_holm_and_bh_by_hand():
    # one-sided errors: (0,1) .01, (1,2) .03, (0,2) .04; alpha = .05 over m = 3 pairs
    P = np.array([[0.5, 0.99, 0.96], [0.01, 0.5, 0.97], [0.04, 0.03, 0.5]])
    none = decision.decide(P, 0.95, "none")
    holm = decision.decide(P, 0.95, "holm")  # .01 <= .05/3; .03 > .05/2 stops
    bh = decision.decide(P, 0.95, "bh")  # .04 <= .05 * 3/3: all three
    assert none.sum() == 3 and bh.sum() == 3 and (none == bh).all()
    assert holm.astype(int).tolist() == [[0, 1, 0], [0, 0, 0], [0, 0, 0]]
    lo, hi = decision.interval_ranks(holm)
    assert lo.tolist() == [1, 2, 1] and hi.tolist() == [2, 3, 3]
    # a non-transitive set of sampled probabilities is closed: 0 > 1 > 2 implies 0 > 2
    P2 = np.array([[0.5, 0.97, 0.9], [0.03, 0.5, 0.97], [0.1, 0.03, 0.5]])
    assert decision.decide(P2, 0.95)[0, 2]
