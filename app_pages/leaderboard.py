"""Leaderboard page: calibrated scores in either scope, rank intervals, p_best, Bayes@N, exports."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_pages import _common, _explore, _page_state, _render
from app_state.page_state import from_state, keys, ks_options, percent
from scorio_core import ValidationError, export
from scorio_core.definitions.leaderboard import LEADERBOARD
from scorio_core.definitions.provenance import export_filename
from scorio_core.estimands import SCOPE_HELP, STAND_IN_RATIO
from scorio_core.formatting import WEIGHT_PRINTF, count_text
from scorio_core.leaderboard import prior_note

KEY = keys("leaderboard")  # setting -> widget key, declared in app_state.page_state


def _controls(ds) -> tuple | None:
    """The widgets; the category weights edited (``None`` for binary data)."""
    o = ds.view
    # Button groups (segmented controls, pills) and select boxes only: every other widget
    # kind is more JavaScript for a first visit's browser to fetch before the table shows.
    # labels, choices and help texts: the declarations in scorio_core/params.py
    # halves: the four confidence buttons and the prior's two read whole in a 1024 px
    # window's column (in 4/15 of it "greedy (R0)" was cut 40 px, at "greedy"); Pass@k's pills
    # under them, a row of their own
    c1, c2 = st.columns(2)
    _common.setting(c1, "leaderboard", "confidence")
    # the widget holds whether the greedy outcomes enter the prior (the setting's "greedy")
    _common.setting(c2, "leaderboard", "prior", "segmented_control", options=[False, True],
                    required=True, format_func=lambda g: "greedy (R0)" if g else "uniform",
                    disabled=o.R0 is None,
                    help="This dataset has no greedy/prior outcomes (R0)." if o.R0 is None
                    else f"greedy: add the {count_text(o.D, 'greedy outcome')} per question to the "
                    "papers' uniform prior (the bayes_* columns become Bayes_R0@N)")
    c1, c2 = st.columns([3, 2])
    _common.setting(c1, "leaderboard", "scope", "segmented_control", required=True)
    _common.setting(c2, "leaderboard", "adjust")
    if o.is_binary:
        _common.setting(st, "leaderboard", "ks", "pills", options=ks_options(o.N),
                        selection_mode="multi", wrap=True)
    _explore.subset_widgets(o, "leaderboard")
    _common.spread_prior_box(ds, "leaderboard", st.session_state.get(KEY["scope"]) or "questions")
    if o.is_binary:
        return None
    start = st.session_state.get(KEY["weights"])
    start = tuple(start) if start and len(start) == o.C + 1 else tuple(map(float, o.weights))
    st.markdown("**Category weights** — the value of each outcome category")
    edited = st.data_editor(
        pd.DataFrame({"category": list(o.category_names), "weight": list(start)}),
        key=_common.weights_key(start), hide_index=True, disabled=["category"],
        num_rows="fixed", width=480,  # a weight as every text writes it: 0.5, 0.333333
        column_config={"weight": st.column_config.NumberColumn(format=WEIGHT_PRINTF)})
    return tuple(float(x) for x in edited["weight"].fillna(0.0))


def _notes(board, n_trials: int) -> None:
    for note in board.notes:
        st.warning(_common.prose(note), icon=":material/warning:")  # they name models
    if note := prior_note(board):
        st.info(note, icon=":material/info:")
    if board.settings["scope"] == "population" and n_trials >= STAND_IN_RATIO:
        # the population p_best caveat above: measured on these data by the Check page (the
        # question in text, the link's one-line label short: as the label it was cut)
        st.markdown("How far do p_best, the intervals and decisions hold on smaller runs drawn "
                    "from these data?")
        st.page_link("app_pages/check.py", icon=":material/fact_check:",
                     label="Check a smaller run")
    if conflicts := board.chained_conflicts():
        shown = ", ".join(f"{a} > {b}" for a, b in conflicts[:4])
        more = f" and {len(conflicts) - 4} more" if len(conflicts) > 4 else ""
        st.warning(
            f"`rank_chain` puts {count_text(len(conflicts), 'decided pair')} in one rank "
            f"({shown}{more}): "
            "small neighbour gaps chain into a tie that the pairwise decisions contradict. "
            "Read `rank`/`rank_lo`–`rank_hi` instead."
        )


def main() -> None:
    ds = _common.page_start("Leaderboard")
    o = ds.view
    _page_state.widgets("leaderboard", ds)
    weights = _controls(ds)
    try:
        params = from_state("leaderboard", st.session_state, o, weights=weights)
        result = _render.run(LEADERBOARD, ds, params, "Computing the leaderboard")
    except ValidationError as exc:
        _common.show_error(exc)
        return
    _page_state.remember("leaderboard", ds, params)
    board = result.board
    st.markdown(f"**{params.scope.capitalize()} scope** — {SCOPE_HELP[params.scope]}; "
                f"{percent(params.confidence)} intervals, adjustment: {params.adjust}")
    # the set for the best model, by name
    st.info(_common.prose(board.first_line()), icon=":material/trophy:")
    _common.show_board(board.table, n_now=o.N)
    _notes(board, o.N)
    if o.L > 1:
        _page_state.pair_picker(board, key="lb_pair")
    _common.show_unresolved(board, o.N)
    _explore.per_subset(result.subsets, result.by, "leaderboard",
                        LEADERBOARD.column_help("by_subset"))
    _render.charts(LEADERBOARD, result, "leaderboard")  # both as wide as the column
    title = f"Leaderboard ({params.scope} scope): {o.name}"
    markdown = ("Markdown", lambda: export.export(board, "md", title=title),
                export_filename(o, "leaderboard", "md"), "text/markdown")
    _render.footer(LEADERBOARD, ds, params, result, "leaderboard", extra=[markdown])
    _explore.curves(ds, params)


main()
