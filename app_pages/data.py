"""Data page: what was loaded, whether it is valid, and a first look at accuracy."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages import _common, _loading, _render, _widgets
from app_state.texts import category_table, data_charts, data_code, load_notes, signal_table


def _import_report(report: dict) -> None:
    st.subheader("Import report")
    files = pd.DataFrame(report.get("files", []))
    if not files.empty and "notes" in files:
        files["notes"] = files["notes"].map(lambda n: "; ".join(n) if isinstance(n, list) else n)
    if not files.empty:
        st.dataframe(files, hide_index=True, key="import_files")
    st.caption(
        f"{report.get('n_files', len(files))} file(s) read; "
        f"{report.get('missing_samples', 0)} sample(s) without a score (errored or unscored: "
        "missing cells, handled by **Missing cells** in the sidebar)."
    )
    for note in report.get("notes", []):
        st.info(note)
    if skipped := report.get("skipped_files"):
        st.caption("Skipped (not outcome files): " + ", ".join(f"`{f}`" for f in skipped))


def _header(ds) -> None:
    full = ds.full
    st.title(full.name)
    _common.synthetic_note(full)
    if desc := full.metadata.get("description"):
        st.markdown(desc)
    if src := full.metadata.get("source"):
        st.caption(f"Source: {src} · loaded from `{ds.source}`")
    if notes := load_notes(full):
        st.info("The loader changed or skipped part of the file:")
        st.json(notes)
    if report := full.metadata.get("import_report"):
        _import_report(report)
    if ids := full.metadata.get("trial_ids"):
        st.caption(f"Trial ids from the file: {', '.join(map(str, ids[:20]))}"
                   + (" …" if len(ids) > 20 else "") + " (R numbers them 0..N−1 in this order).")


def main() -> None:
    ds = _common.current_dataset()
    o = ds.view
    _header(ds)
    cols = st.columns(5)
    cols[0].metric("models (L)", o.L)
    cols[1].metric("questions (M)", o.M, help=f"benchmark: {ds.benchmark}")
    cols[2].metric("trials (N)", o.N)
    cols[3].metric("categories", o.C + 1, help="binary" if o.is_binary else "categorical")
    cols[4].metric("prior trials (D)", o.D, help="greedy / prior outcomes per question (R0)")

    st.subheader("Validation report")
    st.caption("`Outcomes.describe()` — the same report `scorio-studio info` prints.")
    st.json(o.describe(), expanded=2)

    st.subheader("Outcome categories")
    st.dataframe(category_table(o), hide_index=True, key="category_table",
                 column_config={"share": st.column_config.NumberColumn(format="percent")})
    if o.signals:
        st.subheader("Per-completion signals")
        table = signal_table(o)
        fmt = _common.number_formats((c for c in table.columns if c != "signal"), "%.4g")
        st.dataframe(table, hide_index=True, key="signal_table", column_config=fmt)
        st.caption("Signals are what rubrics read (Rubric builder page): a signal whose mean "
                   "differs between correct and wrong completions can separate them.")
    for i, chart in enumerate(data_charts(o)):
        _render.chart(chart, "data", i)

    st.subheader("Long table preview")
    preview = _common.long_preview(ds.token, o)
    st.caption(
        f"First {len(preview)} of {o.L * o.M * o.N:,} rows: one row per completion, the "
        "layout CSV/Parquet/JSONL uploads use."
    )
    st.dataframe(preview, hide_index=True, key="long_preview")
    box = _widgets.lazy_expander("Copy code: load these data in a notebook", _widgets.CODE_KEY)
    if box is not None:
        with box:
            options = st.session_state.get(_loading.LOAD_OPTIONS) or {}
            path = _render.source_path(ds)
            if _loading.several_files():
                st.caption("Several files: put them in one folder and load the folder.")
                path = path.with_name("uploaded_logs")
            st.code(data_code(path, ds.benchmark, **options), language="python")


main()
