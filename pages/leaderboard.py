"""Leaderboard page: Bayes@N in either scope, rank intervals, p_best, Pass@k, exports."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from pages import _common, _render
from scorio_core import ValidationError, export
from scorio_core.analyses import LeaderboardParams
from scorio_core.analyses.leaderboard import LEADERBOARD
from scorio_core.analyses.provenance import export_filename
from scorio_core.leaderboard import prior_note

CONFIDENCES = [0.80, 0.90, 0.95, 0.99]


SCOPE_HELP = (
    "questions: the mean over these questions (the papers' Bayes@N). population: the mean "
    "over the population the questions were drawn from -- adds question sampling, paired "
    "across models; wider with few questions."
)


def _decision_controls() -> tuple[str, str]:
    c1, c2 = st.columns([3, 2])
    scope = c1.segmented_control(
        "Scope", ["questions", "population"], default="questions", key="scope", help=SCOPE_HELP
    ) or "questions"
    adjust = c2.selectbox(
        "Multiplicity control",
        ["none", "holm", "bh"],
        key="adjust",
        format_func={"none": "none", "holm": "Holm (family-wise)", "bh": "Benjamini–Hochberg"}.get,
        help="Adjust the pairwise decisions over all L(L−1)/2 pairs",
    )
    return scope, adjust


def _controls(o) -> tuple[float, bool, tuple[float, ...], tuple[int, ...]]:
    c1, c2, c3 = st.columns([2, 2, 3])
    confidence = c1.select_slider(
        "Confidence",
        CONFIDENCES,
        value=0.95,
        key="confidence",
        format_func=lambda c: f"{c:.0%}",
        help="Credible level of the intervals and decision level of the pairwise decisions "
        "behind rank, rank_lo, rank_hi and the heatmap",
    )
    no_r0 = o.R0 is None
    use_prior = c2.toggle(
        "Use greedy prior (R0)",
        key="use_prior",
        disabled=no_r0,
        help="This dataset has no greedy/prior outcomes (R0)."
        if no_r0
        else f"Add the {o.D} greedy outcome(s) per question to the uniform prior (Bayes_R0@N)",
    )
    ks: tuple[int, ...] = ()
    if o.is_binary:
        options = sorted({2**i for i in range(int(math.log2(o.N)) + 1)} | {o.N})
        ks = tuple(
            c3.multiselect(
                "Pass@k columns",
                options,
                default=[k for k in (1, 8) if k <= o.N],
                key="ks",
                help=f"k ≤ N = {o.N} trials",
            )
        )
    weights = tuple(float(x) for x in o.weights)
    if not o.is_binary:
        st.markdown("**Category weights** — the value of each outcome category")
        edited = st.data_editor(
            pd.DataFrame({"category": list(o.category_names), "weight": list(weights)}),
            key="weights",
            hide_index=True,
            disabled=["category"],
            num_rows="fixed",
            width=480,
        )
        weights = tuple(float(x) for x in edited["weight"].fillna(0.0))
    return confidence, use_prior and not no_r0, weights, ks


def main() -> None:
    ds = _common.page_start("Leaderboard")
    o = ds.view
    _common.forget_on_new_data(ds, "use_prior", "ks", "weights")
    confidence, use_prior, weights, ks = _controls(o)
    scope, adjust = _decision_controls()
    try:
        params = LeaderboardParams(
            confidence=confidence, prior="greedy" if use_prior else "uniform", ks=ks,
            weights=None if o.is_binary else weights, scope=scope, adjust=adjust,
        )
        result = _render.run(LEADERBOARD, ds, params, "Computing the leaderboard")
    except ValidationError as exc:
        st.error(str(exc))
        st.stop()
    board = result.board

    st.markdown(f"**Bayes@N, {scope} scope, {confidence:.0%}** (adjustment: {adjust})")
    shown = _common.board_display(board.table)
    st.dataframe(
        shown,
        hide_index=True,
        height=_common.table_height(len(shown)),
        column_config=_common.column_config(shown),
    )
    st.markdown(
        f"**rank** = `rank_lo` = 1 + models that beat this one with posterior probability ≥ "
        f"{confidence:.0%}; `rank_hi` = L − models it beats; `p_best` = P(first). "
        "`rank_chain` is the adjacent rule of 000 §2.7.1, `rank_overlap` the arena rule."
    )
    note = prior_note(board)
    if note:
        st.info(note, icon=":material/info:")
    conflicts = board.chained_conflicts()
    if conflicts:
        shown = ", ".join(f"{a} > {b}" for a, b in conflicts[:4])
        more = f" and {len(conflicts) - 4} more" if len(conflicts) > 4 else ""
        st.warning(
            f"`rank_chain` puts {len(conflicts)} decided pair(s) in one rank ({shown}{more}): "
            "small neighbour gaps chain into a tie that the pairwise posterior contradicts. "
            "Read `rank`/`rank_lo`–`rank_hi` instead."
        )

    _common.show_unresolved(board, o.N)
    _render.charts(LEADERBOARD, result, "leaderboard", widths=("stretch", "content"))
    title = f"Leaderboard ({scope} scope): {o.name}"
    markdown = ("Markdown", lambda: export.export(board, "md", title=title),
                export_filename(o, "leaderboard", "md"), "text/markdown")
    _render.footer(LEADERBOARD, ds, params, result, "leaderboard", extra=[markdown])


main()
