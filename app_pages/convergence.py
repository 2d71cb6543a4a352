"""Convergence: τ_b curves, convergence@n PMF/CDF, one replicate's ranks, model subsets
(``ANALYSES["convergence"]``, ``convergence.run_subsets``); widget layout only."""

from __future__ import annotations

import streamlit as st

from app_pages import _common, _page_state, _render
from app_state.page_state import from_state, keys
from scorio_core import ValidationError
from scorio_core.definitions import convergence as cv
from scorio_core.engines.convergence import has_fast_path
from scorio_core.formatting import printed_numbers

KEY = keys("convergence")  # setting -> widget key, declared in app_state.page_state


def _settings(ds) -> cv.ConvergenceParams | None:
    o = ds.view
    _page_state.widgets("convergence", ds)
    with st.form("conv_settings"):
        _common.setting(st, "convergence", "methods", "multiselect",
                        options=cv.usable_methods(o), format_func=lambda m: m
                        if has_fast_path(m) else f"{m} (re-ranked: slow)")
        # each choice the column's width (in thirds and halves of a 1024 px window's column
        # a target or a scheme was clipped at its box's arrow), the four numbers under them
        _common.setting(st, "convergence", "target", options=cv.available_targets(o),
                        format_func=cv.TARGETS.get)
        _common.setting(st, "convergence", "scheme", format_func=cv.SCHEMES.get)
        _common.setting(st, "convergence", "match", "radio", format_func=cv.MATCHES.get,
                        horizontal=True)
        c3, c4, c5, c6 = st.columns(4)
        _common.setting(c3, "convergence", "seed")
        _common.setting(c4, "convergence", "curve_replicates", step=100)
        _common.setting(c5, "convergence", "replicates", step=1000)
        _common.setting(c6, "convergence", "slow_replicates")
        st.form_submit_button("Run", type="primary")
    if not st.session_state[KEY["methods"]]:
        st.info("Pick at least one method.")
        return None
    params = from_state("convergence", st.session_state, o)
    _page_state.remember("convergence", ds, params)
    return params


def _part(ds, p: cv.ConvergenceParams, spec):
    """One speed group, cached on its own: adding a slow method keeps the fast results."""
    key = (ds.token, p.scheme, p.seed, p.target, p.match, spec)
    def compute(prog):
        with _common.executor() as ex:  # the sidebar's Dask workers, if any
            return cv.run_part(ds.view, p, *spec, progress=prog, executor=ex)

    return _common.run_cached("conv_part", key, compute, f"Bootstrapping {', '.join(spec[0])}")


def _subsets(ds, params: cv.ConvergenceParams, fast_ids: list[str]) -> None:
    o = ds.view
    st.subheader("Random model subsets")
    st.markdown("Mean convergence@n over random model subsets, each against its own gold ranking "
                f"({_common.cite('000', 'Tables 9–11')}): more models, more pairs that can swap.")
    sizes_all = cv.subset_sizes(o.L)
    with st.form("conv_subsets"):
        c1, c2, c3 = st.columns(3)
        sizes = c1.multiselect("Subset sizes", sizes_all, default=sizes_all[-3:], key="conv_sizes")
        n_sub = c2.number_input("Subsets per size", 1, 100, 10, key="conv_n_subsets")
        b_sub = c3.number_input("Replicates per subset", 10, 100_000, 1000, step=100,
                                key="conv_b_subsets")
        go = st.form_submit_button("Run subsets")
    if not fast_ids:
        return st.info("Subset runs use the fast methods only; select one of them above.")
    skey = (ds.token, tuple(fast_ids), tuple(sizes), int(n_sub), int(b_sub), params.scheme,
            params.seed)
    table = _common.cached_result("subsets", skey)
    if go and table is None and sizes:
        table = _common.run_cached("subsets", skey, lambda p: cv.run_subsets(
            o, params, fast_ids, sizes, n_sub, b_sub, progress=p), "Subsets")
    if table is not None:
        _common.show_core(st, table, hide_index=True)
        st.caption("One row per subset; method columns are mean convergence@n with no "
                   "convergence counted as N; '… no-conv' is the share that never settled.")


def main() -> None:
    ds = _common.page_start("Convergence")
    o = ds.view
    if why := cv.CONVERGENCE.refusal(o):
        return _common.show_refusal(why)
    st.markdown(cv.CONVERGENCE.how_to_read)
    try:
        params = _settings(ds)
        if params is None:  # no method picked: said above
            return
        result = cv.assemble(o, [_part(ds, params, spec) for spec in cv.part_specs(params)])
    except ValidationError as exc:
        _common.show_error(exc)
        return
    for msg in result.explanations:
        st.warning(msg, icon=":material/help:")
    st.subheader("convergence@n")
    # number columns (sorted by number) rounded as the CLI and the reports print them, in the
    # decimals declared on the core's table; no mean or median (nothing converged) reads —
    _common.show_core(st, printed_numbers(result.summary), hide_index=True, width="stretch",
                      columns=cv.CONVERGENCE.column_help("summary"))
    st.caption(cv.SUMMARY_CAPTION)
    empty = not (result.pmf["p"] > 0).any()  # nothing converged: flat PMF and CDF say nothing
    _render.charts(cv.CONVERGENCE, result, "conv", skip=(-3, -2, -1) if empty else (-1,))
    if empty:
        st.info("No replicate converged: no convergence@n distribution to plot (see above).")
    # the chart's title says which replicate it draws (charts.rank_trajectory_title); the
    # method's box the column's width, as the settings' boxes above
    wm = st.selectbox("Method", result.methods, key="conv_worst_method")
    slowest = st.radio("Replicate", ["slowest to settle", "latest to change (may never "
                       "settle)"], key="conv_worst_kind", horizontal=True).startswith("s")
    _render.chart(cv.worst_case(result, o, wm, slowest), "conv", 3)
    _render.footer(cv.CONVERGENCE, ds, params, result, "conv")
    _subsets(ds, params, [m for m in result.methods if has_fast_path(m)])


main()
