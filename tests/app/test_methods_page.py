"""AppTest for the Method-comparison page."""

from __future__ import annotations

from pathlib import Path

from _apptest import code_cell, start
from streamlit.testing.v1 import AppTest

from app_pages._loading import COINS, REASONING, TEMPERATURE  # noqa: F401
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


def test_all_methods_on_biased_coins():
    at = _open(COINS)
    ranks = next(d.value for d in at.dataframe if "avg" in d.value.columns)
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
    ranks = next(d.value for d in at.dataframe if "avg" in d.value.columns)
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
    ranks = next(d.value for d in at.dataframe if voting[0] in d.value.columns)
    assert sorted(ranks.columns) == sorted(voting)


def test_copy_code_box_reproduces_the_methods_page():
    import numpy as np

    at = start(APP, REASONING, 180)
    at.selectbox(key="benchmark").set_value("AIME'25").run()
    at.switch_page(METHODS_PAGE).run()
    at.multiselect(key="families").set_value(["voting", "pointwise"]).run()
    assert not at.exception, [e.value for e in at.exception]
    ranks = next(d.value for d in at.dataframe if "borda" in d.value.columns)
    agreement = next(d.value for d in at.dataframe if "tau_b" in d.value.columns)
    cell = code_cell(at, "sc.compare(")
    ns: dict = {}
    exec(compile(cell, "<copy code>", "exec"), ns)
    cmp = ns["cmp"]
    got = cmp.run.ranks.loc[ranks.index, ranks.columns]
    np.testing.assert_allclose(got.to_numpy(float), ranks.to_numpy(float), rtol=0, atol=1e-12)
    assert cmp.agreement["method"].tolist() == agreement["method"].tolist()
    np.testing.assert_allclose(cmp.agreement["tau_b"], agreement["tau_b"], rtol=1e-12)


def test_method_tables_keep_one_number_format_per_column():
    """Issue 24: Streamlit's default printed tau_b = 1.0 as "1" beside "0.9473" in the same
    column; every float column of the agreement and consensus tables has one format."""
    import json

    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.switch_page("app_pages/methods.py").run()
    assert not at.exception
    checked = 0
    for d in at.dataframe:
        if not {"tau_b", "mean_tau_b"} & set(d.value.columns):
            continue
        config = json.loads(d.proto.columns or "{}")
        for c in d.value.select_dtypes("float").columns:
            assert config.get(c, {}).get("type_config", {}).get("format") == "%.4f", (c, config)
            checked += 1
    assert checked >= 3


def test_the_exact_list_counts_what_the_tau_metric_counts():
    """The gold (bayes) is left out of both: the page used to list it among the methods that
    reproduce it, so the list read one more than #(τ_b = 1)."""
    at = _open(COINS)
    line = next(m.value for m in at.markdown if "Reproduce the gold ordering" in m.value)
    n_listed = int(line.split("exactly (")[1].split()[0])
    assert "`bayes`" not in line and line.count("`") == 2 * n_listed
    metric = next(m for m in at.metric if m.label == "#(τ_b = 1)")
    assert n_listed == int(metric.value)
