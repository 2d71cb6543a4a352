"""What a newcomer meets at the edges of the notebook API and the CLI (audit of 2026-11-30):
each test failed before its fix."""

from __future__ import annotations

import functools
import json
import re
import types
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
import pytest

import scorio_core as sc
from scorio_core import ValidationError
from scorio_core.calibration import _reliability
from scorio_core.cli import main
from scorio_core.definitions._base import resolve_methods
from scorio_core.estimands import NOT_IDENTIFIED
from scorio_core.formatting import shape_text
from scorio_core.params import (
    CompareParams,
    ConvergenceParams,
    CurvesParams,
    LeaderboardParams,
    PlanParams,
    QuestionsParams,
    StabilityParams,
)


def _long(path, wins):
    """One question, eight trials: model -> number of successes."""
    rows = [dict(model=m, question="q0", trial=t, outcome=int(t < k))
            for m, k in wins.items() for t in range(8)]
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


@pytest.fixture
def one_question(tmp_path):
    return _long(tmp_path / "m1.csv", {"a": 7, "b": 2, "c": 3})


def test_one_question_says_the_population_scope_is_not_identified(one_question):
    data = sc.load(one_question)
    pop = sc.leaderboard(data, scope="population")
    assert pop.notes[0] == NOT_IDENTIFIED["population"]
    assert "With M = 1 question" in pop.notes[0] and "N = 1" not in pop.notes[0]
    # the papers' rule, read from the trials alone, calls a vs c 'met now': the board says
    # why that is no decision here (and not that N = 1, which it is not)
    assert len(pop.notes) == 2 and "a vs c" in pop.notes[1]
    assert "with one question" in pop.notes[1] and "N = 1" not in pop.notes[1]
    # no test can be run: every p-value and d.o.f. is missing, not 1.0 / 0
    t = pop.unresolved()
    assert t["p_value"].isna().all() and t["t"].isna().all()
    off = ~np.eye(3, dtype=bool)
    assert np.isnan(pop.inference.pvalue[off]).all() and np.isnan(pop.inference.df[off]).all()
    # the questions scope is identified here (N = 8) and decides a 7/8 vs 2/8 gap's pair
    questions = sc.leaderboard(data, scope="questions")
    assert questions.identified and set(questions.notes).isdisjoint(NOT_IDENTIFIED.values())


def test_shape_is_stated_in_words_with_plurals():
    assert shape_text(3, 1, 8) == "3 models × 1 question × 8 trials"
    assert shape_text(1, 1200, 1) == "1 model × 1,200 questions × 1 trial"
    assert "2 models × 5 questions × 3 trials" in repr(sc.Outcomes(np.ones((2, 5, 3), int)))


def test_a_path_or_a_frame_is_refused_with_the_call_that_loads_it(one_question):
    with pytest.raises(ValidationError, match=r"got the path .*load it first with sc.load\("):
        sc.leaderboard(str(one_question))
    with pytest.raises(ValidationError, match=r"got a DataFrame .* sc.load\(frame\)"):
        sc.plan(pd.read_csv(one_question))


def test_bad_seeds_draws_and_ks_are_validation_errors(one_question):
    data = sc.load(one_question)
    for kw, msg in [({"seed": -1}, "seed must be at least 0"),
                    ({"seed": None}, "seed must be a whole number"),
                    ({"seed": 1.5}, "seed must be a whole number"),
                    ({"draws": 50.0}, "draws must be a whole number"),
                    ({"ks": (2, 0)}, "k must be between 1 and 1,000,000")]:
        with pytest.raises(ValidationError, match=msg):
            sc.leaderboard(data, **kw)
    # a single k is the one Pass@k column; NumPy integers are whole numbers
    board = sc.leaderboard(data, ks=2, seed=np.int64(3))
    assert board.settings["ks"] == [2] and "pass@2" in board.table.columns
    assert board.settings["seed"] == 3


def test_plan_takes_assurance_as_every_other_interface_names_it():
    R = np.random.default_rng(0).integers(0, 2, (3, 30, 4))
    assert sc.plan(R, assurance=0.9).settings["assurance"] == 0.9
    with pytest.raises(ValidationError, match="assurance"):
        sc.plan(R, assurance=1.0)


def test_pair_names_with_commas_split_where_both_are_models(tmp_path, capsys):
    rng = np.random.default_rng(1)
    rows = [dict(model=m, question=f"q{q}", trial=t, outcome=int(rng.random() < p))
            for m, p in [("m,comma", 0.7), ("b", 0.5), ("c", 0.3)]
            for q in range(20) for t in range(4)]
    path = tmp_path / "names.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    assert main(["plan", str(path), "--pair", "m,comma,b", "--format", "json",
                 "--sims", "100"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["provenance"]["settings"]["pair"] == ["m,comma", "b"]
    assert main(["plan", str(path), "--pair", "m,x,b", "--sims", "100"]) == 2
    assert "no split does" in capsys.readouterr().err


def test_missing_cells_on_the_cli_say_the_flag_and_name_the_files(tmp_path, capsys):
    (tmp_path / "f1.csv").write_text(
        "model,question,trial,outcome\na,q1,0,1\na,q2,0,0\nb,q1,0,1\nb,q2,0,1\n")
    (tmp_path / "f2.csv").write_text("model,question,trial,outcome\nc,q1,0,1\nc,q3,0,0\n")
    assert main(["leaderboard", str(tmp_path / "f1.csv"), str(tmp_path / "f2.csv")]) == 2
    err = capsys.readouterr().err
    assert "combining 2 files (f1.csv holds a, b; f2.csv holds c)" in err
    assert "Fix the files or pass --on-missing drop_questions" in err
    assert "on_missing=" not in err


def test_loaded_files_carry_their_sha256_and_make_notebook_reports(one_question, tmp_path):
    data = sc.load(one_question)
    meta = data.metadata
    assert meta["source_sha256"] and meta["source_path"] == str(one_question.resolve())
    html = sc.report(data, tmp_path / "r.html", sections=["leaderboard"]).read_text()
    assert meta["source_sha256"] in html
    nb = json.loads(sc.report(data, tmp_path / "r.ipynb", sections=["leaderboard"]).read_text())
    first = "".join(nb["cells"][1]["source"])
    # the file as the notebook's folder reaches it (the two may be moved together)
    assert f"Path({one_question.name!r})" in first and meta["source_sha256"] in first
    # data that the file does not give back are not passed off as it
    changed = sc.Outcomes(data.R[:, :, :4], models=data.models, metadata=dict(meta))
    with pytest.raises(ValidationError, match="gives other data than these"):
        sc.report(changed, tmp_path / "x.ipynb", sections=["leaderboard"])
    with pytest.raises(ValidationError, match=r"sc\.io\.save_npz\(data, 'data\.npz'\), then "
                       r"sc\.report\(data, 'y\.ipynb', data_path='data\.npz'\)"):
        sc.report(sc.Outcomes(data.R), tmp_path / "y.ipynb", sections=["leaderboard"])


def test_undefined_probabilities_fall_in_no_reliability_bin():
    pred = np.array([np.nan, np.nan, 0.9, 0.1])
    table, _, _ = _reliability(pred, np.array([1, 0, 1, 0]), 5, 1, True)
    assert table["count"].sum() == 2 and table["count"].tolist() == [1, 0, 0, 0, 1]


def test_a_single_value_stands_for_a_list_of_one_in_study_settings():
    from app_state.session import from_query
    from scorio_core.definitions import SIMULATIONS

    # a link's calibration.means=0.9 used to fail with "'float' object is not iterable"
    assert from_query("calibration", {"calibration.means": "0.9"}).means == (0.9,)
    assert SIMULATIONS["calibration"].params(M_values=10).M_values == (10,)
    assert SIMULATIONS["coins"].params(methods="bayes").methods == ("bayes",)
    for sid, kw, msg in [("calibration", {"means": None}, "means: expected a list of numbers "
                                                          "or a comma-separated string"),
                         ("rubric-lesson", {"R": 5}, "R must be rows of whole-number"),
                         ("rubric-lesson", {"weights": [0, "x", 1]}, "weights must be finite")]:
        with pytest.raises(ValidationError, match=msg):
            SIMULATIONS[sid].params(**kw)


def test_a_scale_and_category_weights_together_are_refused_for_every_source():
    from scorio_core.io import LoadOptions

    with pytest.raises(ValidationError, match="two readings of the scores"):
        LoadOptions(score_range=(0, 10), weights=(0, 0.5, 1))


def test_empty_outcomes_are_missing_trials_under_a_policy(tmp_path, capsys):
    path = tmp_path / "e.csv"
    path.write_text("model,question,trial,outcome\na,q1,0,1\na,q1,1,\na,q2,0,0\na,q2,1,1\n"
                    "b,q1,0,1\nb,q1,1,0\nb,q2,0,1\nb,q2,1,1\n")
    with pytest.raises(ValidationError, match="count them as missing trials"):
        sc.load(path)
    assert main(["info", str(path)]) == 2  # the CLI names its flag
    assert "--on-missing drop_questions or --on-missing truncate" in capsys.readouterr().err
    dropped = sc.load(path, on_missing="drop_questions")
    assert dropped.questions == ("q2",) and dropped.metadata["empty_outcomes"] == 1
    assert sc.load(path, on_missing="truncate").shape == (2, 2, 1)


def test_the_old_assurance_keyword_still_works_with_a_warning():
    R = np.random.default_rng(0).integers(0, 2, (3, 30, 4))
    with pytest.warns(FutureWarning, match="now plan\\(assurance="):
        old = sc.plan(R, assurance_level=0.9)
    assert old.settings["assurance"] == 0.9


# ---------------------------------------------------------------- a 2-D array reads two ways
#: 3 rows × 4 columns: the rankers read 3 models × 4 questions (one trial each), sc.Outcomes
#: one model's 3 questions × 4 trials. Every analysis that compares models asks which.
TWO_D = np.array([[1, 1, 0, 1], [0, 0, 1, 0], [1, 0, 0, 0]])

#: Every sc.* entry that analyses outcomes, called with small settings. The ANALYSES
#: definitions are added from the registry itself, so a new one is covered without an edit.
_ENTRIES = {
    "leaderboard": lambda d: sc.leaderboard(d, draws=200),
    "plan": lambda d: sc.plan(d, draws=200),
    "by_subset": lambda d: sc.by_subset(d, "source", draws=200),
    "question_stats": lambda d: sc.question_stats(d, irt=False),
    "pass_curves": lambda d: sc.pass_curves(d),
    "check_smaller_run": lambda d: sc.check_smaller_run(d, reps=10),
    "compare": lambda d: sc.compare(d, methods="avg,bayes"),
    "convergence": lambda d: sc.convergence(d, methods="avg", replicates=20,
                                            curve_replicates=5),
    "stability": lambda d: sc.stability(d, methods="avg,bayes"),
    "greedy": lambda d: sc.greedy(d, replicates=2),
    "pair": lambda d: sc.pair(d),
    "questions": lambda d: sc.questions(d, irt=False),
    "convergence_at_n": lambda d: sc.convergence_at_n(d, methods=["avg"], replicates=20),
    "convergence_curves": lambda d: sc.convergence_curves(d, methods=["avg"], replicates=5),
    "low_budget_stability": lambda d: sc.low_budget_stability(d, methods=["avg"]),
    "greedy_vs_sampling": lambda d: sc.greedy_vs_sampling(d, d, replicates=2),
    "greedy_by_benchmark": lambda d: sc.greedy_by_benchmark(d, replicates=2),
    "fit_spread_prior": lambda d: sc.fit_spread_prior([d, d]),
    "planner.pair_curve": lambda d: sc.planner.pair_curve(d, 0, 1, [2], sims=20),
    "build_report": lambda d: sc.build_report(d, "leaderboard"),
    "report": lambda d: _report_of(sc.report, d),
    "make_report": lambda d: _report_of(sc.make_report, d),
}


def _report_of(make, data):
    """A one-section Markdown report of ``data`` by ``make`` (sc.report or sc.make_report)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        return make(data, Path(tmp) / "r.md", sections="leaderboard").name


def _analysis_entries():
    from scorio_core.definitions import ANALYSES

    quick = {"compare": {"methods": "avg,bayes"}, "stability": {"methods": "avg,bayes"},
             "convergence": {"methods": "avg", "replicates": 20, "curve_replicates": 5},
             "greedy": {"replicates": 2}, "check": {"reps": 10}, "plan": {"sims": 100}}
    return {**_ENTRIES, **{
        f"ANALYSES[{k!r}]": (lambda d, k=k: ANALYSES[k](d, **quick.get(k, {})))
        for k in ANALYSES if ANALYSES[k].uses_data}}


#: sc.* names that are not analyses of an outcome array, each with why: a new public name
#: must be put in _ENTRIES or here, so no analysis is left reading a 2-D array one way.
_NOT_COMPARING = {
    **dict.fromkeys(["rank", "run_methods"], "rankers: (L, M) is promoted to N = 1 (SPEC §5)"),
    **dict.fromkeys(["Outcomes", "bayes", "bayes_ci", "avg", "avg_ci", "pass_at_k",
                     "pass_at_k_ci", "pass_hat_k", "pass_hat_k_ci", "g_pass_at_k_tau",
                     "g_pass_at_k_tau_ci", "mg_pass_at_k", "mg_pass_at_k_ci"],
                    "one model's (M, N), as the papers' Bayes@N"),
    **dict.fromkeys(["COMBINED", "ValidationError", "load", "io", "Leaderboard",
                     "load_spread_prior", "SpreadPrior", "simulate", "truth_convergence",
                     "prior_depth", "correct_order", "interval_coverage", "rubric_lesson",
                     "ANALYSES", "SIMULATIONS", "rubric", "charts", "export", "formatting",
                     "display", "show"], "takes no outcome array"),
}


def test_every_public_name_is_classified_for_the_two_readings():
    entries = {k.split(".")[0] for k in _ENTRIES}
    assert not entries & set(_NOT_COMPARING)
    assert set(sc.__all__) == entries | set(_NOT_COMPARING)


#: The entries that run on each reading of TWO_D; the others need what neither reading has
#: (R0, signals, an attribute, N >= 2 or 4, earlier fields) or, on one model, a second one.
_RUN_ON_MODELS = {"leaderboard", "plan", "question_stats", "pass_curves", "compare", "stability",
                  "convergence_curves", "low_budget_stability", "greedy_vs_sampling",
                  "planner.pair_curve", "build_report", "report", "make_report",
                  *(f"ANALYSES[{k!r}]" for k in (
                      "leaderboard", "compare", "stability", "plan", "pair", "questions",
                      "curves"))}
_RUN_ON_ONE_MODEL = {"leaderboard", "question_stats", "pass_curves", "ANALYSES['leaderboard']",
                     "ANALYSES['questions']", "ANALYSES['curves']", "build_report", "report",
                     "make_report"}


#: The engines that take arrays, not loaded data (their R0 is an argument of its own).
_ARRAYS_ONLY = {"convergence_at_n", "convergence_curves", "low_budget_stability",
                "greedy_vs_sampling"}


def _is_two_d_error(msg: str) -> bool:
    return "is a 2-D array A of shape" in msg


@pytest.mark.parametrize("name", list(_analysis_entries()))
def test_every_analysis_refuses_a_2d_array_with_both_readings_and_the_fixes_run(name):
    run = _analysis_entries()[name]
    for given in (TWO_D, TWO_D.tolist()):
        with pytest.raises(ValidationError) as caught:
            run(given)
        msg = str(caught.value)
        assert _is_two_d_error(msg), msg
        assert "3 models × 4 questions with one trial each (as the rankers read it)" in msg
        assert "one model's 3 questions × 4 trials (as sc.Outcomes reads it)" in msg
        assert ("nested lists: A = np.asarray(...) first" in msg) == isinstance(given, list)
        fixes = re.findall(r"`([^`]+)`", msg)
        # sc.Outcomes(A) is offered where loaded data are taken (engines take arrays only)
        assert fixes == ["A[:, :, None]", "A[None]", *(
            [] if name in _ARRAYS_ONLY else ["sc.Outcomes(A)"])]
    # the fixes, pasted, make the two readings, and the analysis takes each: it runs or
    # says why these data do not fit it (e.g. one model cannot be compared), never the 2-D
    # refusal again
    ns = {"A": np.asarray(TWO_D.tolist()), "sc": sc, "np": np}
    made = {fix: eval(fix, ns) for fix in fixes}  # noqa: S307 - our own message's code
    shapes = {fix: np.shape(getattr(d, "R", d)) for fix, d in made.items()}
    assert shapes == {"A[:, :, None]": (3, 4, 1), "A[None]": (1, 3, 4),
                      "sc.Outcomes(A)": (1, 3, 4)} if len(fixes) == 3 else shapes == {
        "A[:, :, None]": (3, 4, 1), "A[None]": (1, 3, 4)}
    for fix, data in made.items():
        runs = name in (_RUN_ON_MODELS if fix == "A[:, :, None]" else _RUN_ON_ONE_MODEL)
        try:
            run(data)
        except ValidationError as exc:
            assert not runs and not _is_two_d_error(str(exc)), (fix, str(exc))
            if fix != "A[:, :, None]" and name in _RUN_ON_MODELS:  # what one model lacks
                assert re.search(r"at least 2|these data have 1\b|out of range", str(exc))


def test_the_two_readings_of_a_2d_array_give_the_numbers_each_promises():
    lists = [[0, 1, 1], [1, 1, 0]]
    with pytest.raises(ValidationError, match=r"2-D array A of shape \(2, 3\)"):
        sc.leaderboard(lists)  # was: a one-model board, no note
    # the rankers' reading: 3 models × 4 questions, one trial (SPEC §5: (L, M) -> N = 1)
    ranks, scores = sc.rank.avg(TWO_D, return_scores=True)
    models = sc.leaderboard(TWO_D[:, :, None], draws=200)
    assert ranks.tolist() == [1, 2, 2]
    assert np.allclose(scores, TWO_D.mean(1))
    assert np.allclose(models.score, TWO_D.mean(1)) and len(models.table) == 3
    # sc.Outcomes's reading: one model's 3 questions × 4 trials (kept: it is documented)
    one = sc.leaderboard(sc.Outcomes(TWO_D), draws=200)
    assert sc.Outcomes(TWO_D).shape == (1, 3, 4)
    assert np.allclose(one.score, TWO_D.mean()) and len(one.table) == 1
    assert np.allclose(sc.leaderboard(TWO_D[None], draws=200).score, one.score)


def test_one_model_is_said_where_a_comparison_needs_two():
    one = sc.Outcomes(np.random.default_rng(0).integers(0, 2, (1, 30, 4)), models=["solo"])
    board = sc.leaderboard(one, draws=200)  # a board of one: its interval is legitimate
    assert board.table["p_best"].tolist() == [1.0]
    assert "rank 1 and p_best 1 hold by construction" in board.first_line()
    with pytest.raises(ValidationError, match="planning compares models; these data have 1"):
        sc.plan(one, draws=200)  # was: "Every adjacent pair is decided: nothing to plan"
    for analysis in (sc.compare, sc.convergence, sc.stability):
        with pytest.raises(ValidationError, match="needs at least 2 models; these data have 1"):
            analysis(one)


def test_an_engine_that_takes_arrays_names_the_arrays_of_loaded_data():
    data = sc.Outcomes(np.random.default_rng(1).integers(0, 2, (3, 8, 2)))
    with pytest.raises(ValidationError, match=r"got loaded data \(Outcomes\): pass data\.R "
                       r"\(and data\.R0"):
        sc.low_budget_stability(data, methods=["avg"])
    assert sc.low_budget_stability(data.R, methods=["avg"]) is not None  # the fix it names


# ------------------------------------------------ the public API, as a notebook reaches it
def _public_names() -> list[tuple[str, Any]]:
    """Every public name a notebook reaches from sc, with its object: sc's own names, then
    those of each of sc's public modules (sc.io, sc.planner, sc.rank, sc.simulate,
    sc.rubric, sc.charts, sc.report, sc.export, sc.formatting, sc.display: the names sc
    loads as modules) by their __all__, and of any module such an __all__ lists."""
    # sc's public modules by their names (sc.leaderboard is the call, whichever object an
    # import has left bound to the name)
    modules = [(f"sc.{n}", getattr(sc, n)) for n in sc.__all__
               if sc._LAZY.get(n, (None, ""))[1] is None]
    found = [(f"sc.{n}", getattr(sc, n)) for n in sc.__all__]  # sc's own names first
    seen = {id(m) for _, m in modules}
    for prefix, mod in modules:  # grows with the modules an __all__ lists
        for n in mod.__all__:
            value = getattr(mod, n)
            found.append((f"{prefix}.{n}", value))
            if isinstance(value, types.ModuleType) and id(value) not in seen:
                seen.add(id(value))
                modules.append((f"{prefix}.{n}", value))
    return found


#: Public callables that are not calls a notebook makes, each with why: a new public
#: function must refuse a misspelt keyword (@checked_keywords) or be put here.
_NOT_CALLED = {
    "sc.io.OnMissing": "a type (typing.Literal of on_missing's choices), callable only as "
                       "typing's aliases are",
}


def _public_calls() -> dict[str, Any]:
    """Every public function a notebook reaches from sc, by its first public name (sc.load,
    not sc.io.load): sc's own and those of every public module (:func:`_public_names`); a
    callable module -- sc.report, sc.leaderboard -- too; the classes' constructors:
    :func:`_public_classes`."""
    import inspect

    names: dict[int, str] = {}
    calls = {}
    for full, f in _public_names():
        if callable(f) and not inspect.isclass(f) and id(f) not in names:
            names[id(f)] = full
            calls[full] = f
    return calls


def _owners() -> dict[str, Any]:
    """Every owner of the public API's parameters, by its first public name: every public
    call (:func:`_public_calls`), every class a notebook constructs (:func:`_public_classes`
    but _NOT_CONSTRUCTED) and every public method of every public class -- the results' too
    (``sc.Leaderboard.rank_distribution``, ``sc.rubric.Rubric.with_weights``), a method
    inherited or named twice once. The list walk and the keyword contract both walk these,
    so neither covers an owner the other misses."""
    import inspect

    owners: dict[str, Any] = {}
    seen: set[int] = set()

    def add(name: str, f: Any) -> None:
        if id(getattr(f, "__func__", f)) not in seen:
            seen.add(id(getattr(f, "__func__", f)))
            owners[name] = f

    for name, f in _public_calls().items():
        add(name, f)
    classes = _public_classes()
    for name, cls in classes.items():
        if name not in _NOT_CONSTRUCTED:
            add(name, cls)
    for inherited in (False, True):  # a method by the class that defines it, if public
        for name, cls in classes.items():
            for method, f in inspect.getmembers(cls):
                if (not method.startswith("_") and (method in vars(cls)) != inherited
                        and inspect.isfunction(getattr(f, "__func__", f))):
                    add(f"{name}.{method}", f)
    return owners


def _methods() -> set[str]:
    """The public methods among :func:`_owners`, by their names there."""
    classes = _public_classes()
    return {name for name in _owners() if name.rsplit(".", 1)[0] in classes}


#: The public classes a notebook does not construct, each with why: a new public class
#: must refuse a misspelt keyword (@checked_keywords) or be put here.
_NOT_CONSTRUCTED = {
    **{n: "a result: the call of the same name returns it" for n in (
        "sc.Leaderboard", "sc.planner.Plan", "sc.simulate.Mimics", "sc.report.Report",
        "sc.simulate.PriorDepth", "sc.simulate.CorrectOrder", "sc.simulate.Coverage",
        "sc.simulate.RubricLesson")},
    **{n: "part of a result, made by the call that makes the result" for n in (
        "sc.planner.OrderCurve", "sc.planner.Allocation", "sc.planner.CurveSettings",
        "sc.report.SectionResult", "sc.display.About", "sc.display.View",
        "sc.charts.CoverageScale")},
    "sc.rank.Method": "a registered method: made by @sc.rank.ranker, read from sc.rank.METHODS",
    "sc.formatting.ColumnFormat": "made by sc.formatting.column_format from a column",
    **{n: "the lessons' texts, declared once in the charts module (LESSON_TEXT)" for n in (
        "sc.charts.LessonText", "sc.charts.LessonFormula")},
    **{n: "a base class: its subclasses are the ones constructed" for n in (
        "sc.rank.Prior", "sc.rubric.Condition", "sc.display.Shown", "sc.display.Displayed")},
}


def _public_classes() -> dict[str, type]:
    """Every public class a notebook reaches from sc, by its first public name: those of sc
    and of its public modules (sc.io, sc.rank, sc.rubric, sc.charts, ... by their __all__)
    and the settings class of every analysis and study (sc.ANALYSES[id].params); raised
    errors left out (they take a message, not settings)."""
    import inspect

    names: dict[type, str] = {}
    for full, cls in _public_names():
        if inspect.isclass(cls) and not issubclass(cls, BaseException):
            names.setdefault(cls, full)
    for registry in ("ANALYSES", "SIMULATIONS"):
        for key, a in getattr(sc, registry).items():
            names.setdefault(a.params, f"sc.{registry}[{key!r}].params")
    return {full: cls for cls, full in names.items()}


# ------------------------------------------------------- a list given as one string
_RNG = np.random.default_rng(5)
_R = _RNG.integers(0, 2, (3, 12, 4))  # 3 models × 12 questions × 4 trials, binary
_R0 = _RNG.integers(0, 2, (3, 12, 1))
#: _R with a question attribute (sc.questions' subset) and C/P/I outcomes (binarized).
_SOURCED = sc.Outcomes(_R, question_attributes={"source": ["arc", "gsm", "mmlu"] * 4})
_CPI = sc.Outcomes(_RNG.integers(0, 3, (3, 12, 4)), weights=[0, 0.5, 1],
                   category_names=["I (incorrect)", "P (partial)", "C (correct)"])
_CAT = np.array([[0, 1, 2, 2, 1], [1, 1, 0, 2, 2]])  # one model's 2 questions × 5 trials, C = 2
_NAMED = sc.Outcomes(_R[:, :4], models=["m,comma", "b", "c"],
                     question_attributes={"src": ["a", "b", "a,b", "a"]})


class _Listed(NamedTuple):
    """A list-valued parameter called with a list, the same list as one comma-separated string
    (as the command line types it) and one bare value: ``run(value)`` returns what to compare.

    ``text=None``: the parameter takes no comma-separated string (a table), so one is refused.
    ``single`` is one bare name or number; it equals ``single_listed`` (a list of one), or,
    where that is None, is refused. ``run_single`` is the call for it where one value needs
    other data (a name for one model). ``refuses``: a set (no order) is refused with the two
    forms the parameter takes."""

    run: Any
    listed: Any
    text: str | None
    single: Any = None
    single_listed: Any = None
    run_single: Any = None
    refuses: bool = True


_TAU = pd.DataFrame(np.eye(3), index=["avg", "bayes", "borda"], columns=["avg", "bayes", "borda"])
#: A rubric reading two signals, its rules and their terms; a spread prior's grid.
_TERMS = (sc.rubric.Compare("is_correct", ">=", value=0.5),
          sc.rubric.Compare("tokens", "<=", value=100))
_RULES = (sc.rubric.Rule(1, sc.rubric.AllOf(_TERMS)),)
_RUBRIC_JSON = json.dumps(sc.rubric.Rubric("r", ("wrong", "correct"), (0, 1), _RULES,
                                          default=0).to_json())
_SPREAD = ({"population": np.array([0.0, 0.1])}, {"population": np.array([0.25, 0.75])})
#: Declared column meanings (a template among them) and a leaderboard's columns with widths.
_HELP = {"se": "standard error", "pass@{k}": "at least one of {k} trials correct"}
_BOARD_COLUMNS = pd.DataFrame({"model": ["a"], "rank": [1], "score": [0.5], "lo": [0.4],
                               "hi": [0.6], "t_next": [2.5]})


def _parts(**kw) -> list[list[str]]:
    """The columns of each part of _BOARD_COLUMNS fitted to 400 px (model 200, rank 50, each
    number 60)."""
    px = {"model": 200, "rank": 50, "score": 60, "lo": 60, "hi": 60, "t_next": 60}
    return [list(p.columns) for p in sc.display.column_parts(_BOARD_COLUMNS, widths=px,
                                                             budget=400, **kw)]


#: A public class -> its first public name (sc.ANALYSES['plan'].params for PlanParams).
_CLASS_NAMES = {cls: name for name, cls in _public_classes().items()}


def _lb(**kw):
    return sc.leaderboard(_R, draws=100, **kw)


def _sim(**kw):
    return sc.simulate.mimics([0.3, 0.5, 0.7], M=6, seed=0, **kw)


@functools.cache
def _named_plan():
    """A plan of _NAMED, whose model 'm,comma' holds a comma."""
    return sc.plan(_NAMED, draws=100)


def _recorded(skip) -> list[str]:
    """The settings a call decorated by sc.display.recorded(skip=...) remembers."""
    @sc.display.recorded(skip=skip)
    def call(data, seed=0, progress=None, pro=1):
        return types.SimpleNamespace()

    return sorted(call(None)._about.settings)


#: A report's sections as a list, a string, one and a list of one: two that _R (no R0, no
#: signals) does not support, so a report writes their headings and why in milliseconds.
_SECTIONS = (["greedy", "rubric"], "greedy, rubric", "rubric", ["rubric"])
_CONV = {"replicates": 5, "seed": 0}
_STUDY = {"truth_convergence": {"N": 4, "replicates": 5},
          "prior_depth": {"replicates": 20, "updates": 20},
          "correct_order": {"n_sims": 20}, "interval_coverage": {"replicates": 20}}

#: owner(parameter) -> the calls. Every list-valued parameter of the public API is here or in
#: _NOT_LISTS: the test below walks them all, so a new one must say how a string reads.
_LISTS = {
    # names: split at the commas; a string that is one name is a list of one
    "sc.Outcomes(models)": _Listed(
        lambda v: sc.Outcomes(_R, models=v).models, ["x", "y", "z"], "x, y,z",
        "gpt-4, 0613", ["gpt-4, 0613"], lambda v: sc.Outcomes(_R[:1], models=v).models),
    "sc.Outcomes(questions)": _Listed(
        lambda v: sc.Outcomes(_R[:, :3], questions=v).questions, ["q1", "q2", "q3"],
        "q1,q2,q3", "q1", ["q1"], lambda v: sc.Outcomes(_R[:, :1], questions=v).questions),
    "sc.Outcomes(benchmarks)": _Listed(
        lambda v: sc.Outcomes(_R[:, :2], benchmarks=v).benchmarks, ["A", "B"], "A,B", "A"),
    "sc.Outcomes(category_names)": _Listed(
        lambda v: sc.Outcomes(_CAT, weights=[0, 0.5, 1], category_names=v).category_names,
        ["no", "half", "yes"], "no,half,yes", "no"),
    "sc.Outcomes(weights)": _Listed(
        lambda v: sc.Outcomes(_CAT, weights=v).weights.tolist(), [0, 0.5, 1], "0,0.5,1", "1",
        refuses=False),
    # names of the data: a comma splits only where every part is one (a name may hold one)
    "sc.Outcomes.select(models)": _Listed(
        lambda v: _NAMED.select(models=v).models, ["m,comma", "c"], "m,comma, c", "b", ["b"]),
    "sc.Outcomes.subset(values)": _Listed(
        lambda v: _NAMED.subset("src", v).questions, ["a", "b"], "a, b", "a,b", ["a,b"]),
    "sc.Outcomes.with_weights(weights)": _Listed(
        lambda v: sc.Outcomes(_CAT, weights=[0, 1, 1]).with_weights(v).weights.tolist(),
        [0, 0.5, 1], "0,0.5,1", "1", refuses=False),
    "sc.leaderboard(models)": _Listed(
        lambda v: _lb(models=v).models, ["x", "y", "z"], "x,y,z", "solo, v2", ["solo, v2"],
        lambda v: sc.leaderboard(_R[:1], models=v, draws=100).models),
    "sc.leaderboard(ks)": _Listed(lambda v: list(_lb(ks=v).table.columns), [2, 4], "2,4", "4",
                                  [4]),
    "sc.leaderboard(w)": _Listed(lambda v: _lb(w=v).table["score"].tolist(), [0, 1], "0,1",
                                 "1", refuses=False),
    "sc.leaderboard(bounds)": _Listed(lambda v: _lb(bounds=v).table["hi"].tolist(), (0, 1),
                                      "0,1", "1", refuses=False),
    "sc.plan(w)": _Listed(lambda v: sc.plan(_R, w=v, draws=100).pairs, [0, 1], "0,1", "1",
                          refuses=False),
    "sc.pass_curves(kinds)": _Listed(lambda v: sc.pass_curves(_R, kinds=v).table,
                                     ["pass", "hat"], "Pass@k, hat", "pass", ["pass"]),
    "sc.pass_curves(ks)": _Listed(lambda v: sc.pass_curves(_R, ks=v).table, [2, 4], "2,4",
                                  "4", [4]),
    "sc.pass_curves(models)": _Listed(
        lambda v: sc.pass_curves(_R, models=v).table, ["x", "y", "z"], "x,y,z", "LLM_1",
        ["LLM_1"], lambda v: sc.pass_curves(_R[:1], models=v).table),
    "sc.compare(methods)": _Listed(
        lambda v: list(sc.compare(sc.Outcomes(_R), methods=v).comparison.run.ranks),
        ["avg", "borda"], "avg, borda", "avg", ["avg"]),
    "sc.convergence(methods)": _Listed(
        lambda v: sc.convergence(sc.Outcomes(_R), methods=v, replicates=5,
                                 curve_replicates=None).parts[0][1].summary,
        ["avg", "bayes"], "avg,bayes", "bayes", ["bayes"]),
    "sc.stability(methods)": _Listed(
        lambda v: list(sc.stability(sc.Outcomes(_R), methods=v).stability.tau["gold"]),
        ["avg", "bayes"], "avg,bayes", "bayes", ["bayes"]),
    "sc.run_methods(methods)": _Listed(lambda v: sc.run_methods(_R, methods=v).ranks,
                                       ["avg", "bayes"], "avg,bayes", "bayes", ["bayes"]),
    "sc.run_methods(models)": _Listed(
        lambda v: sc.run_methods(_R, methods=["avg"], models=v).ranks, ["x", "y", "z"],
        "x,y,z", "abc", ["abc"], lambda v: sc.run_methods(_R[:1], methods=["avg"],
                                                          models=v).ranks),
    "sc.convergence_at_n(methods)": _Listed(
        lambda v: sc.convergence_at_n(_R, methods=v, **_CONV).summary, ["avg", "bayes"],
        "avg,bayes", "bayes", ["bayes"]),
    "sc.convergence_curves(methods)": _Listed(
        lambda v: sc.convergence_curves(_R, methods=v, **_CONV).summary, ["avg", "bayes"],
        "avg,bayes", "bayes", ["bayes"]),
    "sc.convergence_curves(steps)": _Listed(
        lambda v: sc.convergence_curves(_R, methods=["bayes"], steps=v, **_CONV).summary,
        [1, 3], "1,3", "2", [2]),
    "sc.low_budget_stability(methods)": _Listed(
        lambda v: list(sc.low_budget_stability(_R, methods=v).tau["gold"]), ["avg", "bayes"],
        "avg,bayes", "bayes", ["bayes"]),
    "sc.greedy_vs_sampling(models)": _Listed(
        lambda v: sc.greedy_vs_sampling(_R, _R0, models=v, replicates=2, steps=[4]).ranks,
        ["x", "y", "z"], "x,y,z", "abc"),
    "sc.greedy_vs_sampling(steps)": _Listed(
        lambda v: sc.greedy_vs_sampling(_R, _R0, replicates=2, steps=v).curves.summary,
        [1, 3], "1,3", "2", [2]),
    "sc.truth_convergence(methods)": _Listed(
        lambda v: sc.truth_convergence(_sim(), v, **_STUDY["truth_convergence"]).summary,
        ["bayes", "pass_at_k_2"], "bayes,pass_at_k_2", "bayes", ["bayes"]),
    "sc.truth_convergence(steps)": _Listed(
        lambda v: sc.truth_convergence(_sim(), ["bayes"], steps=v,
                                       **_STUDY["truth_convergence"]).summary,
        [1, 3], "1,3", "2", [2]),
    "sc.prior_depth(depths)": _Listed(
        lambda v: sc.prior_depth(depths=v, steps=(1, 2), **_STUDY["prior_depth"]).tau,
        [0, 2], "0,2", "1", [1]),
    "sc.prior_depth(steps)": _Listed(
        lambda v: sc.prior_depth(depths=(0,), steps=v, **_STUDY["prior_depth"]).tau,
        [1, 3], "1,3", "2", [2]),
    "sc.correct_order(n_values)": _Listed(
        lambda v: sc.correct_order(n_values=v, **_STUDY["correct_order"]).table,
        [20, 40], "20,40", "30", [30]),
    "sc.correct_order(thresholds)": _Listed(
        lambda v: sc.correct_order(n_values=(20,), thresholds=v,
                                   **_STUDY["correct_order"]).n_at,
        [1.645, 1.96], "1.645, 1.96", "1.96", [1.96]),
    "sc.interval_coverage(means)": _Listed(
        lambda v: sc.interval_coverage(v, M_values=(10,), N_values=(2,),
                                       **_STUDY["interval_coverage"]).table,
        [0.5, 0.8], "0.5,0.8", "0.7", [0.7], refuses=False),
    "sc.interval_coverage(M_values)": _Listed(
        lambda v: sc.interval_coverage(M_values=v, N_values=(2,),
                                       **_STUDY["interval_coverage"]).table,
        [10, 20], "10,20", "10", [10]),
    "sc.interval_coverage(N_values)": _Listed(
        lambda v: sc.interval_coverage(M_values=(10,), N_values=v,
                                       **_STUDY["interval_coverage"]).table,
        [2, 4], "2,4", "2", [2]),
    "sc.interval_coverage(scopes)": _Listed(
        lambda v: sc.interval_coverage(M_values=(10,), N_values=(2,), scopes=v,
                                       **_STUDY["interval_coverage"]).table,
        ["questions", "population"], "questions, population", "questions", ["questions"]),
    "sc.interval_coverage(weights)": _Listed(
        lambda v: sc.interval_coverage([[0.2, 0.3, 0.5]], M_values=(10,), N_values=(2,),
                                       weights=v, **_STUDY["interval_coverage"]).table,
        [0, 0.5, 1], "0,0.5,1", "1", refuses=False),
    "sc.rubric_lesson(w)": _Listed(lambda v: sc.rubric_lesson(w=v).table, [0, 0.5, 1],
                                   "0, 0.5, 1", "1", refuses=False),
    "sc.rubric_lesson(R)": _Listed(lambda v: sc.rubric_lesson(R=v).table, _CAT.tolist(), None,
                                   refuses=False),
    "sc.build_report(sections)": _Listed(
        lambda v: [s.analysis.id for s in sc.build_report(sc.Outcomes(_R), v).sections],
        *_SECTIONS, refuses=False),
    "sc.report(sections)": _Listed(
        lambda v: _report_sections(sc.report, v), *_SECTIONS, refuses=False),
    "sc.make_report(sections)": _Listed(
        lambda v: _report_sections(sc.make_report, v), *_SECTIONS, refuses=False),
    "sc.bayes(w)": _Listed(lambda v: tuple(sc.bayes(_CAT, w=v)), [0, 0.5, 1], "0,0.5,1", "1",
                           refuses=False),
    "sc.bayes_ci(w)": _Listed(lambda v: tuple(sc.bayes_ci(_CAT, w=v)), [0, 0.5, 1], "0,0.5,1",
                              "1", refuses=False),
    "sc.avg(w)": _Listed(lambda v: tuple(sc.avg(_CAT, w=v)), [0, 0.5, 1], "0,0.5,1", "1",
                         refuses=False),
    "sc.avg_ci(w)": _Listed(lambda v: tuple(sc.avg_ci(_CAT, w=v)), [0, 0.5, 1], "0,0.5,1", "1",
                            refuses=False),
    "sc.rank.bayes(w)": _Listed(lambda v: sc.rank.bayes(_R, w=v, return_scores=True)[1].tolist(),
                                [0, 1], "0,1", "1", refuses=False),
    "sc.rank.inverse_difficulty(clip_range)": _Listed(
        lambda v: sc.rank.inverse_difficulty(_R, v, return_scores=True)[1].tolist(),
        (0.05, 0.95), "0.05,0.95", "0.5"),
    **{f"sc.{f}(bounds)": _Listed(
        lambda v, f=f: tuple(getattr(sc, f)(_R[0], *((2,) if "k" in f else ()),
                                             *((0.5,) if f.startswith("g_") else ()),
                                             bounds=v)),
        (0.2, 0.8), "0.2,0.8", "1", refuses=False)
       for f in ("bayes_ci", "avg_ci", "pass_at_k_ci", "pass_hat_k_ci", "g_pass_at_k_tau_ci",
                 "mg_pass_at_k_ci")},
    "sc.simulate.mimics(means)": _Listed(lambda v: sc.simulate.mimics(v, M=6, seed=0).p,
                                         [0.3, 0.7], "0.3,0.7", "0.4", [0.4], refuses=False),
    "sc.simulate.mimics(models)": _Listed(
        lambda v: _sim(models=v).models, ["x", "y", "z"], "x,y,z", "one, two", ["one, two"],
        lambda v: sc.simulate.mimics([0.3], M=6, seed=0, models=v).models),
    "sc.simulate.mimics(category_names)": _Listed(
        lambda v: _sim(category_names=v).category_names, ["no", "yes"], "no, yes", "x"),
    "sc.simulate.mimics(weights)": _Listed(
        lambda v: sc.simulate.mimics([[0.2, 0.3, 0.5]], M=6, seed=0, weights=v).weights.tolist(),
        [0, 0.5, 1], "0,0.5,1", "1", refuses=False),
    "sc.simulate.question_probs(means)": _Listed(
        lambda v: sc.simulate.question_probs(v, M=4, seed=0), [0.3, 0.7], "0.3,0.7", "0.4",
        [0.4], refuses=False),
    "sc.simulate.shift_to_means(means)": _Listed(
        lambda v: sc.simulate.shift_to_means(np.array([[0.2, 0.5], [0.6, 0.9]]), v),
        [0.4, 0.7], "0.4,0.7", "0.5", [0.5], refuses=False),
    "sc.charts.family_tau(order)": _Listed(
        lambda v: sc.charts.family_tau(_TAU, {"avg": "a", "bayes": "a", "borda": "b"}, v),
        ["borda", "avg", "bayes"], "borda,avg,bayes", "avg", ["avg"]),
    "sc.charts.tau_heatmap(order)": _Listed(
        lambda v: sc.charts.tau_heatmap(_TAU, v).to_dict(), ["borda", "avg", "bayes"],
        "borda, avg, bayes", "avg", ["avg"]),
    "sc.charts.rank_trajectory_chart(models)": _Listed(
        lambda v: sc.charts.rank_trajectory_chart(np.array([[1, 2, 3], [2, 1, 3]]),
                                                  v).to_dict(),
        ["x", "y", "z"], "x,y,z", "abc", ["abc"],
        lambda v: sc.charts.rank_trajectory_chart(np.array([[1], [1]]), v).to_dict()),
    "sc.charts.rubric_weight_chart(weights)": _Listed(
        lambda v: sc.charts.rubric_weight_chart(_CAT, v).to_dict(), [0, 0.5, 1], "0,0.5,1",
        "1", refuses=False),
    # the params of the analyses and studies (their settings, as the page and CLI hold them)
    "sc.ANALYSES['leaderboard'].params(ks)": _Listed(
        lambda v: LeaderboardParams(ks=v).ks, [2, 4], "2,4", "4", [4]),
    "sc.ANALYSES['leaderboard'].params(weights)": _Listed(
        lambda v: LeaderboardParams(weights=v).weights, [0, 1], "0,1", "1"),
    **{f"{_CLASS_NAMES[c]}(subset)": _Listed(
        lambda v, c=c: c(subset=v).subset, ("source", ["arc", "gsm"]), "source=arc, gsm",
        "source=arc", ("source", ["arc"]), refuses=False)
       for c in (LeaderboardParams, CurvesParams, QuestionsParams)},
    "sc.ANALYSES['plan'].params(pair)": _Listed(
        lambda v: PlanParams(pair=v).pair, ["a", "b"], "a, b", "a"),
    "sc.ANALYSES['curves'].params(kinds)": _Listed(
        lambda v: CurvesParams(kinds=v).kinds, ["pass", "hat"], "pass, Pass^k", "hat", ["hat"]),
    **{f"{_CLASS_NAMES[c]}(methods)": _Listed(  # held as --methods text: the ids it reads
        lambda v, c=c: resolve_methods(c(methods=v).methods), ["bayes", "avg"], "bayes, avg",
        "avg", ["avg"])
       for c in (CompareParams, StabilityParams, ConvergenceParams)},
    "sc.simulate.CoinsParams(methods)": _Listed(
        lambda v: sc.simulate.CoinsParams(methods=v).methods, ["bayes", "pass_at_k_16"],
        "bayes,pass_at_k_16", "bayes", ["bayes"]),
    "sc.simulate.CalibrationParams(means)": _Listed(
        lambda v: sc.simulate.CalibrationParams(means=v).means, [0.5, 0.8], "0.5,0.8", "0.9",
        [0.9]),
    "sc.simulate.CalibrationParams(M_values)": _Listed(
        lambda v: sc.simulate.CalibrationParams(M_values=v).M_values, [10, 30], "10,30", "10",
        [10]),
    "sc.simulate.RubricLessonParams(weights)": _Listed(
        lambda v: sc.simulate.RubricLessonParams(weights=v).weights, [0, 1], "0,1", "1"),
    **{f"sc.simulate.RubricLessonParams({k})": _Listed(
        lambda v, k=k: getattr(sc.simulate.RubricLessonParams(**{k: v}), k), _CAT.tolist(),
        None, refuses=False) for k in ("R", "R0")},
    "sc.questions(subset)": _Listed(
        lambda v: sc.questions(_SOURCED, subset=v, irt=False).stats.table,
        ("source", ["arc", "gsm"]), "source=arc, gsm", "source=arc", ("source", ["arc"]),
        refuses=False),
    **{f"sc.Outcomes.{m}(correct)": _Listed(
        lambda v, m=m: getattr(_CPI, m)(correct=v), ["C", "P"], "C, P", "C", ["C"])
       for m in ("binarized", "correct_categories")},
    **{f"sc.io.LoadOptions({k})": _Listed(
        lambda v, k=k: getattr(sc.io.LoadOptions(**{k: v}), k), listed, text, one, one_listed,
        refuses=refuses)
       for k, listed, text, one, one_listed, refuses in [
           ("attributes", ["source", "tag"], "source, tag", "source", ["source"], True),
           ("model_columns", ["llm", "temperature"], "llm,temperature", "llm", ["llm"], True),
           ("category_names", ["no", "yes"], "no,yes", "x", ["x"], True),
           ("weights", [0, 0.5, 1], "0,0.5,1", "1", [1], True),
           ("score_range", (0, 10), "0,10", "10", None, False),
           ("columns", [("model", "llm"), ("question", "id")], "model=llm, question=id",
            "model=llm", [("model", "llm")], False),
           ("where", [("temperature", ["0.7", "1"])], "temperature=0.7,1", "temperature=0",
            [("temperature", ["0"])], False),
           ("correct", ["C", "P"], "C, P", "C", ["C"], True)]},
    # the public modules' own calls: the planner's curves ...
    **{f"sc.planner.gap_curve({k})": _Listed(
        lambda v, k=k: sc.planner.gap_curve(_lb(), "model_0", "model_1", **{k: v}),
        listed, text, listed[0], listed[:1])
       for k, listed, text in [("trials", [16, 32], "16,32"),
                               ("questions", [24, 48], "24, 48")]},
    "sc.planner.order_curve(n_values)": _Listed(
        lambda v: sc.planner.order_curve([0.7] * 4, [0.6] * 4, v, sims=50).p_correct,
        [1, 4], "1,4", 4, [4]),
    "sc.planner.order_curve(w)": _Listed(
        lambda v: sc.planner.order_curve([0.7] * 4, [0.6] * 4, [4], w=v, sims=50).z_mean,
        [0, 1], "0,1", "1", refuses=False),
    "sc.planner.pair_curve(n_values)": _Listed(
        lambda v: sc.planner.pair_curve(_R, 0, 1, v, sims=50).p_correct, [1, 4], "1, 4", 4,
        [4]),
    "sc.planner.pair_curve(w)": _Listed(
        lambda v: sc.planner.pair_curve(_R, 0, 1, [4], w=v, sims=50).z_mean, [0, 1], "0,1",
        "1", refuses=False),
    "sc.planner.curve_settings(pair)": _Listed(  # a name may hold a comma, as in --pair
        lambda v: sc.planner.curve_settings(_named_plan(), v, n_max=8), ["m,comma", "b"],
        "m,comma, b", "b"),
    # ... the loader's column guess ...
    "sc.io.guess_columns(present)": _Listed(
        lambda v: sc.io.guess_columns(v), ["llm", "qid", "sample", "correct"],
        "llm, qid, sample, correct", "correct", ["correct"]),
    "sc.io.guess_columns(roles)": _Listed(
        lambda v: sc.io.guess_columns(["llm", "qid", "correct"], v), ["model", "outcome"],
        "model,outcome", "outcome", ["outcome"]),
    # ... the report's first cell: the digests of several files ...
    "sc.report.load_code(sha256)": _Listed(
        lambda v: sc.report.load_code(["a.csv", "b.csv"], sha256=v), ["aa", "bb"], "aa, bb",
        "aa", ["aa"], refuses=False),
    "sc.report.report(sections)": _Listed(
        lambda v: _report_sections(sc.report.report, v), *_SECTIONS, refuses=False),
    # ... rubrics (a set of categories or weights has no order: refused too) ...
    "sc.rubric.Rubric(categories)": _Listed(
        lambda v: sc.rubric.Rubric("r", v, (0, 1), _RULES, default=0).categories,
        ["wrong", "correct"], "wrong, correct", "wrong"),
    "sc.rubric.Rubric(weights)": _Listed(
        lambda v: sc.rubric.Rubric("r", ("wrong", "correct"), v, _RULES, default=0).weights,
        [0, 0.5], "0, 0.5", "1"),
    **{f"sc.rubric.Rubric({k})": _Listed(  # no typed form: a string is refused
        lambda v, k=k: sc.rubric.Rubric("r", ("wrong", "correct"), (0, 1),
                                        **{"rules": _RULES, "default": 0, k: v}),
        listed, None, refuses=False)
       for k, listed in [("rules", _RULES), ("category_descriptions", ["bad", "good"])]},
    **{f"sc.rubric.{f}(terms)": _Listed(lambda v, f=f: getattr(sc.rubric, f)(v), _TERMS,
                                        None, refuses=False) for f in ("AllOf", "AnyOf")},
    **{f"sc.rubric.{f}(signals)": _Listed(
        lambda v, f=f: getattr(sc.rubric, f)(_RUBRIC_JSON.encode() if f == "load"
                                             else _RUBRIC_JSON, signals=v),
        ["is_correct", "tokens"], "is_correct, tokens", "is_correct", refuses=False)
       for f in ("from_json", "load")},
    # ... a spread prior's record of the fields it was learned from ...
    **{f"sc.SpreadPrior({k})": _Listed(
        lambda v, k=k: sc.SpreadPrior(*_SPREAD, fields=2, **{k: v}).to_dict()[k], listed,
        text, text.split(",")[0], listed[:1], refuses=False)
       for k, listed, text in [("sources", ["arc", "gsm"], "arc, gsm"),
                               *((k, [30, 60], "30,60") for k in ("models", "questions",
                                                                   "trials"))]},
    # ... the displays: column names, setting names ...
    **{f"sc.display.{f}(columns)": _Listed(
        lambda v, f=f: getattr(sc.display, f)(v, _HELP), ["model", "se", "pass@2", "pass@8"],
        "model, se, pass@2, pass@8", "se", ["se"], refuses=False)
       for f in ("column_meanings", "column_legend", "legend_html", "legend_markdown",
                 "legend_text")},
    "sc.display.column_parts(keys)": _Listed(
        lambda v: _parts(keys=v), ["model", "rank"], "model, rank", "model", ["model"],
        refuses=False),
    "sc.display.column_parts(together)": _Listed(  # one string: one group
        lambda v: _parts(together=v), [("score", "lo", "hi")], "score, lo, hi", "lo",
        [("lo",)], refuses=False),
    "sc.display.settings_caption(skip)": _Listed(
        lambda v: sc.display.settings_caption({"seed": 3, "progress": 2, "pro": 1}, skip=v),
        ["progress", "seed"], "progress, seed", "progress", ["progress"]),
    "sc.display.run_caption(skip)": _Listed(
        lambda v: sc.display.run_caption(sc.display.About(
            None, data="d", settings={"seed": 3, "progress": 2, "pro": 1}), skip=v),
        ["progress", "seed"], "progress,seed", "progress", ["progress"]),
    "sc.display.recorded(skip)": _Listed(
        _recorded, ["progress", "seed"], "progress, seed", "progress", ["progress"]),
    # ... prose: one string is one line, commas and all (as sc.show's note) ...
    **{f"sc.display.{f}(note)": _Listed(
        lambda v, f=f: repr(getattr(sc.display, f)(_TAU, note=v)), ["one note, with a comma"],
        "one note, with a comma", refuses=False) for f in ("Table", "as_table")},
    "sc.display.note_lines(note)": _Listed(
        sc.display.note_lines, ["a, b"], "a, b", refuses=False),
    **{f"sc.display.{f}(caveats)": _Listed(
        lambda v, f=f: getattr(sc.display, f)(v), ["Only 12 questions: intervals are wide."],
        "Only 12 questions: intervals are wide.", refuses=False)
       for f in ("caveats_html", "caveats_text")},
    **{f"sc.display.result_html({k})": _Listed(
        lambda v, k=k: sc.display.result_html("t", "c", [("", _TAU)], **{k: v}),
        ["one line, with a comma"], "one line, with a comma", refuses=False)
       for k in ("notes", "caveats")},
    # ... and lists no string spells (tables, a column's values): a string is refused
    "sc.display.Table(more)": _Listed(lambda v: repr(sc.display.Table(_TAU, more=v)),
                                      [sc.display.Table(_TAU)], None, refuses=False),
    "sc.display.part_text(parts)": _Listed(lambda v: sc.display.part_text(v, 0),
                                           [_TAU.iloc[:, :2], _TAU.iloc[:, [0, 2]]], None,
                                           refuses=False),
    "sc.display.result_html(tables)": _Listed(lambda v: sc.display.result_html("t", "c", v),
                                              [("", _TAU)], None, refuses=False),
    **{f"sc.formatting.{f}(values)": _Listed(
        lambda v, f=f: getattr(sc.formatting, f)(v, *((8,) if f.startswith("papers") else ())),
        [8.0, 12.0], None, refuses=False)
       for f in ("column_format", "format_column", "papers_rule_cells")},
}

@functools.cache
def _board():
    """A leaderboard of _R (models model_0, model_1, model_2; N = 4)."""
    return _lb()


def _planned(f: str, one: bool = False, **given):
    """sc.planner.<f> (detectable_gaps, decision_chance) of _PAIRS on :func:`_board`, with
    ``given`` in place of its settings; ``one``: of the first pair only."""
    kw = {k: v[:1] if one else v for k, v in _PAIRS.items()}
    if f == "decision_chance":
        kw["true_gap"] = [0.1, 0.2][:1] if one else [0.1, 0.2]
    return getattr(sc.planner, f)(_board(), **{**kw, **given})


def _ours(extra) -> list[str]:
    """The variants sc.rank.ranker(..., extra=extra) marks ours, of t_a, t_b and t_ab
    (registered for the call, then taken out of the registry)."""
    ids = ("t_a", "t_b", "t_ab")
    try:
        @sc.rank.ranker("voting", "a test ranker", variants=dict.fromkeys(ids, {}), extra=extra)
        def t_ranker(R):
            return np.zeros(len(R))

        return sorted(i for i in ids if sc.rank.METHODS[i].extra)
    finally:
        for i in ids:
            sc.rank.METHODS.pop(i, None)


def _plain(chart) -> Any:
    """A chart, axis, legend or dict of encodings as plain data."""
    if isinstance(chart, dict):
        return {k: _plain(v) for k, v in chart.items()}
    return chart.to_dict() if hasattr(chart, "to_dict") else chart


@functools.cache
def _order_curve():
    return sc.planner.order_curve([0.7] * 4, [0.6] * 4, [1, 4], sims=20)


def _rubric():
    return sc.rubric.Rubric("r", ("wrong", "correct"), (0, 1), _RULES, default=0)


def _said(call, *args) -> str:
    """What ``call(*args)`` says: its refusal's message, or '' where it accepts."""
    try:
        call(*args)
    except ValidationError as exc:
        return str(exc)
    return ""


# the planner's named pairs and plan sizes (``upper="a,b"`` had been the unknown model 'a,b';
# ``pair_assurance(b, "a", "b", "4,64")`` int(',')) ...
_PAIRS = {"upper": ["model_0", "model_0"], "lower": ["model_1", "model_2"], "n": [16, 32]}
_LISTS.update({
    **{f"sc.planner.{f}({k})": _Listed(
        lambda v, f=f, k=k: _planned(f, **{k: v}), _PAIRS[k], ", ".join(map(str, _PAIRS[k])),
        str(_PAIRS[k][0]), _PAIRS[k][:1], lambda v, f=f, k=k: _planned(f, one=True, **{k: v}))
       for f in ("detectable_gaps", "decision_chance") for k in ("upper", "lower", "n")},
    "sc.planner.decision_chance(true_gap)": _Listed(
        lambda v: _planned("decision_chance", true_gap=v), [0.1, 0.2], "0.1,0.2", "0.1",
        [0.1]),
    "sc.planner.pair_assurance(n_values)": _Listed(
        lambda v: sc.planner.pair_assurance(_board(), "model_0", "model_1", v), [8, 16],
        "8, 16", "8", [8]),
    # ... tables of probabilities (no typed form: a string is refused, not read as numbers) ...
    **{f"sc.planner.order_curve({k})": _Listed(
        lambda v, k=k: sc.planner.order_curve(**{"p_upper": [0.7] * 4, "p_lower": [0.6] * 4,
                                                 k: v}, n_values=[4], sims=20).p_correct,
        [0.5] * 4, None, refuses=False) for k in ("p_upper", "p_lower")},
    **{f"sc.simulate.{f}(p)": _Listed(run, listed, None, refuses=False) for f, run, listed in [
        ("shift_to_means", lambda v: sc.simulate.shift_to_means(v, [0.3]), [[0.1, 0.5, 0.9]]),
        ("sample_outcomes", lambda v: sc.simulate.sample_outcomes(v, 3, seed=0),
         [[0.0, 1.0], [1.0, 0.0]]),
        ("sample_counts", lambda v: sc.simulate.sample_counts(v, 10, seed=0), [[0.5, 0.5]]),
        ("greedy_outcomes", lambda v: sc.simulate.greedy_outcomes(v, sharpness=200, seed=0),
         [[0.2, 0.8], [0.9, 0.1]])]},
    "sc.fit_spread_prior(runs)": _Listed(  # one string: a path, refused with sc.load's call
        lambda v: sc.fit_spread_prior(v).to_dict(), [_R] * 5, None, refuses=False),
    # ... the rankers' vectors (``pagerank(R, teleport="1,1,2")``: "could not convert string
    # to float") and the registry's set of our own variants (a string was read by substring:
    # ``extra="t_ab"`` marked t_a ours too) ...
    "sc.rank.pagerank(teleport)": _Listed(
        lambda v: sc.rank.pagerank(_R, teleport=v, return_scores=True)[1], [1, 1, 2], "1,1,2",
        "1"),
    "sc.rank.dynamic_irt(time_points)": _Listed(
        lambda v: sc.rank.dynamic_irt(_R, "growth", time_points=v, return_scores=True)[1],
        [0, 1, 3, 7], "0, 1, 3, 7", "1"),
    "sc.rank.rank_scores(scores)": _Listed(lambda v: sc.rank.rank_scores(v), [0.9, 0.5, 0.7],
                                           "0.9,0.5,0.7", "0.5", [0.5]),
    "sc.rank.GaussianPrior(mean)": _Listed(
        lambda v: sc.rank.GaussianPrior(mean=v).grad(np.array([1.0, 2.0])), [0, 0.5], "0,0.5",
        "0.5", [0.5], refuses=False),
    "sc.rank.ranker(extra)": _Listed(_ours, ["t_a", "t_b"], "t_a, t_b", "t_ab", ["t_ab"],
                                     refuses=False),  # a set of ids: no order to lose
    # ... the charts' helpers: axes of numbers, legends of names ...
    **{f"sc.charts.{f}({k})": _Listed(
        lambda v, f=f: _plain(getattr(sc.charts, f)(v)), listed, text, one, [one] if one
        else None, refuses=True)
       for f, k, listed, text, one in [
           ("whole_axis", "values", [1, 3], "1, 3", "2"),
           ("whole_log_axis", "values", [8, 64], "8,64", "8"),
           ("log_axis", "values", [0.02, 0.3], "0.02, 0.3", "0.3"),
           ("viridis", "t", [0.0, 1.0], "0,1", "1"),
           ("size_values", "counts", [30, 1520], "30,1520", "30"),
           ("name_legend", "names", ["a", "b"], "a, b", "abc")]},
    "sc.charts.series_encodings(domain)": _Listed(
        lambda v: _plain(sc.charts.series_encodings("model", v)), ["a", "b"], "a,b", "abc",
        ["abc"]),
    "sc.charts.order_curve_chart(p_decided)": _Listed(
        lambda v: _plain(sc.charts.order_curve_chart(_order_curve(), 1.645, p_decided=v)),
        [0.2, 0.9], "0.2, 0.9", None),
    # ... Markdown prose that quotes names of the data ...
    "sc.formatting.md_prose(names)": _Listed(
        lambda v: sc.formatting.md_prose("**a_b_** beats big*model*", v),
        ["big*model*", "a_b_"], "big*model*, a_b_", "a_b_", ["a_b_"]),
    "sc.formatting.plain_prose(names)": _Listed(
        lambda v: sc.formatting.plain_prose("tick`s and a`b beat `p_best`", v),
        ["tick`s", "a`b"], "tick`s, a`b", "a`b", ["a`b"]),
    # ... and the public classes' methods (the rubric's signals and weights)
    "sc.rubric.Rubric.check_signals(available)": _Listed(
        lambda v: _said(_rubric().check_signals, v), ["is_correct", "tokenz"],
        "is_correct, tokenz", "tokenz", ["tokenz"], refuses=False),
    "sc.rubric.Rubric.from_json(signals)": _Listed(
        lambda v: sc.rubric.Rubric.from_json(_RUBRIC_JSON, signals=v),
        ["is_correct", "tokens"], "is_correct, tokens", "is_correct", refuses=False),
    "sc.rubric.Rubric.with_weights(weights)": _Listed(
        lambda v: _rubric().with_weights(v).weights, [0, 0.5], "0, 0.5", "1"),
})


#: List-valued parameters where one string is one value by design, each with why.
_NOT_LISTS = {
    "sc.load(source)": "one string is one path (a list: several files)",
    "sc.show(note)": "a note is prose, commas and all: one string is one note",
    "sc.Outcomes(question_attributes)": "a mapping attribute -> values, one per question",
    "sc.simulate.question_probs(size)": "numpy's size=: a shape",
    "sc.check_smaller_run(models)": "a number of models, not names",
    "sc.ANALYSES['check'].params(models)": "a number of models, not names",
    "sc.io.LoadOptions(model_map)": "one string is the path of a mapping file (--model-map)",
    "sc.ANALYSES['rubric'].params(schemes)": "one string is one preset or rubric file (as "
                                             "--rubric)",
    "sc.make_report(path)": "one string is one path (a list: several files)",
    **{f"sc.report.{f}({k})": "one string is one path (a list: several files)"
       for f, k in (("load_code", "path"), ("to_notebook", "data_path"),
                    ("write_report", "data_path"))},
    "sc.formatting.weight_text(w)": "one category weight (a number), not a list of them",
    "sc.SpreadPrior(weights)": "a mapping scope -> the probabilities of its grid",
}

#: Parameters that hold lists whatever their annotation says.
_LIST_NAMES = {"w", "weights", "bounds", "means", "methods", "models"}


def _report_sections(make, sections):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        text = make(sc.Outcomes(_R), Path(tmp) / "r.md", sections=sections).read_text()
    return [line for line in text.splitlines() if line.startswith("## ")]


def _list_parameters() -> list[str]:
    """``owner(parameter)`` of every list-valued parameter of the public API: of every owner
    the keyword contract walks too (:func:`_owners`: every public call, every class a notebook
    constructs and every public method of every public class, results included), by their
    first public names -- every public module's __all__, not only sc's, sc.rank's,
    sc.simulate's and sc.charts's (``sc.planner.curve_settings(plan, pair="a,b")`` read the
    letters ``'a', ',', 'b'``), and every public class's methods, not only sc.Outcomes'
    (``sc.rubric.Rubric.check_signals``). A parameter is list-valued by its name, a list
    default or its annotation, so one that takes a list says so in its annotation
    (``sc.planner.detectable_gaps(b, upper="a,b", ...)``, unannotated, had gone unwalked and
    looked for the model ``'a,b'``)."""
    import inspect

    found = []
    for name, f in _owners().items():
        for p in inspect.signature(f).parameters.values():
            if (p.name in _LIST_NAMES or isinstance(p.default, tuple | list)
                    or _LIST_TYPES.search(str(p.annotation))):  # "str | list" too
                found.append(f"{name}({p.name})")
    return sorted(found)


#: An annotation that takes a list.
_LIST_TYPES = re.compile(r"\b(Sequence|Iterable|list|tuple)\b")


def _same(a, b) -> bool:
    """The two results are the same (NaN where the other has NaN)."""
    if isinstance(a, pd.DataFrame):
        return a.equals(b)
    plain = (lambda x: x.tolist() if isinstance(x, np.ndarray) else x)  # noqa: E731
    return repr(plain(a)) == repr(plain(b))


def _per_letter(message: str, text: str) -> bool:
    """The refusal took ``text`` letter by letter: its first characters listed one by one."""
    chars = [c for c in text if c.strip()][:3]
    return len(chars) == 3 and any(sep.join(form(c) for c in chars) in message
                                   for sep in (", ", ",") for form in (str, repr))


@pytest.mark.parametrize("key", _list_parameters())
def test_a_list_given_as_one_string_is_read_as_the_command_line_reads_it(key):
    """Every list-valued parameter: a comma-separated string gives what the list gives, one
    bare value what a list of one gives (or a refusal), a set the two forms it takes --
    never a name per character (``models="abc"`` was models a, b, c; ``ks="2,4"`` "k must be
    a whole number; got '2'"; ``methods="bayes"`` "unknown method ids: b, a, y, e, s"; in
    sc.planner, sc.io, sc.display, sc.rubric ...: ``curve_settings(plan, pair="a,b")`` "pair
    must name two models; got ['a', ',', 'b']", ``caveats_text("One caveat.")`` a caveat per
    letter, ``settings_caption(s, skip="progress")`` left out a setting ``pro`` too)."""
    if key in _NOT_LISTS:
        assert _NOT_LISTS[key] and key not in _LISTS
        return
    assert key in _LISTS, f"{key}: a list-valued parameter; say how a string reads it"
    case = _LISTS[key]
    listed = case.run(case.listed)
    if case.text is None:  # a table: a string is refused, not read by character
        with pytest.raises(ValidationError) as caught:
            case.run("0,1")
        assert not _per_letter(str(caught.value), "0,1")
    else:
        assert _same(case.run(case.text), listed), key
    if case.single is not None:
        run_single = case.run_single or case.run
        if case.single_listed is not None:
            assert _same(run_single(case.single), run_single(case.single_listed)), key
        else:
            with pytest.raises(ValidationError) as caught:
                run_single(case.single)
            assert not _per_letter(str(caught.value), case.single), str(caught.value)
    if case.refuses:
        unordered = set(case.listed)
        with pytest.raises(ValidationError, match="or a comma-separated string"):
            case.run(unordered)


def test_every_list_case_is_a_list_valued_parameter_of_the_walk():
    """_LISTS and _NOT_LISTS name only parameters the walk finds, so a case cannot outlive
    its parameter or miss it under another name (sc.make_report(path), ``str | PathLike |
    list``, had gone unwalked while its entry stayed)."""
    found = set(_list_parameters())
    assert {"sc.make_report(path)", "sc.planner.curve_settings(pair)",
            "sc.io.guess_columns(present)", "sc.display.settings_caption(skip)",
            "sc.rubric.Rubric(weights)", "sc.report.load_code(sha256)",
            "sc.planner.detectable_gaps(upper)", "sc.rubric.Rubric.with_weights(weights)"} <= found
    assert set(_LISTS).isdisjoint(_NOT_LISTS)
    stale = (set(_LISTS) | set(_NOT_LISTS)) - found
    assert not stale, stale


# ------------------------------------------------------------ a keyword the call does not take
def test_every_public_call_is_classified_for_its_keywords():
    """The calls of every public module are here, not only sc's, sc.rank's, sc.simulate's and
    sc.charts's (sc.formatting.format_number(x, decimal=2), sc.rubric.apply(r, d, strict=1)
    ... raised Python's bare TypeError)."""
    calls = _public_calls()
    modules = {name.rsplit(".", 1)[0] for name in calls}
    assert {"sc", "sc.io", "sc.planner", "sc.rank", "sc.simulate", "sc.rubric", "sc.charts",
            "sc.report", "sc.export", "sc.formatting", "sc.display"} <= modules, modules
    assert {"sc.formatting.format_number", "sc.rubric.apply", "sc.planner.assurance",
            "sc.report.to_html", "sc.export.to_csv", "sc.display.html_table",
            "sc.io.load_table"} <= set(calls)
    stale = set(_NOT_CALLED) - set(calls)
    assert not stale, stale
    assert all(_NOT_CALLED.values())


def _keywords(f, cls: type | None = None) -> list[str]:
    """The keywords ``f`` takes; a method read off its class ``cls`` without its self."""
    import inspect

    params = list(inspect.signature(f).parameters.values())
    if cls is not None and inspect.isfunction(f) and not isinstance(
            inspect.getattr_static(cls, f.__name__), staticmethod):
        params = params[1:]
    return [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def _misspelt(name: str) -> str:
    """``name`` as a hurried typist writes it: its last letter doubled (``ks`` -> ``kss``)."""
    return name + name[-1]


@pytest.mark.parametrize("name", sorted(
    {n for n, f in _owners().items() if not isinstance(f, type)} - set(_NOT_CALLED)))
def test_every_public_call_refuses_an_unknown_keyword_naming_its_settings(name):
    """``sc.leaderboard(d, k=2)``, ``sc.plan(d, budget=40)``, ``sc.show(t, maxrows=3)``,
    ``sc.formatting.format_number(x, decimal=2)`` ... raised Python's bare "unexpected keyword
    argument" while ``sc.pair`` listed its settings. Every public call of every public module
    now refuses a keyword it does not take before it runs (no data needed), as one
    ValidationError that is a TypeError too (``except TypeError`` still catches it),
    suggesting the closest setting and listing every one it takes (a new public function is
    here or in _NOT_CALLED, with why). So does every public method of every public class, the
    results' too -- the owners the list walk walks (``data.select(model="a")``,
    ``board.caption(wide=True)``, ``plan.to_text(width=80)`` raised the bare TypeError):
    ``Outcomes.select(): unknown setting model (did you mean 'models'?) ...``."""
    owner, _, call = name.rpartition(".")
    if name in _methods():  # named by its class, its keywords without self or cls
        cls = _public_classes()[owner]
        _refuses_a_typo(_owners()[name], f"{cls.__name__}.{call}", cls=cls)
    else:
        _refuses_a_typo(_owners()[name], call)


@pytest.mark.parametrize("name", sorted(set(_owners()) - set(_NOT_CALLED)))
def test_every_public_owner_names_the_values_passed_by_position_that_need_a_name(name):
    """``sc.pair(data, "LLM_9", "LLM_10")`` raised Python's bare "pair() takes 1 positional
    argument but 3 were given", which says neither which values nor how to pass them. Every
    public call, class and method that takes a fixed number of positional values now refuses
    one more before it runs, as a ValidationError that is a TypeError too, naming the count
    it takes and, where it has keyword-only settings, the values to pass by name and those
    settings."""
    import inspect

    make = _owners()[name]
    owner, _, call = name.rpartition(".")
    cls = _public_classes().get(owner) if name in _methods() else None
    shown = f"{cls.__name__}.{call}" if cls is not None else (
        make.__name__ if isinstance(make, type) else call)
    params = list(inspect.signature(make).parameters.values())
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        pytest.skip("takes any number of positional values (*args)")
    own = 1 if cls is not None and inspect.isfunction(make) and not isinstance(
        inspect.getattr_static(cls, make.__name__), staticmethod) else 0  # self, by position
    positional = [p.name for p in params[own:] if p.kind in (p.POSITIONAL_ONLY,
                                                               p.POSITIONAL_OR_KEYWORD)]
    keyword_only = [p.name for p in params if p.kind == p.KEYWORD_ONLY]
    marker = "only-by-name"
    with pytest.raises(ValidationError) as caught:
        make(*[object()] * (own + len(positional)), marker)
    assert isinstance(caught.value, TypeError)
    msg = str(caught.value)
    n = len(positional)
    took = f"{n} positional argument{'s' if n != 1 else ''} ({', '.join(positional)})" if n \
        else "no positional arguments"
    assert msg.startswith(f"{shown}() takes {took} but {n + 1} were given"), msg
    if keyword_only:
        assert f"pass {marker!r} by name; its settings are {', '.join(keyword_only)}" in msg, msg


def _refuses_a_typo(make, owner: str, cls: type | None = None) -> None:
    """``make`` (a call, a class or a method read off its class) refuses its last keyword
    misspelt -- before it runs, so no data (nor an instance) are needed -- as a
    ValidationError that is a TypeError too, suggesting the keyword meant and listing every
    one it takes (one that takes none says so); a method read off ``cls``."""
    known = _keywords(make, cls)
    typo = _misspelt(known[-1]) if known else "setting"
    assert typo not in known
    with pytest.raises(ValidationError) as caught:
        make(**{typo: 1})
    assert isinstance(caught.value, TypeError)
    msg = str(caught.value)
    if not known:
        assert msg == f"{owner}(): unknown setting {typo}; it takes no settings", msg
        return
    head, _, listed = msg.partition("; its settings are ")
    assert head.startswith(f"{owner}(): unknown setting {typo} (did you mean "), msg
    assert repr(known[-1]) in head, msg
    assert set(known) <= set(listed.split("; ")[0].split(", ")), msg


def test_every_public_class_is_classified_for_its_keywords():
    classes = _public_classes()
    assert {"sc.Outcomes", "sc.io.LoadOptions", "sc.rank.GaussianPrior", "sc.rubric.Rule",
            "sc.display.Table", "sc.ANALYSES['plan'].params"} <= set(classes)
    stale = set(_NOT_CONSTRUCTED) - set(classes)
    assert not stale, stale
    # one list of owners for the keyword contract and the list walk: the constructed
    # classes, the calls and every public method of every public class, results included
    owners = _owners()
    assert {"sc.Outcomes.select", "sc.Leaderboard.caption", "sc.planner.Plan.to_text",
            "sc.rubric.AllOf.describe", "sc.rubric.Condition.named", "sc.rank.Prior.grad",
            "sc.rubric.Rubric.from_json", "sc.display.Shown.charts"} <= _methods() <= set(owners)
    assert set(_public_calls()) <= set(owners) and not set(_NOT_CONSTRUCTED) & set(owners)


@pytest.mark.parametrize("name", sorted(n for n, f in _owners().items() if isinstance(f, type)))
def test_every_public_class_refuses_an_unknown_keyword_naming_its_settings(name):
    """``sc.Outcomes(R, model=[...])``, ``sc.io.LoadOptions(weight=...)``,
    ``sc.rank.GaussianPrior(varr=2)`` raised Python's bare "__init__() got an unexpected
    keyword argument" while every public call named its settings. Every class a notebook
    constructs now refuses a misspelt keyword as the calls do (a new public class is here or
    in _NOT_CONSTRUCTED, with why)."""
    cls = _public_classes()[name]
    _refuses_a_typo(cls, cls.__name__)


def test_checked_classes_stay_the_dataclasses_they_were():
    """The keyword check wraps the dataclass's own __init__ in place: the class is the same
    object, frozen, with its fields, equality, hash, repr, replace (checked too) and
    pickling; the decorator put under @dataclass, where there is no __init__ yet to wrap,
    is refused when the module loads, not left checking nothing."""
    import copy
    import dataclasses
    import pickle

    from scorio_core._validation import checked_keywords

    opts = sc.io.LoadOptions(weights=(0, 0.5, 1), on_missing="truncate")
    prior = sc.rank.GaussianPrior(var=2.0)
    data = sc.Outcomes(_R[:1], models=["solo"])
    for obj in (opts, prior, data):
        assert dataclasses.is_dataclass(obj) and type(obj).__init__.__wrapped__
        assert pickle.loads(pickle.dumps(obj)) is not obj
        assert copy.deepcopy(obj).__class__ is type(obj)
        with pytest.raises(dataclasses.FrozenInstanceError):
            obj.name = "x"
    assert [f.name for f in dataclasses.fields(sc.rank.GaussianPrior)] == ["mean", "var"]
    assert prior == sc.rank.GaussianPrior(0.0, 2.0) and hash(prior) == hash(
        sc.rank.GaussianPrior(var=2.0)) and repr(prior) == "GaussianPrior(mean=0.0, var=2.0)"
    assert opts == sc.io.LoadOptions(on_missing="truncate", weights=[0, 0.5, 1])
    assert dataclasses.replace(opts, scorer="match").scorer == "match"
    with pytest.raises(ValidationError, match=r"LoadOptions\(\): unknown setting scorr "
                       r"\(did you mean 'scorer'"):
        dataclasses.replace(opts, scorr="match")
    assert pickle.loads(pickle.dumps(data)).models == ("solo",)

    with pytest.raises(TypeError, match="put @checked_keywords above @dataclass"):
        @dataclasses.dataclass
        @checked_keywords
        class Wrong:
            x: int = 0

    # a method that passes **kwargs on cannot be checked by its signature: refused on import
    from scorio_core._validation import checked_methods

    with pytest.raises(TypeError, match=r"Loose\.more takes \*\*kwargs"):
        @checked_methods
        class Loose:
            def more(self, **kw):
                return kw


@pytest.mark.parametrize(("call", "typo", "meant"), [
    (lambda d, **kw: sc.leaderboard(d, **kw), "k", "ks"),  # the CLI's flag is --k
    (lambda d, **kw: sc.leaderboard(d, **kw), "scoep", "scope"),
    (lambda d, **kw: sc.plan(d, **kw), "budget", "budget_trials"),
    (lambda d, **kw: sc.pass_curves(d, **kw), "k", "ks"),
    (lambda d, **kw: sc.report(d, "x.html", **kw), "section", "sections"),
    (lambda d, **kw: sc.show(d.R[0], **kw), "maxrows", "max_rows"),
    (lambda d, **kw: sc.interval_coverage(**kw), "mean", "means"),
    (lambda d, **kw: sc.load(_CAT_FRAME, **kw), "weight", "weights"),
    (lambda d, **kw: sc.by_subset(d, "source", **kw), "draw", "draws"),
    (lambda d, **kw: sc.convergence(d, **kw), "method", "methods"),
    (lambda d, **kw: sc.ANALYSES["pair"](d, **kw), "confidance", "confidence"),
])
def test_the_audits_typos_name_the_setting_meant(call, typo, meant):
    data = sc.Outcomes(np.random.default_rng(3).integers(0, 2, (3, 6, 2)),
                       question_attributes={"source": ["a", "b"] * 3})
    with pytest.raises(TypeError) as caught:  # code written for Python's own error
        call(data, **{typo: 2})
    assert isinstance(caught.value, ValidationError)
    assert f"unknown setting {typo} (did you mean {meant!r}?)" in str(caught.value)


#: A categorical table: outcomes 0, 1, 2.
_CAT_FRAME = pd.DataFrame({"model": ["a", "a", "b", "b"], "question": ["q"] * 4,
                           "trial": [0, 1, 0, 1], "outcome": [0, 2, 1, 2]})


def test_a_loader_option_given_to_a_report_says_where_it_goes(tmp_path):
    data = sc.load(_CAT_FRAME, weights=[0, 0.5, 1])
    with pytest.raises(ValidationError, match=r"weights is a loader option: pass "
                       r"options=sc\.io\.LoadOptions\(weights=\.\.\.\)"):
        sc.report(data, tmp_path / "r.ipynb", weights=[0, 0.5, 1])
    assert not (tmp_path / "r.ipynb").exists()


def _checks(run, *args, within=None) -> int:
    """How many keyword checks (:func:`~scorio_core._validation.checked_keywords`)
    ``run(*args)`` goes through: calls of the checked wrapper, which every checked function
    shares; with ``within`` (a function), only those made inside a call of it, which must
    have run."""
    import sys

    wrapper = sc.formatting.format_value.__code__
    assert sc.formatting.format_value.__wrapped__.__code__ is not wrapper
    inner = None if within is None else within.__code__
    n, entered, before = 0, 0, sys.getprofile()

    def count(frame, event, arg):
        nonlocal n, entered
        if event != "call":
            return
        entered += frame.f_code is inner
        if frame.f_code is wrapper:
            caller = frame.f_back
            while inner is not None and caller is not None and caller.f_code is not inner:
                caller = caller.f_back
            n += caller is not None

    sys.setprofile(count)
    try:
        run(*args)
    finally:
        sys.setprofile(before)
    assert within is None or entered, f"{within.__name__} did not run"
    return n


def test_the_packages_own_loops_do_not_check_keywords_per_cell_or_step():
    """The keyword check is for a notebook's calls: the renderers call format_value,
    format_number, display_width, md_inline, text_cell and line_width once per cell and the
    planner's searches and split assurance once per pair and step, unchecked (checked, a
    table's text took a seventh longer) -- so a 300-row table runs the checks a 3-row one
    does, a 60-trial split those of a 6-trial one, and a plan's search none."""
    from scorio_core import planner

    rng = np.random.default_rng(0)

    def table(rows: int) -> pd.DataFrame:
        return pd.DataFrame({"model": [f"m{i}\nA. yes" for i in range(rows)],
                             "p_best": rng.random(rows), "trials": rng.integers(1, 99, rows),
                             "gap": 100 * rng.random(rows), "ok": rng.random(rows) > 0.5})

    small, large = table(3), table(300)
    for render in (sc.formatting.format_frame, sc.formatting.text_table,
                   sc.formatting.markdown_table, sc.formatting.printed_numbers,
                   lambda t: sc.formatting.column_texts(t, "p_best"),
                   lambda t: sc.display.html_table(t, max_rows=None)):
        assert 0 < _checks(render, small) == _checks(render, large)
    assert _checks(lambda: sc.formatting.format_number(0.5, 3, probability=True)) == 1

    R = np.random.default_rng(1).integers(0, 2, (4, 30, 4))
    for scope in ("questions", "population"):
        board = sc.leaderboard(R, scope=scope)
        assert _checks(planner.pair_needs, board, within=planner._search) == 0, scope
    few, many = (_checks(planner.allocate_trials, board, b) for b in (6, 60))
    assert 0 < few == many
