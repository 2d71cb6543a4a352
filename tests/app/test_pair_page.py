"""AppTest of the Pair page: on an Inspect upload it shows the chosen question's completions
of both models (plain text), the numbers of the pair definition, and it is reached from a
link with the models in the URL and from the Leaderboard; on a HELM run with thinking,
annotations and prompts it shows every text of a trial, and in a browser at 1024 px its
tables fit the page's column."""

from __future__ import annotations

import json
import re
import zipfile
from io import BytesIO
from pathlib import Path

import pandas as pd
import pytest
from _apptest import code_cell
from fixtures.helm_runs import ANNOTATIONS, THINKING, annotated_run, helm_run
from streamlit.testing.v1 import AppTest

from app_pages._common import UPLOAD, UPLOAD_KEY
from scorio_core.engines.questions import question_stats

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAIR = "app_pages/pair.py"
TEXTS = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect" / "texts"


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _upload_texts() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["dataset"] = UPLOAD
    at.session_state[UPLOAD_KEY] = {
        "filename": "2 files", "files": {p.name: p.read_bytes() for p in TEXTS.glob("*.eval")}}
    at.run()
    at.switch_page(PAIR).run()
    _ok(at)
    return at


def _helm_zip(tmp_path: Path) -> bytes:
    """The HELM runs of alpha (edited to carry thinking, annotations and chat or multimodal
    prompts) and beta (as helm-run wrote it), zipped as a user uploads a folder."""
    annotated_run(tmp_path)
    helm_run(tmp_path, "beta")
    buf = BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for f in sorted(tmp_path.rglob("*")):
            if f.is_file():
                zf.write(f, f.relative_to(tmp_path))
    return buf.getvalue()


def _frame(at: AppTest, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


def _says_the_summary_of(at: AppTest, a: str, b: str) -> pd.DataFrame:
    """The page's summary is the pair definition's (``sc.pair``'s, as a report shows it:
    ``shown_tables``): its numbers in the table, t and the p-value as the CLI writes them;
    each scope's verdict and estimand not a column (a cell of a 1024 px window's column cut
    them) but a line of their own under it, whole; under it too the view's line (the two
    names), what lo–hi are (the interval's confidence, no multiplicity control) and the
    "Columns:" legend of the columns shown, each header with its help. Returns the table."""
    import scorio_core as sc
    from app_state.texts import core_cells, spelled_columns
    from scorio_core.definitions.pair import PAIR as PAIR_DEF
    from scorio_core.definitions.pair import interval_note
    from scorio_core.display import column_meanings, legend_markdown

    r = sc.pair(at.session_state["scorio_dataset"].view, a=a, b=b)
    view = PAIR_DEF.shown_tables(r)["summary"]
    want = view.table
    parts = [d for d in at.dataframe if "p_value" in d.value.columns]
    got = parts[0].value
    shown = [c for d in parts for c in d.proto.column_order]
    main = [c for c in want.columns if c not in ("verdict", "estimand")]
    assert list(dict.fromkeys(shown)) == main, shown  # two parts, each repeating scope
    # the numbers as such; t, the p-value and a column with a cell the core spells
    # (P(a > b) = 1: >0.9999) in the CLI's and the reports' words
    spelled = ["t", "p_value", *spelled_columns(want)]
    assert got[spelled].equals(core_cells(want, spelled)[spelled]), got[spelled]
    numbers = [c for c in main if c not in spelled]
    assert {"score_a", "diff", "se", "lo", "hi", "df"} <= set(numbers)
    pd.testing.assert_frame_equal(got[numbers], want[numbers])
    assert all(re.fullmatch(r"−?\d+\.\d{2}|∞|−∞|—", v) for v in got["t"]), got["t"]
    assert all(re.fullmatch(r"<0\.0001|\d\.\d{4}|—", v) for v in got["p_value"])
    said = [m.value for m in at.markdown]
    for row in want.itertuples():  # whole, in a list under the table
        assert (f"- **{row.scope}** scope — verdict: {row.verdict}; estimand: {row.estimand}"
                in said), said
    legend = legend_markdown(main, PAIR_DEF.column_help("summary"))
    captions = [c.value for c in at.caption]
    lines = [view.note, interval_note(r.comparison.confidence), legend]
    assert [captions.count(x) for x in lines] == [1, 1, 1], captions
    assert [captions.index(x) for x in lines] == sorted(captions.index(x) for x in lines)
    assert "without the leaderboard's multiplicity control" in lines[1]
    config = json.loads(parts[0].proto.columns)
    meant = column_meanings(parts[0].proto.column_order, PAIR_DEF.column_help("summary"))
    assert meant and all(config[c]["help"] == m for c, m in meant.items()), config
    return got


def test_pair_page_shows_the_questions_completions_on_an_inspect_upload():
    at = _upload_texts()
    assert [at.selectbox(key=k).value for k in ("pair_a", "pair_b")] == ["alpha", "beta"]
    summary = _says_the_summary_of(at, "alpha", "beta")
    assert list(summary["scope"]) == ["questions", "population"]
    # the chosen question (default: the top driver, question 2): R's scores, the logs' texts
    at.selectbox(key="pair_question").set_value("3").run()
    _ok(at)
    flips = _frame(at, "flip")  # two rows per trial, alpha's above beta's: the report's view
    # each trial numbered as the log numbers it: Inspect epochs 1..3, never 0..2 beside them
    assert list(flips["model"]) == ["alpha", "beta"] * 3 and list(flips["trial"]) == [1, 1, 2,
                                                                                     2, 3, 3]
    assert list(flips["answer"][::2]) == ["=HYPERLINK(\"x\") 6", "6", "6"]
    assert list(flips["answer"][1::2]) == ["6\n\nbecause | pipes |", "7", "**6**"]
    assert "output" not in flips and not any(c.endswith(("_a", "_b")) for c in flips)
    assert any(c.value.startswith("Question 3: one row per trial and model, alpha's above "
                                  "beta's") and "output is left out" in c.value
               for c in at.caption)
    shown = [c.value for c in at.code]
    assert "What is 3 + 3?" in shown  # the input, as plain text
    assert '=HYPERLINK("x") 6' in shown  # trial 0's answer of alpha, verbatim (st.code)
    assert "6\n\nbecause | pipes |" in shown  # and beta's, beside it
    assert not any("<b>" in m.value for m in at.markdown)  # log text never as Markdown
    at.select_slider(key="pair_trial").set_value(2).run()  # the third, epoch 3
    _ok(at)
    assert "**6**" in [c.value for c in at.code]  # beta's epoch 3: not bold, as written
    assert any(m.value.startswith("**beta** · trial 3 · ") for m in at.markdown)
    assert "sc.pair(data, a=" in code_cell(at, "sc.pair(")


def test_pair_page_trial_ids_are_numbers_like_the_trials():
    """The file's trial ids (Inspect epochs 1, 2, 3) were left-aligned text beside the
    right-aligned trial column, and sorted as text (10 before 2): now a number column. And
    the page showed two numberings, ``trial`` 0..2 beside ``trial_id`` 1..3 (the repeats
    grouped listing the first): now one, the log's epoch, said in the line under the table
    and on the trial picker."""
    at = _upload_texts()
    table = next(d for d in at.dataframe if "flip" in d.value.columns)
    flips, config = table.value, json.loads(table.proto.columns)
    ids = flips["trial"]
    assert pd.api.types.is_integer_dtype(ids), ids.dtype
    assert sorted(set(ids)) == [1, 2, 3] and "trial_id" not in flips  # epochs, for both
    assert config["trial"]["type_config"]["type"] == "number"
    assert any("trial = the sample's epoch in the Inspect log" in c.value for c in at.caption)
    groups = next(d.value for d in at.dataframe if "repeats" in d.value.columns)
    listed = {int(t) for x in groups["trials"] for t in str(x).split(", ")}
    assert listed == {1, 2, 3}  # the repeats grouped name the same epochs
    slider = at.select_slider(key="pair_trial")
    assert list(slider.options) == ["1", "2", "3"]  # the positions 0..2, shown as epochs


def test_pair_page_from_a_link_and_from_the_leaderboard():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["dataset"] = "biased_coins"
    at.query_params["pair.a"] = '"LLM_3"'
    at.query_params["pair.b"] = '"LLM_7"'
    at.run()
    at.switch_page(PAIR).run()
    _ok(at)
    assert [at.selectbox(key=k).value for k in ("pair_a", "pair_b")] == ["LLM_3", "LLM_7"]
    assert any("no completion texts" in i.value for i in at.info)  # an .npz: scores only
    assert at.query_params["pair.a"] == '"LLM_3"'  # the view's link keeps the pair
    # from the Leaderboard: the button opens the page on its top two models
    at.switch_page("app_pages/leaderboard.py").run()
    board = next(d.value for d in at.dataframe if "rank_chain" in d.value.columns)
    top = list(board["model"][:2])
    pick = at.selectbox(key="lb_pair_pick")
    assert f"{top[0]} vs {top[1]}" in pick.options  # besides the undecided neighbours
    pick.set_value(tuple(top)).run()
    at.button(key="lb_pair").click().run()
    _ok(at)
    assert [at.selectbox(key=k).value for k in ("pair_a", "pair_b")] == top


def test_pair_page_from_a_questions_heatmap_cell():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["dataset"] = "biased_coins"
    at.run()
    at.switch_page("app_pages/questions.py").run()
    _ok(at)
    stats = question_stats(at.session_state["scorio_dataset"].view)
    model, question = stats.models[-1], stats.questions[len(stats.questions) // 2]
    at.selectbox(key="qv_cell_model").set_value(model).run()
    at.selectbox(key="qv_cell_question").set_value(question).run()
    other = at.selectbox(key="qv_cell_other").value
    # the default partner differs most from the model on that question
    i, q = stats.models.index(model), stats.questions.index(question)
    gaps = {m: abs(stats.score[k, q] - stats.score[i, q]) for k, m in enumerate(stats.models)}
    assert gaps[other] == max(g for m, g in gaps.items() if m != model)
    at.button(key="qv_cell_pair").click().run()
    _ok(at)
    assert [at.selectbox(key=k).value for k in ("pair_a", "pair_b")] == [model, other]
    assert at.selectbox(key="pair_question").value == question


def test_pair_page_says_a_pair_decided_beyond_doubt_as_the_cli_does():
    """One model right on every trial, the other never: both scopes decided, the p-value
    <0.0001 (a number column wrote 0.0000), the verdict said whole under the table."""
    import io as pyio

    import numpy as np

    from scorio_core import Outcomes
    from scorio_core.io import save_table

    R = np.zeros((2, 12, 3), int)
    R[0] = 1
    buf = pyio.BytesIO()
    save_table(Outcomes(R, models=["sure", "never"]), buf, format="csv")
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["dataset"] = UPLOAD
    at.session_state[UPLOAD_KEY] = {"filename": "decided.csv", "data": buf.getvalue()}
    at.run()
    at.switch_page(PAIR).run()
    _ok(at)
    summary = _says_the_summary_of(at, "sure", "never")
    assert summary["p_value"].tolist() == ["<0.0001", "<0.0001"]
    assert [m.value for m in at.markdown if m.value.startswith("- **")][:2] == [
        f"- **{s}** scope — verdict: sure better; estimand: {e}"
        for s, e in zip(summary["scope"], summary["estimand"], strict=True)]


def test_pair_page_captions_name_what_data_without_texts_show():
    """On scores alone the flips caption promised "from the logs, its answer" and the repeats
    caption "each model's distinct answers" over a table grouped by category; the questions
    table listed only the leader's first 20 (its cumulative never reached the mean gap). The
    summary and the questions are the pair definition's tables (``_render.table``), the
    questions every one of them, said as the page says them (:func:`_says_the_summary_of`)."""
    import scorio_core as sc
    from app_state.texts import questions_caption
    from scorio_core.definitions.pair import PAIR as PAIR_DEF
    from scorio_core.display import legend_markdown

    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["dataset"] = "biased_coins"
    at.run()
    at.switch_page(PAIR).run()
    _ok(at)
    said = [c.value for c in at.caption]
    assert not [c for c in said if "from the logs" in c or "distinct answers" in c], said
    assert any(c.startswith("The repeats grouped: each model's categories") for c in said)
    groups = next(d.value for d in at.dataframe if "repeats" in d.value.columns)
    assert "category" in groups.columns and "answer" not in groups.columns
    data = at.session_state["scorio_dataset"].view
    a, b = (at.selectbox(key=k).value for k in ("pair_a", "pair_b"))
    summary = _says_the_summary_of(at, a, b)
    # every question, not the rows a report prints beside the chart: the definition's
    # table (sc.pair's), its running total ending on the summary's difference
    q = next(d for d in at.dataframe if "cumulative" in d.value.columns)
    want = sc.pair(data, a=a, b=b).comparison.questions
    assert len(q.value) == data.M and list(q.proto.column_order) == list(want.columns)
    pd.testing.assert_frame_equal(q.value.reset_index(drop=True), want.reset_index(drop=True),
                                  check_dtype=False)
    assert abs(float(q.value["cumulative"].iloc[-1]) - float(summary["diff"].iloc[0])) < 1e-9
    assert questions_caption(data.M) in said  # said under it, with the legend after
    legend = legend_markdown(list(want.columns), PAIR_DEF.column_help("questions"))
    assert said.index(questions_caption(data.M)) < said.index(legend)


def _column_of(at: AppTest, key: str):
    return next((c for c in at.columns
                 if any(getattr(k, "key", None) == key for k in c.children.values())), None)


def test_open_a_pair_boxes_have_room_for_what_they_show():
    """In four columns of 2:3:2:3 the "Compare with" box cut its label ("gpt-35-turbo
    (-0.(") and the Pair-view button its own ("Pair view: gemini-1.5-pre…"): the box now
    gets the widest column and the button a row of its own."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["dataset"] = "biased_coins"
    at.run()
    at.switch_page("app_pages/questions.py").run()
    _ok(at)
    w = {k: _column_of(at, k).weight for k in ("qv_cell_model", "qv_cell_question",
                                               "qv_cell_other")}
    assert w["qv_cell_other"] == max(w.values()) and w["qv_cell_other"] > w["qv_cell_question"]
    assert at.button(key="qv_cell_pair") is not None and _column_of(at, "qv_cell_pair") is None


def test_pair_page_on_pooled_benchmarks_says_each_questions_benchmark():
    """The bundled reasoning data pool 4 benchmarks: the questions table and the question box
    say which benchmark each question comes from; with one benchmark chosen, neither repeats
    its name."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["dataset"] = "reasoning_synthetic"
    at.run()
    at.switch_page(PAIR).run()
    _ok(at)
    data = at.session_state["scorio_dataset"].view
    bench = dict(zip(data.questions, data.benchmarks, strict=True))
    q = _frame(at, "cumulative")
    assert q["benchmark"].tolist() == [bench[x] for x in q["question"]]
    assert q["benchmark"].nunique() == 4 and len(q) == data.M
    labels = at.selectbox(key="pair_question").options
    top = q["question"].iloc[0]
    assert labels[0] == f"the one that drives the gap most ({top} · {bench[top]})"
    assert all(label.startswith(f"{x} · {bench[x]}  (difference ")
               for x, label in zip(q["question"], labels[1:], strict=True))
    at.selectbox(key="benchmark").set_value("AIME'25").run()
    _ok(at)
    q = _frame(at, "cumulative")
    assert "benchmark" not in q.columns and len(q) == 30
    assert not any(" · " in label for label in at.selectbox(key="pair_question").options)


def test_pair_page_shows_every_text_of_a_trial_once(tmp_path):
    """The full-text panel showed answer, output, explanation and error only: a HELM run's
    thinking ('reasoning'), annotations and prompt sent were in the store and never shown.
    Now every text the store has for the trial, in the store's order, a row per text so the
    two models' outputs stand side by side; the question's input and target once, above."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["dataset"] = UPLOAD
    at.session_state[UPLOAD_KEY] = {"filename": "helm.zip",
                                    "files": {"helm.zip": _helm_zip(tmp_path)}}
    at.run()
    at.switch_page(PAIR).run()
    at.selectbox(key="pair_question").set_value("id60").run()
    _ok(at)
    codes = [c.value for c in at.code]
    assert codes.count("Is 70 even or odd?") == 1 and codes.count("Even") == 1  # input, target
    said = [c.value for c in at.caption]
    panel = said[said.index("reasoning"):said.index("prompt") + 2]
    assert panel == ["reasoning", "reasoning: none", "output", "output", "answer", "answer",
                     "annotations", "annotations: none", "prompt", "prompt"]
    assert THINKING[("id60", 0)] in codes
    assert json.loads(next(c for c in codes if c.startswith('{"judge"'))) == \
        ANNOTATIONS[("id60", 0)]
    prompts = [c for c in codes if c.startswith("Answer the following questions")]
    assert len(prompts) == 2 and all(c.endswith("Question: Is 70 even or odd?\nA. Even\nB. "
                                                 "Odd\nAnswer:") for c in prompts)
    # the table: the report's view, every text a column but the whole prompt (in the panel
    # above), the question's texts not repeated; fitted to a 1024 px window's column, the
    # scores and short texts first, the two long texts after them beside the trial and model
    from app_state.table_fit import TEXT_MIN_PX

    parts = [d for d in at.dataframe if "flip" in d.value.columns]
    table = parts[0]
    assert list(table.value.columns) == ["trial", "flip", "model", "category", "score",
                                         "reasoning", "output", "answer", "annotations"]
    assert [list(d.proto.column_order) for d in parts] == [
        ["trial", "model", "flip", "category", "score", "output", "answer"],
        ["trial", "model", "reasoning", "annotations"]]
    # above 4 rem the grid wraps a long text in its row: the long texts' part only
    assert not parts[0].proto.row_height and parts[1].proto.row_height > 64
    widths = json.loads(table.proto.columns)
    text = {"model", "category", "reasoning", "output", "answer", "annotations"}
    assert {c for c, v in widths.items() if v.get("width")} == text  # each text sized
    # the two long texts, each longer than its share, share what the others leave alike
    assert widths["reasoning"]["width"] == widths["annotations"]["width"] >= TEXT_MIN_PX
    # trial 1: alpha's thinking of that trial; no annotation on either side, so no row
    at.select_slider(key="pair_trial").set_value(1).run()
    _ok(at)
    assert THINKING[("id60", 1)] in [c.value for c in at.code]
    assert not [c.value for c in at.caption if c.value.startswith("annotations")]


def _legend_and_help(at: AppTest, column: str, declared: dict) -> None:
    """The table holding ``column``: each header with a declaration has its help, and its
    "Columns:" legend (the notebook's and the reports' text) is on the page once."""
    from scorio_core.display import column_meanings, legend_markdown

    table = next(d for d in at.dataframe if column in d.value.columns)
    shown, config = list(table.value.columns), json.loads(table.proto.columns)
    meant = column_meanings(shown, declared)
    assert meant and set(meant) <= set(shown), (shown, meant)
    helps = {c: config.get(c, {}).get("help") for c in shown}
    # a model name cut with "…" gets the cut's note after its help (grid_data)
    assert all(helps[c] and helps[c].startswith(m) for c, m in meant.items()), helps
    legend = legend_markdown(shown, declared)
    assert legend.startswith("**Columns:**")
    assert [c.value for c in at.caption].count(legend) == 1, legend


def test_pair_page_fitted_tables_say_their_columns_once():
    """The flips with texts and the repeats (fitted to the column) had no help on their headers,
    and the page printed their legends by hand; now each header's help and its "Columns:"
    legend come from the definition's declaration, as for every other table, said once."""
    from scorio_core.definitions.pair import PAIR as PAIR_DEF

    at = _upload_texts()
    flips = _frame(at, "flip")
    assert "answer" in flips and "model" in flips  # the fitted view, with texts
    _legend_and_help(at, "flip", PAIR_DEF.column_help("flips"))
    _legend_and_help(at, "mean_score", PAIR_DEF.column_help("repeats"))
    # on scores alone the repeats are fitted too: a category per row, said the same way
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["dataset"] = "biased_coins"
    at.run()
    at.switch_page(PAIR).run()
    _ok(at)
    _legend_and_help(at, "mean_score", PAIR_DEF.column_help("repeats"))


#: The bundled temperature data on the Pair page: claude-3-opus vs cohere-command-r-plus on
#: q001, where cohere gave no parseable answer on 55 of 100 trials.
TEMPERATURE_Q001 = ('dataset=jhu_llm_temperature&pair.a="claude-3-opus-20240229"'
                    '&pair.b="cohere-command-r-plus"&pair.question="q001"')


def test_pair_page_repeats_show_every_answer_whole():
    """The repeats' answer column was left to the grid, which sized it to the one-letter
    answers: "(no answer recorded)" read "(no answ"; then, fitted to a 1280 px window's
    column, their trial lists ran ``mean_score`` 235 px past a 1024 px window's. Every text
    column now has a width that shows its longest value, fitted to that window's column:
    the numbers first, with each answer whole on one line, and the lists of trials after
    them, each row repeating its model and answer, in rows of four lines."""
    from app_state.table_fit import NARROW_PX, TEXT_MIN_PX, column_px

    at = AppTest.from_file(APP, default_timeout=120)
    for k, v in (x.split("=", 1) for x in TEMPERATURE_Q001.split("&")):
        at.query_params[k] = v
    at.run()
    at.switch_page(PAIR).run()
    _ok(at)
    assert at.selectbox(key="pair_question").value == "q001"
    parts = [d for d in at.dataframe if "repeats" in d.value.columns]
    groups, config = parts[0].value, json.loads(parts[0].proto.columns)
    assert "(no answer recorded)" in set(groups["answer"])
    order = [list(d.proto.column_order) for d in parts]
    assert order == [["model", "answer", "repeats", "mean_score"],
                     ["model", "answer", "trials"]], order
    width = {c: config.get(c, {}).get("width") for c in groups.columns}
    # about 6 px a character in the grid's 14 px font, and 16 px of cell padding
    assert width["answer"] >= 6 * len("(no answer recorded)") + 16, width
    assert width["model"] >= 6 * groups["model"].str.len().max() + 16, width
    assert width["trials"] >= TEXT_MIN_PX, width
    assert not parts[0].proto.row_height and parts[1].proto.row_height > 64  # four lines
    numbers = ("repeats", "mean_score")  # sized by the grid: their header's width or cells'
    drawn = column_px(groups)
    for cols in order:
        assert sum(width[c] if c not in numbers else drawn[c] for c in cols) <= NARROW_PX


@pytest.mark.timeout(600)
def test_pair_page_tables_fit_a_1024px_window(browser, server, tmp_path):
    """At 1280 px (sidebar open) the flips with texts were a 15-column grid that scrolled
    1,945 px sideways on the HELM run (its prompts) and 768 px on the Inspect logs, and the
    summary 355 px (its estimand in words); on the bundled temperature data the repeats ran
    50 px over (their trial lists; ``mean_score`` cut). Fitted to that window's column, at
    1024 px the summary still ran 110 px past the column and the repeats 235 px. Every
    table of the page now fits a 1024 px window's column (the parts are fitted to it
    whatever the window: a wider one's column holds them too) -- the summary in two parts,
    the repeats' trial lists after their numbers -- and the export buttons' labels show
    whole; each scope's verdict and estimand are a line of their own under the summary,
    whole. Measured once every table is drawn (waiting for the charts, it once measured the
    bundled data's tables before their grids were there)."""
    from _browser import CUT_LABELS_JS, WIDE_TABLES_JS, act, settle, tables_drawn

    upload = tmp_path / "helm.zip"
    upload.write_bytes(_helm_zip(tmp_path / "runs"))
    first_parts = """() => Array.from(document.querySelectorAll(
        '[data-testid="stMain"] [data-testid="stCaptionContainer"]'))
        .map(c => c.innerText).filter(t => t.startsWith('Part 1 of'))"""
    # each scope's verdict and estimand: a list item, whole, within the main column
    verdicts = """() => {
        const box = document.querySelector('[data-testid="stMainBlockContainer"]');
        const right = box.getBoundingClientRect().right
            - parseFloat(getComputedStyle(box).paddingRight);
        return Array.from(document.querySelectorAll('[data-testid="stMain"] li'))
          .filter(li => li.innerText.includes(' scope — verdict: '))
          .map(li => [li.innerText, li.scrollWidth - li.clientWidth,
                      Math.round(li.getBoundingClientRect().right - right)]); }"""
    for files in ([upload], sorted(TEXTS.glob("*.eval")), TEMPERATURE_Q001):
        page = browser.new_page(viewport={"width": 1024, "height": 1000})  # a new session
        if files is TEMPERATURE_Q001:  # the repeats ran 235 px over (their trial lists)
            page.goto(f"{server}/pair?{files}")
            settle(page)
        else:  # from the Report page, the lightest before its Build (a second's run)
            page.goto(f"{server}/report")
            settle(page)
            page.get_by_role("combobox", name="Dataset").click()
            act(page, page.get_by_role("option").filter(has_text="Upload a file").first.click)
            drop = page.locator('[data-testid="stFileUploaderDropzoneInput"][multiple]')
            act(page, lambda f=files, d=drop: d.set_input_files(f))
            act(page, page.locator('[data-testid="stSidebarNav"] a[href$="/pair"]').first.click)
        # the export buttons, whose code a session loads when it first shows one (after the
        # run has rendered): each label measured once drawn
        page.get_by_role("button", name="JSON (all tables)").wait_for(timeout=60_000)
        if files is not TEMPERATURE_Q001:
            # six export buttons (the question's texts too) in six equal columns cut
            # four labels, "CSV: questions" and "CSV: question_texts" to "CSV: ques…"
            texts = page.locator('[data-testid="stDownloadButton"]', has_text="question_texts")
            assert texts.count() == 1, files
        shown = tables_drawn(page, 4)  # the summary, the questions, the flips, the repeats
        assert page.evaluate(WIDE_TABLES_JS) == [], files
        assert shown >= 5, files  # the summary in two parts
        parts = page.evaluate(first_parts)
        assert parts[0].startswith("Part 1 of 2: columns score_a"), (files, parts)
        said = page.evaluate(verdicts)
        assert [t.split(" scope")[0] for t, _, _ in said] == ["questions", "population"], said
        assert all("; estimand: " in t and t.endswith(")") and cut <= 0 and past <= 0
                   for t, cut, past in said), said
        if files is TEMPERATURE_Q001:  # the numbers first, the trial lists after them
            assert any("columns repeats … mean_score" in x for x in parts), parts
        assert page.evaluate(CUT_LABELS_JS) == [], files
        page.close()
