"""Greedy vs sampling: does one greedy decode rank models like sampling, and does a
greedy prior help at small N? (002 §3.4, App. E; Table 4, Figs. 2, 3, 7).

Renders ``scorio_core.definitions.ANALYSES["greedy"]``; this file is widget layout only.
"""

from __future__ import annotations

import streamlit as st

from app_pages import _common, _page_state, _render, _widgets
from app_state.page_state import from_state
from scorio_core import ValidationError
from scorio_core.definitions.greedy import GREEDY
from scorio_core.formatting import format_column
from scorio_core.references import expand

#: The summary as metrics, each in its column's format in the tables below (``mean_accuracy``
#: is what the paper calls the benchmark's difficulty: higher is easier).
METRICS = [
    ("mean_accuracy", "Mean accuracy", "the benchmark's difficulty as in 002 Table 4 (the mean "
     "sampled accuracy: higher is easier)"),
    ("greedy_accuracy", "Greedy accuracy", None),
    ("tau_gs", "τ_G-S", "Kendall τ_b between the greedy-only and the sampling (Bayes@N) ranking"),
    ("delta_tau", "Δτ at N = 1", "mean τ_b vs gold, greedy prior minus uniform prior (its "
     "95% interval: the sentence below and the table's delta_tau_lo, delta_tau_hi)"),
    ("sd_reduction", "s.d. reduction", "relative reduction of the s.d. of τ_b at N = 1 from "
     "the greedy prior (0.20: a fifth smaller; its 95% interval: the sentence below and the "
     "table's sd_reduction_lo, sd_reduction_hi)"),
]
#: The scatter and the box plot at their own widths, the curves as wide as the column.
WIDTHS = ("content", "content", "stretch")


def main() -> None:
    ds = _common.page_start("Greedy vs sampling")
    o = ds.view
    if o.R0 is None:
        st.info(
            "This dataset has no greedy outcomes (R0). Load a file with a `decoding` column "
            "(greedy rows) or an `R0` array to compare greedy decoding with sampling."
        )
        return
    why = GREEDY.refusal(o)
    if why:
        _common.show_refusal(why)
        return
    _page_state.widgets("greedy", ds)
    c1, c2 = st.columns(2)
    _common.setting(c1, "greedy", "replicates")
    _common.setting(c2, "greedy", "seed")
    try:
        params = from_state("greedy", st.session_state, o)
        _page_state.remember("greedy", ds, params)
        result = _render.run(GREEDY, ds, params, "Resampling")
    except ValidationError as exc:
        _common.show_error(exc)
        return
    s = result.detail.summary()
    # each as wide as its label, in a row that wraps: in five equal columns of a 1024 px
    # window "Mean accuracy" and "s.d. reduction" were cut
    _widgets.metric_row([(label, format_column([s[k]], k)[0], expand(hlp) if hlp else None)
                         for k, label, hlp in METRICS])
    st.markdown(GREEDY.notice_for(params, result))  # as the report and the CLI say it

    tables = GREEDY.tables(result)
    # one under the other: side by side in half columns of a 1024 px window, the box plot
    # ran 26 px past the main column and over the scatter's colour legend ("gree")
    _render.charts(GREEDY, result, "greedy", widths=WIDTHS)
    _common.show_core(st, tables["ranks"], hide_index=True, width="stretch",
                      columns=GREEDY.column_help("ranks"))
    t4 = tables["table"]
    if len(t4) > 1:
        st.subheader("All benchmarks")
        st.caption(f"One row per benchmark, as in {_common.cite('002', 'Table 4')}.")
        _common.show_core(st, t4, hide_index=True, width="stretch",
                          columns=GREEDY.column_help("table"))
        st.caption(f"On its four benchmarks {_common.cite('002', '§3.4')} found a higher "
                   "τ_G-S going with a more positive Δτ; whether these rows agree is what to "
                   "check before trusting a greedy prior.")
    elif len(ds.full.benchmark_names) > 1:
        st.caption("Pick 'combined' in the sidebar to see every benchmark's row "
                   f"({_common.cite('002', 'Table 4')}).")
    with st.expander("How to read this"):
        st.markdown(GREEDY.how_to_read)
    _render.footer(GREEDY, ds, params, result, "greedy")


main()
