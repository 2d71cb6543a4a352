"""Data page: its charts offer SVG/PNG files and its Copy code cell loads the same data."""

from __future__ import annotations

import io as pyio
from pathlib import Path

import numpy as np
from _apptest import code_cell, start
from streamlit.testing.v1 import AppTest

from app_pages._loading import COINS, REASONING, TEMPERATURE, UPLOAD, UPLOAD_KEY
from scorio_core import Outcomes, io
from scorio_core.io import save_table

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _cell(at: AppTest) -> str:
    return code_cell(at, "sc.load(")


def test_bundled_data_code_and_chart_files():
    at = start(APP, REASONING, 60)
    at.selectbox(key="benchmark").set_value("AIME'25").run()
    assert not at.exception and not at.error
    labels = sorted(b.proto.label for b in at.main.get("download_button"))
    assert labels == ["PNG", "SVG"]  # the accuracy chart (binary data: no category chart)
    ns: dict = {}
    exec(_cell(at), ns)
    shown = at.session_state["scorio_dataset"].view
    assert (ns["data"].L, ns["data"].M, ns["data"].N) == (shown.L, shown.M, shown.N)
    np.testing.assert_array_equal(ns["data"].R, shown.R)



def _categorical_upload():
    """The Data page with a 2 × 6 × 3 categorical table uploaded and its weights entered,
    before its run (more settings may be set first); with the data and the file's bytes."""
    rng = np.random.default_rng(3)
    o = Outcomes(rng.integers(0, 3, (2, 6, 3)), models=["x", "y"], weights=[0, 0.5, 1])
    buf = pyio.BytesIO()
    save_table(o, buf, format="csv")
    at = start(APP, UPLOAD, 60)
    at.session_state[UPLOAD_KEY] = {"filename": "cats.csv", "data": buf.getvalue()}
    at.session_state["upload_weights"] = "0, 0.5, 1"
    return at, o, buf.getvalue()

def test_uploaded_categorical_table_code_carries_the_load_options(tmp_path, monkeypatch):
    at, o, csv = _categorical_upload()
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    labels = sorted(b.proto.label for b in at.main.get("download_button"))
    assert labels == ["PNG", "PNG", "SVG", "SVG"]  # category bars and accuracy
    cell = _cell(at)
    assert "weights=(0.0, 0.5, 1.0)" in cell
    (tmp_path / "cats.csv").write_bytes(csv)
    monkeypatch.chdir(tmp_path)
    ns: dict = {}
    exec(cell, ns)
    np.testing.assert_array_equal(ns["data"].R, o.R)
    np.testing.assert_allclose(ns["data"].weights, [0, 0.5, 1])


def test_report_page_code_writes_the_same_report(tmp_path, monkeypatch):
    at = start(APP, COINS, 120, page="app_pages/report.py")
    at.multiselect(key="report_sections").set_value(["leaderboard"]).run()
    at.text_input(key="report_title").set_value("Coins check").run()
    assert not at.exception
    cell = code_cell(at, "sc.report(")
    assert "sections=['leaderboard']" in cell and "title='Coins check'" in cell
    monkeypatch.chdir(tmp_path)
    exec(cell, {})
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Coins check" in html and "LLM_11" in html and html.count("<svg") >= 2


def test_loading_options_make_one_load_call_and_copy_code_repeats_it(tmp_path, monkeypatch):
    # the bundled real table uploaded as a file: a row filter, the model named by model x
    # temperature (on the column mapping) and a renamed model, as issue 25 asks
    src = Path(APP).parent / "data" / "jhu_llm_temperature.parquet"
    at = start(APP, UPLOAD)
    at.session_state[UPLOAD_KEY] = {"filename": src.name, "data": src.read_bytes()}
    at.session_state["load_where"] = "temperature = 0.0, 1.0"
    at.session_state["model_map_rows"] = [("gpt-4", "GPT-4")]
    at.run()
    at.multiselect(key="model_conditions").set_value(["temperature"]).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    shown = at.session_state["scorio_dataset"].full
    want = io.load(src, where={"temperature": ["0.0", "1.0"]},
                   model_columns=["model", "temperature"], model_map={"gpt-4": "GPT-4"})
    assert shown.models == want.models and "GPT-4@temperature=1.0" in shown.models
    assert shown.shape == (18, 100, 10)
    np.testing.assert_array_equal(shown.R, want.R)
    cell = _cell(at)
    assert "where={'temperature': ('0.0', '1.0')}" in cell
    assert "model_columns=('model', 'temperature')" in cell and "'gpt-4': 'GPT-4'" in cell
    (tmp_path / src.name).write_bytes(src.read_bytes())
    monkeypatch.chdir(tmp_path)
    ns: dict = {}
    exec(cell, ns)
    assert ns["data"].models == shown.models
    np.testing.assert_array_equal(ns["data"].R, shown.R)
    # a filter that names no column is an error that says what was expected
    at.text_input(key="load_where").input("temperature").run()
    assert "expected COLUMN = VALUE" in at.error[0].value


def test_the_default_dataset_is_the_real_one_and_names_its_source_and_licence():
    at = AppTest.from_file(APP, default_timeout=60).run()  # no choice: the app's default
    assert at.selectbox(key="dataset").value == TEMPERATURE
    assert not at.exception and not at.error
    text = " ".join(m.value for m in at.markdown)
    for part in ("Renze & Guven (2024)", "The Effect of Sampling Temperature", "Findings of EMNLP",
                 "BSD-2-Clause", "data/jhu_llm_temperature.LICENSE"):
        assert part in text, part
    assert not at.warning or "Synthetic" not in at.warning[0].value
    licence = (Path(APP).parent / "data" / "jhu_llm_temperature.LICENSE").read_text()
    assert any(c.value.strip() == licence.strip() for c in at.code)  # the licence, shown
    ds = at.session_state["scorio_dataset"]
    assert ds.full.shape == (9, 100, 100) and ds.full.R0.shape == (9, 100, 10)


def test_outcome_category_counts_read_as_every_count_does():
    """The categories table printed 35618 completions (Streamlit's default) where every other
    count of the app -- and the validation report above it -- reads 35,618."""
    import json

    at = start(APP, TEMPERATURE, 60)
    assert not at.exception and not at.error
    table = next(d for d in at.dataframe if "completions" in d.value.columns)
    assert table.value["completions"].max() >= 10_000
    config = json.loads(table.proto.columns)
    assert config["completions"]["type_config"]["format"] == "localized", config
    # shares in percent with one decimal in every row (Streamlit's "percent" wrote 50.67%,
    # 8.5% and 40.83% in one column); weights as the Leaderboard's editor writes them
    from app_state.texts import SHARE_FORMAT

    assert config["share"]["type_config"]["format"] == SHARE_FORMAT == "%.1f%%"
    assert table.value["share"].tolist() == [39.6, 60.4]  # 35,618 and 54,382 of 90,000
    # weights as every text and the Leaderboard's editor write them (0.5, 0.333333): the one
    # declared printf, not Streamlit's default
    from scorio_core.formatting import WEIGHT_PRINTF

    assert config["weight"]["type_config"]["format"] == WEIGHT_PRINTF, config["weight"]
    assert table.value["weight"].tolist() == [0.0, 1.0]


def test_a_signal_reads_alike_in_the_signal_table_and_the_long_preview():
    """The long-table preview showed temperature 0.1 (Streamlit's default) where the signal
    table above it writes 0.1000: both tables take the core's one format per column."""
    import json

    at = start(APP, TEMPERATURE, 60)
    assert not at.exception and not at.error
    signals = next(d for d in at.dataframe if "statistic" in d.value.columns)
    preview = next(d for d in at.dataframe if "trial" in d.value.columns
                   and "temperature" in d.value.columns)
    formats = [json.loads(d.proto.columns)["temperature"]["type_config"]["format"]
               for d in (signals, preview)]
    assert formats == ["%.4f", "%.4f"], formats
    assert preview.value["temperature"].min() == 0.1  # the value, as the signal table's min


def test_a_count_signal_reads_as_a_count_in_the_signal_table_and_the_preview():
    """``response_chars`` read 4868.0 in the signal table beside 1,124 in the long-table
    preview: a count whose means are in the hundreds or more is in whole numbers with
    thousands separators in both, as the core prints it; a small count (attempts 1-10,
    means 5.496 and 5.506) keeps its decimals."""
    import json

    from scorio_core.formatting import format_column

    at = start(APP, TEMPERATURE, 60)
    assert not at.exception and not at.error
    signals = next(d for d in at.dataframe if "statistic" in d.value.columns)
    preview = next(d for d in at.dataframe if "trial" in d.value.columns
                   and "response_chars" in d.value.columns)
    fmt = {name: json.loads(d.proto.columns)["response_chars"]["type_config"]["format"]
           for name, d in (("signals", signals), ("preview", preview))}
    assert fmt == {"signals": "localized", "preview": "localized"}, fmt
    chars = signals.value["response_chars"]
    assert (chars == chars.round()).all() and chars.max() >= 1000  # whole: drawn as 4,868
    assert format_column(chars.tolist(), "response_chars")[2] == f"{int(chars.max()):,}"
    attempts = json.loads(signals.proto.columns)["attempt"]["type_config"]["format"]
    assert attempts == "%.3f"  # 5.496 beside 5.506: the decimals the comparison needs


def test_the_validation_report_names_the_loaders_options_by_their_boxes():
    """The page showed ``describe()`` with "Outcomes made binary (correct=['cat2'])" under
    "the same report `scorio-studio info` prints", which names flags: the notes name the
    boxes here, and the caption says what the report is and where it differs."""
    import json

    at, _, _ = _categorical_upload()
    at.session_state["load_correct"] = "cat2"
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    (report,) = [json.loads(j.proto.body) for j in at.json
                 if "changed by the load" in json.loads(j.proto.body)]
    assert report["changed by the load"] == [
        "Outcomes made binary (cat2 in 'Correct outcomes'): cat2 counts as correct (1); cat0, "
        "cat1 as wrong (0)"]
    shown = at.session_state["scorio_dataset"].view
    assert {k: v for k, v in report.items() if k != "changed by the load"} == json.loads(
        json.dumps({k: v for k, v in shown.describe().items() if k != "changed by the load"}))
    (caption,) = [c.value for c in at.caption if c.value.startswith("`Outcomes.describe()`")]
    assert "the same report" not in caption and "before the loader's notes" in caption
