"""AppTest smoke tests: every page runs on every dataset source without exceptions.

Numbers are asserted in the core tests; here we only check that the pages
render, that bad input becomes an error message, and that the controls are wired.
"""

from __future__ import annotations

import io as pyio
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _apptest import code_cell, start
from streamlit.testing.v1 import AppTest

from app_pages._common import UPLOAD, UPLOAD_KEY
from app_pages._loading import COINS, REASONING, TEMPERATURE  # noqa: F401
from scorio_core import Outcomes
from scorio_core.io import save_table

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LEADERBOARD = "app_pages/leaderboard.py"


def _start(dataset: str = REASONING, page: str | None = None) -> AppTest:
    return start(APP, dataset, 60, page)


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _board(at: AppTest):
    """The rendered leaderboard table (the dataframe that has a ``rank_chain`` column)."""
    return next(d.value for d in at.dataframe if "rank_chain" in d.value.columns)


def _run_both_pages(at: AppTest) -> AppTest:
    _ok(at)  # Data page (the default)
    assert at.title[0].value
    assert len(at.get("vega_lite_chart")) >= 1
    at.switch_page(LEADERBOARD).run()
    _ok(at)
    view = at.session_state["scorio_dataset"].view
    assert _board(at).shape[0] == view.L
    curves = view.is_binary and view.N > 1  # the Pass@k curves section (issue 23)
    assert len(at.get("vega_lite_chart")) == 2 + curves
    labels = sorted(d.proto.label for d in at.main.get("download_button"))
    # each chart as SVG and PNG; each table as CSV with provenance; JSON; Markdown
    want = ["SVG", "PNG"] * 2 + ["CSV: leaderboard", "CSV: unresolved", "JSON (all tables)",
                                 "Markdown"]
    if curves:
        want += ["SVG", "PNG", "CSV: summary", "CSV: curves", "JSON (all tables)"]
    assert labels == sorted(want)
    # a download does not rerun the page: a rerun racing the file's request left the button
    # spinning with no file under load (2 of 12 clicks)
    buttons = at.get("download_button")
    assert all(d.proto.ignore_rerun for d in buttons), [d.proto.label for d in buttons]
    code = code_cell(at, "leaderboard(")
    assert "sc.load(" in code and "scope='questions'" in code  # the notebook cell of the view
    return at


def _csv_bytes(o: Outcomes) -> bytes:
    buf = pyio.BytesIO()
    save_table(o, buf, format="csv")
    return buf.getvalue()


CAT_WEIGHTS = [0.0, 0.0, 0.5, 1.0]  # a CSV cannot store them: typed into "Category weights"


def _categorical(seed: int = 0) -> Outcomes:
    rng = np.random.default_rng(seed)
    return Outcomes(
        rng.integers(0, 4, size=(4, 12, 6)),
        models=["alpha-model-with-a-long-name", "beta", "gamma", "delta"],
        category_names=["invalid", "wrong", "partial", "correct"],
        weights=CAT_WEIGHTS,
        name="categorical upload",
    )


@pytest.mark.parametrize(
    ("dataset", "bench"),  # not "benchmark": pytest-benchmark owns that fixture name
    [(REASONING, "combined"), (REASONING, "AIME'25"), (COINS, None)],
)
def test_bundled_pages(dataset, bench):
    at = _start(dataset)
    if bench is None:  # no benchmarks in the dataset -> no benchmark picker
        assert "benchmark" not in [w.key for w in at.selectbox]
    else:
        at.selectbox(key="benchmark").set_value(bench).run()
        assert at.session_state["scorio_dataset"].benchmark == bench
    _run_both_pages(at)
    if bench == "AIME'25":
        assert at.session_state["scorio_dataset"].view.M == 30


def _downloads(monkeypatch) -> dict:
    """file name -> the callable a download button runs when clicked (its file is made then,
    on the server: ``data=callable``), recorded as the page registers it."""
    from streamlit.runtime.media_file_manager import MediaFileManager

    made: dict = {}
    register = MediaFileManager.add_deferred

    def record(self, data_callable, mimetype, coordinates, file_name=None, **kw):
        made[file_name] = data_callable
        return register(self, data_callable, mimetype, coordinates, file_name, **kw)

    monkeypatch.setattr(MediaFileManager, "add_deferred", record)
    return made


def test_the_leaderboard_csv_download_is_the_cli_csv(monkeypatch):
    """The page's "CSV: leaderboard" is ``export.to_csv`` of the board under the provenance
    header -- the bytes ``scorio-studio leaderboard --format csv`` writes for the same board,
    ``scope`` column included (the page's file had none)."""
    from scorio_core import export
    from scorio_core.definitions import LEADERBOARD as DEFINITION

    made = _downloads(monkeypatch)
    at = _start(COINS, page=LEADERBOARD)
    at.segmented_control(key="scope").set_value("population").run()
    _ok(at)
    view = at.session_state["scorio_dataset"].view
    name = next(f for f in made if f.endswith("_leaderboard.csv"))
    text = made[name]()
    assert text.startswith("# dataset: ") and "# settings.scope: population" in text
    body = "".join(line + "\n" for line in text.splitlines() if not line.startswith("#"))
    # the page's settings, as its JSON file records them
    settings = json.loads(made[name.replace(".csv", ".json")]())["provenance"]["settings"]
    assert settings["scope"] == "population"
    board = DEFINITION.run(view, DEFINITION.params(**settings)).board
    assert body == export.to_csv(board)
    assert set(pd.read_csv(pyio.StringIO(body))["scope"]) == {"population"}


def test_synthetic_warning_shown():
    at = _start(REASONING)
    assert any("Synthetic data" in w.value for w in at.warning)


def test_data_page_summarizes_signals():
    at = _start(REASONING)
    sig = next(d.value for d in at.dataframe if "statistic" in d.value.columns)
    assert sig.shape[1] == 1 + 9  # one column per signal: one unit, one format per column
    bpt = sig.set_index("statistic")["completion_bpt"]
    assert bpt["mean if wrong"] > bpt["mean if correct"]
    assert any("Every completion has a value of every signal." in c.value for c in at.caption)
    at = _start(COINS)  # no signals: no section
    assert not any("statistic" in d.value.columns for d in at.dataframe)


def test_upload_long_csv_through_widget():
    at = _start()
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    data = _csv_bytes(_categorical())
    at.file_uploader(key="upload").set_value(("runs.csv", data, "text/csv")).run()
    assert "**Category weights**" in at.error[0].value  # categories 0..3 need weights
    at.text_input(key="upload_weights").input("0, 0, 0.5, 1").run()
    assert at.session_state[UPLOAD_KEY]["filename"] == "runs.csv"
    assert at.session_state["scorio_dataset"].full.weights.tolist() == CAT_WEIGHTS
    assert at.session_state["scorio_dataset"].view.shape == (4, 12, 6)
    _run_both_pages(at)


def test_upload_seam_in_session_state():
    """The documented seam: bytes under UPLOAD_KEY take the same path as a widget upload."""
    at = _start()
    coins = at.session_state["scorio_last_good"][0]  # any Outcomes will do
    at.session_state[UPLOAD_KEY] = {"filename": "coins.csv", "data": _csv_bytes(coins)}
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    assert at.session_state["scorio_dataset"].token.startswith("upload:")
    _run_both_pages(at)


def test_bad_upload_shows_error_and_keeps_previous_dataset():
    at = _start(COINS)
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    bad = b"model,question,trial,outcome\nA,q1,0,1\nA,q1,1,maybe\n"
    at.file_uploader(key="upload").set_value(("bad.csv", bad, "text/csv")).run()
    assert not at.exception
    assert at.error and "bad.csv" in at.error[0].value
    assert at.session_state["scorio_dataset"].full.name.startswith("Biased coins")
    at.switch_page(LEADERBOARD).run()
    assert not at.exception
    assert _board(at).shape[0] == 11


def test_missing_cells_option():
    o = _categorical()
    csv = _csv_bytes(o).decode().splitlines()
    holey = ("\n".join(csv[:-1]) + "\n").encode()  # drop the last completion
    at = _start()
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    at.file_uploader(key="upload").set_value(("holey.csv", holey, "text/csv")).run()
    at.text_input(key="upload_weights").input("0, 0, 0.5, 1").run()
    assert not at.exception and at.error  # default "error" names the missing cell
    assert "Missing cells" in at.error[0].value
    at.selectbox(key="on_missing").set_value("truncate").run()
    _ok(at)
    assert at.session_state["scorio_dataset"].view.N == 5
    assert any("loader changed" in i.value for i in at.info)  # the Data page says so


@pytest.mark.parametrize("name", ["junk.npz", "junk.parquet", "junk.jsonl", "empty.csv"])
def test_garbage_upload_is_an_error_not_a_traceback(name):
    at = _start()
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    data = b"" if name == "empty.csv" else b"\x00\x01 definitely not " + name.encode()
    at.file_uploader(key="upload").set_value((name, data, "application/octet-stream")).run()
    assert not at.exception
    assert at.error
    assert at.title[0].value.startswith("Reasoning")  # the previous dataset stays usable


def test_confidence_changes_ci_aware_ranks():
    at = _start(COINS, page=LEADERBOARD)
    ranks = {}
    for c in (0.80, 0.99):
        at.segmented_control(key="confidence").set_value(c).run()
        _ok(at)
        ranks[c] = _board(at)["rank_chain"].tolist()
    assert ranks[0.80] != ranks[0.99]
    assert max(ranks[0.80]) > max(ranks[0.99])  # stricter confidence -> more ties


def test_prior_toggle_and_pass_at_k():
    at = _start(COINS, page=LEADERBOARD)
    assert at.segmented_control(key="use_prior").disabled  # no R0 in the biased coins
    at.selectbox(key="dataset").set_value(REASONING).run()
    assert not at.segmented_control(key="use_prior").disabled
    mu0 = _board(at)["bayes_mu"].to_numpy()
    at.segmented_control(key="use_prior").set_value(True).run()
    _ok(at)
    assert not np.allclose(mu0, _board(at)["bayes_mu"].to_numpy())
    at.pills(key="ks").set_value([2, 80]).run()
    _ok(at)
    cols = _board(at).columns
    assert {"pass@2", "pass@80"} <= set(cols) and "pass@8" not in cols
    # Choices made for one dataset must not break another (no R0; k > N; categorical).
    at.session_state[UPLOAD_KEY] = {"filename": "cat.csv", "data": _csv_bytes(_categorical())}
    at.session_state["upload_weights"] = "0, 0, 0.5, 1"
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    _ok(at)
    prior = at.segmented_control(key="use_prior")
    assert prior.disabled and prior.value is False
    assert not [c for c in _board(at).columns if c.startswith("pass@")]  # categorical


def test_analysis_pages_say_under_their_caption_what_the_load_changed():
    """The load's notes (questions dropped by Missing cells, here) were only in each
    analysis page's collapsed "Caveats (n)" box: every analysis page says them in one
    line right under its caption (``_common.page_start``), the whole notes in Caveats."""
    rng = np.random.default_rng(11)
    R = (rng.random((3, 12, 4)) < np.array([0.8, 0.5, 0.2])[:, None, None]).astype(int)
    buf = pyio.BytesIO()
    save_table(Outcomes(R, models=["a", "b", "c"]), buf, format="csv")
    rows = buf.getvalue().decode().splitlines()
    holey = ("\n".join(rows[:-1]) + "\n").encode()  # c lacks one trial of the last question
    at = _start()
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    at.file_uploader(key="upload").set_value(("holey.csv", holey, "text/csv")).run()
    at.selectbox(key="on_missing").set_value("drop_questions").run()
    _ok(at)
    view = at.session_state["scorio_dataset"].view
    assert view.shape == (3, 11, 4) and len(view.load_notes) == 1
    assert "left out 1 of 12 questions" in view.load_notes[0]
    for page in (LEADERBOARD, "app_pages/pair.py", "app_pages/planner.py"):
        at.switch_page(page).run()
        _ok(at)
        first = at.main.children[2]  # title, shape caption, then this line
        assert first.value.startswith(":material/info: Changed by the load: on\\_missing="), (
            page, first.value)
        assert "left out 1 of 12 questions" in first.value
        assert first.value.endswith("(details in Caveats).")
        caveats = next(e for e in at.expander if e.label.startswith("Caveats ("))
        assert any(view.load_notes[0].rstrip(".") in m.value for m in caveats.markdown)
    # data the load did not change: no such line
    at.selectbox(key="dataset").set_value(REASONING).run()
    at.switch_page(LEADERBOARD).run()
    _ok(at)
    assert not any("Changed by the load" in m.value for m in at.markdown)
