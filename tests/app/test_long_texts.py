"""Long texts read as cut and can be read whole (AppTest; the browser's view of the same
pages at 1024 and 1280 px: ``test_long_texts_browser.py``).

The Data page's import report clipped a log's file name and its notes at the column's edge
without a mark; the Leaderboard's select box clipped a pair of 70-character names at its
arrow and its Pair-view button wrapped them over two lines; the Method comparison's five
metrics sat in equal columns that cut a seven-character value at 1024 px.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
from _apptest import start
from _long_names import LONG_A, LONG_B, close_three, two_long_leaders
from streamlit.testing.v1 import AppTest

from app_pages import _widgets
from app_pages._common import UPLOAD, UPLOAD_KEY
from app_state.table_fit import BUTTON_PX, SELECT_PX, cut_text, text_px
from scorio_core.formatting import md_name

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
LOGS = ROOT / "tests" / "fixtures" / "harness" / "inspect"


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _upload(path: Path) -> AppTest:
    at = start(APP, UPLOAD, 120)
    at.session_state[UPLOAD_KEY] = {"filename": path.name, "data": path.read_bytes()}
    at.run()
    _ok(at)
    return at


def _drawn(table) -> pd.DataFrame:
    """What the grid draws in each cell of ``table`` (an AppTest dataframe): a Styler's
    display values where the page sent one, else the cells as they are."""
    styler = table.proto.arrow_data.styler
    if not styler.display_values:
        return table.value
    return pa.ipc.open_stream(styler.display_values).read_all().to_pandas()


def test_the_import_reports_long_file_names_and_notes_read_cut_and_whole():
    """An Inspect log's file name (61 characters) and its notes (a paragraph) were clipped at
    the column's edge without a mark: each now ends in "…" where cut, the cell keeps the
    whole text (a click shows it), the header says so, and every note is said in full under
    the table."""
    log = next((LOGS / "reducer").glob("*.eval"))
    at = _upload(log)
    parts = [d for d in at.dataframe if "harness value" in d.value.columns]
    assert parts
    config = json.loads(parts[0].proto.columns)
    full, drawn = parts[0].value, _drawn(parts[0])
    assert full["file"].tolist() == [log.name]  # the cell: the whole name
    for c in ("file", "notes"):
        width = config[c]["width"]
        assert text_px(full[c].iloc[0]) > width  # wider than its column ...
        assert drawn[c].iloc[0] == cut_text(full[c].iloc[0], width)  # ... drawn cut
        assert drawn[c].iloc[0].endswith("…") and len(drawn[c].iloc[0]) > 20
        assert config[c]["help"].endswith(_widgets.CUT_TEXT_HELP), config[c]
    assert "in full under the table" in config["notes"]["help"]
    for c in ("model", "model_in_log", "scorer", "harness"):  # short texts as they are
        assert drawn[c].tolist() == full[c].tolist(), c
        assert "cut" not in config.get(c, {}).get("help", ""), c
    said = " ".join(i.value for i in at.info)
    for note in full["notes"].iloc[0].split("; "):
        words = note.split(" (")[0].replace("'", "")  # as the page words it, up to an aside
        assert words[:40] in said.replace("'", "").replace("**", "").replace("`", ""), note


def test_a_text_column_is_cut_only_where_the_page_narrows_it():
    """``grid_data`` marks a text column's cut cells only when told (``texts``): a model name
    always; a text whose row wraps (the Pair page's outputs) stays whole for the grid."""
    t = pd.DataFrame({"model": ["a"], "note": ["x" * 80], "n": [1.5]})
    cfg = {"note": {"width": 120}}
    data, _ = _widgets.grid_data(t, cfg)
    assert isinstance(data, pd.DataFrame)  # not told: as it is
    data, said = _widgets.grid_data(t, cfg, texts=["note"])
    assert data.data["note"].iloc[0] == "x" * 80  # the cell keeps it
    assert f">{cut_text('x' * 80, 120)}<" in data.to_html()
    assert said["note"]["help"] == _widgets.CUT_TEXT_HELP


def test_the_leaderboards_pair_controls_fit_one_line(tmp_path):
    """Two 70-character names: the select box's pairs and the Pair-view button's label each
    fit one line of a 1024 px window's column, the names cut in the middle; the button's
    help names the pair whole, and it opens the Pair view on the whole names."""
    at = _upload(two_long_leaders(tmp_path / "two_long.csv"))
    at.switch_page("app_pages/leaderboard.py").run()
    _ok(at)
    pick = at.selectbox(key="lb_pair_pick")
    assert pick.value == (LONG_A, LONG_B)  # the top two, undecided: the first pair
    shown = pick.options  # each pair as the box writes it
    assert all(text_px(s) <= SELECT_PX for s in shown), shown
    assert shown[0].startswith(LONG_A.split("-")[0]) and shown[0].endswith(LONG_B[-10:])
    assert shown[0].count("…") == 2 and " vs " in shown[0]
    button = at.button(key="lb_pair")
    assert text_px(button.label) <= BUTTON_PX < text_px(f"Pair view: {LONG_A} vs {LONG_B}")
    head, tail = LONG_A.split("-")[0], LONG_B.split("-")[-1]
    assert button.label.startswith(f"Pair view: {head}") and button.label.endswith(tail)
    assert button.help.endswith(f": {md_name(LONG_A)} vs {md_name(LONG_B)}")  # as written
    button.click().run()
    _ok(at)
    assert [at.selectbox(key=k).value for k in ("pair_a", "pair_b")] == [LONG_A, LONG_B]


def test_short_names_keep_the_pair_button_as_it_was():
    """Names that fit: the label names them whole and the help adds nothing."""
    at = start(APP, "biased_coins", 120, page="app_pages/leaderboard.py")
    _ok(at)
    a, b = at.selectbox(key="lb_pair_pick").value
    button = at.button(key="lb_pair")
    assert button.label == f"Pair view: {a} vs {b}"
    assert button.help == "question by question, with their completions side by side"


def _metric_in_columns(at: AppTest) -> bool:
    return any(len(c.get("metric")) for c in at.columns)


def test_the_method_comparisons_metrics_are_as_wide_as_their_text(tmp_path):
    """Five metrics in equal columns of a 1024 px window cut a value of seven characters
    ("-0.8165"): they sit in a row that wraps, each as wide as its label and value, each
    with the summary's declared help."""
    from scorio_core.definitions.compare import COMPARE

    at = _upload(close_three(tmp_path / "close.csv"))
    at.switch_page("app_pages/methods.py").run()
    _ok(at)
    shown = {m.label: m for m in at.metric}
    assert list(shown) == ["mean τ_b", "median τ_b", "min τ_b", "#(τ_b = 1)", "#(τ_b ≥ 0.95)"]
    assert shown["min τ_b"].value.startswith("-")  # the long value this test is about
    said = COMPARE.column_help("summary")
    assert [m.help for m in shown.values()] == [
        said[k] for k in ("mean", "median", "min", "n_tau_1", "n_tau_ge_0.95")]
    assert not _metric_in_columns(at)


def test_the_pair_and_questions_model_boxes_cut_long_names_in_the_middle(tmp_path):
    """The Pair page's model boxes (halves) and the Questions page's "Open a pair from a cell"
    boxes clipped a 70-character name at their arrow without a mark: each option now fits its
    box, a long name cut in its middle with "…" (start and end kept), a short one whole, and
    the value chosen is still the whole name."""
    from app_state.table_fit import select_px

    at = _upload(two_long_leaders(tmp_path / "two_long.csv"))
    at.switch_page("app_pages/pair.py").run()
    _ok(at)
    for key in ("pair_a", "pair_b"):
        box = at.selectbox(key=key)
        assert all(text_px(s) <= select_px(1 / 2, 2) for s in box.options), box.options
        cut = [s for s in box.options if "…" in s]
        assert len(cut) == 2 and "alpha-7b" in box.options, box.options
        for s in cut:  # each a long name's start and end
            head, tail = s.split("…")
            assert any(n.startswith(head) and n.endswith(tail) for n in (LONG_A, LONG_B)), s
        assert box.value in (LONG_A, LONG_B)  # the whole name, as the analysis reads it
    at.switch_page("app_pages/questions.py").run()
    _ok(at)
    model, other = at.selectbox(key="qv_cell_model"), at.selectbox(key="qv_cell_other")
    room = select_px(3 / 5, 2)
    for box in (model, other):
        assert all(text_px(s) <= room for s in box.options), box.options
    assert any("…" in s for s in model.options) and "alpha-7b" in model.options
    assert all(s.endswith(")") and " (" in s for s in other.options), other.options
    assert model.value in (LONG_A, LONG_B, "alpha-7b", "beta-13b-chat")


def test_names_alike_but_where_they_are_cut_read_apart_in_every_table_and_box(tmp_path):
    """Two Llama names that differ in their middle only and two Claude 3.5 Sonnets that
    differ at their end only: the per-subset table, its names narrowed to keep two parts,
    showed both Llamas as "meta-llama/Meta-Llama-3.1-…", the undecided pairs both Sonnets as
    "claude-3-5-sonnet-202…" in one row (``better`` and ``next``), and the pair box and
    button both Llamas as "meta-llama/Met…-2026-01-release" -- a reader could not tell whose
    row was whose. Now no name drawn cut could be another name of its table (any column) or
    box (:func:`app_state.table_fit.could_be`): a cut name is its start and "…", and where
    that could be another, the stretch where it differs and its end."""
    from _long_names import LOOK_ALIKE, look_alike

    from app_state.table_fit import could_be, name_columns, table_names

    def apart(shown: str, name: str, names) -> bool:
        return not any(could_be(shown, m) for m in names if m != name)

    at = _upload(look_alike(tmp_path / "alike.csv"))
    pages = {"leaderboard": ("lb_pair_pick",), "pair": ("pair_a", "pair_b"),
             "questions": ("qv_cell_model",)}
    cut_seen, offered = 0, {}
    for page, boxes in pages.items():
        at.switch_page(f"app_pages/{page}.py").run()
        _ok(at)
        for table in at.dataframe:
            full, drawn = table.value, _drawn(table)
            every = table_names(full)
            for c in name_columns(full):
                for f, d in set(zip(full[c].astype(str), drawn[c].astype(str), strict=True)):
                    cut_seen += d != f
                    assert could_be(d, f) and apart(d, f, every), (page, c, f, d)
        for key in boxes:
            box = at.selectbox(key=key)
            offered[key] = box.options
            assert len(set(box.options)) == len(box.options), (page, key, box.options)
        for b in at.button:
            if b.label.startswith("Pair view: "):
                a, z = b.label.removeprefix("Pair view: ").split(" on ")[0].split(" vs ")
                assert not (could_be(a, z) or could_be(z, a)), b.label
    assert cut_seen  # the narrowed per-subset table and the pairs' names were cut
    for key in ("pair_a", "pair_b", "qv_cell_model"):  # each option: its own model only
        assert all(sum(could_be(o, m) for m in LOOK_ALIKE) == 1 for o in offered[key]), (
            key, offered[key])
    for label in offered["lb_pair_pick"]:
        a, z = label.split(" vs ")
        assert not (could_be(a, z) or could_be(z, a)), label
