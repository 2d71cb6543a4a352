"""Check a smaller run (``scorio_core.smaller_run``): the stand-in truth, the category tables
of the resampling checks, known truths, refusals and the off-target rule."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core import Outcomes, ValidationError
from scorio_core import calibration as cal
from scorio_core.smaller_run import (
    _SPLIT_COLUMNS,
    SmallerRunCheck,
    check_smaller_run,
    default_trials,
    stand_in_truth,
)


def _run_from(p: np.ndarray, N: int, seed: int) -> Outcomes:
    """A binary run of ``N`` trials per question from known probabilities ``p`` (L, M)."""
    rng = np.random.default_rng(seed)
    return Outcomes((rng.random((*p.shape, N)) < p[..., None]).astype(int))


def _categorical_run(q: np.ndarray, N: int, seed: int, weights=(0.0, 0.5, 1.0)) -> Outcomes:
    """A run of three categories from known category probabilities ``q`` (L, M, 3)."""
    rng = np.random.default_rng(seed)
    u = rng.random((*q.shape[:2], N))
    R = (u[..., None] > np.cumsum(q, -1)[..., None, :-1]).sum(-1)
    return Outcomes(R, weights=list(weights), category_names=["wrong", "partial", "right"])


def test_stand_in_truth_is_each_models_share_per_question():
    R = np.array([[[0, 1, 1, 1], [0, 0, 0, 1]], [[1, 1, 1, 1], [0, 0, 0, 0]]])
    p, w = stand_in_truth(Outcomes(R))
    assert p.tolist() == [[0.75, 0.25], [1.0, 0.0]] and w.tolist() == [0.0, 1.0]
    cat = Outcomes(np.array([[[0, 1, 2, 2], [2, 2, 2, 2]]]), weights=[0, 0.5, 1],
                   category_names=["w", "p", "r"])
    p, w = stand_in_truth(cat)
    assert p.shape == (1, 2, 3) and w.tolist() == [0.0, 0.5, 1.0]
    assert p[0, 0].tolist() == [0.25, 0.25, 0.5] and p[0, 1].tolist() == [0.0, 0.0, 1.0]
    assert [default_trials(Outcomes(np.zeros((2, 3, n), int))) for n in (100, 16, 8, 5)] == \
        [4, 4, 2, 1]


def test_category_tables_cover_their_weighted_truth():
    # three categories weighted (0, 0.5, 1); the truth of a model is the mean over questions
    # of q·w; a model 0.25 ahead in expected score is decided above the others
    rng = np.random.default_rng(11)
    base = rng.dirichlet([0.5, 0.3, 0.5], 200)
    ahead = base @ np.array([[0.5, 0, 0], [0.5, 0.5, 0], [0, 0.5, 1]]).T  # mass moved up
    q = np.stack([ahead, base, base, base])
    w = [0.0, 0.5, 1.0]
    for scope in ("questions", "population"):
        r = cal.resample_check(q, 60, 4, scope=scope, weights=w, reps=150, seed=2)
        assert 0.88 <= r.coverage <= 1.0, (scope, r.coverage)
        assert r.false_decisions <= 0.10 and r.power > 0.3, (scope, r)
    top = cal.resample_p_best(q, 60, 4, scope="population", weights=w, reps=60, draws=1000)
    assert top.table.iloc[-1]["observed"] == 1.0  # model 0 is first in every field
    with pytest.raises(ValidationError, match="3 finite category weights"):
        cal.resample_check(q, 30, 4, scope="population", weights=[0, 1])
    with pytest.raises(ValidationError, match="sum to 1"):
        cal.resample_check(q * 0.9, 30, 4, scope="population", weights=w)


def test_a_binary_table_weighted_0_1_draws_the_binary_studies_streams():
    # the weights argument must not change the numbers published for binary tables
    rng = np.random.default_rng(3)
    p = np.clip(rng.beta(0.6, 0.6, (1, 80)) + np.array([[0.0], [0.1], [0.2]]), 0, 1)
    a = cal.resample_check(p, 30, 4, scope="population", reps=20)
    b = cal.resample_check(p, 30, 4, scope="population", reps=20, weights=[0.0, 1.0])
    assert a == b


def test_the_check_is_the_resampling_calls_on_the_runs_shares():
    rng = np.random.default_rng(7)
    p = np.clip(rng.beta(0.6, 0.6, (1, 50)) + np.array([[0.0], [0.05], [0.2]]), 0, 1)
    run = _run_from(p, 32, 1)
    check = check_smaller_run(run, 4, questions=20, reps=30, draws=1000, seed=5)
    shares, w = stand_in_truth(run)
    names = [str(m) for m in run.models]
    for scope in ("questions", "population"):
        want = cal.resample_check(shares, 20, 4, scope=scope, models=names, weights=w, reps=30,
                                  draws=1000, seed=5)
        assert check.checks[scope] == want
        got = check.p_best[check.p_best["scope"] == scope].drop(columns="scope")
        pb = cal.resample_p_best(shares, 20, 4, L=3, scope=scope, weights=w, reps=30,
                                 draws=1000, seed=5, min_count=20)
        pd.testing.assert_frame_equal(got.reset_index(drop=True), pb.table)
    row = check.intervals.set_index("scope").loc["population"]
    assert row["coverage"] == check.checks["population"].coverage
    assert (row["band_lo"], row["band_hi"]) == cal.target_band(20)
    assert (check.M, check.N, check.L, check.source_N) == (20, 4, 3, 32)


@pytest.mark.parametrize("kind", ["binary", "categorical"])
def test_the_check_holds_on_runs_of_known_truth(kind):
    # a run of 64 trials per question from known probabilities: smaller runs of 4 trials
    # drawn from its shares keep the calibrated coverage and the stated error rate
    rng = np.random.default_rng(21)
    if kind == "binary":
        p = np.clip(rng.beta(0.6, 0.6, (1, 80)) + np.array([[0.0], [0.04], [0.1], [0.3]]), 0, 1)
        run = _run_from(p, 64, 2)
    else:
        q = rng.dirichlet([0.6, 0.4, 0.6], (4, 80))
        run = _categorical_run(q, 64, 2)
    check = check_smaller_run(run, 4, reps=150, draws=1000, seed=1)
    for scope, row in check.intervals.set_index("scope").iterrows():
        assert 0.88 <= row["coverage"] <= 1.0, (scope, row["coverage"])
        assert row["wrong_way"] <= 0.10, (scope, row["wrong_way"])
    assert check.p_best.groupby("scope")["count"].sum().tolist() == [150 * 4] * 2


def test_the_planner_check_draws_every_question_plan_when_asked():
    """max_questions reaches the Planner check: by default question plans beyond 4,000
    questions are skipped (counted); with the Planner's own limit none is, and the rows are
    resample_assurance's with the same limit."""
    from scorio_core.estimands import MAX_QUESTIONS
    from scorio_core.plan_calibration import resample_assurance

    rng = np.random.default_rng(8)
    p = np.clip(rng.beta(0.6, 0.6, (1, 60)) + np.array([[0.0], [0.06], [0.12]]), 0, 1)
    run = _run_from(p, 40, 3)
    base = check_smaller_run(run, 4, questions=30, reps=10, plan_reps=6, draws=500, seed=4)
    full = check_smaller_run(run, 4, questions=30, reps=10, plan_reps=6, draws=500, seed=4,
                             max_questions=MAX_QUESTIONS)
    b, f = (c.plans.set_index("scope").loc["population"] for c in (base, full))
    assert b["skipped"] > 0 and f["skipped"] == 0
    assert f["question_plans"] == b["question_plans"] + b["skipped"]
    shares, _ = stand_in_truth(run)
    want = resample_assurance(shares, 30, 4, scope="population", reps=6, seed=4,
                              max_questions=MAX_QUESTIONS)
    assert (f["question_plans"], f["questions_decided"]) == (want.q_planned, want.q_realised)


def test_the_check_reads_a_spread_prior_learned_from_other_smaller_runs():
    """spread_history reaches p_best: the check's reliability rows are resample_p_best's
    with the same history, they differ from the flat prior's, and the intervals do not."""
    from scorio_core.calibration import resample_p_best
    from scorio_core.params import CheckParams

    rng = np.random.default_rng(8)
    p = np.clip(rng.beta(0.6, 0.6, (1, 60)) + np.array([[0.0], [0.03], [0.06]]), 0, 1)
    run = _run_from(p, 40, 3)
    flat = check_smaller_run(run, 4, questions=20, reps=30, draws=500, seed=2)
    learned = check_smaller_run(run, 4, questions=20, reps=30, draws=500, seed=2,
                                spread_history=5)
    pd.testing.assert_frame_equal(flat.intervals, learned.intervals)
    assert not flat.p_best.equals(learned.p_best)
    shares, w = stand_in_truth(run)
    want = resample_p_best(shares, 20, 4, L=3, scope="population", weights=w, reps=30,
                           bins=5, draws=500, seed=2, history=5)
    got = learned.p_best[learned.p_best["scope"] == "population"]
    np.testing.assert_allclose(got["predicted"].fillna(-1), want.table["predicted"].fillna(-1))
    assert learned.spread_history == 5 and "spread prior learned from 5" in learned.caption()
    with pytest.raises(ValidationError, match="spread_history must be 0"):
        CheckParams(spread_history=3)


def test_the_planner_check_is_the_resampled_assurance_check():
    from scorio_core.plan_calibration import resample_allocation, resample_assurance

    rng = np.random.default_rng(8)
    p = np.clip(rng.beta(0.6, 0.6, (1, 60)) + np.array([[0.0], [0.06], [0.12]]), 0, 1)
    run = _run_from(p, 40, 3)
    check = check_smaller_run(run, 4, questions=30, reps=10, plan_reps=6, assurance=0.9,
                              draws=500, seed=4)
    assert list(check.plans["scope"]) == ["questions", "population"]
    shares, _ = stand_in_truth(run)
    for scope, row in check.plans.set_index("scope").iterrows():
        want = resample_assurance(shares, 30, 4, scope=scope, reps=6, assurance=0.9, seed=4)
        assert (row["trial_plans"], row["question_plans"], row["skipped"]) == (
            want.planned, want.q_planned, want.skipped)
        np.testing.assert_array_equal([row["trials_decided"], row["questions_decided"]],
                                      [want.realised, want.q_realised])
        held = want.plans[want.plans["true_gap"] >= want.plans["gap_stated"]]
        assert row["gap_plans"] == len(held)
        assert row["gap_plans"] == 0 or row["gap_decided"] == held["decided"].mean()
        assert row["assurance"] == 0.9
    assert check.plans.loc[0, "question_plans"] == 0  # questions scope: trials only
    # the budget split: the resampled allocation study on the same shares, 3 L trials
    assert list(check.split["scope"]) == ["questions", "population"]
    for scope, row in check.split.set_index("scope").iterrows():
        want = resample_allocation(shares, 30, 4, scope=scope, reps=6, seed=4)
        assert (row["budget"], row["runs"]) == (9, 6)
        np.testing.assert_array_equal(
            row[["greedy_share", "gain_over_even", "expected", "decided", "wrong_way"]]
            .to_numpy(float), [want.greedy_share, want.chosen - want.uniform, want.expected,
                               want.decided, want.wrong_chosen])
    plain = check_smaller_run(run, 4, questions=30, reps=10, draws=500)
    assert plain.plans.empty and plain.split.empty
    # weighted categories: the plans are drawn from the category shares, scored with the
    # run's weights (the same study as resample_assurance on them)
    cat = _categorical_run(rng.dirichlet([1, 1, 1], (3, 20)), 16, 0)
    got = check_smaller_run(cat, 4, reps=10, plan_reps=5, seed=2).plans.set_index("scope")
    p, w = stand_in_truth(cat)
    want = resample_assurance(p, 20, 4, scope="population", weights=w, reps=5, seed=2)
    assert got.loc["population", "question_plans"] == want.q_planned
    np.testing.assert_array_equal(got.loc["population", "questions_decided"], want.q_realised)


def test_refusals_say_what_was_expected():
    run = _run_from(np.full((3, 10), 0.5), 16, 0)
    with pytest.raises(ValidationError, match=r"trials: at most 4 \(1/4 of this run's 16"):
        check_smaller_run(run, 8)
    with pytest.raises(ValidationError, match="at least 4 trials per question"):
        check_smaller_run(_run_from(np.full((3, 10), 0.5), 3, 0))
    with pytest.raises(ValidationError, match="models: at most the run's 3"):
        check_smaller_run(run, 2, models=4)
    with pytest.raises(ValidationError, match="adjust"):
        check_smaller_run(run, 2, adjust="bonferroni-ish")
    with pytest.raises(ValidationError, match="at least 2 models"):
        check_smaller_run(_run_from(np.full((1, 10), 0.5), 16, 0))


def _fabricated(coverage, se, wrong, predicted, observed, count, plans=(0, np.nan), reps=200,
               first=0.99, gaps=(0, np.nan), split=None) -> SmallerRunCheck:
    intervals = pd.DataFrame([{"scope": "population", "coverage": coverage, "coverage_se": se,
                               "band_lo": 0.93, "band_hi": 0.97, "wrong_way": wrong,
                               "first_coverage": first, "first_set_size": 2.0}])
    p_best = pd.DataFrame([{"scope": "population", "bin": "0.8–1.0", "count": count,
                            "predicted": predicted, "observed": observed,
                            "se": np.sqrt(observed * (1 - observed) / count)}])
    n, share = plans
    table = pd.DataFrame([{"scope": "population", "trial_plans": 0, "trials_decided": np.nan,
                           "trials_se": np.nan, "question_plans": n, "questions_decided": share,
                           "questions_se": np.sqrt(share * (1 - share) / max(n, 1)),
                           "gap_plans": gaps[0], "gap_decided": gaps[1], "gap_se": np.nan,
                           "assurance": 0.8, "skipped": 0}])
    split = pd.DataFrame(columns=list(_SPLIT_COLUMNS)) if split is None else pd.DataFrame([
        dict(zip(("gain_over_even", "gain_se", "expected", "decided", "decided_se",
                  "claimed_gain", "realised_gain", "realised_se"), split, strict=True),
             scope="population", budget=24, runs=reps, greedy_share=0.1, wrong_way=0.0)
    ])[list(_SPLIT_COLUMNS)]
    return SmallerRunCheck(intervals, p_best, table, split, {}, {}, 30, 4, 8, 100, reps, "holm",
                           0.95)


def test_off_target_names_what_broke_beyond_its_sampling_error():
    assert _fabricated(0.95, 0.01, 0.02, 0.9, 0.88, 100).off_target() == []
    # inside three standard errors of the band / diagonal: not flagged
    assert _fabricated(0.915, 0.01, 0.05, 0.9, 0.84, 100).off_target() == []
    off = _fabricated(0.80, 0.01, 0.12, 0.87, 0.68, 200).off_target()
    assert len(off) == 3, off
    assert "held 80.0% of the time (band 93%–97%)" in off[0]
    assert "wrong way round in 12.0% of the runs (stated at most 5%)" in off[1]
    assert "p_best 87.0% on average (bin 0.8–1.0) were first 68.0%" in off[2]
    # a band from the confidence as its buttons write it: {x:.0%} wrote a 92.5% level's
    # band 90.5%–94.5% as "90%–94%" (and so a coverage of 94.6% read "95%", inside it)
    chk = _fabricated(0.80, 0.01, 0.02, 0.9, 0.88, 100)
    chk.intervals.loc[0, ["band_lo", "band_hi"]] = (0.905, 0.945)
    off = chk.off_target()
    assert off and "held 80.0% of the time (band 90.5%–94.5%)" in off[0], off
    chk = _fabricated(0.80, 0.01, 0.12, 0.99996, 0.68, 10**6)
    assert "models given p_best >99.9% on average" in chk.off_target()[-1]
    # a bin with too few model-runs is shown but not judged
    assert _fabricated(0.95, 0.01, 0.02, 0.9, 0.5, 10).off_target() == []
    # the Planner's plans: 400 question plans deciding 70 % against 80 % (s.e. 0.023)
    off = _fabricated(0.95, 0.01, 0.02, 0.9, 0.88, 100, plans=(400, 0.70)).off_target()
    assert off == ["population scope: the 400 question plans made for an 80% chance decided "
                   "70.0% of their pairs"]
    assert _fabricated(0.95, 0.01, 0.02, 0.9, 0.88, 100, plans=(400, 0.77)).off_target() == []
    # the stated gaps: 300 plans with a lead of at least the gap, 70 % decided (s.e. 0.023)
    off = _fabricated(0.95, 0.01, 0.02, 0.9, 0.88, 100, gaps=(300, 0.70)).off_target()
    assert off == ["population scope: of the 300 plans whose better model truly led by at "
                   "least the stated gap, 70.0% were decided (stated at least 80%)"]
    assert _fabricated(0.95, 0.01, 0.02, 0.9, 0.88, 100, gaps=(300, 0.98)).off_target() == []
    # the could-be-first set: 88 % against at least 95 % over 200 runs (s.e. 0.015) is
    # flagged, 92 % (two s.e. short) is not
    off = _fabricated(0.95, 0.01, 0.02, 0.9, 0.88, 100, first=0.88).off_target()
    assert off == ["population scope: the could-be-first set held the best model in 88.0% of "
                   "the runs (stated at least 95%)"]
    assert _fabricated(0.95, 0.01, 0.02, 0.9, 0.88, 100, first=0.92).off_target() == []
    assert _fabricated(0.95, 0.01, 0.02, 0.9, 0.88, 100, plans=(10, 0.3)).off_target() == []
    # the budget split: losing to the even split, or leaving fewer pairs decided than it
    # said, beyond three s.e. (a conservative expectation is not a broken promise)
    ok = (0.05, 0.03, 7.3, 7.6, 0.05, 0.3, 0.2, 0.05)
    assert _fabricated(0.95, 0.01, 0.02, 0.9, 0.88, 100, split=ok).off_target() == []
    off = _fabricated(0.95, 0.01, 0.02, 0.9, 0.88, 100,
                      split=(-0.2, 0.05, 7.6, 7.0, 0.1, 0.35, 0.1, 0.05)).off_target()
    assert off == ["population scope: the recommended split of 24 extra trials decided 0.20 "
                   "pairs fewer than an even split", "population scope: where the greedy split "
                   "was recommended (10.0% of the runs) it claimed +0.35 pairs over an even "
                   "split "
                   "and realised +0.10", "population scope: the budget split was expected to "
                   "leave 7.60 pairs decided and left 7.00"]
    assert _fabricated(0.95, 0.01, 0.02, 0.9, 0.88, 100,
                       split=(-0.1, 0.05, 7.6, 7.4, 0.1, 0.35, 0.25, 0.05)).off_target() == []
    # no greedy split recommended: nothing claimed, nothing judged
    assert _fabricated(0.95, 0.01, 0.02, 0.9, 0.88, 100, split=(
        0.0, 0.0, 7.3, 7.6, 0.05, np.nan, np.nan, np.nan)).off_target() == []
    # the standard errors are those of the promise, not of the noisy estimate: 20 runs whose
    # intervals all but always held (replicates' s.e. 0.008), a bin of 30 that came true
    # every time at 0.93 -- both within sampling error
    assert _fabricated(0.989, 0.0076, 0.0, 0.93, 1.0, 30, reps=20).off_target() == []
    assert len(_fabricated(0.989, 0.004, 0.0, 0.93, 1.0, 30, reps=2000).off_target()) == 1


def test_the_verdict_catches_wrong_way_decisions_on_identical_models():
    # six models with the same outcomes: every decision is wrong. Holm keeps the family-wise
    # rate at 5 %; per-pair decisions ("none") over 15 pairs decide some pair far more often
    # -- measured, but "none" never promised otherwise, so it is reported and not judged;
    # judged as if it were family-wise (the rule applied by hand), it would be flagged
    one = _run_from(np.random.default_rng(17).beta(0.6, 0.6, (1, 60)), 32, 4).R
    run = Outcomes(np.tile(one, (6, 1, 1)))  # the same outcomes: the shares tie exactly
    holm = check_smaller_run(run, 4, reps=120, draws=500, seed=3)
    none = check_smaller_run(run, 4, reps=120, draws=500, seed=3, adjust="none")
    for scope in ("questions", "population"):
        assert holm.intervals.set_index("scope").loc[scope, "wrong_way"] <= 0.10
        assert none.intervals.set_index("scope").loc[scope, "wrong_way"] >= 0.20
    assert not any("wrong way" in s for s in holm.off_target())
    assert not any("wrong way" in s for s in none.off_target())
    import dataclasses

    judged = dataclasses.replace(none, adjust="holm").off_target()
    assert sum("wrong way round" in s for s in judged) == 2, judged


def test_a_share_of_none_or_all_has_no_standard_error_and_its_legend_says_why():
    """The Check page's p_best table printed ``se`` 0.0000 beside an ``observed`` of 1 (13
    model-runs, every one first): a certainty 13 runs do not give. As ``interval_coverage``
    does, every standard error of a share in the check is NaN (``—``) where the share is 0 or
    1 -- the p_best bins, the intervals' coverage, the plans -- and the legend says why; the
    off-target rule still judges such a share (the promise's own s.e. at the band's edge)."""
    from scorio_core import display
    from scorio_core.definitions import ANALYSES

    rng = np.random.default_rng(0)
    data = Outcomes((rng.random((3, 40, 16)) < rng.random((3, 40, 1))).astype(int))
    chk = ANALYSES["check"]
    result = chk.run(data, chk.params(reps=40, plan_reps=4, seed=0))
    c = result.check
    pb = c.p_best[c.p_best["count"] > 0]
    bound = pb["observed"].isin([0.0, 1.0])
    assert bound.any() and (~bound).any()  # both kinds of bin on these data
    assert pb.loc[bound, "se"].isna().all()
    inner = pb[~bound]
    np.testing.assert_allclose(
        inner["se"], np.sqrt(inner["observed"] * (1 - inner["observed"]) / inner["count"]))
    for t, share, se in ((c.intervals, "coverage", "coverage_se"),
                         (c.plans, "trials_decided", "trials_se"),
                         (c.plans, "questions_decided", "questions_se"),
                         (c.plans, "gap_decided", "gap_se")):
        at_bound = t[share].isin([0.0, 1.0])
        assert t.loc[at_bound, se].isna().all(), se
        assert (t.loc[t[share].between(0, 1, inclusive="neither"), se] > 0).all(), se
    # the table prints a dash, and its legend says why
    shown = display.readable(chk.shown_tables(result)["p_best"])[0]
    from scorio_core.formatting import format_frame

    printed = format_frame(shown)
    assert set(printed.loc[bound[bound].index, "se"]) == {"—"}
    assert "—" not in set(printed.loc[bound[~bound].index, "se"])
    legend = dict(display.column_legend(shown.columns, chk.column_help("p_best")))
    assert legend["se"].endswith("— where observed is 0 or 1 (none or all of its model-runs "
                                 "were first): a standard error of 0 would claim a certainty "
                                 "that count model-runs do not give")
    # judged all the same: intervals that never held are off target, always held is not
    assert _fabricated(0.0, np.nan, 0.0, 0.9, 0.88, 100).off_target()[0].startswith(
        "population scope: the 95% intervals held 0.0% of the time")
    assert _fabricated(1.0, np.nan, 0.0, 0.9, 0.88, 100).off_target() == []
