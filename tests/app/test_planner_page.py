"""AppTest: the Planner page and the Leaderboard's scope / adjustment controls (issue 10)."""

from __future__ import annotations

import io as pyio
import re
import sys
from pathlib import Path

import pytest
from _apptest import parts_px, start
from streamlit.testing.v1 import AppTest

from app_pages._common import UPLOAD, UPLOAD_KEY
from app_pages._loading import COINS, REASONING, TEMPERATURE  # noqa: F401
from scorio_core import Outcomes
from scorio_core.formatting import SCORE_PRINTF
from scorio_core.io import save_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_inference import aime_like  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _small_n() -> AppTest:
    """The 16 x 15 x 4 table of the issue, uploaded as a long CSV through the seam."""
    R, _ = aime_like()
    buf = pyio.BytesIO()
    save_table(Outcomes(R, models=[f"m{i:02d}" for i in range(16)]), buf, format="csv")
    at = start(APP, REASONING, 90)
    at.session_state[UPLOAD_KEY] = {"filename": "aime_like.csv", "data": buf.getvalue()}
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    assert at.session_state["scorio_dataset"].view.shape == (16, 15, 4)
    return at


def _board(at: AppTest):
    return next(d.value for d in at.dataframe if "rank_chain" in d.value.columns)


@pytest.mark.parametrize("dataset", [REASONING, COINS])
def test_planner_page_runs(dataset):
    at = start(APP, dataset, 90, page="app_pages/planner.py")
    _ok(at)
    # allocation bars, decision / order curve, smallest lead a plan decides: the two
    # side-by-side charts each as its two panels (_render.PANELS)
    assert len(at.get("vega_lite_chart")) == 5
    assert any("80% chance" in m.value for m in at.markdown)
    # the lead that matters in the decimals of the table's leads (trials_gap: 0.0125, not
    # %.3f's 0.013)
    assert at.number_input(key="plan_lead").proto.format == SCORE_PRINTF == "%.4f"
    if dataset == REASONING:  # questions scope: p_unsettled has no value in any row
        pairs = next(d.value for d in at.dataframe if "questions_needed" in d.value.columns)
        assert len(pairs) and "p_unsettled" not in pairs.columns
        assert any(c.value == "Not shown, no value in any row: p_unsettled." for c in at.caption)
    at.segmented_control(key="plan_scope").set_value("population").run()
    _ok(at)
    if dataset == REASONING:  # population scope: the chance that trials alone never settle it
        pairs = next(d.value for d in at.dataframe if "questions_needed" in d.value.columns)
        # (a missing one is a missing cell, drawn with the "—" placeholder)
        assert all(v is None or re.fullmatch(r"0\.\d{3}|1\.000", v)
                   for v in pairs["p_unsettled"])
    at.segmented_control(key="plan_assurance").set_value(0.95).run()
    _ok(at)
    assert any("95% chance" in m.value for m in at.markdown)


def test_small_n_leaderboard_explains_itself():
    at = _small_n()
    at.switch_page("app_pages/leaderboard.py").run()
    _ok(at)
    t = _board(at)
    assert (t["rank_chain"] == 1).all() and t["rank"].iloc[-1] > 1
    assert any("rank_chain" in w.value and "decided" in w.value for w in at.warning)
    assert any("prior holds" in i.value for i in at.info)
    at.segmented_control(key="scope").set_value("population").run()
    _ok(at)
    wide = _board(at)
    # the population scope adds question sampling: wider on the whole (each se is an estimate)
    assert wide["se"].mean() > t["se"].mean()
    at.selectbox(key="adjust").set_value("holm").run()
    _ok(at)
    assert "Bayes@N, population scope" in at.markdown[0].value or any(
        "population scope" in m.value for m in at.markdown
    )


def test_small_n_planner_lists_every_undecided_pair():
    at = _small_n()
    at.switch_page("app_pages/planner.py").run()
    _ok(at)
    pairs = next(d.value for d in at.dataframe if "questions_needed" in d.value.columns)
    assert len(pairs) == 15
    # counts as whole numbers, ∞ where more trials cannot settle a pair; never "Infinity"
    shown = set(pairs["trials_needed_papers"]) | set(pairs["trials_needed"])
    assert all(re.fullmatch(r"[\d,]+|∞|—|met now", v) for v in shown), shown


def test_small_n_convergence_page_explains_itself():
    at = _small_n()
    at.switch_page("app_pages/convergence.py")
    at.session_state["conv_b_curves"] = 20
    at.session_state["conv_b_conv"] = 100
    at.run()
    _ok(at)
    texts = [w.value for w in at.warning]
    assert any("What to change" in t for t in texts)
    assert any("k = N = 4" in t for t in texts)  # pass_at_k_4 starts only at n = N
    at.radio(key="conv_match").set_value("ci")
    at.selectbox(key="conv_scheme").set_value("permutation")
    at.button[0].click().run()
    _ok(at)
    summ = next(d.value for d in at.dataframe if "no_convergence" in d.value.columns)
    assert summ.set_index("method").loc["bayes", "no_convergence"] == 0


def test_planner_notes_are_sentences_and_a_useless_budget_says_why():
    """Issue 24: the pairs table's note column was cut at the page's edge, and a budget
    split that changes nothing (population scope on the bundled data) said nothing about
    why."""
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    at.switch_page("app_pages/planner.py").run()
    at.segmented_control(key="plan_scope").set_value("population").run()
    _ok(at)
    pairs = next(d.value for d in at.dataframe if "questions_needed" in d.value.columns)
    assert "note" not in pairs.columns
    text = [m.value for m in at.markdown]
    # each plan's stated gap, spelled like its plan (∞ / —), and what it promises
    assert "questions_gap" in pairs.columns
    # no trial plan here, no gap stated in any row: the column left out and named, as the
    # report does (the definition's view, display.readable)
    assert "trials_gap" not in pairs.columns
    assert any(c.value.startswith("Not shown, no value in any row:")
               and "trials_gap" in c.value for c in at.caption)
    assert all(v == "∞" or float(v) >= 0 for v in pairs["questions_gap"])
    # what it promises: the legend under the "More columns" box, the definition's words
    legends = [c.value for c in at.caption if c.value.startswith("**Columns:**")]
    assert any("`questions_gap` the same smallest true lead" in c for c in legends), legends
    assert "trials_for_lead" not in pairs.columns  # the lead that matters is off by default
    at.number_input(key="plan_lead").set_value(0.03).run()
    _ok(at)
    pairs = next(d.value for d in at.dataframe if "questions_needed" in d.value.columns)
    assert all(v == "∞" for v in pairs["trials_for_lead"])  # population: trials cannot
    assert all(v == "∞" or int(v.replace(",", "")) > 100 for v in pairs["questions_for_lead"])
    # the lead's value in the line over the table, what the columns hold in the legend
    assert any(m.value.startswith("**") and "undecided**" in m.value
               and "at least 0.03 (now N = " in m.value for m in at.markdown)
    assert any("`trials_for_lead` trials per question" in c.value for c in at.caption)
    at.number_input(key="plan_lead").set_value(0.0).run()
    assert any(" vs " in t and "cannot be settled" in t for t in text)  # the notes, as lines
    summary = next(t for t in text if t.startswith("Budget **"))
    # as many trials again (the default budget) buys most of a pair here, so the page says
    # why not more; either way it names the pairs trials cannot settle and why
    assert "Why not more pairs:" in summary or "The budget changes almost nothing:" in summary
    assert "cannot be settled by more trials (population scope" in summary
    at.number_input(key="plan_budget").set_value(1).run()  # one extra trial buys nothing
    _ok(at)
    summary = next(m.value for m in at.markdown if m.value.startswith("Budget **"))
    assert "The budget changes almost nothing:" in summary
    assert "cannot be settled by more trials (population scope" in summary


def _six_benchmarks() -> AppTest:
    """Three models on six benchmarks of 20 questions x 4 trials, uploaded as a long CSV."""
    import numpy as np

    rng = np.random.default_rng(4)
    p = np.clip(0.5 + 0.03 * rng.standard_normal((3, 6)), 0, 1).repeat(20, 1)[..., None]
    R = rng.binomial(1, p, (3, 120, 4))
    o = Outcomes(R, models=["a", "b", "c"],
                 benchmarks=[f"bench{k}" for k in range(6) for _ in range(20)])
    buf = pyio.BytesIO()
    save_table(o, buf, format="csv")
    at = start(APP, REASONING, 90)
    at.session_state[UPLOAD_KEY] = {"filename": "six.csv", "data": buf.getvalue()}
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    at.selectbox(key="benchmark").set_value("bench0").run()
    assert at.session_state["scorio_dataset"].view.shape == (3, 20, 4)
    return at


def test_the_spread_prior_is_learned_from_the_other_benchmarks_on_both_pages():
    from _apptest import code_cell, open_box

    at = _six_benchmarks()
    at.switch_page("app_pages/leaderboard.py").run()
    at.segmented_control(key="scope").set_value("population").run()
    _ok(at)
    flat = _board(at)["p_best"].tolist()
    open_box(at, "__lb_spread_prior_box")
    assert any("flat prior" in c.value for c in at.caption)
    # the box and its control by the declared label, the one the notes name ("**Spread
    # prior** on the Leaderboard and Planner pages"); its help in the app's words
    from scorio_core.params import LeaderboardParams, widget

    w = widget(LeaderboardParams, "spread_prior")
    control = at.segmented_control(key="__lb_spread_prior_choice_widget")
    assert control.label == w["label"] == "Spread prior"
    assert any(e.label.startswith(f"{w['label']} (") for e in at.expander)
    assert "from the data's other benchmarks, or a prior file uploaded" in control.help
    assert "sc." not in control.help and "scorio-studio" not in control.help
    at.segmented_control(key="__lb_spread_prior_choice_widget").set_value("benchmarks").run()
    _ok(at)
    assert any("learned from 5 earlier fields" in c.value for c in at.caption)
    assert _board(at)["p_best"].tolist() != flat  # p_best reads it; nothing else does
    learned = _board(at)["p_best"].tolist()
    at.session_state["__lb_spread_prior_box"] = False  # closed: the choice stays
    at.run()
    _ok(at)
    assert _board(at)["p_best"].tolist() == learned
    assert any("read a learned spread prior" in c.value for c in at.caption)
    assert "spread_prior='" in code_cell(at, "sc.leaderboard(")
    at.switch_page("app_pages/planner.py").run()
    _ok(at)
    open_box(at, "__plan_spread_prior_box")
    at.segmented_control(key="__plan_spread_prior_choice_widget").set_value("benchmarks").run()
    _ok(at)
    assert at.session_state["_plan_spread_prior"] == at.session_state["_lb_spread_prior"]


def _all_decided() -> AppTest:
    """Three models far apart (true means 0.9, 0.5, 0.1; 30 questions x 6 trials), uploaded
    as a long CSV: every pair is decided in both scopes."""
    import numpy as np

    from scorio_core import leaderboard

    rng = np.random.default_rng(7)
    R = (rng.random((3, 30, 6)) < np.array([0.9, 0.5, 0.1])[:, None, None]).astype(int)
    o = Outcomes(R, models=["strong", "middle", "weak"])
    for scope in ("questions", "population"):
        assert leaderboard(o, scope=scope).unresolved().empty, scope
    return _uploaded(o, "far_apart.csv")


def _uploaded(o: Outcomes, filename: str) -> AppTest:
    """The app with ``o`` uploaded as a long CSV through the seam."""
    buf = pyio.BytesIO()
    save_table(o, buf, format="csv")
    at = start(APP, REASONING, 90)
    at.session_state[UPLOAD_KEY] = {"filename": filename, "data": buf.getvalue()}
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    assert at.session_state["scorio_dataset"].view.shape == o.shape
    return at


def test_all_decided_planner_draws_no_pair_curve_until_one_is_picked():
    """On data where every pair is decided the page drew no pair curve on its first view,
    then filled its pickers with the default pair, and the next run read that back as a
    pair the user chose and drew its curves ("already decided")."""
    from app_pages._page_state import STORE

    at = _all_decided()
    at.switch_page("app_pages/planner.py").run()
    for rerun in range(3):  # the first view, a plain rerun, a rerun after a setting changed
        _ok(at)
        assert len(at.get("vega_lite_chart")) == 1, rerun  # the allocation bars only
        assert sum("no pair's curve is drawn" in i.value for i in at.info) == 2, rerun
        # the page's own pickers, by their labels (it named pair= and --pair too)
        assert all(i.value.endswith("(**Better model** / **Other model**).") for i in at.info
                   if "no pair's curve is drawn" in i.value), [i.value for i in at.info]
        assert not any("already decided" in c.value for c in at.caption), rerun
        assert at.session_state[STORE]["plan"].pair is None
        assert at.selectbox(key="plan_upper").value is None
        assert at.selectbox(key="plan_lower").value is None
        assert at.number_input(key="plan_nmax").value is None
        if rerun == 0:
            at.run()
        elif rerun == 1:
            at.segmented_control(key="plan_scope").set_value("population").run()
    q = {k: at.query_params[k] for k in at.query_params}
    assert not any(k.startswith("plan.pair") or k.startswith("plan.n_max") for k in q), q
    # picking one model is picking a pair: the other picker takes the default pair's other
    at.selectbox(key="plan_upper").set_value("middle").run()
    _ok(at)
    assert at.selectbox(key="plan_lower").value in {"strong", "weak"}
    assert at.session_state[STORE]["plan"].pair == ("middle", at.selectbox(
        key="plan_lower").value)
    assert len(at.get("vega_lite_chart")) == 5  # the allocation, two panels per curve
    assert any("is already decided at 95%" in c.value for c in at.caption)
    # clearing one picker goes back to the default: no pair, no curves
    at.selectbox(key="plan_lower").set_value(None).run()
    _ok(at)
    assert at.selectbox(key="plan_upper").value is None
    assert at.session_state[STORE]["plan"].pair is None
    assert len(at.get("vega_lite_chart")) == 1


def _one_trial() -> AppTest:
    """The CLI audit's one-trial upload rebuilt: 2 models x 24 questions x 1 trial (16 vs 6
    correct), uploaded as a long CSV through the seam."""
    import numpy as np

    a = np.array([1] * 16 + [0] * 8)
    b = np.array([1] * 4 + [0] * 12 + [1] * 2 + [0] * 6)
    return _uploaded(Outcomes(np.stack([a, b])[..., None], models=["alpha", "beta"]),
                     "one_trial.csv")


def test_one_trial_pages_say_why_met_now_sits_beside_empty_cells():
    """A one-trial upload, questions scope: the Leaderboard showed trials_needed_papers
    'met now' beside an empty t_next, and the Planner questions_gap 0.0000 and 'met now'
    beside "trials cannot be planned". The board's warning says what 'met now' rests on at
    N = 1; the Planner leaves the gap empty and its note says why, cell by cell."""
    at = _one_trial()
    at.switch_page("app_pages/leaderboard.py").run()
    _ok(at)
    board = _board(at).set_index("model")
    # t_next has no value in any row at N = 1: left out, said in one line under the table
    assert board.loc["alpha", "trials_needed_papers"] == "met now" and "t_next" not in board.columns
    assert any("no value in any row" in c.value and "t_next" in c.value for c in at.caption)
    assert any("'met now' for alpha vs beta" in w.value and "decides no pair at N = 1" in w.value
               for w in at.warning)
    at.switch_page("app_pages/planner.py").run()
    _ok(at)
    pairs = next(d.value for d in at.dataframe if "questions_needed" in d.value.columns)
    row = pairs.iloc[0]
    # no gap in any row: the column left out and named under the table, as in the report
    assert row["trials_needed_papers"] == "met now" and "questions_gap" not in pairs.columns
    assert any(c.value.startswith("Not shown, no value in any row:")
               and "questions_gap" in c.value for c in at.caption)
    note = next(m.value for m in at.markdown if m.value.startswith("- alpha vs beta: "))
    assert "'met now' in trials_needed_papers reads the papers' Bayes@N" in note
    assert "no questions_gap" in note
    assert not any("0: any true lead" in m.value for m in at.markdown)


@pytest.mark.parametrize("query", [{}, {"plan_scope": "population"},
                                   {"plan_scope": "population", "plan_lead": 0.01}])
def test_the_pairs_table_reads_whole_in_a_1024_px_window(query):
    """At 1024 px the Planner's pairs table (eleven columns, thirteen with a lead that matters)
    ran 220 px past the main column (564 px there), ``questions_gap``, ``t`` and ``p_better``
    cut at its edge without a mark. As the Leaderboard keeps its papers' columns apart, the
    table shows the plan -- the pair, its gap, the trials and questions needed, for the lead
    too, ``p_unsettled`` -- and "More columns" the plans' power and today's test, with what
    they mean; each part fits a 1024 px window's column (in parts repeating the pair), the
    box's its padding less; together they show every column of the plan's table."""
    from app_pages._widgets import BOX_PAD_PX
    from app_state.table_fit import NARROW_COLUMN_PX, NARROW_PX
    from app_state.texts import PLAN_MORE

    at = start(APP, TEMPERATURE, 90, page="app_pages/planner.py")
    for key, value in query.items():
        widget = (at.segmented_control(key=key) if key == "plan_scope"
                  else at.number_input(key=key))
        widget.set_value(value).run()
    _ok(at)
    box = next(e for e in at.expander if e.label.startswith("More columns"))
    inside = list(box.dataframe)
    pairs = [d for d in at.dataframe if "questions_needed" in d.value.columns
             and not any(d is i for i in inside)]
    assert pairs and inside
    shown = set().union(*(d.proto.column_order for d in pairs))
    more = set().union(*(d.proto.column_order for d in inside))
    table = pairs[0].value
    assert shown | more == set(table.columns)  # every column of the plan's table, once
    assert shown & more == {"better", "next"}  # each part says whose row it is
    assert more - {"better", "next"} == set(PLAN_MORE) & set(table.columns)
    assert {"gap", "trials_needed", "questions_needed"} <= shown
    if query.get("plan_lead"):
        assert {"trials_for_lead", "questions_for_lead", "p_unsettled"} <= shown
    assert NARROW_PX < NARROW_COLUMN_PX == 564
    assert max(parts_px(pairs)) <= NARROW_PX, parts_px(pairs)
    assert max(parts_px(inside)) <= NARROW_PX - BOX_PAD_PX, parts_px(inside)
    # what the columns in the box mean is said in the box, once: its legend
    said = [c.value for c in box.caption if c.value.startswith("**Columns:**")]
    assert len(said) == 1 and not box.markdown, (said, [m.value for m in box.markdown])
    assert all(f"`{c}` " in said[0] for c in more - {"better", "next"}), said


def test_the_planner_says_what_its_columns_hold_once_in_the_legends():
    """The Planner's line over its pairs table defined ``trials_needed``,
    ``questions_needed``, ``p_unsettled`` and ``trials_needed_papers``, and its "More
    columns" box opened with paragraphs defining six more -- each said again, in other words,
    by the legend under the table (the definition's one declaration). No paragraph on the
    page defines a column now ("`column`: ..."); the line over the table keeps what the
    legend cannot say: the chance planned for, the lead's value, today's N and M."""
    from scorio_core.definitions.plan import PLAN
    from scorio_core.display import PLAIN_COLUMNS

    at = start(APP, TEMPERATURE, 90, page="app_pages/planner.py")
    at.segmented_control(key="plan_scope").set_value("population").run()
    at.number_input(key="plan_lead").set_value(0.02).run()
    _ok(at)
    declared = PLAN.column_help("pairs")
    texts = [m.value for m in at.markdown]
    defined = [(c, t) for t in texts for c in declared if f"`{c}`:" in t or f"`{c}` /" in t]
    assert defined == [], defined
    line = next(t for t in texts if "undecided**" in t)
    assert "**an 80% chance**" in line and "at least 0.02" in line, line
    assert "now N = 100 trials per question, M = 100 questions" in line, line
    # every column shown, in the table or the box, is explained in a legend
    legends = " ".join(c.value for c in at.caption if c.value.startswith("**Columns:**"))
    pairs = next(d.value for d in at.dataframe if "questions_needed" in d.value.columns)
    unnamed = [c for c in pairs.columns if c in declared and c not in PLAIN_COLUMNS
               and f"`{c}` " not in legends]
    assert unnamed == [], unnamed
