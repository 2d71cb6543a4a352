"""Simulator: lessons on simulated LLMs with known truth (000 §2.3-2.7, App. C-D). Each
renders one definition of :data:`scorio_core.definitions.SIMULATIONS` (as ``scorio-studio
simulate`` does) through ``app_pages/_render``; the sidebar's dataset is not used. Widget ranges
and settings <-> widgets: :mod:`app_state.sim_state` (Save session, links)."""

from __future__ import annotations

import streamlit as st

from app_pages import _common, _page_state, _render
from app_state.page_state import from_state
from app_state.sim_state import CAL_M, PRIORS, WIDGETS
from scorio_core import simulate as sim
from scorio_core.charts import lesson_intro, lesson_notice
from scorio_core.definitions import SIMULATIONS
from scorio_core.definitions.simulate import highlights

#: study id -> (lesson label, lesson text key)
LESSONS = {"coins": ("Biased coins", "coins"), "prior-depth": ("Prior depth", "depth"),
           "order": ("Correct order", "order"), "calibration": ("Interval calibration",
                                                                 "calibration"),
           "rubric-lesson": ("Rubric weights", "rubric")}


def _num(col, label, sid, name, **kw):
    key, lo, hi = WIDGETS[sid][name]
    return col.number_input(label, lo, hi, key=key, **kw)


def coins(c):
    _num(c[0], "Spread κ (Beta concentration)", "coins", "concentration",
         help="Smaller κ: questions differ more in difficulty.")
    _num(c[1], "Trials N", "coins", "N")
    _num(c[2], "Fresh datasets", "coins", "replicates", step=50)
    _num(c[3], "Seed", "coins", "seed")
    st.multiselect("Metrics", sim.FIG2A_METHODS, key="sim_coins_methods")
    st.toggle("New questions in every dataset", key="sim_coins_fresh",
              help="Off: one fixed set of 30 questions (the paper). On: averages over sets.")
    return "Choose at least one metric." if not st.session_state["sim_coins_methods"] else None


def depth(c):
    _num(c[0], "Replicates", "prior-depth", "replicates", step=200)
    _num(c[1], "Seed", "prior-depth", "seed")


def order(c):
    up = _num(c[0], "Better model π̄", "order", "upper", format="%.4f")
    lo = _num(c[1], "Worse model π̄", "order", "lower", format="%.4f")
    _num(c[2], "Spread κ", "order", "concentration")
    _num(c[3], "Datasets per N", "order", "sims", step=200)
    return None if lo < up else "The better model's π̄ must exceed the worse model's."


def calibration(c):
    c[0].slider("Mean success", *WIDGETS["calibration"]["means"][1:], key="sim_cal_mean")
    _num(c[1], "Spread κ", "calibration", "concentration",
         help="κ = 2 with mean 0.5 is the uniform prior of Bayes@N.")
    Ms = c[2].multiselect("Questions M", CAL_M, key="sim_cal_m")
    _num(c[3], "Datasets", "calibration", "replicates", step=200)
    return None if Ms else "Choose at least one M."


def rubric(c):
    st.latex(
        r"\mu = w_0 + \frac{1}{M}\sum_\alpha m_\alpha,\quad m_\alpha = \sum_k "
        r"\frac{\nu_{\alpha k}}{T}(w_k - w_0),\quad \sigma^2 = \frac{\sum_\alpha "
        r"\big[\sum_k \frac{\nu_{\alpha k}}{T}(w_k-w_0)^2 - m_\alpha^2\big]}{M^2 (T+1)}"
    )
    for k in range(3):
        c[k].slider(f"weight of category {k}", 0.0, 1.0, step=0.05, key=f"sim_w{k}")
    c[3].selectbox("Prior outcomes", list(PRIORS), key="sim_r0")
    st.code(f"R = {[list(r) for r in st.session_state['_sim_rubric-lesson_R']]}",
            language="python")


def main() -> None:
    st.title("Simulator")
    st.caption("Teaching lessons on simulated LLMs with known truth (synthetic data).")
    _page_state.study_widget("coins")
    sid = st.radio("Lesson", list(LESSONS), horizontal=True, key=_page_state.STUDY_KEY,
                   format_func=lambda s: LESSONS[s][0])
    text, a = LESSONS[sid][1], SIMULATIONS[sid]
    intro = st.empty()  # the paper's numbers until the settings are read, then these
    intro.markdown(a.how_to_read)
    _page_state.widgets(sid, None)
    if why := globals()[text](st.columns(4 if sid != "prior-depth" else 2)):
        st.warning(why)
        return
    params = from_state(sid, st.session_state, None)
    intro.markdown(lesson_intro(text, params))
    _page_state.remember(sid, None, params)
    result = _render.run(a, None, params, "Simulating")
    if hl := highlights(sid, result):
        for col, h in zip(st.columns(len(hl)), hl, strict=True):
            col.metric(h.label, h.value, help=h.help or None)
    if sid == "rubric-lesson":
        st.dataframe(result.table, hide_index=True, width="stretch",
                     column_config=_common.core_formats(result.table))
    _render.charts(a, result, f"sim_{text}", widths=("content",) if sid == "order" else ())
    st.info(f"**What to notice.** {lesson_notice(text, params, result)}")
    _render.footer(a, None, params, result, f"sim_{text}")


main()
