"""Method comparison: every registered ranker on the selected data, and how they agree.

Renders ``scorio_core.definitions.ANALYSES["compare"]``; this file is widget layout only.
"""

from __future__ import annotations

import streamlit as st

from app_pages import _common, _page_state, _render, _widgets
from app_state.page_state import from_state
from scorio_core import ValidationError
from scorio_core.definitions.compare import COMPARE, RANKS_CAPTION
from scorio_core.display import readable
from scorio_core.formatting import count_text, format_frame
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


def _table(table, name: str, **kw) -> None:
    """``table`` (the comparison's table ``name``) as the CLI prints it (``scorio-studio
    compare --format table``): its cells in the core's formats, a column with no value in
    any row left out and named below (:func:`scorio_core.display.readable`), in parts when
    wider than the main column, its columns explained under it (the definition's)."""
    shown, notes = readable(table)
    columns = COMPARE.column_help(name)
    _common.show_core(st, shown, hide_index=True, columns=columns, legend=False, **kw)
    for line in notes:
        st.caption(line)
    _widgets.legend_lines(st, list(shown.columns), columns)


def main() -> None:
    ds = _common.page_start("Method comparison")
    why = COMPARE.refusal(ds.view)  # what to do instead, for these data: the core's text
    if why:
        _common.show_refusal(why)
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
        _common.show_error(exc)
        return
    cmp = result.comparison
    if cmp.run.skipped:
        with st.expander(f"{count_text(len(cmp.run.skipped), 'method')} skipped"):
            st.table({"method": list(cmp.run.skipped), "reason": list(cmp.run.skipped.values())})

    tables = COMPARE.tables(result)
    # the summary's numbers as the CLI and the report write them (one formatter)
    s = dict(zip(tables["summary"].columns, format_frame(tables["summary"]).iloc[0],
                 strict=True))
    # each metric as wide as its label and value, in a row that wraps (small gaps: the five
    # in one row of a 1024 px window's column where they fit), its help the summary's
    # declared column: in five equal columns of a 1024 px window "-0.8165" was cut
    said = COMPARE.column_help("summary")
    _widgets.metric_row([(label, s[name], said.get(name)) for label, name in (
        ("mean τ_b", "mean"), ("median τ_b", "median"), ("min τ_b", "min"),
        ("#(τ_b = 1)", "n_tau_1"), ("#(τ_b ≥ 0.95)", "n_tau_ge_0.95"))], gap="small")
    st.caption("Agreement of each method's full-data ranking with the gold standard "
               "(Bayes@N, uniform prior = avg@N order), over all methods but the gold one.")
    others = [m for m in cmp.exact if m != "bayes"]  # as #(τ_b = 1): the gold left out
    st.markdown(f"**Reproduce the gold ordering exactly ({len(others)} besides the gold "
                "itself):** " + (", ".join(f"`{m}`" for m in others) or "none"))

    _render.charts(COMPARE, result, "methods", widths=("content",))
    # one under the other, each the main column's width: side by side, half a column each,
    # the long method names ran both past their halves; every table as the CLI prints it
    for title, name in (("Agreement with the gold standard", "agreement"),
                        ("Consensus (mean τ_b with all other methods)", "consensus")):
        st.markdown(f"**{title}**")
        _table(tables[name], name, key=f"{name}_table")
    ranks = tables["ranks"]
    # drawn only while open: a column per method, in up to 36 parts, each a table the
    # browser gets whole (4 of the page's 5 s on the server before)
    if (box := _widgets.lazy_expander(
            f"Ranks: every model by each of the {ranks.shape[1] - 1} methods",
            _widgets.RANKS_BOX)) is not None:
        with box:
            st.caption(RANKS_CAPTION)
            _table(ranks, "ranks", key="rank_table", height=_common.table_height(len(ranks)),
                   budget=_widgets.BOX_PX)  # the expander's padding
    with st.expander("How to read this"):
        st.markdown(COMPARE.how_to_read)
    _render.footer(COMPARE, ds, params, result, "methods")


main()
