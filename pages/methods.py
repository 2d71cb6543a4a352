"""Method comparison: every registered ranker on the selected data, and how they agree."""

from __future__ import annotations

import streamlit as st

from pages import _common
from scorio_core import charts, io
from scorio_core.analysis import compare, run_methods
from scorio_core.rank import FAMILIES, METHODS

_STORE_SIZE = 8


@st.cache_resource
def _store() -> dict:
    """Finished runs keyed by (data token, method ids); shared, bounded."""
    return {}


def _run(ds, ids: tuple[str, ...]):
    key = (ds.token, ids)
    store = _store()
    if key not in store:
        o = ds.view
        bar = st.progress(0.0, text="Starting…")
        run = run_methods(
            o.R, o.R0, ids, o.models,
            progress=lambda i, n, mid: bar.progress(i / n, text=f"{mid} ({i + 1}/{n})"),
        )
        bar.empty()
        if len(store) >= _STORE_SIZE:
            store.pop(next(iter(store)))
        store[key] = run
    return store[key]


def main() -> None:
    ds = _common.page_start("Method comparison")
    o = ds.view
    if not o.is_binary:
        st.warning("Rankers need binary outcomes; this dataset is categorical. "
                   "Use the Leaderboard (Bayes@N with weights) instead.")
        return

    fams = st.multiselect("Families", list(FAMILIES), default=list(FAMILIES), key="families",
                          format_func=lambda f: f"{f} — {FAMILIES[f]}")
    pool = [m for m, meta in METHODS.items() if meta.family in fams]
    # A new family choice resets the method list to all of its methods (the widget keeps
    # its old value otherwise: clear the families, pick them again, and it stays empty).
    if st.session_state.get("_methods_families") != fams:
        st.session_state["_methods_families"] = list(fams)
        st.session_state["methods"] = pool
    ids = st.multiselect("Methods", pool, key="methods",
                         format_func=lambda m: f"{m} (extra)" if METHODS[m].extra else m,
                         help="Default: every method of the chosen families. (extra) marks "
                              "the 5 variants beyond the 72 of 002 App. I.2.")
    if not ids:
        st.info("Pick at least one method.")
        return
    run = _run(ds, tuple(ids))
    cmp = compare(run, R=o.R)
    if run.skipped:
        with st.expander(f"{len(run.skipped)} method(s) skipped"):
            st.table({"method": list(run.skipped), "reason": list(run.skipped.values())})

    s = cmp.summary
    c = st.columns(5)
    for col, (label, val) in zip(c, [("mean τ_b", f"{s['mean']:.3f}"),
                                     ("median τ_b", f"{s['median']:.3f}"),
                                     ("min τ_b", f"{s['min']:.3f}"),
                                     ("#(τ_b = 1)", s["n_tau_1"]),
                                     ("#(τ_b ≥ 0.95)", s["n_tau_ge_0.95"])], strict=True):
        col.metric(label, val)
    st.caption("Agreement of each method's full-data ranking with the gold standard "
               "(Bayes@N, uniform prior = avg@N order), over all methods but the gold one.")
    st.markdown(f"**Reproduce the gold ordering exactly ({len(cmp.exact)}):** "
                + (", ".join(f"`{m}`" for m in cmp.exact) or "none"))

    st.subheader("Ranks")
    order = cmp.gold.argsort(kind="stable")
    st.dataframe(run.ranks.iloc[order], width="stretch", key="rank_table",
                 height=35 * (o.L + 1) + 3)
    st.caption("Rows: models in gold order (best first); columns: methods; 1 = best, ties share.")

    st.subheader("Agreement between methods")
    st.altair_chart(charts.tau_heatmap(cmp.tau, cmp.consensus["method"].tolist()),
                    width="content")
    st.caption("Kendall τ_b between every pair of methods, sorted by consensus: yellow blocks "
               "rank models alike; darker green rows are methods that disagree with most others.")
    left, right = st.columns(2)
    left.markdown("**Agreement with the gold standard**")
    left.dataframe(cmp.agreement, hide_index=True, width="stretch")
    right.markdown("**Consensus** (mean τ_b with all other methods)")
    right.dataframe(cmp.consensus, hide_index=True, width="stretch")

    st.subheader("Export")
    d1, d2 = st.columns(2)
    d1.download_button("Ranks (CSV)", io.to_safe_csv(run.ranks.reset_index()),
                       "method_ranks.csv", "text/csv", key="download_ranks")
    d2.download_button("Agreement (CSV)", io.to_safe_csv(cmp.agreement),
                       "method_agreement.csv", "text/csv", key="download_agreement")


main()
