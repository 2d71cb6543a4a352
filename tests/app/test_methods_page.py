"""AppTest for the Method-comparison page."""

from __future__ import annotations

from pathlib import Path

from _apptest import code_cell, open_box, start
from streamlit.testing.v1 import AppTest

from app_pages._loading import COINS, REASONING, TEMPERATURE  # noqa: F401
from app_pages._widgets import RANKS_BOX
from scorio_core.rank import METHODS

APP = str(Path(__file__).resolve().parents[2] / "app.py")
METHODS_PAGE = "app_pages/methods.py"


def _open(dataset: str) -> AppTest:
    at = start(APP, REASONING, 120)
    if dataset != REASONING:
        at.selectbox(key="dataset").set_value(dataset).run()
    at.switch_page(METHODS_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def _ranks(at: AppTest):
    """The page's ranks table (every part hands the browser all of it), indexed by model:
    drawn once its box is opened (a closed one sends nothing)."""
    assert not any("model" in d.value.columns for d in at.dataframe)  # closed: not drawn
    open_box(at, RANKS_BOX)
    return next(d.value for d in at.dataframe if "model" in d.value.columns).set_index("model")


def test_all_methods_on_biased_coins():
    at = _open(COINS)
    ranks = _ranks(at)
    assert ranks.shape == (11, len(METHODS) - sum(m.needs_r0 for m in METHODS.values()))
    # in gold order, best first, as its caption (and the CLI, the report) says
    assert ranks.index.tolist() == [f"LLM_{i}" for i in (11, 9, 10, 7, 8, 6, 5, 4, 3, 2, 1)]
    assert ranks["bayes"].tolist() == list(range(1, 12))
    from scorio_core.definitions.compare import RANKS_CAPTION

    assert RANKS_CAPTION in [c.value for c in at.caption]
    assert len(at.get("vega_lite_chart")) == 1
    labels = [b.proto.label for b in at.main.get("download_button")]
    # every table as CSV with provenance, all tables as JSON, the heatmap as SVG and PNG
    assert labels == ["SVG", "PNG", "CSV: summary", "CSV: agreement", "CSV: consensus",
                      "CSV: ranks", "JSON (all tables)"], labels
    assert any("skipped" in e.label for e in at.expander)  # bayes_greedy: no R0 here


def test_family_filter_on_one_benchmark():
    at = start(APP, REASONING, 120)
    at.selectbox(key="benchmark").set_value("AIME'24").run()
    at.switch_page(METHODS_PAGE).run()
    at.multiselect(key="families").set_value(["metrics", "pointwise"]).run()
    assert not at.exception
    ranks = _ranks(at)
    expected = [m for m, v in METHODS.items() if v.family in ("metrics", "pointwise")]
    assert sorted(ranks.columns) == sorted(expected)
    assert "bayes_greedy" in ranks.columns  # the synthetic set has greedy R0


def test_clearing_and_reselecting_families_restores_their_methods():
    """The method list used to stay empty after the families were cleared and re-picked."""
    at = _open(COINS)
    at.multiselect(key="families").set_value([]).run()
    assert at.multiselect(key="methods").value == []
    at.multiselect(key="families").set_value(["voting"]).run()
    assert not at.exception
    voting = [m for m, v in METHODS.items() if v.family == "voting"]
    assert at.multiselect(key="methods").value == voting
    ranks = _ranks(at)
    assert sorted(ranks.columns) == sorted(voting)


def test_copy_code_box_reproduces_the_methods_page():
    import numpy as np

    at = start(APP, REASONING, 180)
    at.selectbox(key="benchmark").set_value("AIME'25").run()
    at.switch_page(METHODS_PAGE).run()
    at.multiselect(key="families").set_value(["voting", "pointwise"]).run()
    assert not at.exception, [e.value for e in at.exception]
    ranks = _ranks(at)
    agreement = next(d.value for d in at.dataframe if "tau_b" in d.value.columns)
    cell = code_cell(at, "sc.compare(")
    ns: dict = {}
    exec(compile(cell, "<copy code>", "exec"), ns)
    cmp = ns["cmp"]
    got = cmp.run.ranks.loc[ranks.index, ranks.columns]
    np.testing.assert_allclose(got.to_numpy(float), ranks.to_numpy(float), rtol=0, atol=1e-12)
    assert cmp.agreement["method"].tolist() == agreement["method"].tolist()
    np.testing.assert_allclose(cmp.agreement["tau_b"], agreement["tau_b"], rtol=1e-12)


def _cli_tables(path: str, capsys) -> dict[str, list[list[str]]]:
    """The rows of each table ``scorio-studio compare PATH --format table`` prints, by its
    heading (cells split at spaces: method and model names have none; the lines under a
    heading that say what a table holds left out)."""
    from scorio_core.cli import main

    assert main(["compare", path, "--format", "table"]) == 0
    out, tables, name = capsys.readouterr().out.splitlines(), {}, None
    for line in out:
        if line.startswith("## "):
            name = line[3:]
            tables[name] = []
        elif name and line.strip() and not line.startswith(("Rows:", "Note:", "Over the ")):
            tables[name].append(line.split())
        elif name and tables[name]:
            name = None  # a blank line ends the table
    return tables


def _page_cells(d) -> list[list[str]]:
    """A page table's header and rows as the browser writes them: a number column in its
    printf format (``localized``: thousands separators), text as sent (the core's cells),
    a flag as the CLI says it, a missing cell as the "—" placeholder; its own columns."""
    import json

    from scorio_core.formatting import MISSING, ColumnFormat, format_value

    config = json.loads(d.proto.columns or "{}")
    cols = list(d.proto.column_order) or list(d.value.columns)

    def cell(c, v):
        fmt = config.get(c, {}).get("type_config", {}).get("format")
        if v is None or v != v:
            return MISSING
        if isinstance(v, bool) or type(v).__name__ == "bool_":
            return format_value(v, ColumnFormat("bool"))
        if fmt == "localized":
            return f"{int(v):,}"
        return fmt % v if fmt else str(v)

    return [cols] + [[cell(c, v) for c, v in zip(cols, row, strict=True)]
                     for row in d.value[cols].itertuples(index=False, name=None)]


def test_method_tables_read_as_the_cli_prints_them(capsys):
    """The page formatted its agreement and consensus tables with a fixed "%.4f" of its own
    (Issue 24: Streamlit's default had printed tau_b = 1.0 as "1" beside "0.9473") and showed
    an empty ``note`` column the CLI leaves out. Every table now goes through the one rule of
    the pages (``_widgets.show_core``): the summary, agreement, consensus and ranks read cell
    for cell as ``scorio-studio compare PATH --format table`` prints them, and the ranks --
    a column per method -- come in parts that fit the main column, each repeating ``model``."""
    from app_pages._loading import BUNDLED

    cli = _cli_tables(str(BUNDLED[COINS]), capsys)
    at = _open(COINS)
    tables = [d for d in at.dataframe if not d.proto.editing_mode]
    agreement = next(d for d in tables if "tau_b" in d.value.columns)
    assert _page_cells(agreement) == cli["Agreement with the gold standard"]
    # the consensus in parts fitted to a 1024 px window's column: together, every column once
    consensus = [_page_cells(d) for d in tables if "mean_tau_b" in d.value.columns]
    seen = [c for p in consensus for c in p[0]]
    first = {c: seen.index(c) for c in dict.fromkeys(seen)}  # each column's first place
    joined = [[x for p in consensus for x in p[r]] for r in range(len(consensus[0]))]
    assert [[row[i] for i in first.values()] for row in joined] == cli["Consensus"]
    assert "note" not in cli["Consensus"][0]  # no row has one: left out, as the CLI does
    # the ranks in parts (drawn once their box is open): together, every column once after
    # the repeated model names
    open_box(at, RANKS_BOX)
    tables = [d for d in at.dataframe if not d.proto.editing_mode]
    parts = [_page_cells(d) for d in tables if "model" in d.value.columns]
    assert len(parts) > 1 and all(p[0][0] == "model" for p in parts)
    columns = [[p[r][c] for r in range(len(p))] for p in parts for c in range(1, len(p[0]))]
    assert len({c[0] for c in columns}) == len(columns) == len(cli["Ranks"][0]) - 1  # once
    by_name = {c[0]: c for c in columns}  # a lone last method may sit in an earlier part
    assert [[row[0] for row in parts[0]]] + [by_name[m] for m in cli["Ranks"][0][1:]] == [
        [row[i] for row in cli["Ranks"]] for i in range(len(cli["Ranks"][0]))]
    head, values = cli["Summary"]
    said = dict(zip(head, values, strict=True))
    shown = {m.label: m.value for m in at.metric}
    assert [shown[k] for k in ("mean τ_b", "median τ_b", "min τ_b", "#(τ_b = 1)")] == [
        said[k] for k in ("mean", "median", "min", "n_tau_1")]
    # an exact method's τ_b of 1.0 reads "1.0000" beside "0.9636", not "1"
    assert "1.0000" in {row[2] for row in _page_cells(agreement)[1:]}


def test_the_exact_list_counts_what_the_tau_metric_counts():
    """The gold (bayes) is left out of both: the page used to list it among the methods that
    reproduce it, so the list read one more than #(τ_b = 1)."""
    at = _open(COINS)
    line = next(m.value for m in at.markdown if "Reproduce the gold ordering" in m.value)
    n_listed = int(line.split("exactly (")[1].split()[0])
    assert "`bayes`" not in line and line.count("`") == 2 * n_listed
    metric = next(m for m in at.metric if m.label == "#(τ_b = 1)")
    assert n_listed == int(metric.value)


def test_the_consensus_table_names_its_methods_in_every_part():
    """A table of methods repeats ``method`` in each of its parts, as a leaderboard repeats
    ``model`` (``app_state.table_fit.key_columns``): the consensus table, led by its number
    column ``consensus_rank``, repeated that instead, so at 1024 px its second part read
    ``consensus_rank`` and ``std_tau_b`` alone (which method a value was of, only the first
    part said). With the names repeated, and cut with "…" where that keeps the parts
    fewer, it now reads as one table on the bundled real run."""
    for dataset, most in ((TEMPERATURE, 1), (COINS, 2)):
        at = _open(dataset)
        parts = [list(d.proto.column_order) or list(d.value.columns) for d in at.dataframe
                 if "mean_tau_b" in d.value.columns]
        assert 1 <= len(parts) <= most, (dataset, parts)
        assert all("method" in p for p in parts), parts
        shown = [c for p in parts for c in p if c != "method"]
        assert sorted(shown) == ["consensus_rank", "mean_tau_b", "std_tau_b"], parts
