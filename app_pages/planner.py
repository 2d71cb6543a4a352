"""Planner: trials and questions that give a stated chance of deciding the undecided pairs;
budget split (SPEC §4). Renders the one definition :data:`scorio_core.definitions.PLAN`
(as ``scorio-studio plan`` and the report's ``plan`` section do) through ``app_pages/_render``;
its settings live in ``app_pages/_page_state`` (Save session, links, new data).
"""

from __future__ import annotations

import streamlit as st

from app_pages import _common, _page_state, _render
from app_state.page_state import FIELDS, complete_pair, from_state, percent
from app_state.texts import app_widget, plan_columns
from scorio_core import ValidationError
from scorio_core.definitions.check import CHECK
from scorio_core.definitions.plan import PLAN, summary
from scorio_core.estimands import ADJUST_LABELS
from scorio_core.formatting import SCORE_PRINTF
from scorio_core.params import PlanParams
from scorio_core.planner import a_chance

UPPER, LOWER, NMAX = FIELDS["plan"][("pair", "n_max")].keys
#: The curve pickers' declarations: their labels (a restore note names them so) and help
PAIR, N_MAX = (app_widget(PlanParams, k) for k in ("pair", "n_max"))


def main() -> None:
    ds = _common.page_start("Planner")
    o = ds.view
    if why := PLAN.refusal(o):  # as every page refuses: a warning, no settings to set
        _common.show_refusal(why)
        return
    _page_state.widgets("plan", ds)
    # labels, choices and help texts: the declarations in scorio_core/params.py
    c1, c2, c3 = st.columns([5, 4, 4])  # room for the four confidence buttons
    confidence = _common.setting(c1, "plan", "confidence")
    assurance = _common.setting(c2, "plan", "assurance")
    _common.setting(c3, "plan", "budget_trials")
    # room for the scope's two buttons ("populatio" was cut at 1024 px in a 4/13 column)
    d1, d2, d3 = st.columns([6, 5, 4])
    scope = _common.setting(d1, "plan", "scope", "segmented_control", required=True)
    # in the decimals of the pairs table's leads (trials_gap, questions_gap)
    _common.setting(d3, "plan", "lead", max_value=float(o.weights.max() - o.weights.min()),
                    step=0.01, format=SCORE_PRINTF)
    adjust = _common.setting(d2, "plan", "adjust")
    _common.spread_prior_box(ds, "plan", scope)
    names = [str(m) for m in o.models]
    try:
        params = from_state("plan", st.session_state, o)
        _page_state.remember("plan", ds, params)
        result = _render.run(PLAN, ds, params)
    except ValidationError as exc:
        _common.show_error(exc)
        return
    p = result.plan

    st.subheader("Undecided adjacent pairs")
    if p.pairs.empty:
        st.success(f"Every adjacent pair is decided at {percent(confidence)} ({scope} scope).")
    else:
        # what the columns hold is the legend under each table (the definition's one
        # declaration); the lines here say what it cannot: the settings' values and today's
        # counts (they had repeated the legend's words for four columns, the box's for six)
        st.markdown(
            f"**{len(p.pairs)} undecided** at {percent(confidence)} ({scope} scope, "
            f"{ADJUST_LABELS[adjust]}): each plan is for **{a_chance(assurance)}** of "
            "deciding the pair"
            + (f", those for the lead whenever `better` truly leads by at least {params.lead:g}"
               if params.lead else "")
            + f" (now N = {o.N} trials per question, M = {o.M} questions)."
        )
        # the definition's view, as the report shows it: the per-pair notes listed under
        # it, a column with no value in any row (p_unsettled in the questions scope) left
        # out and named; ∞, — and "met now" rather than the Infinity / None of a number
        # column, every column in the core's one format (the CLI's and the report's). The
        # plan's columns in the table, fitted to a 1024 px window's column (in the 820 px
        # one of 1280 px, its eleven columns ran 220 px past it there); the plans' power and
        # today's test under "More columns", as the Leaderboard keeps its papers' columns
        _render.table(PLAN, result, "pairs", listed=True, spelled=(
            "trials_needed", "trials_gap", "questions_needed", "questions_gap",
            "trials_for_lead", "questions_for_lead", "p_unsettled", "t", "trials_needed_papers"),
            height=_common.table_height(len(p.pairs)), split=plan_columns,
            more=("More columns: what each plan decides on any field, and today's test", ""))
        if CHECK.requires(o) is None:  # enough trials for the shares to stand in for truth
            # the question in text, the link's label short: a page link is one line, and the
            # whole sentence as its label was cut at the column's edge ("… draws r" at 1024 px)
            st.markdown("Would such plans come true on data like these? The Check page draws "
                        "smaller runs from these data and realises the plans on them (its "
                        "*Planner runs*).")
            st.page_link("app_pages/check.py", icon=":material/fact_check:",
                         label="Check a smaller run")
    allocation, order, gaps = PLAN.charts(result)
    _render.chart(allocation, "plan", 0)
    st.markdown(_common.prose(summary(result)))  # it names the pairs' models

    # empty pickers are the default pair: shown as their placeholder, never put in their
    # values, where the next run would read it back as a pair the user chose
    cs, ss = result.curve_settings, st.session_state
    d1, d2, d3 = st.columns([3, 3, 2])
    for where, label, key, model in zip((d1, d2), PAIR["parts"], (UPPER, LOWER),
                                        (cs.upper, cs.lower), strict=True):
        where.selectbox(label, names, index=None, key=key, on_change=complete_pair,
                        args=(ss, key, (cs.upper, cs.lower)),
                        placeholder=f"{model} (default)" if result.shows_pair
                        else "none (every pair is decided)")
    d3.number_input(N_MAX["label"], N_MAX["min_value"], N_MAX["max_value"], value=None,
                    key=NMAX, placeholder=f"{cs.n_values[-1]} (default)", help=N_MAX["help"])
    if ss.get(UPPER) is not None and ss[UPPER] == ss.get(LOWER):
        st.info("Pick two different models; until then the curve shows the default pair.")
    # each panel in its own column at its width: the two 300 px panels of one chart ran
    # ~200 px past the main column at 1024 px
    _render.chart(order, "plan", 1, width=_render.PANELS)
    _render.chart(gaps, "plan", 2, width=_render.PANELS)
    _render.footer(PLAN, ds, params, result, "plan")


main()
