"""Settings declared once (issue 21): the CLI options and the page widgets of the
leaderboard and the Planner come from the declarations in ``scorio_core/params.py``."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import numpy as np
import pytest

from scorio_core import params as P
from scorio_core._validation import ValidationError
from scorio_core.cli import _parser
from scorio_core.io.options import LoadOptions
from scorio_core.simulate.params import OrderParams

ROOT = Path(__file__).resolve().parents[2]
#: Options every data-reading subcommand shares besides the loader's, and output-only flags
#: (--format, --no-legend: how the tables are printed, not what is computed).
SHARED = {"help", "path", "benchmark", "format", "no_legend", "rubric", "workers", "scheduler"}
#: The loader's options, declared once on LoadOptions (parsed attribute -> setting name).
LOADER = {s.dest or n: n for n, (_, s) in P.settings_of(LoadOptions).items() if s.cli is not None}
CONVERTED = {"leaderboard": P.LeaderboardParams, "plan": P.PlanParams,
             "compare": P.CompareParams, "stability": P.StabilityParams,
             "greedy": P.GreedyParams, "convergence": P.ConvergenceParams,
             "questions": P.QuestionsParams, "curves": P.CurvesParams,
             "check": P.CheckParams}


def _subparser(name: str) -> argparse.ArgumentParser:
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


@pytest.mark.parametrize("command", sorted(CONVERTED))
def test_every_cli_option_is_a_declared_setting(command):
    cls = CONVERTED[command]
    declared = P.settings_of(cls)
    seen = set()
    for action in _subparser(command)._actions:
        if action.dest in SHARED:
            continue
        if action.dest in LOADER:
            default, s = P.settings_of(LoadOptions)[LOADER[action.dest]]
            assert action.default == default
            continue
        assert action.dest in declared, f"--{action.dest} is declared outside {cls.__name__}"
        default, s = declared[action.dest]
        assert action.default == default and (action.choices is None) == (s.choices is None)
        seen.add(action.dest)
    assert seen == {n for n, (_, s) in declared.items() if s.cli is not None}


def test_every_data_command_takes_every_loader_option():
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    readers = [n for n, p in sub.choices.items()
               if any(a.dest == "path" for a in p._actions)]
    assert {"leaderboard", "plan", "info", "import", "report"} <= set(readers)
    for name in readers:
        dests = {a.dest for a in sub.choices[name]._actions}
        assert set(LOADER) <= dests, (name, set(LOADER) - dests)


def test_loader_options_parse_from_the_cli_as_the_api_takes_them():
    p = argparse.ArgumentParser()
    P.add_options(p, LoadOptions)
    args = p.parse_args(["--columns", "model=llm, question=id", "--on-missing", "truncate",
                         "--input-format", "csv", "--weights", "0,0.5,1"])
    opts = P.from_args(LoadOptions, args)
    assert opts == LoadOptions(columns={"model": "llm", "question": "id"},
                               on_missing="truncate", format="csv", weights=[0, 0.5, 1])
    assert hash(opts) == hash(LoadOptions(columns=(("model", "llm"), ("question", "id")),
                                          on_missing="truncate", format="csv",
                                          weights=(0.0, 0.5, 1.0)))
    with pytest.raises(SystemExit):
        p.parse_args(["--columns", "model"])


@pytest.mark.parametrize("command", sorted(CONVERTED))
def test_cli_modules_declare_no_option_of_a_setting(command):
    """The CLI module adds no ``--flag`` by hand that a setting declares."""
    tree = ast.parse((ROOT / "scorio_core" / "cli" / f"{command}.py").read_text())
    flags = {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument"
        and node.args and isinstance(node.args[0], ast.Constant)
    }
    assert flags <= {"--format", "--rubric", "--workers", "--scheduler"}, flags


def test_defaults_round_trip_through_the_cli():
    extra = {"convergence": {"curve_replicates": None, "slow_replicates": None}}
    for command, cls in CONVERTED.items():
        args = _subparser(command).parse_args(["x.npz"])
        want = cls(**extra.get(command, {}))
        assert P.from_args(cls, args, **extra.get(command, {})) == want, command


def test_declarations_validate_and_say_what_was_expected():
    with pytest.raises(ValidationError, match="assurance must be at least 0.5 and below 1"):
        P.PlanParams(assurance=0.3)
    with pytest.raises(ValidationError, match="adjust must be one of 'holm', 'simultaneous'"):
        P.PlanParams(adjust="sidak")
    with pytest.raises(ValidationError, match="budget_trials must be a whole number"):
        P.PlanParams(budget_trials=2.5)
    with pytest.raises(ValidationError, match="confidence must be strictly between 0 and 1"):
        P.LeaderboardParams(confidence=1.0)
    with pytest.raises(ValidationError, match="n_max must be between 2 and 4,096"):
        P.PlanParams(n_max=5000)
    assert P.PlanParams(n_max=None).n_max is None  # optional: None means the default rule
    assert P.PlanParams(budget_trials=4.0).budget_trials == 4  # a whole float is accepted


def test_bad_cli_values_are_refused_by_the_declaration(capsys):
    p = _subparser("plan")
    with pytest.raises(SystemExit):
        p.parse_args(["x.npz", "--sims", "10"])
    assert "sims must be between 100 and 200,000; got 10" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        p.parse_args(["x.npz", "--draws", "many"])
    assert "--draws expects a whole number; got 'many'" in capsys.readouterr().err


#: Each count of simulated or resampled datasets, by command: its flag is ``--replicates``
#: (``--plan-replicates`` for the Planner check's), the spelling it had before still parses.
COUNTS = {"plan": {"sims": ("--replicates", "--sims")},
          "check": {"reps": ("--replicates", "--reps"),
                    "plan_reps": ("--plan-replicates", "--plan-reps")}}


def _flags(parser: argparse.ArgumentParser) -> dict[str, list[str]]:
    """dest -> the flags ``--help`` shows for it."""
    out: dict[str, list[str]] = {}
    for a in parser._actions:
        if a.option_strings and a.help != argparse.SUPPRESS:
            out.setdefault(a.dest, []).extend(a.option_strings)
    return out


@pytest.mark.parametrize("command", sorted(CONVERTED))
def test_a_count_of_replicates_has_one_flag_in_every_command(command):
    """``plan --sims`` and ``check --reps`` beside ``--replicates`` in greedy, convergence and
    every simulation study named one meaning three ways: every setting that counts simulated
    or resampled datasets shows ``--replicates`` (the Planner check's ``--plan-replicates``)."""
    shown = _flags(_subparser(command))
    counts = {n for n in P.settings_of(CONVERTED[command]) if n in ("sims", "reps", "replicates")}
    for name in counts:
        want = COUNTS.get(command, {}).get(name, ("--replicates",))[0]
        assert shown[name] == [want], (command, name, shown[name])
    assert not {"--sims", "--reps", "--plan-reps"} & {f for fl in shown.values() for f in fl}


@pytest.mark.parametrize(("command", "name"), [(c, n) for c in COUNTS for n in COUNTS[c]])
def test_an_old_flag_spelling_still_parses_and_is_refused_in_its_own_name(command, name,
                                                                          capsys):
    new, old = COUNTS[command][name]
    p = _subparser(command)
    cls = CONVERTED[command]
    by_new, by_old = p.parse_args(["x.npz", new, "300"]), p.parse_args(["x.npz", old, "300"])
    assert getattr(by_new, name) == getattr(by_old, name) == 300
    assert P.from_args(cls, by_old) == P.from_args(cls, by_new) == cls(**{name: 300})
    assert getattr(p.parse_args(["x.npz"]), name) == P.settings_of(cls)[name][0]
    help_text = p.format_help()
    assert new in help_text and old not in help_text  # hidden from --help
    for flag in (new, old):  # a refused value names the flag typed, as argparse's usage error
        with pytest.raises(SystemExit) as info:
            p.parse_args(["x.npz", flag, "-1"])
        word = flag.lstrip("-").replace("-", "_")
        assert info.value.code == 2
        assert f"argument {flag}: {word} must be " in capsys.readouterr().err


def test_a_setting_of_several_numbers_checks_each_by_its_declaration():
    from scorio_core.simulate.params import CalibrationParams

    _, s = P.settings_of(CalibrationParams)["M_values"]
    assert P.check_value("questions", [10, 30.0], s) == (10, 30)
    with pytest.raises(ValidationError, match="questions must be between 1 and 100,000; got 0"):
        P.check_value("questions", (10, 0), s)
    with pytest.raises(ValidationError, match="M_values must be a whole number; got 2.5"):
        CalibrationParams(M_values=(10, 2.5))
    with pytest.raises(ValidationError, match="means must be strictly between 0 and 1; got 1.0"):
        CalibrationParams(means=(0.5, 1.0))
    assert CalibrationParams(means=0.9, M_values=np.int64(30)).M_values == (30,)


def test_widget_texts_come_from_the_declaration():
    w = P.widget(P.PlanParams, "scope")
    assert w["options"] == ["questions", "population"] and w["label"] == "Scope"
    assert "population: mean score over the population" in w["help"]
    assert P.widget(P.LeaderboardParams, "ks")["label"] == "Pass@k columns"


def test_pages_take_their_setting_keys_from_the_page_state_declarations():
    """A page names a setting's widget key through ``keys(...)`` (declared once in
    ``app_state.page_state.FIELDS``, a Simulator study's in ``app_state.sim_state.WIDGETS``),
    never as a string literal of its own."""
    import re

    from app_state.page_state import FIELDS, keys
    from scorio_core.definitions import SIMULATIONS

    single = {k for a in [*FIELDS, *SIMULATIONS] for k in keys(a).values()}
    assert {"sim_kappa", "sim_r0", "sim_cal_mean"} <= single
    for page in (ROOT / "app_pages").glob("*.py"):
        literal = set(re.findall(r'key="([^"]+)"', page.read_text())) & single
        assert not literal, f"{page.name} declares {sorted(literal)} itself"
    assert keys("plan")["assurance"] == "plan_assurance"


def test_pages_make_a_declared_settings_widget_through_one_helper():
    """A setting's widget is made by ``_common.setting`` (label, help, choices and the
    page's bounds from its declaration), never by a Streamlit call of the page's own with
    ``key=KEY[...]``: a label or a range typed into a page would be a second declaration."""
    found = []
    for page in sorted((ROOT / "app_pages").glob("*.py")):
        for node in ast.walk(ast.parse(page.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            for kw in node.keywords:
                if kw.arg == "key" and isinstance(kw.value, ast.Subscript) and name != "setting":
                    found.append(f"{page.name}:{node.lineno} {name}")
    assert not found, found


def test_the_helper_gives_a_widget_its_declared_label_help_and_page_bounds():
    """What ``_common.setting`` passes to Streamlit, recorded on a stand-in column."""
    from app_pages._widgets import setting

    calls = []

    class Column:
        def __getattr__(self, kind):
            return lambda *a, **kw: calls.append((kind, a, kw))

    setting(Column(), "convergence", "slow_replicates", step=5)
    setting(Column(), "check", "adjust")
    setting(Column(), "plan", "assurance")
    setting(Column(), "check", "models", max_value=7)
    setting(Column(), "calibration", "means", "slider")  # a Simulator study's
    (k1, a1, w1), (k2, a2, w2), (k3, a3, w3), (k4, a4, w4), (k5, a5, w5) = calls
    slow = P.widget(P.ConvergenceParams, "slow_replicates")
    assert (k1, a1) == ("number_input", (slow["label"], 2, 500)) and w1["step"] == 5
    assert w1["key"] == "conv_b_slow" and w1["help"] == slow["help"]
    assert k2 == "selectbox" and a2[1] == list(P.ADJUSTMENTS) and w2["key"] == "chk_adjust"
    assert w2["format_func"]("holm").startswith("Holm")
    assert k3 == "segmented_control" and w3["format_func"](0.8) == "80%" and w3["required"]
    assert a4[1:] == (2, 7) and all(type(v) is int for v in a4[1:])
    assert (k5, a5, w5["key"]) == ("slider", ("Mean success", 0.05, 0.95), "sim_cal_mean")


def test_a_help_written_per_surface_reads_each_surfaces_own_words():
    """A setting's help named every surface's form at once ("(scorio-studio spread-prior RUNS
    -o FILE; sc.fit_spread_prior)", "(sc.fit_spread_prior, --spread-prior)") or one
    surface's on all ("(question attributes: `scorio-studio info`)", "(the app's pages show
    ...)"). Written per surface, each reader gets its own: a Python function's *Parameters*
    the calls and keywords, ``--help`` the commands and flags, a page's widget (through the
    one helper) the boxes and pages."""
    import scorio_core as sc
    from app_pages._widgets import setting
    from scorio_core.api import _parameters_doc

    doc = " ".join(sc.questions.__doc__.split())
    doc = doc[doc.index("subset : "):doc.index("progress : ")]  # the two settings' entries
    assert ("Analyse only the questions whose attribute has this value: (ATTRIBUTE, VALUES) or "
            "'ATTRIBUTE=V1,V2', e.g. ('source', ['medmcqa']) (question attributes: "
            "data.question_attributes); the same") in doc
    assert "the questions of each value of this question attribute alone (e.g. source); " \
        "default: no table." in doc
    check = " ".join(_parameters_doc(P.CheckParams).split())
    assert "(sc.fit_spread_prior(runs), given as spread_prior=) would do" in check
    for text in (doc, check):
        assert "scorio-studio" not in text and "--" not in text and "page" not in text
    _, s = P.settings_of(P.CheckParams)["spread_history"]
    assert "(scorio-studio spread-prior RUNS -o FILE, given as --spread-prior FILE) would " \
        "do" in P._help(s, 0)
    calls = []

    class Column:
        def __getattr__(self, kind):
            return lambda *a, **kw: calls.append(kw["help"])

    setting(Column(), "check", "spread_history")
    setting(Column(), "questions", "subset", options=[None])
    history, subset = calls
    assert "(**Spread prior** on the Leaderboard and Planner pages) would do" in history
    assert "has this value (the data's question attributes: the Data page); the" in subset
    for text in calls:
        assert "sc." not in text and "--" not in text and "scorio-studio" not in text


@pytest.mark.parametrize("study", ["coins", "prior-depth", "order", "calibration",
                                   "rubric-lesson"])
def test_every_simulate_flag_is_a_declared_setting_of_its_study(study):
    """``scorio-studio simulate STUDY``: one flag per declared setting of the study (its
    default and check from the declaration), besides the output format and Dask options;
    the flags' values make the params as a notebook would."""
    from scorio_core.simulate.params import STUDY_PARAMS

    cls = STUDY_PARAMS[study]
    declared = P.settings_of(cls)
    sub = next(a for a in _subparser("simulate")._actions
               if isinstance(a, argparse._SubParsersAction)).choices[study]
    seen = set()
    for action in sub._actions:
        if action.dest in SHARED:
            continue
        assert action.dest in declared, f"{action.option_strings} is declared outside {cls}"
        assert action.default == declared[action.dest][0]
        seen.add(action.dest)
    assert seen == {n for n, (_, s) in declared.items() if s.cli is not None}
    assert P.from_args(cls, sub.parse_args([])) == cls()


def test_simulate_flags_parse_into_the_study_settings():
    from scorio_core.simulate.params import CalibrationParams, CoinsParams, OrderParams

    args = _parser().parse_args(["simulate", "calibration", "--means", "0.2,0.8",
                                 "--questions", "15,30", "--replicates", "300"])
    assert P.from_args(CalibrationParams, args) == CalibrationParams(
        means=(0.2, 0.8), M_values=(15, 30), replicates=300)
    args = _parser().parse_args(["simulate", "order", "--replicates", "500", "--upper", "0.7"])
    assert P.from_args(OrderParams, args) == OrderParams(sims=500, upper=0.7)
    args = _parser().parse_args(["simulate", "coins", "--fresh-questions", "--trials", "16"])
    assert P.from_args(CoinsParams, args) == CoinsParams(fresh_questions=True, N=16)
    with pytest.raises(SystemExit):
        _parser().parse_args(["simulate", "calibration", "--questions", "10,x"])


def test_every_page_range_holds_its_settings_default():
    """A page's narrower range (``page_min`` / ``page_max``) lies within the declared bounds
    and holds the default, so a page never opens on a clamped value."""
    from scorio_core.definitions import SECTIONS

    checked = 0
    for sid, definition in SECTIONS.items():
        for name, (default, s) in P.settings_of(definition.params).items():
            w = P.widget(definition.params, name)
            for bound in (s.page_min, s.page_max):
                if bound is None:
                    continue
                checked += 1
                assert s.minimum is None or bound >= s.minimum, (sid, name)
                assert s.maximum is None or bound <= s.maximum, (sid, name)
            values = default if isinstance(default, tuple) else (default,)
            for v in values:
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    assert w["min_value"] is None or v >= w["min_value"], (sid, name, v)
                    assert w["max_value"] is None or v <= w["max_value"], (sid, name, v)
    assert checked >= 20


def _unset(cls) -> dict:
    """Every setting of ``cls`` left unset: those whose default is unset as they are, and an
    optional one (``None`` allowed besides its default) set to ``None``."""
    return {n: None for n, (d, s) in P.settings_of(cls).items()
            if s.optional and not P.is_unset(d)}


def test_every_setting_that_may_be_unset_declares_what_unset_means():
    """A report's settings line printed "Prior outcomes (`R0`): default" where the lesson had
    no prior outcomes and "G-Pass τ (`tau`): default" where no G-Pass curve was drawn: the
    word hid what the run did. Every setting of every analysis and simulation study that may
    be left unset (``None``, or an empty list) declares once, with the setting, what unset
    means (``Setting.unset``), and only such settings do (a word for a setting that is never
    unset would never be read). The loader's options are not walked: no settings line,
    caption or echo lists them (the provenance records them as given)."""
    from scorio_core.definitions import SECTIONS

    words = {}
    for sid, a in SECTIONS.items():
        for name, (default, s) in P.settings_of(a.params).items():
            if not P.may_be_unset(default, s):
                assert s.unset is None, (sid, name)
                continue
            assert isinstance(s.unset, str) and s.unset.strip(), (sid, name)
            assert "default" not in s.unset and "None" not in s.unset, (sid, name, s.unset)
            words[(a.params.__name__, name)] = s.unset
    assert len(words) >= 15
    assert words["RubricLessonParams", "R0"] == "none (ν = counts + 1)"  # no prior outcomes
    assert words["CurvesParams", "tau"] == "none (no G-Pass@k_τ curve)"


def test_an_analysis_words_its_unset_settings_as_declared_then_as_its_run_took_them(data_dir):
    """Wherever a run's settings are read -- a report's settings line, a result's caption
    (the notebook display reads ``Analysis.resolved``) -- an unset setting is its declared
    word; where the run resolves it (the pair's models, the Planner's pair), what it took."""
    import scorio_core as sc
    from scorio_core.definitions import ANALYSES, SECTIONS

    for sid, a in SECTIONS.items():
        p = a.params(**_unset(a.params))
        declared = {n: s.unset for n, (_, s) in P.settings_of(a.params).items()
                    if P.is_unset(getattr(p, n))}
        # no result (a section that failed): the declared words, of every unset setting
        assert a.resolved(p, None) == P.unset_words(p) == declared, sid
    curves = ANALYSES["curves"]
    data = sc.load(data_dir / "biased_coins.npz")
    r = curves.run(data, curves.params())
    assert curves.resolved(curves.params(), r) == {"tau": "none (no G-Pass@k_τ curve)",
                                                   "subset": "all questions"}
    pair = ANALYSES["pair"]
    r = pair.run(data, pair.params())
    said = pair.resolved(pair.params(), r)  # the run's own choice, over the declared words
    assert said == {"a": r.comparison.a, "b": r.comparison.b, "question": r.flips.question}


def test_a_results_caption_says_what_its_unset_settings_mean(data_dir):
    """A result's notebook display named its settings "R0 = None", "tau = None", "ks = " (an
    empty list printed as nothing): the caption now says them in the declared words, as the
    report's settings line does."""
    from html import unescape

    import scorio_core as sc
    from scorio_core.definitions import ANALYSES, SIMULATIONS

    data = sc.load(data_dir / "biased_coins.npz")
    shown = {
        "rubric-lesson": SIMULATIONS["rubric-lesson"](),
        "curves": ANALYSES["curves"](data),
        "leaderboard": ANALYSES["leaderboard"](data, draws=500),
    }
    text = {k: unescape(r._repr_html_()) for k, r in shown.items()}
    assert "R0 = none (ν = counts + 1) · " in text["rubric-lesson"]
    assert "tau = none (no G-Pass@k_τ curve) · " in text["curves"]
    assert "subset = all questions" in text["curves"]
    assert "ks = none · " in text["leaderboard"]
    assert "spread_prior = none (the flat prior)" in text["leaderboard"]
    for k, html in text.items():
        assert " = None" not in html, k


def _leaderboard_rubric_greedy():
    from scorio_core.cli import leaderboard as cli_leaderboard

    args = _parser().parse_args(["leaderboard", "missing.npz", "--rubric", "ranking/x",
                                 "--prior", "greedy"])
    cli_leaderboard.run(args)  # refused before the (missing) file is read


def _check_run(N: int, **kw):
    from scorio_core import Outcomes
    from scorio_core.smaller_run import check_smaller_run

    R = np.random.default_rng(0).integers(0, 2, (3, 10, N))
    check_smaller_run(Outcomes(R), **kw)


#: Every place the core refuses settings valid alone but not together, and the message a
#: notebook (and a traceback) reads: Python's keywords, the values found as Python shows them.
CONFLICTS = {
    "order": (lambda: OrderParams(upper=0.5, lower=0.6),
              "upper must exceed lower (the better model first); got upper=0.5, lower=0.6"),
    "pair": (lambda: P.PairParams(a="m", b="m"),
             "a and b must be two different models; got a='m', b='m'"),
    "curves": (lambda: P.CurvesParams(kinds="pass,g"),
               "the G-Pass@k_τ curve (g in kinds) needs tau, the share of the k draws that "
               "must succeed, e.g. 0.5; got kinds=('pass', 'g'), tau=None"),
    "correct": (lambda: LoadOptions(correct=["C"], correct_from=0.5),
                "correct and correct_from were both given, but they are two rules for the "
                "same thing: which trials count as correct; keep one; got correct=('C',), "
                "correct_from=0.5"),
    "score-range": (lambda: LoadOptions(score_range=(0, 10), weights=[0, 1]),
                    "score_range and weights were both given, but they are two readings of "
                    "the scores: drop weights to weight each grade by (grade - LO) / (HI - "
                    "LO), or drop score_range to read whole-number categories 0..C with your "
                    "weights; got score_range=(0.0, 10.0), weights=(0, 1)"),
    "model-columns": (lambda: LoadOptions(columns={"model": "llm"}, model_columns="m,t"),
                      "columns maps the model to 'llm' but model_columns starts with 'm'; "
                      "model_columns names the model column first; got columns=(('model', "
                      "'llm'),), model_columns=('m', 't')"),
    "round-correct": (lambda: LoadOptions(round_grades=11, correct_from=0.5),
                      "round_grades and correct_from were both given: correct_from reads each "
                      "score as it is (continuous scores too), so there is nothing to round; "
                      "drop round_grades; got round_grades=11, correct_from=0.5"),
    "round-weights": (lambda: LoadOptions(round_grades=11, weights=[0, 1]).check_given(),
                      "round_grades and weights were both given, but they are two readings of "
                      "the scores: round_grades makes each rounded grade a category weighted "
                      "by its value; weights weight whole-number categories 0..C; keep one; got "
                      "round_grades=11, weights=(0.0, 1.0)"),
    "check-trials": (lambda: _check_run(8, trials=1, plan_reps=5),
                     "plan_reps: the Planner plans from at least 2 trials per question; trials "
                     "asks for 1: set plan_reps to 0 or trials to 2 or more; got plan_reps=5, "
                     "trials=1"),
    "check-default": (lambda: _check_run(4, plan_reps=5),
                      "plan_reps: the Planner plans from at least 2 trials per question; the "
                      "smaller runs have 1 (at most 1/4 of this run's 4): set plan_reps to 0, "
                      "or check data with at least 8 trials per question; got plan_reps=5"),
    "rubric-greedy": (_leaderboard_rubric_greedy,
                      "prior greedy cannot be combined with rubric: the greedy outcomes are "
                      "binary correctness, not rubric categories; got prior='greedy', "
                      "rubric='ranking/x'"),
}


@pytest.mark.parametrize("site", sorted(CONFLICTS))
def test_a_settings_conflict_is_one_said_naming_each_setting_by_its_declaring_class(site):
    """A conflict's message was text with ``{key}`` placeholders that each surface filled in
    through a path of its own (``SettingsConflict.say``, the CLI's ``conflict_text``, the
    app's ``error_text(exc, params)``, which needed the class from its caller). It is one
    :class:`Said` -- each setting a Mention of the class that declares it, each value found a
    Mention too -- whose ``str`` (``exc.args[0]``) is the Python form it always was; an option
    no settings class declares (``leaderboard --rubric``) is ``of=None``: the parser that
    declares it names it on the command line."""
    from scorio_core._validation import Mention, Said, SettingsConflict, said_of

    raise_it, python = CONFLICTS[site]
    with pytest.raises(SettingsConflict) as info:
        raise_it()
    exc = info.value
    assert isinstance(exc, ValidationError) and isinstance(exc, ValueError)
    assert str(exc) == exc.args[0] == python
    said = said_of(exc)
    assert isinstance(said, Said) and said is exc.args[0]
    mentions = [p for p in said.parts if isinstance(p, Mention)]
    found = [m for m in mentions if m.role == "found"]
    assert [m.key for m in found] == list(exc.found)  # one per value found, in order
    assert [m.value for m in found] == list(exc.found.values())
    named = {m.key for m in mentions if m.role == "name"}
    assert named and named <= set(exc.found)  # the rule names the settings it reports
    assert {m.role for m in mentions} == {"name", "found"}
    for m in mentions:
        if m.of is None:  # declared by the command line's parser, not a settings class
            assert (site, m.key) == ("rubric-greedy", "rubric")
            assert "--rubric" in [s for a in _subparser("leaderboard")._actions
                                  for s in a.option_strings]
            assert all(m.key not in P.settings_of(c) for c in CONVERTED.values())
        else:
            assert m.key in P.settings_of(m.of), (site, m)
