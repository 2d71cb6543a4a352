"""The Simulator lessons' "What to notice" texts against their own results.

Each claim a lesson text makes about its chart -- at the default settings or at the
settings it names ("move the mean to 0.9") -- is checked here on the study run through
the same definition the page uses (:data:`scorio_core.definitions.SIMULATIONS`), with
fixed seeds and bands wide enough for the smaller runs. A text that contradicts its
chart again fails one of these tests (the audit: "both sit near 95 %" above a dashed
line at 27 %; "Bayes@N leads" under a Pass@2 line above it).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from scorio_core import simulate as sim
from scorio_core.charts import lesson_notice
from scorio_core.charts import simulate as cs
from scorio_core.definitions import SIMULATIONS

BAYES = "Bayes@N (papers)"


# ------------------------------------------------------------------ interval calibration
def _calibration(**settings):
    a = SIMULATIONS["calibration"]
    p = a.params(M_values=(10, 100), replicates=400, seed=5, **settings)
    r = a.run(None, p)
    cov = r.table.set_index(["scope", "interval", "M", "N"])["coverage"].sort_index()
    return p, r, cov


@pytest.fixture(scope="module")
def cal_default():
    return _calibration()


@pytest.fixture(scope="module")
def cal_mean09():
    return _calibration(means=(0.9,))


def test_calibration_defaults_papers_interval_undercovers_the_population(cal_default):
    """Mean 0.5, κ = 2: in the population scope the papers' Bayes@N interval over-covers at
    N = 1, then falls with N to far below 95 % for every M alike; in the questions scope it
    is calibrated; the headline sits between about 90 % and 99 % everywhere."""
    _, _, cov = cal_default
    pop = cov.loc["population", BAYES].unstack("M")
    assert (pop.loc[1] > 0.96).all(), pop  # pull toward ½ = toward the population mean
    assert (pop.loc[64] < 0.45).all(), pop  # true value ≈ 0.27
    assert (pop.loc[4:].diff().dropna() < 0.02).all().all(), pop  # falls with N
    assert (pop.max(axis=1) - pop.min(axis=1)).loc[8:].max() < 0.1, pop  # alike for every M
    assert cov.loc["questions", BAYES].between(0.91, 0.985).all()  # "near 95 %"
    head = cov.xs("headline", level="interval")
    assert np.isnan(head.loc[("questions", 10, 1)]) and np.isnan(head.loc[("questions", 100, 1)])
    assert head.dropna().between(0.9, 1.0).all(), head


def test_calibration_mean_09_the_uniform_prior_misses_in_both_scopes(cal_mean09):
    """"Move the mean to 0.9": dashed questions-scope lines start near 0 % and recover slowly,
    worst with many questions (M = 100 below 10 % at N = 64); population ones stay far below
    95 %; the headline stays between about 90 % and 99 %."""
    _, _, cov = cal_mean09
    q = cov.loc["questions", BAYES].unstack("M")
    assert (q.loc[1] < 0.05).all(), q
    assert q[10].loc[64] > q[10].loc[1] + 0.4, q  # recovers with N ...
    assert (q[100] <= q[10]).all() and q[100].loc[64] < 0.10, q  # ... slowest for many questions
    assert cov.loc["population", BAYES].max() < 0.8
    assert cov.xs("headline", level="interval").dropna().between(0.86, 1.0).all()


def test_calibration_notice_quotes_its_result(cal_default, cal_mean09):
    for p, r, cov in (cal_default, cal_mean09):
        text = lesson_notice("calibration", p, r)
        pop = cov.loc["population", BAYES]
        lo, hi = (f"{100 * x:.0f}" for x in (pop.xs(64, level="N").min(),
                                             pop.xs(64, level="N").max()))
        end = f"{lo}%" if lo == hi else f"{lo}–{hi}%"  # as the fixed text writes "95%"
        assert f"to {end} at N = 64" in text, text
        head = cov.xs("headline", level="interval").dropna()
        assert (f"the solid lines lie between {100 * head.min():.0f}% and "
                f"{100 * head.max():.0f}%") in text
        assert " %" not in text
    # the claims made for named settings are in the text with those settings
    assert "At mean 0.5 and κ = 2 (the defaults)" in text and "Move the mean to 0.9" in text
    assert "both sit near 95 %" not in text


# ------------------------------------------------------------------------- biased coins
def _coins(**settings):
    a = SIMULATIONS["coins"]
    p = a.params(**settings)
    r = a.run(None, p)
    return p, r, r.summary.pivot(index="n", columns="method", values="mean")


@pytest.fixture(scope="module")
def coins_default():
    return _coins()  # the page's defaults: N = 80, 1,000 datasets, every metric (~3 s)


def test_coins_defaults_pass2_ends_above_bayes_by_the_luck_of_the_questions(coins_default):
    """At the defaults (seed 0) Bayes@N/avg@N are one line and lead at small n, but Pass@2
    ends above them: on these questions Pass@2's own quantity orders every pair like the
    means and puts the closest pair (LLM_3 vs LLM_4/5) further apart than its noise hides."""
    p, r, m = coins_default
    np.testing.assert_array_equal(r.tau["bayes"], r.tau["avg"])
    others = m.drop(columns=["bayes", "avg"])
    assert (others.loc[2:8].max(axis=1) < m["bayes"].loc[2:8]).all()  # Bayes@N leads early
    assert m.at[80, "pass_at_k_2"] > m.at[80, "bayes"] + 0.01, m.loc[80]
    s = sim.mimics(sim.PAPER_COINS, p.M, concentration=p.concentration, seed=p.seed)
    p1 = s.p[..., 1]
    # the text's formula: the mean of Pass@2's per-question value is 2m - m² - s²
    q2 = cs._pass_quantity(p1, "pass", 2, 0.0)
    np.testing.assert_allclose(q2, 2 * p1.mean(1) - p1.mean(1) ** 2 - p1.var(1), atol=1e-12)
    text = lesson_notice("coins", p, r)
    cap = re.search(r"reaches at most τ_b = ([\d.]+)", text).group(1)
    assert f"Pass@2 {cap}" in text  # Pass@2's own ranking is as true as the tie allows
    assert "Pass@2 puts LLM_3 0.025 and 0.029 below LLM_4 and LLM_5" in text
    # "gaps that N trials cannot resolve": LLM_3 vs LLM_4 is well under one s.e. apart
    va = (p1 * (1 - p1)).sum(1) / (p.M**2 * p.N)
    assert (p1[3].mean() - p1[2].mean()) / np.sqrt(va[2] + va[3]) < 1.0
    # and the text says where the lines cross, as the result has it
    first = int((others.gt(m["bayes"], axis=0)).any(axis=1).idxmax())
    assert f"highest up to n = {first - 1};" in text and "luck of this draw" in text


def test_coins_each_pass_line_heads_for_its_own_quantity(coins_default):
    """Pass@8 and Pass^4 level off near the τ_b of their own quantity's ranking (0.844 on
    the default questions), below the Bayes@N/avg@N line."""
    p, r, m = coins_default
    text = lesson_notice("coins", p, r)
    for mid, name in (("pass_at_k_8", "Pass@8"), ("pass_hat_k_4", "Pass^4")):
        ceiling = float(re.search(rf"{re.escape(name)} ([\d.]+)", text).group(1))
        assert ceiling < m.at[80, "bayes"]
        assert abs(m.at[80, mid] - ceiling) < 0.03, (mid, m.at[80, mid], ceiling)
        assert abs(m.at[80, mid] - m.at[40, mid]) < 0.01  # levelled off


#: The Simulator page's first view of the coins lesson (smaller than the CLI defaults).
PAGE = {"N": 40, "replicates": 300}


def test_coins_page_defaults_pass2_ends_above_bayes():
    p, r, m = _coins(**PAGE)
    assert m.at[40, "pass_at_k_2"] > m.at[40, "bayes"] + 0.01, m.loc[40]
    assert "luck of this draw" in lesson_notice("coins", p, r)


@pytest.mark.parametrize("settings", [{"fresh_questions": True}, {"seed": 4},
                                      {"fresh_questions": True, **PAGE}, {"seed": 4, **PAGE}])
def test_coins_other_questions_put_bayes_on_top(settings):
    """The text's "with new questions in every dataset, or another seed (e.g. 4; other
    settings as default), the Bayes@N/avg@N line is the highest at every n" -- at the
    study's defaults and at the page's first view."""
    p, r, m = _coins(**settings)
    best_other = m.drop(columns=["bayes", "avg"]).max(axis=1).dropna()  # from n = 2
    assert (best_other < m["bayes"].loc[best_other.index]).all(), m
    assert "is the highest at every n" in lesson_notice("coins", p, r)


# ------------------------------------------------------------------------------ legends
def test_coins_race_names_a_single_n_as_one():
    """A Pass line above the mean at one n only read "only at some n between 5 and 5";
    above at several, the span."""
    mean = pd.DataFrame({"bayes": [0.5, 0.6, 0.7, 0.8], "pass_at_k_2": [0.4, 0.65, 0.6, 0.7],
                         "pass_at_k_4": [0.4, 0.65, 0.75, 0.7]}, index=[1, 2, 3, 4])
    text = cs._race(mean, "bayes", "Bayes@N")
    assert "Pass@2 (`pass_at_k_2`) only at n = 2;" in text
    assert "Pass@4 (`pass_at_k_4`) only at some n between 2 and 3 is higher" in text
    assert "between 2 and 2" not in text


def test_coins_race_prints_a_lead_with_the_digits_that_show_it():
    """Pass@2 above Bayes@N by 0.0003 read "is higher (0.922 against 0.922 at n = 8)"."""
    mean = pd.DataFrame({"bayes": [0.5, 0.9222], "pass_at_k_2": [0.4, 0.9225]}, index=[1, 8])
    text = cs._race(mean, "bayes", "Bayes@N")
    assert "is higher (0.9225 against 0.9222 at n = 8)" in text
    mean = pd.DataFrame({"bayes": [0.5, 0.9], "pass_at_k_2": [0.4, 0.95]}, index=[1, 8])
    assert "(0.950 against 0.900 at n = 8)" in cs._race(mean, "bayes", "Bayes@N")


def test_coverage_legend_draws_each_series_distinguishably():
    r = sim.interval_coverage(M_values=(10, 30), N_values=(1, 4), replicates=60, seed=0)
    spec = cs.coverage_chart(r).to_dict()
    enc = {ch: v for layer in spec["layer"] for ch, v in layer.get("encoding", {}).items()}
    assert enc["strokeDash"]["legend"]["symbolType"] == "stroke"  # dashes, not dots
    assert enc["strokeDash"]["scale"]["range"] == [[1, 0], [6, 4]]
    assert enc["color"]["field"] == "scope" and enc["color"]["legend"]["symbolType"] == "stroke"
    assert enc["shape"]["field"] == "questions"
    # every line is a distinct (colour, dash, shape): scope x interval x M
    t = r.table.dropna(subset=["coverage"])
    assert len(t.groupby(["scope", "interval", "M"])) == len(t[["scope", "interval", "M"]]
                                                              .drop_duplicates()) == 8


def test_coverage_of_several_means_is_one_panel_per_mean_and_said_per_mean():
    from scorio_core.definitions import SIMULATIONS

    r = sim.interval_coverage((0.5, 0.9), M_values=(30,), N_values=(2, 32), concentration=4.0,
                              replicates=200, seed=0)
    spec = cs.coverage_chart(r).to_dict()
    assert [p["title"] for p in spec["vconcat"]] == ["mean success 0.5", "mean success 0.9"]
    assert spec["resolve"]["scale"]["y"] == "shared"  # one scale: the panels compare
    for panel in spec["vconcat"]:
        data = spec["datasets"][panel["data"]["name"]]
        assert {row["mean"] for row in data} == {float(panel["title"].split()[-1])}
    notice = cs.lesson_notice("calibration", None, r)
    assert "one panel per mean success" in notice
    t = r.table[(r.table["interval"] == "Bayes@N (papers)") & (r.table["scope"] == "questions")]
    low = f"{100 * t.loc[t['mean'] == 0.9, 'coverage'].min():.0f}%"
    assert "at mean 0.9 the solid lines lie between" in notice
    assert f"the dashed blue ones between {low} and" in notice.split("at mean 0.9")[1]
    # the terminal: the table's mean column is named, each mean's rows said apart
    a = SIMULATIONS["calibration"]
    p = a.params(means=(0.5, 0.9), M_values=(30,), concentration=4.0, replicates=200)
    res = a.run(None, p)
    tables = a.tables(res)
    assert "one row per `mean` (the simulated models' mean success), `scope`" in (
        cs.tables_intro("calibration", p, res, tables))
    said = cs.tables_notice("calibration", p, res, tables)
    assert "at `mean` 0.5 the headline rows'" in said and "at `mean` 0.9 the" in said
    assert a.charts(res)[0].caption.endswith("One panel per mean success: each covers "
                                             "differently.")
    # one mean: the chart, texts and caption as they were
    one = a.params(M_values=(30,), replicates=200)
    r1 = a.run(None, one)
    assert "layer" in cs.coverage_chart(r1).to_dict()
    assert "panel" not in cs.lesson_notice("calibration", one, r1)
    assert "one row per `scope`" in cs.tables_intro("calibration", one, r1, a.tables(r1))
    assert a.charts(r1)[0].caption == cs.COVERAGE_CAPTION


def test_truth_chart_draws_bayes_and_avg_once_only_when_they_coincide():
    s = sim.mimics([0.3, 0.5, 0.7], M=8, seed=0)
    c = sim.truth_convergence(s, ["bayes", "avg", "pass_at_k_2"], N=4, replicates=20, seed=1)

    def methods(summary: pd.DataFrame) -> list[str]:
        data = next(iter(cs.truth_convergence_chart(summary).to_dict()["datasets"].values()))
        return list(dict.fromkeys(row["method"] for row in data))

    assert methods(c.summary) == [cs.SAME_LINE, "pass_at_k_2"]
    apart = c.summary.copy()
    apart.loc[apart["method"] == "avg", "mean"] -= 0.01  # no longer one line: both drawn
    assert methods(apart) == ["bayes", "avg", "pass_at_k_2"]
