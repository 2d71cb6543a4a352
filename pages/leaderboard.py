"""Leaderboard page: Bayes@N with credible intervals, CI-aware ranks, Pass@k, exports."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from pages import _common
from scorio_core import ValidationError, charts, export

CONFIDENCES = [0.80, 0.90, 0.95, 0.99]
DOWNLOADS = [
    ("csv", "CSV", "text/csv"),
    ("json", "JSON", "application/json"),
    ("md", "Markdown", "text/markdown"),
]


def _controls(o) -> tuple[float, bool, tuple[float, ...], tuple[int, ...]]:
    c1, c2, c3 = st.columns([2, 2, 3])
    confidence = c1.select_slider(
        "Confidence",
        CONFIDENCES,
        value=0.95,
        key="confidence",
        format_func=lambda c: f"{c:.0%}",
        help="Credible level of the intervals and ranking confidence of the CI-aware rank",
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
    ds = _common.page_start("CI-aware leaderboard")
    o = ds.view
    _common.forget_on_new_data(ds, "use_prior", "ks", "weights")
    confidence, use_prior, weights, ks = _controls(o)
    try:
        board = _common.compute_board(ds.token, o, weights, use_prior, confidence, ks)
    except ValidationError as exc:
        st.error(str(exc))
        st.stop()
    thr = board.settings["z_threshold"]

    st.dataframe(
        board.table,
        hide_index=True,
        height=_common.table_height(len(board.table)),
        column_config=_common.column_config(board.table),
    )
    st.markdown(
        f"**CI-aware rank** (`rank_ci`): sort by the Bayes@N mean and walk down the list; a "
        f"model shares its neighbour's rank unless their z-score reaches {thr:.3f} "
        f"({confidence:.0%} one-sided ranking confidence). `rank_overlap` is the more "
        "conservative arena rule (1 + models whose interval lies entirely above)."
    )

    _common.show_unresolved(board, o.N)

    st.subheader("Means and credible intervals")
    st.altair_chart(charts.forest_plot(board), width="stretch")
    st.caption(
        "Dot = Bayes@N mean, bar = credible interval, #k = CI-aware rank: rows sharing a "
        "label (and colour) are not distinguishable at this confidence."
    )

    st.subheader("Pairwise confidence")
    st.altair_chart(charts.confidence_heatmap(board), width="content")
    st.caption(
        "P(row model beats column model): solid blue/red pairs are decided; numbered cells "
        "are not, and values near .5 (white) are coin flips the data cannot order."
    )

    st.subheader("Export")
    stem = "".join(ch if ch.isalnum() else "_" for ch in o.name).strip("_") or "leaderboard"
    for col, (fmt, label, mime) in zip(st.columns(3), DOWNLOADS, strict=True):
        col.download_button(
            label,
            export.export(board, fmt, title=f"CI-aware leaderboard: {o.name}"),
            f"{stem}.{fmt}",
            mime,
            key=f"download_{fmt}",
            icon=":material/download:",
        )


main()
