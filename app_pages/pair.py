"""Pair page: two models question by question -- the difference in both scopes, the questions
that drive it, and one question's completions side by side with each repeat's score.

Renders ``scorio_core.definitions.ANALYSES["pair"]``; this file is widget layout only. Text
from logs is shown as plain text (``st.code``, ``st.dataframe``), never as Markdown/HTML.
"""

from __future__ import annotations

import streamlit as st

from app_pages import _common, _page_state, _render
from app_state.page_state import FIELDS, from_state
from app_state.table_fit import distinct_cuts, select_px
from app_state.texts import app_widget, flips_caption, questions_caption, repeats_caption
from scorio_core import ValidationError
from scorio_core.definitions.pair import PAIR, by_model, interval_note, repeats_note, shows_texts
from scorio_core.display import readable
from scorio_core.engines.pair import question_choices
from scorio_core.formatting import _md_escape
from scorio_core.params import PairParams

A, B = FIELDS["pair"][("a", "b")].keys
W = {k: app_widget(PairParams, k) for k in ("a", "b")}  # one setting each, shown as a pair


def _controls(o) -> None:
    # the two models in half columns, the four confidence buttons under them: in thirds of
    # a 1024 px window's column "gemini-1.5-pro-preview-0409" was clipped at the box's arrow
    # (an upload's longer name cut in its middle, "…" marking it: the box clips it unmarked)
    c1, c2 = st.columns(2)
    short = distinct_cuts(list(o.models), select_px(1 / 2, 2)).get  # no two names alike
    c1.selectbox(W["a"]["label"], list(o.models), key=A, help=W["a"]["help"], format_func=short)
    c2.selectbox(W["b"]["label"], list(o.models), key=B, help=W["b"]["help"], format_func=short)
    _common.setting(st, "pair", "confidence")


def _flips(result) -> None:
    """The chosen question's trials: with texts, the report's view (two rows per trial, one
    column per text: ``by_model``), its long texts after the scores where the column has no
    room for them beside (``_common.fitted_table``); without, each trial's two scores side
    by side."""
    f, c = result.flips, result.comparison
    if not shows_texts(result):
        _common.show_core(st, f.trials, hide_index=True, columns=PAIR.column_help("flips"))
        st.caption(_common.prose(flips_caption(f.trials, f.trial_meaning)))
        return
    t, notes = readable(by_model(PAIR.tables(result)["flips"], c.a, c.b, f.trial_meaning))
    _common.fitted_table(t, ["trial", "model"], columns=PAIR.column_help("flips"))
    st.caption(_common.prose(" ".join(notes)) + " Click a cell to read it whole; one trial's "
               "texts in full below, the CSV/JSON export has both models' texts side by side.")


def _texts(f) -> None:
    """One trial's full texts of both models, side by side (plain text): the texts
    :meth:`~scorio_core.engines.pair.FlipTable.panel` shows, a row each, so a model's output
    stands beside the other's; the question's own texts stand once above."""
    trials = list(range(len(f.trials)))  # positions; the slider shows the files' numbers
    if st.session_state.get("pair_trial") not in trials:
        st.session_state["pair_trial"] = trials[0]
    p = f.panel(st.select_slider("Trial", trials, key="pair_trial", format_func=f.trial_label,
                                 help=f"Trial: {f.trial_meaning}.")
                if len(trials) > 1 else 0)
    for col, (model, category, score), tid in zip(st.columns(2), p.heads, p.ids, strict=True):
        col.markdown(f"**{_md_escape(model)}** · trial {_md_escape(str(tid))} · "
                     f"{_md_escape(category)} (score {score:g})")
    for r in p.rows:
        for col, label, text in zip(st.columns(2), r.labels, (r.a, r.b), strict=True):
            col.caption(label)
            if text:
                col.code(text, language=None, wrap_lines=True)


def main() -> None:
    ds = _common.page_start("Pair view")
    o = ds.view
    if (why := PAIR.refusal(o)) is not None:  # a sentence, as every page's refusal
        _common.show_refusal(why)
        return
    _page_state.widgets("pair", ds)
    _controls(o)
    try:
        params = from_state("pair", st.session_state, o)
        result = _render.run(PAIR, ds, params, "Comparing the pair")
    except ValidationError as exc:
        _common.show_error(exc)
        return
    _page_state.remember("pair", ds, params)
    c, f = result.comparison, result.flips
    st.subheader("Difference of mean score, both scopes")
    # t: ∞ for a difference with no spread; the p-value: <0.0001, not 0.0000; each scope's
    # verdict and estimand said whole under it, not cut in a cell of a 1024 px window
    _render.table(PAIR, result, "summary", spelled=("t", "p_value"),
                  whole=("verdict", "estimand"), lines=[interval_note(c.confidence)])
    _render.charts(PAIR, result, "pair")
    q = c.questions  # every question: the chart draws those that move the gap most
    _render.table(PAIR, result, "questions", every_row=True, lines=[questions_caption(len(q))],
                  height=_common.table_height(len(q), 10))
    st.subheader("One question, both models' repeats")
    choices = question_choices(q)  # "" = the one that drives the gap most
    _common.setting(st, "pair", "question", options=list(choices), format_func=choices.get)
    for name, text in f.context.items():  # the question's own texts, once
        st.caption(_common.prose(name))  # a text column's name, from the files
        st.code(str(text), language=None, wrap_lines=True)
    if not f.has_text:
        st.info("These data carry no completion texts (an .npz or a table without text "
                "columns): each repeat's score only. Load the logs to read the answers.")
    _flips(result)
    _common.fitted_table(f.groups, ["model", "answer"], columns=PAIR.column_help("repeats"))
    st.caption(_common.prose(f"{repeats_caption(f.groups)} {repeats_note(f)}"))
    if f.has_text:
        _texts(f)
    with st.expander("How to read this"):
        st.markdown(PAIR.how_to_read)
    _render.footer(PAIR, ds, params, result, "pair")


main()
