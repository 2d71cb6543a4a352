"""The Data page's top: title, where the data come from (a real set's source and licence,
a synthetic set's warning), what the loader changed, and a log upload's import report."""

from __future__ import annotations

import streamlit as st

from app_pages import _common
from app_state.datasets import licence_text, provenance, provenance_markdown
from app_state.load_form import import_table
from app_state.texts import app_text, load_notes, load_notes_text, setting_label
from scorio_core import io
from scorio_core.formatting import count_text
from scorio_core.references import expand


def import_report(report: dict) -> None:
    st.subheader("Import report")
    files = import_table(report)
    if not files.empty:
        # fitted to a 1024 px window's column, in parts that repeat the model: drawn as the
        # grid sized it, an Inspect log's table ran 1182 px past that column
        # a long file name or note cut with "…" (a click shows it whole); the notes said in
        # full under the table (the report's, naming the files they are said of)
        _common.show_core(st, files, hide_index=True, key="import_files", help={
            "file": "The file the row was read from",
            "notes": "What the loader noted of the file, each note said in full under the "
                     "table"})
    # what the means are, as the loader defines them: the options that changed the outcomes
    # (ours as loaded) by their boxes
    means = app_text(io.means_text(report, name=lambda c: f"*{c}*"))
    st.caption(
        f"{count_text(report.get('n_files', len(files)), 'file')} read; "
        f"{count_text(report.get('missing_samples', 0), 'sample')} without a score (errored or "
        "unscored: "
        f"missing cells, handled by {setting_label(io.LoadOptions, 'on_missing')} in the "
        f"sidebar). {means}."
    )
    for note in report.get("notes", []):  # the loader's options by their boxes
        st.info(_common.prose(note))  # it may name files and models
    if skipped := report.get("skipped_files"):
        st.caption("Skipped (not outcome files): " + ", ".join(f"`{f}`" for f in skipped))


def header(ds) -> None:
    full = ds.full
    st.title(_common.prose(full.name))  # the file's name: "my_*data*" was set in italics
    _common.synthetic_note(full)
    if (p := provenance(ds.source)) is not None:
        st.markdown(provenance_markdown(p))
        with st.expander(f"Licence ({p.licence}): `{p.licence_file}`"):
            _common.code_block(licence_text(p), language=None)
    if desc := full.metadata.get("description"):
        st.markdown(expand(desc))  # papers by title
    if src := full.metadata.get("source"):
        st.caption(f"Source: {expand(src)} · loaded from `{ds.source}`")
    if notes := load_notes(full):
        st.info("**What the loader changed or skipped**\n\n"
                + "\n".join(f"- {_common.prose(line)}" for line in load_notes_text(full)))
        with st.expander("The same, as the data's metadata"):
            st.json(notes)
    if report := full.metadata.get("import_report"):
        import_report(report)
    if ids := full.metadata.get("trial_ids"):
        st.caption(f"Trial ids from the file: {', '.join(map(str, ids[:20]))}"
                   + (" …" if len(ids) > 20 else "") + " (R numbers them 0..N−1 in this order).")
