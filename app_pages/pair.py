"""Pair page: two models question by question -- the difference in both scopes, the questions
that drive it, and one question's completions side by side with each repeat's score.

Renders ``scorio_core.definitions.ANALYSES["pair"]``; this file is widget layout only. Text
from logs is shown as plain text (``st.code``, ``st.dataframe``), never as Markdown/HTML.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages import _common, _page_state, _render
from app_pages._widgets import name_width
from app_state.page_state import FIELDS, from_state
from app_state.texts import flips_caption, repeats_caption
from scorio_core import ValidationError
from scorio_core.definitions.pair import PAIR, by_model, shows_texts, summary_view
from scorio_core.display import readable
from scorio_core.engines.pair import PER_QUESTION
from scorio_core.formatting import _md_escape
from scorio_core.params import PairParams, widget

A, B = FIELDS["pair"][("a", "b")].keys
W = {k: widget(PairParams, k) for k in ("a", "b")}  # one setting each, shown as a pair
#: The main column's width at a 1280 px window with the sidebar open (px, seen in Chromium):
#: the flips' long texts share out what the other columns leave of it, so the table fits.
MAIN_PX = 800
#: Row height of the flips when a text is longer than its cell's line: four lines (above
#: 4 rem, Streamlit's grid wraps a text cell within its row; a click shows the cell whole).
ROW_PX = 72


def _controls(o) -> None:
    c1, c2, c3 = st.columns([3, 3, 3])  # room for the four confidence buttons
    c1.selectbox(W["a"]["label"], list(o.models), key=A, help=W["a"]["help"])
    c2.selectbox(W["b"]["label"], list(o.models), key=B, help=W["b"]["help"])
    _common.setting(c3, "pair", "confidence")


def _question(cmp) -> None:
    q = cmp.questions
    diffs = dict(zip(q["question"], q["diff"], strict=True))
    # pooled benchmarks: which one each question comes from, beside its id
    bench = dict(zip(q["question"], q["benchmark"], strict=True)) if "benchmark" in q else {}
    name = {x: f"{x} · {bench[x]}" if bench else x for x in q["question"]}
    top = q["question"].iloc[0]
    _common.setting(
        st, "pair", "question", options=["", *q["question"]],
        format_func=lambda x: f"the one that drives the gap most ({name[top]})" if x == ""
        else f"{name[x]}  (difference {diffs[x]:+.3f})")


def _flips(result) -> None:
    """The chosen question's trials: with texts, the report's view (two rows per trial, one
    column per text: ``by_model``), its text columns sharing out the main column; without,
    each trial's two scores side by side."""
    f, c = result.flips, result.comparison
    if not shows_texts(result):
        _common.show_table(st, f.trials, hide_index=True,
                           column_config=_common.core_formats(f.trials))
        st.caption(flips_caption(f.trials))
        return
    t, notes = readable(by_model(PAIR.tables(result)["flips"], c.a, c.b))
    _fitted(t)
    st.caption(" ".join(notes) + " Click a cell to read it whole; one trial's texts in full "
               "below, the CSV/JSON export has both models' texts side by side.")


def _fitted(t) -> None:
    """``t`` (a table with a ``model`` column: the flips with texts, the repeats) within the
    main column: ``model`` as wide as its longest name; numbers as the grid sizes them; a
    short text (up to 12 characters: a category, a one-letter answer) as wide as its header
    or longest value; longer texts (an answer or output, "(no answer recorded)", the list of
    trials) share what the others leave of :data:`MAIN_PX`, none wider than its longest
    value needs, the rest to those that need more. The grid, left to itself, sized the
    repeats' answers to a letter ("(no answ") and ran ``mean_score`` past the column's
    right edge. Rows take four lines when a text is longer than its cell's line."""
    cfg = _common.core_formats(t)
    cfg["model"] = st.column_config.TextColumn(width=name_width(t["model"]))
    text = [x for x in t if x not in cfg and not pd.api.types.is_numeric_dtype(t[x])]
    chars = {x: int(t[x].dropna().astype(str).str.len().max()) if t[x].notna().any() else 0
             for x in text}
    need = {x: 7 * max(chars[x], len(str(x)), 3) + 24 for x in text}  # px that show it whole
    long = sorted((x for x in text if chars[x] > 12), key=need.get)
    cfg |= {x: st.column_config.TextColumn(width=need[x]) for x in text if x not in long}
    # the others' widths; numbers and flags about as the grid sizes them (by their header)
    left = MAIN_PX - sum((cfg.get(x) or {}).get("width") or 7 * max(len(str(x)), 6) + 20
                         for x in t if x not in long)
    for i, x in enumerate(long):  # the shortest first: what one leaves, the next may take
        cfg[x] = st.column_config.TextColumn(width=max(min(need[x], left // (len(long) - i)),
                                                       90))
        left -= cfg[x]["width"]
    wrap = any(need[x] > cfg[x]["width"] for x in long)
    _common.show_table(st, t, hide_index=True, column_config=cfg,
                       row_height=ROW_PX if wrap else None,
                       height=min((ROW_PX if wrap else 35) * len(t) + 38, 10 * ROW_PX))


def _texts(f, c) -> None:
    """One trial's full texts of both models, side by side (plain text): every text the
    store has for the trial (``f.texts``, in the store's order), a row each, so a model's
    output stands beside the other's; the question's own texts stand once above."""
    trials = list(f.trials["trial"])
    if st.session_state.get("pair_trial") not in trials:
        st.session_state["pair_trial"] = trials[0]
    trial = st.select_slider("Trial", trials, key="pair_trial") if len(trials) > 1 else 0
    row = f.trials.iloc[int(trial)]
    for col, tag, model in zip(st.columns(2), ("a", "b"), (c.a, c.b), strict=True):
        col.markdown(f"**{_md_escape(model)}** · trial {trial} · "
                     f"{_md_escape(row[f'category_{tag}'])} (score {row[f'score_{tag}']:g})")
    for name in f.texts:
        texts = [row.get(f"{name}_{tag}") for tag in ("a", "b")]
        texts = [t if isinstance(t, str) and t else None for t in texts]
        if texts == [None, None]:
            continue
        for col, text in zip(st.columns(2), texts, strict=True):
            col.caption(name if text else f"{name}: none")
            if text:
                col.code(text, language=None, wrap_lines=True)


def main() -> None:
    ds = _common.page_start("Pair view")
    o = ds.view
    if (why := PAIR.requires(o)) is not None:
        st.warning(why)
        return
    _page_state.widgets("pair", ds)
    _controls(o)
    try:
        params = from_state("pair", st.session_state, o)
        result = _render.run(PAIR, ds, params, "Comparing the pair")
    except ValidationError as exc:
        st.error(str(exc))
        st.stop()
    _page_state.remember("pair", ds, params)
    c, f = result.comparison, result.flips
    st.subheader("Difference of mean score, both scopes")
    summary = summary_view(c.summary).table
    # t: ∞ for a difference with no spread; the p-value: <0.0001, not 0.0000
    shown, cfg = _common.core_table(summary.drop(columns=["verdict", "estimand"]), ["t", "p_value"])
    _common.show_table(st, shown, hide_index=True, column_config=cfg)
    st.markdown("\n".join(  # whole, not cut in a cell or past the column's right edge
        f"- **{r.scope}** scope: {_md_escape(r.verdict)} — estimand: {_md_escape(r.estimand)}"
        for r in summary.itertuples()))
    st.caption(f"diff = {_md_escape(c.a)} − {_md_escape(c.b)}; lo–hi: its {c.confidence:.0%} "
               "interval (the leaderboard's numbers for this pair; decided when it excludes 0, "
               "without the leaderboard's multiplicity control).")
    _render.charts(PAIR, result, "pair")
    q = c.questions  # every question: the chart draws those that move the gap most
    _common.show_table(st, q, hide_index=True, height=_common.table_height(len(q), 10),
                       column_config=_common.core_formats(q))
    st.caption(f"All {len(q):,} questions, the leader's largest push first; cumulative: the "
               "running total, which ends at the mean difference (click a header to sort).")
    st.subheader("One question, both models' repeats")
    _question(c)
    for name in PER_QUESTION:
        if name in f.context:
            st.caption(name)
            st.code(str(f.context[name]), language=None, wrap_lines=True)
    if not f.has_text:
        st.info("These data carry no completion texts (an .npz or a table without text "
                "columns): each repeat's score only. Load the logs to read the answers.")
    _flips(result)
    _fitted(f.groups)
    st.caption(repeats_caption(f.groups))
    if f.has_text:
        _texts(f, c)
    with st.expander("How to read this"):
        st.markdown(PAIR.how_to_read)
    _render.footer(PAIR, ds, params, result, "pair")


main()
