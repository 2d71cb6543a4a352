"""Render one analysis definition (``scorio_core.definitions``) on a page: :func:`run`, then
:func:`charts` (captions, SVG/PNG files) and :func:`footer` (caveats, CSV/JSON with
provenance, the "Copy code" notebook cell). The CLI, report and notebook render the same
definition, so a number on the page is the number everywhere else.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import streamlit as st

import app_state
from app_pages import _common, _loading, _widgets
from app_state.texts import analysis_code, code_notes, code_source
from scorio_core import io
from scorio_core.definitions import CLUSTER_ANALYSES, Analysis, Chart, TableView
from scorio_core.definitions.provenance import export_file, export_filename
from scorio_core.display import _blank, note_lines, readable
from scorio_core.formatting import _md_escape
from scorio_core.report import chart_png, chart_svg

ROOT = Path(__file__).resolve().parents[1]


def run(analysis: Analysis, ds: _common.Dataset | None, params: Any, label: str | None = None):
    """``analysis.run(ds.view, params)``, once per (data, settings), with a progress bar;
    shared across reruns. ``ds`` is ``None`` for a simulation study (it makes its own data)."""
    view = ds.view if ds is not None else None

    def compute(progress):
        if analysis.id not in CLUSTER_ANALYSES:
            return analysis.run(view, params, progress=progress)
        with _common.executor() as ex:  # the sidebar's Dask workers, if any
            return analysis.run(view, params, progress=progress, executor=ex)

    key = (ds.token if ds is not None else None, params)
    st.session_state.setdefault(_KEYS, {})[analysis.id] = key  # where charts() finds it
    return _common.run_cached(analysis.id, key, compute, label or f"Computing: {analysis.title}")


def cached(analysis: Analysis, ds: _common.Dataset, params: Any):
    """The result of :func:`run` if it is already computed for these data and settings."""
    return _common.cached_result(analysis.id, (ds.token, params))


#: Altair's theme and data transformer are process-wide settings; sessions run in threads.
_ALTAIR = threading.Lock()


def vega_lite(chart) -> dict:
    """``chart`` as the Vega-Lite dict ``st.altair_chart`` sends, without validating it again.

    Streamlit's own conversion validates the spec against the Vega-Lite JSON schema on every
    run, about half the time a chart takes on the server; the charts are fixed code that
    the tests validate (``tests/test_analyses.py``, ``tests/app/test_charts.py``). As in
    ``st.altair_chart``, Altair's default theme is off (Streamlit's theme applies) and any
    number of rows may be sent.
    """
    import altair as alt

    with _ALTAIR, alt.theme.enable("none"), alt.data_transformers.disable_max_rows():
        return chart.to_dict(validate=False)


#: Session key: analysis id -> the cache key of the result this session last ran.
_KEYS = "_scorio_result_keys"


def _charts_of(analysis: Analysis, result: Any) -> list[tuple[Chart, dict]]:
    """The charts of ``result`` with their Vega-Lite dicts, built once per result and kept
    beside it in the results cache (widgets, expanders and page changes rerun the page)."""
    key = st.session_state.get(_KEYS, {}).get(analysis.id)
    held = _common.slot(analysis.id, key) if key is not None else {}
    if held.get("result") is not result:  # not a cached run's result: build, do not keep
        return [(c, vega_lite(c.chart)) for c in analysis.charts(result)]
    if "charts" not in held:
        held["charts"] = [(c, vega_lite(c.chart)) for c in analysis.charts(result)]
    return held["charts"]


#: Session keys: full script runs so far (``app.py`` counts them), "this run left its
#: charts for later", "the timer's first tick came", "this run draws them".
RUNS, DEFERRED, TICKED = "_scorio_runs", "_scorio_charts_later", "_scorio_charts_tick"
REDRAW = "_scorio_charts_redraw"
#: Seconds after the first run reaches the browser until its charts are drawn.
DRAW_AFTER_S = 1.0
#: The environment variable that draws a session's first run's charts in that run instead
#: of :data:`DRAW_AFTER_S` later (declared in :mod:`app_state`; unset, :func:`_later`).
CHARTS_AT_ONCE = app_state.CHARTS_AT_ONCE


def charts_at_once() -> bool:
    """Whether :data:`CHARTS_AT_ONCE` is ``1`` in this process's environment (read on each
    run, so a test can set it for an ``AppTest`` in its own process)."""
    return os.environ.get(CHARTS_AT_ONCE) == "1"


def _later() -> bool:
    """Leave this run's charts for the next one? Only in a session's first run: a first
    visit's browser is then still fetching the code of every widget and table on the page,
    and the chart library (about 1 MB of JavaScript) would compete with the table for it
    (about 0.4 s later on 2 cores). :func:`draw_deferred` schedules the next run. Never
    with :data:`CHARTS_AT_ONCE` set (:func:`charts_at_once`)."""
    if st.session_state.get(RUNS, 0) > 1 or charts_at_once():
        return False
    st.session_state[DEFERRED] = True
    return True


def draw_deferred() -> None:
    """End of ``app.py``'s run: if this run left its charts for later, rerun the app
    :data:`DRAW_AFTER_S` after the browser got this run (a fragment's timer; the rerun
    draws them and, without this fragment, stops the timer)."""
    st.session_state.pop(REDRAW, None)  # this run, if it was the redraw, is over
    if not st.session_state.pop(DEFERRED, False):
        return

    @st.fragment(run_every=DRAW_AFTER_S)
    def _tick() -> None:
        if st.session_state.pop(TICKED, False):  # the timer's run, not the inline one
            st.session_state[REDRAW] = True
            st.rerun(scope="app")
        st.session_state[TICKED] = True

    _tick()


def redrawing() -> bool:
    """Whether this run is the one :func:`draw_deferred` asked for, to draw the session's
    first run's charts: not the user's doing, so what that first run said once (a link's
    note) it says again (:func:`lasting`) rather than vanishing a second after it appeared."""
    return bool(st.session_state.get(REDRAW))


#: Session key: what a run said once, by subject (``lasting``), for the redraw after it.
SAID = "_scorio_said"


def lasting(subject: str, text: str | None) -> str | None:
    """What to say once about ``subject`` in this run: ``text``, or, in the redraw of a
    session's first run (:func:`redrawing`) when this run has nothing new, what that run
    said. A one-off message (a link's error, a page's "Restored with changes") so stays
    until the user's next action, which drops it."""
    said = st.session_state.setdefault(SAID, {})
    if text is None and redrawing():
        return said.get(subject)
    if text is None:
        said.pop(subject, None)
    else:
        said[subject] = text
    return text


def run_marker() -> None:
    """The number of this session's script run as a hidden element at the end of the
    sidebar, so browser tests and the load benchmark wait for a state ("run n + 1 has
    rendered") instead of for seconds."""
    st.sidebar.html(f'<span data-scorio-run="{st.session_state.get(RUNS, 0)}" hidden></span>')


def charts(
    analysis: Analysis, result: Any, key: str, widths: Sequence[str] = (), skip: Sequence[int] = (),
    select: Sequence[int] = (),
) -> dict[int, Any]:
    """Every chart of ``result`` (except the indices in ``skip``; ``-1`` is the last): title,
    chart, caption and its SVG/PNG files (made when clicked). A session's first run only
    says they are coming (:func:`_later`). Charts in ``select`` (indices) rerun the page
    when clicked; returns their selection events by index."""
    if _later():
        st.caption("Drawing the charts…")
        return {}
    cs = _charts_of(analysis, result)
    skip = {i % len(cs) for i in skip} if cs else set()
    events = {}
    for i, (c, spec) in enumerate(cs):
        if i not in skip:
            events[i] = chart(c, key, i, widths[i] if i < len(widths) else "stretch", spec=spec,
                              select=i in select)
    return {i: e for i, e in events.items() if i in select}


#: A chart ``width`` that draws the panels of a side-by-side chart (``alt.hconcat``) in
#: equal columns of the page, each as wide as its column (:func:`panels`).
PANELS = "panels"
#: A panel's autosize (:func:`panels`): as wide as its column, as tall as its own height.
FIT_WIDTH = {"type": "fit-x", "contains": "padding"}


def panels(spec: dict) -> list[dict]:
    """The panels of a side-by-side chart's Vega-Lite ``spec`` (``hconcat``), each a chart of
    its own with the whole chart's data and config, its width left to its page column: a
    concatenated chart keeps its panels' fixed widths (Vega-Lite sizes no concatenated view
    to its container), and the order study's two 330 px panels reached the main column's
    edge at 1280 px and ran 270 px past it at 1000 px. Scales the panels shared are their
    own then; the SVG/PNG files keep the chart as one.

    Example
    -------
    >>> spec = {"datasets": {"d": []}, "config": {}, "hconcat": [
    ...     {"mark": "line", "width": 330}, {"layer": [{"mark": "rule"}], "width": 330}]}
    >>> [(sorted(p), p["width"], p["autosize"]["type"]) for p in panels(spec)]
    [(['autosize', 'config', 'datasets', 'mark', 'width'], 'container', 'fit-x'), \
(['autosize', 'config', 'datasets', 'layer', 'width'], 'container', 'fit-x')]
    """
    shared = {k: v for k, v in spec.items() if k not in ("hconcat", "resolve", "spacing")}
    # fit the width only: Streamlit's default "fit" also squeezed the legend and axis title
    # into the panel's height, leaving the Planner's order curve a 40 px strip at 1024 px
    return [{**shared, **panel, "width": "container", "autosize": FIT_WIDTH}
            for panel in spec["hconcat"]]


def chart(c: Chart, key: str, i: int = 0, width: str = "stretch", spec: dict | None = None,
          select: bool = False) -> Any:
    """One chart: title, chart, caption and its SVG/PNG files (made when clicked); ``spec``:
    its Vega-Lite dict if already made (:func:`vega_lite`). A session's first run shows the
    title and says the chart is coming (:func:`_later`). ``select``: a click on the chart
    (its selection parameters) reruns the page; returns the selection event (else None).
    ``width``: ``"stretch"``, ``"content"`` (a chart as wide as its container: stretched)
    or :data:`PANELS` (a side-by-side chart's panels each as wide as half the column). A
    chart with nothing to draw on these data (``c.empty``) says why instead."""
    st.subheader(_widgets.prose(c.title))  # titles, captions: they may name models
    if c.empty is not None:
        st.info(_widgets.prose(c.empty))
        return None
    if _later():
        st.caption("Drawing the chart…")
        return None
    spec = spec if spec is not None else vega_lite(c.chart)
    if width == "content" and spec.get("width") == "container":
        # a chart sized to its container has no content width: Streamlit drew none (the
        # method-family heatmap, drawn where the methods' own heatmap keeps its square cells)
        width = "stretch"
    event = None
    if width == PANELS and "hconcat" in spec:
        for where, panel in zip(st.columns(len(spec["hconcat"])), panels(spec), strict=True):
            where.vega_lite_chart(panel, width="stretch")
    elif select:
        event = st.vega_lite_chart(spec, width=width, on_select="rerun", key=f"{key}_sel_{i}")
    else:
        st.vega_lite_chart(spec, width=width)
    st.caption(_widgets.prose(c.live_caption))  # drawn live here: what a click shows, too
    stem = f"{key}_{i}_" + "".join(ch if ch.isalnum() else "_" for ch in c.title.lower())
    # a row sized to the buttons (columns cut them to "S…" in a half-width chart column)
    a = b = st.container(horizontal=True)
    a.download_button("SVG", _deferred(chart_svg, c.chart), f"{stem}.svg", "image/svg+xml",
                      on_click="ignore", key=f"{key}_svg_{i}", icon=":material/image:")
    b.download_button("PNG", _deferred(chart_png, c.chart), f"{stem}.png", "image/png",
                      on_click="ignore", key=f"{key}_png_{i}", icon=":material/image:")
    return event


def table(analysis: Analysis, result: Any, name: str, listed: bool = False,
          split: Callable[[Any], tuple[list[str], list[str]]] | None = None,
          more: tuple[str, str] = ("More columns", ""), whole: Sequence[str] = (),
          every_row: bool = False, lines: Sequence[str] = (), **kw) -> None:
    """The table ``name`` of ``result`` as the report and a result's own display show it
    (:meth:`~scorio_core.definitions.Analysis.shown_tables`: the view's rows, the columns
    that hold a value, :func:`~scorio_core.display.readable`), each line said under it a
    caption -- the view's own lines a Markdown list with ``listed`` (a plan's per-pair
    notes: sentences to act on, not small print). ``split``: ``(main, more)`` columns of the
    shown table (:func:`app_state.texts.plan_columns`): the main ones in the table, the
    others in an expander after the lines, titled ``more[0]`` with the columns it holds and
    opening with the Markdown ``more[1]`` -- fewer columns by default, as the Leaderboard
    shows its papers' columns (:func:`_widgets.show_split`). ``kw``: what
    :func:`_common.show_core` takes besides ``hide_index`` (a ``budget``: the expander's is
    that less its padding). Each column's
    help and the "Columns:" legend under the table (and under the expander's) are the
    definition's declaration (:meth:`~scorio_core.definitions.Analysis.column_help`), as
    the notebook's display and the reports print them.

    ``whole``: columns of sentences (the Pair page's verdict and estimand in words) said
    row by row under the table, a Markdown list item per row led by its first column,
    instead of cut in a cell of a 1024 px window's column. ``every_row``: the table's every
    row (a grid scrolls and sorts them) rather than those the view picks for a printed
    page, without the view's note (it speaks of those rows). ``lines``: the page's own lines
    said after the view's (a setting's value the view does not know)."""
    view = (TableView(analysis.tables(result)[name]) if every_row
            else analysis.shown_tables(result)[name])
    shown, said = readable(view)
    whole = [c for c in whole if c in shown.columns]
    main, rest = split(shown) if split is not None else (list(shown.columns), [])
    main, rest = [c for c in main if c not in whole], [c for c in rest if c not in whole]
    rows = _whole_rows(shown, whole)
    listed_ = set(note_lines(view.note)) if listed else set()
    # each header's help and the "Columns:" legend: the definition's one declaration
    _widgets.show_split(shown, analysis.column_help(name), main, rest, [*said, *lines, *rows],
                        listed_ | set(rows), more, **kw)


def _whole_rows(shown, columns: Sequence[str]) -> list[str]:
    """Each row's ``columns`` as one Markdown line, led by its first column's value and
    name (``**questions** scope — verdict: a better; estimand: ...``), the texts escaped:
    they may hold names from the data. A blank cell is left out.

    Example
    -------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"scope": ["questions"], "n": [1], "verdict": ["*a* better"]})
    >>> _whole_rows(t, ["verdict"])
    ['**questions** scope — verdict: \\\\*a\\\\* better']
    """
    if not columns:
        return []
    key = shown.columns[0]
    return [f"**{_md_escape(row[key])}** {key} — " + "; ".join(
                f"{c}: {_md_escape(row[c])}" for c in columns if not _blank(row[c]))
            for _, row in shown.iterrows()]


def _deferred(fn: Callable, *args) -> Callable[[], Any]:
    return lambda: fn(*args)


def footer(
    analysis: Analysis, ds: _common.Dataset | None, params: Any, result: Any, key: str,
    extra: Sequence[tuple[str, Callable[[], str], str, str]] = (),
    code_key: str = _widgets.CODE_KEY,
) -> None:
    """Caveats, exports with provenance (``extra``: more ``(label, make, file, mime)``)
    and the notebook cell of this view (``ds=None``: a simulation study, no input data;
    ``code_key``: the key of its "Copy code" box when a page has a second one)."""
    o = ds.view if ds is not None else None
    notes = analysis.caveats(o, params, result)
    if notes:
        with st.expander(f"Caveats ({len(notes)})"):
            for n in notes:  # the core's words, the loader's options by their boxes
                st.markdown(f"- {_widgets.prose(n)}")
    st.subheader("Export")
    # one row of buttons sized to their labels, wrapping onto the next row: in equal
    # columns six buttons cut every label at 1280 px ("CSV: ques…" twice on the Pair page)
    row = st.container(horizontal=True)
    for name in analysis.tables(result):
        row.download_button(
            f"CSV: {name}", _deferred(export_file, analysis, o, params, result, "csv", name),
            export_filename(o, analysis.id, "csv", name), "text/csv",
            on_click="ignore", key=f"{key}_csv_{name}", icon=":material/download:",
        )
    row.download_button(
        "JSON (all tables)", _deferred(export_file, analysis, o, params, result),
        export_filename(o, analysis.id, "json"), "application/json",
        on_click="ignore", key=f"{key}_json", icon=":material/download:",
    )
    for label, make, file, mime in extra:
        row.download_button(label, make, file, mime, on_click="ignore", key=f"{key}_{file}",
                            icon=":material/download:")
    st.caption("Every file names the dataset and the analysis and carries its provenance "
               "(input sha256 and load options, settings, seeds, versions, UTC time)."
               if o is not None else
               "Every file names the study and carries its provenance (simulated data: "
               "settings, seeds, versions, UTC time).")
    _widgets.code_expander("Copy code: the notebook cell for this view",
                           lambda: notebook_cell(analysis, ds, params), code_key,
                           notes=lambda: code_notes(o) if o is not None else [])


def source_path(ds: _common.Dataset) -> Path | list[Path]:
    """Where a notebook reads the data from (:func:`app_state.texts.code_source`): a bundled
    file by its absolute path, an uploaded file by its name, several uploaded files by their
    names in one folder."""
    return code_source(ds.view, ds.source, ROOT, _loading.uploaded_names())


def notebook_cell(analysis: Analysis, ds: _common.Dataset | None, params: Any) -> str:
    """Load the same data, then the analysis's own ``to_code`` and chart expressions."""
    if ds is None or not analysis.uses_data:  # a simulation study makes its own data
        return analysis_code(analysis, params, None)
    # the loader options the data were read with (an upload's weights ...): read the same way
    return analysis_code(analysis, params, source_path(ds), ds.benchmark,
                         io.loaded_with(ds.view))
