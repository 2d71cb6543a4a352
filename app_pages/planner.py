"""Planner: trials and questions that would settle the undecided pairs; budget split.

(000 App. D, Fig. 6; SPEC §4.) Renders the one definition :data:`scorio_core.analyses.PLAN`
(as ``scorio-studio plan`` and the report's ``plan`` section do) through ``app_pages/_render``;
its settings live in ``app_pages/_page_state`` (Save session, links, new data).
"""

from __future__ import annotations

import streamlit as st

from app_pages import _common, _page_state, _render
from scorio_core import ValidationError
from scorio_core.analyses.page_state import CONFIDENCES, from_state
from scorio_core.analyses.plan import PLAN, summary


def main() -> None:
    ds = _common.page_start("Planner")
    o = ds.view
    _page_state.widgets("plan", ds)
    c1, c2, c3, c4 = st.columns([5, 4, 4, 4])  # room for the four confidence buttons
    confidence = c1.segmented_control(
        "Confidence", CONFIDENCES, key="plan_confidence", required=True,
        format_func=lambda c: f"{c:.0%}",
    )
    scope = c2.selectbox(
        "Scope of the decisions", ["questions", "population"], key="plan_scope",
        help="Which pairs count as undecided: questions = the mean over these questions, "
        "population = the mean over the population they came from",
    )
    adjust = c3.selectbox("Multiplicity control", ["none", "holm", "bh"], key="plan_adjust")
    c4.number_input(
        "Extra trials (budget)", 1, 10_000, key="plan_budget",
        help="Extra trials per question to split across models; one unit = one model "
        "answering every question once more",
    )
    names = [str(m) for m in o.models]
    try:
        params = from_state("plan", st.session_state, o)
        _page_state.remember("plan", ds, params)
        PLAN.check(o)
        result = _render.run(PLAN, ds, params)
    except ValidationError as exc:
        st.error(str(exc))
        st.stop()
    p = result.plan

    st.subheader("Undecided adjacent pairs")
    if p.pairs.empty:
        st.success(f"Every adjacent pair is decided at {confidence:.0%} ({scope} scope).")
    else:
        st.markdown(
            f"**{len(p.pairs)} undecided** at {confidence:.0%} ({scope} scope, adjustment "
            f"{adjust}). `trials_needed`: trials per question for the gap to reach the "
            f"threshold in the questions scope (now N = {o.N}); `questions_needed`: questions "
            f"for the population scope (now M = {o.M}); `trials_needed_population`: trials "
            "with these questions in the population scope — ∞ means more trials cannot settle "
            "it, only more questions can."
        )
        needs = ("trials_needed", "questions_needed", "trials_needed_population")
        st.dataframe(  # ∞ and — rather than the Infinity / None of a number column
            _common.spell_missing(p.pairs, dict.fromkeys(needs, "{:,.0f}")), hide_index=True,
            height=_common.table_height(len(p.pairs)),
            column_config=_common.number_formats(
                ["gap", "p_better", "z_questions", "z_population", "z_limit"]
            ),
        )
    allocation, order = PLAN.charts(result)
    _render.chart(allocation, "plan", 0)
    st.markdown(summary(result))

    cs, ss = result.curve_settings, st.session_state
    for key, v in (("plan_upper", cs.upper), ("plan_lower", cs.lower),
                   ("plan_nmax", cs.n_values[-1])):
        if ss.get(key) is None or (key != "plan_nmax" and ss[key] not in names):
            ss[key] = v  # the defaults this run used (the widgets show what was run)
    d1, d2, d3 = st.columns([3, 3, 2])
    d1.selectbox("Better model", names, key="plan_upper")
    d2.selectbox("Other model", names, key="plan_lower")
    d3.number_input("Largest N", 2, 4096, key="plan_nmax",
                    help="Simulate up to this many trials per question")
    if st.session_state.get("plan_upper") == st.session_state.get("plan_lower"):
        st.info("Pick two different models; until then the curve shows the default pair.")
    _render.chart(order, "plan", 1, width="content")
    _render.footer(PLAN, ds, params, result, "plan")


main()
