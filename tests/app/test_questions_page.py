"""AppTest: the Questions page, the Leaderboard's subset widgets and its Pass@k curves on the
bundled real dataset (uploaded as a user would). Numbers are asserted in the core tests; here
the widgets must reach the definitions' settings and the pages must render."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_pages._common import UPLOAD, UPLOAD_KEY
from scorio_core import charts
from scorio_core.curves import pass_curves
from scorio_core.engines.questions import question_stats

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
JHU = ROOT / "data" / "jhu_llm_temperature.parquet"


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


@pytest.fixture
def at() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.session_state[UPLOAD_KEY] = {"filename": JHU.name, "data": JHU.read_bytes()}
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    assert at.session_state["scorio_dataset"].view.shape == (9, 100, 100)
    return at


def test_questions_page_renders_and_filters(at):
    at.switch_page("app_pages/questions.py").run()
    _ok(at)
    assert len(at.get("vega_lite_chart")) == 2  # heatmap, difficulty × discrimination
    heads = [s.value for s in at.subheader]
    assert "Per subset: source" in heads and "Where models disagree most (top 20)" in heads
    data = at.session_state["scorio_dataset"].view
    top = next(d.value for d in at.dataframe if "disagreement" in d.value.columns)
    want = question_stats(data).disagree(20)
    assert top["question"].tolist() == want["question"].tolist()
    at.selectbox(key="qv_subset").set_value("source=medmcqa").run()
    _ok(at)
    assert at.session_state["_scorio_settings"]["questions"].subset == ("source", ("medmcqa",))
    sub = next(d.value for d in at.dataframe if "disagreement" in d.value.columns)
    assert set(sub["source"]) == {"medmcqa"}


def test_questions_tables_leave_out_columns_blank_in_every_row(at):
    """The disagreement table showed a ``status`` column blank in all 20 rows (informative
    questions have none) -- a header with nothing under it; where some question has one
    (a 2PL slope near 0: no 2PL difficulty) the column stays, with a help saying what it
    means."""
    at.switch_page("app_pages/questions.py").run()
    _ok(at)
    shown = [d for d in at.dataframe if "disagreement" in d.value.columns]
    top = next(d.value for d in shown if len(d.value) == 20)
    assert "status" not in top.columns and {"best", "worst"} <= set(top.columns)
    from scorio_core.engines.questions import STATUS_HELP

    every = next(d for d in shown if len(d.value) == 100)
    assert "no 2PL difficulty" in set(every.value["status"])
    assert STATUS_HELP in every.proto.columns  # the column's help, in the table's config


def test_leaderboard_subset_per_subset_and_curves(at):
    at.switch_page("app_pages/leaderboard.py").run()
    _ok(at)
    assert "Per subset: source" in [s.value for s in at.subheader]
    assert len(at.get("vega_lite_chart")) == 3  # forest, heatmap, curves
    at.selectbox(key="lb_by").set_value("none").run()
    assert "Per subset: source" not in [s.value for s in at.subheader]
    at.selectbox(key="lb_subset").set_value("source=arc-challenge").run()
    at.segmented_control(key="cv_tau").set_value(0.5).run()
    _ok(at)
    cv = at.session_state["_scorio_settings"]["curves"]
    assert cv.subset == ("source", ("arc-challenge",)) and cv.tau == 0.5
    assert cv.kinds == ("pass", "hat", "g")
    summary = next(d.value for d in at.dataframe if "curve" in d.value.columns)
    data = at.session_state["scorio_dataset"].view.subset("source", "arc-challenge")
    want = pass_curves(data, tau=0.5)
    assert set(summary["curve"]) == {"Pass@k", "Pass^k", "G-Pass@k_τ"}
    got = summary.query("k == 4 and curve == 'Pass^k'").set_index("model")["value"]
    assert got.to_dict() == want.at(4, "Pass^k").set_index("model")["value"].to_dict()
    # 9 models: those among the 5 best at some k in colour with bands (first in the legend),
    # the others grey (the audit's 16 overlapping bands in 16 colours read as one grey mass;
    # the best five at k = 1 alone left grey lines at the top of the Pass@k panel); the
    # caption says which is which
    spec = json.loads(at.get("vega_lite_chart")[2].proto.spec)
    scale = spec["vconcat"][0]["layer"][1]["encoding"]["color"]["scale"]
    top = charts.highlighted_models(want)
    assert set(charts.ranked_models(want)[:5]) <= set(top)
    assert scale["domain"] == top + [m for m in charts.ranked_models(want) if m not in top]
    n = len(top)
    assert scale["range"][n:] == [charts.OTHER_COLOUR] * (9 - n) and 0 < 9 - n < 4
    assert charts.OTHER_COLOUR not in scale["range"][:n] and len(set(scale["range"][:n])) == n
    note = f"in colour the {n} models that are among the 5 best at some k, in grey the other"
    # drawn live here: the caption says what a click shows (a report's picture does not)
    (caption,) = [c.value for c in at.caption if f"{note} {9 - n}, without a band" in c.value]
    assert caption.endswith(" Click a line or its legend entry (shift-click for more) to see "
                            "those models alone, each with its band.")
    assert "in the app" not in caption


def test_an_infinite_difficulty_reads_as_in_the_report():
    """HMMT'25-01 of the bundled reasoning data is always wrong: its 2PL difficulty is +∞.
    The page drew the browser's "Infinity" where the CLI and the report print ∞."""
    from app_pages._loading import REASONING
    from scorio_core.formatting import INF

    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.selectbox(key="dataset").set_value(REASONING).run()
    at.switch_page("app_pages/questions.py").run()
    _ok(at)
    none = next(d.value for d in at.dataframe
                if "status" in d.value.columns and len(d.value) == 1)
    assert none["question"].tolist() == ["HMMT'25-01"]
    assert none["difficulty"].tolist() == [INF]


def test_questions_tables_show_what_the_report_shows():
    """The page kept its own rule for blank columns: it left out text columns blank in
    every row but drew a 2PL column with no value in any row -- the always-wrong question's
    discrimination and item-rest r, every question's difficulty with the 2PL fit off -- as a
    column of dashes, where the report, the CLI and a notebook
    (:func:`scorio_core.display.readable`) name it in one line under the table."""
    from _apptest import start

    from app_pages._loading import REASONING
    from scorio_core.definitions.questions import QUESTIONS
    from scorio_core.display import readable

    at = start(APP, REASONING, page="app_pages/questions.py")
    for irt, gone in ((True, "discrimination, item_rest_r"),
                      (False, "difficulty, discrimination, item_rest_r")):
        at.toggle(key="qv_irt").set_value(irt).run()
        _ok(at)
        params = at.session_state["_scorio_settings"]["questions"]
        assert params.irt is irt
        tables = QUESTIONS.tables(QUESTIONS.run(at.session_state["scorio_dataset"].view, params))
        frames = {len(d.value): d.value for d in at.dataframe if "mean" in d.value.columns}
        none, top = frames[1], frames[20]  # no information (HMMT'25-01), disagree most
        captions = [c.value for c in at.caption]
        for shown, core in ((none, tables["uninformative"]), (top, tables["disagree"])):
            want, said = readable(core)
            assert list(shown.columns) == list(want.columns)  # the one rule, on the page
            assert all(line in captions for line in said), (said, captions)
        assert none["question"].tolist() == ["HMMT'25-01"]
        assert f"Not shown, no value in any row: {gone}." in captions  # the number columns
        assert not set(gone.split(", ")) & set(none.columns)
        assert not {"best", "worst"} & set(none.columns)  # blank text: left out unsaid
        assert "status" not in top.columns and "best" in top.columns
        assert ("difficulty" in top.columns) is irt


def test_the_2pl_switch_on_graded_data_names_the_option_that_fits_it():
    """On graded data the 2PL switch is off-limits; its help said only "needs binary
    outcomes". It now names the upload option tried on these data (the definitions'
    :func:`~scorio_core.definitions.questions.irt_next`, one text with the caveat), by its
    box only: not Python's keyword nor the command line's flag."""
    import io as pyio

    import numpy as np

    from scorio_core import Outcomes
    from scorio_core.definitions.questions import irt_next
    from scorio_core.io import save_table

    graded = Outcomes(np.random.default_rng(0).integers(0, 3, (3, 12, 4)), name="graded",
                      weights=[0, 0.5, 1])
    buf = pyio.BytesIO()
    save_table(graded, buf, format="csv")
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.session_state[UPLOAD_KEY] = {"filename": "graded.csv", "data": buf.getvalue()}
    at.session_state["upload_weights"] = "0, 0.5, 1"  # a CSV cannot store them
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    view = at.session_state["scorio_dataset"].view
    assert not view.is_binary
    at.switch_page("app_pages/questions.py").run()
    _ok(at)
    from app_state.texts import app_text

    switch = at.toggle(key="qv_irt")
    assert switch.disabled and app_text(irt_next(view)) in switch.help
    assert ("to fit the 2PL model: `cat2` in **Correct outcomes**, among the upload's options;"
            " `0.5` in **Correct from score** counts cat1 correct too.") in switch.help
    for other in ("--correct", "correct=", "correct_from="):
        assert other not in switch.help, switch.help
    # the 2PL fit metric: a short value that fits its column, the reason and step under its ?
    (fit,) = [m for m in at.metric if m.label == "2PL fit"]
    assert fit.value == "not run" and app_text(irt_next(view)) in fit.help
    assert "--correct" not in fit.help and "correct=" not in fit.help
    # the option it names makes the data binary, and the 2PL fit then runs
    assert not question_stats(view.binarized(correct_from=0.5)).irt.startswith("not run")


def test_questions_page_explains_its_columns_as_the_notebook_and_the_report_do(at):
    """sd_models, item_rest_r, 'k tied' ... had no word on the page (the status column alone
    had a help). Under each table, the "Columns:" legend of the definition's one declaration,
    the text the notebook's display and the reports print."""
    from app_state.texts import question_columns
    from scorio_core.definitions import ANALYSES
    from scorio_core.display import legend_markdown

    at.switch_page("app_pages/questions.py").run()
    _ok(at)
    q = ANALYSES["questions"]
    captions = [c.value for c in at.caption]
    disagree = next(d.value for d in at.dataframe if "disagreement" in d.value.columns)
    # the main table's columns under it, the 2PL fit's under "More columns" (fitted to 1024 px)
    main, more = question_columns(disagree)
    want = legend_markdown(main, q.column_help("disagree"))
    assert "`sd_models` s.d. of the models' mean scores" in want and want in captions
    want = legend_markdown([c for c in more if c not in main], q.column_help("disagree"))
    assert "`item_rest_r` correlation across models" in want and want in captions
    parts = [d for d in at.dataframe if "difficulty_median" in d.value.columns]
    subsets = parts[0].value
    # the columns shown, in the table's order: its attribute, one value the heading names,
    # in the exports only
    shown = set().union(*(d.proto.column_order for d in parts)) or set(subsets.columns)
    assert "attribute" in subsets.columns and "attribute" not in shown
    columns = [c for c in subsets.columns if c in shown]
    assert legend_markdown(columns, q.column_help("by_subset")) in captions
