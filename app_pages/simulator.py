"""Simulator: lessons on simulated LLMs with known truth (000 §2.3-2.7, App. C-D). Each
renders one definition of :data:`scorio_core.definitions.SIMULATIONS` (as ``scorio-studio
simulate`` does) through ``app_pages/_render``; the sidebar's dataset is not used. Labels,
help and ranges: each study's declarations (``scorio_core.simulate.params``); settings <->
widgets: :mod:`app_state.sim_state` (Save session, links)."""

from __future__ import annotations

import streamlit as st

from app_pages import _common, _page_state, _render
from app_state.page_state import from_state
from app_state.sim_state import CAL_M, PRIORS, WIDGETS
from scorio_core import ValidationError
from scorio_core import simulate as sim
from scorio_core.charts.simulate import LESSON_TEXT, lesson_intro
from scorio_core.definitions import SIMULATIONS
from scorio_core.definitions.simulate import RubricLessonParams, highlights
from scorio_core.formatting import SCORE_PRINTF, SETTING_PRINTF
from scorio_core.params import widget

#: study id -> (lesson label, lesson text key)
LESSONS = {"coins": ("Biased coins", "coins"), "prior-depth": ("Prior depth", "depth"),
           "order": ("Correct order", "order"), "calibration": ("Interval calibration",
                                                                 "calibration"),
           "rubric-lesson": ("Rubric weights", "rubric")}


def coins(c):
    _common.setting(c[0], "coins", "concentration", format=SETTING_PRINTF)
    _common.setting(c[1], "coins", "N")
    _common.setting(c[2], "coins", "replicates", step=50)
    _common.setting(c[3], "coins", "seed")
    _common.setting(st, "coins", "methods", "multiselect", options=sim.FIG2A_METHODS,
                    format_func=sim.metric_name)  # as the legend names them
    _common.setting(st, "coins", "fresh_questions", "toggle")
    return "Choose at least one metric." if not st.session_state["sim_coins_methods"] else None


def depth(c):
    _common.setting(c[0], "prior-depth", "replicates", step=200)
    _common.setting(c[1], "prior-depth", "seed")


def order(c):  # upper > lower: the study's own rule, said by main() when broken
    _common.setting(c[0], "order", "upper", format=SCORE_PRINTF)
    _common.setting(c[1], "order", "lower", format=SCORE_PRINTF)
    _common.setting(c[2], "order", "concentration", format=SETTING_PRINTF)
    _common.setting(c[3], "order", "sims", step=200)


def calibration(c):
    _common.setting(c[0], "calibration", "means", "slider")  # one mean on the page
    _common.setting(c[1], "calibration", "concentration", format=SETTING_PRINTF)
    # a row of pills that wraps: a multiselect's chips were cut in a quarter of the column
    # (the third faded, the fourth hidden at 1280 px)
    Ms = _common.setting(c[2], "calibration", "M_values", "pills", options=CAL_M,
                         selection_mode="multi", wrap=True)
    _common.setting(c[3], "calibration", "replicates", step=200)
    return None if Ms else "Choose at least one M."


def rubric(c):
    w = widget(RubricLessonParams, "weights")  # three sliders, one setting
    for k in range(3):
        c[k].slider(f"{w['label']} {k}", w["min_value"], w["max_value"], step=0.05,
                    key=f"{WIDGETS['rubric-lesson']['weights']}{k}", help=w["help"])
    _common.setting(c[3], "rubric-lesson", "R0", options=list(PRIORS))
    _common.code_block(f"R = {[list(r) for r in st.session_state['_sim_rubric-lesson_R']]}")


def main() -> None:
    st.title("Simulator")
    st.caption("Teaching lessons on simulated LLMs with known truth (synthetic data).")
    _page_state.study_widget("coins")
    sid = st.radio("Lesson", list(LESSONS), horizontal=True, key=_page_state.STUDY_KEY,
                   format_func=lambda s: LESSONS[s][0])
    text, a = LESSONS[sid][1], SIMULATIONS[sid]
    # above the boxes, said once they are read: their numbers; while they do not fit
    # together, the paper's example, named as such -- the intro a report of the run reads,
    # but for the formula it ends on (the rubric lesson's): drawn in LaTeX right under it
    intro = st.empty()
    if formula := LESSON_TEXT[text].formula:
        st.latex(formula.latex)
    _page_state.widgets(sid, None)
    if why := globals()[text](st.columns(4 if sid != "prior-depth" else 2)):
        intro.markdown(lesson_intro(text, formula=False))
        st.warning(why)
        return
    try:  # settings that do not fit together (order: upper > lower) name their widgets
        params = from_state(sid, st.session_state, None)
    except ValidationError as exc:
        intro.markdown(lesson_intro(text, formula=False))
        _common.show_error(exc)
        return
    intro.markdown(lesson_intro(text, params, formula=False))
    _page_state.remember(sid, None, params)
    result = _render.run(a, None, params, "Simulating")
    if hl := highlights(sid, result):
        for col, h in zip(st.columns(len(hl)), hl, strict=True):
            col.metric(h.label, h.value, help=h.help or None)
    if sid == "rubric-lesson":
        _common.show_core(st, result.table, hide_index=True, width="stretch",
                          columns=a.column_help("lesson"))
    # the order study's two panels side by side, each as wide as half the main column
    _render.charts(a, result, f"sim_{text}", widths=(_render.PANELS,) if sid == "order" else ())
    st.info(f"**What to notice.** {a.notice_for(params, result)}")  # as a report says it
    _render.footer(a, None, params, result, f"sim_{text}")


main()
