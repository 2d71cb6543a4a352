"""AppTest for the Report page: build a report on the bundled data and offer its files."""

from __future__ import annotations

from pathlib import Path

import nbformat
from _apptest import code_cell, start

from app_pages._loading import COINS, REASONING, TEMPERATURE  # noqa: F401

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_build_and_offer_html_markdown_and_notebook():
    at = start(APP, COINS, 180, page="app_pages/report.py")
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


def _made(monkeypatch) -> dict:
    """file name -> the bytes or text a download button offers, recorded as the page
    registers the file (the Report page hands its files over whole)."""
    from streamlit.runtime.media_file_manager import MediaFileManager

    made: dict = {}
    add = MediaFileManager.add

    def record(self, data, mimetype, coordinates, file_name=None, *args, **kw):
        made[file_name] = data
        return add(self, data, mimetype, coordinates, file_name, *args, **kw)

    monkeypatch.setattr(MediaFileManager, "add", record)
    return made


def test_an_uploads_notebook_and_copy_code_read_the_file_with_its_upload_options(
        tmp_path, monkeypatch, kernel_env):
    """The Report page's notebook loaded an upload with ``sc.load(path)`` alone, and its
    Copy code called ``sc.report`` without the loader options: a categorical upload (which
    needs its category weights) or a truncated one (a pair short of trials) failed when
    run. Both now read the file with the options the upload was read with
    (``io.loaded_with``): the notebook runs top to bottom on a fresh kernel and gives the
    Leaderboard page's board, and the Copy code cell writes the report."""
    import json

    import numpy as np
    import pytest

    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    from app_pages._common import UPLOAD
    from scorio_core import io

    rng = np.random.default_rng(11)
    rows = [f"{m},q{j},{t},{int(rng.integers(0, 3))}" for m in ("alpha", "beta", "gamma")
            for j in range(8) for t in range(4) if not (m == "gamma" and j == 2 and t == 3)]
    csv = ("model,question,trial,outcome\n" + "\n".join(rows) + "\n").encode()
    made = _made(monkeypatch)
    at = start(APP, UPLOAD, 180)
    at.file_uploader(key="upload").set_value(("graded.csv", csv, "text/csv")).run()
    at.text_input(key="upload_weights").input("0, 0.5, 1").run()
    at.selectbox(key="on_missing").set_value("truncate").run()
    assert not at.exception and not at.error, [e.value for e in (*at.exception, *at.error)]
    view = at.session_state["scorio_dataset"].view
    assert view.shape == (3, 8, 3) and view.weights.tolist() == [0.0, 0.5, 1.0]
    at.switch_page("app_pages/leaderboard.py").run()
    page = next(d.value for d in at.dataframe if "rank_chain" in d.value.columns)
    at.switch_page("app_pages/report.py").run()
    at.multiselect(key="report_sections").set_value(["leaderboard"]).run()
    at.button(key="report_build").click().run()
    assert not at.exception, [e.value for e in at.exception]
    nb = nbformat.reads(next(v for k, v in made.items() if str(k).endswith(".ipynb")),
                        as_version=4)
    # the load cell reads the file as the upload was read
    assert ("data = sc.load(path, on_missing='truncate', weights=(0.0, 0.5, 1.0))"
            in nb.cells[1].source)
    (tmp_path / "graded.csv").write_bytes(csv)  # beside the notebook, as the page says
    nb.cells.append(nbformat.v4.new_code_cell(
        "import json\njson.dump({'model': list(board.table['model']), 'score': "
        "list(map(float, board.table['score'])), 'hi': list(map(float, board.table['hi']))}, "
        "open('board.json', 'w'))"))
    nbclient.NotebookClient(nb, timeout=240, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    got = json.loads((tmp_path / "board.json").read_text())
    assert got["model"] == page["model"].tolist()
    np.testing.assert_allclose(got["score"], page["score"], rtol=1e-12)
    np.testing.assert_allclose(got["hi"], page["hi"], rtol=1e-12)
    # the Copy code cell: sc.report of the file with the same options writes the report
    cell = code_cell(at, "sc.report(")
    assert "options=sc.io.LoadOptions(on_missing='truncate', weights=(0.0, 0.5, 1.0))" in cell
    monkeypatch.chdir(tmp_path)
    exec(compile(cell, "<copy code>", "exec"), {})
    assert "alpha" in (tmp_path / "report.html").read_text()
    assert io.loaded_with(view) == io.LoadOptions(weights=[0, 0.5, 1], on_missing="truncate")


def test_two_uploaded_logs_give_a_notebook_and_copy_code_that_read_both(tmp_path, monkeypatch):
    """An upload of two logs gave the Report page's notebook and Copy code the path
    ``'2 files'``. Inspect's graded logs read on 0..10 and made binary from a grade of 5:
    the notebook's load cell and the ``sc.report`` call name both files in one folder, with
    the options the data record; saved there, each reads the data shown (the notebook's
    cell checks every file's sha256), and the page says where to save them."""
    import numpy as np

    from app_pages._common import UPLOAD
    from app_state.texts import UPLOAD_FOLDER
    from scorio_core import io

    d = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect" / "graded"
    logs = sorted(d.glob("*.eval"))
    made = _made(monkeypatch)
    at = start(APP, UPLOAD, 180)
    at.session_state["load_score_range"] = "0, 10"
    at.session_state["load_correct_from"] = "5"
    at.file_uploader(key="upload").set_value(
        [(p.name, p.read_bytes(), "application/zip") for p in logs]).run()
    assert not at.exception and not at.error, [e.value for e in (*at.exception, *at.error)]
    view = at.session_state["scorio_dataset"].view
    at.switch_page("app_pages/report.py").run()
    at.multiselect(key="report_sections").set_value(["leaderboard"]).run()
    at.button(key="report_build").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(f"from the folder `{UPLOAD_FOLDER}` beside it" in c.value for c in at.caption)
    nb = nbformat.reads(next(v for k, v in made.items() if str(k).endswith(".ipynb")),
                        as_version=4)
    load = nb.cells[1].source
    assert "data = sc.load(path, score_range=(0.0, 10.0), correct_from=5.0)" in load
    assert all(f"Path('{UPLOAD_FOLDER}/{p.name}')," in load for p in logs), load
    (tmp_path / UPLOAD_FOLDER).mkdir()
    for p in logs:
        (tmp_path / UPLOAD_FOLDER / p.name).write_bytes(p.read_bytes())
    monkeypatch.chdir(tmp_path)  # the notebook's folder
    ns: dict = {}
    exec(compile(load, "<load cell>", "exec"), ns)  # noqa: S102 -- checks the sha256 too
    np.testing.assert_array_equal(ns["data"].R, view.R)
    cell = code_cell(at, "sc.report(")
    assert "options=sc.io.LoadOptions(score_range=(0.0, 10.0), correct_from=5.0)" in cell
    exec(compile(cell, "<copy code>", "exec"), {})  # noqa: S102
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "alpha" in html and "score_range=(0.0, 10.0), correct_from=5.0" in html
    assert io.loaded_with(view) == io.LoadOptions(score_range=(0, 10), correct_from=5)
