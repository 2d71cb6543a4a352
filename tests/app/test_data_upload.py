"""Data page uploads: several log files, a .zip of logs, and the column mapping of a table."""

from __future__ import annotations

import io as pyio
import zipfile
from pathlib import Path

import numpy as np
import pytest
from _apptest import start
from fixtures import make_logs as mk
from streamlit.testing.v1 import AppTest

from app_pages._common import UPLOAD, UPLOAD_KEY

APP = str(Path(__file__).resolve().parents[2] / "app.py")
MODELS = ["org/a", "org/b", "org/c"]


def _start() -> AppTest:
    at = start(APP, UPLOAD, 60)
    return at


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _logs(tmp_path) -> tuple[np.ndarray, list[Path]]:
    R = np.random.default_rng(5).integers(0, 2, (3, 4, 3))
    paths = [
        mk.write_inspect_eval(tmp_path / f"{i}.eval", m, "t", R[i], [1, 2, 3, 4],
                              compression="zstd")  # fmt: skip
        for i, m in enumerate(MODELS)
    ]
    return R, paths


def test_several_eval_logs_through_the_widget(tmp_path):
    R, paths = _logs(tmp_path)
    at = _start()
    files = [(p.name, p.read_bytes(), "application/zip") for p in paths]
    at.file_uploader(key="upload").set_value(files).run()
    _ok(at)
    ds = at.session_state["scorio_dataset"]
    # provider prefixes dropped by default (the names stay distinct), as the report says
    short = [m.rsplit("/", 1)[-1] for m in MODELS]
    assert ds.full.shape == R.shape and ds.full.models == tuple(short)
    assert at.session_state[UPLOAD_KEY]["filename"] == "3 files"
    report = next(d.value for d in at.dataframe if "scorer" in d.value.columns)
    assert report["model"].tolist() == short and report["model_in_log"].tolist() == MODELS


def test_zip_of_logs_through_the_session_seam(tmp_path):
    R, paths = _logs(tmp_path)
    buf = pyio.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for p in paths:
            zf.write(p, f"logs/{p.name}")
    at = _start()
    at.session_state[UPLOAD_KEY] = {"filename": "logs.zip", "data": buf.getvalue()}
    at.run()
    _ok(at)
    assert at.session_state["scorio_dataset"].full.shape == R.shape


def test_column_mapping_selectboxes_load_a_table_with_other_names():
    csv = b"who,what,k,y\nA,q1,0,1\nA,q1,1,0\nB,q1,0,1\nB,q1,1,1\n"  # no name to guess from
    at = _start()
    at.file_uploader(key="upload").set_value(("runs.csv", csv, "text/csv")).run()
    assert at.error and "Column mapping" in at.error[0].value  # columns not found yet
    for role, col in (("model", "who"), ("question", "what"), ("trial", "k"),
                      ("outcome", "y")):  # fmt: skip
        at.selectbox(key=f"col_{role}").set_value(col)
    at.run()
    _ok(at)
    o = at.session_state["scorio_dataset"].full
    assert o.models == ("A", "B") and o.R.tolist() == [[[1, 0]], [[1, 1]]]
    assert o.metadata["columns"]["model"] == "who"


def test_columns_named_as_other_tools_name_them_are_picked_and_said():
    csv = b"llm,item,sample,correct\nA,q1,0,1\nA,q1,1,0\nB,q1,0,1\nB,q1,1,1\n"
    at = _start()
    at.file_uploader(key="upload").set_value(("runs.csv", csv, "text/csv")).run()
    _ok(at)  # loaded at once: the picks are shown, not applied silently
    o = at.session_state["scorio_dataset"].full
    assert o.R.tolist() == [[[1, 0]], [[1, 1]]] and o.metadata["columns"]["outcome"] == "correct"
    said = " ".join(c.value for c in at.caption)
    assert "outcome ← 'correct'" in said and "model ← 'llm'" in said
    at.selectbox(key="col_outcome").set_value("(none)").run()  # the user can take a pick back
    assert at.error and "outcome" in at.error[0].value


def test_missing_column_hint_names_it_and_offers_the_mapping():
    # issue 14: a CSV missing its trial column was told to change 'Missing cells'
    csv = b"model,question,outcome\nA,q1,1\nB,q1,0\n"
    at = _start()
    at.file_uploader(key="upload").set_value(("runs.csv", csv, "text/csv")).run()
    msg = at.error[0].value
    assert "No column **trial** was found" in msg and "Column mapping" in msg
    assert "Missing cells" not in msg


def test_a_table_of_one_row_per_repeat_is_numbered_by_the_column_mappings_switch(
        tmp_path, monkeypatch):
    """A table of one row per repeat without trial numbers was refused in the app with
    Python's advice (``columns={...}``, a pandas ``groupby().cumcount()`` line) and a pick
    under *Column mapping* that no column fills. The app says its own way: the switch under
    *Column mapping* (``LoadOptions.number_trials``, its label and help declared once), which
    loads the table with each pair's rows as its trials in file order, says so among what
    the loader changed, and the pages' Copy code loads the file the same way."""
    from _apptest import code_cell

    from scorio_core.io import LoadOptions
    from scorio_core.params import widget

    rows = [("a", "q1", 1), ("b", "q1", 0), ("a", "q2", 0), ("a", "q1", 0), ("b", "q2", 1),
            ("b", "q1", 1), ("a", "q2", 1), ("b", "q2", 1), ("a", "q1", 1), ("b", "q1", 0),
            ("a", "q2", 1), ("b", "q2", 0)]
    csv = ("model,question,outcome\n" + "".join(f"{m},{q},{y}\n" for m, q, y in rows)).encode()
    at = _start()
    at.file_uploader(key="upload").set_value(("repeats.csv", csv, "text/csv")).run()
    w = widget(LoadOptions, "number_trials")
    (msg,) = [e.value for e in at.error]
    assert "No column **trial** was found" in msg and "**Column mapping**" in msg
    assert (f"tick **{w['label']}** there, which numbers the rows of each (model, question) "
            "pair 0, 1, 2, ... in file order") in msg, msg
    for other in ("number_trials", "columns=", "cumcount", "--"):  # no other surface's words
        assert other not in msg, (other, msg)
    box = at.checkbox(key="load_number_trials")
    assert (box.label, box.help) == (w["label"], w["help"]) and box.value is False
    box.check().run()
    _ok(at)
    o = at.session_state["scorio_dataset"].full
    assert o.models == ("a", "b") and o.questions == ("q1", "q2")
    assert o.R.tolist() == [[[1, 0, 1], [0, 1, 1]], [[0, 1, 0], [1, 1, 0]]]
    changed = next(i.value for i in at.info if "What the loader changed" in i.value)
    assert "Trials numbered by row order: the rows of each (model, question) pair are its " \
           f"trials 0, 1, 2, ... in the order the file lists them (**{w['label']}** in the " \
           "sidebar)" in changed
    assert not any("Trial ids from the file" in c.value for c in at.caption)  # not the file's
    # the Leaderboard page says what the load did and its Copy code loads the file the same
    # way, giving its board
    at.switch_page("app_pages/leaderboard.py").run()
    said = [m.value for m in at.markdown]
    assert any("Changed by the load: Trials numbered by row order (details in Caveats)" in m
               for m in said), said
    assert any(f"Trials numbered by row order (**{w['label']}**): the rows of each" in m
               for m in said), said  # the caveat, whole
    page = next(d.value for d in at.dataframe if "rank_chain" in d.value.columns)
    cell = code_cell(at, "leaderboard(")
    assert "data = sc.load(path, number_trials=True)" in cell
    (tmp_path / "repeats.csv").write_bytes(csv)
    monkeypatch.chdir(tmp_path)
    ns: dict = {}
    exec(compile(cell, "<copy code>", "exec"), ns)
    assert ns["board"].table["model"].tolist() == page["model"].tolist()
    np.testing.assert_allclose(ns["board"].table["score"], page["score"], rtol=1e-12)


def _load_lines(cell: str) -> str:
    """The lines of a Copy code cell that load the data: where the files are, ``sc.load``."""
    lines = cell.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(("# the ", "path = ")))
    end = next(i for i, line in enumerate(lines) if line.startswith("data = sc.load("))
    return "\n".join(lines[start:end + 1])


def test_two_uploaded_logs_load_alike_in_every_pages_cell_and_the_cell_runs(
        tmp_path, monkeypatch):
    """An upload of two logs gave the analysis pages a cell that read ``Path("2 files")``,
    which no notebook can run, and the Data page took its load options from the session
    while the other pages took those the data were read with (``io.loaded_with``). Inspect's
    graded logs read on 0..10 and made binary from a grade of 5: every page's cell names the
    two files in one folder (and says where to save them) with the options the data record;
    run on the files saved there, the Leaderboard's cell gives the page's board. An option
    changed to one that fails keeps the data shown, and the cells theirs (the Data page's
    had dropped them: its record in the session was reset by the failed load)."""
    from app_pages._widgets import CODE_KEY
    from app_state.texts import UPLOAD_FOLDER
    from scorio_core import io

    d = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect" / "graded"
    logs = sorted(d.glob("*.eval"))
    at = _start()
    at.session_state["load_score_range"] = "0, 10"
    at.session_state["load_correct_from"] = "5"
    at.file_uploader(key="upload").set_value(
        [(p.name, p.read_bytes(), "application/zip") for p in logs]).run()
    _ok(at)
    view = at.session_state["scorio_dataset"].view
    assert io.loaded_with(view) == io.LoadOptions(score_range=(0, 10), correct_from=5)
    assert view.is_binary and view.L == 2
    at.session_state[CODE_KEY] = True  # the Copy code box, open on every page from here
    at.run()
    data_cell = next(c.value for c in at.code if "sc.load(" in c.value)
    load = _load_lines(data_cell)
    assert load == "\n".join([
        f"# the 2 uploaded files: save them in a folder {UPLOAD_FOLDER} beside this notebook",
        "# (or write the paths where they are instead)",
        "path = [  # relative to this notebook's folder",
        *(f"    Path('{UPLOAD_FOLDER}/{p.name}')," for p in logs), "]",
        "data = sc.load(path, score_range=(0.0, 10.0), correct_from=5.0)"]), data_cell
    at.switch_page("app_pages/leaderboard.py").run()
    _ok(at)
    page = next(x.value for x in at.dataframe if "rank_chain" in x.value.columns)
    cell = next(c.value for c in at.code if "leaderboard(" in c.value)
    assert _load_lines(cell) == load  # one load, as the Data page writes it
    folder = tmp_path / UPLOAD_FOLDER
    folder.mkdir()
    for p in logs:
        (folder / p.name).write_bytes(p.read_bytes())
    monkeypatch.chdir(tmp_path)
    ns: dict = {}
    exec(compile(cell, "<copy code>", "exec"), ns)  # noqa: S102
    np.testing.assert_array_equal(ns["data"].R, view.R)
    assert ns["board"].table["model"].tolist() == page["model"].tolist()
    np.testing.assert_allclose(ns["board"].table["score"], page["score"], rtol=1e-12)
    # an option that fails: the data shown stay, and every cell loads them as they were read
    at.text_input(key="load_correct_from").input("five").run()
    assert at.error and "Correct from score" in at.error[0].value
    assert _load_lines(next(c.value for c in at.code if "leaderboard(" in c.value)) == load
    at.switch_page("app_pages/data.py").run()
    assert _load_lines(next(c.value for c in at.code if "sc.load(" in c.value)) == load


def test_missing_cells_hint_points_to_the_missing_cells_option():
    csv = b"model,question,trial,outcome\nA,q1,0,1\nA,q1,1,1\nB,q1,0,0\n"
    at = _start()
    at.file_uploader(key="upload").set_value(("runs.csv", csv, "text/csv")).run()
    msg = at.error[0].value
    box = at.selectbox(key="on_missing")
    # the hint names the box as the sidebar labels it (one declaration: LoadOptions.on_missing)
    assert "cells are missing" in msg and f"change **{box.label}**" in msg
    assert "Column mapping" not in msg
    box.set_value("truncate").run()
    _ok(at)
    assert at.session_state["scorio_dataset"].full.shape == (2, 1, 1)
    # and so does the Data page's note on what the loader changed
    changed = next(i.value for i in at.info if "What the loader changed" in i.value)
    assert "Trials cut to N = 1" in changed and f"(**{box.label}** in the sidebar)" in changed


def test_upload_widgets_and_the_notes_naming_them_take_one_declaration(tmp_path):
    from app_pages._upload import MISSING
    from scorio_core.io import LoadOptions
    from scorio_core.params import widget

    _, paths = _logs(tmp_path)
    at = _start()
    at.file_uploader(key="upload").set_value(
        [(p.name, p.read_bytes(), "application/zip") for p in paths]).run()
    _ok(at)
    box, scorer = at.selectbox(key="on_missing"), at.text_input(key="scorer")
    for shown, name in ((box, "on_missing"), (scorer, "scorer")):
        w = widget(LoadOptions, name)
        assert (shown.label, shown.help) == (w["label"], w["help"])
    assert scorer.label == "Scorer (logs)" and "HELM stat" in scorer.help
    # every declared choice is offered, each with its name on the box
    assert box.options == [MISSING[c] for c in widget(LoadOptions, "on_missing")["options"]]
    # the import report's line on unscored samples names the box the sidebar shows
    line = next(c.value for c in at.caption if "without a score" in c.value)
    assert f"handled by **{box.label}** in the sidebar" in line


def test_categorical_upload_needs_and_takes_category_weights():
    rows = [f"{m},q{j},{t},{(i + j + t) % 3}" for i, m in enumerate("AB") for j in range(3)
            for t in range(2)]  # fmt: skip
    csv = ("model,question,trial,outcome\n" + "\n".join(rows) + "\n").encode()
    at = _start()
    at.file_uploader(key="upload").set_value(("cats.csv", csv, "text/csv")).run()
    msg = at.error[0].value
    assert "no category weights were given" in msg and "**Category weights**" in msg
    at.text_input(key="upload_weights").input("0, x").run()
    assert "expected numbers separated by commas" in at.error[0].value
    at.text_input(key="upload_weights").input("0, 0.5, 1").run()
    _ok(at)
    o = at.session_state["scorio_dataset"].full
    assert o.weights.tolist() == [0.0, 0.5, 1.0] and o.C == 2


# ---------------------------------------------------------------- adding files (issue 22)
def _table(R: np.ndarray, models: list[str]) -> bytes:
    rows = [f"{m},q{j},{t},{R[i, j, t]}" for i, m in enumerate(models)
            for j in range(R.shape[1]) for t in range(R.shape[2])]  # fmt: skip
    return ("model,question,trial,outcome\n" + "\n".join(rows) + "\n").encode()


def test_adding_the_same_data_with_provider_prefixes_asks_and_each_choice_gives_its_data():
    # issue 22 item 7: the same results as a CSV, then again with provider-prefixed names
    # dropped beside it, used to become every model twice with no warning
    R = np.random.default_rng(7).integers(0, 2, (3, 4, 3))
    plain, prefixed = _table(R, ["a", "b", "c"]), _table(R, ["org/a", "org/b", "org/c"])
    at = _start()
    first = ("runs.csv", plain, "text/csv")
    at.file_uploader(key="upload").set_value([first]).run()
    _ok(at)
    assert at.session_state["scorio_dataset"].full.models == ("a", "b", "c")
    at.file_uploader(key="upload").set_value([first, ("runs_org.csv", prefixed, "text/csv")])
    at.run()
    _ok(at)
    # the choice is asked, naming what collides; until it is made the loaded data stay
    warning = next(w.value for w in at.warning if "collide" in w.value)
    assert "'org/a' (new) ~ 'a'" in warning and "12 (model, question) pairs are in both" in warning
    choice = at.radio(key="upload_merge")
    assert choice.value is None and len(choice.options) == 3
    full = at.session_state["scorio_dataset"].full
    assert full.models == ("a", "b", "c") and full.shape == R.shape
    # replace: the added file alone
    choice.set_value("replace").run()
    _ok(at)
    full = at.session_state["scorio_dataset"].full
    assert full.models == ("org/a", "org/b", "org/c")
    np.testing.assert_array_equal(full.R, R)
    # add as another benchmark: the same three models (names mapped), questions twice
    at.radio(key="upload_merge").set_value("add_benchmark").run()
    _ok(at)
    full = at.session_state["scorio_dataset"].full
    assert full.models == ("a", "b", "c") and full.benchmark_names == ["runs", "runs_org"]
    assert full.shape == (3, 8, 3)
    np.testing.assert_array_equal(full.select("runs").R, R)
    np.testing.assert_array_equal(full.select("runs_org").R, R)
    assert at.session_state["scorio_dataset"].benchmark == "combined"
    # the Data page's cell loads both files and says the choice it cannot repeat (the
    # choice the data record, not one still pending in the session)
    from app_pages._widgets import CODE_KEY

    at.session_state[CODE_KEY] = True
    at.run()
    cell = next(c.value for c in at.code if "sc.load(" in c.value)
    assert "Path('uploaded_files/runs.csv')," in cell and "runs_org.csv" in cell
    assert [c.value for c in at.caption if "combined by the choice" in c.value] == [
        "Files added to the upload were combined by the choice **add_benchmark**, which the "
        "cell does not repeat: `io.upload.apply_upload(io.upload.check_upload(data, new), "
        "'add_benchmark')` with `data = sc.load(...)` of the files loaded first and `new = "
        "sc.load(...)` of the added ones."]
    # cancel: the data loaded before the file was added, and the cell loads that file alone
    at.radio(key="upload_merge").set_value("cancel").run()
    _ok(at)
    full = at.session_state["scorio_dataset"].full
    assert full.models == ("a", "b", "c") and full.shape == R.shape
    cell = next(c.value for c in at.code if "sc.load(" in c.value)
    assert "path = Path('runs.csv')" in cell and "runs_org" not in cell
    assert not [c.value for c in at.caption if "combined by the choice" in c.value]


def test_adding_files_that_collide_with_nothing_merges_without_asking():
    R = np.random.default_rng(8).integers(0, 2, (2, 3, 2))
    first = ("runs.csv", _table(R, ["a", "b"]), "text/csv")
    more = ("more.csv", _table(R, ["c", "d"]), "text/csv")  # other models
    at = _start()
    at.file_uploader(key="upload").set_value([first]).run()
    at.file_uploader(key="upload").set_value([first, more]).run()
    _ok(at)
    assert not [w for w in at.warning if "collide" in w.value]
    assert at.session_state["scorio_dataset"].full.models == ("a", "b", "c", "d")


def test_import_report_shows_inspects_reduced_value_beside_ours():
    # real Inspect logs with epochs reduced by pass_at_2 (tests/fixtures/harness/inspect)
    from scorio_core import io

    d = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect" / "reducer"
    files = sorted(p for p in d.iterdir() if p.suffix == ".eval")
    at = _start()
    at.file_uploader(key="upload").set_value(
        [(p.name, p.read_bytes(), "application/zip") for p in files]).run()
    _ok(at)
    table = next(x.value for x in at.dataframe if "harness value" in x.value.columns)
    core = io.load(d).metadata["import_report"]["files"]
    assert len(table) == len(core) == len(files)
    for f in core:
        row = table[table["model"] == f["model"]].iloc[0]
        assert row["harness reducer"] == "pass_at_2" and row["harness"] == f["format"]
        # plain numbers, the same as the core's report (Inspect's headline, our mean)
        assert float(row["harness value"]) == pytest.approx(f["harness"]["value"], abs=1e-3)
        assert float(row["ours (mean)"]) == pytest.approx(f["mean"], abs=1e-3)
        assert int(row["records"].replace(",", "")) == f["records"]


def test_an_lm_eval_group_is_offered_as_a_benchmark():
    """A zip of an lm-eval output folder whose tasks form a group (qa_suite = qa_one +
    qa_rep): the sidebar's Benchmark box offers the group after the tasks, and choosing it
    pools its tasks' questions."""
    root = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "lm_eval" / "group"
    buf = pyio.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for p in root.rglob("*.json*"):
            if p.name != "reading.json":
                zf.write(p, p.relative_to(root.parent).as_posix())
    at = _start()
    at.session_state[UPLOAD_KEY] = {"filename": "group.zip", "data": buf.getvalue()}
    at.run()
    _ok(at)
    box = at.selectbox(key="benchmark")
    assert box.options[-1] == "qa_suite (group)" and "qa_one" in box.options
    box.set_value("qa_suite").run()
    _ok(at)
    view = at.session_state["scorio_dataset"].view
    assert view.M == 12 and sorted(set(view.benchmarks)) == ["qa_one", "qa_rep"]


def test_score_range_with_category_weights_names_both_boxes_and_the_values():
    """Settings each valid but not together (a score range and category weights: two
    readings of the scores) are said with the boxes' labels and what was typed in them,
    not the loader's keywords (score_range, weights); dropping one loads the file."""
    rows = [f"{m},q{j},{t},{(2.5 * (i + j + t)) % 10:g}" for i, m in enumerate("AB")
            for j in range(3) for t in range(2)]  # fmt: skip
    csv = ("model,question,trial,outcome\n" + "\n".join(rows) + "\n").encode()
    at = _start()
    at.session_state["load_score_range"] = "0, 10"
    at.session_state["upload_weights"] = "0, 0.5, 1"
    at.file_uploader(key="upload").set_value(("graded.csv", csv, "text/csv")).run()
    assert not at.exception, [e.value for e in at.exception]
    (msg,) = [e.value for e in at.error]
    score_range = at.text_input(key="load_score_range").label
    boxes = [e.label for e in at.sidebar.expander]
    assert score_range == "Score range" and "Category weights" in boxes, boxes
    assert msg.startswith(f"Could not load this file: **{score_range}** and **Category "
                          "weights** were both given"), msg
    assert "drop **Category weights** to weight each grade" in msg
    assert msg.endswith("got **Score range** `0, 10`, **Category weights** `0, 0.5, 1`"), msg
    assert "score_range" not in msg and "weights=" not in msg
    at.text_input(key="upload_weights").input("").run()
    _ok(at)
    o = at.session_state["scorio_dataset"].full
    assert o.shape == (2, 3, 2) and o.metadata.get("score_range") in ([0.0, 10.0], (0.0, 10.0))



def _cpi_logs() -> list[tuple[str, bytes, str]]:
    """Inspect's C/P/I logs (fixture written by inspect-ai's mockllm), as the uploader
    takes them."""
    logs = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect" / "passk_cpi"
    return [(p.name, p.read_bytes(), "application/zip") for p in sorted(logs.glob("*.eval"))]

def test_graded_logs_load_binary_with_the_correct_outcomes_box():
    """The analyses' refusal of C/P/I logs names "C in Correct outcomes, among the upload's
    options": that box (labels and help from the loader's declarations) loads the same logs
    with C counted correct, which the Data page says; a name that is no category is said
    with the categories the logs have."""
    from scorio_core.io import LoadOptions
    from scorio_core.params import widget

    files = _cpi_logs()
    at = _start()
    at.file_uploader(key="upload").set_value(files).run()
    _ok(at)
    graded = at.session_state["scorio_dataset"].full
    assert graded.C == 2
    box = at.text_input(key="load_correct")
    w = widget(LoadOptions, "correct")
    assert (box.label, box.help) == (w["label"], w["help"]) == ("Correct outcomes", w["help"])
    assert w["label"] in [e.label for e in at.sidebar.expander]
    box.input("X").run()
    assert "correct names 'X', which is no category of these data" in at.error[0].value
    at.text_input(key="load_correct").input("C").run()
    _ok(at)
    o = at.session_state["scorio_dataset"].full
    assert o.is_binary and np.array_equal(o.R, (graded.R == 2).astype(int))
    changed = next(i.value for i in at.info if "What the loader changed" in i.value)
    assert "Outcomes made binary: `C (correct)` count as correct (1)" in changed
    at.text_input(key="load_correct").input("").run()
    at.text_input(key="load_correct_from").input("0.5").run()
    _ok(at)
    o = at.session_state["scorio_dataset"].full
    assert np.array_equal(o.R, (graded.R >= 1).astype(int))  # P and C



def test_the_import_report_shows_ours_as_scored_beside_the_harness_and_ours_as_loaded():
    """With *Correct from score* set, the import report's *ours (mean)* was the mean after
    the threshold (0.6667 beside Inspect's 0.8333: a reader took the import for wrong) and
    with *Correct outcomes* the mean before it (not what the Leaderboard then showed). The
    table keeps *ours (mean)* as the log scores it -- Inspect's own number -- and adds *ours
    (as loaded)*, the Leaderboard's score, whose caption names the box that changed it."""
    from scorio_core import io

    d = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect" / "task_args"
    files = [(p.name, p.read_bytes(), "application/zip") for p in sorted(d.glob("*.eval"))]
    at = _start()
    at.file_uploader(key="upload").set_value(files).run()
    _ok(at)
    table = next(x.value for x in at.dataframe if "harness value" in x.value.columns)
    assert io.LOADED_COLUMN not in table.columns  # no option changed the outcomes
    assert table["ours (mean)"].tolist() == table["harness value"].tolist()
    at.text_input(key="load_correct_from").input("0.75").run()
    _ok(at)
    o = at.session_state["scorio_dataset"].full
    table = next(x.value for x in at.dataframe if "harness value" in x.value.columns)
    assert table["ours (mean)"].tolist() == table["harness value"].tolist()
    for _, row in table.iterrows():  # the Leaderboard's score of that model and benchmark
        view = o.select(row["benchmark"])
        mean = np.asarray(view.weights)[view.R[view.models.index(row["model"])]].mean()
        assert row[io.LOADED_COLUMN] == f"{mean:.4f}", row
    assert (table[io.LOADED_COLUMN] != table["ours (mean)"]).any()
    caption = next(c.value for c in at.caption if "*ours (mean)*" in c.value)
    assert "*ours (as loaded)*: the same model and benchmark in the data as loaded, after " \
        "`0.75` in **Correct from score** changed the outcomes" in caption, caption
    assert "correct_from" not in caption and "--" not in caption

def test_the_refusal_and_the_caveats_name_the_upload_boxes_not_keywords_or_flags():
    """On Inspect's C/P/I logs the analyses' refusal named each option three ways
    ("correct=['C'] / --correct C (in the app: C in Correct outcomes, ...)"): an app reader
    got two syntaxes no box takes. The page renders the core's one text with the boxes
    (``app_text``); loaded with C counted correct, the Caveats say which box did it."""
    from app_state.texts import app_text
    from scorio_core.definitions import ANALYSES

    files = _cpi_logs()
    at = _start()
    at.file_uploader(key="upload").set_value(files).run()
    _ok(at)
    view = at.session_state["scorio_dataset"].view
    at.switch_page("app_pages/stability.py").run()
    _ok(at)
    (shown,) = [w.value for w in at.warning if "needs binary outcomes" in w.value]
    assert shown == app_text(ANALYSES["stability"].refusal(view))
    assert shown.endswith("to run Stability: `C` in **Correct outcomes**, among the upload's "
                          "options; `0.5` in **Correct from score** counts P (partial) correct "
                          "too."), shown
    for other in ("correct=", "correct_from=", "--correct", "in the app"):
        assert other not in shown, (other, shown)
    at.text_input(key="load_correct").input("C").run()
    at.switch_page("app_pages/leaderboard.py").run()
    _ok(at)
    # the leaderboard's Caveats and its Pass@k curves' (binary data now)
    caveats = {m.value for m in at.markdown if m.value.startswith("- Outcomes made binary")}
    assert caveats == {"- Outcomes made binary (`C` in **Correct outcomes**): C (correct) counts "
                       "as correct (1); I (incorrect), P (partial) as wrong (0)."}, caveats


def test_a_continuous_upload_is_told_the_rounding_box_that_loads_it():
    """A table of continuous scores was refused with "round_grades=11 / --round-grades 11
    (...; 'Round grades to' in the app), or ... correct_from=T / --correct-from T": two
    syntaxes no box takes. The sidebar's error names the boxes, with the values to enter;
    entering 11 in the box it names loads the table, and the Leaderboard's Caveats say which
    box rounded the scores."""
    from app_state.texts import app_text

    values = np.random.default_rng(2).random((2, 20)).round(4)
    rows = [f"{m},q{j},0,{values[i, j]}" for i, m in enumerate("AB") for j in range(20)]
    csv = ("model,question,trial,outcome\n" + "\n".join(rows) + "\n").encode()
    at = _start()
    at.file_uploader(key="upload").set_value(("cont.csv", csv, "text/csv")).run()
    assert not at.exception, [e.value for e in at.exception]
    (msg,) = [e.value for e in at.error]
    assert "round them: `11` in **Round grades to** (levels 0, 0.1, ..., 1), or count a score " \
        "of at least a threshold correct, e.g. `0.5` in **Correct from score**; or use" in msg
    for other in ("round_grades", "correct_from", "--", "in the app", "=T"):
        assert other not in msg, (other, msg)
    at.text_input(key="load_round_grades").input("11").run()
    _ok(at)
    o = at.session_state["scorio_dataset"].full
    np.testing.assert_allclose(o.weights[o.R[:, :, 0]], np.floor(values * 10 + 0.5) / 10,
                               atol=1e-12)
    at.switch_page("app_pages/leaderboard.py").run()
    _ok(at)
    (caveat,) = [m.value for m in at.markdown if m.value.startswith("- Graded scores rounded")]
    assert caveat == "- " + app_text(o.load_notes[0]) + "." == (
        "- Graded scores rounded to the nearest of 11 levels (`11` in **Round grades to**): "
        "0, 0.1, ..., 1; 11 categories, each weighted by its level.")


def test_the_import_reports_notes_name_the_upload_boxes():
    """The import report's notes on Inspect logs of dict-valued scores said "(choose with
    scorer= / --scorer NAME)" and "model_prefix='keep' / --model-prefix keep keeps them".
    The Data page shows them with the boxes that do it, in the notes and in the files'
    table, and the box it names reads the other scorer."""
    d = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect" / "dict_scores"
    files = [(p.name, p.read_bytes(), "application/zip") for p in sorted(d.glob("*.eval"))]
    at = _start()
    at.file_uploader(key="upload").set_value(files).run()
    _ok(at)
    notes = [i.value for i in at.info]
    # each log's own note names the logs it is said of (both here), the box that does it
    scorers = next(n for n in notes if "2 scorers" in n)
    head, said = scorers.split(": ", 1)
    assert head in {f"each of 2 files ({a}, {b})" for a, b in (
        [f[0] for f in files], [f[0] for f in files][::-1])}, scorers
    assert said.startswith("2 scorers (exact, near); used the first, 'exact' (choose "
                           "another, e.g. `near` in **Scorer (logs)**)"), scorers
    assert any(n.endswith("; `keep` in **Provider prefixes** keeps them") for n in notes), notes
    table = next(x.value for x in at.dataframe if "harness value" in x.value.columns)
    assert all("near in 'Scorer (logs)'" in n and "keep in 'Provider prefixes'" in n
               for n in table["notes"]), table["notes"].tolist()
    for text in [*notes, *table["notes"]]:
        assert "scorer=" not in text and "--" not in text and "model_prefix" not in text, text
    from scorio_core import io

    at.text_input(key="scorer").input("near").run()
    _ok(at)
    o = at.session_state["scorio_dataset"].full
    assert np.array_equal(o.R, io.load(d, scorer="near").R)


def test_an_lm_eval_task_yaml_dropped_on_the_uploader_gets_the_loaders_own_refusal():
    """The uploader's file types left out ``.yaml``/``.yml``: an lm-eval task definition
    dropped on it was refused by the widget as a file type it does not take, never reaching
    the loader, which recognises a task definition and says what to run to get logs. The
    widget takes both spellings, and the page shows the loader's words: the ``lm_eval``
    command that writes logs, with the task named."""
    from fixtures.harness import generate

    from app_pages._common import UPLOAD_TYPES
    from scorio_core.io import LOADED_SUFFIXES
    from scorio_core.io.lm_eval import TASK_SUFFIXES

    # every file the loader reads (its one list), and the definitions it refuses with advice
    assert UPLOAD_TYPES == [s.lstrip(".") for s in (*LOADED_SUFFIXES, *TASK_SUFFIXES)]
    at = _start()
    uploader = at.file_uploader(key="upload")
    assert {".yaml", ".yml"} <= set(uploader.allowed_type)
    one = generate.TASKS["qa_one"].format(data="docs.jsonl").encode()
    uploader.set_value(("qa_one.yaml", one, "application/yaml")).run()
    assert not at.exception, [e.value for e in at.exception]
    (said,) = [e.value for e in at.error]
    assert ("qa_one.yaml: this file is an lm-eval task definition (qa_one.yaml), not logs; "
            "run lm-eval with --log_samples --output_path DIR") in said, said
    assert "lm_eval --model hf" in said and "--tasks qa_one --log_samples" in said, said
    # several definitions at once (a folder's YAMLs, both spellings): one refusal naming each
    rep = generate.TASKS["qa_rep"].format(data="docs.jsonl").encode()
    at.file_uploader(key="upload").set_value([("qa_one.yaml", one, "application/yaml"),
                                              ("qa_rep.yml", rep, "application/yaml")]).run()
    (said,) = [e.value for e in at.error]
    assert "qa_one.yaml, qa_rep.yml: these are lm-eval task definitions" in said, said
    assert "--tasks qa_one,qa_rep --log_samples" in said, said
