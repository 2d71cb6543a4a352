"""Texts of the definitions that a newcomer audit of the reports found false for the data shown:
each is asserted on a case where it was false and on one where it was (and stays) right."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scorio_core import Outcomes, io
from scorio_core.definitions import ANALYSES
from scorio_core.engines.agreement import mean_sd
from scorio_core.engines.stability import low_budget_stability
from scorio_core.report import build_report
from scorio_core.report._build import settings_text
from scorio_core.report.markdown import to_markdown

HARNESS = Path(__file__).resolve().parents[1] / "fixtures" / "harness"


def _settings(data: Outcomes, aid: str, **params) -> str:
    return settings_text(build_report(data, [(aid, params)]).sections[0])


# 1. leaderboard: "by = none (no question attributes)" on data that carry one
def test_leaderboard_by_names_the_attributes_the_data_carry():
    R = np.random.default_rng(0).integers(0, 2, (3, 20, 4))
    src = ["arc"] * 10 + ["gsm"] * 10
    with_attr = Outcomes(R, question_attributes={"source": src})
    text = _settings(with_attr, "leaderboard", draws=500)
    assert "no question attributes" not in text
    assert "Per subset (`by`): none (not chosen; question attributes: source)" in text
    assert "Per subset (`by`): none (no question attributes)" in _settings(
        Outcomes(R), "leaderboard", draws=500)
    assert "Per subset (`by`): source;" in _settings(with_attr, "leaderboard", draws=500,
                                                      by="source")


# 2. planner: the default pair is "the first undecided pair" only when one is undecided
@pytest.fixture(scope="module")
def all_decided() -> Outcomes:
    return io.load(HARNESS / "inspect" / "epochs")


def test_planner_draws_no_pair_curves_when_every_pair_is_decided(all_decided):
    plan = ANALYSES["plan"]
    p = plan.params(sims=200)
    text = _settings(all_decided, "plan", sims=200)
    assert "first undecided pair" not in text
    assert "Better model / Other model (`pair`): none: every adjacent pair is decided" in text
    r = plan.run(all_decided, p)
    allocation, order, gaps = plan.charts(r)
    assert allocation.empty is None  # the budget split is about every pair, not one
    from scorio_core.cli._common import cli_text

    for c in (order, gaps):
        assert c.empty and "Every adjacent pair is decided" in c.empty
        # the setting as each surface names it (it read "the Planner page's Better model
        # and Other model; pair= in Python, --pair in the CLI" everywhere)
        assert c.empty.endswith("grow with N (pair=).") and "--pair" not in c.empty
        assert cli_text(c.empty).endswith("grow with N (--pair).")
        assert "alpha" not in c.title
    t = plan.tables(r)
    assert t["order_curve"].empty and t["gap_curve"].empty
    assert "upper" in t["order_curve"] and "smallest_lead" in t["gap_curve"]


def test_planner_draws_a_chosen_decided_pair_and_says_it_is_decided(all_decided):
    plan = ANALYSES["plan"]
    r = plan.run(all_decided, plan.params(sims=200, pair=("alpha", "beta")))
    _, order, gaps = plan.charts(r)
    assert order.empty is None and gaps.empty is None
    assert order.caption.startswith("alpha vs beta is already decided at 95%")
    assert "rise before it falls" in gaps.caption
    assert len(plan.tables(r)["gap_curve"])
    assert r.plan.pairs.empty and r.pair_decided and r.shows_pair


def test_planner_default_pair_stays_the_first_undecided_one():
    R = (np.random.default_rng(0).random((3, 20, 4)) < [[[.8]], [[.75]], [[.4]]]).astype(int)
    data = Outcomes(R, models=["a", "b", "c"])
    plan = ANALYSES["plan"]
    r = plan.run(data, plan.params(n_max=8, sims=200))
    first = r.plan.pairs.iloc[0]
    assert (r.curve_settings.upper, r.curve_settings.lower) == (first["better"], first["next"])
    assert (f"Better model / Other model (`pair`): {first['better']} vs {first['next']} (the first "
             "undecided pair)"
            in _settings(data, "plan", n_max=8, sims=200))
    _, order, gaps = plan.charts(r)
    assert order.empty is None and "already decided" not in order.caption + gaps.caption
    assert first["better"] in order.title and len(plan.tables(r)["order_curve"])


# 3. questions on graded data: no 2PL, so no "noisy 2PL" caveat, no NaN, a true settings line
def test_questions_texts_agree_when_the_2pl_did_not_run():
    rng = np.random.default_rng(1)
    graded = Outcomes(rng.integers(0, 3, (3, 20, 3)), weights=[0.0, 0.5, 1.0])
    q = ANALYSES["questions"]
    r = q.run(graded, q.params())
    caveats = " ".join(q.caveats(graded, q.params(), r))
    assert "NaN" not in caveats and "missing (—)" in caveats
    assert "noisy" not in caveats
    assert "2PL IRT (`irt`): yes (not run: the 2PL model needs binary outcomes)" in _settings(
        graded, "questions")
    # switched off on binary data: no 2PL caveat about noise either, and the line says no
    binary = Outcomes(rng.integers(0, 2, (3, 20, 3)))
    off = q.run(binary, q.params(irt=False))
    assert "noisy" not in " ".join(q.caveats(binary, q.params(irt=False), off))
    assert "2PL IRT (`irt`): no;" in _settings(binary, "questions", irt=False)
    # fitted on binary data with few models: the noise caveat stays, the line is plain
    on = q.run(binary, q.params())
    assert any("noisy" in c for c in q.caveats(binary, q.params(), on))
    assert "2PL IRT (`irt`): yes;" in _settings(binary, "questions")


# 4. pair view: how texts are shown is said only where there are texts
def test_pair_speaks_of_completion_texts_only_where_they_exist():
    pair = ANALYSES["pair"]
    npz = Outcomes(np.random.default_rng(2).integers(0, 2, (3, 10, 4)))
    caveats = pair.caveats(npz, pair.params(), pair.run(npz, pair.params()))
    assert any("no completion texts" in c for c in caveats)
    assert not any("Completion texts come from the logs" in c for c in caveats)
    texts = io.load(HARNESS / "inspect" / "texts")
    caveats = pair.caveats(texts, pair.params(), pair.run(texts, pair.params()))
    assert any("Completion texts come from the logs" in c for c in caveats)
    assert not any("no completion texts" in c for c in caveats)


# 5. stability with N = 1: an s.d. over one slice is missing, and the count is singular
def test_mean_sd_of_one_value_has_no_sd():
    assert mean_sd([0.5, 1.0]) == (0.75, 0.25)
    m, sd = mean_sd([0.4, np.nan])
    assert m == 0.4 and np.isnan(sd)
    assert all(np.isnan(mean_sd([np.nan])))


def test_stability_with_one_trial_shows_no_sd():
    data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 12, 1)))
    st = low_budget_stability(data.R, None, ["bayes", "avg", "borda"])
    assert st.table[["gold_sd", "self_sd"]].isna().all().all()
    assert st.classes("gold")["sd"].isna().all()
    stab = ANALYSES["stability"]
    p = stab.params(methods="bayes,avg,borda")
    caveats = " ".join(stab.caveats(data, p, stab.run(data, p)))
    assert "1 single-trial slice " in caveats and "1 single-trial slices" not in caveats
    assert "missing (—)" in caveats
    md = to_markdown(build_report(data, [("stability", {"methods": "bayes,avg,borda"})]))
    # a report names the s.d. column, missing in every row, instead of a column of dashes
    section = md.split("### classes_gold", 1)[1].split("###", 1)[0]
    assert "| sd |" not in section and "Not shown, no value in any row: sd." in section


def test_stability_with_several_trials_keeps_its_sd():
    data = Outcomes(np.random.default_rng(0).integers(0, 2, (4, 12, 6)))
    st = low_budget_stability(data.R, None, ["bayes", "borda"])
    assert np.isfinite(st.table[["gold_sd", "self_sd"]].to_numpy()).all()
    stab = ANALYSES["stability"]
    p = stab.params(methods="bayes,borda")
    caveats = " ".join(stab.caveats(data, p, stab.run(data, p)))
    assert "over the 6 single-trial slices" in caveats


# newcomer audit of the app pages (1280 px screenshots)
def test_greedy_verdict_prints_the_metrics_numbers_and_the_spread_direction():
    """The verdict printed Δτ as +0.074 and the s.d. reduction as 59% beside metrics reading
    0.0737 and 0.5905, and "narrows its spread by -20%" when the prior widened it. And it said
    the prior "helps" from Δτ's sign alone (audit: "helps ... Δτ +0.0737" with no interval
    nor the 50 datasets at seed 0): it helps or hurts only where Δτ's interval excludes 0."""
    from types import SimpleNamespace

    from scorio_core.definitions.greedy import GreedyParams, verdict
    from scorio_core.engines.agreement import PairedGap

    def said(delta_tau, sd_reduction, lo=0.05, hi=0.09, n=50, spread=None):
        s = {"mean_accuracy": 0.6, "greedy_accuracy": 0.61, "tau_gs": 0.94,
             "delta_tau": delta_tau, "sd_reduction": sd_reduction}
        gap = PairedGap(delta_tau, 0.01, lo, hi, n, 0.95)
        # the spread's interval: by default one that excludes 0 on the side of the point
        spread = spread or (sd_reduction - 0.1, sd_reduction + 0.1)
        sd_gap = PairedGap(sd_reduction, 0.05, *spread, n, 0.95)
        detail = SimpleNamespace(summary=lambda: s, delta_tau_gap=gap, sd_reduction_gap=sd_gap)
        return verdict(SimpleNamespace(detail=detail), GreedyParams(replicates=n, seed=3))

    text = said(0.07372, 0.59049, 0.0523, 0.0951, spread=(0.4123, 0.7012))
    assert "greedy prior helps mean agreement" in text and "Δτ +0.0737" in text
    assert "95% interval 0.0523 to 0.0951 over 50 resampled datasets at seed 3" in text
    assert ("narrows the spread by 59.0% (s.d. reduction 0.5905, 95% interval 0.4123 to "
            "0.7012)") in text
    text = said(-0.0214, -0.2, -0.04, -0.003)
    assert "greedy prior hurts" in text and "Δτ -0.0214" in text
    assert "widens the spread by 20.0% (s.d. reduction -0.2000, 95% interval" in text
    assert "-20" not in text
    # an interval that holds 0: no word on which way, and it says why
    text = said(0.0214, 0.3, -0.01, 0.05)
    assert "makes no clear difference to mean agreement" in text and "it includes 0" in text
    assert "helps" not in text and "hurts" not in text
    # five datasets cannot separate any gap at 95% (a sign on all five: 1 in 16 by chance)
    text = said(0.05, 0.3, 0.04, 0.06, n=5)
    assert "no clear difference" in text and "5 resampled datasets at seed 3 cannot " in text
    assert "not measured" in said(0.0, float("nan")) and "nan" not in said(0.0, float("nan"))


def test_greedy_verdict_says_the_spread_narrows_only_where_its_interval_excludes_0():
    """Audit: "it narrows the spread by 59%" from the s.d. reduction alone, while the same
    sentence's "the prior helps" needs Δτ's paired interval to exclude 0. The spread now
    takes the same rule: a direction only where the s.d. reduction's interval excludes 0,
    from at least 6 datasets; else "no clear difference in spread" with the interval."""
    from types import SimpleNamespace

    from scorio_core.definitions.greedy import GreedyParams, verdict
    from scorio_core.engines.agreement import PairedGap

    def said(sd_reduction, lo, hi, n=50):
        s = {"mean_accuracy": 0.6, "greedy_accuracy": 0.61, "tau_gs": 0.94,
             "delta_tau": 0.07, "sd_reduction": sd_reduction}
        detail = SimpleNamespace(
            summary=lambda: s, delta_tau_gap=PairedGap(0.07, 0.01, 0.05, 0.09, n, 0.95),
            sd_reduction_gap=PairedGap(sd_reduction, 0.1, lo, hi, n, 0.95))
        return verdict(SimpleNamespace(detail=detail), GreedyParams(replicates=n, seed=3))

    text = said(0.3, -0.05, 0.55)  # a point of 30% narrower, an interval that holds 0
    assert ("it makes no clear difference in spread (s.d. reduction 0.3000, 95% interval "
            "-0.0500 to 0.5500; it includes 0)") in text
    assert "narrows" not in text and "widens" not in text
    text = said(-0.4, -0.9, 0.02)
    assert "no clear difference in spread" in text and "widens" not in text
    # an interval clear of 0 from five datasets is still no claim (1 in 16 by chance)
    text = said(0.3, 0.1, 0.5, n=5)
    assert "no clear difference in spread" in text and "narrows" not in text
    assert "5 datasets cannot separate it: that takes at least 6" in text
    text = said(0.3, 0.1, 0.5)
    assert "it narrows the spread by 30.0% (s.d. reduction 0.3000, 95% interval 0.1000 to " \
           "0.5000)" in text
    # the greedy prior fixes τ_b on every replicate: no interval, and it says why
    text = said(1.0, float("nan"), float("nan"))
    assert "τ_b does not vary at all over the greedy prior's replicates" in text
    assert "s.d. reduction 1.0000; a spread of 0 has no interval" in text
    assert "nan" not in text and "narrows" not in text


def test_greedy_verdict_reads_the_interval_the_engine_computes():
    """Δτ's interval comes from the replicates the engine already has: the greedy and uniform
    τ_b of the same resampled datasets, paired; the page, the report and the CLI say one
    sentence (the definition's notice)."""
    from scorio_core.definitions.greedy import GREEDY
    from scorio_core.engines.agreement import paired_gap

    rng = np.random.default_rng(0)
    p_true = np.linspace(0.3, 0.8, 6)[:, None, None]
    R = (rng.random((6, 30, 12)) < p_true).astype(int)
    R0 = (rng.random((6, 30, 1)) < p_true).astype(int)
    data = Outcomes(R, R0=R0)
    p = GREEDY.params(replicates=40, seed=2)
    r = GREEDY.run(data, p)
    g = r.detail
    gap = g.delta_tau_gap
    t_g, t_u = g.curves.tau["bayes_greedy"][:, 0], g.curves.tau["bayes"][:, 0]
    assert gap.n == 40 and gap.mean == pytest.approx(g.delta_tau)
    # the replicates re-draw 12 trials: their own sampling error is in the s.e.
    d = t_g - t_u
    assert gap.se == pytest.approx(d.std(ddof=1) * np.sqrt(1 / 40 + 1 / 12))
    assert gap.se > paired_gap(t_g, t_u).se
    row = GREEDY.tables(r)["table"].iloc[0]
    assert (row["delta_tau_lo"], row["delta_tau_hi"]) == pytest.approx((gap.lo, gap.hi))
    assert row["delta_tau_lo"] < row["delta_tau"] < row["delta_tau_hi"]
    # the s.d. reduction's interval from the same paired datasets, in the table beside it
    spread = g.sd_reduction_gap
    assert spread.n == 40 and spread.mean == pytest.approx(g.sd_reduction)
    assert g.sd_reduction == pytest.approx(1 - t_g.std() / t_u.std())
    assert (row["sd_reduction_lo"], row["sd_reduction_hi"]) == pytest.approx((spread.lo,
                                                                              spread.hi))
    assert row["sd_reduction_lo"] < row["sd_reduction"] < row["sd_reduction_hi"] < 1
    text = GREEDY.notice_for(p, r)
    assert "over 40 resampled datasets at seed 2" in text
    assert ("no clear difference to mean agreement" in text) == (not gap.separated)
    assert ("no clear difference in spread" in text) == (not spread.separated)
    assert spread.interval_text() in text


def test_check_says_when_it_judged_the_population_scope_alone():
    from scorio_core.definitions.check import unchecked_note
    from scorio_core.smaller_run import check_smaller_run

    R = (np.random.default_rng(1).random((3, 20, 4)) < [[[.7]], [[.5]], [[.3]]]).astype(int)
    chk = ANALYSES["check"]
    p = chk.params(reps=10, draws=200)  # 4 trials: smaller runs of 1
    r = chk.run(Outcomes(R), p)
    note = unchecked_note(r.check)
    assert note.startswith("Only the population scope was checked")
    assert "needs data with 8 or more per question (these have 4)" in note
    assert note in chk.caveats(Outcomes(R), p, r)  # one sentence, page and report alike
    R8 = np.concatenate([R, R], axis=-1)
    assert "check runs of 2 or more trials" in unchecked_note(
        check_smaller_run(Outcomes(R8), 1, reps=10, draws=200))
    assert unchecked_note(check_smaller_run(Outcomes(R8), 2, reps=10, draws=200)) is None


def test_planner_order_caption_names_the_scope_and_where_its_curve_starts():
    """In the population scope the "decided (ours)" line lay flat at 0 beside a correct-order
    line at 1, and it began at 128 trials on a run of 100: the caption named neither the
    scope nor today's N."""
    R = (np.random.default_rng(0).random((3, 20, 6)) < [[[.8]], [[.75]], [[.4]]]).astype(int)
    plan = ANALYSES["plan"]
    for scope in ("questions", "population"):
        _, order, _ = plan.charts(plan.run(Outcomes(R), plan.params(sims=200, scope=scope)))
        assert f"decided at 95% ({scope} scope) with every model at N trials, from " \
               "today's N = 6 on" in order.caption, order.caption


def test_off_target_p_best_bins_say_what_they_mean_for_the_leaderboard():
    """Audit: on a categorical upload the Check showed three "Off target …" p_best warnings
    and no word on what that means for the Leaderboard's p_best."""
    from types import SimpleNamespace

    import pandas as pd

    from scorio_core.definitions.check import p_best_reading

    def reading(rows):
        off = pd.DataFrame(rows, columns=["scope", "predicted", "observed"])
        return p_best_reading(SimpleNamespace(p_best_off=lambda: off, M=30, N=1, source_N=4))

    assert reading([]) is None
    text = reading([("population", 0.04, 0.12), ("population", 0.70, 0.37),
                    ("population", 0.88, 0.50)])
    assert text.startswith("For the Leaderboard's p_best: on runs of 30 questions × 1 trial its "
                           "population-scope p_best was overconfident: too high for the leaders "
                           "and too low for the rest.")
    assert "as an ordering of the models, not as a chance of being first" in text
    assert "(4 trials per question)" in text and "not for this run's own p_best" in text
    assert "was too high: it overstated" in reading([("questions", 0.9, 0.6)])
    assert "was too low: it understated" in reading([("questions", 0.1, 0.3)])
    assert "was too flat" in reading([("questions", 0.1, 0.02), ("questions", 0.8, 0.95)])
    both = reading([("questions", 0.9, 0.6), ("population", 0.1, 0.3)])
    assert "its questions-scope p_best was too high" in both
    assert "; its population-scope p_best was too low" in both


def test_the_check_flags_and_reads_the_same_p_best_bins():
    """off_target's p_best lines and the reading come from one selection of bins."""
    from scorio_core.definitions.check import p_best_reading
    from scorio_core.smaller_run import check_smaller_run

    rng = np.random.default_rng(2)
    R = rng.integers(0, 3, (5, 30, 4))
    c = check_smaller_run(Outcomes(R, weights=[0, 0.5, 1]), 1, reps=60, draws=300)
    off = c.p_best_off()
    lines = [s for s in c.off_target() if "given p_best" in s]
    assert len(lines) == len(off)
    assert (p_best_reading(c) is None) == off.empty


def test_questions_on_graded_data_name_the_option_that_fits_the_2pl():
    """The 2PL note said only that it "needs binary outcomes": the caveat (and the page's 2PL
    switch, :func:`irt_next`) now name the loader's option tried on these data, and the data
    it makes fit the 2PL model."""
    from scorio_core.definitions.questions import irt_next

    rng = np.random.default_rng(1)
    graded = Outcomes(rng.integers(0, 3, (4, 20, 3)), weights=[0.0, 0.5, 1.0],
                      category_names=["I (incorrect)", "P (partial)", "C (correct)"])
    q = ANALYSES["questions"]
    r = q.run(graded, q.params())
    (note,) = [c for c in q.caveats(graded, q.params(), r) if c.startswith("2PL IRT not run")]
    assert note.endswith(": correct=['C']; correct_from=0.5 counts P (partial) correct too.")
    from scorio_core.cli._common import cli_text  # what `scorio-studio questions` notes

    assert cli_text(note).endswith(": --correct C; --correct-from 0.5 counts P (partial) "
                                   "correct too.")
    assert irt_next(graded) in note and irt_next(graded.binarized(correct="C")) is None
    # the chart's place says it too (the page's most visible line), not only the caveats
    (item_map,) = [c for c in q.charts(r) if c.title == "Difficulty and discrimination"]
    assert item_map.empty == f"2PL fit {r.stats.irt}. {irt_next(graded)}"
    for option in ({"correct": ["C"]}, {"correct_from": 0.5}):  # both named options fit it
        fitted = q.run(graded.binarized(**option), q.params())
        assert not fitted.stats.irt.startswith("not run")
        assert np.isfinite(fitted.stats.table["difficulty"]).any()
