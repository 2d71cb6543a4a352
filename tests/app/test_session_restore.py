"""Save / Restore session and links (AppTest): a restored session or a link's query
parameters set the widgets, the pages compute the same numbers as the core, and
hostile or mismatched sessions become messages that change nothing."""

from __future__ import annotations

import hashlib
import io as pyio
import re
from pathlib import Path

import numpy as np
from _apptest import open_box, start
from streamlit.testing.v1 import AppTest

from app_pages._loading import COINS, REASONING, TEMPERATURE, UPLOAD, UPLOAD_KEY  # noqa: F401
from app_pages._page_state import STORE
from app_pages._render import REDRAW
from app_pages._session import UPLOADED
from app_state import session as sess
from scorio_core import Outcomes, io
from scorio_core.definitions import ANALYSES
from scorio_core.definitions.provenance import attach_source
from scorio_core.io import save_table

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _board(at: AppTest):
    return next(d.value for d in at.dataframe if "rank_chain" in d.value.columns)


def _settings():
    return {
        "leaderboard": ANALYSES["leaderboard"].params(confidence=0.8, ks=(2, 4), adjust="holm",
                                                      prior="greedy"),
        "greedy": ANALYSES["greedy"].params(replicates=7, seed=3),
        "convergence": ANALYSES["convergence"].params(methods="bayes,avg", replicates=60,
                                                      curve_replicates=20, seed=4, scheme="row"),
    }


def test_restore_sets_every_page_and_reproduces_the_numbers(data_dir):
    data = attach_source(io.load(data_dir / "reasoning_synthetic.npz"),
                         data_dir / "reasoning_synthetic.npz")
    settings = _settings()
    text = sess.to_json(settings, data, benchmark="AIME'25",
                        report={"sections": ["leaderboard"], "title": "Restored"})
    at = start(APP, COINS, 120)  # somewhere else first
    at.session_state[UPLOADED] = ("mine.json", text.encode())
    at.run()
    _ok(at)
    assert at.selectbox(key="dataset").value == REASONING
    assert at.selectbox(key="benchmark").value == "AIME'25"
    assert any("Restored session" in s.value for s in at.sidebar.success)

    at.switch_page("app_pages/leaderboard.py").run()
    _ok(at)
    assert at.segmented_control(key="confidence").value == 0.8
    assert at.pills(key="ks").value == [2, 4]
    assert at.selectbox(key="adjust").value == "holm"
    assert at.segmented_control(key="use_prior").value is True
    lb = ANALYSES["leaderboard"]
    want = lb.tables(lb.run(data.select("AIME'25"), settings["leaderboard"]))["leaderboard"]
    got = _board(at)
    assert got["model"].tolist() == want["model"].tolist()
    np.testing.assert_allclose(got["score"], want["score"], rtol=0, atol=1e-12)

    at.switch_page("app_pages/greedy.py").run()
    _ok(at)
    assert (at.number_input(key="greedy_reps").value, at.number_input(key="greedy_seed").value) \
        == (7, 3)
    at.switch_page("app_pages/report.py").run()
    assert at.multiselect(key="report_sections").value == ["leaderboard"]
    assert at.text_input(key="report_title").value == "Restored"
    # back on the leaderboard (its widgets were dropped meanwhile) the settings are kept
    at.switch_page("app_pages/leaderboard.py").run()
    assert at.segmented_control(key="confidence").value == 0.8
    store = at.session_state[STORE]
    assert store["leaderboard"] == settings["leaderboard"]
    assert store["greedy"] == settings["greedy"]


def test_session_for_data_not_loaded_waits_and_changes_nothing():
    rng = np.random.default_rng(0)
    o = Outcomes(rng.integers(0, 2, (3, 12, 4)), models=["a", "b", "c"], name="runs")
    buf = pyio.BytesIO()
    save_table(o, buf, format="csv")
    raw = buf.getvalue()
    sha = hashlib.sha256(raw).hexdigest()
    loaded = attach_source(o, raw, "runs.csv")
    text = sess.to_json({"greedy": ANALYSES["greedy"].params(replicates=9, seed=2)}, loaded)

    at = start(APP, REASONING, 60)
    at.session_state[UPLOADED] = ("runs-session.json", text.encode())
    at.run()
    errors = [e.value for e in at.main.error]
    assert any(sha[:8] in e and "runs.csv" in e and "not restored yet" in e for e in errors), errors
    assert STORE not in at.session_state or "greedy" not in at.session_state[STORE]
    assert at.selectbox(key="dataset").value == UPLOAD
    # uploading that very file finishes the restore
    at.session_state[UPLOAD_KEY] = {"filename": "runs.csv", "data": raw}
    at.run()
    assert any("Restored session" in s.value for s in at.sidebar.success)
    assert at.session_state[STORE]["greedy"] == ANALYSES["greedy"].params(replicates=9, seed=2)
    assert not at.exception


def test_hostile_session_files_become_one_message():
    at = start(APP, REASONING, 60)
    for raw in [b"[" * 10_000, b"\xff\xfe", b'{"format": "scorio-studio/session-1", "x": 1}',
                b'{"format": "scorio-studio/session-1", "settings": {"greedy": {"seed": -1}}}',
                b"x" * 2_500_000]:
        at.session_state[UPLOADED] = ("bad.json", raw)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        assert any("Could not restore bad.json" in e.value for e in at.sidebar.error), raw[:40]
        assert at.selectbox(key="dataset").value == REASONING  # nothing changed


def _opened(page: str, query: dict, timeout: int = 60) -> AppTest:
    """The app opened on ``app_pages/{page}.py`` by a link with ``query``, run once."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    for k, v in query.items():
        at.query_params[k] = v
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    _ok(at)
    return at


def test_query_params_restore_a_view():
    at = _opened("leaderboard", {"dataset": "biased_coins", "leaderboard.confidence": "0.9",
                                 "leaderboard.scope": '"population"'})
    assert at.selectbox(key="dataset").value == COINS
    assert at.segmented_control(key="confidence").value == 0.9
    assert at.segmented_control(key="scope").value == "population"
    assert at.pills(key="ks").value == [1, 8]  # what the link leaves out: page defaults
    # the page writes its view back into the link
    q = {k: at.query_params[k] for k in at.query_params}
    assert q["dataset"] in ("biased_coins", ["biased_coins"])
    assert "leaderboard.scope" in q


def test_a_restored_confidence_is_noted_as_its_buttons_write_it():
    """A link's confidence or assurance off the page's buttons was noted as 0.85 while the
    buttons read 85%: the note writes both values in the buttons' own format (one rule,
    ``app_state.page_state.percent``), the value shown being one of the buttons."""
    at = _opened("planner", {"dataset": "biased_coins", "plan.confidence": "0.93",
                             "plan.assurance": "0.85"}, timeout=120)
    note = next(i.value for i in at.info if "Restored with changes" in i.value)
    for key, was in (("plan_confidence", "93%"), ("plan_assurance", "85%")):
        buttons = at.segmented_control(key=key)
        labels = [o.content for o in buttons.proto.options]
        now = labels[buttons.indices[0]]  # the button the page shows selected
        said = f"**{buttons.label}** {was} is not one of the choices; showing {now}"
        assert said in note, (said, note)
    assert (at.segmented_control(key="plan_confidence").value,
            at.segmented_control(key="plan_assurance").value) == (0.95, 0.8)
    assert "0.85" not in note and "0.93" not in note, note


def test_bad_query_params_are_reported_not_raised():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["dataset"] = "nope"
    at.run()
    assert not at.exception
    assert any("nope" in e.value for e in at.sidebar.error)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["greedy.seeds"] = "1"
    at.run()
    assert not at.exception
    assert any("no setting" in e.value for e in at.sidebar.error)


def test_restore_puts_the_edited_rubric_back_in_the_builder(data_dir):
    from scorio_core import rubric as rb

    data = attach_source(io.load(data_dir / "reasoning_synthetic.npz"),
                         data_dir / "reasoning_synthetic.npz")
    base = rb.to_json(rb.get_preset("ranking/format-aware"))
    base["weights"] = [0.0, 0.8, *base["weights"][2:]]
    mine = rb.from_json(base | {"name": "Mine"})
    params = ANALYSES["rubric"].params(schemes=(mine, "ranking/conservative"))
    text = sess.to_json({"rubric": params}, data, benchmark="AIME'24", rubric=mine)
    at = start(APP, REASONING, 180)
    at.session_state[UPLOADED] = ("rubric-session.json", text.encode())
    at.run()
    at.switch_page("app_pages/rubric.py").run()
    _ok(at)
    name = next(t for t in at.text_input if t.key and t.key.startswith("rubric_name_"))
    assert name.value == "Mine"
    w1 = next(n for n in at.number_input if n.label.startswith("1:"))
    assert w1.value == 0.8
    assert at.multiselect(key="rubric_compare").value == ["current (edited)",
                                                          "ranking/conservative"]
    tau = next(d.value for d in at.dataframe if "tau_gs_mean" in d.value.columns)
    assert tau["scheme"].tolist() == ["Mine (edited)", "Conservative"]
    # the restored builder scores like the saved rubric
    want = ANALYSES["rubric"].run(data.select("AIME'24"), params).tau
    np.testing.assert_allclose(tau["tau_gs_mean"], want["tau_gs_mean"], rtol=0, atol=1e-12)


def test_restore_categorical_weights_on_an_upload():
    rng = np.random.default_rng(7)
    o = Outcomes(rng.integers(0, 3, (3, 10, 4)), models=["x", "y", "z"], weights=[0, 0.5, 1])
    buf = pyio.BytesIO()
    save_table(o, buf, format="csv")
    raw = buf.getvalue()
    loaded = attach_source(io.load(raw, filename="cats.csv", weights=(0, 0.5, 1)), raw, "cats.csv")
    params = ANALYSES["leaderboard"].params(weights=(0.0, 0.25, 1.0), confidence=0.9)
    text = sess.to_json({"leaderboard": params}, loaded)
    at = start(APP, UPLOAD, 60)
    at.session_state[UPLOAD_KEY] = {"filename": "cats.csv", "data": raw}
    at.session_state["upload_weights"] = "0, 0.5, 1"
    at.run()
    at.session_state[UPLOADED] = ("cats-session.json", text.encode())
    at.run()
    assert any("Restored session" in s.value for s in at.sidebar.success)
    at.switch_page("app_pages/leaderboard.py").run()
    _ok(at)
    lb = ANALYSES["leaderboard"]
    want = lb.tables(lb.run(loaded, params))["leaderboard"].set_index("model")["score"]
    got = _board(at).set_index("model")["score"]
    np.testing.assert_allclose(got.loc[want.index], want, rtol=0, atol=1e-12)
    assert at.session_state[STORE]["leaderboard"].weights == (0.0, 0.25, 1.0)


def _plan_and_studies():
    from scorio_core.definitions import SIMULATIONS

    plan = ANALYSES["plan"].params(confidence=0.9, adjust="bh", assurance=0.9, budget_trials=9,
                                   pair=("Phi-4", "LIMO-v2"), n_max=48, sims=300)
    order = SIMULATIONS["order"].params(upper=0.7, lower=0.62, concentration=9.0, sims=300,
                                        seed=5)
    coins = SIMULATIONS["coins"].params(N=12, replicates=50, methods=("bayes", "avg"), seed=3)
    return plan, order, coins


def test_restore_sets_the_planner_and_the_simulator(data_dir):
    data = attach_source(io.load(data_dir / "reasoning_synthetic.npz"),
                         data_dir / "reasoning_synthetic.npz")
    plan, order, coins = _plan_and_studies()
    text = sess.to_json({"plan": plan, "order": order, "coins": coins}, data, study="order")
    at = start(APP, REASONING, 120)
    at.session_state[UPLOADED] = ("plan-sim.json", text.encode())
    at.run()
    assert any("Restored session" in s.value for s in at.sidebar.success)

    at.switch_page("app_pages/planner.py").run()
    _ok(at)
    assert at.segmented_control(key="plan_confidence").value == 0.9
    assert at.selectbox(key="plan_adjust").value == "bh"
    assert at.segmented_control(key="plan_assurance").value == 0.9
    assert at.number_input(key="plan_budget").value == 9
    assert (at.selectbox(key="plan_upper").value, at.selectbox(key="plan_lower").value) == (
        "Phi-4", "LIMO-v2")
    assert at.number_input(key="plan_nmax").value == 48
    assert at.session_state[STORE]["plan"] == plan  # the page ran the restored settings
    result = ANALYSES["plan"].run(data, plan)
    got = next(d.value for d in at.dataframe if "questions_needed" in d.value.columns)
    assert got["better"].tolist() == result.plan.pairs["better"].tolist()
    from scorio_core.formatting import format_column

    assert got["t"].tolist() == format_column(result.plan.pairs["t"].tolist(), "t")
    want = [f"{v:,.0f}" if np.isfinite(v) else "∞" for v in result.plan.pairs["trials_needed"]]
    assert got["trials_needed"].tolist() == want

    at.switch_page("app_pages/simulator.py").run()
    _ok(at)
    assert at.radio(key="sim_lesson").value == "order"
    assert (at.number_input(key="sim_up").value, at.number_input(key="sim_lo").value) == (0.7,
                                                                                           0.62)
    assert at.number_input(key="sim_order_n").value == 300
    assert at.session_state[STORE]["order"] == order  # seed 5 (no widget) kept
    at.radio(key="sim_lesson").set_value("coins").run()
    _ok(at)
    assert at.number_input(key="sim_coins_n").value == 12
    assert at.multiselect(key="sim_coins_methods").value == ["bayes", "avg"]
    assert at.session_state[STORE]["coins"] == coins
    # the study and its non-default settings are in the link, whatever the data
    q = {k: at.query_params[k] for k in at.query_params}
    assert q.get("study") in ("coins", ["coins"]) and "coins.N" in q


def test_switching_data_on_the_planner_drops_a_pair_they_do_not_have():
    at = start(APP, REASONING, 120, page="app_pages/planner.py")
    _ok(at)
    q = {k: at.query_params[k] for k in at.query_params}
    assert not any(k.startswith("plan.") for k in q), q  # page defaults: nothing to carry
    # the Restore-session uploader says 2 MB, not the server's 200 MB
    assert not at.sidebar.get("file_uploader")  # the Session box renders it when open
    open_box(at, "session_box")
    up = next(e for e in at.sidebar.get("file_uploader") if e.proto.label == "Restore session")
    assert up.proto.max_upload_size_mb == 2
    at.selectbox(key="plan_upper").set_value("Phi-4")
    at.selectbox(key="plan_lower").set_value("LIMO-v2")
    at.number_input(key="plan_nmax").set_value(40).run()
    _ok(at)
    assert at.session_state[STORE]["plan"].pair == ("Phi-4", "LIMO-v2")
    at.selectbox(key="dataset").set_value(COINS).run()
    _ok(at)
    # the note calls each picker by the label the page shows on it (one declaration: the
    # pair's two pickers, Largest N), as an error does; it said **Pair**, a widget the page
    # does not have
    note = next(i.value for i in at.info if "Phi-4" in i.value)
    assert ("**Better model** 'Phi-4' and **Other model** 'LIMO-v2' are not both in these "
            "data; showing the default pair and **Largest N**") in note, note
    shown = [at.selectbox(key=k).label for k in ("plan_upper", "plan_lower")]
    shown.append(at.number_input(key="plan_nmax").label)
    assert re.findall(r"\*\*(.+?)\*\*", note) == shown == ["Better model", "Other model",
                                                          "Largest N"]
    # empty pickers: the default pair, shown as their placeholder and not read as a choice
    assert at.selectbox(key="plan_upper").value is at.selectbox(key="plan_lower").value is None
    assert at.session_state[STORE]["plan"].pair is None
    at.selectbox(key="plan_upper").set_value("LLM_3").run()
    _ok(at)
    assert at.session_state[STORE]["plan"].pair[0] == "LLM_3"  # the other: the default's
    at.selectbox(key="dataset").set_value(REASONING).run()  # and back: nothing stale errors
    _ok(at)
    assert any("**Better model** 'LLM_3' and" in i.value for i in at.info)
    assert at.selectbox(key="plan_upper").value is None
    assert at.session_state[STORE]["plan"].pair is None


def test_a_simulator_link_opens_its_study():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["study"] = "order"
    at.query_params["order.upper"] = "0.7"
    at.query_params["order.sims"] = "300"
    at.switch_page("app_pages/simulator.py")
    at.run()
    _ok(at)
    assert at.radio(key="sim_lesson").value == "order"
    assert at.number_input(key="sim_up").value == 0.7
    assert at.number_input(key="sim_lo").value == 0.608  # left out: the page's default
    assert at.number_input(key="sim_order_n").value == 300
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["study"] = "dice"
    at.run()
    assert not at.exception
    assert any("dice" in e.value for e in at.sidebar.error)


def test_a_link_beyond_a_widgets_range_opens_at_its_top_and_says_so():
    """``questions.top=5000`` in a link: the page offers up to 1,000 questions listed (the
    declaration's ``page_max``); the widget shows 1,000 and the page says why -- Streamlit
    alone would have shown the widget's minimum, 1, without a word."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["dataset"] = "biased_coins"
    at.query_params["questions.top"] = "5000"
    at.run()
    at.switch_page("app_pages/questions.py").run()
    _ok(at)
    assert at.number_input(key="qv_top").value == 1000
    said = " ".join(i.value for i in at.info)
    # the box's label, as an error names a setting
    assert ("**Questions listed** 5,000 is outside the page's range 1 to 1,000; showing 1,000"
            in said), said


def test_what_a_link_changed_is_said_again_in_the_charts_redraw_and_not_after():
    """What applying a link cost (the questions listed beyond the box's 1,000; a benchmark
    these data do not have) is said in the session's first run, again in the rerun that
    draws that run's charts a moment later (``_render.redrawing``: not the user's doing --
    that rerun had dropped the page's note), and no more after the user's next action."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["dataset"] = "biased_coins"
    at.query_params["questions.top"] = "5000"
    at.query_params["benchmark"] = "nope"
    at.switch_page("app_pages/questions.py")
    note = "**Questions listed** 5,000 is outside the page's range 1 to 1,000; showing 1,000"

    def said() -> tuple[bool, bool]:
        assert not at.exception, [e.value for e in at.exception]
        return (any(note in i.value for i in at.info),
                any("benchmark 'nope' is not in these data" in w.value
                    for w in at.sidebar.warning))

    at.run()
    assert said() == (True, True)
    at.session_state[REDRAW] = True  # what draw_deferred's timer sets for its rerun
    at.run()
    assert said() == (True, True)
    at.run()  # the user's next action
    assert said() == (False, False)
    assert at.number_input(key="qv_top").value == 1000


def _sidebar_error(at: AppTest, start: str) -> str:
    assert not at.exception, [e.value for e in at.exception]
    (msg,) = [e.value for e in at.sidebar.error if e.value.startswith(start)]
    return msg


def test_a_link_whose_settings_conflict_names_the_widgets_and_the_values():
    """Settings each valid but not together in a link (the order study's upper below its
    lower, curves asking for G-Pass without τ, a pair of one model) are said as the pages
    name them -- the widgets' labels, the values found -- not by the keywords in the URL;
    the page opens at its defaults. The link's study opens all the same (the audit: it
    dropped study=order and opened Biased coins)."""
    link = "This link's settings could not be used: "
    instead = ". Their page shows its own settings instead."
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params |= {"study": "order", "order.upper": "0.5", "order.lower": "0.6"}
    at.switch_page("app_pages/simulator.py")
    at.run()
    msg = _sidebar_error(at, link)
    assert at.radio(key="sim_lesson").value == "order"  # the link's study, at its defaults
    up, lo = at.number_input(key="sim_up").label, at.number_input(key="sim_lo").label
    assert msg == (f"{link}**{up}** must exceed **{lo}** (the better model first); got "
                   f"**{up}** `0.5`, **{lo}** `0.6`{instead}")
    assert (at.number_input(key="sim_up").value, at.number_input(key="sim_lo").value) == (
        0.6213, 0.608)

    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params |= {"dataset": "biased_coins", "curves.kinds": '["g"]'}
    at.switch_page("app_pages/leaderboard.py")
    at.run()
    msg = _sidebar_error(at, link)
    kinds, tau = at.pills(key="cv_kinds").label, at.segmented_control(key="cv_tau").label
    assert (kinds, tau) == ("Curves", "G-Pass τ")
    assert f"(g in **{kinds}**) needs **{tau}**, the share" in msg
    assert msg.endswith(f"got **{kinds}** `g`, no **{tau}**{instead}"), msg
    assert "kinds" not in msg and "tau" not in msg

    from scorio_core.params import PairParams, widget

    a, b = (widget(PairParams, k)["label"] for k in ("a", "b"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params |= {"dataset": "biased_coins", "pair.a": '"LLM_1"', "pair.b": '"LLM_1"'}
    at.run()
    msg = _sidebar_error(at, link)
    assert msg == (f"{link}**{a}** and **{b}** must be two different models; got **{a}** "
                   f"`LLM_1`, **{b}** `LLM_1`{instead}")


def test_a_session_file_whose_settings_conflict_names_the_widgets(data_dir):
    """A session file edited by hand to the order study's worse model first: one message
    naming the Simulator's boxes and the values; nothing is restored."""
    import json

    from scorio_core.definitions import SIMULATIONS

    text = sess.to_json({"order": SIMULATIONS["order"].params(upper=0.7, lower=0.6)},
                        study="order")
    edited = json.loads(text)
    edited["settings"]["order"]["lower"] = 0.75
    at = start(APP, REASONING, 60)
    at.session_state[UPLOADED] = ("edited.json", json.dumps(edited).encode())
    at.run()
    msg = _sidebar_error(at, "Could not restore edited.json: ")
    assert msg.endswith("**Better model π̄** must exceed **Worse model π̄** (the better model "
                        "first); got **Better model π̄** `0.7`, **Worse model π̄** `0.75`"), msg
    assert not any("Restored session" in s.value for s in at.sidebar.success)
    assert STORE not in at.session_state or "order" not in at.session_state[STORE]
