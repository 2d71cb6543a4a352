"""Check a smaller run: this run's shares stand in for the truth; smaller runs drawn from them
are analysed as the leaderboard would. Renders ``scorio_core.definitions.ANALYSES["check"]``
(as ``scorio-studio check`` and the report's ``check`` section do); widget layout only.
"""

from __future__ import annotations

import streamlit as st

from app_pages import _common, _page_state, _render
from app_state.page_state import from_state, trial_options
from scorio_core import ValidationError
from scorio_core.definitions.check import CHECK, p_best_reading, unchecked_note
from scorio_core.estimands import SPLIT_TRIALS_PER_MODEL
from scorio_core.formatting import count_text


def _settings(o) -> None:
    """The form: every widget from its declaration (``_common.setting``)."""
    with st.form("chk_settings"):
        c1, c2, c3 = st.columns(3)
        _common.setting(c1, "check", "trials", options=trial_options(o))
        _common.setting(c2, "check", "questions")
        _common.setting(c3, "check", "models", max_value=o.L)
        d1, d2, d3 = st.columns(3)
        _common.setting(d1, "check", "confidence")
        _common.setting(d2, "check", "adjust")
        _common.setting(d3, "check", "reps", step=100)
        e1, e2, e3 = st.columns(3)
        _common.setting(e1, "check", "plan_reps", step=50)
        _common.setting(e2, "check", "assurance")
        _common.setting(e3, "check", "max_questions", step=1000)
        _common.setting(st.columns(3)[0], "check", "spread_history", step=5)
        st.form_submit_button("Run the check", type="primary")


def _table(table, name: str) -> None:
    """``table`` (the check's table ``name``) in the core's one format per column, — where a
    number is missing (no plans in a scope, the questions scope at one trial), its columns
    explained under it as the notebook and the report explain them (the definition's)."""
    _common.show_core(st, table, hide_index=True, columns=CHECK.column_help(name))


def main() -> None:
    ds = _common.page_start("Check a smaller run")
    o = ds.view
    if (why := CHECK.refusal(o)) is not None:  # a sentence, as every page's refusal
        _common.show_refusal(why)
        return
    st.markdown(
        f"Would a smaller run's numbers hold? This run's shares ({o.N} trials per question) "
        "stand in for the truth; smaller runs drawn from them are analysed exactly as the "
        "leaderboard would, and the table says how often their intervals, decisions and "
        "p_best were right.")
    _page_state.widgets("check", ds)
    _settings(o)
    try:
        params = from_state("check", st.session_state, o)
        result = _render.run(CHECK, ds, params, "Drawing and analysing smaller runs")
    except ValidationError as exc:
        _common.show_error(exc)
        return
    _page_state.remember("check", ds, params)
    c = result.check
    off = c.off_target()
    for line in off:
        st.warning(f"Off target on runs like this — {line}.", icon=":material/warning:")
    if reading := p_best_reading(c):  # what those bins mean for the Leaderboard's p_best
        st.info(reading, icon=":material/info:")
    if not off:
        st.success(c.verdict(), icon=":material/check_circle:")
    if note := unchecked_note(c):  # a scope with blank rows: say why, beside the verdict
        st.info(note, icon=":material/info:")
    st.subheader(f"{c.reps:,} runs of {count_text(c.M, 'question')} × "
                 f"{count_text(c.N, 'trial')}: intervals and decisions")
    _table(c.intervals, "intervals")
    _render.charts(CHECK, result, "chk")
    judged = [s for s, k in c.checks.items() if k.identified]  # rows of 0 model-runs else
    _table(c.p_best[c.p_best["scope"].isin(judged)], "p_best")
    if not c.plans.empty:
        st.subheader("The Planner's plans, realised")
        _table(c.plans, "plans")
    if not c.split.empty:
        st.subheader("The Planner's budget split, realised")
        st.caption(f"A budget of {SPLIT_TRIALS_PER_MODEL} extra trials per question per "
                   "model, split as the Planner recommends, against an even split.")
        _table(c.split, "split")
    with st.expander("How to read this"):
        st.markdown(CHECK.how_to_read)
    _render.footer(CHECK, ds, params, result, "chk")


main()
