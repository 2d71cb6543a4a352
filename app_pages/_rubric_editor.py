"""The Rubric builder's editor widgets: rules and categories grids, weight boxes, name and
default, and loading a preset or a JSON file into them.

Widget layout only: the tables <-> rubric conversion, the column meanings and the editor's
state come from :mod:`scorio_core.rubric.table`.
"""

from __future__ import annotations

import streamlit as st

from app_state.rubric_editor import (
    EDITOR_FIELDS,
    RULE_MORE,
    RULE_PARTS,
    RULE_READ,
    editor_state,
    joined_rules,
    more_rows,
)
from app_state.table_fit import CELL_PAD_PX, editor_px, text_px
from app_state.texts import error_text
from scorio_core import ValidationError
from scorio_core import rubric as rb
from scorio_core.formatting import WEIGHT_PRINTF
from scorio_core.rubric.table import RULE_HELP, from_tables

#: Narrowest a weight's box is drawn (px): its value and the − and + buttons, which
#: Streamlit hides in a box 120 px wide or narrower.
WEIGHT_BOX_PX = 124
STATE = "rubric_state"  # {"version": int, "rules": df, "cats": df, "name", "default", ...}


def load(r: rb.Rubric | None) -> None:
    """Put ``r`` (``None``: a blank rubric) into the editor; new widget keys reset the grids."""
    v = st.session_state.get(STATE, {}).get("version", 0) + 1
    st.session_state[STATE] = {"version": v, **editor_state(r)}


def _rules(state: dict, config: dict, choices: dict):
    """The rules editor in its two parts (:data:`RULE_PARTS`), each fitted to the main column
    of a 1024 px window (``editor_px``'s default budget): signal names whole, a rarely used other
    signal or ``among`` filter cut first in the second part. Returns the edited rules.

    An edit keeps the user's place: each part keeps its key and its data while the other is
    edited, so Streamlit keeps its grid, its edits and its selected cell. (Drawn afresh under
    new keys after every edit, both lost the selected cell.) The first part is drawn from
    the loaded rules, every edit held by the grid; the second repeats the first's rows'
    rule and signal (read only) beside its own columns (:data:`RULE_MORE`), which only it
    edits. Its rows are fixed: when the first adds or deletes a row it is drawn anew from the
    rows it then has, each with the thresholds edited for it so far (:func:`more_rows`)."""
    v, read = state["version"], RULE_READ
    labels = {k: c["label"] for k, c in config.items()}

    def part(rows, i: int, key: str, **kw):
        cols = RULE_PARTS[i]
        px = editor_px(rows[list(cols)], labels, choices,
                       shrink=["other", "among", "signal"], disabled=read if i else (),
                       markers=not i)
        # placeholder="": an empty cell (no threshold, no scope) shows blank, not "None"
        return st.data_editor(rows, key=key, hide_index=True, width="stretch", placeholder="",
                              column_order=cols, column_config={
            k: {**c, "width": px[k], **({"disabled": True} if i and k in read else {})}
            for k, c in config.items() if k in cols}, **kw)

    first = part(state["rules"], 0, f"rules_{v}", num_rows="dynamic")
    st.caption("The same rows' thresholds other than a fixed `value`: `pctl`, a "
               "percentile of the signal over a `scope` (`among` the completions that "
               "meet a condition), or `other`, another signal, completion by completion.")
    rows = tuple(first.index)
    if state.get("more_rows") != rows:  # a row added or deleted: the second part anew
        kept = state.get("more_edited")
        state["more"] = more_rows(first, kept)[list(RULE_MORE)]
        state["more_rows"], state["more_drawn"] = rows, state.get("more_drawn", -1) + 1
    more = part(first[list(read)].join(state["more"]), 1,
                f"rules_more_{v}_{state['more_drawn']}", num_rows="fixed")
    state["more_edited"] = more[list(RULE_MORE)]
    return joined_rules(first, more)


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
    """The editor for ``state``; the rubric it describes, or ``None`` (with the error shown).

    Each grid fits the main column of a 1024 px window (the server cannot know the window's
    width): the rules in two editors one under the other (:data:`RULE_PARTS`), rows added and
    deleted in the first; an edit in either keeps the user's place in it (:func:`_rules`)."""
    v, signals, cc = state["version"], list(rb.signal_names(o)), st.column_config
    st.markdown("**Rules** — tested top to bottom by rule number; the first rule whose rows all "
                "hold gives the category (`cat.`). Give several rules the same category for an "
                "OR; `not`: the row must not hold.")
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
    for k, c in config.items():
        c.update(help=RULE_HELP[k], label=c.get("label") or k)
    rules = _rules(state, config, choices)
    st.markdown("**Categories** — category 0 is reserved for invalid outputs.")
    shown = state["cats"].drop(columns="weight")
    # a long description gives way first (a click on its cell shows it whole), then the name
    px = editor_px(shown, shrink=["description", "name"])  # a 1024 px window's column
    cats = st.data_editor(shown, key=f"cats_{v}", num_rows="dynamic", hide_index=True,
                          width="stretch", placeholder="", column_config={
        "category": cc.NumberColumn(min_value=0, step=1, width=px["category"]),
        "name": cc.TextColumn(width=px["name"]),
        "description": cc.TextColumn(width=px["description"])})
    st.markdown("**Weights** — the value of each category")
    old_w, names = list(state["cats"]["weight"]), [str(n) for n in cats["name"].fillna("")]
    # a row that wraps, each box as wide as its label: in eight equal columns (56 px each in
    # a 1024 px window) a label broke over five lines ("high_con" / "f") and the boxes hid
    # their − and + buttons
    row, labels = st.container(horizontal=True), [f"{i}: {n or '?'}" for i, n in enumerate(names)]
    # a weight as every text writes it (0.5, 0.333333), not "%.3f"'s 0.500 and 0.333
    cats = cats.assign(weight=[row.number_input(
        label, value=float(old_w[i]) if i < len(old_w) else 0.0, step=0.05,
        format=WEIGHT_PRINTF, key=f"w_{v}_{i}",
        width=max(WEIGHT_BOX_PX, round(text_px(label)) + CELL_PAD_PX))
        for i, label in enumerate(labels)])
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
