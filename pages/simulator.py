"""Simulator: short lessons on simulated LLMs whose truth is known (000 §2.3-2.7, App. C-D).

Every number comes from :mod:`scorio_core.simulate`; charts from
:mod:`scorio_core.charts.simulate`. The page does not use the sidebar's dataset.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from pages import _common
from scorio_core import charts as cs
from scorio_core import simulate as sim

LESSONS = {
    "Biased coins": "coins",
    "Prior depth": "depth",
    "Correct order": "order",
    "Interval calibration": "calibration",
    "Rubric weights": "rubric",
}


def _notice(text: str) -> None:
    st.info(f"**What to notice.** {text}")


def coins() -> None:
    st.markdown(cs.LESSON_TEXT["coins"].intro)
    c = st.columns(4)
    kappa = c[0].number_input(
        "Spread κ (Beta concentration)",
        0.5,
        100.0,
        3.0,
        key="sim_kappa",
        help="Smaller κ: questions differ more in difficulty.",
    )
    n_max = c[1].number_input("Trials N", 8, 200, 40, key="sim_coins_n")
    reps = c[2].number_input("Fresh datasets", 50, 3000, 300, step=50, key="sim_coins_reps")
    seed = c[3].number_input("Seed", 0, 2**31 - 1, 0, key="sim_coins_seed")
    methods = st.multiselect(
        "Metrics", sim.FIG2A_METHODS, list(sim.FIG2A_METHODS), key="sim_coins_methods"
    )
    fresh = st.toggle(
        "New questions in every dataset",
        False,
        key="sim_coins_fresh",
        help="Off: one fixed set of 30 questions (the paper). On: averages over question sets.",
    )
    if not methods:
        st.warning("Choose at least one metric.")
        return
    key = (float(kappa), int(n_max), int(reps), int(seed), tuple(methods), fresh)
    curves = _common.run_cached(
        "sim_coins",
        key,
        lambda p: sim.truth_convergence(
            sim.mimics(concentration=float(kappa), seed=int(seed)),
            methods,
            N=int(n_max),
            replicates=int(reps),
            fresh_questions=fresh,
            seed=int(seed) + 1,
            progress=p,
        ),
        "Simulating",
    )
    st.altair_chart(cs.truth_convergence_chart(curves.summary), width="stretch")
    st.caption(cs.TRUTH_CONVERGENCE_CAPTION)
    _notice(cs.LESSON_TEXT["coins"].notice)


def depth() -> None:
    st.markdown(cs.LESSON_TEXT["depth"].intro)
    c = st.columns(2)
    reps = c[0].number_input("Replicates", 200, 20000, 2000, step=200, key="sim_depth_reps")
    seed = c[1].number_input("Seed", 0, 2**31 - 1, 0, key="sim_depth_seed")
    r = _common.run_cached(
        "sim_depth",
        (int(reps), int(seed)),
        lambda p: sim.prior_depth(replicates=int(reps), seed=int(seed), progress=p),
        "Simulating updates",
    )
    s = r.update_summary
    m = st.columns(2)
    m[0].metric("mean τ(original, updated)", f"{s['mean_tau']:.3f}", help="paper: 0.88")
    m[1].metric("updates that change the ranking", f"{s['share_changed']:.0%}", help="paper: 86 %")
    left, right = st.columns(2)
    with left:
        st.altair_chart(cs.update_histogram(r), width="stretch")
        st.caption(cs.UPDATE_HISTOGRAM_CAPTION)
    with right:
        st.altair_chart(cs.prior_depth_chart(r), width="stretch")
        st.caption(cs.PRIOR_DEPTH_CAPTION)
    st.altair_chart(cs.prior_depth_chart(r, delta=True), width="stretch")
    st.caption(cs.PRIOR_DEPTH_DELTA_CAPTION)
    _notice(cs.LESSON_TEXT["depth"].notice)


def order() -> None:
    st.markdown(cs.LESSON_TEXT["order"].intro)
    c = st.columns(4)
    upper = c[0].number_input("Better model π̄", 0.01, 0.99, 0.6213, format="%.4f", key="sim_up")
    lower = c[1].number_input("Worse model π̄", 0.01, 0.99, 0.608, format="%.4f", key="sim_lo")
    kappa = c[2].number_input("Spread κ", 0.5, 10000.0, 3.0, key="sim_order_kappa")
    sims = c[3].number_input("Datasets per N", 200, 20000, 2000, step=200, key="sim_order_n")
    if not lower < upper:
        st.warning("The better model's π̄ must exceed the worse model's.")
        return
    key = (float(upper), float(lower), float(kappa), int(sims))
    r = _common.run_cached(
        "sim_order",
        key,
        lambda p: sim.correct_order(
            float(upper), float(lower), concentration=float(kappa), n_sims=int(sims), progress=p
        ),
        "Simulating",
    )
    m = st.columns(4)
    p80 = r.table.set_index("N")["p_correct"].get(80, np.nan)
    m[0].metric("P(correct order) at N = 80", f"{p80:.1%}", help="paper: 83.7 % (κ-dependent)")
    for i, (z, n) in enumerate(r.n_at.items()):
        m[1 + i].metric(
            f"N where z reaches {z:g}",
            "—" if np.isnan(n) else f"{n:.0f}",
            help=f"predicted from N = 80: {r.predicted_at[z]:.0f}",
        )
    m[3].metric("κ used", f"{kappa:g}")
    st.altair_chart(cs.correct_order_chart(r), width="content")
    st.caption(cs.CORRECT_ORDER_CAPTION)
    _notice(cs.LESSON_TEXT["order"].notice)


def calibration() -> None:
    st.markdown(cs.LESSON_TEXT["calibration"].intro)
    c = st.columns(4)
    mean = c[0].slider("Mean success", 0.05, 0.95, 0.5, key="sim_cal_mean")
    kappa = c[1].number_input(
        "Spread κ",
        0.5,
        10000.0,
        2.0,
        key="sim_cal_kappa",
        help="κ = 2 with mean 0.5 is the uniform prior of Bayes@N.",
    )
    Ms = c[2].multiselect("Questions M", [10, 30, 100, 300], [10, 30, 100], key="sim_cal_m")
    reps = c[3].number_input("Datasets", 200, 10000, 2000, step=200, key="sim_cal_reps")
    if not Ms:
        st.warning("Choose at least one M.")
        return
    key = (float(mean), float(kappa), tuple(Ms), int(reps))
    r = _common.run_cached(
        "sim_cal",
        key,
        lambda p: sim.interval_coverage(
            (float(mean),),
            M_values=tuple(Ms),
            concentration=float(kappa),
            replicates=int(reps),
            progress=p,
        ),
        "Simulating",
    )
    st.altair_chart(cs.coverage_chart(r), width="stretch")
    st.caption(cs.COVERAGE_CAPTION)
    _notice(cs.LESSON_TEXT["calibration"].notice)


def rubric() -> None:
    st.markdown(cs.LESSON_TEXT["rubric"].intro)
    st.latex(
        r"\mu = w_0 + \frac{1}{M}\sum_\alpha m_\alpha,\quad m_\alpha = \sum_k "
        r"\frac{\nu_{\alpha k}}{T}(w_k - w_0),\quad \sigma^2 = \frac{\sum_\alpha "
        r"\big[\sum_k \frac{\nu_{\alpha k}}{T}(w_k-w_0)^2 - m_\alpha^2\big]}{M^2 (T+1)}"
    )
    c = st.columns(4)
    w = [
        c[k].slider(f"weight of category {k}", 0.0, 1.0, v, 0.05, key=f"sim_w{k}")
        for k, v in enumerate((0.0, 0.5, 1.0))
    ]
    priors = {
        "none": None,
        "R0 = [[2], [1]]": [[2], [1]],
        "R0 = [[0, 2], [1, 2]]": [[0, 2], [1, 2]],
    }
    prior = c[3].selectbox("Prior outcomes", list(priors), key="sim_r0")
    les = sim.rubric_lesson(sim.LESSON_R, w, priors[prior])
    st.code(f"R = {[list(r) for r in sim.LESSON_R]}", language="python")
    m = st.columns(3)
    m[0].metric("μ", f"{les.mu:.6f}")
    m[1].metric("σ", f"{les.sigma:.6f}")
    m[2].metric("T = 1 + C + D + N", les.T)
    st.dataframe(
        les.table,
        hide_index=True,
        width="stretch",
        column_config=_common.number_formats(("m_α", "v_α"), "%.5f"),
    )
    st.altair_chart(cs.rubric_weight_chart(sim.LESSON_R, w, 1, priors[prior]), width="stretch")
    st.caption(cs.RUBRIC_WEIGHT_CAPTION)
    _notice(cs.LESSON_TEXT["rubric"].notice)


def main() -> None:
    st.title("Simulator")
    st.caption("Teaching lessons on simulated LLMs with known truth (synthetic data).")
    lesson = st.radio("Lesson", list(LESSONS), horizontal=True, key="sim_lesson")
    globals()[LESSONS[lesson]]()


main()
