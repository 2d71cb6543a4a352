"""Data page: what was loaded, whether it is valid, and a first look at accuracy."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from pages import _common
from scorio_core import charts

# Metadata the loader adds when it drops, truncates or ignores input (scorio_core.io).
LOAD_NOTES = (
    "on_missing",
    "dropped_questions",
    "truncated_to_N",
    "max_N_found",
    "dropped_completions",
    "truncated_to_D",
    "R0_dropped",
    "ignored_columns",
    "extra_arrays_not_loaded",
)


def _signals(o) -> None:
    st.subheader("Per-completion signals")
    correct = o.R >= 1 if o.is_binary else None
    rows = []
    for name, a in sorted(o.signals.items()):
        row = {"signal": name, "min": a.min(), "mean": a.mean(), "max": a.max()}
        if correct is not None:
            row["mean if correct"] = a[correct].mean() if correct.any() else float("nan")
            row["mean if wrong"] = a[~correct].mean() if (~correct).any() else float("nan")
        rows.append(row)
    table = pd.DataFrame(rows)
    st.dataframe(table, hide_index=True, key="signal_table",
                 column_config=_common.number_formats(
                     (c for c in table.columns if c != "signal"), "%.4g"))
    st.caption("Signals are what rubrics read (Rubric builder page): a signal whose mean differs "
               "between correct and wrong completions can separate them.")


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


def main() -> None:
    ds = _common.current_dataset()
    o, full = ds.view, ds.full
    st.title(full.name)
    _common.synthetic_note(full)
    if desc := full.metadata.get("description"):
        st.markdown(desc)
    if src := full.metadata.get("source"):
        st.caption(f"Source: {src} · loaded from `{ds.source}`")
    if notes := {k: full.metadata[k] for k in LOAD_NOTES if k in full.metadata}:
        st.info("The loader changed or skipped part of the file:")
        st.json(notes)

    if report := full.metadata.get("import_report"):
        _import_report(report)
    if ids := full.metadata.get("trial_ids"):
        st.caption(f"Trial ids from the file: {', '.join(map(str, ids[:20]))}"
                   + (" …" if len(ids) > 20 else "") + " (R numbers them 0..N−1 in this order).")

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
    counts = pd.Series(o.R.ravel()).value_counts().reindex(range(o.C + 1), fill_value=0)
    st.dataframe(
        pd.DataFrame(
            {
                "category": list(o.category_names),
                "weight": o.weights,
                "completions": counts.to_numpy(),
                "share": counts.to_numpy() / counts.sum(),
            }
        ),
        hide_index=True,
        column_config={"share": st.column_config.NumberColumn(format="percent")},
        key="category_table",
    )
    if not o.is_binary:
        st.altair_chart(charts.category_bars(o), width="stretch")
        st.caption(
            "Each bar is one model's completions split by category: compare where models "
            "lose points, not just their total."
        )

    if o.signals:
        _signals(o)

    st.subheader("Per-model accuracy")
    st.altair_chart(charts.accuracy_strip(o), width="stretch")
    st.caption(
        "Diamond = mean score over all questions (avg@N); each tick = one question's score "
        "over its trials — a wide spread means the model's level depends on the question."
    )

    st.subheader("Long table preview")
    preview = _common.long_preview(ds.token, o)
    st.caption(
        f"First {len(preview)} of {o.L * o.M * o.N:,} rows: one row per completion, the "
        "layout CSV/Parquet/JSONL uploads use."
    )
    st.dataframe(preview, hide_index=True, key="long_preview")


main()
