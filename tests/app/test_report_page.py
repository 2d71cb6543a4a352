"""AppTest for the Report page: build a report on the bundled data and offer its files."""

from __future__ import annotations

from pathlib import Path

import nbformat
from _apptest import code_cell, start

from app_pages._loading import COINS, REASONING, TEMPERATURE  # noqa: F401

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_build_and_offer_html_markdown_and_notebook():
    at = start(APP, COINS, 180)
    at.switch_page("app_pages/report.py").run()
    assert not at.exception, [e.value for e in at.exception]
    # the report's one list of default sections, those that fit these data: what sc.report
    # and `scorio-studio report` run when no sections are named (tests/report/test_report.py)
    from scorio_core import io
    from scorio_core.definitions import default_sections

    coins = io.load(Path(APP).parent / "data" / "biased_coins.npz")
    assert at.multiselect(key="report_sections").value == default_sections(coins)[0]
    at.multiselect(key="report_sections").set_value(["leaderboard"]).run()
    at.text_input(key="report_title").set_value("Coins <b>check</b>").run()
    at.button(key="report_build").click().run()
    assert not at.exception, [e.value for e in at.exception]
    labels = sorted(d.proto.label for d in at.main.get("download_button"))
    assert labels == ["HTML", "Markdown + charts (zip)", "Notebook"]
    assert all(d.proto.ignore_rerun for d in at.main.get("download_button"))  # no rerun
    # the same report, rebuilt through the core, is what the page offers
    from scorio_core.report import build_report, to_html, to_notebook

    data = io.load(Path(APP).parent / "data" / "biased_coins.npz")
    report = build_report(data, ["leaderboard"], title="Coins <b>check</b>")
    page_html = to_html(report)
    assert "Coins &lt;b&gt;check&lt;/b&gt;" in page_html and "LLM_11" in page_html
    nbformat.validate(to_notebook(report, Path(APP).parent / "data" / "biased_coins.npz"))


def test_copy_code_box_reproduces_the_leaderboard_page():
    import numpy as np

    at = start(APP, REASONING, 180)
    at.selectbox(key="benchmark").set_value("AIME'25").run()
    at.switch_page("app_pages/leaderboard.py").run()
    at.segmented_control(key="scope").set_value("population").run()
    assert not at.exception, [e.value for e in at.exception]
    page = next(d.value for d in at.dataframe if "rank_chain" in d.value.columns)
    cell = code_cell(at, "leaderboard(")
    ns: dict = {}
    exec(compile(cell, "<copy code>", "exec"), ns)
    got = ns["board"].table
    assert got["model"].tolist() == page["model"].tolist()
    np.testing.assert_allclose(got["score"], page["score"], rtol=1e-12)
    np.testing.assert_allclose(got["hi"], page["hi"], rtol=1e-12)
    assert got["rank"].tolist() == page["rank"].tolist()
