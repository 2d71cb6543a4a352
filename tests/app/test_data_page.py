"""Data page: its charts offer SVG/PNG files and its Copy code cell loads the same data."""

from __future__ import annotations

import io as pyio
from pathlib import Path

import numpy as np
from _apptest import code_cell
from streamlit.testing.v1 import AppTest

from app_pages._loading import BUNDLED, UPLOAD, UPLOAD_KEY
from scorio_core import Outcomes
from scorio_core.io import save_table

APP = str(Path(__file__).resolve().parents[2] / "app.py")
REASONING, COINS = list(BUNDLED)


def _cell(at: AppTest) -> str:
    return code_cell(at, "sc.load(")


def test_bundled_data_code_and_chart_files():
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.selectbox(key="benchmark").set_value("AIME'25").run()
    assert not at.exception and not at.error
    labels = sorted(b.proto.label for b in at.main.get("download_button"))
    assert labels == ["PNG", "SVG"]  # the accuracy chart (binary data: no category chart)
    ns: dict = {}
    exec(_cell(at), ns)
    shown = at.session_state["scorio_dataset"].view
    assert (ns["data"].L, ns["data"].M, ns["data"].N) == (shown.L, shown.M, shown.N)
    np.testing.assert_array_equal(ns["data"].R, shown.R)


def test_uploaded_categorical_table_code_carries_the_load_options(tmp_path, monkeypatch):
    rng = np.random.default_rng(3)
    o = Outcomes(rng.integers(0, 3, (2, 6, 3)), models=["x", "y"], weights=[0, 0.5, 1])
    buf = pyio.BytesIO()
    save_table(o, buf, format="csv")
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    at.session_state[UPLOAD_KEY] = {"filename": "cats.csv", "data": buf.getvalue()}
    at.session_state["upload_weights"] = "0, 0.5, 1"
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    labels = sorted(b.proto.label for b in at.main.get("download_button"))
    assert labels == ["PNG", "PNG", "SVG", "SVG"]  # category bars and accuracy
    cell = _cell(at)
    assert "weights=(0.0, 0.5, 1.0)" in cell
    (tmp_path / "cats.csv").write_bytes(buf.getvalue())
    monkeypatch.chdir(tmp_path)
    ns: dict = {}
    exec(cell, ns)
    np.testing.assert_array_equal(ns["data"].R, o.R)
    np.testing.assert_allclose(ns["data"].weights, [0, 0.5, 1])


def test_report_page_code_writes_the_same_report(tmp_path, monkeypatch):
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.selectbox(key="dataset").set_value(COINS).run()
    at.switch_page("app_pages/report.py").run()
    at.multiselect(key="report_sections").set_value(["leaderboard"]).run()
    at.text_input(key="report_title").set_value("Coins check").run()
    assert not at.exception
    cell = code_cell(at, "sc.report(")
    assert "sections=['leaderboard']" in cell and "title='Coins check'" in cell
    monkeypatch.chdir(tmp_path)
    exec(cell, {})
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Coins check" in html and "LLM_11" in html and html.count("<svg") >= 2
