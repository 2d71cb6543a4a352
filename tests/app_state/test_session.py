"""Session files and links (app_state.session) and page state
(app_state.page_state): round trips, data checks, hostile input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from app_state import session as sess
from app_state.page_state import (
    CURRENT_RUBRIC,
    PAGES,
    clamp,
    complete_pair,
    from_state,
    ks_options,
    page_default,
    state_keys,
    to_state,
)
from scorio_core import Outcomes, ValidationError, io
from scorio_core import rubric as rb
from scorio_core.definitions import ANALYSES, SIMULATIONS
from scorio_core.definitions.provenance import attach_source, file_sha256
from scorio_core.params import ConvergenceParams, widget


@pytest.fixture(scope="module")
def reasoning(data_dir) -> Outcomes:
    return attach_source(io.load(data_dir / "reasoning_synthetic.npz"),
                         data_dir / "reasoning_synthetic.npz")


@pytest.fixture(scope="module")
def coins(data_dir) -> Outcomes:
    return attach_source(io.load(data_dir / "biased_coins.npz"), data_dir / "biased_coins.npz")


@pytest.fixture(scope="module")
def real(data_dir) -> Outcomes:
    """The app's default dataset: real, with the signals of a long table (no paper preset
    applies; the length rubric does)."""
    path = data_dir / "jhu_llm_temperature.parquet"
    return attach_source(io.load(path), path)


def _non_default(data: Outcomes) -> dict:
    """One setting per analysis that differs from the page default."""
    custom = rb.from_json(rb.to_json(rb.get_preset("ranking/conservative")) | {"name": "Mine"})
    return {
        "leaderboard": ANALYSES["leaderboard"].params(confidence=0.9, ks=(2, 4), scope="population",
                                                      adjust="holm", prior="greedy", seed=3),
        "compare": ANALYSES["compare"].params(methods="voting"),
        "convergence": ANALYSES["convergence"].params(methods="bayes,avg", replicates=500,
                                                      curve_replicates=40, seed=9, scheme="row",
                                                      match="ci"),
        "stability": ANALYSES["stability"].params(methods="pointwise"),
        "greedy": ANALYSES["greedy"].params(replicates=12, seed=5),
        "rubric": ANALYSES["rubric"].params(schemes=(custom, "dontpass/format-aware")),
        "plan": ANALYSES["plan"].params(confidence=0.9, scope="population", adjust="bh",
                                        budget_trials=7, pair=("Phi-4", "LIMO-v2"), n_max=64,
                                        draws=2000, seed=2, sims=500, lead=0.03),
    }


def _studies() -> dict:
    """One setting per simulation study that differs from the Simulator page's default,
    inside the page's widget ranges."""
    sim = SIMULATIONS
    return {
        "coins": sim["coins"].params(concentration=5.0, N=20, replicates=100, M=12,
                                     methods=("bayes", "avg"), fresh_questions=True, seed=4),
        "prior-depth": sim["prior-depth"].params(replicates=400, seed=8),
        "order": sim["order"].params(upper=0.7, lower=0.65, concentration=9.0, sims=600, seed=3),
        "calibration": sim["calibration"].params(means=(0.3,), M_values=(30, 500),
                                                 concentration=4.0, replicates=400, seed=1),
        "rubric-lesson": sim["rubric-lesson"].params(weights=(0.0, 0.25, 1.0), R0=((2,), (1,))),
    }


def test_session_file_round_trip_with_rubric_and_report(reasoning, data_dir):
    settings = _non_default(reasoning)
    editing = rb.get_preset("dontpass/format-aware")
    text = sess.to_json(settings, reasoning, benchmark="AIME'25", rubric=editing,
                        report={"sections": ["leaderboard", "greedy"], "title": "T <b>"})
    back = sess.from_json(text)
    assert back.data["benchmark"] == "AIME'25"
    assert back.data["input"]["sha256"] == file_sha256(data_dir / "reasoning_synthetic.npz")
    assert back.rubric.to_json() == editing.to_json()
    assert back.report == {"sections": ["leaderboard", "greedy"], "title": "T <b>"}
    for aid in ("leaderboard", "compare", "convergence", "stability", "greedy", "plan"):
        assert back.settings[aid] == settings[aid], aid
    assert back.study is None
    # the file holds no pickled or binary data: plain JSON all the way down
    assert json.loads(text)["format"] == sess.FORMAT


def test_check_data_names_expected_and_found(reasoning, coins):
    s = sess.from_json(sess.to_json({}, reasoning))
    assert sess.check_data(s, reasoning) is None
    assert sess.check_data(s, reasoning.select("AIME'25")) is None  # same file, a benchmark view
    why = sess.check_data(s, coins)
    want, found = reasoning.metadata["source_sha256"], coins.metadata["source_sha256"]
    assert want[:8] in why and found[:8] in why and "reasoning_synthetic.npz" in why
    unhashed = Outcomes(coins.R, name="coins in memory")
    assert "no file hash" in sess.check_data(s, unhashed)
    # a session that names no file falls back to the dataset name
    named = sess.Session({"dataset": reasoning.name}, {})
    assert sess.check_data(named, reasoning) is None
    assert reasoning.name in sess.check_data(named, unhashed)


@pytest.mark.parametrize(
    ("payload", "match"),
    [
        ({"extra": 1}, "unknown field"),
        ({"data": {"dataset": "x", "path": "/etc/passwd"}}, "unknown field"),
        ({"data": {"input": {"sha256": "abc"}}}, "64 lowercase hex"),
        ({"data": {"input": {"sha256": "g" * 64}}}, "64 lowercase hex"),
        ({"data": {"input": {"file": 3}}}, "data.input.file: must be a string; got int 3"),
        ({"data": {"input": {"file": "a", "cmd": "rm"}}}, "data.input"),
        ({"data": {"benchmark": "b" * 1000}}, "benchmark"),
        ({"report": {"sections": ["plot"]}}, "report.sections"),
        ({"report": {"sections": [], "title": 5}}, "report.title"),
        ({"report": {"theme": "dark"}}, "report"),
        ({"rubric": {"name": "x"}}, "rubric|rule|categor"),  # the rubric's own validation
        ({"settings": {"greedy": {"replicates": "many"}}}, "replicates"),
    ],
)
def test_hostile_session_fields_are_refused(payload, match):
    text = json.dumps({"format": sess.FORMAT} | payload)
    with pytest.raises(ValidationError, match=match):
        sess.from_json(text)


def test_session_errors_give_the_json_path_of_each_problem():
    rubric = {"name": "x", "categories": ["a", "b"], "weights": [0, 1],
              "rules": [{"category": 1, "when": {"signal": "s", "op": "<", "value": "1"}}]}
    bad = {"format": sess.FORMAT, "rubric": rubric, "data": {"shape": {"models": "3"}}}
    with pytest.raises(ValidationError) as exc:
        sess.from_json(json.dumps(bad))
    assert str(exc.value).splitlines() == [
        "data.shape: missing required fields: questions, trials",
        "rubric.rules[0].when.value: must be a number; got str '1'",
    ]
    with pytest.raises(ValidationError, match=r"^session file: 'format' must be one of "
                       r"'scorio-studio/session-1', 'scorio-studio/session-2'; got 'x'$"):
        sess.from_json('{"format": "x"}')
    with pytest.raises(ValidationError, match="^session file: must be a JSON object with a "
                       "'format' field$"):
        sess.from_json('{"data": {}}')


def test_what_to_json_writes_is_checked_by_the_same_schema():
    # the page keeps sections as a tuple: written as a list, with the default title
    text = sess.to_json({}, report={"sections": ("leaderboard",)})
    assert json.loads(text)["report"] == {"sections": ["leaderboard"], "title": ""}
    assert sess.from_json(text).report == {"sections": ["leaderboard"], "title": ""}
    with pytest.raises(ValidationError, match=r"^report.sections\[0\]: must be 'leaderboard'"):
        sess.to_json({}, report={"sections": ["plot"]})
    with pytest.raises(ValidationError, match="^report: unknown field"):
        sess.to_json({}, report={"theme": "dark"})
    with pytest.raises(ValidationError, match="^report.title: must have at most 300 characters; "
                       "got str of 301 characters$"):
        sess.to_json({}, report={"title": "x" * 301})
    with pytest.raises(ValidationError, match="^simulator.study: unknown simulation study 'dice'"):
        sess.to_json({}, study="dice")


def test_oversized_and_deep_session_files_are_refused_before_parsing():
    big = '{"format": "scorio-studio/session-1", "x": "' + "a" * 2_100_000 + '"}'
    with pytest.raises(ValidationError, match="at most"):
        sess.from_json(big)
    deep = '{"format": "scorio-studio/session-1", "data": ' + "[" * 5000 + "]" * 5000 + "}"
    with pytest.raises(ValidationError, match="nested"):
        sess.from_json(deep)
    with pytest.raises(ValidationError, match="UTF-8"):
        sess.from_json(b"\xff\xfe{}")


def test_view_query_round_trip():
    p = ANALYSES["leaderboard"].params(confidence=0.8, scope="population")
    q = sess.view_query("reasoning_synthetic", "AIME'25", "leaderboard", p)
    assert q["dataset"] == "reasoning_synthetic" and q["benchmark"] == "AIME'25"
    stem, bench, settings = sess.view_from_query(q | {"utm_source": "mail"})
    assert (stem, bench, settings) == ("reasoning_synthetic", "AIME'25", {"leaderboard": p})
    assert sess.view_from_query({}) == (None, None, {})
    with pytest.raises(ValidationError, match="unknown analysis"):
        sess.view_from_query({"plot.x": "1"})
    with pytest.raises(ValidationError, match="at most"):
        sess.view_from_query({"greedy.seed": "1" * 5000})
    with pytest.raises(ValidationError, match="nested|JSON"):
        sess.view_from_query({"compare.methods": "[" * 50 + "]" * 50})


@pytest.mark.parametrize("which", ["reasoning", "coins", "real"])
@pytest.mark.parametrize("aid", list(PAGES))
def test_page_state_round_trips_defaults(aid, which, request):
    data = request.getfixturevalue(which)
    p = page_default(aid, data)
    state, notes = to_state(aid, p, data)
    assert notes == []
    assert set(state) == set(state_keys(aid))
    assert from_state(aid, state, data) == p
    assert from_state(aid, {}, data) == p  # nothing chosen yet: the page default


def test_rubric_settings_keep_to_the_presets_the_data_can_use(reasoning, real):
    from scorio_core.definitions.rubric import DEFAULT_SCHEMES

    assert page_default("rubric", reasoning).schemes == DEFAULT_SCHEMES
    assert page_default("rubric", real).schemes == ("length/concise-correct",)
    # a paper's preset chosen on the synthetic set is left out on the real one, with a note
    p = from_state("rubric", {"rubric_compare": ["ranking/conservative",
                                                 "length/concise-correct"]}, real)
    state, notes = to_state("rubric", p, real)
    assert state["rubric_compare"] == ["length/concise-correct"]
    assert notes and "ranking/conservative" in notes[0] and "lack the signals" in notes[0]


def test_page_state_round_trips_non_default_settings(reasoning):
    settings = _non_default(reasoning)
    for aid, p in settings.items():
        state, notes = to_state(aid, p, reasoning)
        assert notes == [], aid
        if aid == "rubric":
            assert state["rubric_compare"] == [CURRENT_RUBRIC, "dontpass/format-aware"]
            current = state["_rubric_custom"]
            assert current.name == "Mine"
            back = from_state(aid, state, reasoning, current=current)
            assert [getattr(s, "name", s) for s in back.schemes] == ["Mine (edited)",
                                                                      "dontpass/format-aware"]
            # an edited rubric comes back once more without a doubled suffix
            again = to_state(aid, back, reasoning)[0]["_rubric_custom"]
            assert again.name == "Mine"
        else:
            assert from_state(aid, state, reasoning) == p, aid


def test_page_state_says_what_the_data_cannot_show(coins):
    lb = ANALYSES["leaderboard"].params(ks=(1, 2, 4096), prior="greedy", confidence=0.93)
    state, notes = to_state("leaderboard", lb, coins)
    assert state["ks"] == [1, 2] and state["use_prior"] is False and state["confidence"] == 0.95
    assert len(notes) == 3 and any("4096" in n for n in notes)
    state, notes = to_state("plan", ANALYSES["plan"].params(lead=3.0), coins)
    assert state["plan_lead"] == 1.0 and notes == [
        "**Lead that matters** 3 is above these data's score range, 1; showing 1"]
    ids = "bayes,borda"  # borda alone is not its family
    state, notes = to_state("stability", ANALYSES["stability"].params(methods=ids), coins)
    assert "voting" in state["stab_families"] and notes == [
        "**Method families**: the page picks whole families; showing metrics, voting (30 "
        "methods, not 2)"]


def test_restore_notes_name_each_setting_by_its_declared_label(coins, reasoning):
    """A link's or session's "Restored with changes" notes named settings by their Python
    fields ("lead 3 is above these data's score range", "target 'truth' needs ...", "M
    values [50] ...") while errors and clamp notes name the widget's label: every note on
    what a page cannot show now calls the setting as the page labels it, from its one
    declaration, in bold (``app_state.texts.setting_label``)."""
    A = ANALYSES
    said = {
        ("leaderboard", coins): (A["leaderboard"].params(
            ks=(1, 2, 4096), prior="greedy", confidence=0.93, subset=("nope", ("x",)),
            by="nope"), [
            "**Confidence** 93% is not one of the choices; showing 95%",
            "**Prior** greedy needs R0, which these data do not have; showing uniform",
            "**Pass@k columns** [4096] are not offered for N = 80 trials",
            "**Subset** nope=x is not one of these data's single-value subsets; showing every "
            "question",
            "**Per subset** 'nope' is not a question attribute of these data; no per-subset "
            "table"]),
        ("convergence", coins): (A["convergence"].params(methods="bayes,bayes_greedy"), [
            "**Methods** not usable on these data were left out: bayes_greedy"]),
        ("convergence", reasoning): (A["convergence"].params(target="truth"), [
            "**Target** 'truth' needs known true means; showing 'gold'"]),
        ("plan", coins): (A["plan"].params(pair=("X", "Y"), n_max=30, assurance=0.85), [
            "**Chance of a decision** 85% is not one of the choices; showing 80%",
            "**Better model** 'X' and **Other model** 'Y' are not both in these data; showing "
            "the default pair and **Largest N**"]),
        ("pair", coins): (A["pair"].params(a="nope", b="nah", question="q?"), [
            "**Model A** 'nope' and **Model B** 'nah' are not in these data; showing the best "
            "models instead",
            "**Question** 'q?' is not in these data; showing the one that drives the gap"]),
        ("curves", coins): (A["curves"].params(tau=0.3), [
            "**G-Pass τ** 0.3 is not one of the choices; showing 0.25"]),
        ("check", coins): (A["check"].params(trials=7, models=99), [
            "**Trials per question** 7 is not offered for a run of 80 trials (at most 20); "
            "showing 8",
            "**Models (p_best check)** 99 is more than these data's 11 models; showing all of "
            "them"]),
    }
    for (aid, data), (p, want) in said.items():
        assert to_state(aid, p, data)[1] == want, aid
    # one model missing: said of that picker alone
    _, notes = to_state("pair", A["pair"].params(b="nah"), coins)
    assert notes == ["**Model B** 'nah' is not in these data; showing the best models instead"]
    # the Simulator's studies, too
    sim = SIMULATIONS
    _, notes = to_state("coins", sim["coins"].params(methods=("bayes", "nope")), None)
    assert notes == ["**Metrics** ['nope'] are not offered"]
    _, notes = to_state("calibration", sim["calibration"].params(
        means=(0.3, 0.7), M_values=(15, 50)), None)
    assert notes == ["**Mean success**: the page simulates one; showing 0.3 of [0.3, 0.7]",
                     "**Questions M** [50] are not offered"]
    _, notes = to_state("rubric-lesson", sim["rubric-lesson"].params(
        weights=(0.0, 1.0), R0=((1,), (1,))), None)
    assert notes == ["the page shows three weights, **weight of category 0** to **weight of "
                     "category 2**; got 2, showing its own",
                     "**Prior outcomes** ((1,), (1,)) are not offered; showing none"]


def test_page_state_keeps_numbers_within_what_their_widget_offers(coins):
    """A restored or linked number above the page's range is shown at the top of it, with a
    note (a number widget given it would silently fall back to its minimum); the range is
    the declaration's page bound (``page_max``), the API keeps the full range."""
    conv = ANALYSES["convergence"].params(replicates=300_000, curve_replicates=50_000,
                                          slow_replicates=7)
    state, notes = to_state("convergence", conv, coins)
    top = {n: widget(ConvergenceParams, n)["max_value"]
           for n in ("replicates", "curve_replicates", "slow_replicates")}
    assert (state["conv_b_conv"], state["conv_b_curves"], state["conv_b_slow"]) == (
        top["replicates"], top["curve_replicates"], 7) == (200_000, 20_000, 7)
    assert notes == ["**Replicates for curves** 50,000 is outside the page's range 2 to 20,000; "
                     "showing 20,000", "**Replicates for convergence@n** 300,000 is outside "
                     "the page's range 2 to 200,000; showing 200,000"]
    back = from_state("convergence", state, coins)
    assert (back.replicates, back.curve_replicates, back.slow_replicates) == (200_000, 20_000, 7)
    # a budget of 0 ("as many trials again") and one above the page's 10,000
    state, notes = to_state("plan", ANALYSES["plan"].params(budget_trials=50_000), coins)
    assert state["plan_budget"] == 10_000 and "**Extra trials (budget)** 50,000" in notes[0]
    # within range: nothing said, nothing changed (a seed up to 2**53 - 1 is exact in a page)
    state, notes = to_state("greedy", ANALYSES["greedy"].params(replicates=5000, seed=2**40),
                            coins)
    assert notes == [] and state == {"greedy_reps": 5000, "greedy_seed": 2**40}


def test_clamp_notes_name_the_widget_by_its_declared_label():
    """A clamp note named the setting's field ("sims 100 is outside the page's range 200 to
    20,000") while an error names the widgets' labels (``app_state.texts.error_text``): the
    note now calls every bounded number setting of every page by the label its widget
    shows, from the one declaration (``scorio_core.params.widget``), in bold as an error."""
    from app_state.texts import error_text, setting_label
    from scorio_core.params import settings_of
    from scorio_core.simulate.params import OrderParams

    classes = {a.params for a in (*map(ANALYSES.__getitem__, ANALYSES),
                                  *map(SIMULATIONS.__getitem__, SIMULATIONS))}
    checked = 0
    for cls in classes:
        for name in settings_of(cls):
            w = widget(cls, name)
            if w["options"] is not None or w["max_value"] is None:
                continue
            notes: list[str] = []
            above = (int if w["integer"] else float)(w["max_value"] * 2 + 1)
            assert clamp(cls, name, above, notes) == w["max_value"]
            assert len(notes) == 1 and notes[0].startswith(f"**{w['label']}** "), notes
            checked += 1
    assert checked >= 40  # every page's bounded numbers, the Simulator's too
    notes = []
    assert clamp(OrderParams, "sims", 100, notes) == 200
    assert notes == ["**Datasets per N** 100 is outside the page's range 200 to 20,000; "
                     "showing 200"]
    notes = []  # a bound on one side only: the Planner's lead (at least 0)
    assert clamp(ANALYSES["plan"].params, "lead", -0.5, notes) == 0.0
    assert notes == ["**Lead that matters** -0.5 is outside the page's range (at least 0); "
                     "showing 0"]
    # the same label, written the same way, as an error about the same setting
    try:
        OrderParams(upper=0.5, lower=0.6)
    except ValidationError as exc:
        said = error_text(exc)
    notes = []
    clamp(OrderParams, "upper", 1.5, notes)
    label = notes[0].split(" 1.5 ")[0]
    assert label == "**Better model π̄**" and said.startswith(label), (label, said)
    # both from the one helper that writes a setting's name in a note or an error
    assert setting_label(OrderParams, "upper") == label
    assert setting_label(OrderParams, "weights") == "`weights`"  # not OrderParams' setting


def test_ks_options():
    assert ks_options(1) == [1]
    assert ks_options(8) == [1, 2, 4, 8]
    assert ks_options(80) == [1, 2, 4, 8, 16, 32, 64, 80]


def test_session_settings_reproduce_numbers(reasoning):
    """A saved and restored leaderboard gives the same numbers as the original."""
    view = reasoning.select("AIME'25")
    p = _non_default(reasoning)["leaderboard"]
    back = sess.from_json(sess.to_json({"leaderboard": p}, view)).settings["leaderboard"]
    a = ANALYSES["leaderboard"]
    t1, t2 = a.tables(a.run(view, p))["leaderboard"], a.tables(a.run(view, back))["leaderboard"]
    np.testing.assert_allclose(t1["score"], t2["score"], rtol=0, atol=1e-12)
    assert t1["model"].tolist() == t2["model"].tolist()


def test_simulation_studies_round_trip_in_a_session_file():
    studies = _studies()
    for sid, p in studies.items():
        assert p != page_default(sid, None), sid
    text = sess.to_json(studies | {"greedy": ANALYSES["greedy"].params(seed=2)}, study="order")
    obj = json.loads(text)
    assert obj["format"] == "scorio-studio/session-2" and obj["simulator"] == {"study": "order"}
    back = sess.from_json(text)
    assert back.study == "order"
    for sid, p in studies.items():
        assert back.settings[sid] == p, sid
    # the restored rubric lesson computes the saved lesson's numbers
    a = SIMULATIONS["rubric-lesson"]
    want = a.run(None, studies["rubric-lesson"])
    got = a.run(None, back.settings["rubric-lesson"])
    assert abs(got.mu - want.mu) < 1e-12 and abs(got.sigma - want.sigma) < 1e-12
    # by hand (Algorithm 1): nu = 1 + counts of R and R0 -> Q1 (2, 3, 4), Q2 (2, 4, 3), T = 9
    assert abs(want.mu - (4.75 / 9 + 4 / 9) / 2) < 1e-12
    with pytest.raises(ValidationError, match="unknown simulation study 'dice'"):
        sess.to_json({}, study="dice")
    with pytest.raises(ValidationError, match="unknown simulation study"):
        sess.from_json(json.dumps({"format": sess.FORMAT, "simulator": {"study": "dice"}}))
    with pytest.raises(ValidationError, match="simulator"):
        sess.from_json(json.dumps({"format": sess.FORMAT, "simulator": {"lesson": "order"}}))


def test_version_1_session_files_still_load():
    v1 = {"format": "scorio-studio/session-1", "data": {"dataset": "runs"},
          "settings": {"greedy": {"replicates": 9, "seed": 2}}}
    back = sess.from_json(json.dumps(v1))
    assert back.settings == {"greedy": ANALYSES["greedy"].params(replicates=9, seed=2)}
    assert back.study is None
    # version 1 had neither the simulator field nor simulation studies in settings
    with pytest.raises(ValidationError, match="unknown field"):
        sess.from_json(json.dumps(v1 | {"simulator": {"study": "order"}}))
    with pytest.raises(ValidationError, match="analyses only"):
        sess.from_json(json.dumps(v1 | {"settings": {"order": {"sims": 500}}}))
    with pytest.raises(ValidationError, match="session-1.*session-2"):
        sess.from_json(json.dumps({"format": "scorio-studio/session-9"}))


@pytest.mark.parametrize("sid", list(SIMULATIONS))
def test_simulator_page_state_round_trips(sid):
    p = page_default(sid, None)
    state, notes = to_state(sid, p, None)
    assert notes == [] and set(state) == set(state_keys(sid))
    assert from_state(sid, state, None) == p
    assert from_state(sid, {}, None) == p
    q = _studies()[sid]
    state, notes = to_state(sid, q, None)
    assert notes == [], sid
    assert from_state(sid, state, None) == q
    # a link carries what differs from the page's defaults and comes back whole
    link = sess.to_query(sid, q, base=p)
    assert link and all(k.startswith(sid + ".") for k in link)
    assert sess.from_query(sid, link, base=p) == q
    assert sess.to_query(sid, p, base=p) == {}
    _, _, settings = sess.view_from_query({"study": sid} | link)
    assert settings == {sid: sess.from_query(sid, link)}
    assert sess.study_from_query({"study": sid}) == sid


@pytest.mark.parametrize("sid", list(SIMULATIONS))
def test_simulator_page_opens_on_the_settings_the_cli_runs(sid):
    """One declaration of each study's defaults: the page's first view runs what
    ``scorio-studio simulate STUDY`` runs without flags (it had run smaller studies -- coins
    N = 40 on 300 datasets, order 2,000 datasets per N -- so one seed headlined other numbers
    on the page than in the terminal), and the widgets show those settings unclamped."""
    from scorio_core.cli import _parser
    from scorio_core.cli.simulate import params as cli_params

    cli = cli_params(_parser().parse_args(["simulate", sid]))
    assert page_default(sid, None) == cli == SIMULATIONS[sid].params()
    _, notes = to_state(sid, cli, None)
    assert notes == [], notes


def test_simulator_page_state_says_what_its_widgets_cannot_show():
    sim = SIMULATIONS
    state, notes = to_state("coins", sim["coins"].params(N=1000, methods=("bayes", "nope")), None)
    assert state["sim_coins_n"] == 200 and state["sim_coins_methods"] == ["bayes"]
    assert len(notes) == 2 and "**Trials N** 1,000 is outside the page's range 8 to 200" in notes[0]
    assert "nope" in notes[1]
    state, notes = to_state("calibration", sim["calibration"].params(
        means=(0.3, 0.7), M_values=(15, 50)), None)
    assert state["sim_cal_mean"] == 0.3 and state["sim_cal_m"] == [15]
    assert len(notes) == 2 and "[50]" in notes[1]
    state, notes = to_state("rubric-lesson", sim["rubric-lesson"].params(
        weights=(0.0, 2.0, 1.0), R0=((1,), (1,))), None)
    assert [state[f"sim_w{k}"] for k in range(3)] == [0.0, 1.0, 1.0]
    assert state["sim_r0"] == "none" and len(notes) == 2
    # the slider's own label ("weight of category 1"), as the page shows it
    assert notes[0] == ("**weight of category 1** 2 is outside the page's range 0 to 1; "
                        "showing 1")
    state, _ = to_state("order", sim["order"].params(sims=100), None)
    assert isinstance(state["sim_order_n"], int) and state["sim_order_n"] == 200
    assert isinstance(state["sim_up"], float)


def test_planner_drops_a_pair_the_new_data_do_not_have(reasoning, coins):
    p = _non_default(reasoning)["plan"]
    state, notes = to_state("plan", p, coins)
    assert state["plan_upper"] is None and state["plan_lower"] is None
    assert state["plan_nmax"] is None  # N belonged to that pair's curve
    assert len(notes) == 1 and "'Phi-4' and **Other model** 'LIMO-v2'" in notes[0]
    back = from_state("plan", state, coins)
    assert back.pair is None and back.n_max is None
    assert (back.confidence, back.scope, back.adjust, back.budget_trials) == (0.9, "population",
                                                                             "bh", 7)
    # a pair both data have is kept; budget 0 ("as many trials again") shows as L × N
    kept = ANALYSES["plan"].params(pair=("LLM_2", "LLM_1"), n_max=30)
    state, notes = to_state("plan", kept, coins)
    assert notes == [] and (state["plan_upper"], state["plan_nmax"]) == ("LLM_2", 30)
    assert state["plan_budget"] == min(coins.L * coins.N, 10_000)
    assert state["plan_assurance"] == 0.8


def test_planner_pair_pickers_are_both_chosen_or_both_the_default(coins):
    """The Planner's pickers hold the default pair as nothing (their placeholder shows it):
    the page had written the default's names into them, and its next run read them back as a
    pair chosen. Picking one model picks a whole pair; clearing one clears both."""
    default = ("LLM_11", "LLM_9")  # the (better, other) pair the page's curves used
    fresh, _ = to_state("plan", page_default("plan", coins), coins)
    assert (fresh["plan_upper"], fresh["plan_lower"], fresh["plan_nmax"]) == (None,) * 3
    assert from_state("plan", fresh, coins).pair is None
    rng = np.random.default_rng(0)
    names = [str(m) for m in coins.models]
    state = dict(fresh)
    for _ in range(200):  # any sequence of picks and clears
        key = str(rng.choice(["plan_upper", "plan_lower"]))
        state[key] = None if rng.random() < 0.3 else str(rng.choice(names))
        complete_pair(state, key, default)
        up, lo = state["plan_upper"], state["plan_lower"]
        assert (up is None) == (lo is None), state
        pair = from_state("plan", state, coins).pair
        assert pair == (None if up is None or up == lo else (up, lo)), state
    state = dict(fresh, plan_upper="LLM_9")  # the default's other model picked as the better
    complete_pair(state, "plan_upper", default)
    assert from_state("plan", state, coins).pair == ("LLM_9", "LLM_11")
    state = dict(fresh, plan_lower="LLM_3")
    complete_pair(state, "plan_lower", default)
    assert from_state("plan", state, coins).pair == ("LLM_11", "LLM_3")
    with pytest.raises(ValidationError, match="plan_upper"):
        complete_pair(state, "plan_nmax", default)


def test_a_session_of_data_read_from_several_files_saves_and_checks_each_file():
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "fixtures" / "harness" / "inspect" / "epochs"
    data = io.load(folder)  # two logs: a list of files and one sha256 per file
    s = sess.from_json(sess.to_json({}, data))
    assert s.data["input"]["sha256_per_file"] == data.metadata["source_sha256_per_file"]
    assert sess.check_data(s, data) is None
    one = io.load(sorted(folder.glob("*.eval"))[0])
    assert "2 files" in sess.check_data(s, one)


def test_percent_notes_write_a_value_as_the_buttons_do(coins):
    """A confidence or assurance is noted in the one format its buttons use
    (``page_state.percent``): a value off the buttons keeps the decimals it needs, so a note
    never says a value "is not one of the choices" in the words of one (0.901 read as 90%)."""
    from app_state.page_state import ASSURANCES, CONFIDENCES, percent

    assert [percent(c) for c in CONFIDENCES] == ["80%", "90%", "95%", "99%"]
    assert [percent(c) for c in ASSURANCES] == ["50%", "80%", "90%", "95%"]
    assert (percent(0.901), percent(0.925), percent(0.29)) == ("90.1%", "92.5%", "29%")
    rng = np.random.default_rng(7)
    for value in rng.uniform(0.5, 0.999, 20).round(3):
        if value in CONFIDENCES:
            continue
        _, notes = to_state("plan", ANALYSES["plan"].params(confidence=float(value)), coins)
        said = notes[0].split(" is not one of the choices; showing ")
        assert said[0] == f"**Confidence** {percent(value)}", notes
        assert said[1] in [percent(c) for c in CONFIDENCES] and said[0][-1] == "%", notes
        assert said[0].removeprefix("**Confidence** ") not in [percent(c) for c in CONFIDENCES]


def test_a_setting_shown_as_several_widgets_is_named_by_their_labels():
    """The Planner's pair is one setting on two pickers: its declaration labels both, the
    page shows those labels and every note names them (``setting_label``)."""
    from app_state.texts import setting_label
    from scorio_core.params import PlanParams

    assert widget(PlanParams, "pair")["parts"] == ["Better model", "Other model"]
    assert setting_label(PlanParams, "pair") == "**Better model** / **Other model**"
    assert [setting_label(PlanParams, "pair", k) for k in (0, 1)] == ["**Better model**",
                                                                      "**Other model**"]
    assert widget(PlanParams, "n_max")["parts"] is None
    assert setting_label(PlanParams, "n_max") == "**Largest N**"
