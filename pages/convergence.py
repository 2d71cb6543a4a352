"""Convergence: τ_b curves, convergence@n PMF/CDF, worst-case trajectory, model subsets.

Every number comes from ``scorio_core.analysis.convergence``; the page only
collects settings, caches runs and draws the tables it returns.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from pages import _common
from scorio_core import charts, io
from scorio_core.analysis.convergence import (
    convergence_at_n,
    convergence_curves,
    explain_convergence,
    has_fast_path,
    subset_convergence,
    worst_trajectory,
)
from scorio_core.rank import METHODS

DEFAULT = ["bayes", "pass_at_k_2", "pass_at_k_4", "pass_at_k_8"]
TARGETS = {
    "gold": "gold standard (Bayes@N on all trials)",
    "self": "each method's own full-trial ranking",
    "truth": "known true means (simulated data)",
}
SCHEMES = {
    "column": "column-wise: resample trial indices",
    "row": "row-wise: resample each question's trials",
    "permutation": "permutation: shuffle trial order",
}
MATCHES = {
    "exact": "exact: the ranking equals the target (000 App. I.1)",
    "ci": "with CI: decided pairs in the target's order; CI ties may swap",
}


def _label(mid: str, fast: dict[str, bool]) -> str:
    return mid if fast[mid] else f"{mid} (re-ranked: slow)"


def main() -> None:
    ds = _common.page_start("Convergence")
    o = ds.view
    if not o.is_binary:
        st.warning("Convergence analyses rank binary correctness; this dataset is categorical.")
        return
    if o.N < 2:
        st.warning(
            f"This dataset has N = {o.N} trial per question: convergence@n needs a step "
            "s ≤ N − 1 after which the ranking stays put, so there is nothing to measure. "
            "Load data with more trials, or use the Stability page for single-trial rankings."
        )
        return
    _common.forget_on_new_data(ds, "conv_methods")
    st.markdown(
        "How many trials until a ranking stops changing? Trials are resampled with a seeded "
        "bootstrap; each replicate is ranked after 1, 2, …, N trials and compared with a target. "
        "**convergence@n** is the trial count after which the ranking equals the target and never "
        "changes again (000 App. I.1)."
    )
    usable = [
        m
        for m, meta in METHODS.items()
        if meta.min_trials <= o.N and not (meta.needs_r0 and o.R0 is None)
    ]
    fast = {m: has_fast_path(m) for m in usable}
    truth = o.metadata.get("true_means")
    targets = [
        t
        for t in TARGETS
        if t != "truth" or (truth is not None and ds.benchmark and len(truth) == o.L)
    ]
    with st.form("conv_settings"):
        ids = st.multiselect(
            "Methods",
            usable,
            default=[m for m in DEFAULT if m in usable],
            key="conv_methods",
            format_func=lambda m: _label(m, fast),
            help="Count-based metrics (Bayes, avg, Pass family) use running counts and are "
            "fast; other methods re-rank every replicate at every step.",
        )
        c1, c2, c3 = st.columns(3)
        target = c1.selectbox("Target", targets, format_func=TARGETS.get, key="conv_target")
        scheme = c2.selectbox(
            "Resampling", list(SCHEMES), format_func=SCHEMES.get, key="conv_scheme"
        )
        seed = c3.number_input("Seed", 0, 2**31 - 1, 0, key="conv_seed")
        match = st.radio(
            "A replicate has converged when", list(MATCHES), format_func=MATCHES.get,
            key="conv_match", horizontal=True,
            help="With CI: pairs the full data cannot separate at 95 % (questions scope) may "
            "come out in either order; only decided pairs must follow the target.",
        )
        c4, c5, c6 = st.columns(3)
        b_curves = c4.number_input(
            "Replicates for curves", 10, 20_000, 1000, step=100, key="conv_b_curves"
        )
        b_conv = c5.number_input(
            "Replicates for convergence@n",
            10,
            200_000,
            10_000,
            step=1000,
            key="conv_b_conv",
            help="The papers use 100,000.",
        )
        b_slow = c6.number_input(
            "Replicates for re-ranked methods",
            2,
            500,
            10,
            key="conv_b_slow",
            help="Methods without a fast path rank N tensors per replicate; keep this small.",
        )
        st.form_submit_button("Run", type="primary")
    if not ids:
        st.info("Pick at least one method.")
        return
    tgt = np.asarray(truth, float) if target == "truth" else target
    key = (ds.token, tuple(ids), target, scheme, int(seed), int(b_curves), int(b_conv), int(b_slow),
           match)

    def compute(progress):
        fast_ids = [m for m in ids if fast[m]]
        slow_ids = [m for m in ids if not fast[m]]
        parts = []
        for i, (group, b_c, b_n) in enumerate(
            ((fast_ids, b_curves, b_conv), (slow_ids, b_slow, b_slow))
        ):
            if not group:
                continue

            def sub(f, msg, i=i):
                progress((i + f) / 2, msg)

            cur = convergence_curves(
                o.R,
                o.R0,
                group,
                replicates=int(b_c),
                scheme=scheme,
                seed=int(seed),
                target=tgt,
                progress=lambda f, m: sub(f / 2, f"curves: {m}"),
            )
            run = convergence_at_n(
                o.R,
                o.R0,
                group,
                replicates=int(b_n),
                scheme=scheme,
                seed=int(seed),
                target=tgt,
                progress=lambda f, m: sub(0.5 + f / 2, f"convergence@n: {m}"),
                match=match,
            )
            parts.append((cur, run))
        return parts

    parts = _common.run_cached("convergence", key, compute, "Bootstrapping")
    summary_curves = pd.concat([c.summary for c, _ in parts], ignore_index=True)
    summ = pd.concat([r.summary for _, r in parts], ignore_index=True)
    pmf = pd.concat([r.pmf for _, r in parts], ignore_index=True)
    cdf = pd.concat([r.cdf for _, r in parts], ignore_index=True)

    for _, r in parts:
        for mid, why in r.skipped.items():
            st.info(f"{mid} skipped: {why}.")
        for msg in explain_convergence(r, o.R, o.R0):
            st.warning(msg, icon=":material/help:")

    st.subheader("Agreement with the target as trials accumulate")
    if summary_curves["mean"].notna().any():
        st.altair_chart(charts.tau_curves(summary_curves), width="stretch")
        st.caption(charts.TAU_CURVES_CAPTION)
    else:
        st.info("No method defines a ranking at any step (each needs more trials than N).")

    st.subheader("convergence@n")
    st.dataframe(
        summ,
        hide_index=True,
        width="stretch",
        column_config={
            "mean": st.column_config.NumberColumn(
                format="%.1f", help="mean convergence@n over replicates that converged"
            ),
            "mean_censored": st.column_config.NumberColumn(
                format="%.1f", help="mean with no convergence counted as N (000 Tables 9-11)"
            ),
            "median": st.column_config.NumberColumn(format="%.0f"),
            "no_convergence": st.column_config.NumberColumn(
                format="%.3f",
                help="share of replicates whose ranking still differs from the "
                "target at trial N-1 or later",
            ),
        },
    )
    if pmf.empty or not (pmf["p"] > 0).any():
        st.info("No replicate converged, so there is no distribution to plot (see above).")
    else:
        left, right = st.columns(2)
        with left:
            st.altair_chart(charts.convergence_pmf(pmf), width="stretch")
            st.caption(charts.CONVERGENCE_PMF_CAPTION)
        with right:
            st.altair_chart(charts.convergence_cdf(cdf), width="stretch")
            st.caption(charts.CONVERGENCE_CDF_CAPTION)

    st.subheader("Worst-case replicate")
    runs = {m: r for _, r in parts for m in r.s_star}
    c1, c2 = st.columns(2)
    wm = c1.selectbox("Method", list(runs), key="conv_worst_method")
    which = c2.radio(
        "Replicate",
        ["slowest to converge", "latest change (incl. no convergence)"],
        key="conv_worst_kind",
        horizontal=True,
    )
    run = runs[wm]
    conv_only = which == "slowest to converge"
    b = run.worst(wm, conv_only)
    traj = worst_trajectory(run, wm, o.R, o.R0, conv_only)
    s = int(run.s_star[wm][b])
    st.altair_chart(charts.rank_trajectory_chart(traj, o.models, s or None), width="stretch")
    st.caption(
        charts.RANK_TRAJECTORY_CAPTION
        + (
            f" Replicate {b}: converges at n = {s}."
            if s
            else f" Replicate {b}: no convergence (last change at n = {run.last_change[wm][b]})."
        )
    )

    d1, d2 = st.columns(2)
    d1.download_button(
        "convergence@n summary (CSV)",
        io.to_safe_csv(summ),
        "convergence_summary.csv",
        "text/csv",
        key="dl_conv_summary",
    )
    d2.download_button(
        "τ_b curves (CSV)",
        io.to_safe_csv(summary_curves.round(6)),
        "convergence_curves.csv",
        "text/csv",
        key="dl_conv_curves",
    )

    st.subheader("Random model subsets")
    st.markdown(
        "Mean convergence@n over random subsets of models, each against its own gold "
        "ranking (000 Tables 9–11): more models, more pairs that can swap."
    )
    sizes_all = [s for s in (3, 5, 10, 15) if s < o.L] or [o.L]
    with st.form("conv_subsets"):
        c1, c2, c3 = st.columns(3)
        sizes = c1.multiselect("Subset sizes", sizes_all, default=sizes_all[-3:], key="conv_sizes")
        n_sub = c2.number_input("Subsets per size", 1, 100, 10, key="conv_n_subsets")
        b_sub = c3.number_input(
            "Replicates per subset", 10, 100_000, 1000, step=100, key="conv_b_subsets"
        )
        go = st.form_submit_button("Run subsets")
    fast_ids = [m for m in ids if fast[m]]
    skey = (ds.token, tuple(fast_ids), tuple(sizes), int(n_sub), int(b_sub), scheme, int(seed))
    table = _common.cached_result("subsets", skey)
    if go and table is None and sizes and fast_ids:
        table = _common.run_cached(
            "subsets",
            skey,
            lambda p: subset_convergence(
                o.R,
                o.R0,
                fast_ids,
                sizes=sizes,
                subsets=int(n_sub),
                replicates=int(b_sub),
                scheme=scheme,
                seed=int(seed),
                models=o.models,
                progress=p,
            ),
            "Subsets",
        )
    if table is not None:
        st.dataframe(table, hide_index=True, width="stretch")
        st.caption(
            "One row per subset; method columns are mean convergence@n with no "
            "convergence counted as N; '… no-conv' is the share that never settled."
        )
        st.download_button(
            "Subsets (CSV)",
            io.to_safe_csv(table),
            "convergence_subsets.csv",
            "text/csv",
            key="dl_conv_subsets",
        )
    elif not fast_ids:
        st.info("Subset runs use the fast methods only; select one of them above.")


main()
