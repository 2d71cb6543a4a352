"""Method comparison: every registered ranker on the selected data, and how they agree.

Renders ``scorio_core.definitions.ANALYSES["compare"]``; this file is widget layout only.
"""

from __future__ import annotations

import streamlit as st

from app_pages import _common, _page_state, _render
from app_state.page_state import from_state
from scorio_core import ValidationError
from scorio_core.definitions.compare import COMPARE, RANKS_CAPTION
from scorio_core.rank import FAMILIES, METHODS


def _method_controls(ds) -> list[str]:
    _page_state.widgets("compare", ds)
    fams = st.multiselect("Families", list(FAMILIES), key="families",
                          format_func=lambda f: f"{f} — {FAMILIES[f]}")
    pool = [m for m, meta in METHODS.items() if meta.family in fams]
    # A new family choice resets the method list to all of its methods (the widget keeps
    # its old value otherwise: clear the families, pick them again, and it stays empty).
    if st.session_state.get("_methods_families") != fams:
        st.session_state["_methods_families"] = list(fams)
        st.session_state["methods"] = pool
    return st.multiselect("Methods", pool, key="methods",
                          format_func=lambda m: f"{m} (extra)" if METHODS[m].extra else m,
                          help="Default: every method of the chosen families. (extra) marks "
                               "the 5 variants beyond the 72 of "
                               f"{_common.cite('002', 'App. I.2')}.")


def main() -> None:
    ds = _common.page_start("Method comparison")
    why = COMPARE.requires(ds.view)
    if why:
        st.warning(f"{why}. Use the Leaderboard (Bayes@N with weights) instead.")
        return
    ids = _method_controls(ds)
    if not ids:
        st.info("Pick at least one method.")
        return
    try:
        params = from_state("compare", st.session_state, ds.view)
        _page_state.remember("compare", ds, params)
        result = _render.run(COMPARE, ds, params, "Ranking with every method")
    except ValidationError as exc:
        _common.show_error(exc, "compare")
        st.stop()
    cmp = result.comparison
    if cmp.run.skipped:
        with st.expander(f"{len(cmp.run.skipped)} method(s) skipped"):
            st.table({"method": list(cmp.run.skipped), "reason": list(cmp.run.skipped.values())})

    s = cmp.summary
    for col, (label, val) in zip(st.columns(5), [("mean τ_b", f"{s['mean']:.4f}"),
                                                 ("median τ_b", f"{s['median']:.4f}"),
                                                 ("min τ_b", f"{s['min']:.4f}"),
                                                 ("#(τ_b = 1)", s["n_tau_1"]),
                                                 ("#(τ_b ≥ 0.95)", s["n_tau_ge_0.95"])],
                                 strict=True):
        col.metric(label, val)
    st.caption("Agreement of each method's full-data ranking with the gold standard "
               "(Bayes@N, uniform prior = avg@N order), over all methods but the gold one.")
    others = [m for m in cmp.exact if m != "bayes"]  # as #(τ_b = 1): the gold left out
    st.markdown(f"**Reproduce the gold ordering exactly ({len(others)} besides the gold "
                "itself):** " + (", ".join(f"`{m}`" for m in others) or "none"))

    tables = COMPARE.tables(result)
    st.subheader("Ranks")
    ranks = tables["ranks"]
    _common.show_table(st, ranks.set_index(ranks.columns[0]), width="stretch", key="rank_table",
                       height=_common.table_height(len(ranks)))
    st.caption(RANKS_CAPTION)

    _render.charts(COMPARE, result, "methods", widths=("content",))
    left, right = st.columns(2)
    left.markdown("**Agreement with the gold standard**")
    _common.show_table(left, tables["agreement"], hide_index=True, width="stretch",
                       column_config=_common.float_formats(tables["agreement"]))
    right.markdown("**Consensus** (mean τ_b with all other methods)")
    _common.show_table(right, tables["consensus"], hide_index=True, width="stretch",
                       column_config=_common.float_formats(tables["consensus"]))
    with st.expander("How to read this"):
        st.markdown(COMPARE.how_to_read)
    _render.footer(COMPARE, ds, params, result, "methods")


main()
