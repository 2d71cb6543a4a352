"""Rubric builder: signals -> categories -> weights, with a live leaderboard (000 §3.4, App. F;
002 §3.5, App. F).

Start from a preset, a blank rubric or an uploaded JSON file; edit the rules and categories in
tables and the weights in number boxes (``scorio_core.rubric.table``); every change re-applies
the rubric and re-ranks. "Compare rubrics" renders ``ANALYSES["rubric"]``.
"""

from __future__ import annotations

import json

import streamlit as st

from app_pages import _common, _page_state, _render, _rubric_editor
from app_state.page_state import CURRENT_RUBRIC, from_state, percent
from app_state.rubric_editor import preset_label, rubric_filename
from app_state.texts import error_text, tau_columns
from scorio_core import ValidationError
from scorio_core import rubric as rb
from scorio_core.definitions.rubric import RUBRIC, rubric_board, usable_presets
from scorio_core.estimands import SCOPE_HELP

BLANK, CURRENT, STATE = "(blank rubric)", CURRENT_RUBRIC, _rubric_editor.STATE


def _preview(ds, o, r: rb.Rubric) -> None:
    try:
        out = _common.run_cached("rubric_board", (ds.token, r), lambda _p: rubric_board(o, r),
                                 "Scoring")
    except ValidationError as exc:
        st.error(f"Could not apply the rubric: {error_text(exc)}")
        return
    st.subheader("Leaderboard under this rubric")
    # what the columns' legend under the table cannot say: what score is under a rubric
    scope, conf = (out.board.settings[k] for k in ("scope", "confidence"))
    st.caption(f"Each completion scores its category's weight, and score is a model's mean "
               f"over all its trials; {percent(conf)} intervals, {scope} scope — "
               f"{SCOPE_HELP[scope]}.")
    _common.show_board(out.board.table, key="rubric_board", n_now=o.N)
    # one under the other, each as wide as the column: side by side in half columns of a
    # 1024 px window, the category legend ("3: correct ∧ concise (w=1)") and both axis
    # titles were cut at the chart's edge
    for i, c in enumerate(out.charts):
        _render.chart(c, "rubric_board", i)
    st.download_button("Save rubric (JSON)", json.dumps(rb.to_json(r), indent=2),
                       rubric_filename(r), "application/json", on_click="ignore",
                       key="rubric_download")


def _compare(ds, current: rb.Rubric | None) -> None:
    st.subheader("Compare rubrics")
    st.markdown(RUBRIC.how_to_read)
    options = ([CURRENT] if current is not None else []) + usable_presets(ds.view)
    _page_state.widgets("rubric", ds)
    if current is None and CURRENT in st.session_state.get("rubric_compare", []):
        st.session_state["rubric_compare"] = [  # the editor's rubric is not valid now
            k for k in st.session_state["rubric_compare"] if k != CURRENT]
    chosen = st.multiselect("Rubrics", options, key="rubric_compare",
                            format_func=lambda k: k if k == CURRENT else preset_label(k))
    if not chosen:
        return
    try:
        params = from_state("rubric", st.session_state, ds.view, current=current)
        _page_state.remember("rubric", ds, params)
        result = _render.run(RUBRIC, ds, params, "Comparing rubrics")
    except ValidationError as exc:
        _common.show_error(exc)
        return
    _render.charts(RUBRIC, result, "rubric")
    # its view: the report's lines; the means in a table that fits a 1024 px window's
    # column, their s.d. over the slices under "More columns"
    _render.table(RUBRIC, result, "tau", split=tau_columns, width="stretch",
                  more=("More columns: each τ's s.d. over the slices", ""))
    _render.footer(RUBRIC, ds, params, result, "rubric")


def _signals_caption(o) -> str:
    own = ", ".join(o.signals) or "none"
    derived = [n for n in rb.signal_names(o) if n not in o.signals]
    return f"signals: {own}" + (f" (and {', '.join(derived)}, from the outcomes)" if derived
                                 else "")


def main() -> None:
    ds = _common.page_start("Rubric builder", _signals_caption)
    o = ds.view
    if not o.signals:
        st.info("This dataset carries no per-completion signals beyond its outcome (the "
                "derived `is_correct`), so a rubric has nothing to read but correctness. Pick "
                "*Reasoning benchmarks (synthetic)* (nine signals) or load "
                "a long table with extra numeric columns (each becomes a signal).")
        return
    if (restored := _page_state.restored_rubric()) is not None:  # Restore session
        st.session_state["rubric_preset"] = st.session_state["_rubric_source"] = BLANK
        _rubric_editor.load(restored)
    c1, c2 = st.columns([3, 2])
    usable = usable_presets(o)  # a preset reading signals the data lack would only fail
    first = "ranking/conservative" if "ranking/conservative" in usable else next(
        iter(usable), BLANK)
    source = c1.selectbox("Start from", [BLANK, *rb.PRESETS], key="rubric_preset",
                          index=[BLANK, *rb.PRESETS].index(first),
                          format_func=lambda k: k if k == BLANK else preset_label(k))
    with c2:
        _rubric_editor.upload()
    if st.session_state.get("_rubric_source") != source or STATE not in st.session_state:
        st.session_state["_rubric_source"] = source
        _rubric_editor.load(None if source == BLANK else rb.PRESETS[source])
    state = st.session_state[STATE]
    if state.get("intent") or state.get("description"):
        st.markdown(f"*{state.get('intent', '')}* {state.get('description', '')}")
    current = _rubric_editor.editors(o, state)
    if current is not None:
        _page_state.remember_rubric(current)
        _preview(ds, o, current)
    _compare(ds, current)


main()
