"""`scorio-studio check`: the definition's numbers (those of ``check_smaller_run``) as JSON,
CSV and a table with its notes; one-line errors for what the data cannot give."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.smaller_run import check_smaller_run


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def jhu(data_dir):
    return data_dir / "jhu_llm_temperature.parquet"


def test_check_json_matches_the_core_call(capsys, jhu):
    code, out, err = _run(capsys, "check", str(jhu), "--trials", "2", "--questions", "20",
                          "--models", "4", "--reps", "20", "--draws", "500", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    want = check_smaller_run(io.load(jhu), 2, questions=20, models=4, reps=20, draws=500)
    assert [r["scope"] for r in doc["intervals"]] == ["questions", "population"]
    np.testing.assert_allclose([r["coverage"] for r in doc["intervals"]],
                               want.intervals["coverage"], rtol=0, atol=1e-12)
    np.testing.assert_allclose([r["observed"] for r in doc["p_best"]], want.p_best["observed"],
                               rtol=0, atol=1e-12)
    assert doc["provenance"]["settings"]["trials"] == 2
    assert any("stand in for the truth" in n for n in doc["notes"])


def test_check_table_has_both_sections_and_notes(capsys, jhu):
    code, out, err = _run(capsys, "check", str(jhu), "--questions", "15", "--reps", "10",
                          "--draws", "500", "--format", "table")
    assert code == 0, err
    assert "× 15 questions × 4 trials" in out  # the default trials: 4
    assert "## Intervals and decisions" in out and "## p_best" in out
    assert "Note: The truth here is this run's own shares (100 trials" in out


@pytest.mark.parametrize(("argv", "fragment"), [
    (["--trials", "30"], "trials: at most 25 (1/4 of this run's 100 trials"),
    (["--models", "12"], "models: at most the run's 9"),
])
def test_check_refuses_in_one_line(capsys, jhu, argv, fragment):
    code, _, err = _run(capsys, "check", str(jhu), *argv)
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1, err


def test_an_unchecked_scope_is_a_row_of_dashes_and_plan_replicates_names_its_flag(capsys, jhu):
    """At 1 trial per smaller run the questions scope is not checked: its row read "—" in
    every cell but least_covered, which was blank; and --plan-replicates with such runs was
    refused with "(set plan_reps=0)", the Python name: the command line names its flag."""
    code, out, err = _run(capsys, "check", str(jhu), "--trials", "1", "--questions", "15",
                          "--reps", "10", "--draws", "500", "--format", "table")
    assert code == 0, err
    table = out.split("## Intervals and decisions\n", 1)[1].split("\n\n", 1)[0].splitlines()
    header, questions = table[1].split(), table[2].split()
    assert questions[0] == "questions" and len(questions) == len(header)
    assert set(questions[1:]) == {"—"}
    with pytest.raises(SystemExit) as exit_:  # a usage error: valid alone, not together
        main(["check", str(jhu), "--trials", "1", "--plan-replicates", "5"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "plan_reps" not in err, err
    assert ("--plan-replicates: the Planner plans from at least 2 trials per question; "
            "--trials asks for 1: set --plan-replicates to 0 or --trials to 2 or more; got "
            "--plan-replicates 5, --trials 1") in err
