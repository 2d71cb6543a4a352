"""AppTest: every Simulator lesson renders its chart(s) without errors (small settings)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "app_pages/simulator.py"

# lesson -> (widget key, small value) pairs that keep each run to about a second
SMALL = {
    "Biased coins": {"sim_coins_reps": 50, "sim_coins_n": 10},
    "Prior depth": {"sim_depth_reps": 200},
    "Correct order": {"sim_order_n": 200},
    "Interval calibration": {"sim_cal_reps": 200},
    "Rubric weights": {},
}


@pytest.fixture(scope="module")
def at():
    app = AppTest.from_file(APP, default_timeout=120)
    app.run()
    return app


@pytest.mark.parametrize("lesson", list(SMALL))
def test_lesson_renders(at, lesson):
    at.switch_page(PAGE).run()
    for key, value in SMALL[lesson].items():
        at.session_state[key] = value
    at.radio(key="sim_lesson").set_value(lesson).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert len(at.get("vega_lite_chart")) >= 1
    assert any("What to notice" in i.value for i in at.info)


def test_rubric_lesson_shows_reference_values(at):
    """μ and σ in the table's decimals (5, as m_α and var_α): the metrics said 0.562500 and
    the notice 0.5625 beside a table of 0.56250."""
    at.switch_page(PAGE).run()
    at.radio(key="sim_lesson").set_value("Rubric weights").run()
    values = {m.label: m.value for m in at.metric}
    assert values["μ"] == "0.56250" and values["σ"] == "0.09200"
    notice = next(i.value for i in at.info if "What to notice" in i.value)
    assert "μ = 0.56250 and σ = 0.09200" in notice
    # the formula names the table's var_α (the bracketed term of σ²; it was v_α beside ν_k)
    formula = at.latex[0].value
    assert r"\sigma^2 = \frac{\sum_\alpha \mathrm{var}_\alpha}" in formula
    # ... the lesson's one declaration (a report prints its Unicode form), drawn right after
    # the intro's colon -- it came after the weight sliders; the intro has no second copy
    from scorio_core.charts.simulate import RUBRIC_FORMULA

    assert RUBRIC_FORMULA.latex in formula
    shown = list(at.main)
    at_intro = next(i for i, e in enumerate(shown) if type(e).__name__ == "Markdown"
                    and e.value.startswith("Two questions, five trials"))
    assert shown[at_intro].value.endswith("per question):")
    assert type(shown[at_intro + 1]).__name__ == "Latex" and shown[at_intro + 1].value == formula
    assert not any(RUBRIC_FORMULA.plain[:20] in m.value for m in at.markdown)
    assert list(at.dataframe[0].value.columns)[-2:] == ["m_α", "var_α"]
    at.selectbox(key="sim_r0").set_value("R0 = [[2], [1]]").run()
    values = {m.label: m.value for m in at.metric}
    assert values["μ"] == "0.58333" and values["σ"] == "0.08517"


def test_what_to_notice_quotes_the_settings_not_the_paper(at):
    """Issue 24: "What to notice" said 80 trials while the Trials N box said 40."""
    at.switch_page(PAGE).run()
    at.session_state["sim_coins_reps"] = 50
    at.session_state["sim_coins_n"] = 12
    at.radio(key="sim_lesson").set_value("Biased coins").run()
    notice = next(i.value for i in at.info if "What to notice" in i.value)
    assert "gaps that 12 trials per question on 30 questions cannot resolve" in notice
    assert "80 trials" not in notice


def test_correct_order_lesson_quotes_its_pair_and_result(at):
    at.switch_page(PAGE).run()
    at.session_state["sim_order_n"] = 200
    at.session_state["sim_up"] = 0.7
    at.session_state["sim_lo"] = 0.5
    at.radio(key="sim_lesson").set_value("Correct order").run()
    assert not at.exception, [e.value for e in at.exception]
    text = " ".join(m.value for m in at.markdown)
    assert "(π̄ = 0.7) and the worse model (π̄ = 0.5) differ by 20.0 points" in text
    assert "LLM_10" not in text and "0.6213" not in text
    notice = next(i.value for i in at.info if "What to notice" in i.value)
    assert "1-in-6" not in notice  # a 20-point gap is ordered almost always at N = 80
    # the study's one declaration of its notice, which a report of this run prints too
    from scorio_core.definitions import SIMULATIONS

    a = SIMULATIONS["order"]
    p = a.params(upper=0.7, lower=0.5, sims=200)
    assert notice == f"**What to notice.** {a.notice_for(p, a.run(None, p))}"


def test_correct_order_with_the_worse_model_first_says_the_studys_rule_by_its_boxes(at):
    """The better model's π̄ at or below the worse one's: the study's own rule (OrderParams,
    as ``scorio-studio simulate order`` says it with its flags) names the two boxes by their
    labels and the values in them; nothing is simulated. The page kept a copy of the rule
    with its own wording."""
    at.switch_page(PAGE).run()
    at.radio(key="sim_lesson").set_value("Correct order").run()
    at.number_input(key="sim_up").set_value(0.5).run()
    at.number_input(key="sim_lo").set_value(0.6).run()
    assert not at.exception, [e.value for e in at.exception]
    up, lo = at.number_input(key="sim_up").label, at.number_input(key="sim_lo").label
    assert (up, lo) == ("Better model π̄", "Worse model π̄")
    (msg,) = [e.value for e in at.error]
    assert msg == (f"**{up}** must exceed **{lo}** (the better model first); got **{up}** "
                   f"`0.5`, **{lo}** `0.6`")
    assert not at.warning and not at.get("vega_lite_chart")
    assert not any("What to notice" in i.value for i in at.info)
    # above the boxes: the paper's pair, said as the paper's (it read as if it were theirs)
    assert _intro(at) == [f"{PAPER_PAIR} differ by 1.3 points"]
    at.number_input(key="sim_lo").set_value(0.5).run()  # equal: not ordered either
    assert "got **Better model π̄** `0.5`, **Worse model π̄** `0.5`" in at.error[0].value
    at.number_input(key="sim_up").set_value(0.7).run()
    at.number_input(key="sim_lo").set_value(0.65).run()
    assert not at.error and any("What to notice" in i.value for i in at.info)
    assert _intro(at) == ["The better model (π̄ = 0.7) and the worse model (π̄ = 0.65) differ "
                          "by 5.0 points"]
    at.number_input(key="sim_up").set_value(0.6213).run()
    at.number_input(key="sim_lo").set_value(0.608).run()
    assert not at.error and any("What to notice" in i.value for i in at.info)
    assert _intro(at) == [f"{PAPER_PAIR} differ by 1.3 points"]  # the boxes hold the paper's


PAPER_PAIR = "In the paper's example, LLM_10 (π̄ = 0.6213) and LLM_9 (π̄ = 0.608)"


def _intro(at) -> list[str]:
    """The order lesson's opening sentence(s) on the page, up to the citation."""
    return [m.value.split(" (Don't Pass@k")[0] for m in at.markdown if "differ by" in m.value]


def test_correct_order_panels_each_take_half_the_column(at):
    """The order study's chart was one side-by-side chart of two 330 px panels: past the main
    column below 1280 px (tests/app/test_browser.py measures it in Chromium). Its panels
    are two charts in two page columns, each as wide as its column, both drawing the
    study's table (the one definition's chart, ``charts.correct_order_chart``)."""
    import json

    from scorio_core.definitions import SIMULATIONS

    at.switch_page(PAGE).run()
    at.session_state["sim_order_n"] = 200
    at.radio(key="sim_lesson").set_value("Correct order").run()
    assert not at.exception, [e.value for e in at.exception]
    charts = at.get("vega_lite_chart")
    specs = [json.loads(c.proto.spec) for c in charts]
    assert len(specs) == 2 and not any("hconcat" in s for s in specs)
    assert [s["width"] for s in specs] == ["container", "container"]
    assert all(len(c.proto.datasets) >= 1 for c in charts)  # each with the study's rows
    whole = SIMULATIONS["order"].charts(SIMULATIONS["order"].run(
        None, SIMULATIONS["order"].params(sims=200)))[0].chart.to_dict()
    # each panel as the definition draws it: its own marks and axes
    for spec, panel in zip(specs, whole["hconcat"], strict=True):
        assert spec.get("encoding") == panel.get("encoding")
        assert [x.get("encoding") for x in spec.get("layer", [])] == [
            x.get("encoding") for x in panel.get("layer", [])]


def test_spread_box_reads_as_its_metric_and_every_questions_M_is_offered(at):
    """The audit: the Spread κ box showed "3.00" beside the "κ used" metric's "3"; the
    calibration lesson's Questions M multiselect cut its chips (the "100" chip faded, "300"
    hidden) in a quarter of the column. The box now shows κ as the metric and the texts write
    it (formatting.SETTING_PRINTF), and M is a wrapping row of pills, every option shown."""
    from app_state.sim_state import CAL_M
    from scorio_core.formatting import SETTING_PRINTF, setting_text

    at.switch_page(PAGE).run()
    at.session_state["sim_order_n"] = 200
    at.radio(key="sim_lesson").set_value("Correct order").run()
    box = at.number_input(key="sim_order_kappa")
    metric = next(m.value for m in at.metric if m.label == "κ used")
    assert box.proto.format == SETTING_PRINTF
    assert metric == setting_text(box.value) == "8"
    at.session_state["sim_cal_reps"] = 200
    at.radio(key="sim_lesson").set_value("Interval calibration").run()
    assert at.number_input(key="sim_cal_kappa").proto.format == SETTING_PRINTF
    pills = at.pills(key="sim_cal_m")
    assert [int(o) for o in pills.options] == list(CAL_M)
    assert set(pills.value) <= set(CAL_M) and pills.value


def test_a_link_with_bad_settings_of_a_study_keeps_that_study_open():
    """The audit: a link with the order study's worse model first (order.upper=0.6&
    order.lower=0.7) said so in the sidebar but dropped study=order and opened Biased coins.
    The study opens (with its page's own settings) and the sidebar says what was wrong, by
    the boxes' labels; a link's other analyses keep their settings."""
    app = AppTest.from_file(APP, default_timeout=120)
    for k, v in {"study": "order", "order.upper": "0.6", "order.lower": "0.7",
                 "greedy.seed": "7"}.items():
        app.query_params[k] = v
    app.switch_page(PAGE)
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    assert app.radio(key="sim_lesson").value == "order"
    (said,) = [e.value for e in app.sidebar.error]
    assert said.startswith("This link's settings could not be used: **Better model π̄** must "
                           "exceed **Worse model π̄** (the better model first); got ")
    assert said.endswith("Their page shows its own settings instead.")
    assert app.number_input(key="sim_up").value > app.number_input(key="sim_lo").value
    assert any("What to notice" in i.value for i in app.info)  # the study ran
    from app_pages._page_state import LINK

    assert app.session_state[LINK].get("greedy.seed") == "7"  # the rest of the link kept
    assert "order.upper" not in app.session_state[LINK]


def test_coins_metric_picker_names_metrics_as_the_legend_does(at):
    """The audit: the legend and the metric picker showed raw ids (g_pass_at_k_tau_4_0.5)."""
    from scorio_core import simulate as sim

    at.switch_page(PAGE).run()
    at.session_state["sim_coins_reps"] = 50
    at.session_state["sim_coins_n"] = 10
    at.radio(key="sim_lesson").set_value("Biased coins").run()
    picker = at.multiselect(key="sim_coins_methods")
    assert list(picker.options) == [sim.metric_name(m) for m in sim.FIG2A_METHODS]
    assert "G-Pass@4 (τ = 0.5)" in picker.options and "g_pass_at_k_tau_4_0.5" not in str(
        picker.options)
    assert list(picker.value) == list(sim.FIG2A_METHODS)  # the settings keep the ids
