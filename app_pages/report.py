"""Report: the chosen analyses on the selected data as one shareable file -- a self-contained
HTML page (prints to PDF), Markdown with SVG charts, or a notebook that recomputes it."""

from __future__ import annotations

import io as _bytes_io
import tempfile
import zipfile
from pathlib import Path

import nbformat
import streamlit as st

from app_pages import _common, _page_state, _render, _widgets
from app_state.texts import app_text, report_code
from scorio_core import io
from scorio_core.definitions import ANALYSES, NAMED_ONLY, default_sections
from scorio_core.definitions.provenance import export_filename
from scorio_core.report import build_report, to_html, to_markdown, to_notebook

#: Why the sections the default leaves out are left out (scorio_core's one declaration).
SLOWER = "; ".join(f"{ANALYSES[k].title} ({why})" for k, why in NAMED_ONLY.items())


def _markdown_zip(report, stem: str) -> bytes:
    """The Markdown file and its ``<stem>_charts/`` SVGs in one zip."""
    with tempfile.TemporaryDirectory() as tmp:
        charts = Path(tmp) / f"{stem}_charts"
        text = to_markdown(report, charts)
        buf = _bytes_io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(f"{stem}.md", text)
            for svg in sorted(charts.glob("*.svg")):
                zf.write(svg, f"{charts.name}/{svg.name}")
    return buf.getvalue()


def main() -> None:
    ds = _common.page_start("Report")
    o = ds.view
    st.markdown(
        "Pick the analyses, build, and download one file to share: **HTML** (self-contained, "
        "renders offline, prints cleanly to PDF), **Markdown** (with the charts as SVG files) "
        "or a **notebook** that recomputes every number with public `scorio_core` calls. Each "
        "section says how to read it, its caveats, and the report ends with its provenance "
        "(input sha256 and load options, settings, seeds, versions, time)."
    )
    usable = {k: a for k, a in ANALYSES.items() if a.requires(o) is None}
    _page_state.report_widgets()  # after Restore session
    st.session_state.setdefault("report_sections", default_sections(o)[0])  # as sc.report's
    sections = st.multiselect(
        "Sections", list(ANALYSES), key="report_sections",
        format_func=lambda k: ANALYSES[k].title + ("" if k in usable else " (not for these data)"),
        help="Picked at first: the report's default sections that fit these data, as "
        "`sc.report` and `scorio-studio report` run them. Left out unless picked, as they "
        f"take longer: {SLOWER}.",
    )
    st.session_state.setdefault("report_title", f"Scorio Studio report: {o.name}")
    title = st.text_input("Title", key="report_title")
    _page_state.remember_report(sections, title)
    local = _render.source_path(ds)  # the file, or the files of an upload of several
    # how the file was read (an upload's weights, missing-cell policy ...): the notebook and
    # the Copy code cell read it the same way
    loaded = io.loaded_with(o)
    _widgets.code_expander(
        "Copy code: the same report from a notebook",
        lambda: report_code(local, sections, title=title, benchmark=ds.benchmark,
                            options=loaded))
    if not sections:
        st.info("Pick at least one section.")
        return
    key = (ds.token, tuple(sections), title)
    report = _common.cached_result("report", key)
    if report is None:
        if not st.button("Build report", type="primary", key="report_build"):
            return
        report = _common.run_cached(
            "report", key, lambda p: build_report(o, sections, title=title, progress=p),
            "Building the report",
        )

    for s in report.sections:
        if s.error:
            st.warning(f"{s.analysis.title}: {app_text(s.error)}")
    stem = Path(export_filename(o, "report", "html")).stem
    nb = nbformat.writes(to_notebook(report, local, options=loaded))
    c = st.columns(3)
    c[0].download_button("HTML", to_html(report), f"{stem}.html", "text/html",
                         on_click="ignore", key="report_html", icon=":material/download:")
    c[1].download_button("Markdown + charts (zip)", _markdown_zip(report, stem), f"{stem}.zip",
                         "application/zip", on_click="ignore", key="report_md",
                         icon=":material/download:")
    c[2].download_button("Notebook", nb, f"{stem}.ipynb", "application/x-ipynb+json",
                         on_click="ignore", key="report_ipynb", icon=":material/download:")
    st.caption(_notebook_caption(local))
    with st.expander("Preview", expanded=True):  # in a frame: the report's CSS stays its own
        # st.iframe replaces the deprecated st.components.v1.html; the HTML is ours (every
        # name escaped, a CSP that forbids scripts), which is what an iframe of raw HTML needs
        st.iframe(to_html(report), height=900)


def _notebook_caption(local: Path | list[Path]) -> str:
    """Where the notebook reads the data from, and what it checks."""
    if isinstance(local, list):
        return (f"The notebook loads the {len(local)} uploaded files from the folder "
                f"`{local[0].parent.as_posix()}` beside it: save them there; it checks each "
                "file's sha256 once it has read them.")
    return (f"The notebook loads `{local.name}`"
            + ("" if local.is_absolute() else " from its own folder: put the uploaded file next "
               "to it") + "; it checks the file's sha256 before recomputing.")


main()
