"""The sidebar's *Rows and model names* box of an upload: row filter (``where``), model-name
table (``model_map``), score range and provider prefixes; and its *Correct outcomes* box:
which outcomes count as correct (``correct``, ``correct_from``: binary data for the analyses
that rank correctness) and the rounding of continuous scores (``round_grades``). Labels and
help come from the :class:`scorio_core.io.LoadOptions` declarations, the values become ONE
``LoadOptions`` in :func:`app_state.load_form.form_options`.

Widget keys: ``load_where``, ``load_score_range``, ``load_model_prefix``, ``load_model_map``
(the table editor), ``load_correct``, ``load_correct_from``, ``load_round_grades``.
``model_map_rows`` (a list of ``(from, to)``) seeds the table -- a test seam, as the
editor's own state holds edits, not rows.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_state.texts import app_widget
from scorio_core.io import LoadOptions

WHERE, RANGE, PREFIX, MAP, MAP_ROWS = (
    "load_where", "load_score_range", "load_model_prefix", "load_model_map", "model_map_rows",
)  # fmt: skip
CORRECT, CORRECT_FROM, ROUND = "load_correct", "load_correct_from", "load_round_grades"


def options_box() -> dict:
    """Render the box; its values for :func:`~app_state.load_form.form_options`."""
    ss = st.session_state
    rows = list(ss.get(MAP_ROWS) or ())
    busy = bool(rows or ss.get(WHERE, "").strip() or ss.get(RANGE, "").strip())
    with st.sidebar.expander("Rows and model names", expanded=busy):
        w = app_widget(LoadOptions, "where")
        where = st.text_input(w["label"], key=WHERE, placeholder="temperature = 0.0, 1.0",
                              help=w["help"])  # the app's syntax: the declaration's
        w = app_widget(LoadOptions, "model_map")
        st.caption(f"**{w['label']}**: one row per name to change (e.g. `mockllm/alpha` → "
                   "`alpha`), applied before the files are combined.")
        base = pd.DataFrame(rows, columns=["from", "to"], dtype="string")
        edited = st.data_editor(base, num_rows="dynamic", hide_index=True, key=MAP,
                                width="stretch",
                                column_config={"from": st.column_config.TextColumn(
                                    "from (name in the files)"),
                                    "to": st.column_config.TextColumn("to")})
        w = app_widget(LoadOptions, "model_prefix")
        prefix = st.selectbox(w["label"], w["options"], key=PREFIX, help=w["help"])
        w = app_widget(LoadOptions, "score_range")
        score_range = st.text_input(w["label"], key=RANGE, placeholder="0, 10",
                                    help=w["help"])
    return {"where": where, "model_map": edited.to_dict("records"), "model_prefix": prefix,
            "score_range": score_range, **outcomes_box()}


def outcomes_box() -> dict:
    """The *Correct outcomes* box (titled by the ``correct`` declaration, as the analyses'
    refusals of categorical data name it): the outcomes that count as correct, or the score
    from which one does, and the levels continuous scores are rounded to."""
    ss = st.session_state
    busy = any(str(ss.get(k) or "").strip() for k in (CORRECT, CORRECT_FROM, ROUND))
    with st.sidebar.expander(app_widget(LoadOptions, "correct")["label"], expanded=busy):
        w = app_widget(LoadOptions, "correct")
        correct = st.text_input(w["label"], key=CORRECT, placeholder="e.g. C  (or C, P)",
                                help=w["help"])
        w = app_widget(LoadOptions, "correct_from")
        correct_from = st.text_input(w["label"], key=CORRECT_FROM, placeholder="e.g. 0.5",
                                     help=w["help"])
        w = app_widget(LoadOptions, "round_grades")
        levels = st.text_input(w["label"], key=ROUND, placeholder="e.g. 11 (0, 0.1, …, 1)",
                               help=w["help"])
    return {"correct": correct, "correct_from": correct_from, "round_grades": levels}


def model_identity(cols: list[str], model_column: str) -> list[str]:
    """The *Model identity* multiselect of the column mapping: condition columns that,
    with the model column, name each model (e.g. model × temperature)."""
    w = app_widget(LoadOptions, "model_columns")
    options = [c for c in cols if c != model_column]
    key = "model_conditions"
    st.session_state[key] = [c for c in st.session_state.get(key, []) if c in options]
    return st.multiselect(f"{w['label']}: {model_column} ×", options, key=key,
                          help=w["help"], placeholder="e.g. temperature")
