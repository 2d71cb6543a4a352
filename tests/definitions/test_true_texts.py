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
    for c in (order, gaps):
        assert c.empty and "Every adjacent pair is decided" in c.empty
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
    0.0737 and 0.5905, and "narrows its spread by -20%" when the prior widened it."""
    from types import SimpleNamespace

    from scorio_core.definitions.greedy import verdict

    def said(delta_tau, sd_reduction):
        s = {"mean_accuracy": 0.6, "greedy_accuracy": 0.61, "tau_gs": 0.94,
             "delta_tau": delta_tau, "sd_reduction": sd_reduction}
        return verdict(SimpleNamespace(detail=SimpleNamespace(summary=lambda: s)))

    text = said(0.07372, 0.59049)
    assert "**helps**" in text and "Δτ +0.0737" in text
    assert "narrows the spread by 59% (s.d. reduction 0.5905)" in text
    text = said(-0.0214, -0.2)
    assert "**hurts**" in text and "Δτ -0.0214" in text
    assert "widens the spread by 20% (s.d. reduction -0.2000)" in text and "-20%" not in text
    assert "not measured" in said(0.0, float("nan")) and "nan" not in said(0.0, float("nan"))


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
