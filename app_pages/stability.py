"""Stability: how well each method ranks from a single trial (002 §3.2-3.3, Tables 2, 3, 18, 19).

Renders ``scorio_core.definitions.ANALYSES["stability"]``; the model-pool robustness below it
calls :func:`scorio_core.engines.stability.pool_robustness` directly.
"""

from __future__ import annotations

import streamlit as st

from app_pages import _common, _page_state, _render
from app_state.page_state import from_state
from app_state.texts import stability_prompt
from scorio_core.definitions.stability import STABILITY
from scorio_core.engines.stability import POOL_DEFAULT, pool_robustness
from scorio_core.formatting import count_text
from scorio_core.rank import FAMILIES, METHODS

#: The class tables' column widths (their numbers: the core's one format, show_core).
CLASS_WIDTHS = {"rank": "small", "methods": "large", "size": "small", "mean": "small",
                "sd": "small"}


def _top(col, label: str, cls, claim: str) -> None:
    # the class table's format (%.4f) for the same number; the core's sentence says whether
    # the slices separate the top class from the rest (and its s.d. over the slices)
    col.metric(label, f"{cls['mean'].iloc[0]:.4f}", help="The top class's mean τ_b over the "
               "single-trial slices; the sentence below names a best only when the slices "
               "separate it from every other class.")
    col.markdown(claim)


def _pools(ds) -> None:
    o = ds.view
    st.subheader("Model-pool robustness")
    st.markdown("Repeat the N = 1 analysis on random model pools; both targets are recomputed "
                f"within each pool ({_common.cite('002', 'Table 3')}). Larger pools mainly shrink "
                "the spread.")
    sizes_all = [s for s in (5, 10, 15) if s < o.L] or [o.L]
    with st.form("pool_settings"):
        pm = st.multiselect(
            "Methods", [m for m in METHODS if METHODS[m].min_trials == 1],
            default=[m for m in POOL_DEFAULT if o.R0 is not None or not METHODS[m].needs_r0],
            key="pool_methods",
        )
        c1, c2, c3 = st.columns(3)
        sizes = c1.multiselect("Pool sizes", sizes_all, default=sizes_all, key="pool_sizes")
        pools = c2.number_input("Pools per size", 2, 1000, 10, key="pool_n")
        seed = c3.number_input("Seed", 0, 2**31 - 1, 0, key="pool_seed")
        go = st.form_submit_button("Run pools")
    pkey = (ds.token, tuple(pm), tuple(sizes), int(pools), int(seed))
    table = _common.cached_result("pools", pkey)
    if go and table is None and pm and sizes:
        table = _common.run_cached("pools", pkey, lambda p: pool_robustness(
            o.R, o.R0, pm, sizes=sizes, pools=int(pools), seed=int(seed), progress=p),
            "Model pools")
    if table is not None:
        _common.show_core(st, table, hide_index=True, width="stretch")
        st.caption("Per pool size: mean ± s.d. across pools of each method's mean τ_b; "
                   "top_fraction = share of pools where the method (or a tie) is best vs gold.")


def main() -> None:
    ds = _common.page_start("Low-budget stability")
    o = ds.view
    why = STABILITY.refusal(o)
    if why:
        _common.show_refusal(why)
        return
    st.markdown(STABILITY.how_to_read)
    _page_state.widgets("stability", ds)
    fams = _common.setting(st, "stability", "methods", "multiselect", options=list(FAMILIES),
                           format_func=lambda f: f"{f} — {FAMILIES[f]}")
    if not fams:
        st.info("Pick at least one family.")
        return
    ids = [m for m, meta in METHODS.items() if meta.family in fams]
    params = from_state("stability", st.session_state, o)
    _page_state.remember("stability", ds, params)
    result = _render.cached(STABILITY, ds, params)
    if result is None:
        prompt = st.empty()
        with prompt.container():
            st.info(stability_prompt(len(ids), o))
            clicked = st.button("Run stability analysis", type="primary", key="stab_run")
        if not clicked:
            return
        prompt.empty()
        result = _render.run(STABILITY, ds, params, "Ranking slices")
    tables = STABILITY.tables(result)
    gold, own = tables["classes_gold"], tables["classes_self"]
    c = st.columns(2)
    s = result.stability
    _top(c[0], "Highest mean τ_b vs gold", gold, s.claim("gold"))
    _top(c[1], "Highest mean self-consistency", own, s.claim("self"))
    _render.charts(STABILITY, result, "stability")
    st.caption(f"Method classes against each target, as in {_common.cite('002', 'Tables 18-19')}.")
    tab_gold, tab_self, tab_all = st.tabs(["vs gold standard", "vs own full-trial ranking",
                                           "per method"])
    for where, name in ((tab_gold, "classes_gold"), (tab_self, "classes_self")):
        _common.show_core(where, tables[name], hide_index=True, width="stretch",
                          widths=CLASS_WIDTHS, columns=STABILITY.column_help(name))
    _common.show_core(tab_all, tables["per_method"], hide_index=True, width="stretch",
                      columns=STABILITY.column_help("per_method"))
    skipped = result.stability.skipped
    if skipped:
        with st.expander(f"{count_text(len(skipped), 'method')} skipped"):
            st.table({"method": list(skipped), "reason": list(skipped.values())})
    _render.footer(STABILITY, ds, params, result, "stability")
    _pools(ds)


main()
