"""Data page: what was loaded, whether it is valid, and a first look at accuracy."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages import _common, _data_header, _render, _widgets
from app_state.texts import (
    SHARE_FORMAT,
    category_table,
    code_notes,
    data_charts,
    data_code,
    described,
    signal_summary,
)
from scorio_core import io
from scorio_core.formatting import WEIGHT_PRINTF


def main() -> None:
    ds = _common.current_dataset()
    o = ds.view
    _data_header.header(ds)
    # each metric as wide as its label, in a row that wraps: in five equal columns of a
    # 1024 px window "prior trials (D)" and "questions (M)" were cut
    _widgets.metric_row([
        ("models (L)", o.L, None),
        ("questions (M)", o.M, f"benchmark: {ds.benchmark}"),
        ("trials (N)", o.N, None),
        ("categories", o.C + 1, "binary" if o.is_binary else "categorical"),
        ("prior trials (D)", o.D, "greedy / prior outcomes per question (R0)")])

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
    # the load as every page's cell writes it: the files and the options the data record
    _widgets.code_expander(
        "Copy code: load these data in a notebook",
        lambda: data_code(_render.source_path(ds), ds.benchmark, io.loaded_with(ds.view)),
        notes=lambda: code_notes(ds.view))


main()
