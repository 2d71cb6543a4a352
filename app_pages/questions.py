"""Questions: every model's success on every question, difficulty and discrimination (2PL
IRT), the questions that carry no information and those where models disagree most.

Renders ``scorio_core.definitions.ANALYSES["questions"]``; this file is widget layout only.
"""

from __future__ import annotations

import streamlit as st

from app_pages import _common, _explore, _page_state, _render, _widgets
from app_state.page_state import from_state
from app_state.texts import app_text, question_columns
from scorio_core import ValidationError
from scorio_core.definitions.questions import QUESTIONS, irt_next
from scorio_core.display import readable
from scorio_core.engines.questions import NO_INFORMATION_TEXT  # what no information means


def _table(frame, height_rows: int = 12, boxed: bool = False) -> None:
    """``frame`` as the report and the CLI show it (:func:`scorio_core.display.readable`):
    a column with no value in any row is left out -- a ``status`` of informative questions
    only, unsaid; the 2PL columns when the fit did not run, named in a line under the table
    instead of a column of dashes. Fitted to the main column of a 1024 px window
    (:data:`_widgets.TABLE_PX`: at 1024 px its 2PL columns ran past it), the
    2PL fit and the item-rest correlation under "More columns"
    (:func:`app_state.texts.question_columns`); ``boxed``: already in an expander."""
    frame, said = readable(frame)
    main, more = question_columns(frame)
    # a 2PL difficulty of ±∞ (a question every model always gets right or wrong) reads ∞ as
    # in the CLI and the report, not the browser's "Infinity" (the core's cells: show_core)
    _common.show_split(frame, QUESTIONS.column_help("questions"), main, more, said,
                       more=("More columns: the 2PL fit and the item-rest correlation", ""),
                       boxed=boxed, height=_common.table_height(len(frame), height_rows))


def main() -> None:
    ds = _common.page_start("Questions")
    o = ds.view
    _page_state.widgets("questions", ds)
    c1, c2 = st.columns([1, 3])
    _common.setting(c1, "questions", "top")
    _common.setting(c2, "questions", "irt", "toggle", disabled=not o.is_binary,
                    **({} if o.is_binary else
                       {"help": "The 2PL model needs binary outcomes (0/1). "
                                + app_text(irt_next(o))}))
    _explore.subset_widgets(o, "questions")
    try:
        params = from_state("questions", st.session_state, o)
        result = _render.run(QUESTIONS, ds, params, "Computing the question view")
    except ValidationError as exc:
        _common.show_error(exc)
        return
    _page_state.remember("questions", ds, params)
    tables = QUESTIONS.tables(result)
    un, t = tables["uninformative"], tables["questions"]
    irt = result.stats.irt  # "not run: <why>" in full under the ?, the next step with it
    _widgets.metric_row([
        ("Questions", f"{len(t):,}", None),
        ("No information", f"{len(un):,}", f"Questions on which {NO_INFORMATION_TEXT}."),
        ("Mean disagreement", f"{t['disagreement'].mean():.4f}",
         "mean over questions of the expected gap between two models' scores"),
        ("2PL fit", irt.split(":")[0], None if ":" not in irt else
         f"{irt[0].upper()}{irt[1:]}." + (" " + app_text(result.irt_next)
                                          if result.irt_next else ""))])
    events = _render.charts(QUESTIONS, result, "questions", skip=(1,), select=(0,))
    _explore.open_pair(result, events.get(0))
    st.subheader(f"Where models disagree most (top {min(params.top, len(t)):,})")
    _table(tables["disagree"])
    st.subheader("Questions that carry no information")
    if len(un):
        _table(un, 8)
    else:
        st.caption("None: on every question some model differs from the others.")
    _explore.per_subset(result.subsets, result.by, "question statistics",
                        QUESTIONS.column_help("by_subset"))
    _render.charts(QUESTIONS, result, "questions", skip=(0,))
    with st.expander(f"Every question, easiest first ({len(t):,})"):
        _table(t, 25, boxed=True)
    with st.expander("How to read this"):
        st.markdown(QUESTIONS.how_to_read)
    _render.footer(QUESTIONS, ds, params, result, "questions")


main()
