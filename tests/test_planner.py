"""Planner: chance-of-decision plans, checked against known truth (issue 20)."""

from __future__ import annotations

import dataclasses
import io
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import special

from scorio_core import ValidationError, decision
from scorio_core.cli import main
from scorio_core.formatting import share_percent
from scorio_core.leaderboard import bare_leaderboard, leaderboard
from scorio_core.plan_calibration import allocation_check, assurance_check
from scorio_core.planner import (
    CANNOT_SETTLE,
    MAX_QUESTIONS,
    MAX_TRIALS,
    allocate_trials,
    assurance,
    curve_settings,
    decision_chance,
    detectable_gaps,
    gap_curve,
    order_curve,
    pair_assurance,
    pair_curve,
    pair_level,
    pair_needs,
    plan,
)


def _bundled_run():
    """The bundled real run (9 models x 100 questions x 100 trials), as loaded by users."""
    from pathlib import Path

    from scorio_core import io as sio

    return sio.load(Path(__file__).resolve().parents[1] / "data" / "jhu_llm_temperature.parquet")


def _table(seed=0, L=5, M=40, N=6):
    rng = np.random.default_rng(seed)
    p = np.clip(np.linspace(0.7, 0.5, L)[:, None] + rng.normal(0, 0.15, (L, M)), 0.02, 0.98)
    return (rng.random((L, M, N)) < p[..., None]).astype(int)


def test_assurance_limits():
    g = np.random.default_rng(0).normal(0.03, 0.01, (5000, 1))
    s2 = 0.02**2
    # no new data: today's verdict (t = 1.5 undecided; t = 2.5 decided)
    assert assurance(np.array([0.03]), s2, s2, 1e9, 0.05, g)[0] == 0.0
    assert assurance(np.array([0.05]), s2, s2, 1e9, 0.05, g + 0.02)[0] == 1.0
    # data without end: the sign of the true gap decides (all draws are positive here)
    assert assurance(np.array([0.03]), s2, 1e-14, 1e9, 0.05, g)[0] == pytest.approx(1.0)
    # flat prior, closed form: the future estimate is N(ĝ, s² − s'²)
    flat = np.random.default_rng(1).normal(0.03, 0.02, (200_000, 1))
    s2n = s2 / 4
    got = assurance(np.array([0.03]), s2, s2n, 1e9, 0.05, flat)[0]
    want = special.ndtr((0.03 - 1.959964 * 0.01) / np.sqrt(s2 - s2n)) + special.ndtr(
        (-0.03 - 1.959964 * 0.01) / np.sqrt(s2 - s2n)
    )
    assert got == pytest.approx(want, abs=0.005)


def test_trials_needed_is_the_smallest_n_reaching_the_target():
    R = _table()
    board = leaderboard(R)
    t = pair_needs(board, pairs="all", assurance=0.8)
    N = R.shape[-1]
    und = t[~board.decided[[board.models.index(m) for m in t["better"]],
                           [board.models.index(m) for m in t["next"]]]]
    finite = und[np.isfinite(und["trials_needed"])]
    assert len(finite) >= 2
    for _, r in finite.iterrows():
        n = int(r["trials_needed"])
        a = pair_assurance(board, r["better"], r["next"], [n - 1, n])
        assert a[1] >= 0.8 and (n - 1 < N or a[0] < 0.8), (n, a)
    # a higher target needs more trials; the papers' 50 % point sits below the 80 % plan
    t9 = pair_needs(board, pairs="all", assurance=0.95)
    assert (t9["trials_needed"] >= t["trials_needed"]).all()
    assert (finite["trials_needed_papers"] <= finite["trials_needed"]).mean() >= 0.5


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_every_plan_search_finds_the_smallest_passing_n(monkeypatch, scope):
    """``_search`` brackets each plan with a coarse geometric grid and bisects at the
    geometric middle. Every search that plans make on sub-runs of the bundled run (trials,
    questions, a lead that matters; the chance of a lead's question plan at N = 1 falls
    from 1 just above M before it rises) returns the smallest ``n`` that passes: it
    passes, ``n − 1`` does not, no point of the 48-point geometric grid the search used
    before passes below it (so that grid and its bisection gave the same ``n``), and
    ``inf`` only where ``cap`` does not pass."""
    import scorio_core.planner as planner

    calls, search = [], planner._search

    def recorded(fn, start, cap, target, P):
        out = search(fn, start, cap, target, P)
        calls.append((fn, start, cap, target, out))
        return out

    monkeypatch.setattr(planner, "_search", recorded)
    R = _bundled_run().R
    rng = np.random.default_rng(3)
    for M, N in ((15, 2), (30, 4), (100, 1)):
        sub = R[:6, rng.choice(R.shape[1], M)][:, :, rng.choice(R.shape[2], N, replace=False)]
        plan(sub, scope=scope)
        plan(sub, scope=scope, lead=0.02)
    assert sum(np.isfinite(out).sum() for *_, out in calls) >= 10  # plans were searched
    for fn, start, cap, target, out in calls:
        def passes(n, fn=fn, target=target):
            return fn(np.asarray(n, dtype=np.int64)[:, None])[:, 0] >= target

        fin = np.isfinite(out)
        n = np.where(fin, out, cap).astype(np.int64)
        assert (passes(n) == fin).all(), (start, cap, out)
        below = n - 1
        assert (~fin | (below <= start) | ~passes(np.maximum(below, start + 1))).all()
        grid = np.unique(np.round(np.geomspace(start + 1, cap, 48)).astype(np.int64))
        for x in grid:
            assert not (passes(np.full(out.size, x)) & (x < out)).any(), (x, out)


def test_population_spread_that_trials_cannot_remove():
    # A wins the first half of the questions outright, B the second half: a small overall
    # gap with a huge question-to-question spread of the paired difference.
    M, N = 20, 40
    R = np.zeros((2, M, N), dtype=int)
    R[0, :10] = 1
    R[0, 10, :30] = 1  # A slightly ahead overall
    R[1, 10:] = 1
    assert leaderboard(R).decided[0, 1]  # decided for these 20 questions
    board = leaderboard(R, scope="population")
    t = pair_needs(board)
    assert len(t) == 1
    row = t.iloc[0]
    assert np.isinf(row["trials_needed"]) and CANNOT_SETTLE in row["note"]
    assert row["p_unsettled"] > 0.9
    assert np.isfinite(row["questions_needed"]) and row["questions_needed"] > M
    # the note states the chance trials still have, as a measured share (one decimal, as
    # p_unsettled's three); a tiny one is "below 0.1%", not "0.0%"
    best = 1 - row["p_unsettled"]
    assert (("below 0.1%" in row["note"]) if best < 0.001 else
            (f"at most {share_percent(best)}" in row["note"]))
    R2 = np.zeros((2, 15, 4), dtype=int)
    R2[0, :9], R2[1, 8:] = 1, 1  # 9 vs 7 of 15, every question differs by one whole answer
    note = pair_needs(leaderboard(R2, scope="population"))["note"].iloc[0]
    assert "below 0.1%" in note and "at most 0" not in note
    # the questions scope has no p_unsettled (a non-zero gap is decided eventually)
    assert np.isnan(pair_needs(leaderboard(R[:, :, :3]), pairs="all")["p_unsettled"]).all()


def test_between_moment_is_unbiased_and_bounds_the_plans_between_part():
    """Known truth: per-question differences with variance B = 0.2² (gap ±0.2 at random)."""
    from scorio_core.inference import score_stats
    from scorio_core.planner import between_moment, between_pooled

    M, N, B = 60, 8, 0.04
    est = []
    for r in range(300):
        rng = np.random.default_rng([5, r])
        flip = rng.choice([-1, 1], M)
        base = rng.uniform(0.25, 0.75, M)
        p = np.stack([base, base + 0.2 * flip])
        c = rng.binomial(N, p)
        st = score_stats(np.stack([N - c, c], -1), np.array([0.0, 1.0]))
        est.append(between_moment(st, [0], [1])[0] * M)
    # true differences ±0.2: variance B; the clip at 0 never binds here; 300 fields: s.e. of
    # the mean ≈ 0.0006; without the trial-noise correction the mean would be ≈ 0.09
    assert np.mean(est) == pytest.approx(B, abs=0.004)
    R1 = leaderboard(_table(6, N=1), scope="population")
    assert np.isnan(between_moment(R1.stats, [0], [1])).all()  # N = 1: trial noise unseen
    assert np.isnan(between_pooled(R1.stats, [0], [1])).all()


def test_pooled_between_part_undoes_the_selection_of_low_estimates():
    """Known truth: 8 models whose per-question scores differ by independent interactions of
    s.d. 0.12, so every pair's true between-question variance is about 2 · 0.12². The pair
    with the lowest raw moment estimate -- the one a plan would pick as easiest to settle --
    is biased low; pooled across the field it is not, and the plans use the pooled value."""
    from scorio_core.inference import score_stats
    from scorio_core.planner import _geometry, between_moment, between_pooled

    L, M, N = 8, 100, 8
    iu, ju = np.triu_indices(L, 1)
    low_raw, low_pool, truth, err_raw, err_pool = [], [], [], [], []
    for r in range(60):
        rng = np.random.default_rng([6, r])
        p = np.clip(rng.uniform(0.3, 0.7, M) + 0.12 * rng.standard_normal((L, M)), 0, 1)
        c = rng.binomial(N, p)
        st = score_stats(np.stack([N - c, c], -1), np.array([0.0, 1.0]))
        true_b = (p[iu] - p[ju]).var(1, ddof=1)  # over these questions (what trials approach)
        raw = between_moment(st, iu, ju) * M
        pool = between_pooled(st, iu, ju) * M
        k = int(np.argmin(raw))
        low_raw.append(raw[k] / true_b[k])
        low_pool.append(pool[k] / true_b[k])
        truth.append(true_b.mean())
        err_raw.append(np.mean((raw - true_b) ** 2))
        err_pool.append(np.mean((pool - true_b) ** 2))
    # measured: the lowest raw estimate 0.31 of its pair's truth, pooled 1.12; mean squared
    # error over all pairs 0.23 of the raw one
    assert np.mean(low_raw) < 0.6 and 0.85 < np.mean(low_pool) < 1.35
    assert np.mean(err_pool) < 0.5 * np.mean(err_raw)
    # the plans' between part is never below the pooled estimate
    board = leaderboard(_table(6), scope="population")
    geo = _geometry(board, [0, 1, 2], [1, 2, 3])
    span2 = (board.stats.hi_b - board.stats.lo_b) ** 2
    assert (geo.between >= between_pooled(board.stats, [0, 1, 2], [1, 2, 3]) * span2).all()
    # symmetric in the pair and equal to the same pair asked in a batch
    st = board.stats
    assert between_pooled(st, [2], [0])[0] == between_pooled(st, [0, 2], [2, 0])[1]
    # no trial noise anywhere (every answer right): zero, without overflow or NaN
    ones = leaderboard(np.ones((4, 20, 4), dtype=int), scope="population").stats
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert between_pooled(ones, [0, 1], [1, 3]).tolist() == [0.0, 0.0]


def _flip_table(seed, M, N, shift, spread):
    """Three models: ``model_0`` leads ``model_1`` by ``shift`` with per-question
    differences ``± spread`` (between-question variance ``spread²``), ``model_2`` far below."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.3, 0.7, M)
    flip = rng.choice([-1, 1], M)
    p = np.stack([np.clip(base + shift + spread * flip, 0, 1), base, np.clip(base - 0.3, 0, 1)])
    c = rng.binomial(N, p)
    return (np.arange(N)[None, None, :] < c[..., None]).astype(int)


def test_an_unshown_between_part_is_planned_at_its_upper_bound():
    """Population scope: where a pair's between-question variance is not shown above zero
    (moment estimate within 1.645 of its trial-noise s.e.), every plan and chance reads at
    least its one-sided upper bound (estimate + 1.645 s.e.) and the note says so; elsewhere
    the estimate as before. Known truth: spread 0.2 or 0.15 per question under trial noise of
    two trials, where it is sometimes shown and sometimes not."""
    from scorio_core.planner import _B_SHOWN_Z, _UNSHOWN, _geometry, _moment_terms

    bounded = plain = 0
    for cfg in ((400, 2, 0.05, 0.2), (300, 2, 0.06, 0.15)):
        for seed in range(20):
            board = bare_leaderboard(_flip_table(seed, *cfg), scope="population", draws=2000)
            t = pair_needs(board, pairs="all")
            idx = {m: i for i, m in enumerate(board.models)}
            up, lo = t["better"].map(idx).to_numpy(), t["next"].map(idx).to_numpy()
            est, var = _moment_terms(board.stats, up, lo)
            shown = est > _B_SHOWN_Z * np.sqrt(var)
            geo = _geometry(board, up, lo)
            assert (geo.unshown == ~shown).all()
            bound = np.maximum(est + _B_SHOWN_Z * np.sqrt(var), 0) / board.stats.M
            assert (geo.between[~shown] >= bound[~shown] * (1 - 1e-12)).all()
            said = t["note"].str.contains(_UNSHOWN, regex=False).to_numpy()
            flat = t["note"].str.startswith("identical").to_numpy()
            assert (said == (~shown & ~flat)).all(), t["note"]
            assert t["questions_needed"][~shown].notna().all()  # questions still planned
            bounded += int((~shown).sum())
            plain += int(shown.sum())
    assert bounded >= 20 and plain >= 2  # measured: 62 and 58 (pairs of all three models)
    # the questions scope has no such part: never said there
    q = pair_needs(leaderboard(_flip_table(0, 400, 2, 0.05, 0.2)), pairs="all")
    assert not q["note"].str.contains(_UNSHOWN, regex=False).any()


def test_unshown_spreads_keep_their_chance_on_a_real_run():
    """Known truth from the bundled real run (9 models x 100 questions x 100 trials: its shares
    are the true probabilities): 5-model sub-fields of 30 questions, 4 trials, population
    scope. For the undecided adjacent pairs whose between part is not shown, the chance of a
    decision at 64 N trials must not run above the share realised when those trials are
    drawn. With the estimate alone it did (1,500 fields: mean 0.18 vs 0.10; where it said
    above 0.3, 0.55 vs 0.27 (315 pairs)); with the bound 0.05 vs 0.10 and 0.38 vs 0.50 (70)."""
    from scorio_core.plan_calibration import _R, _decided
    from scorio_core.planner import _geometry, _trial_fn

    P = _bundled_run().R.mean(-1)
    K, Q = P.shape
    M, N, n = 30, 4, 256
    said, seen = [], []
    for r in range(600):
        rng = np.random.default_rng([7, r])
        p = P[np.sort(rng.permutation(K)[:5])][:, rng.integers(0, Q, M)]
        c0 = rng.binomial(N, p)
        board = bare_leaderboard(_R(c0, N), scope="population", draws=1000, seed=r)
        inf = board.inference
        o = board.table_order()
        up, lo = o[:-1], o[1:]
        keep = ~(inf.decided[up, lo] | inf.decided[lo, up])
        geo = _geometry(board, up[keep], lo[keep])
        if not geo.unshown.any():
            continue
        a = _trial_fn(geo)(np.full((geo.gap.size, 1), float(n)))[:, 0]
        D = _decided(c0 + rng.binomial(n - N, p), n, "population", 0.95, "holm", r)
        for k in np.nonzero(geo.unshown)[0]:
            said.append(a[k])
            seen.append(D[up[keep][k], lo[keep][k]])
    said, seen = np.asarray(said), np.asarray(seen, dtype=float)
    assert said.size >= 300  # measured: 1,286 pairs in 1,500 fields
    # measured over seeds 0-4 and 7 (about 500 pairs each): seen - said +0.022 to +0.053,
    # s.e. 0.011, so the 0.03 slack is 5 s.e. below; the estimate alone: -0.08
    assert said.mean() <= seen.mean() + 0.03, (said.mean(), seen.mean())
    # where it said above 0.3: 18 to 28 pairs a seed, seen - said -0.12 to +0.23 (mean
    # +0.07), a share of ~20 pairs has an s.e. of ~0.11: the band is 3 s.e. and 0.05 (the
    # estimate alone read -0.28 on 315 pairs, beyond it)
    high = said > 0.3
    se = np.sqrt(said[high].mean() * (1 - said[high].mean()) / max(high.sum(), 1))
    assert high.sum() >= 8, high.sum()
    assert seen[high].mean() >= said[high].mean() - max(0.15, 0.05 + 3 * se), (
        said[high].mean(), seen[high].mean(), high.sum())


def test_n_equal_one_plans_questions_only():
    R = _table(3, N=1)
    t = pair_needs(leaderboard(R, scope="population"), pairs="all")
    n1 = t["note"].str.contains("N = 1")
    assert n1.sum() >= 1 and t.loc[n1, "trials_needed"].isna().all()
    assert np.isfinite(t.loc[n1, "questions_needed"]).all()
    assert (t.loc[~n1, "note"].str.startswith("identical")).all()


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_one_question_plans_trials_only_where_it_can_and_says_why(scope):
    # M = 1: the question-to-question spread is unseen (this crashed in an eigensolver)
    R = np.random.default_rng(0).integers(0, 2, (3, 1, 8))
    board = leaderboard(R, scope=scope)
    t = pair_needs(board, pairs="all")
    assert t["questions_needed"].isna().all() and t["p_unsettled"].isna().all()
    assert t["note"].str.startswith("M = 1").all()
    lead = pair_needs(board, pairs="all", lead=0.05)
    assert t["questions_gap"].isna().all() and lead["questions_for_lead"].isna().all()
    if scope == "questions":  # trial noise is seen: trials can still be planned
        assert np.isfinite(t["trials_needed"]).all()
        assert np.isfinite(t["trials_gap"]).all() and np.isfinite(lead["trials_for_lead"]).all()
    else:
        assert t["trials_needed"].isna().all() and t["trials_gap"].isna().all()
        assert lead["trials_for_lead"].isna().all()
    p = plan(R, scope=scope, budget_trials=30)
    assert p.split.extra.sum() == 30  # the budget is per question, over all models
    if scope == "population":
        assert "M = 1" in p.split.note


def test_pair_level_follows_the_multiplicity_control():
    R = _table(4, L=6)
    a = {adj: pair_level(leaderboard(R, adjust=adj)) for adj in ("none", "holm", "simultaneous")}
    assert a["none"] == pytest.approx(0.05)
    assert a["holm"] < a["simultaneous"] < a["none"]  # max-|t| uses the pairs' correlation


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_pair_level_reads_the_null_the_decisions_used(scope):
    """simultaneous: the level an open pair must pass is the tail of the max-|t| null over
    the open pairs -- the null infer drew (kept, not drawn again), equal to a fresh draw of
    the same null from the board's own statistics, and at least Holm's level."""
    R = _table(4, L=6)
    board = leaderboard(R, adjust="simultaneous", scope=scope)
    inf = board.inference
    assert "open_level" in inf.__dict__  # set by infer from its own null
    fresh = dataclasses.replace(inf)  # the cached value is not copied: drawn again
    assert "open_level" not in fresh.__dict__
    assert fresh.open_level == pytest.approx(pair_level(board), rel=1e-4)
    iu, ju = np.triu_indices(6, 1)
    k = int((~(inf.decided[iu, ju] | inf.decided[ju, iu])).sum())
    assert k > 1 and 0.05 / k <= pair_level(board) < 0.05


@pytest.mark.parametrize("N", [1, 4])
@pytest.mark.parametrize("adjust", ["holm", "simultaneous"])
def test_question_plans_use_the_population_board_s_level(N, adjust):
    """A question plan is a population-scope plan whatever the board's scope: it is made at
    the per-pair level of the population board on the same data (its control, draws and
    seed). At N = 1 the questions scope decides nothing and its own level is the unadjusted
    0.05, which the question plans read until 2026-11-30 (a plan of M + 1 questions said
    "already met" beside a pair the Holm-adjusted population board leaves open); at N = 1
    the two boards' question plans are now the same plans."""
    from scorio_core.planner import _geometry

    R = _table(4, L=6, M=30, N=N)
    q = leaderboard(R, adjust=adjust, draws=2000, seed=5)
    pop = leaderboard(R, scope="population", adjust=adjust, draws=2000, seed=5)
    level = pair_level(pop)
    assert pair_level(q, "population") == level and pair_level(pop, "population") == level
    assert _geometry(q, [0], [1]).q_level == level
    assert _geometry(q, [0], [1]).level == pair_level(q)  # trials: the board's own scope
    iu, ju = np.triu_indices(6, 1)
    k = int((~(pop.decided[iu, ju] | pop.decided[ju, iu])).sum())
    assert k > 1 and level < 0.05
    if adjust == "holm":
        assert level == pytest.approx(0.05 / k)
    if N == 1:
        assert pair_level(q) == pytest.approx(0.05)  # not identified: unadjusted
        cols = ["better", "next", "questions_needed", "questions_gap"]
        pd.testing.assert_frame_equal(pair_needs(q, pairs="all")[cols],
                                      pair_needs(pop, pairs="all")[cols])


def test_a_one_trial_question_plan_is_decided_by_the_population_board():
    """Known truth: the population is these 40 questions (four models, one trial each), so
    the true gap is the observed one. The population board (Holm, four pairs open: level
    0.0125) leaves the top pair open at p = 0.016, and the questions board decides nothing.
    Planned at the unadjusted 0.05 the pair's question plan read 41 questions ("already
    met"); 41 questions drawn from the population decide it about a third of the time. At
    the population board's level the plan asks for more, and drawing them decides the pair
    with at least the promised chance."""
    from scorio_core.inference import decided, score_stats

    rows = ("1001111111110011101111111001111100011111", "1100011100000010010010110001111101110110",
            "0000001100000010001101111001111000110010", "0101000000110000000110101000101101010011")
    Y = np.array([[int(c) for c in r] for r in rows])
    M = Y.shape[1]
    board = leaderboard(Y[..., None], draws=2000)
    pop = leaderboard(Y[..., None], scope="population", draws=2000)
    assert not board.decided.any() and not pop.decided[0, 1]
    assert pair_level(pop) < pop.inference.pvalue[0, 1] < 0.05
    row = pair_needs(board).iloc[0]
    assert (row["better"], row["next"]) == ("model_0", "model_1")
    m = int(row["questions_needed"])
    assert m > M + 1 and np.isfinite(row["questions_gap"])
    rng = np.random.default_rng(1)

    def share(m, reps=200):
        hit = 0
        for _ in range(reps):
            Z = Y[:, np.concatenate([np.arange(M), rng.integers(0, M, m - M)])]
            st = score_stats(np.stack([1 - Z, Z], -1), np.array([0.0, 1.0]))
            hit += decided(st, "population", 0.95, "holm")[0, 1]
        return hit / reps

    assert share(m) >= 0.7  # promised 0.8 (measured 0.965)
    assert share(M + 1) <= 0.6  # the old plan (measured 0.375)


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_population_gap_draws_are_p_best_s_posterior(scope):
    """One posterior of the field: the Planner draws the population gaps from exactly the
    draws behind the population board's ``p_best`` (its shrunk field covariance, same seed),
    whichever scope the planning board is in -- not from the raw covariance, with which the
    stylised 30/4 question plans decided 78.8 % for a promised 80 % (80.8 % now; 8,000
    fields, docs/calibration_gaps.md)."""
    from scorio_core.inference import field_covariance, scope_covariance
    from scorio_core.planner import _PLAN_DRAWS, _geometry

    R = _table(5, L=5, M=30, N=4)
    pop = leaderboard(R, scope="population", draws=_PLAN_DRAWS, seed=3)
    S = pop.inference.draws
    i, j = np.array([0, 1, 3]), np.array([1, 2, 4])
    geo = _geometry(leaderboard(R, scope=scope, draws=_PLAN_DRAWS, seed=3), i, j)
    np.testing.assert_allclose(geo.g_pop, S[:, i] - S[:, j], rtol=0, atol=1e-12)
    raw, _, _ = scope_covariance(pop.stats, "population")
    assert not np.allclose(field_covariance(pop.stats, "population", raw)[0], raw)  # shrunk


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_planned_trials_decide_about_as_often_as_stated(scope):
    """Known truth: fields of 5 models, 30 questions x 4 trials; add the trials (questions
    scope) or the questions (population scope) the plan names and decide again. Measured on
    450 fields (seed 100): trial plans decided 86.3 % ± 0.9 % of the time for a promised
    80 %, question plans 81.5 % ± 2.9 % (184 plans)."""
    if scope == "questions":
        r = assurance_check(30, 4, scope=scope, reps=45, seed=3)
        print(r.planned, r.realised, r.papers_planned, r.papers_realised)
        # 45 fields: 0.82 to 0.94 over seeds 0-7 (s.d. 0.04), so 0.65 and 0.99 are 5 and 3
        # s.d. away (0.97 was 2.3 s.d.)
        assert r.planned >= 30
        assert 0.65 <= r.realised <= 0.99, r
        assert r.papers_realised < r.realised  # the papers' rule is a 50 % point
        # the predicted chance at 2 N, 8 N, 64 N against the share decided. Per bin of 20+
        # pairs (s.e. sqrt(p (1 - p) / n): 0.11 at 20 pairs), measured on 450 fields: never
        # optimistic by more than 0.08 (2 N, predicted 0.2-0.4; 8 N, 0.4-0.6: 0.07) and
        # conservative at 64 N (+0.14 where 0.4-0.6 was predicted, +0.29 where 0.2-0.4), so
        # the band is that and 3 s.e. (a two-sided 0.2 failed on 2 seeds of 8)
        big = r.bins[r.bins["count"] >= 20]
        se = np.sqrt(big["predicted"] * (1 - big["predicted"]) / big["count"])
        off = big["observed"] - big["predicted"]
        assert len(big) and (off >= -0.1 - 3 * se).all() and (off <= 0.3 + 3 * se).all(), \
            r.bins
        # ... and at 2 N and 8 N all pairs together (~350 a run), where a bin is too small to
        # see a law that runs high: z = sum(decided - p) / sqrt(sum p (1 - p)) read -1.8 to
        # +3.1 over seeds 0-7, and -4.6 and -5.4 (seeds 3, 0) with a law that takes a trial
        # to remove twice the variance it does
        early = r.bins[r.bins["multiple"] < 64]
        z = ((early["count"] * (early["observed"] - early["predicted"])).sum()
             / np.sqrt((early["count"] * early["predicted"] * (1 - early["predicted"])).sum()))
        assert z >= -4, (z, r.bins)
    else:  # question plans; trials barely move a population-scope pair (bins near 0)
        r = assurance_check(30, 4, scope=scope, reps=90, seed=3, multiples=())
        print(r.q_planned, r.q_realised)
        # 90 fields: ~37 question plans, s.e. 0.064 at 0.8: 0.6 is 3.3 s.e. below the 0.815
        # measured (45 fields and 0.6, as before, were 2.3 s.e.: 0.68 on 3 seeds of 8). It
        # catches plans grossly too small (sized for a 30 % chance: 0.40), not a shortfall of
        # 15 points (sized for 50 %: 0.62), which would take ~1,000 fields to see
        assert r.q_planned >= 15 and r.q_realised >= 0.6, r


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_stated_gaps_invert_the_chance_at_a_fixed_gap(scope):
    """trials_gap / questions_gap: the plan's chance at that true lead is the target, larger
    leads get more, and a bigger plan decides a smaller lead."""
    rng = np.random.default_rng(5)  # shared question difficulty: trials can settle pairs
    p = np.clip(rng.uniform(0.3, 0.7, 40) + np.linspace(0.05, -0.05, 5)[:, None], 0, 1)
    board = leaderboard((rng.random((5, 40, 8)) < p[..., None]).astype(int), scope=scope)
    if scope == "population":  # trials are planned only where the between part is shown
        board = leaderboard(_flip_table(3, 300, 2, 0.06, 0.15), scope=scope)
    t = pair_needs(board, pairs="all")
    assert {"trials_gap", "questions_gap"} <= set(t.columns)
    for kind in ("trials", "questions"):
        n, d = t[f"{kind}_needed"].to_numpy(), t[f"{kind}_gap"].to_numpy()
        ok = np.isfinite(n) & np.isfinite(d) & (d > 0)
        assert ok.any(), (kind, t)
        b, x = t["better"][ok].tolist(), t["next"][ok].tolist()
        at = decision_chance(board, b, x, n[ok], d[ok], kind)
        assert np.allclose(at, 0.8, atol=1e-6), at
        more = decision_chance(board, b, x, n[ok], 1.5 * d[ok], kind)
        assert (more > 0.8).all()
        assert np.allclose(detectable_gaps(board, b, x, n[ok], kind), d[ok])
        bigger = detectable_gaps(board, b, x, 4 * n[ok], kind)
        assert (bigger < d[ok]).all()
    none = np.isinf(t["trials_needed"].to_numpy())  # no plan, no stated gap
    assert t["trials_gap"][none].isna().all()


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_plans_for_a_lead_that_matters_are_the_smallest_that_decide_it(scope):
    """trials_for_lead / questions_for_lead: the chance at that lead reaches the target there
    and not one step before; the plan's stated gap is then at most the lead."""
    rng = np.random.default_rng(5)
    p = np.clip(rng.uniform(0.3, 0.7, 40) + np.linspace(0.05, -0.05, 5)[:, None], 0, 1)
    board = leaderboard((rng.random((5, 40, 8)) < p[..., None]).astype(int), scope=scope)
    assert "trials_for_lead" not in pair_needs(board, pairs="all").columns  # off by default
    t = pair_needs(board, pairs="all", lead=0.04)
    cols = list(t.columns)
    assert cols[cols.index("questions_gap") + 1:][:2] == ["trials_for_lead", "questions_for_lead"]
    for kind, start in (("trials", 8), ("questions", 40)):
        n = t[f"{kind}_for_lead"].to_numpy()
        ok = np.isfinite(n)
        assert ok.any(), (kind, t)
        b, x = t["better"][ok].tolist(), t["next"][ok].tolist()
        at = decision_chance(board, b, x, n[ok], 0.04, kind)
        assert (at >= 0.8 - 1e-9).all(), at
        before = decision_chance(board, b, x, np.maximum(n[ok] - 1, start + 1), 0.04, kind)
        assert ((before < 0.8) | (n[ok] - 1 <= start)).all(), before
        assert (detectable_gaps(board, b, x, n[ok], kind) <= 0.04 + 1e-9).all()
    with pytest.raises(Exception, match="lead: at most the score range, 1; got 1.5"):
        pair_needs(board, lead=1.5)
    with pytest.raises(Exception, match="lead must be at least 0"):
        pair_needs(board, lead=-0.1)


def test_plans_for_a_lead_hold_on_fields_with_known_truth():
    """Known truth: of the trials_for_lead plans whose better model truly led by at least the
    lead, at least 80 % were decided (no prior on the lead)."""
    r = assurance_check(30, 4, scope="questions", reps=30, seed=6, multiples=(), lead=0.02)
    d = r.detectable().set_index("kind").loc["trials_for_lead"]
    print(r.detectable())
    assert d["lead_at_least_gap"] >= 20 and d["decided"] >= 0.85, d


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_gap_curve_passes_through_the_tables_plans(scope):
    """The gap curve is the stated gap along a grid: at trials_needed / questions_needed it
    is trials_gap / questions_gap, at the lead plans it is within the lead (and above it one
    step before), it falls as the plan grows, and at each point the chance at that lead is
    the target."""
    rng = np.random.default_rng(5)
    p = np.clip(rng.uniform(0.3, 0.7, 40) + np.linspace(0.05, -0.05, 5)[:, None], 0, 1)
    board = leaderboard((rng.random((5, 40, 8)) < p[..., None]).astype(int), scope=scope)
    t = pair_needs(board, pairs="all", lead=0.04)
    checked = 0
    for _, row in t.iterrows():
        b, x = row["better"], row["next"]
        for kind, start in (("trials", 8), ("questions", 40)):
            plans = [row[f"{kind}_needed"], row[f"{kind}_for_lead"]]
            sizes = sorted({int(v) for v in plans if np.isfinite(v)}
                           | {int(v) - 1 for v in plans if np.isfinite(v) and v - 1 > start})
            if not sizes:
                continue
            g = gap_curve(board, b, x, sizes if kind == "trials" else (),
                          sizes if kind == "questions" else ())
            assert (g["plan"] == kind).all() and g["n"].tolist() == sizes
            lead = g.set_index("n")["smallest_lead"]
            if np.isfinite(row[f"{kind}_needed"]):
                assert lead[int(row[f"{kind}_needed"])] == pytest.approx(row[f"{kind}_gap"])
            n_lead = row[f"{kind}_for_lead"]
            if np.isfinite(n_lead):
                assert lead[int(n_lead)] <= 0.04 + 1e-9
                if int(n_lead) - 1 in lead.index:
                    assert lead[int(n_lead) - 1] > 0.04
            finite = np.isfinite(lead.to_numpy()) & (lead.to_numpy() > 0)
            if finite.any():
                at = decision_chance(board, [b] * finite.sum(), [x] * finite.sum(),
                                     lead.index[finite], lead.to_numpy()[finite], kind)
                assert np.allclose(at, 0.8, atol=1e-6), at
            assert np.allclose(g["gap_now"], row["gap"])
            checked += 1
    assert checked >= 3, t
    up, lo = t["better"].iloc[0], t["next"].iloc[0]
    g = gap_curve(board, up, lo, [4, 8, 16, 64, 256], [20, 40, 80, 320])
    assert g["n"].tolist() == [16, 64, 256, 80, 320]  # not beyond today's N / M: no plan
    for kind in ("trials", "questions"):
        v = g[g["plan"] == kind]["smallest_lead"].to_numpy()
        v = v[np.isfinite(v)]
        assert (np.diff(v) <= 1e-12).all(), g


def test_gap_curve_grid_reaches_the_pairs_question_plans():
    """The Planner's question grid runs past the pair's plans (needed and for the lead), so
    the curve crosses both; it starts above today's M."""
    R = _table(2, L=4, M=30, N=4)
    planned = plan(R, scope="population", lead=0.05)
    row = planned.pairs.iloc[0]
    cs = curve_settings(planned)
    assert cs.m_values[0] > 30 and list(cs.m_values) == sorted(cs.m_values)
    for col in ("questions_needed", "questions_for_lead"):
        if np.isfinite(row[col]):
            assert cs.m_values[-1] >= row[col]


def test_gap_curve_question_grid_stays_within_the_search():
    """A pair with no question plan on a very large run: 16 M would pass the searches'
    MAX_QUESTIONS; the grid stops there (√2 steps from today's M)."""
    from types import SimpleNamespace

    from scorio_core.planner import MAX_QUESTIONS, _question_grid

    empty = pd.DataFrame(columns=["better", "next", "questions_needed"])
    big = SimpleNamespace(settings={"shape": (3, 100_000, 4)}, pairs=empty)
    assert _question_grid(big, "a", "b") == (141_421, 200_000, 282_843, 400_000, 565_685,
                                             800_000, MAX_QUESTIONS)
    small = SimpleNamespace(settings={"shape": (3, 10, 4)}, pairs=empty)
    assert _question_grid(small, "a", "b")[-1] == 160


def test_gap_curve_refuses_bad_input_clearly():
    board = leaderboard(_table(1, L=3, M=20, N=4))
    with pytest.raises(Exception, match="unknown model 'nope'"):
        gap_curve(board, "nope", "model_1", [8])
    with pytest.raises(Exception, match=r"trials must be whole numbers >= 1; got \[8.5\]"):
        gap_curve(board, "model_0", "model_1", [8.5])
    with pytest.raises(Exception, match="questions must be numbers; got"):
        gap_curve(board, "model_0", "model_1", (), ["many"])
    empty = gap_curve(board, "model_0", "model_1")
    assert empty.empty and list(empty.columns) == ["plan", "n", "smallest_lead", "gap_now"]


def test_stated_gap_calls_refuse_bad_input_clearly():
    board = leaderboard(_table(1, L=3, M=20, N=4))
    with pytest.raises(Exception, match=r"true_gap must be one number or one per pair \(2\)"):
        decision_chance(board, ["model_0"] * 2, ["model_1"] * 2, [8, 16], [0.1, 0.2, 0.3])
    with pytest.raises(Exception, match="n must be numbers; got"):
        decision_chance(board, ["model_0"], ["model_1"], ["x"], 0.1)
    with pytest.raises(Exception, match="upper, lower and n must have the same length"):
        detectable_gaps(board, ["model_0"], ["model_1"], [8, 16])
    with pytest.raises(Exception, match="unknown model 'nope'"):
        detectable_gaps(board, ["nope"], ["model_1"], [8])
    with pytest.raises(Exception, match="kind must be 'trials' or 'questions'"):
        detectable_gaps(board, ["model_0"], ["model_1"], [8], kind="epochs")
    assert np.isnan(detectable_gaps(board, ["model_0"], ["model_1"], [None])).all()  # no plan


def test_population_trial_law_matches_a_simulation_of_the_model():
    """More trials in the population scope converge to the gap over *these* questions,
    ``g_M ~ N(g, B)``, which today's estimate ``ĝ ~ N(g_M, T)`` has partly seen; the chance
    at a fixed population gap ``g`` (decision_chance) against that model simulated and
    conditioned on today's ``ĝ`` by importance weights."""
    from scorio_core.planner import _geometry, _plan_chance_at

    board = leaderboard(_table(6, L=3, M=30, N=4), scope="population")
    geo = _geometry(board, np.array([0]), np.array([1]))
    gh, T, B, N, M = geo.gap[0], geo.s2_trial[0], geo.between[0], geo.N, geo.M
    rng = np.random.default_rng(0)
    for n in (8, 64):
        lam = 1 - N / n
        c = special.stdtrit(M - 1, 1 - geo.level / 2) * np.sqrt(B + T * N / n)
        for g in (-0.05, 0.0, gh, 0.15):
            gM = g + np.sqrt(B) * rng.standard_normal(400_000)
            w = np.exp(-0.5 * (gh - gM) ** 2 / T)
            future = gh + lam * (gM - gh) + np.sqrt(T * lam * (1 - lam)) * rng.standard_normal(
                gM.size)
            sim = float((w * (np.abs(future) >= c)).sum() / w.sum())
            want = float(_plan_chance_at(geo, np.array([n]), "trials", np.array([g]))[0])
            assert sim == pytest.approx(want, abs=0.01), (n, g, sim, want)


def test_between_quantile_is_the_quantile_of_the_draws():
    from scorio_core.inference import score_stats
    from scorio_core.planner import between_draws, between_quantile

    rng = np.random.default_rng(0)
    flip = rng.choice([-1, 1], 200)
    p = np.clip(rng.uniform(0.2, 0.8, (1, 200)) + [[0.0], [0.2]] * flip, 0, 1)
    c = rng.binomial(16, p)
    st = score_stats(np.stack([16 - c, c], -1), np.array([0.0, 1.0]))
    for q in (0.25, 0.5, 0.9):
        exact = between_quantile(st, [0], [1], q)[0]
        drawn = np.quantile(between_draws(st, [0], [1], 40_000), q)
        assert exact == pytest.approx(drawn, rel=0.02), q


def test_stated_gaps_hold_on_fields_with_known_truth():
    """Known truth: of the plans whose better model truly leads by at least the stated gap,
    at least 80 % are decided once the planned trials are added (measured 99 %; 95 % for
    leads within 1.5x of it: the statement needs no prior on the lead)."""
    r = assurance_check(30, 4, scope="questions", reps=40, seed=5, multiples=())
    d = r.detectable().set_index("kind").loc["trials"]
    print(r.detectable())
    assert d["lead_at_least_gap"] >= 40 and d["decided"] >= 0.85, d
    # the law at the true gap is calibrated or conservative, never optimistic by much
    b = r.at_truth_bins()
    big = b[b["count"] >= 15]
    assert len(big) and (big["observed"] >= big["predicted"] - 0.1).all(), b


def test_plans_hold_on_weighted_categories_with_known_truth():
    """Known truth with three outcomes weighted (0, 0.5, 1): the trials planned for 80 %
    decide about that often, and the plans whose better model truly leads by at least the
    stated gap are decided at least 80 % of the time."""
    r = assurance_check(30, 4, scope="questions", reps=40, seed=5, multiples=(),
                        categorical=True)
    d = r.detectable().set_index("kind").loc["trials"]
    assert r.planned >= 40 and 0.65 <= r.realised <= 0.97, r
    assert d["lead_at_least_gap"] >= 25 and d["decided"] >= 0.85, d
    # the leaderboard it plans from sees the categories: its table has each count
    from scorio_core.plan_calibration import _R

    counts = np.random.default_rng(0).multinomial(5, [0.2, 0.3, 0.5], (3, 4))
    table = _R(counts, 5)
    assert table.shape == (3, 4, 5)
    assert ((table[..., None] == np.arange(3)).sum(2) == counts).all()


def test_allocation_spends_exactly_the_budget_and_falls_back_to_even():
    board = leaderboard(_table(2, L=6))
    a = allocate_trials(board, 0)
    assert a.extra.sum() == 0 and a.chosen == "uniform"
    a = allocate_trials(board, 17)
    assert a.greedy.sum() == 17 and a.uniform.sum() == 17 and a.extra.sum() == 17
    assert a.uniform.max() - a.uniform.min() <= 1
    P = 15  # every pair scored: today's decided ones at their chance of staying decided
    assert 0 <= min(a.expected_greedy, a.expected_uniform) <= max(
        a.expected_greedy, a.expected_uniform) <= P
    if a.chosen == "greedy":  # by two standard errors and the scope's floor (questions)
        gain = a.expected_greedy - a.expected_uniform
        assert gain > max(2 * a.gain_se, 0.01)
    else:
        assert np.array_equal(a.extra, a.uniform)
    with pytest.raises(Exception, match="budget"):
        allocate_trials(board, -1)


def test_greedy_split_spends_only_on_the_models_of_open_pairs():
    """Every pair is decided but model_3 vs model_4 (0.30 vs 0.29): the greedy split (which
    scores only the open pairs) gives its trials to those two models alone."""
    rng = np.random.default_rng(1)
    p = np.array([0.9, 0.7, 0.5, 0.3, 0.29, 0.1])[:, None] * np.ones((6, 60))
    board = leaderboard((rng.random((6, 60, 8)) < p[..., None]).astype(int))
    D = board.inference.decided
    assert int((~(D | D.T)).sum() - 6) // 2 == 1 and not (D[3, 4] or D[4, 3])
    a = allocate_trials(board, 40)
    assert a.greedy.sum() == 40 and set(np.nonzero(a.greedy)[0]) == {3, 4}, a.greedy
    assert a.expected_greedy > a.decided_now


def _plain_greedy(board, budget, seed):
    """The greedy split as first written: every model's every open pair rescored at each
    step (the reference for the incremental one)."""
    from scorio_core.planner import _GREEDY_DRAWS, _PLAN_DRAWS, _geometry

    inf, L, N = board.inference, len(board.models), int(board.stats.N)
    iu, ju = np.triu_indices(L, 1)
    open_ = ~(inf.decided[iu, ju] | inf.decided[ju, iu])
    opens = np.arange(iu.size)  # every pair, decided ones at their chance of staying so
    geo = _geometry(board, iu, ju, _GREEDY_DRAWS + _PLAN_DRAWS, seed)
    gA, v, pop = geo.g[:_GREEDY_DRAWS], geo.trial_var, geo.scope == "population"
    between = np.where(open_, geo.between, geo.between_pooled)  # population scope

    def chance(e, sel):  # the pairs `sel` after extra trials e (L,)
        f = e / (N + e)
        c = v[iu[sel]] * f[iu[sel]] + v[ju[sel]] * f[ju[sel]]
        dec = between[sel] + geo.s2_trial[sel] - c if pop else geo.s2[sel] - c
        return assurance(geo.gap[sel], geo.s2_trial[sel], np.maximum(geo.s2_trial[sel] - c,
                         1e-300), inf.df[iu, ju][sel], geo.level, gA[:, sel],
                         s2_decide=np.maximum(dec, 1e-300)).sum()

    base, e, left = max(1, -(-budget // (8 * L))), np.zeros(L), budget
    while left > 0:
        best = (-1.0, 0, 0)
        for k in (1, 2, 4, 8):
            step = min(k * base, left)
            now = chance(e, opens)
            rate = np.array([(chance(e + step * np.eye(L)[m], opens) - now) / step
                             for m in range(L)])
            m = int(np.argmax(rate))
            if rate[m] > best[0] + 1e-9:
                best = (float(rate[m]), m, step)
            if step == left:
                break
        e[best[1]] += best[2]
        left -= best[2]
    return e.astype(int)


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_incremental_greedy_split_is_the_plain_greedy_split(scope):
    """The budget split rescores only the models whose pairs the last step moved; on random
    fields it spends the budget exactly as rescoring everything at every step does."""
    for seed in range(4):
        rng = np.random.default_rng(seed)
        L, M, N = 4 + 2 * seed, 30 + 10 * seed, 4
        p = np.clip(rng.uniform(0.2, 0.8, M) + np.linspace(0.08, -0.08, L)[:, None]
                    + rng.normal(0, 0.1, (L, M)), 0, 1)
        board = leaderboard((rng.random((L, M, N)) < p[..., None]).astype(int), scope=scope)
        budget = 3 * L * N
        got = allocate_trials(board, budget, seed=seed).greedy
        assert got.tolist() == _plain_greedy(board, budget, seed).tolist(), (seed, got)


def test_pairs_kept_whatever_the_split_are_decided_with_chance_exactly_one():
    """Questions scope: the split skips the pairs whose chance is exactly 1.0 under every
    split (far apart models); under random and extreme splits their chance is 1.0, some
    pairs are skipped on a wide field, and the expected counts equal scoring every pair."""
    from scorio_core.planner import _GREEDY_DRAWS, _PLAN_DRAWS, _geometry, _surely_kept

    rng = np.random.default_rng(3)
    L, M, N = 6, 200, 8
    p = np.clip(rng.uniform(0.3, 0.7, M) + np.linspace(0.35, -0.35, L)[:, None]
                + rng.normal(0, 0.05, (L, M)), 0, 1)
    p[:2] = np.clip(rng.uniform(0.45, 0.55, M), 0, 1)  # two near-tied models: never sure
    board = leaderboard((rng.random((L, M, N)) < p[..., None]).astype(int), scope="questions")
    inf, budget = board.inference, 3 * L
    iu, ju = np.triu_indices(L, 1)
    geo = _geometry(board, iu, ju, _GREEDY_DRAWS + _PLAN_DRAWS, 0)
    df = inf.df[iu, ju]
    v = geo.trial_var  # both models given the whole budget: the largest cut of any split
    sure = _surely_kept(geo, geo.s2, df, (v[iu] + v[ju]) * budget / (N + budget))
    assert 0 < sure.sum() < iu.size - 1, sure
    assert not sure[0]  # the near-tied pair
    assert (inf.decided[iu, ju] | inf.decided[ju, iu])[sure].all()
    splits = [np.zeros(L), np.full(L, float(budget))] + [
        rng.multinomial(budget, np.ones(L) / L).astype(float) for _ in range(20)]
    splits += [budget * np.eye(L)[m] for m in range(L)]
    for e in splits:
        f = e / (N + e)
        c = v[iu] * f[iu] + v[ju] * f[ju]
        a = assurance(geo.gap, geo.s2_trial, np.maximum(geo.s2_trial - c, 1e-300), df,
                      geo.level, geo.g, average=False, s2_decide=np.maximum(geo.s2 - c, 1e-300))
        assert (a[:, sure] == 1.0).all(), e
    got = allocate_trials(board, budget, seed=0)
    gB = geo.g[_GREEDY_DRAWS:]
    for e, want in ((got.greedy, got.expected_greedy), (got.uniform, got.expected_uniform)):
        f = e / (N + e)
        c = v[iu] * f[iu] + v[ju] * f[ju]
        full = assurance(geo.gap, geo.s2_trial, np.maximum(geo.s2_trial - c, 1e-300), df,
                         geo.level, gB, s2_decide=np.maximum(geo.s2 - c, 1e-300)).sum()
        assert want == pytest.approx(full, abs=1e-9)


#: How far the split's expected count of decided pairs may run above the count left decided,
#: beyond a run's noise: it runs high by 0.09 ± 0.04 pairs on stylised 30/4 fields (1,000
#: fields; 0.25 when today's decisions were taken as certain), by -0.15 to +0.15 on runs of
#: 300 fields (s.e. 0.05-0.07, seeds 0-5).
_EXPECTED_HIGH = 0.1


@pytest.fixture(scope="module")
def questions_split():
    """One known-truth study of the budget split, read by two tests: stylised fields (6
    models, M = 30, N = 4, 18 extra trials, questions scope), 300 fields, each split
    realised 10 times (about 32 s alone on a 2-core CI machine: run once)."""
    return allocation_check(30, 4, scope="questions", spread="random", L=6, reps=300, seed=4,
                            realisations=10)


def test_recommended_split_does_not_lose_to_an_even_split():
    """Known truth, evenly spaced fields (where the old greedy split lost 1.4-1.8 pairs)."""
    r = allocation_check(30, 4, spread="even", L=6, reps=30, seed=2)
    print(r)
    assert r.chosen >= r.uniform - 3 * r.chosen_gain_se - 0.05, r
    assert r.chosen > r.before and r.wrong_chosen <= 0.2


def test_the_split_counts_decided_pairs_that_more_data_may_lose(questions_split):
    """Known truth, stylised fields (6 models, M = 30, N = 4, 18 extra trials): a pair
    decided by a lucky margin today may not be decided after more data, so the split scores
    every pair. Measured on 1,000 fields (seed 5): when today's decisions were taken as
    certain the expected decided pairs ran high, 2.44 against 2.19 ± 0.04 left (1.79 against
    1.46 on evenly spaced fields) and the recommended split gained +0.014 ± 0.011 pairs over
    the even one; scoring every pair, 2.35 against 2.26 ± 0.04 and +0.059 ± 0.017. A run of
    300 fields cannot tell 0.09 from 0.25 (s.e. 0.05): what it checks is that the expected
    count runs high by no more than measured (:data:`_EXPECTED_HIGH`); that decided pairs
    are scored at all is checked exactly by
    ``test_pairs_kept_whatever_the_split_are_decided_with_chance_exactly_one``."""
    r = questions_split
    print(r)
    assert r.decided >= r.expected - _EXPECTED_HIGH - 3 * r.decided_se, r
    assert r.chosen >= r.uniform - 3 * r.chosen_gain_se, r


def test_questions_split_asks_only_for_a_gain_beyond_its_noise(questions_split):
    """Known truth, stylised fields (6 models, M = 30, N = 4, 18 extra trials, questions
    scope), each split realised 10 times per field: the greedy split is recommended whenever
    it wins on held-out draws by two standard errors (and a gain that prints as non-zero).
    With the population scope's margin of 0.25 pairs it was recommended on 9 % of these
    fields and the recommended split gained +0.057 ± 0.015 pairs over the even one; without
    it, on 94 %, +0.187 ± 0.031, and it realised its claim (+0.125 claimed, +0.207 ± 0.033).
    Per-field study (docs/calibration_gaps.md, "the split's minimum gain"): the fields with
    a claim between two standard errors and 0.25 pairs realised at least their claim in every
    questions-scope cell measured, while in the population scope they lost (kept there)."""
    r = questions_split
    print(r)
    # seeds 0-5: recommended on 90-94 % of the fields (s.e. 0.016); with the population
    # scope's 0.25-pair margin, on 9 %
    assert r.greedy_share > 0.5, r
    # gained 0.14 to 0.19 over the even split (mean 0.17, s.e. 0.031 a run): 0.05 is 4 s.e.
    # below the mean (the former bound, 3 s.e. or 0.1, was 1.3 to 2.8 s.e. below)
    assert r.chosen - r.uniform > 0.05, r
    assert r.realised_gain >= r.claimed_gain - 3 * r.realised_gain_se, r


def test_split_minimum_gain_is_the_scope_s_on_the_bundled_run():
    """The bundled run (9 models x 100 questions x 100 trials) at the Planner's default
    budget L N = 900: one pair is open and the greedy split feeds its two models (+0.19
    pairs expected over an even split, s.e. below 0.01). The questions scope recommends it
    (an even split spends 700 of the 900 trials on models whose every pair is decided);
    the population scope keeps its 0.25-pair margin and says so."""
    d = _bundled_run()
    q = allocate_trials(leaderboard(d.R, scope="questions"), 900)
    assert q.chosen == "greedy" and q.note.startswith("greedy split"), q.note
    assert 0.1 < q.expected_greedy - q.expected_uniform < 0.25 and q.gain_se < 0.01
    assert (q.extra == q.greedy).all() and np.count_nonzero(q.extra) == 2
    p = allocate_trials(leaderboard(d.R, scope="population"), 900)
    assert p.chosen == "uniform" and (p.extra == p.uniform).all()
    assert 0 < p.expected_greedy - p.expected_uniform < 0.25
    assert "at least 0.25 pairs in the population scope" in p.note, p.note


def test_allocation_check_realisations_average_the_extra_trials_only():
    """More realisations redraw the extra trials, not the fields: the pairs decided before
    any extra trial are the same, and the counts become means over the realisations."""
    one = allocation_check(30, 4, L=4, reps=6, seed=9)
    four = allocation_check(30, 4, L=4, reps=6, seed=9, realisations=4)
    assert one.before == four.before and one.greedy_share == four.greedy_share
    assert (one.greedy, one.uniform) != (four.greedy, four.uniform)
    assert 4 * 6 * four.greedy == pytest.approx(round(4 * 6 * four.greedy))
    with pytest.raises(ValidationError, match="realisations"):
        allocation_check(30, 4, reps=1, realisations=0)


def test_population_split_reads_decided_pairs_with_the_pooled_spread():
    """Known truth, stylised evenly spaced fields (6 models, M = 100, N = 8, 18 extra
    trials, population scope): a decided pair's chance of staying decided reads the pooled
    question-to-question spread. Measured on 400 fields (seed 5): taking today's decisions as
    certain, the recommended split gained +0.027 ± 0.024 pairs over the even one and its
    expected counts ran high (2.80 against 2.72 ± 0.05 left); scoring them with the pooled
    spread, +0.167 ± 0.033 and 2.72 against 2.83 ± 0.04."""
    r = allocation_check(100, 8, scope="population", spread="even", L=6, reps=300, seed=5,
                         realisations=5)
    print(r)
    # each split realised 5 times (the extra trials' noise was half the s.e.): over seeds 0-5
    # the gain was 0.077 to 0.143 (mean 0.108, 3 s.e. of 0.021-0.027 above 0.035);
    # with today's decisions taken as certain, 0.007 and 0.024 (seeds 0, 5). The former
    # bound (400 fields, 3 s.e. or 0.08) failed on 3 seeds of 6.
    assert r.chosen - r.uniform > 0.035, r
    assert r.decided >= r.expected - 3 * r.decided_se, r  # 4.6 to 7.8 s.e. above


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_recommended_split_keeps_its_promise_on_a_real_run(scope):
    """Known truth from the bundled real run's shares (6-model sub-fields, M = 30, N = 4,
    18 extra trials per question), binary and graded: the recommended split decides at least
    as many pairs as the even split, and adds to today's decisions (measured on 1,500 fields:
    +0.22 ± 0.02 pairs over the even split in the questions scope, +0.054 ± 0.012 in the
    population; graded, 600 fields, population +0.055 ± 0.020)."""
    from scorio_core.plan_calibration import resample_allocation

    p = _bundled_run().R.mean(-1)
    r = resample_allocation(p, 30, 4, scope=scope, L=6, reps=40, seed=3)
    print(r)
    assert (r.spread, r.budget, r.reps) == ("table", 18, 40)
    assert r.chosen >= r.uniform - 3 * r.chosen_gain_se - 0.05, r
    # the split adds to today's decisions: by 1.15 to 1.5 pairs in the questions scope
    # (seeds 0-5), by 0.33 to 0.9 in the population scope (graded 0.15 to 0.63, seeds 0-11)
    assert (r.chosen > r.before if scope == "questions" else r.chosen >= r.before), r
    assert r.wrong_chosen <= 0.2
    # the pairs it was expected to leave decided are not more than it left (measured on 100
    # fields: questions 12.11 expected, 12.26 left; population 7.20, 7.54), as far as 40
    # fields tell (s.e. 0.1-0.2; seeds 0-5 ran -0.09 to +0.34)
    assert r.decided >= r.expected - _EXPECTED_HIGH - 3 * r.decided_se, r
    # graded outcomes: each trial the mean of two attempts (0, 0.5 or 1), the same expected
    # score p -- the extra trials are drawn per category and scored with the weights
    q = np.stack([(1 - p) ** 2, 2 * p * (1 - p), p**2], -1)
    g = resample_allocation(q, 30, 4, scope=scope, L=6, weights=[0, 0.5, 1], reps=40, seed=3)
    print(g)
    assert g.chosen >= g.uniform - 3 * g.chosen_gain_se - 0.05, g
    assert (g.chosen > g.before if scope == "questions" else g.chosen >= g.before), g
    assert g.wrong_chosen <= 0.2
    assert g.decided >= g.expected - _EXPECTED_HIGH - 3 * g.decided_se, g
    if scope == "questions":  # half the trial noise of a binary trial: more pairs decided
        # today, 0.98 to 1.9 more over seeds 0-5 (s.d. 0.33); in the population scope the
        # questions' spread dominates and it was 0.15 to 1.75 (s.d. 0.5)
        assert g.before > r.before, (g.before, r.before)
    with pytest.raises(ValidationError, match="weights"):
        resample_allocation(q, 30, 4, scope=scope, weights=[0, 1], reps=1)


def test_order_curve_agrees_with_the_simple_simulation():
    rng = np.random.default_rng(3)
    pu, pl = rng.uniform(0.3, 0.9, 12), rng.uniform(0.2, 0.8, 12)
    pl = pl - (pl.mean() - pu.mean() + 0.05)
    pl = np.clip(pl, 0, 1)
    ns = [1, 4, 16, 64]
    # two simulations of the same chances: at 16,000 each their difference has an s.e. of
    # at most 0.0056 (p = 0.5), so 0.02 is 3.6 s.e. (at 4,000 each, 0.03 was 2.7 s.e.: four
    # seeds measured differences up to 0.026)
    c = order_curve(pu, pl, ns, sims=16_000, seed=1)
    ref = decision.prob_correct_order(pu, pl, ns, n_sims=16_000, rng=2)
    np.testing.assert_allclose(c.p_correct, ref, atol=0.02)
    assert np.all(np.diff(c.p_correct) > 0) and np.all(np.diff(c.z_mean) > 0)
    # z grows like sqrt(N) (000 App. D): the mean simulated z at 64 vs 16 trials
    assert c.z_mean[3] / c.z_mean[2] == pytest.approx(2.0, rel=0.15)


def test_pair_curve_projection_matches_today_at_n():
    R = _table(1, L=2, M=30, N=8)
    c = pair_curve(R, 0, 1, [8, 32])
    b = leaderboard(R)
    z_now = (b.bayes_mu[0] - b.bayes_mu[1]) / np.hypot(b.bayes_sigma[0], b.bayes_sigma[1])
    assert c.z_projected[0] == pytest.approx(z_now, rel=1e-9)


def test_plan_default_budget_and_settings():
    R = _table(5, L=4, N=3)
    p = plan(R)
    assert p.settings["budget_trials"] == 4 * 3 and p.settings["assurance"] == 0.8
    assert int(p.allocation["extra_trials"].sum()) == 12
    assert "80% chance" in p.headline()
    with pytest.raises(Exception, match="assurance"):
        plan(R, assurance=1.0)


@pytest.mark.parametrize("fmt", ["text", "csv", "json"])
def test_cli_plan(capsys, data_dir, fmt):
    code = main(["plan", str(data_dir / "biased_coins.npz"), "--budget-trials", "22",
                 "--assurance", "0.9", "--format", fmt])
    out, err = capsys.readouterr()
    assert code == 0, err
    from scorio_core.io import load

    p = plan(load(data_dir / "biased_coins.npz"), budget_trials=22, assurance=0.9)
    if fmt == "json":
        payload = json.loads(out)
        assert payload["settings"]["budget_trials"] == 22
        assert payload["settings"]["assurance"] == 0.9
        assert sum(r["extra_trials"] for r in payload["allocation"]) == 22
        assert [r["better"] for r in payload["pairs"]] == p.pairs["better"].tolist()
        assert payload["split"]["chosen"] in ("greedy", "uniform")
    elif fmt == "csv":
        assert out.startswith("# ") and "# input.sha256: " in out  # provenance header
        got = pd.read_csv(io.StringIO(out), comment="#")
        assert got["better"].tolist() == p.pairs["better"].tolist()
        assert "questions_needed" in got and "p_unsettled" in got
    else:
        assert "undecided adjacent pair" in out and "90% chance" in out


def test_cli_plan_with_a_lead_that_matters(capsys, data_dir):
    code = main(["plan", str(data_dir / "biased_coins.npz"), "--lead", "0.05", "--format",
                 "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    payload = json.loads(out)
    assert payload["settings"]["lead"] == 0.05
    assert all({"trials_gap", "questions_gap", "trials_for_lead", "questions_for_lead"}
               <= set(r) for r in payload["pairs"])
    with pytest.raises(SystemExit):
        main(["plan", str(data_dir / "biased_coins.npz"), "--lead", "-1"])
    assert "lead must be at least 0; got -1" in capsys.readouterr().err


def test_cli_plan_rejects_a_bad_assurance(capsys, data_dir):
    with pytest.raises(SystemExit):
        main(["plan", str(data_dir / "biased_coins.npz"), "--assurance", "1.5"])
    assert "assurance must be at least 0.5 and below 1; got 1.5" in capsys.readouterr().err


def test_a_budget_that_buys_nothing_says_why():
    """Issue 24: the bundled data's budget split changed nothing and the page said nothing
    about why. Three reasons, each stated with the numbers that make it true."""
    rng = np.random.default_rng(0)  # five close models, 50 trials on 40 questions
    p = np.clip(np.linspace(0.6, 0.58, 5)[:, None] + rng.normal(0, 0.15, (5, 40)), 0.02, 0.98)
    R = (rng.random((5, 40, 50)) < p[..., None]).astype(int)
    small = plan(R, budget_trials=10)  # 2 more trials per model; the closest pair needs 100s
    a, why = small.split, small.budget_why()
    chosen = a.expected_greedy if a.chosen == "greedy" else a.expected_uniform
    assert chosen - a.decided_now < 0.5 and why.startswith("The budget changes almost nothing")
    need = small.pairs["trials_needed"].to_numpy(dtype=float)
    assert need.min() > 100  # why it buys nothing: what the page says
    assert f"all 4 undecided adjacent pairs need {need.min():,.0f} to {need.max():,.0f} " in why
    assert "N = 50 → 52 when split evenly, 55 at most if all of it went to one pair" in why
    assert "N = 50 → 50.2 when split evenly, 50.5 at most" in plan(R, budget_trials=1).budget_why()
    assert why in small.headline()
    # population scope: trials alone cannot settle a pair whose questions disagree
    spread = np.stack([np.r_[np.ones(20), np.zeros(20)], np.r_[np.zeros(20), np.ones(20)]])
    R2 = np.repeat(spread[:, :, None], 8, axis=2).astype(int)
    R2[:, :, :2] = 1 - R2[:, :, :2]  # some trial noise, same total for both models
    twins_pop = plan(R2, scope="population", budget_trials=50).budget_why()
    assert "cannot be settled by more trials (identical scores" in twins_pop
    R2[0, :6, 2] = 0  # a small lead: questions could settle it, trials cannot
    pop = plan(R2, scope="population", budget_trials=50)
    assert np.isfinite(pop.pairs["questions_needed"]).all()
    assert "cannot be settled by more trials (population scope" in pop.budget_why()
    one = plan(R2[:, :1], scope="population", budget_trials=50).budget_why()  # M = 1
    assert "questions_needed" not in one and "M = 1: the question-to-question spread" in one
    levels = np.stack([np.zeros((40, 8)), np.tile([0, 1], (40, 4)), np.ones((40, 8))])
    assert plan(levels.astype(int)).budget_why() == (
        "Nothing to spend it on: every pair is already decided.")
    twins = plan(np.stack([levels[1], levels[1]]).astype(int))
    assert twins.budget_why() == (
        "The budget changes almost nothing: the undecided pair cannot be settled by "
        "more trials (identical scores: no amount of data orders them).")
    big = plan(R, budget_trials=2_000)  # N = 50 -> 450: the closest pairs are in reach
    b, text = big.split, big.budget_why()
    after = b.expected_greedy if b.chosen == "greedy" else b.expected_uniform
    assert after - b.decided_now >= 0.5
    far = need[need > 50 + 1000]
    lead = f"Why not more pairs: {far.size} of the 4"
    assert text == "" if not far.size else text.startswith(lead)


def _same(a, b, where="board") -> None:
    """``a`` and ``b`` hold the same values, bit for bit: dataclasses field by field, arrays
    with NaN where NaN (and the same dtype), mappings and sequences item by item."""
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        assert type(a) is type(b), where
        for f in dataclasses.fields(a):
            _same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype, where
        assert np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"), where
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _same(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, list | tuple):
        assert type(a) is type(b) and len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{k}]")
    elif isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b, check_exact=True, obj=where)
    elif isinstance(a, float) and np.isnan(a):
        assert isinstance(b, float) and np.isnan(b), where
    else:
        assert a == b, where


def _bare_cases():
    """Tables and settings the calibration loops' boards come from, and a few they do not:
    binary and graded, both scopes, every adjustment, the greedy prior with Pass@k, N = 1
    (not identified), exact ties, a learned spread prior."""
    from scorio_core import Outcomes, fit_spread_prior

    rng = np.random.default_rng(11)
    binary = rng.binomial(1, rng.uniform(0.3, 0.8, (5, 1, 1)), (5, 30, 6))
    graded = rng.integers(0, 3, (4, 25, 5))
    greedy = Outcomes(binary[:4, :, :4], R0=binary[:4, :, 4:5], models=list("abcd"))
    tied = np.repeat(binary[:1], 3, 0)
    prior = fit_spread_prior([rng.binomial(1, rng.uniform(0.3, 0.8, (4, 1, 1)), (4, 30, 4))
                              for _ in range(6)])
    return {
        "binary, questions": (binary, {"draws": 4000, "seed": 3}),
        "binary, population, simultaneous": (binary, {"scope": "population",
                                                      "adjust": "simultaneous", "seed": 1}),
        "graded, population, bh": (graded, {"w": [0, 0.5, 1], "scope": "population",
                                            "adjust": "bh", "draws": 2000}),
        "greedy prior, Pass@k, none": (greedy, {"use_prior": True, "ks": (2, 4),
                                                "adjust": "none", "confidence": 0.9}),
        "one trial": (binary[..., :1], {"models": [f"m{i}" for i in range(5)]}),
        "exact ties": (tied, {"scope": "population"}),
        "spread prior": (binary, {"spread_prior": prior, "draws": 3000}),
    }


@pytest.mark.parametrize("case", list(_bare_cases()))
def test_the_calibration_loops_board_is_the_public_board_without_its_caveats(case):
    """The Planner's calibration loops build their boards with ``bare_leaderboard`` (the
    could-be-first set and the other caveats they never read are not computed): every number
    of it -- columns, statistics, decisions, draws, settings, notes -- is the public
    ``leaderboard``'s for the same call, bit for bit, and so is everything the Planner reads
    from it; only the caveats differ."""
    from scorio_core import plan_calibration

    data, kw = _bare_cases()[case]
    board, bare = leaderboard(data, **kw), bare_leaderboard(data, **kw)
    _same(board, bare)
    pd.testing.assert_frame_equal(board.table, bare.table, check_exact=True)
    assert board.caveats and bare.caveats == []  # what the loops skip
    if len(board.models) > 1 and board.identified:  # what the loops read from the board
        _same(pair_needs(board, pairs="all"), pair_needs(bare, pairs="all"), "pair_needs")
        _same(allocate_trials(board, budget=12, seed=2), allocate_trials(bare, budget=12,
                                                                        seed=2), "split")
    assert plan_calibration.bare_leaderboard is bare_leaderboard  # the loops' entry point
    with pytest.raises(TypeError, match="unexpected keyword argument 'k'"):  # its settings
        bare_leaderboard(data, k=2)


def test_assurance_check_draws_every_plan_up_to_the_planner_s_limits():
    """Every trial plan is drawn by default (a third of the plans at 15/8 ask for more than
    4,096 trials per question; they used to be skipped); question plans beyond 4,000
    questions are skipped unless ``max_questions`` is raised (most population plans at
    30/4), and with the Planner's own limit none is -- the same plans, the large ones among
    them. A limit beyond the Planner's is refused."""
    trials = assurance_check(15, 8, scope="questions", reps=8, seed=2, multiples=())
    capped = assurance_check(15, 8, scope="questions", reps=8, seed=2, multiples=(),
                             max_trials=4096)
    assert trials.skipped == 0 and capped.skipped > 0
    assert trials.planned == capped.planned + capped.skipped
    assert (trials.plans["n"] > 4096).sum() == capped.skipped
    base = assurance_check(30, 4, scope="population", reps=8, seed=2, multiples=())
    full = assurance_check(30, 4, scope="population", reps=8, seed=2, multiples=(),
                           max_questions=MAX_QUESTIONS)
    assert base.skipped > 0 and full.skipped == 0
    assert full.planned + full.q_planned == base.planned + base.q_planned + base.skipped
    assert (full.plans["n"] > 4000).sum() == base.skipped
    with pytest.raises(ValidationError, match="max_questions must be at most 1,000,000"):
        assurance_check(30, 4, scope="population", reps=1, max_questions=MAX_QUESTIONS + 1)
    with pytest.raises(ValidationError, match="max_trials must be at most"):
        assurance_check(30, 4, scope="population", reps=1, max_trials=MAX_TRIALS + 1)


_OLD_NAME_CALLS = {  # each planner call that once took assurance_level=, with its arguments
    "detectable_gaps": lambda b, **kw: detectable_gaps(b, ["model_0"], ["model_1"], [64], **kw),
    "gap_curve": lambda b, **kw: gap_curve(b, "model_0", "model_1", [16, 64], [60], **kw),
    "pair_needs": lambda b, **kw: pair_needs(b, pairs="all", **kw),
}


@pytest.mark.parametrize("name", sorted(_OLD_NAME_CALLS))
def test_the_old_assurance_keyword_is_an_alias_with_a_warning(name):
    R = (np.random.default_rng(0).random((3, 30, 4)) < [[[.6]], [[.5]], [[.45]]]).astype(int)
    call = _OLD_NAME_CALLS[name]
    b = leaderboard(R)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new name warns about nothing
        new = call(b, assurance=0.9)
    with pytest.warns(FutureWarning, match=rf"{name}\(assurance_level=\.\.\.\) is now "
                                           rf"{name}\(assurance=\.\.\.\)"):
        old = call(b, assurance_level=0.9)
    if isinstance(new, pd.DataFrame):
        pd.testing.assert_frame_equal(old, new)
    else:
        np.testing.assert_array_equal(old, new)
    other = call(b, assurance=0.6)  # the value is not ignored
    assert not (other.equals(new) if isinstance(new, pd.DataFrame)
                else np.array_equal(other, new, equal_nan=True))
    with pytest.raises(TypeError, match="both assurance= and its old name assurance_level="):
        call(b, assurance=0.9, assurance_level=0.9)


def test_plan_takes_the_old_keyword_through_the_same_alias():
    R = (np.random.default_rng(0).random((3, 30, 4)) < [[[.6]], [[.5]], [[.45]]]).astype(int)
    with pytest.warns(FutureWarning, match=r"plan\(assurance_level=\.\.\.\) is now"):
        old = plan(R, assurance_level=0.9)
    pd.testing.assert_frame_equal(old.pairs, plan(R, assurance=0.9).pairs)
    with pytest.raises(TypeError, match="both assurance= and its old name"):
        plan(R, assurance=0.8, assurance_level=0.9)  # the default's value, named, still clashes


def test_a_recommended_population_split_says_how_often_such_claims_came_true():
    """Population scope, a field where the greedy split wins by its margin (stylised, 6
    evenly spaced models, 100 questions x 8 trials, 18 extra trials): its claimed gain reads
    the field's posterior, which runs high there (README, Known gaps 3), so the note gives
    the measured share beside the number; the questions scope's claims came true and say
    nothing of the kind."""
    from scorio_core import plan_calibration as pc
    from scorio_core.planner import POPULATION_SPLIT_REALISED

    rng = np.random.default_rng([4, 0])
    _, p = pc._field(rng, 6, 100, "even")
    R = pc._R(pc._trials(rng, p, 8), 8)
    pop = allocate_trials(leaderboard(R, scope="population", seed=0), 18)
    assert pop.chosen == "greedy", pop.note
    assert f"such claims came true {POPULATION_SPLIT_REALISED} of the time" in pop.note
    assert "upper figure" in pop.note
    q = allocate_trials(leaderboard(R, scope="questions", seed=0), 18)
    assert "came true" not in q.note and "upper figure" not in q.note


def test_a_population_trial_plan_says_how_often_such_plans_came_true():
    """Population scope, a field with a finite trial plan (stylised, 5 models, 100
    questions x 8 trials; such plans are rare): its row quotes the measured share (README
    Known gaps 2) and points to trials_gap; the rows planned by questions alone do not."""
    from scorio_core import plan_calibration as pc
    from scorio_core.planner import POPULATION_TRIALS_REALISED

    rng = np.random.default_rng([5, 27])
    _, p = pc._field(rng, 5, 100, "random")
    pairs = pair_needs(leaderboard(pc._R(pc._trials(rng, p, 8), 8), scope="population", seed=0))
    by_trials = np.isfinite(pairs["trials_needed"]).to_numpy()
    assert by_trials.any()
    said = f"trial plans decided {POPULATION_TRIALS_REALISED} of the time"
    assert all(said in n and "trials_gap" in n for n in pairs["note"][by_trials])
    assert not any(said in n for n in pairs["note"][~by_trials])


def _one_trial_pair():
    """The audit's one-trial upload, rebuilt: two models, 24 questions, one trial each (16 vs
    6 correct). The questions scope decides nothing at N = 1; the population scope decides
    the pair (t = 3.1) and the papers' rule reads 'met now'."""
    a = np.array([1] * 16 + [0] * 8)
    b = np.array([1] * 4 + [0] * 12 + [1] * 2 + [0] * 6)
    return np.stack([a, b])[..., None]


def test_the_smallest_lead_solves_the_plans_law_and_is_never_a_clamped_zero():
    """_detectable by hand. The future estimate is N(ĝ(1 − κ) + κ g, sd²), decided at |·| ≥ c.
    ĝ = 0.1, κ = 0.5, sd = 0.1, c = 0.2: the chance reaches 0.8 at m* = c + sd Φ⁻¹(0.8)
    (the far tail is 6e-7), so δ = (m* − ĝ (1 − κ)) / κ = 0.46832. ĝ = 1: today's gap alone,
    halved, gives m = 0.5 -- decided with chance Φ(3) whatever the true lead, a tie included,
    so no lead is the smallest one: NaN (it read 0, "any lead"). κ = 0: no lead moves it."""
    from scipy.stats import norm

    from scorio_core.planner import _detectable

    d = _detectable(np.array([1.0, 0.1, 0.1]), np.array([0.5, 0.5, 0.0]), np.full(3, 0.1),
                    np.full(3, 0.2), 0.8)
    assert np.isnan(d[0]) and np.isinf(d[2])
    assert d[1] == pytest.approx((0.2 + 0.1 * norm.ppf(0.8) - 0.05) / 0.5, abs=1e-6)


@pytest.mark.parametrize("scope", ["questions", "population"])
def test_a_plan_that_todays_data_decide_states_no_smallest_lead(scope):
    """The audit's one-trial table printed questions_gap 0.0000 beside questions_needed 25,
    and the gap curve 0 at 34 and 48 questions, then rising. That 0 was the clamp
    max(δ, 0): with 24 questions showing a 0.42 lead, a question plan this small decides the
    pair whatever the truth -- at a true tie, and with the order reversed by 0.05, the chance
    is ≈ 1 -- so the promise "decides any true lead" was false (a tie cannot be decided
    correctly). Such a plan states no lead (NaN) and its row says why; the plan sizes are
    what they were; where a lead is stated, the plan's chance at it is the target."""
    board = leaderboard(_one_trial_pair(), models=["a", "b"], scope=scope)
    row = pair_needs(board, pairs="all").iloc[0]
    assert row["questions_needed"] == 25 and np.isnan(row["questions_gap"])
    assert "already meet the question plans' rule" in row["note"]
    assert "no questions_gap: it would decide a tie as often" in row["note"]
    tie = decision_chance(board, ["a"] * 2, ["b"] * 2, [25] * 2, [0.0, -0.05], "questions")
    assert (tie > 0.99).all(), tie
    sizes = [25, 34, 48, 96, 384]
    g = gap_curve(board, "a", "b", (), sizes)["smallest_lead"].to_numpy()
    assert not (g == 0).any(), g
    at_tie = decision_chance(board, ["a"] * 5, ["b"] * 5, sizes, [0.0] * 5, "questions")
    assert (np.isnan(g) == (at_tie >= 0.8)).all(), (g, at_tie)
    ok = np.isfinite(g)
    assert np.isnan(g[0]) and ok.any() and (g[ok] > 0).all()
    at = decision_chance(board, ["a"] * ok.sum(), ["b"] * ok.sum(), np.array(sizes)[ok], g[ok],
                         "questions")
    assert np.allclose(at, 0.8, atol=1e-6), at


def test_one_trial_rows_say_what_met_now_is_and_what_can_be_planned():
    """N = 1, questions scope: the row showed trials_needed_papers 'met now' beside the note
    "trials cannot be planned ...; or add questions" -- trials that suffice and trials that
    cannot be planned, side by side. The note now says the scope decides no pair, that 'met
    now' is the papers' rule on Bayes@N (whose prior stands in for the unseen trial noise),
    and, as today's questions already meet the question plans' rule, points to the
    population scope rather than to more questions; the budget's sentence quotes only why
    trials cannot settle it."""
    board = leaderboard(_one_trial_pair(), models=["a", "b"])
    row = pair_needs(board).iloc[0]
    assert row["trials_needed_papers"] <= 1 and np.isnan(row["trials_needed"])
    note = row["note"]
    assert note.startswith("N = 1: trial noise is not seen, so trials cannot be planned and "
                           "this scope decides no pair; ")
    assert "'met now' in trials_needed_papers reads the papers' Bayes@N, whose uniform" in note
    assert note.endswith("or read the population scope") and "add questions" not in note
    planned = plan(_one_trial_pair())
    # its question plan (25) only keeps the pair decided: the gap curve's grid runs to 16 M,
    # past the plans today's data decide, not to 4 M
    assert curve_settings(planned).m_values[-1] == 16 * 24
    why = planned.budget_why()
    assert why.endswith("cannot be settled by more trials (N = 1: trial noise is not seen, so "
                        "trials cannot be planned and this scope decides no pair).")


def _reasoning_rubric():
    """The bundled reasoning run scored by a weighted categorical rubric (weights 0, −0.1,
    0.05, 1): its first 8 models on the first benchmark's 30 questions."""
    from pathlib import Path

    from scorio_core import io as sio
    from scorio_core.rubric import apply, get_preset

    d = apply(get_preset("ranking/conservative"),
              sio.load(Path(__file__).resolve().parents[1] / "data" / "reasoning_synthetic.npz"))
    return d.R[:8, :30], d.weights


@pytest.mark.parametrize("N", [1, 2, 4])
@pytest.mark.parametrize("scope", ["questions", "population"])
def test_every_pairs_row_says_what_its_empty_or_met_cells_mean(data_dir, scope, N):
    """Binary coins and a weighted categorical rubric at N = 1, 2, 4: no stated gap is 0 (a
    tie is never decided); a 'met now' papers' rule has its line in the row's note; a
    finite plan with no stated gap says why (today's data decide it whatever the lead); at
    N = 1 every row opens with why trials cannot be planned."""
    from scorio_core import io as sio

    coins = sio.load(data_dir / "biased_coins.npz")
    R, w = _reasoning_rubric()
    seen = 0
    for table, weights in ((coins.R[..., :N], None), (R[..., :N], w)):
        t = pair_needs(leaderboard(table, w=weights, scope=scope, draws=2000))
        notes = t["note"]
        for kind in ("trials", "questions"):
            gap = t[f"{kind}_gap"].to_numpy(dtype=float)
            assert not (gap == 0).any(), t
            carried = np.isfinite(t[f"{kind}_needed"].to_numpy(dtype=float)) & np.isnan(gap)
            assert notes[carried].str.contains(f"no {kind}_gap: it would decide a tie").all()
        met = (t["trials_needed_papers"] <= N).to_numpy()
        assert notes[met].str.contains("'met now'").all(), t[met]
        seen += int(met.sum())
        if N == 1:
            assert (notes.str.startswith("N = 1: trial noise is not seen")
                    | notes.str.startswith("identical")).all()
    if scope == "population" and N > 1:
        assert seen  # the rubric's field has such pairs there (measured: 1 at N = 2, 2 at 4)


def _near_tie(seed: int = 0, lead: int = 2) -> np.ndarray:
    """Three models, 40 questions x 5 trials; model_1 leads model_2 by ``lead`` of their 200
    trials (a gap of 0.01 at t near 0.2, as the audit's graded run)."""
    rng = np.random.default_rng(seed)
    R = (rng.random((3, 40, 5)) < np.array([.8, .5, .5])[:, None, None]).astype(int)
    flat = R[1].reshape(-1)
    d = int(R[1].sum() - R[2].sum()) - lead
    flat[np.flatnonzero(flat == (1 if d > 0 else 0))[:abs(d)]] = 0 if d > 0 else 1
    return R


def test_an_80_percent_plan_below_the_papers_50_percent_point_says_why(capsys, tmp_path):
    """trials_needed 319 sat beside trials_needed_papers 638, explained only deep in a
    caveat: the row's note now says why -- the papers' rule plugs in today's gap, the plan
    averages over the lead's posterior -- with the chance it quotes for today's gap being
    the plan's own law (decision_chance), below the target."""
    from scorio_core import Outcomes
    from scorio_core import io as sio

    board = leaderboard(_near_tie())
    t = pair_needs(board)
    r = t.iloc[0]
    assert (r.better, r.next, r.gap) == ("model_1", "model_2", pytest.approx(0.01))
    assert r.trials_needed < r.trials_needed_papers and r.trials_gap > r.gap  # the puzzle
    at_gap = decision_chance(board, [r.better], [r.next], [int(r.trials_needed)], r.gap)[0]
    assert at_gap < 0.8
    assert r.note.startswith(f"trials_needed is below the papers' {int(r.trials_needed_papers)} "
                             "although it aims for an 80% chance (theirs is a 50% point)")
    assert "their rule takes today's gap 0.0100 as the true lead" in r.note
    assert f"on leads of at least trials_gap {r.trials_gap:.4f}, which " \
           f"{int(r.trials_needed)} trials decide" in r.note
    assert f"would be decided only {share_percent(at_gap)} of the time" in r.note
    # a plan above the papers' point says nothing of the kind
    far = pair_needs(leaderboard((np.random.default_rng(2).random((3, 40, 5))
                                  < np.array([.75, .5, .5])[:, None, None]).astype(int)))
    assert (far["trials_needed"] > far["trials_needed_papers"]).all()
    assert not far["note"].str.contains("below the papers'").any()
    # the CLI's table for people says it under the pairs table, naming the pair
    path = tmp_path / "near.npz"
    sio.save_npz(Outcomes(_near_tie()), path)
    assert main(["plan", str(path), "--sims", "200", "--format", "table"]) == 0
    out = capsys.readouterr().out
    assert "model_1 vs model_2: trials_needed is below the papers'" in out


@pytest.mark.parametrize("bad", [[1.5], [4, 2.5], [0], [float("nan")], [True], []])
def test_order_curve_refuses_trial_counts_that_are_not_whole(bad):
    """n_values are trials per question: 1.5 had been simulated as 1 without a word (and
    True as 1); a whole float such as 4.0 is still 4."""
    with pytest.raises(ValidationError, match="n_values must be whole numbers >= 1"):
        order_curve([0.7] * 4, [0.6] * 4, bad, sims=20)
    assert order_curve([0.7] * 4, [0.6] * 4, [4.0], sims=20, seed=3).p_correct.tolist() == \
        order_curve([0.7] * 4, [0.6] * 4, [4], sims=20, seed=3).p_correct.tolist()


def test_order_curve_marks_p_correct_a_share_of_its_simulated_tables():
    """The papers' P(correct order) of a pair ordered right in all 200 simulated tables read
    ``1.000`` in the Planner chart's tooltip (a d3 ``.3f``): the curve keeps its number of
    tables, its frame marks the column a share of them, and the tooltip shows the table's
    cell -- ``>0.995``, one table's share, in p_correct's three decimals (as the
    Simulator's); the analytic chance of a decision keeps the rule for a probability (never
    a certain ``1.0000`` below 1)."""
    from scorio_core.charts import order_curve_chart
    from scorio_core.formatting import DRAWS_ATTR, format_frame

    c = order_curve([0.95] * 5, [0.05] * 5, [1, 4], sims=200, seed=0)
    assert c.sims == 200 and c.p_correct.tolist() == [1.0, 1.0]
    frame = c.frame()
    assert frame.attrs[DRAWS_ATTR] == {"p_correct": 200}
    assert format_frame(frame)["p_correct"].tolist() == [">0.995", ">0.995"]
    c = dataclasses.replace(c, p_decided=np.array([0.5, 1 - 1e-7]))
    spec = order_curve_chart(c, 1.645).to_dict()
    (rows,) = [v for v in spec["datasets"].values() if v and "text" in v[0]]
    texts = {(r["curve"], r["N"]): r["text"] for r in rows}
    assert texts[("correct order (papers)", 4)] == ">0.995"  # p_correct's 3 decimals
    assert texts[("decided (ours)", 1)] == "0.5000"
    assert texts[("decided (ours)", 4)] == ">0.9999"
    # pair_curve keeps the number of tables of the curve it projects
    R = (np.random.default_rng(0).random((2, 20, 4)) < [[[.9]], [[.1]]]).astype(int)
    assert pair_curve(R, 0, 1, [4], sims=300).sims == 300


def test_a_plan_says_when_the_field_shrinks_a_clear_lead():
    """One model far below five near-tied ones: the field's posterior pulls its clear lead
    (t about 2.8) back towards the group, so questions_needed is several times a plan for
    today's gap (a newcomer read 668 questions against a textbook 80). The note says so with
    the draws' own median and lower quartile -- and only where |t| >= 1.96 and the median is
    below 0.8 of today's gap."""
    from scorio_core.planner import _CLEAR_T, SHRUNK_SHARE, _geometry

    rng = np.random.default_rng(7)  # the audit's table: 12 questions always solved, 10 never
    skill = np.array([0.62, 0.60, 0.55, 0.50, 0.45, 0.30])
    logit = np.r_[np.full(12, 5.0), np.full(10, -5.0), rng.normal(0, 1.2, 18)]
    R = np.zeros((6, 40, 3), dtype=int)
    for i, j, t in np.ndindex(R.shape):
        z = logit[j] + 4 * (skill[i] - 0.5)
        p = 1.0 if j < 12 else 0.0 if j < 22 else 1 / (1 + np.exp(-z))
        R[i, j, t] = rng.random() < p
        if not R[i, j, t]:
            rng.random()  # the audit's graded variant drew here
    board = leaderboard(R, scope="population")
    pairs = pair_needs(board)
    order = board.table_order()
    index = {str(m): k for k, m in enumerate(board.models)}
    said = 0
    for _, row in pairs.iterrows():
        i, j = index[row["better"]], index[row["next"]]
        geo = _geometry(board, np.array([i]), np.array([j]))
        lead = np.sign(geo.gap[0]) * geo.g_pop[:, 0]
        expect = (abs(row["t"]) >= _CLEAR_T and np.isfinite(row["questions_needed"])
                  and np.isinf(row["trials_needed"])
                  and np.median(lead) < SHRUNK_SHARE * abs(row["gap"]))
        assert ("averages over the field's model" in row["note"]) == expect, row["note"]
        if expect:
            said += 1
            said_median = f"median {np.median(lead):.4f} against today's {abs(row['gap']):.4f}"
            assert said_median in row["note"]
            assert f"below {np.quantile(lead, 0.25):.4f}" in row["note"]
    assert said == 1 and order.size == 6  # the pair of the model apart, E over F


def test_a_budget_is_a_whole_number_of_trials_as_declared():
    """``sc.plan(d, budget_trials=10.5)`` planned 10 in silence while ``top="5.5"`` is refused
    (audit 4, finding 10): the budget is checked against its declaration -- a whole number,
    ``10.0`` read as 10 -- as ``lead`` and ``assurance`` are."""
    R = np.random.default_rng(4).integers(0, 2, (3, 20, 4))
    with pytest.raises(ValidationError, match=r"budget_trials must be a whole number; got 10\.5"):
        plan(R, budget_trials=10.5, draws=200)
    with pytest.raises(ValidationError, match="budget_trials must be between 0 and 1,000,000; "
                                              "got -4"):
        plan(R, budget_trials=-4, draws=200)
    whole = plan(R, budget_trials=10.0, draws=200)
    assert whole.settings["budget_trials"] == 10 and int(whole.allocation["extra_trials"].sum()) \
        == 10


def test_an_exact_graded_tie_is_identical_scores_with_a_gap_of_zero():
    """The audit: the Planner said "identical scores" of a graded pair whose gap the board
    printed as <0.0001 (1.1e-16): "identical" read a tolerance, the board the noise. The
    board's means are exact now (``eval.count_mean``): the pair's gap is 0 and "identical
    scores" is said where, and only where, the scores are equal."""
    from scorio_core import Outcomes
    from scorio_core.planner import plan

    R = np.array([[[2, 0, 0], [2, 0, 0], [2, 0, 2], [2, 0, 1], [0, 1, 1]],
                  [[2, 2, 0], [0, 2, 0], [0, 1, 0], [2, 2, 0], [1, 1, 0]],
                  [[0, 0, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 0, 0]]])
    pairs = plan(Outcomes(R, weights=[0, 0.5, 1], models=["a", "b", "c"]), draws=300).pairs
    tie = pairs.iloc[0]
    assert (tie["better"], tie["next"], tie["gap"], tie["t"]) == ("a", "b", 0.0, 0.0)
    assert tie["note"] == "identical scores: no amount of data orders them"
    assert np.isinf(tie["trials_needed_papers"])
    assert not pairs["note"].iloc[1:].str.startswith("identical").any()
