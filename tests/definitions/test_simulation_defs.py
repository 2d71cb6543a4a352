"""The Simulator's studies as analysis definitions: settings validate, ``run`` ignores the
loaded data, every ``to_code`` cell reproduces the numbers with public calls, exports carry
a provenance without an input file, and a report takes a study as a section when named."""

from __future__ import annotations

import ast

import altair as alt
import numpy as np
import pandas as pd
import pytest

from scorio_core import Outcomes, ValidationError
from scorio_core import simulate as sim
from scorio_core.definitions import ANALYSES, SIMULATIONS
from scorio_core.definitions.provenance import export_result
from scorio_core.definitions.simulate import highlights

SMALL = {
    "coins": {"replicates": 12, "N": 8, "M": 12, "methods": ("bayes", "pass_at_k_2"), "seed": 3},
    "prior-depth": {"replicates": 40, "seed": 1},
    "order": {"sims": 60, "seed": 2},
    "calibration": {"replicates": 50, "M_values": (10,), "seed": 4},
    "rubric-lesson": {"weights": (0.0, 0.25, 1.0), "R0": ((2,), (1,))},
}


@pytest.fixture(scope="module")
def results():
    return {k: a.run(None, a.params(**SMALL[k])) for k, a in SIMULATIONS.items()}


def test_registry_and_contract():
    assert list(SIMULATIONS) == ["coins", "prior-depth", "order", "calibration", "rubric-lesson"]
    assert not set(SIMULATIONS) & set(ANALYSES)  # one namespace of report sections
    for k, a in SIMULATIONS.items():
        assert a.id == k and a.uses_data is False and a.requires(None) is None
        a.params()  # defaults are valid
        assert a.how_to_read.strip()
    assert all(a.uses_data for a in ANALYSES.values())
    # the lazy registries name exactly the module's studies, and SECTIONS is both, in order
    from scorio_core.definitions import SECTIONS
    from scorio_core.definitions import simulate as sim_defs

    assert dict(SIMULATIONS) == sim_defs.SIMULATIONS
    assert list(SECTIONS) == [*ANALYSES, *SIMULATIONS]
    assert all(SECTIONS[k] is ANALYSES.get(k, SIMULATIONS.get(k)) for k in SECTIONS)


def test_run_ignores_the_data(results):
    a = SIMULATIONS["order"]
    other = a.run(Outcomes(np.zeros((2, 3, 4), int)), a.params(**SMALL["order"]))
    pd.testing.assert_frame_equal(other.table, results["order"].table)


def test_runs_equal_core_calls(results):
    r = results["order"]
    core = sim.correct_order(n_sims=60, seed=2)  # its defaults: the study's, one declaration
    pd.testing.assert_frame_equal(r.table, core.table)
    les = sim.rubric_lesson(sim.LESSON_R, (0.0, 0.25, 1.0), [[2], [1]])
    assert results["rubric-lesson"].mu == les.mu and results["rubric-lesson"].sigma == les.sigma


@pytest.mark.parametrize(
    ("sid", "bad", "match"),
    [
        ("coins", {"concentration": 0}, "concentration"),
        ("coins", {"methods": ()}, "at least one metric"),
        ("prior-depth", {"replicates": 0}, "replicates"),
        ("order", {"upper": 0.5, "lower": 0.6}, "upper must exceed lower"),
        ("order", {"upper": 1.2}, "strictly between 0 and 1"),
        ("calibration", {"M_values": ()}, "at least one value"),
        ("rubric-lesson", {"weights": (1.0,)}, "at least two"),
    ],
)
def test_params_refuse_bad_values(sid, bad, match):
    with pytest.raises(ValidationError, match=match):
        SIMULATIONS[sid].params(**bad)


@pytest.mark.parametrize("sid", list(SIMULATIONS))
def test_to_code_reproduces_tables_and_charts(sid, results):
    a = SIMULATIONS[sid]
    code = a.to_code(a.params(**SMALL[sid]), "data")
    assert "data" not in code.replace("dataset", "")  # the cell does not read loaded data
    ns: dict = {}
    exec(compile(code, f"<{sid}>", "exec"), ns)
    last = ast.parse(code).body[-1]
    # shown as the report prints it (sc.display.show displays as_table's)
    got = eval(ast.unparse(last).replace("sc.display.show(", "sc.display.as_table("), ns).table
    want = next(iter(a.tables(results[sid]).values()))
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True),
                                  atol=1e-12, rtol=0)
    charts = a.charts(results[sid])
    assert len(charts) == len(a.chart_code) >= 1
    for c, expr in zip(charts, a.chart_code, strict=True):
        assert isinstance(eval(expr, ns), alt.TopLevelMixin)
        assert c.caption and "\n" not in c.caption


def test_highlights_and_exports(results):
    h = {x.label: x.value for x in highlights("rubric-lesson", results["rubric-lesson"])}
    assert h["μ"] == f"{results['rubric-lesson'].mu:.5f}"
    assert [x.label for x in highlights("prior-depth", results["prior-depth"])][0].startswith(
        "mean τ")
    a = SIMULATIONS["calibration"]
    files = export_result(a, None, a.params(**SMALL["calibration"]), results["calibration"], "csv")
    (name, text), = files.items()
    assert name == "simulation_calibration_coverage.csv"
    assert "# dataset: simulation (synthetic, known truth)" in text
    assert "# settings.replicates: 50" in text and "# seeds.seed: 4" in text
    back = pd.read_csv(__import__("io").StringIO(text), comment="#")
    assert len(back) == 2 * 2 * 7 and set(back["scope"]) == {"questions", "population"}


def test_order_kappa_used_is_written_as_its_box_writes_it():
    """The "κ used" headline reads as the spread's number box shows it and every lesson text
    writes it (formatting.setting_text, the box's SETTING_PRINTF): one declared format."""
    from scorio_core.formatting import SETTING_PRINTF, setting_text

    a = SIMULATIONS["order"]
    for kappa in (2.5, 10_000.0):
        r = a.run(None, a.params(concentration=kappa, sims=60, seed=2))
        h = {x.label: x.value for x in highlights("order", r)}
        assert h["κ used"] == setting_text(kappa) == SETTING_PRINTF % kappa
        assert f"(κ = {h['κ used']})" in a.caveats(None, a.params(concentration=kappa), r)[0]


def test_rubric_lesson_writes_mu_and_sigma_in_its_table_format():
    """The metrics said μ = 0.562500, the notice 0.5625, beside m_α = 0.56250 in the table:
    one format (the table's declared decimals) for every number of the lesson."""
    from scorio_core.charts.simulate import lesson_notice
    from scorio_core.formatting import format_frame, table_formats
    from scorio_core.simulate.lesson import LESSON_DECIMALS

    a = SIMULATIONS["rubric-lesson"]
    r = a.run(None, a.params())
    tables = a.tables(r)
    lesson, summary = tables["lesson"], tables["summary"]
    formats = dict(zip(lesson.columns, table_formats(lesson), strict=True))
    # the bracketed term of σ² is var_α: "v_α" beside the counts ν_0..ν_2 read as one letter
    assert list(lesson.columns) == ["question", "ν_0", "ν_1", "ν_2", "m_α", "var_α"]
    assert formats["m_α"].decimals == formats["var_α"].decimals == LESSON_DECIMALS == 5
    h = {x.label: x.value for x in highlights("rubric-lesson", r)}
    assert (h["μ"], h["σ"]) == ("0.56250", "0.09200")
    assert format_frame(summary).loc[0, ["mu", "sigma"]].tolist() == ["0.56250", "0.09200"]
    assert format_frame(lesson)["m_α"].tolist() == ["0.56250", "0.56250"]
    assert "μ = 0.56250 and σ = 0.09200" in lesson_notice("rubric")
    tips = a.charts(r)[0].chart.to_dict()["layer"][1]["encoding"]["tooltip"]
    assert {t["field"]: t.get("format") for t in tips}["mu"] == ".5f"


def test_report_takes_a_study_only_when_named():
    from scorio_core.report import build_report, parse_sections, to_html

    data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 4)), name="demo")
    assert parse_sections("leaderboard,rubric-lesson") == ["leaderboard", "rubric-lesson"]
    rep = build_report(data, ["leaderboard", "rubric-lesson"])
    assert [s.analysis.id for s in rep.sections] == ["leaderboard", "rubric-lesson"]
    assert all(s.error is None for s in rep.sections)
    page = to_html(rep)
    assert "Rubric weights (Bayes@N term by term)" in page and "0.5625" in page
    with pytest.raises(ValidationError, match="simulation studies"):
        parse_sections("leaderboard,coinz")


#: What the order lesson says z and its thresholds are, after its question (audit: 1.645 was
#: never said to be the papers' one-sided rank_chain threshold, 1.96 the two-sided 95% level).
Z_READ = ("Here z = |μ − μ′| / √(σ² + σ′²) is the gap between their Bayes@N scores over its "
          "standard deviation, and the papers read Φ(z) as the confidence ρ that the order is "
          "right (Don't Pass@k (2026), §2.5). So z = 1.645 is ρ = 95%, a one-sided 95% bound: the "
          "threshold of the papers' rank_chain rule (the Leaderboard's `rank_chain` column). "
          "z = 1.96 is ρ = 97.5%, which the paper calls a 97.5% CI but is the two-sided 95% "
          "level: the one at which the Leaderboard decides a single pair (with more pairs, its "
          "Holm adjustment asks for more).")
PAPER_ORDER = ("In the paper's example, LLM_10 (π̄ = 0.6213) and LLM_9 (π̄ = 0.608) differ by "
               "1.3 points (Don't Pass@k (2026), App. D). How often does Bayes@N put them in the "
               "right order, and when does their z-score clear 1.645? " + Z_READ)


def test_order_lesson_says_what_its_z_thresholds_are():
    """The numbers Z_READ states: Φ(1.645) = 0.95 and Φ(1.96) = 0.975 (one-sided), a
    two-sided test at 95% decides one pair past 1.96 (the Leaderboard's decide, without an
    adjustment: Holm over one pair is the same), and the rank_chain column puts a pair
    apart past 1.645."""
    from scipy import stats

    from scorio_core import decision

    assert round(float(stats.norm.cdf(1.645)), 3) == 0.95
    assert round(float(stats.norm.cdf(1.96)), 3) == 0.975
    assert round(decision.z_threshold(0.95), 3) == 1.645
    decided = [bool(decision.decide(np.array([[0.5, P], [1 - P, 0.5]]), 0.95)[0, 1])
               for P in stats.norm.cdf([1.95, 1.97])]  # P(first better) at z = 1.95, 1.97
    assert decided == [False, True]
    mu, sigma = np.array([0.6, 0.6 - 1.7 * np.sqrt(2) * 0.01]), np.array([0.01, 0.01])
    assert decision.ci_aware_ranks(mu, sigma, 0.95).tolist() == [1, 2]  # z = 1.7 > 1.645
    mu[1] = 0.6 - 1.6 * np.sqrt(2) * 0.01
    assert decision.ci_aware_ranks(mu, sigma, 0.95).tolist() == [1, 1]  # z = 1.6 < 1.645


def test_order_how_to_read_names_the_pair_and_spread_the_run_used(results):
    """The order study's "How to read this" said the paper's example (LLM_10 and LLM_9,
    1.3 points) whatever pair was simulated. Of a run it names the run's own pair and,
    where it is not the default, its spread, read from the result; with the paper's
    settings it is the paper's text."""
    a = SIMULATIONS["order"]
    assert a.how_to_read == PAPER_ORDER  # the definition's own: the paper's settings
    paper = a.params(**SMALL["order"])
    assert a.how_to_read_for(paper, results["order"]) == PAPER_ORDER
    own = a.params(upper=0.7, lower=0.65, concentration=10.0, sims=60, seed=2)
    r = a.run(None, own)
    text = a.how_to_read_for(own, r)
    assert text == ("The better model (π̄ = 0.7) and the worse model (π̄ = 0.65) differ by "
                    "5.0 points (Don't Pass@k (2026), App. D), here on 30 questions of spread "
                    "κ = 10. How often does Bayes@N put them in the right order, and when does "
                    "their z-score clear 1.645? " + Z_READ)
    assert "LLM_10" not in text and "paper's example" not in text
    # the values come from the result: the run's pair even beside the default settings
    assert a.how_to_read_for(a.params(), r) == text
    assert a.how_to_read_for(own) == text  # before a run: its settings
    assert a.how_to_read_for() == PAPER_ORDER  # no run: the definition's text
    # the paper's pair with another spread: still the paper's pair, and the run's κ
    r = a.run(None, a.params(concentration=1.5, sims=60))
    assert a.how_to_read_for(a.params(concentration=1.5), r) == PAPER_ORDER.replace(
        "App. D).", "App. D), here on 30 questions of spread κ = 1.5.")


def test_report_says_how_to_read_each_order_run_with_its_own_pair(tmp_path):
    """A report (HTML, Markdown, notebook) with two order sections: each section's "How to
    read this" names the pair it simulated -- the paper's text for the paper's settings."""
    import re
    from html import unescape

    from scorio_core.report import build_report, to_html, to_markdown, to_notebook

    data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 4)), name="demo")
    rep = build_report(data, [("order", {"upper": 0.8, "lower": 0.6, "sims": 60}),
                              ("order", {"sims": 60})])
    own = ("The better model (π̄ = 0.8) and the worse model (π̄ = 0.6) differ by 20.0 points "
           "(Don't Pass@k (2026), App. D). How often")
    md = to_markdown(rep, tmp_path / "charts")
    assert md.count(f"**How to read this.** {own}") == 1
    assert md.count(f"**How to read this.** {PAPER_ORDER}") == 1
    shown = [unescape(re.sub(r"<[^>]+>", "", m))
             for m in re.findall(r'<p class="howto">(.*?)</p>', to_html(rep))]
    assert [t.startswith(f"How to read this. {own}") for t in shown] == [True, False]
    # HTML draws `rank_chain` as code: its text without the backticks
    assert shown[1] == f"How to read this. {PAPER_ORDER.replace('`', '')}"
    cells = [c.source for c in to_notebook(rep, tmp_path / "demo.npz").cells
             if "How to read this" in c.source]
    assert [own in c for c in cells] == [True, False]
    assert [PAPER_ORDER in c for c in cells] == [False, True]


def test_coins_intro_says_the_questions_the_run_asked():
    """The coins study's intro said "answer 30 questions" whatever the questions M setting:
    a report of a run on 12 questions still said 30."""
    from scorio_core.report import build_report, to_markdown

    a = SIMULATIONS["coins"]
    assert "answer 30 questions;" in a.how_to_read  # the paper's settings
    own = a.params(**SMALL["coins"])  # M = 12
    assert "answer 12 questions;" in a.how_to_read_for(own)
    assert "30 questions" not in a.how_to_read_for(own)
    data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 4)), name="demo")
    md = to_markdown(build_report(data, [("coins", SMALL["coins"])]))
    how = next(ln for ln in md.splitlines() if ln.startswith("**How to read this.**"))
    assert "answer 12 questions;" in how and "30 questions" not in how


def test_report_says_what_to_notice_in_each_study_as_the_page_does(tmp_path):
    """The Simulator page closes each lesson with "What to notice"; a report of the same
    run said nothing of it. Each study's section in HTML, Markdown and the notebook now has
    the notice of its own run, from the one declaration the page reads
    (``Analysis.notice_for``); an analysis of the data has none."""
    import re
    from html import unescape

    from scorio_core.report import build_report, to_html, to_markdown, to_notebook

    data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 4)), name="demo")
    rep = build_report(data, ["leaderboard", ("order", {"upper": 0.8, "lower": 0.6,
                                                         "sims": 60}),
                              ("order", {"sims": 60}), "rubric-lesson"])
    studies = [s for s in rep.sections if not s.analysis.uses_data]
    notices = [s.analysis.notice_for(s.params, s.result) for s in studies]
    assert all(notices) and len(set(notices)) == 3  # each run's own
    assert ANALYSES["leaderboard"].notice_for(rep.sections[0].params,
                                              rep.sections[0].result) is None
    # the runs' own outcomes: a 20-point gap is almost always ordered, 1.3 points is not
    assert notices[0].startswith("At 80 trials per question the order is almost always")
    assert notices[1].startswith("Even 80 trials per question leave a ")
    assert "μ = 0.56250 and σ = 0.09200" in notices[2]

    md = to_markdown(rep, tmp_path / "charts")
    said = [ln for ln in md.splitlines() if ln.startswith("**What to notice.**")]
    assert len(said) == 3
    from scorio_core.formatting import md_prose

    assert said == [f"**What to notice.** {md_prose(n)}" for n in notices]
    page = to_html(rep)
    shown = [unescape(re.sub(r"<[^>]+>", "", m)) for m in
             re.findall(r'<p class="notice"><strong>What to notice\.</strong>(.*?)</p>', page)]
    assert [t.strip() == unescape(re.sub(r"`([^`]*)`", r"\1", n)).strip()
            for t, n in zip(shown, notices, strict=True)] == [True] * 3
    sections = page.split('<section id="s')[1:]
    assert "What to notice" not in sections[0]  # the leaderboard
    cells = [c.source for c in to_notebook(rep, tmp_path / "demo.npz").cells
             if c.source.startswith("**What to notice.**")]
    assert cells == [f"**What to notice.** {n}" for n in notices]


def test_the_rubric_lessons_how_to_read_ends_on_its_formula_in_every_rendering(tmp_path):
    """The rubric lesson's "How to read this" ended "with ν = counts + prior + 1:" -- on the
    Simulator page its formula follows the colon; in a report, its notebook and the terminal
    nothing did. The formula is declared once with the lesson (LaTeX for the page, Unicode
    for the others), and every rendering prints it after the colon: the sentence is
    complete, in every study's intro. The formula as written is what the lesson computes."""
    import re
    from html import unescape

    from scorio_core.charts.simulate import LESSON_TEXT, RUBRIC_FORMULA, lesson_intro
    from scorio_core.formatting import md_prose
    from scorio_core.report import build_report, to_html, to_markdown, to_notebook

    assert LESSON_TEXT["rubric"].formula is RUBRIC_FORMULA
    assert [k for k, t in LESSON_TEXT.items() if t.formula is not None] == ["rubric"]
    for sid, a in SIMULATIONS.items():  # every intro a complete sentence
        assert a.how_to_read_for(a.params(**SMALL[sid]))[-1] in ".?", sid
    a = SIMULATIONS["rubric-lesson"]
    p = a.params(**SMALL["rubric-lesson"])
    page = lesson_intro("rubric", p, formula=False)  # the page draws the LaTeX under it
    assert page.endswith("per question):")
    how = a.how_to_read_for(p)
    assert how == f"{page} {RUBRIC_FORMULA.plain}"
    # the two forms say the same terms: the lesson table's columns, the weights, T and M
    for plain, latex in [("μ = w_0 + ", r"\mu = w_0 + "), ("(1/M) Σ_α m_α", r"\frac{1}{M}"
                         r"\sum_\alpha m_\alpha"), ("(ν_αk/T)(w_k − w_0)",
                         r"\frac{\nu_{\alpha k}}{T}(w_k - w_0)"), ("σ² = Σ_α var_α / "
                         "(M²(T + 1))", r"\sigma^2 = \frac{\sum_\alpha \mathrm{var}_\alpha}"
                         r"{M^2 (T+1)}"), ("(w_k − w_0)² − m_α²", r"(w_k-w_0)^2 - m_\alpha^2")]:
        assert plain in RUBRIC_FORMULA.plain and latex in RUBRIC_FORMULA.latex, plain

    data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 4)), name="demo")
    rep = build_report(data, [("rubric-lesson", SMALL["rubric-lesson"])])
    r = rep.sections[0].result
    assert a.how_to_read_for(p, r) == how
    assert f"**How to read this.** {md_prose(how)}" in to_markdown(
        rep, tmp_path / "charts").splitlines()
    (shown,) = [unescape(re.sub(r"<[^>]+>", "", m))
                for m in re.findall(r'<p class="howto">(.*?)</p>', to_html(rep))]
    assert shown == f"How to read this. {how}"
    cells = [c.source for c in to_notebook(rep, tmp_path / "demo.npz").cells]
    assert sum(f"**How to read this.** {how}" in c for c in cells) == 1

    # the formula, term by term, is the lesson's table: with the prior R0 of SMALL, T = 9
    w = np.asarray(p.weights)
    t = r.table
    nu = t[[f"ν_{k}" for k in range(len(w))]].to_numpy(float)
    M, C, D, N = len(p.R), len(w) - 1, len(p.R0[0]), len(p.R[0])
    assert r.T == 1 + C + D + N == nu.sum(1)[0]
    m = (nu / r.T * (w - w[0])).sum(1)
    var = (nu / r.T * (w - w[0]) ** 2).sum(1) - m**2
    np.testing.assert_allclose(t["m_α"], m)
    np.testing.assert_allclose(t["var_α"], var)
    np.testing.assert_allclose([r.mu, r.sigma**2], [w[0] + m.mean(),
                                                    var.sum() / (M**2 * (r.T + 1))])
