"""Planner: trials and questions that would settle the undecided pairs; budget split.

(000 App. D, Fig. 6; SPEC §4.) Every number comes from ``scorio_core.planner``.
"""

from __future__ import annotations

import streamlit as st

from pages import _common
from scorio_core import ValidationError, charts
from scorio_core.planner import pair_curve, plan


@st.cache_data(max_entries=16, show_spinner="Planning…")
def _plan(token, _o, confidence, scope, adjust, budget):
    return plan(_o, confidence=confidence, scope=scope, adjust=adjust, budget_trials=budget)


@st.cache_data(max_entries=16, show_spinner="Simulating…")
def _curve(token, _o, upper, lower, n_values, sims, seed):
    return pair_curve(_o, upper, lower, n_values, sims=sims, seed=seed)


def main() -> None:
    ds = _common.page_start("Planner")
    o = ds.view
    c1, c2, c3, c4 = st.columns([2, 2, 2, 2])
    confidence = c1.select_slider(
        "Confidence", [0.80, 0.90, 0.95, 0.99], value=0.95, key="plan_confidence",
        format_func=lambda c: f"{c:.0%}",
    )
    scope = c2.selectbox(
        "Scope of the decisions", ["questions", "population"], key="plan_scope",
        help="Which pairs count as undecided: questions = the mean over these questions, "
        "population = the mean over the population they came from",
    )
    adjust = c3.selectbox("Multiplicity control", ["none", "holm", "bh"], key="plan_adjust")
    budget = c4.number_input(
        "Extra trials (budget)", 0, 10_000, 2 * o.L, key="plan_budget",
        help="Extra trials per question to split across models; one unit = one model "
        "answering every question once more",
    )
    try:
        p = _plan(ds.token, o, confidence, scope, adjust, int(budget))
    except ValidationError as exc:
        st.error(str(exc))
        st.stop()

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

    st.subheader("Where to spend extra trials")
    st.markdown(
        f"Greedy split of **{p.settings['budget_trials']}** extra trials per question: pairs "
        f"whose projected z reaches the threshold (questions scope) — now **{p.resolved_now}**, "
        f"greedy **{p.resolved_greedy}**, uniform split **{p.resolved_uniform}**."
    )
    st.altair_chart(charts.allocation_chart(p.allocation), width="stretch")
    st.caption(
        "Bars = extra trials per question per model: the greedy split (blue) goes where a trial "
        "most raises the expected number of decided pairs; grey = the same budget split evenly."
    )

    st.subheader("Probability of the correct order vs N")
    names = list(p.allocation["model"])
    default_pair = (list(p.pairs["better"][:1]) + list(p.pairs["next"][:1])) or names[:2]
    d1, d2, d3 = st.columns([3, 3, 2])
    upper = d1.selectbox("Better model", names, index=names.index(default_pair[0]),
                         key="plan_upper")
    lower = d2.selectbox("Other model", names, index=names.index(default_pair[1]),
                         key="plan_lower")
    need = float(p.pairs["trials_needed"].iloc[0]) if len(p.pairs) else float("inf")
    start = int(1.25 * need) if need < 3000 else 4 * o.N  # reach the first pair's threshold
    n_max = d3.number_input("Largest N", 2, 4096, min(4096, max(64, start)), key="plan_nmax",
                            help="Simulate up to this many trials per question")
    if upper == lower:
        st.info("Pick two different models.")
        return
    n_values = tuple(sorted({1, 2, *(2**k for k in range(2, 13) if 2**k <= n_max), int(n_max)}))
    curve = _curve(ds.token, o, upper, lower, n_values, 2000, 0)
    st.altair_chart(
        charts.order_curve_chart(curve, p.settings["z_threshold"], f"{upper} vs {lower}"),
        width="content",
    )
    st.caption(
        "Today's per-question estimates taken as truth, 2,000 simulated tables per N: left, how "
        "often Bayes@N orders the pair this way; right, z against the dashed threshold "
        "(questions scope; 000 App. D, Fig. 6)."
    )


main()
