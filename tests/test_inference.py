"""The calibrated headline: estimands, intervals, decisions and rank intervals (issue 20).

Coverage over the full grid is ``benchmarks/calibration.py``; its fast subset is
``tests/test_calibration.py``. Here: closed forms, invariants and small known truths.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import special, stats

from scorio_core import decision, export
from scorio_core import eval as ev
from scorio_core.inference import (
    ADJUSTMENTS,
    NOT_IDENTIFIED,
    decide_pvalues,
    infer,
    model_intervals,
    pair_dof,
    population_variance,
    scope_covariance,
    score_stats,
    trial_part,
    wilson_t,
    within_dof,
    within_variance,
)
from scorio_core.leaderboard import leaderboard, prior_note


def _stats(R, w=None, bounds=None):
    n, _, wv = ev.prepare_counts(R, w)
    return score_stats(n, wv, bounds)


def aime_like(seed=0):
    """16 models x 15 questions x 4 trials, accuracies evenly spread 0.80 .. 0.03."""
    rng = np.random.default_rng(seed)
    acc = np.linspace(0.80, 0.03, 16)
    difficulty = np.linspace(-1.5, 1.5, 15)
    R = np.zeros((16, 15, 4), dtype=np.int8)
    for i, a in enumerate(acc):
        total = int(round(a * 60))
        score = -difficulty + rng.normal(0, 0.3, 15)
        per_q = np.zeros(15, dtype=int)
        for _ in range(total):
            open_ = np.nonzero(per_q < 4)[0]
            per_q[open_[np.argmax(score[open_] - per_q[open_])]] += 1
        for q, c in enumerate(per_q):
            R[i, q, :c] = 1
    return R, acc


def test_log_rising_sums_every_question_whether_grouped_or_not():
    # the marginal likelihood's sum over questions, taken over distinct counts with their
    # multiplicities, equals the question-by-question sum (its definition)
    from scipy import special

    from scorio_core.inference import _log_rising

    rng = np.random.default_rng(3)
    a = np.exp(rng.normal(0, 2, (4, 7)))
    for c in (rng.integers(0, 5, (4, 300)).astype(float),  # many repeats: grouped
              rng.integers(0, 50, (4, 6)).astype(float),  # fewer questions than values
              rng.random((4, 40)) * 3):  # fractional counts: no repeats
        direct = (special.gammaln(a[:, None, :] + c[:, :, None])
                  - special.gammaln(a[:, None, :])).sum(1)
        np.testing.assert_allclose(_log_rising(a, c), direct, rtol=1e-12, atol=1e-9)


def test_within_variance_is_the_beta_binomial_posterior_expectation():
    rng = np.random.default_rng(0)
    k = rng.binomial(6, rng.beta(0.6, 0.6, (3, 40)))
    n = np.stack([6 - k, k], -1)
    within, kappa = within_variance(n, np.array([0.0, 1.0]))
    for i in range(3):
        pi = k[i].sum() / (40 * 6)
        grid = np.exp(np.linspace(np.log(1e-2), np.log(1e4), 49))
        ll = [stats.betabinom.logpmf(k[i], 6, g * pi, g * (1 - pi)).sum() for g in grid]
        assert kappa[i] == pytest.approx(grid[int(np.argmax(ll))])
        a, b = kappa[i] * pi + k[i], kappa[i] * (1 - pi) + 6 - k[i]
        eb = a * b / ((a + b) * (a + b + 1))
        # each question's share follows the posterior expectation; the total is the
        # unbiased one, the sum of the within-question sample variances
        s2 = k[i] * (6 - k[i]) / (6 * 5)
        np.testing.assert_allclose(within[i], eb * s2.sum() / eb.sum(), rtol=1e-12)
    # a question whose trials all agree still has trial variance (not zero)
    assert (within[k == 0] > 0).all() and (within[k == 6] > 0).all()


def test_within_total_is_unbiased_for_weighted_categories():
    # U-shaped category mixes that one Dirichlet fits badly: the EB total alone was 13-15 %
    # too large (97-98 % coverage); the scaled total averages to the true Σ σ²
    rng = np.random.default_rng(5)
    s = rng.beta(0.6, 0.6, 60)
    h = np.minimum(s, 1 - s)
    q = np.stack([1 - s - h / 2, h, s - h / 2], -1)
    u = np.array([0.0, 0.5, 1.0])
    true = ((q * u**2).sum(-1) - (q @ u) ** 2).sum()
    n = np.stack([rng.multinomial(2, qq, size=4000) for qq in q], 1)  # (4000, 60, 3)
    within, _ = within_variance(n, u)
    assert within.sum(-1).mean() == pytest.approx(true, rel=0.02)


def test_within_dof_matches_the_noise_of_the_variance_total():
    # a hard benchmark at N = 2: the variance sits on a few questions, so Σ s² is far
    # noisier than a χ² on M (N - 1) = 30 d.o.f.; the effective d.o.f. say how much
    rng = np.random.default_rng(6)
    p = rng.beta(0.3, 2.7, 30)
    c = rng.binomial(2, p, (20000, 30))
    n = np.stack([2 - c, c], -1)
    s2 = (c * (2 - c) / 2).sum(-1)  # Σ_α s²_α per replicate
    truth = 2 * s2.mean() ** 2 / s2.var()  # moment-matched χ² d.o.f. of the total
    assert truth < 15  # far below the nominal 30
    u = np.array([0.0, 1.0])
    _, kappa = within_variance(n[:2000], u)
    dof = within_dof(n[:2000], u, kappa)
    assert (dof <= 30).all()
    assert np.median(dof) == pytest.approx(truth, rel=0.35)
    # normal-like trials (many questions near 1/2) keep the nominal count
    c = rng.binomial(4, 0.5, (50, 40))
    n = np.stack([4 - c, c], -1)
    _, kappa = within_variance(n, u)
    np.testing.assert_allclose(within_dof(n, u, kappa), 120.0)


def test_pair_dof_is_welch_satterthwaite():
    v, d = np.array([2.0, 1.0]), np.array([4.0, 9.0])
    out = pair_dof(v, d)
    assert out[0, 1] == pytest.approx(9.0 / (4.0 / 4 + 1.0 / 9))
    np.testing.assert_array_equal(np.diag(out), d)


def test_scope_variances_count_each_noise_once():
    rng = np.random.default_rng(1)
    R = rng.integers(0, 3, (4, 25, 5))
    st = _stats(R, [0.0, 0.5, 1.0])
    cq, dfq, ok = scope_covariance(st, "questions")
    assert ok and dfq.shape == (4, 4) and (dfq > 0).all()
    assert (np.diag(dfq) <= 25 * 4).all() and (dfq <= 2 * 25 * 4).all()  # pairs: both models
    np.testing.assert_array_equal(np.diag(dfq), st.model_dof)
    np.testing.assert_allclose(np.diag(cq), st.within.sum(-1) / (5 * 25**2))
    assert (cq[~np.eye(4, dtype=bool)] == 0).all()  # models independent given the questions
    cp, dfp, _ = scope_covariance(st, "population")
    assert (dfp == 24).all()
    np.testing.assert_allclose(cp, np.cov(st.ybar) / 25)  # clustered: the trial noise is inside
    score, se, lo, hi = model_intervals(st, "population")
    np.testing.assert_allclose(score, (np.array([0, 0.5, 1.0])[R]).mean((1, 2)))
    # a model's own interval: the larger of the clustered variance and its fitted population's
    np.testing.assert_allclose(se, np.sqrt(population_variance(st) / 25))
    assert (se >= np.sqrt(np.diag(cp)) - 1e-15).all()


def test_population_variance_sees_the_missing_rare_questions():
    # hard benchmark (Beta(0.2, 1.8), mean 0.1): the sample variance of the per-question
    # means is smallest when the few high-scoring questions are missing; the fitted
    # Dirichlet population reads the spread from the counts' shape (many never-solved)
    rng = np.random.default_rng(3)
    reps, M, N = 3000, 30, 32
    c = rng.binomial(N, rng.beta(0.2, 1.8, (reps, M)))
    st = score_stats(np.stack([N - c, c], -1), np.array([0.0, 1.0]))
    truth = 0.09 / 3 + (0.09 - 0.03) / N  # Var(p) + E[p(1 - p)] / N
    s2, pv = st.ybar.var(-1, ddof=1), population_variance(st)
    assert (pv >= s2).all()
    assert 0.98 < (pv / truth).mean() < 1.12
    assert (s2 < truth / 2).mean() - (pv < truth / 2).mean() > 0.015
    # iid Bernoulli trials at N = 1: no fit, the sample variance itself
    b = (c > 0).astype(int)
    st1 = score_stats(np.stack([1 - b, b], -1), np.array([0.0, 1.0]))
    np.testing.assert_array_equal(population_variance(st1), st1.ybar.var(-1, ddof=1))
    # categorical: one trial's variance at the pooled shares, weights (0, 0.5, 1)
    R = rng.integers(0, 3, (2, 40, 6))
    stc = _stats(R, [0.0, 0.5, 1.0])
    u = np.array([0.0, 0.5, 1.0])[R]
    np.testing.assert_allclose(stc.trial_var, u.reshape(2, -1).var(-1))


def test_population_interval_is_never_narrower_than_the_questions_interval():
    # a question's mean varies across the population by the trial part plus a
    # between-question part that is never negative: a model's population s.e. reads at
    # least the trial part (the questions scope's s.e.); three models that share every
    # question's chance, graded outcomes at M = 30, N = 4 (the sample spread alone fell
    # below the trial part in a few of these fields)
    rng = np.random.default_rng(5)
    narrower = raw_narrower = 0
    for _ in range(100):
        p = rng.beta(2, 2, 30)
        R = (rng.random((3, 30, 4)) < p[None, :, None]).astype(int)
        R = np.where(R == 1, 2, rng.integers(0, 2, R.shape))
        st = _stats(R, [0.0, 0.5, 1.0])
        q, pop = infer(st, "questions", draws=500), infer(st, "population", draws=500)
        narrower += int((pop.se < q.se * (1 - 1e-9)).sum())
        raw_narrower += int((np.sqrt(st.ybar.var(-1, ddof=1) / 30) < q.se * (1 - 1e-9)).sum())
    assert narrower == 0
    assert raw_narrower > 3  # what the floor prevents happens on these fields
    np.testing.assert_allclose(trial_part(st), st.within.sum(-1) / (st.N * st.M))
    assert np.isnan(trial_part(_stats(R[:, :, :1], [0.0, 0.5, 1.0]))).all()  # N = 1: unseen


def test_population_headline_covers_on_a_hard_benchmark():
    from scorio_core.calibration import coverage

    cell = coverage("hard", 30, 32, scope="population", reps=4000)
    assert cell.headline >= 0.935  # sample variance alone: 93.1 % (misses above 4.5 %)


def test_wilson_t_reference_values_and_bounds():
    # Wilson's interval for 50 / 100 at 95 % (z = 1.95996): [0.40383, 0.59617]
    lo, hi = wilson_t(0.5, 0.25 / 100, 1e9, 1)
    assert (float(lo), float(hi)) == pytest.approx((0.403832, 0.596168), abs=1e-6)
    # at the bounds: 0 of n gives [0, t²/(n + t²)] (no ±z·σ collapse to a point)
    t = stats.t.ppf(0.975, 14)
    lo, hi = wilson_t(np.array([0.0, 1.0]), np.array([0.0, 0.0]), 14, 15)
    np.testing.assert_allclose(lo, [0, 1 - t * t / (15 + t * t)])
    np.testing.assert_allclose(hi, [t * t / (15 + t * t), 1])
    lo, hi = wilson_t(np.linspace(0, 1, 21), np.full(21, 0.02), 9, 10)
    assert (lo >= 0).all() and (hi <= 1).all() and (lo <= hi).all()


def test_wilson_t_takes_the_poisson_end_at_one_event():
    # one event in 100: the plain Wilson lower end (0.18 events) excludes a true rate of
    # 0.14 events, which is seen once 13 % of the time; the Poisson end is Γ⁻¹(1; 0.025)
    n = 100
    lo, hi = wilson_t(1 / n, (1 / n) * (1 - 1 / n) / n, 1e9, n)
    assert float(lo) * n == pytest.approx(special.gammaincinv(1.0, 0.025), rel=1e-9)
    lo_up, hi_up = wilson_t(1 - 1 / n, (1 / n) * (1 - 1 / n) / n, 1e9, n)  # mirror image
    assert float(hi_up) == pytest.approx(1 - float(lo), abs=1e-12)
    # two events and more: the plain Wilson interval (z = 1.96)
    x = 2 / n
    lo2, hi2 = wilson_t(x, x * (1 - x) / n, 1e9, n)
    z2 = stats.norm.ppf(0.975) ** 2
    c, h = (x + z2 / (2 * n)) / (1 + z2 / n), np.sqrt(z2) / (1 + z2 / n) * np.sqrt(
        x * (1 - x) / n + z2 / (4 * n * n))
    assert (float(lo2), float(hi2)) == pytest.approx((c - h, c + h), rel=1e-6)


def test_aime_like_table_reads_correctly():
    R, acc = aime_like()
    board = leaderboard(R, scope="questions")
    t = board.table.set_index("model")
    last = t.loc["model_15"]  # 2 of 60 attempts
    assert last["score"] == pytest.approx(2 / 60)
    assert last["lo"] <= 2 / 60 <= last["hi"] and last["lo"] >= 0
    # the papers' Bayes@N is pulled to 0.5: its interval misses this model's own rate
    assert last["bayes_lo"] > 2 / 60
    assert "pulled" in prior_note(board)
    for scope in ("questions", "population"):
        t = leaderboard(R, scope=scope).table
        assert t["model"].iloc[0] == "model_0" and t["model"].iloc[-1] == "model_15"
        assert t["rank_hi"].iloc[0] < t["rank_lo"].iloc[-1]
        assert t["p_best"].iloc[0] == t["p_best"].max()
    # the papers' chain rule still collapses the neighbours into one rank
    assert (leaderboard(R).table["rank_chain"] == 1).all()


def test_questions_scope_is_not_identified_at_one_trial():
    R = np.random.default_rng(2).integers(0, 2, (4, 30, 1))
    board = leaderboard(R)
    assert not board.identified and board.notes == (NOT_IDENTIFIED["questions"],)
    t = board.table
    assert t[["se", "lo", "hi", "p_best"]].isna().all().all()
    assert (t["rank_lo"] == 1).all() and (t["rank_hi"] == 4).all()  # nothing decided
    assert "population scope" in export.to_markdown(board)
    pop = leaderboard(R, scope="population")
    assert pop.identified and pop.table["lo"].notna().all()


@pytest.mark.parametrize("seed", range(8))
def test_ranks_never_contradict_pairwise_decisions(seed):
    rng = np.random.default_rng(seed)
    L, M, N = rng.integers(3, 12), rng.integers(4, 30), rng.integers(2, 9)
    p = rng.uniform(0, 1, (L, 1, 1)) * rng.uniform(0.3, 1, (1, M, 1))
    R = (rng.random((L, M, N)) < p).astype(int)
    scope = ("questions", "population")[seed % 2]
    adjust = ADJUSTMENTS[seed % 4]
    conf = (0.8, 0.9, 0.95, 0.99)[seed % 4]
    board = leaderboard(R, scope=scope, adjust=adjust, confidence=conf, draws=3000, seed=seed)
    D, P, pv = board.decided, board.prob_better, board.inference.pvalue
    iu = np.triu_indices(L, 1)
    np.testing.assert_allclose(pv[iu], np.minimum(2 * np.minimum(P, 1 - P), 1)[iu], atol=1e-12)
    idx = {m: i for i, m in enumerate(board.models)}
    t = board.table.assign(i=lambda d: d["model"].map(idx)).set_index("i").sort_index()
    lo, hi = t["rank_lo"].to_numpy(), t["rank_hi"].to_numpy()
    assert (lo <= hi).all() and lo.min() >= 1 and hi.max() <= L
    assert not (D & D.T).any()
    for j, i in zip(*np.nonzero(D), strict=True):
        assert P[j, i] > 0.5 and lo[j] < lo[i] and hi[j] < hi[i]
    if adjust == "none":  # every pair at the two-sided level is decided, and no other
        np.testing.assert_array_equal((D | D.T)[iu], (pv <= 1 - conf)[iu] | (D | D.T)[iu])


def test_exact_tie_is_never_decided_and_identical_models_share_p_best():
    R = np.random.default_rng(3).integers(0, 2, (1, 20, 4))
    board = leaderboard(np.concatenate([R, R]), scope="population", adjust="none")
    assert board.prob_better[0, 1] == 0.5 and not board.decided.any()
    assert board.table["p_best"].sum() == pytest.approx(1.0)


def test_decisions_by_hand_and_nesting():
    # two-sided p-values (0,1) .02, (1,2) .06, (0,2) .0008; alpha = .05 over 3 pairs
    P = np.array([[0.5, 0.99, 0.9996], [0.01, 0.5, 0.97], [0.0004, 0.03, 0.5]])
    p = np.minimum(2 * np.minimum(P, 1 - P), 1)
    none = decide_pvalues(p, P, 0.95, "none")
    holm = decide_pvalues(p, P, 0.95, "holm")  # .0008 <= .05/3, .02 <= .05/2, .06 > .05
    bh = decide_pvalues(p, P, 0.95, "bh")
    assert none.astype(int).tolist() == [[0, 1, 1], [0, 0, 0], [0, 0, 0]]
    assert (holm == none).all() and (bh == none).all()
    lo, hi = decision.interval_ranks(holm)
    assert lo.tolist() == [1, 2, 2] and hi.tolist() == [1, 3, 3]
    assert (decision.decide(P, 0.95, "none") == none).all()
    with pytest.raises(ValueError, match="simultaneous"):
        decide_pvalues(p, P, 0.95, "simultaneous")
    # on one field, the family-wise rules decide no more than the per-pair rule
    rng = np.random.default_rng(5)
    R = (rng.random((12, 40, 6)) < np.linspace(0.2, 0.8, 12)[:, None, None]).astype(int)
    st = _stats(R)
    got = {a: infer(st, "questions", adjust=a, draws=4000).decided.sum() for a in ADJUSTMENTS}
    assert got["holm"] <= got["bh"] <= got["none"] and got["simultaneous"] <= got["none"]
    assert got["simultaneous"] >= got["holm"] > 0  # max-|t| uses the joint law: never weaker


def test_two_sided_decisions_hold_their_level_under_ties():
    """10 % was the old rate (one-sided at "95 %"): two models with identical question
    probabilities are decided at most ~5 % of the time, per pair."""
    rng = np.random.default_rng(11)
    hits = 0
    for r in range(400):
        p = rng.beta(0.6, 0.6, 40)
        k = rng.binomial(4, np.stack([p, rng.permutation(p)]))
        inf = infer(score_stats(np.stack([4 - k, k], -1), np.array([0.0, 1.0])), "questions",
                    adjust="none", draws=200, seed=r)
        hits += inf.decided.any()
    assert hits / 400 < 0.085  # binomial 5 % + 3.7 s.e.


def test_rank_distribution_table_and_export():
    R = np.random.default_rng(4).integers(0, 2, (5, 12, 4))
    board = leaderboard(R, scope="population", draws=3000)
    rd = board.rank_distribution()
    assert list(rd.index) == board.table["model"].tolist() and list(rd.columns) == [1, 2, 3, 4, 5]
    np.testing.assert_allclose(rd.sum(axis=1), 1.0)
    np.testing.assert_allclose(rd.sum(axis=0), 1.0)
    np.testing.assert_allclose(rd[1].to_numpy(), board.table["p_best"].to_numpy())
    payload = json.loads(export.to_json(board))
    assert payload["settings"]["scope"] == "population"
    assert payload["settings"]["estimand"].startswith("mean score over the population")
    assert payload["rank_distribution"][rd.index[0]] == pytest.approx(rd.iloc[0].tolist(), abs=1e-6)
    again = leaderboard(R, scope="population", draws=3000)
    np.testing.assert_array_equal(again.table["p_best"], board.table["p_best"])


def test_categorical_scores_use_the_weight_range():
    R = np.random.default_rng(6).integers(0, 4, (3, 30, 6))
    w = [0.0, 0.0, 0.25, 1.0]
    board = leaderboard(R, w=w, scope="population")
    t = board.table
    np.testing.assert_allclose(np.sort(t["score"].to_numpy()),
                               np.sort(np.asarray(w)[R].mean((1, 2))))
    assert ((t["lo"] >= 0) & (t["hi"] <= 1) & (t["lo"] <= t["score"])
            & (t["score"] <= t["hi"])).all()


def test_p_best_is_calibrated_on_close_fields():
    """Known truth: fields of 5 models with logit abilities N(0, 0.15²) and shared question
    difficulty (M = 50, N = 4). Among models given p_best in [0.5, 1), the share truly best
    (in the scope's estimand) matches the mean prediction within a wide band; a flat prior on
    every model (the leader's lead at face value) was over-confident by 0.11-0.14 here."""
    from scipy import special

    rng = np.random.default_rng(3)
    for scope in ("questions", "population"):
        pred, hit = [], []
        for r in range(400):
            th = rng.normal(0, 0.15, 5)
            p = special.expit(th[:, None] - rng.normal(0, 1.5, 50)[None, :])
            k = rng.binomial(4, p)
            inf = infer(score_stats(np.stack([4 - k, k], -1), np.array([0.0, 1.0])), scope,
                        draws=1000, seed=r)
            truth = p.mean(1) if scope == "questions" else th
            pred += list(inf.p_best)
            hit += list(np.arange(5) == np.argmax(truth))
        pred, hit = np.array(pred), np.array(hit)
        high = pred >= 0.5
        assert high.sum() > 80
        assert abs(pred[high].mean() - hit[high].mean()) < 0.08, scope  # flat prior: 0.11-0.14
        assert abs(pred.mean() - 0.2) < 1e-9 + 0.01  # probabilities over 5 models sum to one


def test_field_covariance_shrinks_towards_the_additive_model_only_when_it_fits():
    """Ledoit-Wolf intensity: high when the models' interactions are independent and alike
    (the exchangeable additive model holds), small when two models share their interactions
    (fine-tunes of one base) or when their interactions differ widely in size; the common
    part and the questions scope are left as they are."""
    from scorio_core.inference import field_covariance, scope_covariance

    rng = np.random.default_rng(8)
    M, L = 300, 5
    b = rng.normal(0, 1, M)
    e = rng.normal(0, 0.3, (L, M))

    def stats(y):
        k = np.clip(np.round(4 * special_expit(y)), 0, 4).astype(int)
        return score_stats(np.stack([4 - k, k], -1), np.array([0.0, 1.0]))

    def special_expit(v):
        return 1 / (1 + np.exp(-v))

    independent = stats(b[None, :] + e)
    shared = e.copy()
    shared[1] = shared[0] + rng.normal(0, 0.03, M)  # model 1 is model 0 plus a little
    correlated = stats(b[None, :] + shared)
    unequal = stats(b[None, :] + e / 0.3 * np.array([0.05, 0.1, 0.3, 0.8, 1.5])[:, None])
    for st, want in ((independent, "high"), (correlated, "low"), (unequal, "low")):
        cov, _, _ = scope_covariance(st, "population")
        fc, lam = field_covariance(st, "population", cov)
        # measured: 0.65, 0.06, 0.02
        assert (lam > 0.5) if want == "high" else (lam < 0.2), (want, lam)
        np.testing.assert_allclose((fc - cov) @ np.ones(L), 0, atol=1e-15)  # common part kept
        assert np.linalg.eigvalsh(fc).min() > -1e-15
    cov_q, _, _ = scope_covariance(independent, "questions")
    assert field_covariance(independent, "questions", cov_q)[0] is cov_q


def test_population_p_best_is_not_over_confident_at_30_questions():
    """Known truth (calibration.p_best_calibration's design: 5 models, model x question
    interaction s.d. 1, M = 30, N = 8). Among predictions >= 0.6 the share truly best is
    within 0.1 of the mean prediction (measured 0.03-0.07 below it over 4 seeds,
    docs/calibration_gaps.md); draws without the field's hierarchy were 0.27 off."""
    from scorio_core import calibration as cal

    r = cal.p_best_calibration(30, 8, scope="population", reps=800, draws=2000, seed=4)
    t = r.table
    high = t.iloc[3:]  # bins 0.6-0.8 and 0.8-1.0
    n = high["count"].sum()
    pred = float((high["predicted"] * high["count"]).sum() / n)
    obs = float((high["observed"] * high["count"]).sum() / n)
    assert n > 120 and abs(obs - pred) < 0.1, (n, pred, obs)


def test_population_null_is_studentized_like_t_on_normal_data():
    """Known truth: on normal per-question scores each pair's paired statistic is ``t`` on
    ``M − 1`` d.o.f., so the population null's per-pair 97.5 % point, averaged over data
    sets, is ``t_9``'s 2.26 at 10 questions (not the normal 1.96 a Gaussian null with the
    estimated covariance gives, which is why the max-|t| procedure over-decided at few
    questions); ``null_z`` maps it back to about 1.96. The questions scope keeps the
    Gaussian null."""
    from scipy import stats

    from scorio_core.inference import _null_pair_stats, null_z

    rng = np.random.default_rng(0)
    M, q = 10, []
    for rep in range(100):
        y = (rng.normal(size=(M, 4)) @ rng.normal(size=(4, 4)).T).T  # (models, questions)
        cov = np.cov(y) / M
        sd = np.sqrt(np.maximum(np.diag(cov)[:, None] + np.diag(cov)[None, :] - 2 * cov, 0))
        q.append(np.quantile(_null_pair_stats(cov, sd, 4000, rep, y), 0.95, axis=0))
    q = np.mean(q, 0)
    assert np.allclose(q, stats.t.ppf(0.975, M - 1), rtol=0.03), q
    assert np.allclose(null_z(q, M - 1), 1.96, atol=0.06)
    Z = _null_pair_stats(cov, sd, 40_000, 1)  # questions scope: Gaussian
    assert np.allclose(np.quantile(Z, 0.95, axis=0), 1.96, atol=0.05)


def test_population_null_is_the_sign_flip_law_of_the_observed_statistics():
    """With 4 questions there are 16 sign patterns (8 up to a global sign): every draw of
    the population null is the observed paired |t| of the data with each question's
    differences flipped by one pattern -- computed as :func:`pair_pvalues` computes the
    observed ones -- and every pattern appears, the observed signs among them (the null is
    imposed: the differences are not centred, so the test is a randomization test)."""
    import itertools

    from scorio_core.inference import _null_pair_stats, pair_pvalues

    rng = np.random.default_rng(3)
    y = rng.random((3, 4))  # 3 models x 4 questions
    c = y - y.mean(0, keepdims=True)  # a question's common level cancels in the differences
    iu, ju = np.triu_indices(3, 1)
    observed = np.abs(pair_pvalues(y.mean(1), np.cov(y) / 4, 3.0)[0][iu, ju])
    want = []
    for w in itertools.product([-1.0, 1.0], repeat=4):
        yf = c * np.array(w)
        t, _, _, _ = pair_pvalues(yf.mean(1), np.cov(yf) / 4, 3.0)
        want.append(np.abs(t[iu, ju]))
    want = np.unique(np.round(want, 6), axis=0)
    assert len(want) == 8
    assert np.abs(want - observed).max(1).min() < 1e-6  # the observed pattern is one
    draws = _null_pair_stats(np.cov(y) / 4, np.ones((3, 3)), 2000, 0, y).astype(float)
    # each draw is one pattern's statistics (float32), and every pattern is drawn
    dist = np.abs(draws[:, None, :] - want[None, :, :]).max(-1)  # (draws, patterns)
    assert (dist.min(1) < 1e-4).all()
    assert set(dist.argmin(1)) == set(range(len(want)))


@pytest.mark.parametrize("scope", ["questions", "population"])
@pytest.mark.parametrize("adjust", ["holm", "simultaneous", "bh", "none"])
def test_decided_is_infers_decisions_without_the_draws(scope, adjust):
    # the Planner's realisations ask only which pairs are decided: the same decisions as
    # infer's, identified or not (N = 1 in the questions scope: nothing decided)
    from scorio_core.inference import decided

    rng = np.random.default_rng(31)
    p = np.clip(rng.beta(0.6, 0.6, (1, 40)) + np.array([[0.0], [0.03], [0.1], [0.25]]), 0, 1)
    for N in (1, 4):
        c = rng.binomial(N, p)
        st = score_stats(np.stack([N - c, c], -1), np.array([0.0, 1.0]))
        want = infer(st, scope, 0.95, adjust, 1000, 3).decided
        np.testing.assert_array_equal(decided(st, scope, 0.95, adjust, 1000, 3), want)
        if N == 4:
            assert want.any()  # a test that compares something


def test_first_set_with_two_models_is_the_one_sided_test_at_the_confidence():
    """Two models, questions scope: the null of the one comparison is N(0, 1), so the lower
    model is left out exactly when its one-sided p-value is below 1 − confidence (a
    reference value: the 95 % point of the normal, 1.645, on the normal scale of the pair's
    own t law)."""
    from scorio_core.inference import first_set

    for z, kept in ((1.40, True), (1.90, False)):  # one-sided p 0.081 and 0.029
        dof = 30.0
        t12 = special.stdtrit(dof, special.ndtr(z))  # a t whose one-sided p is Φ(−z)
        t = np.array([[0.0, t12], [-t12, 0.0]])
        cov, sd = np.eye(2) / 2, np.array([[0.0, 1.0], [1.0, 0.0]])
        out = first_set(t, np.full((2, 2), dof), cov, sd, "questions", None, 0.95, 40_000, 0)
        assert out.tolist() == [True, kept]
    with pytest.raises(Exception, match="per-question scores"):
        first_set(t, np.full((2, 2), 9.0), cov, sd, "population")


def _tie_fields(L, M, N, reps, seed, scope, spread=0.0):
    """Outcomes ``(L, M, N)`` of fields of L tied models on U-shaped questions -- the tie
    study's designs (``calibration.TIE_DESIGNS``): ``permuted`` in the questions scope,
    ``iid`` in the population scope (a permuted set would tie the means exactly, question
    sampling and all); with ``spread`` model i's logit is raised by
    ``spread * (L − 1 − i) / (L − 1)`` (model 0 the best)."""
    from scorio_core.calibration import _tie_gen

    gen = _tie_gen("permuted" if scope == "questions" else "iid", L, M)
    rng = np.random.default_rng(seed)
    shift = spread * (L - 1 - np.arange(L)) / max(L - 1, 1)
    for _ in range(reps):
        p = gen(1, rng)[0][0]
        p = special.expit(special.logit(np.clip(p, 1e-6, 1 - 1e-6)) + shift[:, None])
        yield (rng.random((L, M, N)) < p[..., None]).astype(int)


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_first_set_holds_the_best_at_its_level_under_ties_and_is_sharper_than_rank_one(scope):
    """Known truth. Under an exact tie (the least favourable case) each model is in the set
    with probability close to the confidence (95 %; 400 fields, s.e. 1.1 points, band
    ±3.5); on a spread field the truly best model is held at least as often, and the set is
    on average smaller than the models whose Holm rank interval starts at 1 (which spend the
    level on all pairs). The set does not depend on the multiplicity adjustment."""
    held, sizes, rank_one = [], [], []
    for R in _tie_fields(6, 30, 4, 400, 11, scope):
        inf = infer(_stats(R), scope, 0.95, "holm", 2000, 0)
        held.append(inf.could_be_first[0])
    assert 0.915 <= np.mean(held) <= 0.985, np.mean(held)
    held = []
    for i, R in enumerate(_tie_fields(6, 30, 4, 200, 12, scope, spread=0.8)):
        inf = infer(_stats(R), scope, 0.95, "holm", 2000, i)
        held.append(inf.could_be_first[0])
        sizes.append(inf.could_be_first.sum())
        rank_one.append((inf.rank_lo == 1).sum())
        if i < 5:
            for adjust in ("none", "bh", "simultaneous"):
                other = infer(_stats(R), scope, 0.95, adjust, 2000, i)
                assert (other.could_be_first == inf.could_be_first).all()
    assert np.mean(held) >= 0.93
    assert np.mean(sizes) < np.mean(rank_one) - 0.2, (np.mean(sizes), np.mean(rank_one))


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_simultaneous_decisions_and_the_first_set_share_one_null_draw(scope):
    """With ``adjust="simultaneous"`` :func:`infer` draws the null once: the decisions read
    its absolute values and the could-be-first set the signed ones. Both must equal what
    each computes when it draws the null itself (same seed, same law)."""
    from scorio_core.inference import decide_pairs, first_set, pair_pvalues, simultaneous_null

    R = next(_tie_fields(5, 25, 4, 1, 3, scope, spread=3.0))
    st = _stats(R)
    inf = infer(st, scope, 0.95, "simultaneous", 2000, 4)
    fresh = first_set(inf.t, inf.df, inf.cov, inf.diff_sd, scope, st.ybar, 0.95, 2000, 4)
    np.testing.assert_array_equal(inf.could_be_first, fresh)
    assert 1 <= fresh.sum() < 5  # a set that leaves someone out: the comparison bites
    cov, df, _ = scope_covariance(st, scope)
    t, P, p, sd = pair_pvalues(st.xbar, cov, df)
    null = simultaneous_null(cov, sd, scope, df, 2000, 4, st.ybar)
    shared = decide_pairs(p, P, 0.95, "simultaneous", cov, sd, scope, df, 2000, 4, st.ybar, null)
    own = decide_pairs(p, P, 0.95, "simultaneous", cov, sd, scope, df, 2000, 4, st.ybar)
    np.testing.assert_array_equal(shared, own)
    assert own.any()


def test_first_set_keeps_a_model_tied_with_the_sign_flip_critical_value():
    """One question separates two models (4 of 4 against 0 of 4): every sign flip gives the
    pair the observed |t| with one sign or the other, so the randomization test's one-sided
    p-value is 1/2 and the population scope cannot tell the models apart -- the observed
    value *is* the null's 95 % point (held in float32), and a tie keeps the model."""
    R = np.zeros((2, 20, 4), dtype=int)
    R[0, 0] = 1
    inf = infer(_stats(R), "population", 0.95, "holm", 2000, 0)
    assert inf.could_be_first.tolist() == [True, True]
    assert not inf.decided.any()


def test_simultaneous_does_not_decide_a_pair_that_ties_its_sign_flip_critical_value():
    """Model 0 solves 4 of 13 questions outright, model 1 none: every sign flip gives the
    pair's |t| either the observed value (2 of the 16 patterns of the 4 differing questions,
    12.5 % of the law) or less, so the randomization test's p-value is 1/8 and the pair must
    not be decided at 95 % -- though the paired t-test's p-value is below 5 % (Holm decides
    it). The observed |t| equals the null's 95 % point; held in float32 it rounded below the
    observed value, and a strict comparison decided the pair before ties were kept."""
    R = np.zeros((2, 13, 4), dtype=int)
    R[0, :4] = 1
    st = _stats(R)
    for seed in range(3):
        sim = infer(st, "population", 0.95, "simultaneous", 4000, seed)
        assert not sim.decided.any()
    assert infer(st, "population", 0.95, "holm", 4000, 0).decided[0, 1]
    assert sim.pvalue[0, 1] < 0.05


def test_spread_loglik_in_stacks_equals_a_plain_loop(monkeypatch):
    """The grid's inverses and determinants are computed in stacks (for speed); the block
    size must not change the likelihood or the pieces the draws read (to rounding: a
    stacked LAPACK call need not take one machine's floating-point path)."""
    from scorio_core import inference

    rng = np.random.default_rng(3)
    L = 7
    A = rng.normal(size=(L, 12)) * 0.05
    taus = inference._TAU_GRID * 0.4
    one = np.ones(L)
    for singular in (False, True):
        cov = A @ A.T / 12
        if singular:  # a model with no variance: pinv, finite where tau > 0
            cov[0] = cov[:, 0] = 0.0
        x = rng.random(L)
        want_ll, want_parts = [], []
        for tau in taus:  # the plain loop, one grid point at a time
            V = cov + (tau * tau + 1e-15) * np.eye(L)
            Vi = np.linalg.pinv(V, hermitian=True)
            a = float(one @ Vi @ one)
            mu_hat = float(one @ Vi @ x) / a
            r = x - mu_hat
            sign, logdet = np.linalg.slogdet(V)
            want_ll.append(-0.5 * (logdet + np.log(a) + r @ Vi @ r) if sign > 0 else -np.inf)
            want_parts.append((Vi, a, mu_hat))
        check = slice(1, None) if singular else slice(None)  # tau = 0: conditioned 1e13
        for cells in (inference._STACK_CELLS, L * L, 5 * L * L):  # one stack, one, blocks
            monkeypatch.setattr(inference, "_STACK_CELLS", cells)
            ll, parts = inference.spread_loglik(x, cov, taus)
            assert len(parts) == taus.size
            np.testing.assert_allclose(ll[check], np.array(want_ll)[check], rtol=1e-9)
            for (Vi, a, mu), (wVi, wa, wmu) in list(zip(parts, want_parts, strict=True))[check]:
                np.testing.assert_allclose(Vi, wVi, rtol=1e-9, atol=1e-9 * np.abs(wVi).max())
                assert a == pytest.approx(wa, rel=1e-9) and mu == pytest.approx(wmu, rel=1e-9)
