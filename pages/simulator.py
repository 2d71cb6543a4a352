"""Simulator: lessons on simulated LLMs with known truth (000 §2.3-2.7, App. C-D). Each
renders one definition of :data:`scorio_core.analyses.SIMULATIONS` (as ``scorio-studio
simulate`` does) through ``pages/_render``; the sidebar's dataset is not used."""

from __future__ import annotations

import streamlit as st

from pages import _common, _render
from scorio_core import simulate as sim
from scorio_core.analyses import SIMULATIONS
from scorio_core.analyses.simulate import highlights
from scorio_core.charts import LESSON_TEXT

#: lesson -> (study id, lesson text key)
LESSONS = {
    "Biased coins": ("coins", "coins"),
    "Prior depth": ("prior-depth", "depth"),
    "Correct order": ("order", "order"),
    "Interval calibration": ("calibration", "calibration"),
    "Rubric weights": ("rubric-lesson", "rubric"),
}
SEED_MAX = 2**31 - 1


def coins(a):
    c = st.columns(4)
    kappa = c[0].number_input("Spread κ (Beta concentration)", 0.5, 100.0, 3.0, key="sim_kappa",
                              help="Smaller κ: questions differ more in difficulty.")
    n_max = c[1].number_input("Trials N", 8, 200, 40, key="sim_coins_n")
    reps = c[2].number_input("Fresh datasets", 50, 3000, 300, step=50, key="sim_coins_reps")
    seed = c[3].number_input("Seed", 0, SEED_MAX, 0, key="sim_coins_seed")
    methods = st.multiselect("Metrics", sim.FIG2A_METHODS, list(sim.FIG2A_METHODS),
                             key="sim_coins_methods")
    fresh = st.toggle("New questions in every dataset", False, key="sim_coins_fresh",
                      help="Off: one fixed set of 30 questions (the paper). On: averages over "
                      "question sets.")
    if not methods:
        st.warning("Choose at least one metric.")
        return None
    return a.params(concentration=float(kappa), N=int(n_max), replicates=int(reps),
                    methods=tuple(methods), fresh_questions=fresh, seed=int(seed))


def depth(a):
    c = st.columns(2)
    reps = c[0].number_input("Replicates", 200, 20000, 2000, step=200, key="sim_depth_reps")
    seed = c[1].number_input("Seed", 0, SEED_MAX, 0, key="sim_depth_seed")
    return a.params(replicates=int(reps), seed=int(seed))


def order(a):
    c = st.columns(4)
    upper = c[0].number_input("Better model π̄", 0.01, 0.99, 0.6213, format="%.4f", key="sim_up")
    lower = c[1].number_input("Worse model π̄", 0.01, 0.99, 0.608, format="%.4f", key="sim_lo")
    kappa = c[2].number_input("Spread κ", 0.5, 10000.0, 3.0, key="sim_order_kappa")
    sims = c[3].number_input("Datasets per N", 200, 20000, 2000, step=200, key="sim_order_n")
    if not lower < upper:
        st.warning("The better model's π̄ must exceed the worse model's.")
        return None
    return a.params(upper=float(upper), lower=float(lower), concentration=float(kappa),
                    sims=int(sims))


def calibration(a):
    c = st.columns(4)
    mean = c[0].slider("Mean success", 0.05, 0.95, 0.5, key="sim_cal_mean")
    kappa = c[1].number_input("Spread κ", 0.5, 10000.0, 2.0, key="sim_cal_kappa",
                              help="κ = 2 with mean 0.5 is the uniform prior of Bayes@N.")
    Ms = c[2].multiselect("Questions M", [10, 30, 100, 300], [10, 30, 100], key="sim_cal_m")
    reps = c[3].number_input("Datasets", 200, 10000, 2000, step=200, key="sim_cal_reps")
    if not Ms:
        st.warning("Choose at least one M.")
        return None
    return a.params(means=(float(mean),), M_values=tuple(Ms), concentration=float(kappa),
                    replicates=int(reps))


PRIORS = {"none": None, "R0 = [[2], [1]]": ((2,), (1,)), "R0 = [[0, 2], [1, 2]]": ((0, 2), (1, 2))}


def rubric(a):
    st.latex(
        r"\mu = w_0 + \frac{1}{M}\sum_\alpha m_\alpha,\quad m_\alpha = \sum_k "
        r"\frac{\nu_{\alpha k}}{T}(w_k - w_0),\quad \sigma^2 = \frac{\sum_\alpha "
        r"\big[\sum_k \frac{\nu_{\alpha k}}{T}(w_k-w_0)^2 - m_\alpha^2\big]}{M^2 (T+1)}"
    )
    c = st.columns(4)
    w = [c[k].slider(f"weight of category {k}", 0.0, 1.0, v, 0.05, key=f"sim_w{k}")
         for k, v in enumerate((0.0, 0.5, 1.0))]
    prior = c[3].selectbox("Prior outcomes", list(PRIORS), key="sim_r0")
    st.code(f"R = {[list(r) for r in sim.LESSON_R]}", language="python")
    return a.params(weights=tuple(w), R0=PRIORS[prior])


def main() -> None:
    st.title("Simulator")
    st.caption("Teaching lessons on simulated LLMs with known truth (synthetic data).")
    lesson = st.radio("Lesson", list(LESSONS), horizontal=True, key="sim_lesson")
    sid, text = LESSONS[lesson]
    a = SIMULATIONS[sid]
    st.markdown(a.how_to_read)
    params = globals()[text](a)
    if params is None:
        return
    result = _render.run(a, None, params, "Simulating")
    if hl := highlights(sid, result):
        for col, h in zip(st.columns(len(hl)), hl, strict=True):
            col.metric(h.label, h.value, help=h.help or None)
    if sid == "rubric-lesson":
        st.dataframe(result.table, hide_index=True, width="stretch",
                     column_config=_common.number_formats(("m_α", "v_α"), "%.5f"))
    _render.charts(a, result, f"sim_{text}", widths=("content",) if sid == "order" else ())
    st.info(f"**What to notice.** {LESSON_TEXT[text].notice}")
    _render.footer(a, None, params, result, f"sim_{text}")


main()
