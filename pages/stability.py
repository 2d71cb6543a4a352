"""Stability: how well each method ranks from a single trial (002 §3.2-3.3, Tables 2, 3, 18, 19)."""

from __future__ import annotations

import streamlit as st

from pages import _common
from scorio_core import charts, io
from scorio_core.analysis.stability import low_budget_stability, pool_robustness
from scorio_core.rank import FAMILIES, METHODS

POOL_DEFAULT = [
    "bayes",
    "bayes_greedy",
    "borda",
    "bradley_terry",
    "elo_tie_draw",
    "rasch_mml_credible",
    "pagerank",
    "nanson_rank_ties_average",
]


def main() -> None:
    ds = _common.page_start("Low-budget stability")
    o = ds.view
    if not o.is_binary:
        st.warning("Rankers need binary outcomes; this dataset is categorical.")
        return
    st.markdown(
        "With one trial per question (N = 1), each of the N single-trial slices is ranked by "
        "every method and compared by Kendall τ_b with **(i)** the gold standard (Bayes@N on all "
        "trials) and **(ii)** the method's own ranking on all trials (self-consistency). "
        "Methods with identical τ_b on every slice are collapsed into one class."
    )
    fams = st.multiselect(
        "Families",
        list(FAMILIES),
        default=list(FAMILIES),
        key="stab_families",
        format_func=lambda f: f"{f} — {FAMILIES[f]}",
    )
    ids = tuple(m for m, meta in METHODS.items() if meta.family in fams)
    if not ids:
        st.info("Pick at least one family.")
        return
    key = (ds.token, ids)
    result = _common.cached_result("stability", key)
    if result is None:
        prompt = st.empty()
        with prompt.container():
            st.info(
                f"{len(ids)} methods × {o.N} slices; every family on a 20 × 30 × 80 tensor "
                "takes minutes (the progress bar shows the time left)."
            )
            clicked = st.button("Run stability analysis", type="primary", key="stab_run")
        if not clicked:
            return
        prompt.empty()
        result = _common.run_cached(
            "stability",
            key,
            lambda p: low_budget_stability(o.R, o.R0, ids, progress=p),
            "Ranking slices",
        )
    gold, own = result.classes("gold"), result.classes("self")
    c = st.columns(2)
    c[0].metric(
        "Best vs gold",
        f"{gold['mean'].iloc[0]:.3f} ± {gold['sd'].iloc[0]:.3f}",
        help=gold["methods"].iloc[0],
    )
    c[0].caption(f"{gold['methods'].iloc[0][:200]}")
    c[1].metric(
        "Best self-consistency",
        f"{own['mean'].iloc[0]:.3f} ± {own['sd'].iloc[0]:.3f}",
        help=own["methods"].iloc[0],
    )
    c[1].caption(f"{own['methods'].iloc[0][:200]}")
    st.altair_chart(charts.stability_chart({"vs gold": gold, "vs itself": own}), width="stretch")
    st.caption(charts.STABILITY_CAPTION)

    fmt = {
        "rank": st.column_config.NumberColumn(width="small"),
        "methods": st.column_config.TextColumn(width="large"),
        "size": st.column_config.NumberColumn(width="small"),
        "mean": st.column_config.NumberColumn(format="%.4f", width="small"),
        "sd": st.column_config.NumberColumn(format="%.4f", width="small"),
    }
    tab_gold, tab_self = st.tabs(
        ["vs gold standard (002 Table 18)", "vs own full-trial ranking (002 Table 19)"]
    )
    tab_gold.dataframe(gold, hide_index=True, width="stretch", column_config=fmt)
    tab_self.dataframe(own, hide_index=True, width="stretch", column_config=fmt)
    if result.skipped:
        with st.expander(f"{len(result.skipped)} method(s) skipped"):
            st.table({"method": list(result.skipped), "reason": list(result.skipped.values())})
    st.download_button(
        "Per-method table (CSV)",
        io.to_safe_csv(result.table.round(6)),
        "stability.csv",
        "text/csv",
        key="dl_stability",
    )

    st.subheader("Model-pool robustness")
    st.markdown(
        "Repeat the N = 1 analysis on random model pools; both targets are recomputed "
        "within each pool (002 Table 3). Larger pools mainly shrink the spread."
    )
    sizes_all = [s for s in (5, 10, 15) if s < o.L] or [o.L]
    with st.form("pool_settings"):
        pm = st.multiselect(
            "Methods",
            [m for m in METHODS if METHODS[m].min_trials == 1],
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
        table = _common.run_cached(
            "pools",
            pkey,
            lambda p: pool_robustness(
                o.R, o.R0, pm, sizes=sizes, pools=int(pools), seed=int(seed), progress=p
            ),
            "Model pools",
        )
    if table is not None:
        st.dataframe(
            table,
            hide_index=True,
            width="stretch",
            column_config=_common.number_formats(
                ("gold_mean", "gold_sd", "self_mean", "self_sd", "top_fraction")
            ),
        )
        st.caption(
            "Per pool size: mean ± s.d. across pools of each method's mean τ_b; "
            "top_fraction = share of pools where the method (or a tie) is best vs gold."
        )


main()
