"""What the Leaderboard and Questions pages share for exploring: the subset widgets
(question attributes), the per-subset table, and the Leaderboard's Pass@k curves section
(``scorio_core.definitions.ANALYSES["curves"]``, in the leaderboard's scope and confidence)."""

from __future__ import annotations

import dataclasses

import pandas as pd
import streamlit as st

from app_pages import _common, _page_state, _render
from app_state.cells import clicked, partners
from app_state.page_state import TAUS, from_state, subset_options
from app_state.table_fit import distinct_cuts, select_px, text_px
from scorio_core import ValidationError
from scorio_core.definitions._base import NO_SUBSETS
from scorio_core.params import CURVE_KINDS, LeaderboardParams


def subset_widgets(o, analysis: str) -> None:
    """The Subset and Per-subset select boxes of ``analysis`` (only when the questions carry
    attributes)."""
    if not o.question_attributes:
        return
    c1, c2 = st.columns(2)
    _common.setting(c1, analysis, "subset", options=subset_options(o),
                    format_func=lambda v: v or f"all {o.M} questions")
    _common.setting(c2, analysis, "by", options=[*o.question_attributes, NO_SUBSETS],
                    format_func=lambda v: "no per-subset table" if v == NO_SUBSETS else v)


def per_subset(table: pd.DataFrame | None, by: str | None, what: str,
               columns: dict | None = None) -> None:
    """The per-subset table under its heading (nothing without one), fitted to the main
    column of a 1024 px window (:data:`_widgets.TABLE_PX`: at 1024 px the
    Leaderboard's ran past it from ``rank_lo`` on); its ``attribute`` column, one value that
    the heading names, in the exports only: every part repeated it. ``columns``: what its
    columns hold, as its definition declares them (the help and legend of
    :func:`_common.show_core`)."""
    if table is None:
        return
    st.subheader(f"Per subset: {_common.prose(by)}")  # an attribute's name, from the files
    st.caption(f"The {what} on each subset's questions alone (same estimands and settings); "
               "nothing is adjusted across subsets.")
    one = "attribute" in table.columns and table["attribute"].nunique(dropna=False) <= 1
    _common.show_core(st, table, hide_index=True, height=_common.table_height(len(table)),
                      columns=columns,
                      column_order=[c for c in table.columns if not (one and c == "attribute")])


def curves(ds, board_params: LeaderboardParams) -> None:
    """Pass@k / Pass^k (G-Pass@k_τ) curves for every k ≤ N in the leaderboard's scope,
    confidence and subset, with their own curve and τ pickers."""
    from scorio_core.definitions.curves import CURVES

    o = ds.view
    if not o.is_binary or o.N < 2:
        return
    st.subheader("Pass@k curves")
    _page_state.widgets("curves", ds)
    c1, c2 = st.columns([2, 3])
    _common.setting(c1, "curves", "kinds", "pills", options=[k for k in CURVE_KINDS if k != "g"],
                    selection_mode="multi", format_func=CURVE_KINDS.get)
    _common.setting(c2, "curves", "tau", "segmented_control", options=list(TAUS),
                    format_func=lambda t: "off" if t is None else f"{t:g}")
    try:
        params = dataclasses.replace(
            from_state("curves", st.session_state, o), confidence=board_params.confidence,
            scope=board_params.scope, subset=board_params.subset)
        result = _render.run(CURVES, ds, params, "Computing the curves")
    except ValidationError as exc:
        _common.show_error(exc)
        return
    _page_state.remember("curves", ds, params)
    _render.charts(CURVES, result, "curves")
    with st.expander("Curve values at k = 1, 2, 4, …, N (every k: the CSV export)"):
        t = CURVES.tables(result)["summary"]
        _common.show_core(st, t, hide_index=True, columns=CURVES.column_help("summary"),
                          budget=_common.BOX_PX)  # in the box
    _render.footer(CURVES, ds, params, result, "curves", code_key="copy_code_curves")


def _with_gaps(others: dict[str, float], px: int) -> dict[str, str]:
    """``model (+0.50)`` for each partner: its difference on the question after its name, the
    name cut in its middle where the two would not fit ``px``, no two names alike
    (:func:`app_state.table_fit.distinct_cuts`)."""
    said = {m: f"({gap:+.2f})" for m, gap in others.items()}
    room = px - max(text_px(" " + s) for s in said.values())
    names = distinct_cuts(list(others), room)
    return {m: f"{names[m]} {said[m]}" for m in others}


def open_pair(result, event) -> None:
    """A Questions-page heatmap cell (clicked, or chosen here) opens the Pair page on that
    model, the model that differs most from it on that question (or another), and the
    question (:mod:`app_state.cells`)."""
    stats = result.stats
    if len(stats.models) < 2 or not len(stats.questions):
        return
    ss = st.session_state
    cell = clicked(stats, result.columns, event)
    if cell is not None and ss.get("_qv_cell_seen") != cell:  # a new click sets the boxes
        ss["_qv_cell_seen"] = cell
        ss["qv_cell_model"], ss["qv_cell_question"] = cell
    st.subheader("Open a pair from a cell")
    st.caption("Click a cell of the heatmap (or choose the model and question here) to read "
               "that question's completions of this model and another side by side.")
    # the model and the question, then "Compare with" (a model name and its difference)
    # under the model, the button on its own row: in four columns both were cut
    # ("gpt-35-turbo (-0.(", "Pair view: …"), in three the model ("gemini-1.5-pro-previe")
    c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
    c3, _ = st.columns([3, 2])
    room = select_px(3 / 5, 2)  # an upload's longer name cut in its middle, marked "…"
    model = c1.selectbox("Model", list(stats.models), key="qv_cell_model",
                         format_func=distinct_cuts(list(stats.models), room).get)
    question = c2.selectbox("Question", list(stats.questions), key="qv_cell_question",
                            help="easiest first, as in the heatmap")
    others = dict(partners(stats, model, question))
    if ss.get("_qv_cell_for") != (model, question) or ss.get("qv_cell_other") not in others:
        ss["_qv_cell_for"] = (model, question)  # default: the one that differs most
        ss["qv_cell_other"] = next(iter(others))
    # "(+0.50 on it)" clipped a real model's name at the box's arrow: the difference alone
    other = c3.selectbox("Compare with", list(others), key="qv_cell_other",
                         format_func=_with_gaps(others, room).get,
                         help="each model with its mean score on this question minus the "
                              "chosen model's; the one that differs most first")
    _page_state.pair_button(model, other, "qv_cell_pair", question)
