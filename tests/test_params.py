"""Settings declared once (issue 21): the CLI options and the page widgets of the
leaderboard and the Planner come from the declarations in ``scorio_core/params.py``."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest

from scorio_core import params as P
from scorio_core._validation import ValidationError
from scorio_core.cli import _parser

ROOT = Path(__file__).resolve().parents[1]
#: Options every data-reading subcommand shares (the loader's), and output-only flags.
SHARED = {"help", "path", "scorer", "benchmark", "weights", "columns", "on_missing", "format",
          "rubric", "workers", "scheduler"}
CONVERTED = {"leaderboard": P.LeaderboardParams, "plan": P.PlanParams,
             "compare": P.CompareParams, "stability": P.StabilityParams,
             "greedy": P.GreedyParams, "convergence": P.ConvergenceParams}


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
        assert action.dest in declared, f"--{action.dest} is declared outside {cls.__name__}"
        default, s = declared[action.dest]
        assert action.default == default and (action.choices is None) == (s.choices is None)
        seen.add(action.dest)
    assert seen == {n for n, (_, s) in declared.items() if s.cli is not None}


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
    with pytest.raises(ValidationError, match="n_max must be between 2 and 4096"):
        P.PlanParams(n_max=5000)
    assert P.PlanParams(n_max=None).n_max is None  # optional: None means the default rule
    assert P.PlanParams(budget_trials=4.0).budget_trials == 4  # a whole float is accepted


def test_bad_cli_values_are_refused_by_the_declaration(capsys):
    p = _subparser("plan")
    with pytest.raises(SystemExit):
        p.parse_args(["x.npz", "--sims", "10"])
    assert "sims must be between 100 and 200000; got 10" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        p.parse_args(["x.npz", "--draws", "many"])
    assert "--draws expects a whole number; got 'many'" in capsys.readouterr().err


def test_widget_texts_come_from_the_declaration():
    w = P.widget(P.PlanParams, "scope")
    assert w["options"] == ["questions", "population"] and w["label"] == "Scope"
    assert "population: mean score over the population" in w["help"]
    assert P.widget(P.LeaderboardParams, "ks")["label"] == "Pass@k columns"
