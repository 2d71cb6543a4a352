"""The Rubric builder's editor widgets: rules and categories grids, weight boxes, name and
default, and loading a preset or a JSON file into them.

Widget layout only: the tables <-> rubric conversion, the column meanings and the editor's
state come from :mod:`scorio_core.rubric.table`.
"""

from __future__ import annotations

import streamlit as st

from app_state.rubric_editor import EDITOR_FIELDS, editor_state
from app_state.table_fit import editor_px
from app_state.texts import error_text
from scorio_core import ValidationError
from scorio_core import rubric as rb
from scorio_core.formatting import WEIGHT_PRINTF
from scorio_core.rubric.table import RULE_HELP, from_tables

STATE = "rubric_state"  # {"version": int, "rules": df, "cats": df, "name", "default", ...}


def load(r: rb.Rubric | None) -> None:
    """Put ``r`` (``None``: a blank rubric) into the editor; new widget keys reset the grids."""
    v = st.session_state.get(STATE, {}).get("version", 0) + 1
    st.session_state[STATE] = {"version": v, **editor_state(r)}


def upload() -> None:
    """A JSON uploader that loads the file into the editor once per file."""
    f = st.file_uploader("Load a rubric JSON", type=["json"], key="rubric_upload",
                         help="A file saved from this page or `scorio-studio rubric show NAME "
                         "--format json`.")
    if f is None or st.session_state.get("_rubric_upload_seen") == f.file_id:
        return
    st.session_state["_rubric_upload_seen"] = f.file_id
    try:
        r = rb.load(f.getvalue())
    except ValidationError as exc:
        st.error(f"Could not load this rubric: {error_text(exc)}")
        return
    load(r)
    st.success(f"Loaded **{r.name}** from {f.name}.")


def editors(o, state: dict) -> rb.Rubric | None:
    """The editor for ``state``; the rubric it describes, or ``None`` (with the error shown)."""
    v, signals, cc = state["version"], list(rb.signal_names(o)), st.column_config
    st.markdown("**Rules** — tested top to bottom by rule number; the first rule whose rows all "
                "hold gives the category (`cat.`). Give several rules the same category for an "
                "OR; `pctl`: a percentile threshold.")
    num, sel = cc.NumberColumn, cc.SelectboxColumn
    choices = {"signal": signals, "scope": ["", *rb.SCOPES], "op": list(rb.OPS),
               "other": ["", *signals]}
    config = {  # column -> widget; RULE_HELP (core) says what each column means
        "rule": num(min_value=1, step=1, required=True), "value": num(),
        "category": num("cat.", min_value=0, step=1, required=True),
        "percentile": num("pctl", min_value=0, max_value=100), "among": cc.TextColumn(),
        "signal": sel(options=choices["signal"], required=True),
        "scope": sel(options=choices["scope"]), "op": sel(options=choices["op"], required=True),
        "other": sel(options=choices["other"]), "negate": cc.CheckboxColumn("not"),
    }
    # widths that fit the main column: the headers whole (short labels: "category" and
    # "percentile" with the pencil marks took 64 px more), a signal name whole; a rarely used
    # other signal or among filter cut first
    px = editor_px(state["rules"], {k: c["label"] for k, c in config.items() if c["label"]},
                   choices, shrink=["other", "among", "signal"])
    for k, c in config.items():
        c.update(help=RULE_HELP[k], label=c.get("label") or k, width=px.get(k))
    # placeholder="": an empty cell (no threshold, no scope) shows blank, not "None"
    rules = st.data_editor(state["rules"], key=f"rules_{v}", num_rows="dynamic", hide_index=True,
                           width="stretch", column_config=config, placeholder="")
    st.markdown("**Categories** — category 0 is reserved for invalid outputs.")
    cats = st.data_editor(state["cats"].drop(columns="weight"), key=f"cats_{v}", num_rows="dynamic",
                          hide_index=True, width="stretch", placeholder="", column_config={
        "category": cc.NumberColumn(min_value=0, step=1),
        "description": cc.TextColumn(width="large")})
    st.markdown("**Weights** — the value of each category")
    old_w, names = list(state["cats"]["weight"]), [str(n) for n in cats["name"].fillna("")]
    cols = st.columns(max(min(len(names), 8), 1))
    # a weight as every text writes it (0.5, 0.333333), not "%.3f"'s 0.500 and 0.333
    cats = cats.assign(weight=[cols[i % len(cols)].number_input(
        f"{i}: {n or '?'}", value=float(old_w[i]) if i < len(old_w) else 0.0, step=0.05,
        format=WEIGHT_PRINTF, key=f"w_{v}_{i}") for i, n in enumerate(names)])
    c1, c2 = st.columns([2, 1])
    name = c1.text_input("Rubric name", state["name"], key=f"rubric_name_{v}")
    opts = [None, *range(len(names))]
    default = c2.selectbox("No rule matches →", opts, index=opts.index(state["default"])
                           if state["default"] in opts else 0, key=f"rubric_default_{v}",
                           format_func=lambda d: "error (strict)" if d is None else f"category {d}")
    try:
        meta = {k: state[k] for k in EDITOR_FIELDS} | {"name": name or "Custom rubric",
                                                       "default": default}
        r = from_tables(rules, cats, **meta)
        r.check_signals(signals)
        return r
    except ValidationError as exc:
        st.error(f"This rubric is not valid yet: {error_text(exc)}")
        return None
