"""AppTest of the Check page: it runs the check definition on the bundled real run (the
same numbers as ``check_smaller_run``), reruns with the form's settings, keeps them for the
session, and says why a run with too few trials cannot be checked."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from _apptest import code_cell, start
from streamlit.testing.v1 import AppTest

from app_pages._common import UPLOAD, UPLOAD_KEY
from app_pages._loading import TEMPERATURE
from app_pages._page_state import STORE
from scorio_core import io
from scorio_core.params import CheckParams
from scorio_core.smaller_run import check_smaller_run

APP = str(Path(__file__).resolve().parents[2] / "app.py")
CHECK = "app_pages/check.py"
ROOT = Path(__file__).resolve().parents[2]
TEXTS = ROOT / "tests" / "fixtures" / "harness" / "inspect" / "texts"


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _intervals(at: AppTest):
    return next(d.value for d in at.dataframe if "coverage" in d.value.columns)


def test_check_page_runs_the_definition_and_its_form():
    at = start(APP, TEMPERATURE, timeout=120)
    at.session_state[STORE] = {"check": CheckParams(reps=20, draws=500)}
    at.switch_page(CHECK).run()
    _ok(at)
    assert at.selectbox(key="chk_trials").value == 4  # 100 trials: the default 4 is offered
    assert at.selectbox(key="chk_trials").options[-1] == "25"  # at most N / 4
    assert at.number_input(key="chk_questions").value == 100
    shown = _intervals(at)
    want = check_smaller_run(io.load(ROOT / "data" / "jhu_llm_temperature.parquet"), 4,
                             reps=20, draws=500)
    assert list(shown["scope"]) == ["questions", "population"]
    np.testing.assert_allclose(shown["coverage"], want.intervals["coverage"], atol=1e-12)
    assert at.success or at.warning  # the verdict: held, or what broke
    assert not any("Planner" in h.value for h in at.subheader)  # not asked for by default
    at.selectbox(key="chk_trials").set_value(2)
    at.number_input(key="chk_questions").set_value(20)
    at.number_input(key="chk_plan_reps").set_value(2)
    assert at.number_input(key="chk_max_questions").value == 4000  # the default limit
    at.number_input(key="chk_max_questions").set_value(1_000_000)  # every plan drawn
    assert at.number_input(key="chk_spread_history").value == 0  # the flat prior
    at.number_input(key="chk_spread_history").set_value(5)
    at.button[0].click().run()  # "Run the check"
    _ok(at)
    assert any("20 runs of 20 questions × 2 trials" in h.value for h in at.subheader)
    assert any("The Planner's plans, realised" in h.value for h in at.subheader)
    plans = next(d.value for d in at.dataframe if "trial_plans" in d.value.columns)
    assert list(plans["scope"]) == ["questions", "population"]
    assert any("The Planner's budget split, realised" in h.value for h in at.subheader)
    split = next(d.value for d in at.dataframe if "gain_over_even" in d.value.columns)
    assert list(split["scope"]) == ["questions", "population"]
    assert at.session_state[STORE]["check"] == CheckParams(trials=2, questions=20, reps=20,
                                                           plan_reps=2, draws=500,
                                                           max_questions=1_000_000,
                                                           spread_history=5)
    assert (plans["skipped"] == 0).all()
    code = code_cell(at, "check_smaller_run(")
    assert "check_smaller_run(data, 2, questions=20" in code and "max_questions=1000000" in code
    assert "spread_history=5" in code


def test_check_page_explains_a_run_with_too_few_trials():
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["dataset"] = UPLOAD
    at.session_state[UPLOAD_KEY] = {
        "filename": "2 files", "files": {p.name: p.read_bytes() for p in TEXTS.glob("*.eval")}}
    at.run()
    at.switch_page(CHECK).run()
    _ok(at)
    assert any("at least 4 trials per question" in w.value for w in at.warning)
    assert not [d for d in at.dataframe if "coverage" in d.value.columns]


def test_a_planner_check_of_one_trial_names_the_pages_boxes():
    """The Planner check asked of one-trial smaller runs: the run refuses the two settings
    together, and the page says so by its boxes and the values in them -- the core's
    message, rendered as any other (the page no longer passes the settings' class: the
    message carries it) -- not ``plan_reps=`` or ``--plan-replicates``."""
    at = start(APP, TEMPERATURE, timeout=120)
    at.session_state[STORE] = {"check": CheckParams(trials=1, plan_reps=5, reps=20, draws=500)}
    at.switch_page(CHECK).run()
    assert not at.exception, [e.value for e in at.exception]
    runs, trials = (at.number_input(key="chk_plan_reps").label,
                    at.selectbox(key="chk_trials").label)
    assert (runs, trials) == ("Planner runs (0 = skip)", "Trials per question")
    (msg,) = [e.value for e in at.error]
    assert msg == (f"**{runs}**: the Planner plans from at least 2 trials per question; "
                   f"**{trials}** asks for 1: set **{runs}** to 0 or **{trials}** to 2 or "
                   f"more; got **{runs}** `5`, **{trials}** `1`")
    assert not [d for d in at.dataframe if "coverage" in d.value.columns]


def test_the_leaderboard_links_the_check_in_the_population_scope():
    at = start(APP, TEMPERATURE, timeout=120, page="app_pages/leaderboard.py")
    _ok(at)

    def links():
        return [p for p in at.get("page_link") if p.proto.page == "check"]

    assert not links()  # questions scope: no p_best caveat to measure
    at.segmented_control(key="scope").set_value("population").run()
    _ok(at)
    assert len(links()) == 1 and "Check a smaller run" in links()[0].proto.label



def test_the_leaderboard_states_which_models_could_be_first():
    # the page shows the board's own first_line (one definition), in either scope
    from scorio_core import leaderboard

    data = io.load(Path(APP).parent / "data" / "jhu_llm_temperature.parquet")
    at = start(APP, TEMPERATURE, timeout=120, page="app_pages/leaderboard.py")
    _ok(at)
    for scope in ("questions", "population"):
        if scope == "population":
            at.segmented_control(key="scope").set_value("population").run()
            _ok(at)
        want = leaderboard(data, scope=scope).first_line()
        shown = [i.value for i in at.info if "first at 95%" in i.value.lower()]
        assert shown == [want], (scope, shown)


def test_a_one_trial_check_says_the_questions_scope_was_not_checked():
    """4 trials per question allow smaller runs of 1 trial, where the questions scope has no
    interval: its rows were blank, five p_best bins of 0 model-runs were listed and the
    verdict "every promise held" spoke for the population scope alone, unsaid."""
    import io as pyio

    from scorio_core import Outcomes
    from scorio_core.io import save_table

    R = (np.random.default_rng(2).random((5, 20, 4)) < np.linspace(0.3, 0.7, 5)[:, None, None])
    buf = pyio.BytesIO()
    save_table(Outcomes(R.astype(int)), buf, format="csv")
    at = start(APP, UPLOAD, 120)
    at.session_state[STORE] = {"check": CheckParams(reps=20, draws=500)}
    at.file_uploader(key="upload").set_value(("four.csv", buf.getvalue(), "text/csv")).run()
    at.switch_page(CHECK).run()
    _ok(at)
    assert at.selectbox(key="chk_trials").value == 1
    assert _intervals(at).set_index("scope")["coverage"].isna().tolist() == [True, False]
    notes = [i.value for i in at.info if "Only the population scope was checked" in i.value]
    assert len(notes) == 1 and "needs data with 8 or more per question" in notes[0], notes
    bins = next(d.value for d in at.dataframe if "observed" in d.value.columns)
    assert set(bins["scope"]) == {"population"}
