"""Rubric builder: signals -> categories -> weights, with a live leaderboard (000 §3.4, App. F;
002 §3.5, App. F).

Start from a preset (000 Table 5, 002 Table 21), a blank rubric or an uploaded
JSON file; edit the ordered rules and the categories in tables and the weights
in number boxes; every change re-applies the rubric to the selected data
(``scorio_core.rubric.apply``) and re-ranks it (``scorio_core.leaderboard``).
Several rubrics can be compared side by side (bump chart and N = 1 τ table).
"""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from pages import _common
from scorio_core import ValidationError, charts
from scorio_core import rubric as rb
from scorio_core.rubric.table import blank_tables, from_tables, to_tables

BLANK = "(blank rubric)"
STATE = "rubric_state"  # {"version": int, "rules": df, "cats": df, "name", "default", ...}
CURRENT = "current (edited)"


def _preset_label(key: str) -> str:
    if key == BLANK:
        return key
    p = rb.PRESETS[key]
    paper = "000 Table 5" if key.startswith("dontpass/") else "002 Table 21"
    return f"{p.name} — {paper}"


def _load_into_state(rules: pd.DataFrame, cats: pd.DataFrame, meta: dict) -> None:
    old = st.session_state.get(STATE, {})
    st.session_state[STATE] = {
        "version": old.get("version", 0) + 1,
        "rules": rules,
        "cats": cats,
        **meta,
    }


def _start(source: str) -> None:
    if source == BLANK:
        rules, cats = blank_tables()
        _load_into_state(
            rules,
            cats,
            {
                "name": "Custom rubric",
                "default": None,
                "intent": "",
                "description": "",
                "source": "",
            },
        )
        return
    p = rb.PRESETS[source]
    rules, cats = to_tables(p)
    _load_into_state(
        rules,
        cats,
        {
            "name": p.name,
            "default": p.default,
            "intent": p.intent,
            "description": p.description,
            "source": p.source,
        },
    )


def _upload() -> None:
    f = st.file_uploader(
        "Load a rubric JSON",
        type=["json"],
        key="rubric_upload",
        help="A file saved from this page or `scorio-studio rubric show NAME --format json`.",
    )
    if f is None or st.session_state.get("_rubric_upload_seen") == f.file_id:
        return
    st.session_state["_rubric_upload_seen"] = f.file_id
    try:
        r = rb.load(f.getvalue())
        rules, cats = to_tables(r)
    except ValidationError as exc:
        st.error(f"Could not load this rubric: {exc}")
        return
    _load_into_state(
        rules,
        cats,
        {
            "name": r.name,
            "default": r.default,
            "intent": r.intent,
            "description": r.description,
            "source": r.source,
        },
    )
    st.success(f"Loaded **{r.name}** from {f.name}.")


def _editors(o, state) -> rb.Rubric | None:
    v = state["version"]
    signals = sorted(o.signals)
    st.markdown(
        "**Rules** — tested top to bottom by rule number; the first rule whose rows all "
        "hold gives the category. Give several rules the same category for an OR."
    )
    rules = st.data_editor(
        state["rules"],
        key=f"rules_{v}",
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_config={
            "rule": st.column_config.NumberColumn(
                "rule", min_value=1, step=1, required=True, help="order: rule 1 is tested first"
            ),
            "category": st.column_config.NumberColumn(
                "category", min_value=0, step=1, required=True
            ),
            "signal": st.column_config.SelectboxColumn("signal", options=signals, required=True),
            "op": st.column_config.SelectboxColumn("op", options=list(rb.OPS), required=True),
            "value": st.column_config.NumberColumn("value", help="fixed threshold"),
            "percentile": st.column_config.NumberColumn(
                "percentile",
                min_value=0,
                max_value=100,
                help="percentile threshold (0-100); needs a scope",
            ),
            "scope": st.column_config.SelectboxColumn(
                "scope",
                options=["", *rb.SCOPES],
                help="where the percentile is computed: per model, per dataset (benchmark), "
                "or over everything",
            ),
            "among": st.column_config.TextColumn(
                "among",
                help="percentile only over completions matching e.g. "
                "'is_correct < 0.5' (terms joined by &)",
            ),
            "other": st.column_config.SelectboxColumn(
                "other", options=["", *signals], help="compare with another signal"
            ),
            "negate": st.column_config.CheckboxColumn("not", help="the predicate must not hold"),
        },
    )
    st.markdown("**Categories** — category 0 is reserved for invalid outputs.")
    cats = st.data_editor(
        state["cats"].drop(columns="weight"),
        key=f"cats_{v}",
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_config={
            "category": st.column_config.NumberColumn(min_value=0, step=1),
            "description": st.column_config.TextColumn(width="large"),
        },
    )
    st.markdown("**Weights** — the value of each category")
    old_w = list(state["cats"]["weight"])
    names = [str(n) for n in cats["name"].fillna("")]
    cols = st.columns(max(min(len(names), 8), 1))
    weights = []
    for i, n in enumerate(names):
        default = float(old_w[i]) if i < len(old_w) else 0.0
        weights.append(
            cols[i % len(cols)].number_input(
                f"{i}: {n or '?'}", value=default, step=0.05, format="%.3f", key=f"w_{v}_{i}"
            )
        )
    cats = cats.assign(weight=weights)
    c1, c2 = st.columns([2, 1])
    name = c1.text_input("Rubric name", state["name"], key=f"rubric_name_{v}")
    opts = [None, *range(len(names))]
    dflt = state.get("default")
    default = c2.selectbox(
        "No rule matches →",
        opts,
        index=opts.index(dflt) if dflt in opts else 0,
        format_func=lambda d: "error (strict)" if d is None else f"category {d}",
        key=f"rubric_default_{v}",
    )
    try:
        r = from_tables(
            rules,
            cats,
            name=name or "Custom rubric",
            default=default,
            intent=state.get("intent", ""),
            description=state.get("description", ""),
            source=state.get("source", ""),
        )
        r.check_signals(signals)
        return r
    except ValidationError as exc:
        st.error(f"This rubric is not valid yet: {exc}")
        return None


def _preview(ds, o, r: rb.Rubric) -> None:
    try:
        scored = rb.apply(r, o)
    except ValidationError as exc:
        st.error(f"Could not apply the rubric: {exc}")
        return
    key = ds.token + "|rubric|" + json.dumps(rb.to_json(r), sort_keys=True)
    board = _common.compute_board(key, scored, tuple(r.weights), False, 0.95, ())
    st.subheader("Leaderboard under this rubric")
    st.dataframe(
        board.table,
        hide_index=True,
        height=_common.table_height(len(board.table)),
        column_config=_common.column_config(board.table),
        key="rubric_board",
    )
    st.caption(
        "Bayes@N of the rubric's weighted score with 95% credible intervals; models share "
        "a CI-aware rank while their gap is not resolved."
    )
    left, right = st.columns(2)
    with left:
        st.markdown("**Categories per model**")
        st.altair_chart(charts.category_bars(scored), width="stretch")
        st.caption(
            "Share of each model's completions in each category: which categories drive "
            "its score (e.g. equal accuracy, different invalid rates)."
        )
    with right:
        st.markdown("**Means and credible intervals**")
        st.altair_chart(charts.forest_plot(board), width="stretch")
        st.caption(
            "Dot = Bayes@N mean of the rubric score, bar = 95% interval; rows sharing "
            "a label are not distinguishable."
        )
    st.download_button(
        "Save rubric (JSON)",
        json.dumps(rb.to_json(r), indent=2),
        f"{''.join(ch if ch.isalnum() else '_' for ch in r.name)}.json",
        "application/json",
        key="rubric_download",
    )


@st.cache_data(max_entries=16, show_spinner="Comparing rubrics…")
def _comparison(token: str, schemes_key: str, _o, _schemes):
    """Ranks per rubric and the N = 1 τ table; cached by data token and rubric JSON, so
    editing something else on the page does not recompute them."""
    return rb.scheme_ranks(_o, _schemes, gold=True), rb.categorical_ranking(_o, _schemes)


def _compare(ds, o, current: rb.Rubric | None) -> None:
    st.subheader("Compare rubrics")
    st.markdown(
        "Model ranks under several rubrics (000 Fig. 7) and, at N = 1, how each "
        "rubric's single-trial ranking agrees with the binary gold standard (τ_GS), "
        "with itself on all trials (τ_Self) and with the greedy-prior ranking "
        "(τ_Greedy) — 002 Table 5."
    )
    options = ([CURRENT] if current is not None else []) + list(rb.PRESETS)
    default = [k for k in rb.PRESETS if k.startswith("ranking/")][:4]
    chosen = st.multiselect(
        "Rubrics",
        options,
        default=default,
        key="rubric_compare",
        format_func=lambda k: k if k == CURRENT else _preset_label(k),
    )
    if not chosen:
        return
    schemes = {}
    for k in chosen:
        schemes[current.name + " (edited)" if k == CURRENT else rb.PRESETS[k].name] = (
            current if k == CURRENT else rb.PRESETS[k]
        )
    key = json.dumps({label: rb.to_json(r) for label, r in schemes.items()}, sort_keys=True)
    try:
        ranks, tau = _comparison(ds.token, key, o, schemes)
    except ValidationError as exc:
        st.error(str(exc))
        return
    st.altair_chart(charts.rank_bump_chart(ranks), width="stretch")
    st.caption(charts.RANK_BUMP_CAPTION)
    st.dataframe(
        tau,
        hide_index=True,
        width="stretch",
        column_config=_common.number_formats(c for c in tau.columns if c.startswith("tau_")),
    )
    st.caption(
        f"Mean ± s.d. of Kendall τ_b over the {o.N} single-trial slices; higher τ_Self "
        "means the rubric ranks consistently from one trial."
    )


def main() -> None:
    ds = _common.page_start(
        "Rubric builder", lambda o: f"signals: {', '.join(sorted(o.signals)) or 'none'}"
    )
    o = ds.view
    if not o.signals:
        st.info(
            "This dataset carries no per-completion signals, so there is nothing for a rubric "
            "to read. Pick *Reasoning benchmarks (synthetic)* (nine signals) or load a long "
            "table with extra numeric columns (each becomes a signal)."
        )
        return
    c1, c2 = st.columns([3, 2])
    source = c1.selectbox(
        "Start from",
        [BLANK, *rb.PRESETS],
        index=1 + list(rb.PRESETS).index("ranking/conservative"),
        key="rubric_preset",
        format_func=_preset_label,
    )
    with c2:
        _upload()
    if st.session_state.get("_rubric_source") != source or STATE not in st.session_state:
        st.session_state["_rubric_source"] = source
        _start(source)
    state = st.session_state[STATE]
    if state.get("intent") or state.get("description"):
        st.markdown(f"*{state.get('intent', '')}* {state.get('description', '')}")
    current = _editors(o, state)
    if current is not None:
        _preview(ds, o, current)
    _compare(ds, o, current)


main()
