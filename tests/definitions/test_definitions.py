"""The analysis definitions: parameters validate, runs equal the core calls, and every
``to_code`` cell is valid Python that reproduces the numbers with public calls."""

from __future__ import annotations

import ast
import dataclasses
import json

import altair as alt
import numpy as np
import pandas as pd
import pytest

from scorio_core import Outcomes, ValidationError, display, export, io
from scorio_core.definitions import ANALYSES, Chart, params_dict, resolve_methods
from scorio_core.engines import compare, run_methods
from scorio_core.engines.stability import low_budget_stability
from scorio_core.leaderboard import leaderboard

# small settings so the whole file runs in a few seconds
FAST = {
    "leaderboard": {"confidence": 0.9, "ks": (2, 8)},
    "compare": {"methods": "bayes,avg,borda,bradley_terry,pass_at_k_2"},
    "convergence": {
        "methods": "bayes,pass_at_k_2,borda",
        "replicates": 300,
        "curve_replicates": 40,
        "slow_replicates": 3,
        "seed": 7,
    },
    "stability": {"methods": "bayes,avg,borda,bayes_greedy"},
    "greedy": {"replicates": 8, "seed": 3},
    "rubric": {"schemes": ("ranking/conservative", "dontpass/format-aware")},
    "plan": {"budget_trials": 12, "n_max": 24, "sims": 300, "seed": 4},
    "pair": {"confidence": 0.9},
    "questions": {"top": 7},
    "curves": {"tau": 0.5, "scope": "population"},
    "check": {"reps": 20, "questions": 15, "trials": 2, "draws": 500, "seed": 2,
              "plan_reps": 2},
}


@pytest.fixture(scope="module")
def aime(data_dir) -> Outcomes:
    return io.load(data_dir / "reasoning_synthetic.npz").select("AIME'25")


@pytest.fixture(scope="module")
def results(aime):
    return {k: a.run(aime, a.params(**FAST[k])) for k, a in ANALYSES.items()}


def test_registry_ids_and_contract():
    assert list(ANALYSES) == ["leaderboard", "compare", "convergence", "stability", "greedy",
                              "rubric", "plan", "pair", "questions", "curves", "check"]
    for k, a in ANALYSES.items():
        assert a.id == k
        p = a.params()  # defaults are valid
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(p, next(iter(params_dict(p))), None)
        assert a.how_to_read.strip()


@pytest.mark.parametrize(
    ("aid", "bad", "match"),
    [
        ("leaderboard", {"confidence": 1.5}, "confidence"),
        ("leaderboard", {"prior": "greed"}, "prior"),
        ("leaderboard", {"ks": (0,)}, "ks"),
        ("leaderboard", {"weights": (0.0, float("nan"))}, "weights"),
        ("compare", {"methods": "bayes,nope"}, "unknown method"),
        ("convergence", {"replicates": 1}, "replicates"),
        ("convergence", {"scheme": "rows"}, "scheme"),
        ("convergence", {"target": "truthy"}, "target"),
        ("stability", {"methods": ""}, "at least one"),
        ("greedy", {"seed": -1}, "seed"),
        ("rubric", {"schemes": ("no/such",)}, "no/such"),
        ("rubric", {"schemes": ()}, "at least one"),
        ("plan", {"budget_trials": -1}, "budget_trials"),
        ("plan", {"scope": "world"}, "scope"),
        ("plan", {"pair": ("a", "a")}, "two different models"),
        ("plan", {"n_max": 5000}, "n_max"),
        ("plan", {"sims": 10}, "sims"),
    ],
)
def test_params_refuse_bad_values(aid, bad, match):
    with pytest.raises(ValidationError, match=match):
        ANALYSES[aid].params(**bad)


def test_resolve_methods_forms():
    from scorio_core.rank import METHODS

    assert resolve_methods("all") == list(METHODS)
    assert resolve_methods(["bayes", "avg"]) == ["bayes", "avg"]
    fam = METHODS["borda"].family
    assert "borda" in resolve_methods(fam)


def test_runs_equal_core_calls(aime, results):
    board = leaderboard(aime, confidence=0.9, ks=[2, 8])
    got = results["leaderboard"].board.table
    pd.testing.assert_frame_equal(got, board.table)
    ids = resolve_methods(FAST["compare"]["methods"])
    cmp = compare(run_methods(aime.R, aime.R0, ids, aime.models), R=aime.R)
    pd.testing.assert_frame_equal(results["compare"].comparison.agreement, cmp.agreement)
    st = low_budget_stability(aime.R, aime.R0, resolve_methods(FAST["stability"]["methods"]))
    pd.testing.assert_frame_equal(results["stability"].stability.table, st.table)


def test_tables_and_charts_render(results):
    for k, a in ANALYSES.items():
        tables = a.tables(results[k])
        assert tables and all(isinstance(t, pd.DataFrame) for t in tables.values()), k
        charts = a.charts(results[k])
        assert len(charts) == len(a.chart_code), k
        for c in charts:
            assert isinstance(c, Chart) and c.title and c.caption.endswith("."), (k, c.title)
            assert isinstance(c.chart, alt.TopLevelMixin)
            c.chart.to_dict()  # a valid Vega-Lite spec


def test_convergence_splits_slow_methods(results):
    r = results["convergence"]
    summ = r.summary.set_index("method")
    # borda has no running-count fast path: it gets the slow replicate count
    assert summ.loc["borda", "replicates"] == 3
    assert summ.loc["bayes", "replicates"] == 300
    assert any("borda" in c for c in ANALYSES["convergence"].caveats(
        Outcomes(np.zeros((2, 1, 2), int)), ANALYSES["convergence"].params(**FAST["convergence"]),
        r))


def test_caveats_flag_synthetic_scope_and_skips(aime, results):
    lb = ANALYSES["leaderboard"]
    cav = lb.caveats(aime, lb.params(**FAST["leaderboard"]), results["leaderboard"])
    assert any(c.startswith("Synthetic data") for c in cav)
    assert any(c.startswith("Scope:") and "questions scope" in c for c in cav)
    assert any("30 questions" in c for c in cav)
    # pass_at_k_2 cannot rank a single trial: the stability run lists it as skipped
    st = ANALYSES["stability"]
    r = st.run(aime, st.params(methods="bayes,pass_at_k_2"))
    cav = st.caveats(aime, st.params(methods="bayes,pass_at_k_2"), r)
    assert any("pass_at_k_2 skipped" in c for c in cav)


def test_small_n_caveat():
    R = np.random.default_rng(0).integers(0, 2, (2, 5, 3))
    o = Outcomes(R)
    lb = ANALYSES["leaderboard"]
    cav = lb.caveats(o, lb.params(), lb.run(o, lb.params()))
    assert any("Only 5 questions" in c for c in cav)
    assert any("Only 2 models" in c for c in cav)
    assert not any(c.startswith("Synthetic") for c in cav)


@pytest.mark.parametrize("L, scope, named", [(2, "population", True), (3, "population", True),
                                             (4, "population", False), (3, "questions", False)])
def test_few_models_caveat_says_p_best_leans_on_the_prior(L, scope, named):
    """With two or three models the field's spread is not identified and the population
    scope's p_best leans on its prior (measured: docs/calibration_gaps.md); the caveat says
    so there and only there."""
    R = (np.random.default_rng(1).random((L, 30, 4)) < np.linspace(0.7, 0.4, L)[:, None, None])
    o = Outcomes(R.astype(int))
    lb = ANALYSES["leaderboard"]
    p = lb.params(scope=scope)
    cav = lb.caveats(o, p, lb.run(o, p))
    assert any(c.startswith(f"With {L} models the data cannot tell") for c in cav) is named


def test_requires_explains(aime):
    cat = Outcomes(np.random.default_rng(0).integers(0, 3, (3, 10, 4)), weights=[0, 0.5, 1])
    assert "binary" in ANALYSES["compare"].requires(cat)
    assert "R0" in ANALYSES["greedy"].requires(cat)
    assert "signals" in ANALYSES["rubric"].requires(cat)
    assert ANALYSES["leaderboard"].requires(cat) is None
    with pytest.raises(ValidationError, match="Greedy vs sampling"):
        ANALYSES["greedy"].check(cat)
    assert all(a.requires(aime) is None for a in ANALYSES.values())


def test_default_methods_these_data_cannot_rank_are_said_to_be_left_out():
    """At N = 3, ``sc.convergence(d)`` dropped pass_at_k_4 and pass_at_k_8 from its default
    methods in silence, while asking for them explicitly gave a "skipped" caveat (audit 4,
    finding 10). A run on the defaults says which defaults it left out and why."""
    import scorio_core as sc

    three = Outcomes(np.random.default_rng(2).integers(0, 2, (4, 20, 3)))
    conv = sc.convergence(three, replicates=20, curve_replicates=5)
    assert conv.summary["method"].tolist() == ["bayes", "pass_at_k_2"]
    assert [c for c in conv.caveats if "left out" in c or "skipped" in c] == [
        "Default method pass_at_k_4 left out: needs N >= 4 trials; the data have N = 3.",
        "Default method pass_at_k_8 left out: needs N >= 8 trials; the data have N = 3."]
    assert "pass_at_k_8 left out" in repr(conv)  # the display lists it
    asked = sc.convergence(three, methods="bayes,pass_at_k_4", replicates=20,
                           curve_replicates=5)  # an explicit request: its own caveat, once
    assert [c for c in asked.caveats if "left out" in c or "skipped" in c] == [
        "Method pass_at_k_4 skipped: needs N >= 4 trials; the data have N = 3."]
    eight = Outcomes(np.random.default_rng(2).integers(0, 2, (4, 20, 8)))
    assert not [c for c in sc.convergence(eight, replicates=20, curve_replicates=5).caveats
                if "left out" in c]


def test_truth_target_needs_true_means(aime):
    conv = ANALYSES["convergence"]
    with pytest.raises(ValidationError, match="true means"):
        conv.run(aime, conv.params(methods="bayes", target="truth", replicates=10,
                                   curve_replicates=10))


def test_truth_target_caveats_say_what_the_truth_is_and_why_it_is_not_reached(data_dir):
    """The convergence caveats against target 'truth' spoke of gold pairs and 3,070 more
    trials; they say what the target is and name what keeps an exact match out of reach."""
    coins = io.load(data_dir / "biased_coins.npz")
    conv = ANALYSES["convergence"]
    p = conv.params(methods="bayes,pass_at_k_4", target="truth", replicates=200,
                    curve_replicates=None)
    r = conv.run(coins, p)
    caveats = conv.caveats(coins, p, r)
    text = " ".join(caveats)
    assert "Target 'truth': the true ranking" in text
    assert "ties LLM_4 and LLM_5" in text and "LLM_9 above LLM_10" in text
    assert "adjacent gold pairs" not in text and "3,070" not in text
    assert "still changes late" not in text  # pass_at_k_4 never matches; it is not "late"
    # with CI the reasons that concern Bayes@N are gone, and so is its no_convergence
    pc = conv.params(methods="bayes", target="truth", replicates=200, curve_replicates=None,
                     match="ci")
    rc = conv.run(coins, pc)
    assert rc.summary.set_index("method").at["bayes", "no_convergence"] == 0
    assert not any("ties LLM_4" in c for c in conv.caveats(coins, pc, rc))


def _exec_code(aid: str, data: Outcomes) -> dict:
    a = ANALYSES[aid]
    code = a.to_code(a.params(**FAST[aid]), "ds")
    ast.parse(code)
    ns: dict = {"ds": data}
    exec(compile(code, f"<{aid}>", "exec"), ns)
    # the last line is an expression: the cell's table, displayed as the report prints it
    # (sc.display.show) while the variables stay the raw frames
    last = ast.parse(code).body[-1]
    assert isinstance(last, ast.Expr), aid
    shown = eval(ast.unparse(last).replace("sc.display.show(", "sc.display.as_table("), ns)
    assert isinstance(shown, display.Table) and isinstance(shown.table, pd.DataFrame), aid
    assert ">nan<" not in shown._repr_html_().lower(), aid
    for expr in a.chart_code:
        assert isinstance(eval(expr, ns), alt.TopLevelMixin), (aid, expr)
    return ns


@pytest.mark.parametrize("aid", list(ANALYSES))
def test_to_code_runs_and_reproduces(aid, aime, results):
    ns = _exec_code(aid, aime)
    r = results[aid]
    if aid == "leaderboard":
        np.testing.assert_allclose(ns["board"].table["score"], r.board.table["score"], rtol=0,
                                   atol=1e-12)
        np.testing.assert_array_equal(ns["board"].table["rank"], r.board.table["rank"])
    elif aid == "compare":
        pd.testing.assert_frame_equal(ns["cmp"].run.ranks, r.comparison.run.ranks)
        pd.testing.assert_frame_equal(ns["cmp"].tau, r.comparison.tau, atol=1e-12)
    elif aid == "convergence":
        pd.testing.assert_frame_equal(ns["summary"], r.summary, atol=1e-12)
        pd.testing.assert_frame_equal(ns["curves"].round(6), r.curves.round(6))
        np.testing.assert_array_equal(ns["conv"].trajectory, r.trajectory)
    elif aid == "stability":
        pd.testing.assert_frame_equal(ns["stab"].table, r.stability.table, atol=1e-12)
    elif aid == "greedy":
        t = ANALYSES["greedy"].tables(r)["table"]
        from scorio_core.engines.greedy import greedy_table

        got = greedy_table(ns["greedy"])
        pd.testing.assert_frame_equal(eval("greedy_result.tables()['table']", ns), t, atol=1e-12)
        np.testing.assert_allclose(got["delta_tau"], t["delta_tau"], rtol=0, atol=1e-12)
    elif aid == "rubric":
        pd.testing.assert_frame_equal(ns["tau"], r.tau, atol=1e-12)
        pd.testing.assert_frame_equal(ns["ranks"], r.ranks)
    elif aid == "plan":
        pd.testing.assert_frame_equal(ns["planned"].pairs, r.plan.pairs, atol=1e-12)
        pd.testing.assert_frame_equal(ns["planned"].allocation, r.plan.allocation)
        assert tuple(ns["order_pair"]) == tuple(r.curve_settings)
        pd.testing.assert_frame_equal(ns["order"].frame(),
                                      r.curve.frame().drop(columns="p_decided"), atol=1e-12)
        np.testing.assert_allclose(ns["decided"], r.curve.p_decided, rtol=0, atol=1e-12)
        pd.testing.assert_frame_equal(ns["gaps"], r.gaps, atol=1e-12)
    elif aid == "questions":
        pd.testing.assert_frame_equal(ns["stats"].table, r.stats.table)
        pd.testing.assert_frame_equal(ns["disagree"], ANALYSES[aid].tables(r)["disagree"])
    elif aid == "curves":
        pd.testing.assert_frame_equal(ns["passk"].table, r.curves.table)
    elif aid == "check":
        pd.testing.assert_frame_equal(ns["smaller"].intervals, r.check.intervals)
        pd.testing.assert_frame_equal(ns["smaller"].p_best, r.check.p_best)
        pd.testing.assert_frame_equal(ns["smaller"].plans, r.check.plans)
        assert list(r.check.plans["scope"]) == ["questions", "population"]


def test_plan_with_a_lead_draws_and_copies_its_curve(aime):
    """A lead that matters adds the chance at that lead to the order curve (no prior on the
    lead), its caption says so, and the Copy-code cell reproduces it."""
    a = ANALYSES["plan"]
    p = a.params(**{**FAST["plan"], "lead": 0.05, "n_max": 400, "sims": 100})  # N = 80 today
    r = a.run(aime, p)
    frame = r.curve.frame()
    assert "p_decided_at_lead" in frame and r.curve.lead == 0.05
    seen = frame.dropna(subset=["p_decided_at_lead"])
    assert len(seen) and seen["p_decided_at_lead"].is_monotonic_increasing
    assert "truly leads by 0.05, on any field" in a.charts(r)[1].caption
    assert {"trials_for_lead", "questions_for_lead"} <= set(r.plan.pairs.columns)
    ns: dict = {"ds": aime}
    exec(compile(a.to_code(p, "ds"), "<plan>", "exec"), ns)
    pd.testing.assert_frame_equal(ns["order"].frame(), frame.drop(columns="p_decided"),
                                  atol=1e-12)
    spec = json.dumps(eval(a.chart_code[1], ns).to_dict())  # the order curve's chart
    assert "decided if lead is 0.05" in spec


def test_plan_gap_curve_is_the_pairs_stated_gaps_along_a_grid(aime):
    """The Planner's third chart: for the curve's pair, the smallest lead each plan size
    decides (no prior on the lead) -- its value at questions_needed is questions_gap; the
    population scope draws no trials panel when trials decide no lead, and says why."""
    a = ANALYSES["plan"]
    r = a.run(aime, a.params(**{**FAST["plan"], "scope": "population", "lead": 0.05,
                                "n_max": None}))
    cs, g = r.curve_settings, a.tables(r)["gap_curve"]
    assert (g["plan"] == "trials").any()  # the default largest N is beyond today's 80
    assert list(g.columns) == ["upper", "lower", "plan", "n", "smallest_lead", "gap_now"]
    assert (g["upper"] == cs.upper).all() and (g[g["plan"] == "questions"]["n"]
                                               == list(cs.m_values)).all()
    row = r.plan.pairs.set_index(["better", "next"]).loc[(cs.upper, cs.lower)]
    from scorio_core.planner import gap_curve

    at = gap_curve(r.plan.board, cs.upper, cs.lower, (), [int(row["questions_needed"])])
    assert at["smallest_lead"].iloc[0] == pytest.approx(row["questions_gap"])
    chart = a.charts(r)[2]
    assert chart.title.startswith("Smallest lead a plan decides")
    assert "on any field" in chart.caption
    assert "dashed: the lead that matters (0.05)" in chart.caption
    trials = g[g["plan"] == "trials"]["smallest_lead"]
    assert np.isinf(trials).all(), g  # population scope, 80 trials: these questions are known
    assert "More trials decide no lead" in chart.caption
    assert len(chart.chart.to_dict()["hconcat"]) == 1
    short = a.run(aime, a.params(**{**FAST["plan"], "lead": 0.05}))  # largest N 24 < 80
    assert "No trials panel: the curve's largest N (24) is not beyond today's N = 80" in (
        a.charts(short)[2].caption)
    from scorio_core.definitions.plan import to_json

    payload = to_json(r)
    assert len(payload["gap_curve"]) == len(g) and payload["gap_curve"][0]["plan"] == "trials"



def test_plan_gap_curve_leaves_out_plans_that_todays_data_decide_and_says_so():
    """The audit's one-trial table (2 models, 24 questions, N = 1): the gap curve drew 0 at
    34 and 48 questions, then rose -- a promise that those plans decide any true lead, a
    tie included, when today's 24 questions carry the decision alone. Those plans state no
    lead now: they are not drawn, the caption names them and why, the pairs table's
    questions_gap is empty (not 0.0000) and the Planner's text no longer says '0: any true
    lead'."""
    from scorio_core.definitions.plan import GAP_TEXT

    a = np.array([1] * 16 + [0] * 8)
    b = np.array([1] * 4 + [0] * 12 + [1] * 2 + [0] * 6)
    data = Outcomes(np.stack([a, b])[..., None], models=["alpha", "beta"])
    pl = ANALYSES["plan"]
    r = pl.run(data, pl.params(sims=200))
    g = pl.tables(r)["gap_curve"]
    q = g[g["plan"] == "questions"]
    lead = q["smallest_lead"].to_numpy(dtype=float)
    assert not (lead == 0).any() and np.isnan(lead[0]) and np.isfinite(lead).any(), q
    gone = q["n"][np.isnan(lead)].tolist()
    caption = pl.charts(r)[2].caption
    span = f"{gone[0]:,}" + (f" to {gone[-1]:,}" if len(gone) > 1 else "")
    assert f"Not drawn: plans of {span} questions — today's data decide the pair" in caption
    assert "rise before it falls" in caption  # the pair is not decided in this scope
    assert "Trials cannot be planned: N = 1" in caption
    assert np.isnan(r.plan.pairs["questions_gap"].iloc[0])
    assert "0: any true lead" not in GAP_TEXT and "a tie as often" in GAP_TEXT

def test_to_code_family_and_all_forms():
    code = ANALYSES["compare"].to_code(ANALYSES["compare"].params(methods="all"), "data")
    assert "sc.compare(data, methods='all')" in code  # the definition resolves 'all'
    from scorio_core.rank import METHODS

    fam = METHODS["borda"].family
    code = ANALYSES["stability"].to_code(ANALYSES["stability"].params(methods=fam), "data")
    assert f"sc.stability(data, methods={fam!r})" in code
    ast.parse(code)


def test_rubric_object_round_trips_through_code(aime):
    from scorio_core import rubric as rb

    custom = rb.from_json(rb.to_json(rb.get_preset("ranking/conservative")) | {"name": "Mine"})
    a = ANALYSES["rubric"]
    p = a.params(schemes=(custom, "dontpass/format-aware"))
    ns = {"data": aime}
    exec(a.to_code(p, "data"), ns)
    pd.testing.assert_frame_equal(ns["tau"], a.run(aime, p).tau, atol=1e-12)
    assert params_dict(p)["schemes"] == ["Mine", "dontpass/format-aware"]



def _signalled(R: np.ndarray) -> Outcomes:
    """Binary outcomes with the signals ``dontpass/format-aware`` reads (every answer boxed,
    none repeated): its categories then follow correctness alone."""
    ones = np.ones(R.shape)
    return Outcomes(R, signals={"is_correct": R, "has_box": ones,
                                "repeated_pattern": 0 * ones, "compass_C": 0 * ones})


def test_rubric_tau_view_drops_n_slices_exactly_when_every_rubric_has_all_slices():
    """The τ table as the page, the report and the notebook show it (``tau_view``, the
    definition's view, once): the ``note`` column -- one sentence, the same in every row --
    said in lines under it, and ``n_slices`` left out exactly when every rubric has all N
    single-trial slices, the first line then saying N."""
    from scorio_core.definitions.rubric import tau_view

    a = ANALYSES["rubric"]
    p = a.params(schemes=("dontpass/format-aware",))
    # model i answers the first 12 - 4 i questions right in every trial: each slice ranks
    R = (np.arange(12)[None, :, None] < (12 - 4 * np.arange(3))[:, None, None]) * np.ones(
        (1, 1, 5), int)
    whole = a.run(_signalled(R), p)
    assert whole.N == 5 and whole.tau["n_slices"].tolist() == [5]
    view = a.shown_tables(whole)["tau"]
    assert list(view.table) == [c for c in whole.tau if c not in ("note", "n_slices")]
    assert view.note == (
        "Columns ending in _mean: Kendall τ_b averaged over the 5 single-trial slices; each "
        "one's s.d. over them is the matching _sd column. Higher τ_Self means the rubric "
        "ranks consistently from one trial.",
        "Note: no greedy outcomes (R0) in this dataset: tau_greedy undefined.")
    assert "note" in a.tables(whole)["tau"] and "n_slices" in a.tables(whole)["tau"]  # exports
    # trial 0 wrong for every model: that slice ties them all and has no τ_b
    R[:, :, 0] = 0
    part = a.run(_signalled(R), p)
    assert part.tau["n_slices"].tolist() == [4]
    view = a.shown_tables(part)["tau"]
    assert view.table["n_slices"].tolist() == [4] and "note" not in view.table
    assert "(n_slices of 5: a slice that ties every model has no τ_b)" in view.note[0]
    assert view.note[1:] == ("Note: no greedy outcomes (R0) in this dataset: tau_greedy "
                             "undefined.",)
    # one rubric short of N keeps the column for all; a note said once however many rows
    # carry it, none where no row has one
    tau = pd.DataFrame({"scheme": ["A", "B"], "tau_gs_mean": [0.5, 0.4], "n_slices": [8, 7],
                        "note": ["same sentence.", "same sentence."]})
    mixed = tau_view(tau, 8)
    assert list(mixed.table) == ["scheme", "tau_gs_mean", "n_slices"]
    assert mixed.note[1:] == ("Note: same sentence.",)
    quiet = tau_view(tau.assign(n_slices=8, note=""), 8)
    assert list(quiet.table) == ["scheme", "tau_gs_mean"] and len(quiet.note) == 1
    assert "the 8 single-trial slices" in quiet.note[0]


# ---------------------------------------------------------------- provenance and exports
def test_provenance_names_input_settings_seeds_versions(tmp_path, aime):
    import hashlib
    import io as _io
    import json

    from scorio_core.definitions.provenance import attach_source, export_result, provenance

    src = tmp_path / "runs.csv"
    src.write_text("model,question,trial,outcome\nA,q1,0,1\nA,q1,1,0\nB,q1,0,0\nB,q1,1,0\n")
    data = attach_source(io.load(src), src)
    assert data.metadata["source_sha256"] == hashlib.sha256(src.read_bytes()).hexdigest()
    conv = ANALYSES["convergence"]
    p = conv.params(replicates=500, seed=11)
    prov = provenance(data, "convergence", p)
    assert prov["input"]["file"] == "runs.csv" and prov["input"]["bytes"] == src.stat().st_size
    assert prov["shape"] == {"models": 2, "questions": 1, "trials": 2}
    assert prov["settings"]["replicates"] == 500 and prov["seeds"] == {"seed": 11}
    assert prov["settings"]["scheme"] == "column" and prov["settings"]["target"] == "gold"
    assert prov["versions"]["numpy"] == np.__version__
    assert prov["created_utc"].endswith("Z") and prov["synthetic"] is False

    # a selected benchmark keeps the source and names the benchmark
    sel = attach_source(aime, b"bytes of an upload", "up.npz")
    assert provenance(sel)["benchmark"] == "AIME'25"
    assert provenance(sel)["input"]["file"] == "up.npz"

    lb = ANALYSES["leaderboard"]
    r = lb.run(aime, lb.params())
    files = export_result(lb, aime, lb.params(), r, "csv")
    # the table named like its analysis is named once (issue 24: was '..._leaderboard_leaderboard')
    name = "Reasoning_benchmarks_synthetic_AIME_25_leaderboard.csv"
    assert sorted(files) == [name, name.replace(".csv", "_unresolved.csv")]
    text = files[name]
    assert text.startswith("# dataset: Reasoning benchmarks (synthetic) [AIME'25]\n")
    assert "# settings.confidence: 0.95\n" in text and "# benchmark: AIME'25\n" in text
    back = pd.read_csv(_io.StringIO(text), comment="#")
    np.testing.assert_allclose(back["score"], r.board.table["score"], atol=5e-7)  # 6 decimals
    (jname, jtext), = export_result(lb, aime, lb.params(), r, "json").items()
    assert jname.endswith("_leaderboard.json")
    payload = json.loads(jtext)
    assert payload["provenance"]["analysis"] == "leaderboard"
    assert payload["provenance"]["synthetic"] is True
    assert len(payload["tables"]["leaderboard"]) == aime.L


def test_export_filename_safe_characters():
    from scorio_core.definitions.provenance import export_filename

    name = export_filename('../../etc/pass"wd <img src=x> ü', "compare", ".csv", "ranks")
    assert name == "etc_pass_wd_img_src_x_compare_ranks.csv"
    assert export_filename("...", "leaderboard", "json") == "dataset_leaderboard.json"


def test_csv_header_cannot_break_lines():
    from scorio_core.definitions.provenance import csv_header

    h = csv_header({"dataset": "a\nb,c", "settings": {"x": [1, float("nan")]}})
    assert h == "# dataset: a b,c\n# settings.x: [1, null]\n"


# ---------------------------------------------------------------- save and restore settings
def test_session_round_trip(aime):
    from app_state import session
    from scorio_core import rubric as rb

    custom = rb.from_json(rb.to_json(rb.get_preset("ranking/conservative")) | {"name": "Mine"})
    settings = {aid: ANALYSES[aid].params(**kw) for aid, kw in FAST.items()}
    settings["rubric"] = ANALYSES["rubric"].params(schemes=(custom, "dontpass/format-aware"))
    text = session.to_json(settings, aime)
    back = session.from_json(text)
    assert back.data["benchmark"] == "AIME'25" and back.data["shape"]["trials"] == aime.N
    for aid, p in settings.items():
        if aid != "rubric":
            assert back.settings[aid] == p, aid
    r = back.settings["rubric"]
    assert [getattr(s, "name", s) for s in r.schemes] == ["Mine", "dontpass/format-aware"]
    # the restored rubric scores exactly like the original
    a = ANALYSES["rubric"]
    pd.testing.assert_frame_equal(a.run(aime, r).tau, a.run(aime, settings["rubric"]).tau)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('{"format": "other"}', "format"),
        ('[1, 2]', r"session file: must be a JSON object; got list \[1, 2\]"),
        ('{"format": "scorio-studio/session-1", "settings": {"plot": {}}}', "unknown analysis"),
        ('{"format": "scorio-studio/session-1", "settings": {"greedy": {"seeds": 1}}}',
         "no setting"),
        ('{"format": "scorio-studio/session-1", "settings": {"greedy": {"seed": 1.5}}}',
         "seed"),
        ('{"format": "scorio-studio/session-1", "settings": {"leaderboard": '
         '{"confidence": NaN}}}', "confidence"),
        ('{"format": "scorio-studio/session-1", "settings": {"leaderboard": 3}}', "settings"),
        ("[" * 100 + "]" * 100, "nested"),
    ],
)
def test_session_refuses_bad_files(text, match):
    from app_state import session

    with pytest.raises(ValidationError, match=match):
        session.from_json(text)


def test_query_params_round_trip_and_refusals():
    from app_state import session
    from scorio_core import rubric as rb

    lb = ANALYSES["leaderboard"]
    p = lb.params(confidence=0.9, ks=(2, 4), prior="greedy")
    q = session.to_query("leaderboard", p)
    assert q == {"leaderboard.confidence": "0.9", "leaderboard.prior": '"greedy"',
                 "leaderboard.ks": "[2,4]"}
    assert session.from_query("leaderboard", q | {"other.x": "1"}) == p
    assert session.from_query("leaderboard", {}) == lb.params()
    assert session.to_query("leaderboard", lb.params()) == {}
    with pytest.raises(ValidationError, match="not valid JSON"):
        session.from_query("leaderboard", {"leaderboard.confidence": "0,9"})
    with pytest.raises(ValidationError, match="confidence"):
        session.from_query("leaderboard", {"leaderboard.confidence": "2"})
    custom = rb.get_preset("ranking/conservative")
    with pytest.raises(ValidationError, match="session file"):
        session.to_query("rubric", ANALYSES["rubric"].params(schemes=(custom,)))


def test_convergence_without_split_equals_the_cli_call(aime):
    """slow_replicates=None gives every method the same replicates, as `scorio-studio
    convergence` does: the definition's numbers equal one convergence_at_n call."""
    from scorio_core.engines.convergence import convergence_at_n

    conv = ANALYSES["convergence"]
    p = conv.params(methods="bayes,borda", replicates=12, curve_replicates=5,
                    slow_replicates=None, seed=4, scheme="row")
    r = conv.run(aime, p)
    direct = convergence_at_n(aime.R, aime.R0, ["bayes", "borda"], replicates=12, scheme="row",
                              seed=4)
    pd.testing.assert_frame_equal(r.summary, direct.summary)
    code = conv.to_code(p, "data")
    assert ("sc.convergence(data, methods='bayes,borda', replicates=12, curve_replicates=5, "
            "slow_replicates=None, seed=4, scheme='row'") in code


def test_greedy_has_one_row_per_benchmark(data_dir):
    full = io.load(data_dir / "reasoning_synthetic.npz")
    g = ANALYSES["greedy"]
    t = g.tables(g.run(full, g.params(replicates=3)))["table"]
    assert t["data"].tolist() == [*full.benchmark_names, "combined"]
    assert t["tau_gs"].between(-1, 1).all()


def test_greedy_names_the_questions_it_has_not_combined(aime):
    """One benchmark (a selected one, or a file of one): the all-questions row is that
    benchmark, not 'combined', which said a pooling that did not happen; data whose questions
    name no benchmark: the dataset's name."""
    g = ANALYSES["greedy"]
    p = g.params(replicates=3)
    assert g.tables(g.run(aime, p))["table"]["data"].tolist() == ["AIME'25"]
    one = Outcomes(aime.R, R0=aime.R0, benchmarks=["B"] * aime.M, name="runs")
    assert g.tables(g.run(one, p))["table"]["data"].tolist() == ["B"]
    bare = Outcomes(aime.R, R0=aime.R0, name="runs")
    assert g.tables(g.run(bare, p))["table"]["data"].tolist() == ["runs"]
    ns: dict = {"data": aime}  # the notebook cell shows the same name
    exec(g.to_code(p, "data"), ns)
    assert ns["greedy_result"].tables()["table"]["data"].tolist() == ["AIME'25"]


@pytest.mark.parametrize("aid", ["compare", "convergence", "stability", "greedy", "check"])
def test_progress_is_reported_and_does_not_change_the_result(aid, aime, results):
    """The long analyses report ``progress(fraction, message)`` in [0, 1], never going back,
    ending at 1; passing a callback leaves every table unchanged."""
    a = ANALYSES[aid]
    seen: list[tuple[float, str]] = []
    result = a.run(aime, a.params(**FAST[aid]), progress=lambda f, m: seen.append((f, m)))
    fr = [f for f, _ in seen]
    assert len(fr) >= 2 and fr[-1] == 1.0
    assert all(0.0 <= f <= 1.0 for f in fr)
    assert all(b >= a_ - 1e-12 for a_, b in zip(fr, fr[1:], strict=False))
    for name, df in a.tables(result).items():
        pd.testing.assert_frame_equal(df, a.tables(results[aid])[name], check_exact=False,
                                      rtol=1e-12, atol=1e-15)


def test_convergence_without_curves_is_the_cli_shape(aime):
    """``curve_replicates=None`` (the CLI) skips the τ_b curves but not convergence@n."""
    a = ANALYSES["convergence"]
    fast = FAST["convergence"] | {"curve_replicates": None}
    r = a.run(aime, a.params(**fast))
    full = a.run(aime, a.params(**FAST["convergence"]))
    assert r.curves.empty and not full.curves.empty
    pd.testing.assert_frame_equal(r.summary, full.summary)
    # the curves chart stays first (chart_code is positional) and says why it is empty
    cs, full_cs = a.charts(r), a.charts(full)
    assert [c.title for c in cs] == [c.title for c in full_cs]
    assert len(cs) == len(a.chart_code)
    assert "curve_replicates=None" in cs[0].empty and full_cs[0].empty is None


def test_plan_pair_must_be_models_of_the_data(aime):
    pl = ANALYSES["plan"]
    with pytest.raises(ValidationError, match="unknown model 'nobody'"):
        pl.run(aime, pl.params(pair=(aime.models[0], "nobody"), n_max=4, sims=100))
    best_first = [aime.models[i] for i in np.argsort(-aime.R.mean(axis=(1, 2)), kind="stable")]
    low, high = best_first[5], best_first[0]
    r = pl.run(aime, pl.params(pair=(low, high), n_max=20, sims=100))
    assert r.curve_settings[:3] == (low, high, (1, 2, 4, 8, 16, 20))
    # the lower-ranked model named first: the simulated order is mostly "wrong"
    assert r.curve.p_correct[-1] < 0.5 and r.curve.z_mean[-1] < 0


def test_worst_case_caption_says_most_replicates_never_converge():
    """7 models x 15 questions x 4 trials: three in four replicates never settle on the gold
    ranking. The trajectory shows the slowest replicate that converged,
    and its caption once said only 'Replicate 2: converges at n = 3' -- read beside a
    'worst-case' title as if every replicate had settled by n = 3."""
    rng = np.random.default_rng(0)
    R = (rng.random((7, 15, 4)) < np.linspace(0.9, 0.05, 7)[:, None, None]).astype(int)
    conv = ANALYSES["convergence"]
    r = conv.run(Outcomes(R), conv.params(methods="bayes", replicates=400,
                                          curve_replicates=None))
    s = r.run_of("bayes").s_star["bayes"]
    share = float((s > 0).mean())
    assert 0 < share < 0.5 and r.trajectory_converged_at == s.max()
    chart = conv.charts(r)[-1]
    # the title says what is drawn: not the worst of all replicates (most never settle)
    assert chart.title == "Ranks after each trial: the slowest replicate to settle (bayes)"
    caption = chart.caption
    assert "the slowest of the replicates that converged" in caption
    # the share that never settles as the summary writes it (0.077 there read 7.7% here)
    from scorio_core.formatting import format_frame

    summary = conv.tables(r)["summary"]
    row = summary.index[summary["method"] == "bayes"][0]
    assert summary.loc[row, "no_convergence"] == pytest.approx(1 - share)
    cell = format_frame(summary).loc[row, "no_convergence"]  # as the table prints it
    assert cell.startswith("0.") and len(cell) == 5, cell
    assert f"never settle on the target within the trials (no_convergence = {cell})" in caption
    assert "%" not in caption.split("Replicate")[-1]
    # the page's other choice, the replicate whose ranking changed last: one that never settles
    from scorio_core.definitions.convergence import worst_case

    latest = worst_case(r, Outcomes(R), "bayes", converged_only=False)
    assert latest.title == "Ranks after each trial: a replicate that never settles (bayes)"
    assert "no convergence" in latest.caption


def test_convergence_tables_in_a_report_skip_what_says_nothing():
    """N = 40 trials: the curves table (one row per method and n) printed its first 60 rows --
    one method's n = 1..40 and a second's start -- and the pmf one row per n, mostly
    p = 0.0000 (316 such rows where nothing converged). A report shows the curves at n = 1,
    2, 4, ..., N for every method and the pmf as one row per method (its mass in doubling
    bins of n, and the share that never settled), each saying so in one line; the export
    keeps every row."""
    rng = np.random.default_rng(1)
    R = (rng.random((4, 12, 40)) < np.array([0.8, 0.6, 0.4, 0.2])[:, None, None]).astype(int)
    conv = ANALYSES["convergence"]
    r = conv.run(Outcomes(R), conv.params(methods="bayes,pass_at_k_2", replicates=300,
                                          curve_replicates=20))
    tables, shown = conv.tables(r), conv.shown_tables(r)
    assert len(tables["curves"]) == 2 * 40 and len(tables["pmf"]) == 2 * 39
    curves = shown["curves"].table
    assert curves.groupby("method")["n"].apply(list).to_dict() == {
        m: [1, 2, 4, 8, 16, 32, 40] for m in ("bayes", "pass_at_k_2")}
    merged = curves.merge(tables["curves"], on=["method", "n"], suffixes=("", "_all"))
    assert merged["mean"].equals(merged["mean_all"].rename("mean"))
    assert "n = 1, 2, 4, …, 40" in shown["curves"].note
    pmf = shown["pmf"].table  # one row per method: its mass in doubling bins of n
    assert list(pmf.columns) == ["method", "n=1", "n=2", "n=3–4", "n=5–8", "n=9–16",
                                 "n=17–32", "n=33–39", "no_convergence"]
    assert pmf["method"].tolist() == ["bayes", "pass_at_k_2"]
    assert pmf.iloc[:, 1:].sum(axis=1).tolist() == pytest.approx([1.0, 1.0], abs=1e-9)
    late = tables["pmf"].query("method == 'bayes' and n >= 33")["p"].sum()
    assert pmf.loc[0, "n=33–39"] == pytest.approx(late, abs=1e-12)
    assert "export lists p for every n" in shown["pmf"].note
    # nothing converged: no rows, and one sentence says why
    r0 = conv.run(Outcomes((rng.random((3, 12, 4)) < 0.5).astype(int)),  # ranked at n = 4 only
                  conv.params(methods="pass_at_k_4", replicates=50, curve_replicates=None))
    view = conv.shown_tables(r0)["pmf"]
    assert view.table.empty and "No replicate converged" in view.note


def test_rubric_ranks_table_reads_best_first(aime, results):
    """The ranks table listed the models in the data's order (DS-R1-Qwen 18, LIMO-v2 12,
    ...): a reader had to hunt for the leader. It is sorted by the gold (binary) rank, ties
    in the data's order, with every model and rank as computed."""
    r = results["rubric"]
    ranks = ANALYSES["rubric"].tables(r)["ranks"]
    gold = ranks.columns[1]
    assert gold == "Binary Bayes@N" and ranks[gold].is_monotonic_increasing
    assert sorted(ranks["model"]) == sorted(aime.models)
    assert ranks.set_index("model").sort_index().equals(
        r.ranks.rename_axis("model").sort_index())


def test_an_undecided_pair_the_papers_rule_calls_met_says_why(data_dir):
    """Biased coins: LLM_7 vs LLM_8 (t = 1.72) is not decided at 95% (two-sided, Holm), yet
    its trials_needed_papers reads 'met now' in the table of undecided pairs -- two verdicts
    side by side with nothing to reconcile them. The caveat says which rule says what; it is
    the board's own note, so the CLI's text and the exports, which print the board's notes
    and not the page's caveats, say it too."""
    data = io.load(data_dir / "biased_coins.npz")
    lb = ANALYSES["leaderboard"]
    p = lb.params()
    r = lb.run(data, p)
    pairs = r.board.unresolved()
    met = pairs[pairs["trials_needed_papers"] <= data.N]
    assert ("LLM_7", "LLM_8") in set(zip(met["better"], met["next"], strict=True))
    said = [c for c in lb.caveats(data, p, r) if "met now" in c]
    assert len(said) == 1 and said[0] in r.board.notes
    assert f"{len(met)} of the {len(pairs)} undecided adjacent pairs" in said[0]
    assert "LLM_7 vs LLM_8" in said[0] and "one-sided" in said[0] and "Holm" in said[0]
    assert "trials_needed says what would" in said[0]
    assert "LLM_7 vs LLM_8" in " ".join(export.export(r.board, "text").split())


def test_the_reports_pass_curves_summary_has_every_model_in_one_row():
    # the long summary (models x curves x ks rows) was cut at 60 rows in a report: with 16
    # models and N = 4 it lost models 11-15 and every Pass^k row
    from scorio_core.definitions import ANALYSES

    rng = np.random.default_rng(4)
    R = (rng.random((16, 15, 4)) < np.linspace(0.9, 0.1, 16)[:, None, None]).astype(int)
    data = Outcomes(R, models=[f"m{i:02d}" for i in range(16)])
    c = ANALYSES["curves"]
    r = c.run(data, c.params())
    long = c.tables(r)["summary"]
    view = c.shown_tables(r)["summary"]
    wide = view.table
    assert len(long) > 60 and sorted(wide["model"]) == list(data.models)
    assert wide["model"].tolist() == list(dict.fromkeys(long["model"]))  # the table's order
    assert "Pass^1" not in wide.columns and "k = 1 is shown once" in view.note
    for row in long.itertuples():
        if row.k == 1 and row.curve != long["curve"].iloc[0]:
            continue
        name = row.curve.replace("@k", f"@{row.k}").replace("^k", f"^{row.k}")
        got = wide.set_index("model").loc[row.model, [name, f"{name} lo", f"{name} hi"]]
        assert got.tolist() == [row.value, row.lo, row.hi]


def test_core_messages_name_the_analysis_not_an_app_page():
    """The convergence refusal said "(Stability page)" and the lm-eval filter caveat "or the
    sidebar's benchmark": the core's messages reach the CLI and notebooks too, where there
    is no page and no sidebar. Then they named every form together ("sc.stability(data) /
    scorio-studio stability"; "benchmark='x' / --benchmark x, or the app's Benchmark box").
    Each surface now reads its own: a notebook the call and the keyword, the command line
    the command and the flag (the app's page and box: tests/app_state/test_texts.py)."""
    from scorio_core.cli._common import cli_text
    from scorio_core.definitions._base import common_caveats

    why = ANALYSES["convergence"].requires(Outcomes(np.ones((2, 5, 1), int)))
    assert str(why).endswith("the low-budget stability analysis (sc.stability(data))")
    assert cli_text(why).endswith("the low-budget stability analysis (scorio-studio stability)")
    for text in (str(why), cli_text(why)):
        assert "page" not in text.lower() and " / " not in text
    data = Outcomes(np.ones((2, 4, 2), int), benchmarks=["gsm8k/strict-match"] * 2
                    + ["gsm8k/flexible-extract"] * 2, metadata={"format": "lm_eval"})
    said = [c for c in common_caveats(data) if "once per filter" in c]
    assert len(said) == 1 and "sidebar" not in said[0]
    assert str(said[0]).endswith("Choose one benchmark (benchmark='gsm8k/strict-match') to "
                                 "count each document once.")
    assert cli_text(said[0]).endswith("Choose one benchmark (--benchmark gsm8k/strict-match) "
                                      "to count each document once.")
    assert not any(o in str(said[0]) + cli_text(said[0]) for o in (" / --", "the app"))


def test_leaderboard_how_to_read_names_the_default_multiplicity_control():
    # the report's "How to read this" had said "simultaneous over all pairs by default" while
    # the settings beside it read adjust = holm
    from scorio_core.definitions.leaderboard import LEADERBOARD
    from scorio_core.estimands import ADJUSTMENTS

    text = LEADERBOARD.how_to_read
    default = LEADERBOARD.params().adjust
    assert default == ADJUSTMENTS[0] == "holm"
    assert "Holm by default" in text and "simultaneous over all pairs by default" not in text


def test_every_refusal_of_one_model_says_what_to_do():
    """Every analysis that compares models refuses one model with the same next step (load
    2 or more; the Leaderboard shows this one), as a sentence; the Leaderboard and the
    Questions page run on one model and say so there."""
    from scorio_core.outcomes import ONE_MODEL_NEXT

    one = Outcomes(np.random.default_rng(0).integers(0, 2, (1, 15, 8)))
    refused = {i: a.refusal(one) for i, a in ANALYSES.items() if a.requires is not None}
    said = {i: r for i, r in refused.items() if r}
    assert {"plan", "pair", "check", "compare", "convergence", "stability"} <= set(said), said
    for i, r in said.items():
        if "models" in r:  # greedy refuses for want of greedy outcomes first
            assert r.endswith(ONE_MODEL_NEXT) and r[0].isupper(), (i, r)


# ------------------------------------------- every column a table shows says what it holds
def _column_runs(aime, data_dir, tmp_path):
    """``(analysis, data, result)`` for every definition, on data that make every table and
    column it can show: the bundled synthetic run (greedy outcomes, signals, 80 trials),
    models far apart (rankings that converge), the real run split by its questions'
    source, both scopes and a lead for the Planner, logs
    whose completions carry texts (pooled benchmarks, an answer, an output only, a model's
    errored epoch), and each simulation study."""
    from fixtures import make_logs as mk

    from scorio_core.definitions import SIMULATIONS

    harness = data_dir.parent / "tests" / "fixtures" / "harness" / "inspect"
    jhu = io.load(data_dir / "jhu_llm_temperature.parquet")
    runs = [(a, aime, a.run(aime, a.params(**FAST[k]))) for k, a in ANALYSES.items()]
    rng = np.random.default_rng(0)  # three models far apart: convergence@n has a pmf
    apart = Outcomes((rng.random((3, 20, 16)) < [[[0.9]], [[0.5]], [[0.1]]]).astype(int))
    conv = ANALYSES["convergence"]
    runs.append((conv, apart, conv.run(apart, conv.params(methods="bayes", replicates=50))))
    by = {"by": "source"}
    runs += [(ANALYSES[k], jhu, ANALYSES[k].run(jhu, ANALYSES[k].params(**s)))
             for k, s in (("leaderboard", by), ("questions", by | {"irt": False}))]
    plan = ANALYSES["plan"]
    runs.append((plan, aime, plan.run(aime, plan.params(**FAST["plan"] | {
        "scope": "population", "lead": 0.05}))))
    pair = ANALYSES["pair"]
    outputs = tmp_path / "outputs.csv"  # texts without an answer: repeats by output
    pd.DataFrame([{"model": m, "question": "q", "trial": k, "outcome": int(k % 2 == i),
                   "output": f"{m} says {k % 2}"} for i, m in enumerate("ab")
                  for k in range(4)]).to_csv(outputs, index=False)
    v = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]])
    errored = io.load([mk.write_inspect_eval(tmp_path / f"{m}.eval", m, "t", v, [1, 2, 3],
                                             errored={(2, 2)} if m == "b" else ())
                       for m in ("a", "b")], on_missing="truncate")
    for data, s in ((io.load(harness / "eval_set"), {}), (io.load(harness / "texts"), {}),
                    (io.load(outputs), {}), (errored, {"a": "a", "b": "b", "question": "2"})):
        runs.append((pair, data, pair.run(data, pair.params(**s))))
        runs.append((ANALYSES["questions"], data, ANALYSES["questions"].run(
            data, ANALYSES["questions"].params(irt=False))))
    small = {"coins": {"replicates": 20, "M": 10, "N": 8}, "prior-depth": {"replicates": 20},
             "order": {"sims": 100},
             "calibration": {"replicates": 20, "M_values": (15,), "means": (0.5, 0.8)},
             "rubric-lesson": {}}
    runs += [(a, None, a.run(None, a.params(**small[k]))) for k, a in SIMULATIONS.items()]
    return runs


def _names_the_data_choose(a, data, result) -> set[str]:
    """The column names a pure template (``{method}``, ``{scheme}``, ``{attribute}``,
    ``{text}``) may stand for on these data: method ids, rubric labels, question
    attributes, completion texts -- and nothing else."""
    from scorio_core.rank import METHODS
    from scorio_core.rubric import resolve_schemes

    names = set(METHODS)
    if data is not None:
        names |= set(data.question_attributes)
        names |= set(data.samples.columns) if data.samples is not None else set()
    if a.id == "rubric":
        names |= {label for label, _ in resolve_schemes(list(FAST["rubric"]["schemes"]))}
    return names


def test_every_column_a_table_shows_is_declared_with_its_meaning(aime, data_dir, tmp_path):
    """The notebook, the reports and the app explained the leaderboard's columns and no
    other table's (sd_models, p_a_better, rho, delta_se ... read as jargon). Every
    definition now declares what each column of each table holds, once, and every rendering
    reads it; this contract holds every column of every table -- whole (the exports) and as a
    reader's rendering shows it (the views) -- to a declaration, so a new column cannot be
    added without one, and a declaration no table has left is caught too."""
    from scorio_core.display import _declared

    seen: dict[str, set[str]] = {}
    for a, data, result in _column_runs(aime, data_dir, tmp_path):
        tables = a.tables(result)
        for name, view in a.shown_tables(result, tables).items():
            help = a.column_help(name)
            assert help, (a.id, name)
            shown, _ = display.readable(view)
            for col in dict.fromkeys(map(str, [*tables[name].columns, *shown.columns])):
                hit = _declared(col, help)
                assert hit is not None, f"{a.id}.{name}: column {col!r} is not declared"
                key = hit[0]
                if key.startswith("{") and key.endswith("}"):  # the data name these
                    assert col in _names_the_data_choose(a, data, result), (a.id, name, col)
                assert help[key].strip() and "{" not in display.column_meanings(
                    [col], help)[col], (a.id, name, col)
                seen.setdefault(f"{a.id}.{name}", set()).add(key)
    from scorio_core.definitions import SECTIONS

    stale = [f"{aid}.{t}: {k}" for aid, a in SECTIONS.items() for t, cols in a.columns.items()
             for k in cols if k not in seen.get(f"{aid}.{t}", set())]
    assert not stale, stale


def test_a_legend_names_each_column_once_and_a_template_once():
    """The legend under a table: a line per column whose name does not say it, in the
    table's order; the columns one template declares share one line (pass@2, pass@8:
    pass@<k>), a template with one column is named by it, its number filled in."""
    help = ANALYSES["leaderboard"].column_help("leaderboard")
    lines = display.column_legend(["model", "score", "t_next", "pass@2", "pass@8"], help)
    assert [c for c, _ in lines] == ["t_next", "pass@<k>"]
    assert lines[1][1].startswith("Pass@k: chance that at least one of k trials is correct")
    (one,) = display.column_legend(["pass@8"], help)
    assert one[0] == "pass@8" and "at least one of 8 trials" in one[1]
    assert display.legend_markdown(["model", "t_next"], help).split("  \n") == [
        "**Columns:**", f"`t_next` {help['t_next']}"]


def test_caveats_count_one_question_and_two_models_in_words():
    """The audit: "Only 1 question(s)" and, in the population scope, "these 1 questions were
    drawn from": a count now takes the noun in its number."""
    from scorio_core.definitions._base import common_caveats

    R = np.random.default_rng(0).integers(0, 2, (2, 1, 4))
    one = Outcomes(R, models=["a", "b"])
    said = " ".join(common_caveats(one))
    assert "Only 1 question:" in said and "Only 2 models:" in said and "(s)" not in said
    for scope, words in (("population", "the population this one question was drawn from"),
                         ("questions", "mean score on this one question")):
        lb = ANALYSES["leaderboard"]
        p = lb.params(scope=scope)
        caveats = " ".join(lb.caveats(one, p, lb.run(one, p)))
        assert words in caveats and "these 1 question" not in caveats
    many = " ".join(common_caveats(Outcomes(np.zeros((3, 12, 2), int))))
    assert "Only 12 questions:" in many
