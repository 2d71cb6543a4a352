"""Data page: what was loaded, whether it is valid, and a first look at accuracy."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages import _common, _data_header, _loading, _render, _widgets
from app_state.texts import (
    SHARE_FORMAT,
    category_table,
    data_charts,
    data_code,
    described,
    signal_summary,
)
from scorio_core.formatting import WEIGHT_PRINTF


def main() -> None:
    ds = _common.current_dataset()
    o = ds.view
    _data_header.header(ds)
    cols = st.columns(5)
    cols[0].metric("models (L)", o.L)
    cols[1].metric("questions (M)", o.M, help=f"benchmark: {ds.benchmark}")
    cols[2].metric("trials (N)", o.N)
    cols[3].metric("categories", o.C + 1, help="binary" if o.is_binary else "categorical")
    cols[4].metric("prior trials (D)", o.D, help="greedy / prior outcomes per question (R0)")

    st.subheader("Validation report")
    # the report of the notebook and the command line, its notes in the app's words
    st.caption("`Outcomes.describe()`: the shape and validation report, as `scorio-studio "
               "info` prints it before the loader's notes (shown above), except that a note "
               "here names a setting by its box, not its flag.")
    st.json(described(o), expanded=2)

    st.subheader("Outcome categories")
    cats = category_table(o)  # completions as every count: 35,618, not 35618
    share = (st.column_config.NumberColumn(format=SHARE_FORMAT)  # 50.7%, 8.5%: one decimal
             if pd.api.types.is_numeric_dtype(cats["share"])
             else st.column_config.TextColumn(alignment="right"))  # "<0.1%" beside them
    # weights as the Leaderboard's weight editor and `describe()` write them: 0, 0.5, 1
    weight = st.column_config.NumberColumn(format=WEIGHT_PRINTF)
    _common.show_core(st, cats, hide_index=True, key="category_table",
                      column_config={"share": share, "weight": weight})
    if o.signals:
        st.subheader("Per-completion signals")
        table, missing = signal_summary(o)
        _common.show_core(st, table, hide_index=True, key="signal_table")
        st.caption("One column per signal, in its own unit. Signals are what rubrics read "
                   "(Rubric builder page): a signal whose mean differs between correct and "
                   f"wrong completions can separate them. {missing}")
    for i, chart in enumerate(data_charts(o)):
        _render.chart(chart, "data", i)

    st.subheader("Long table preview")
    preview = _common.long_preview(ds.token, o)
    st.caption(
        f"First {len(preview)} of {o.L * o.M * o.N:,} rows: one row per completion, the "
        "layout CSV/Parquet/JSONL uploads use."
    )
    # in the core's one format per column: a signal reads as in the table above (0.1000)
    _common.show_core(st, preview, hide_index=True, key="long_preview")
    _widgets.code_expander("Copy code: load these data in a notebook",
                           lambda: _load_code(ds), notes=_load_notes)


def _load_code(ds) -> str:
    """The cell that loads the data shown (an upload of several files: from their folder)."""
    options = st.session_state.get(_loading.LOAD_OPTIONS) or {}
    path = _render.source_path(ds)
    if _loading.several_files():
        path = path.with_name("uploaded_logs")
    return data_code(path, ds.benchmark, **options)


def _load_notes() -> list[str]:
    """What the cell cannot say: where several files go, how added files were combined."""
    notes = []
    if _loading.several_files():
        notes.append("Several files: put them in one folder (`uploaded_logs`) and load the "
                     "folder.")
    if merge := st.session_state.get(_loading.MERGE):
        notes.append(f"Files added to the upload were combined by the choice **{merge}**: "
                     "`io.upload.apply_upload(io.upload.check_upload(data, new), "
                     f"{merge!r})` with `new = io.load(...)` of the added files.")
    return notes


main()
