"""`scorio-studio questions`, `curves` and the leaderboard's `--subset` / `--by` on the bundled
real dataset: the same numbers as the core, one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core import Outcomes, io
from scorio_core.cli import main
from scorio_core.curves import pass_curves
from scorio_core.engines.questions import question_stats
from scorio_core.leaderboard import by_subset, leaderboard


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def jhu(data_dir):
    return data_dir / "jhu_llm_temperature.parquet"


def test_questions_json_matches_core(capsys, jhu):
    code, out, err = _run(capsys, "questions", str(jhu), "--subset", "source=medmcqa",
                          "--top", "3", "--by", "source", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    want = question_stats(io.load(jhu).subset("source", "medmcqa"))
    assert [r["question"] for r in doc["questions"]] == want.table["question"].tolist()
    np.testing.assert_allclose([r["disagreement"] for r in doc["questions"]],
                               want.table["disagreement"], atol=1e-12)
    assert len(doc["disagree"]) == 3 and doc["by_subset"][0]["subset"] == "medmcqa"
    assert doc["provenance"]["settings"]["subset"] == ["source", ["medmcqa"]]


def test_curves_csv_every_k_and_table_summary(capsys, jhu):
    code, out, err = _run(capsys, "curves", str(jhu), "--scope", "population", "--tau", "0.5",
                          "--format", "json")
    assert code == 0, err
    rows = json.loads(out)["curves"]
    cv = pass_curves(io.load(jhu), scope="population", tau=0.5)
    assert len(rows) == len(cv.table) == 9 * 3 * 100
    np.testing.assert_array_equal([r["value"] for r in rows], cv.table["value"])
    np.testing.assert_allclose([r["lo"] for r in rows], cv.table["lo"], atol=1e-12)
    code, out, _ = _run(capsys, "curves", str(jhu), "--format", "table")
    assert code == 0 and "Pass^k" in out and "pointwise" in out


def test_leaderboard_subset_and_per_subset_json(capsys, jhu):
    code, out, err = _run(capsys, "leaderboard", str(jhu), "--subset", "source=hellaswag",
                          "--by", "none", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    want = leaderboard(io.load(jhu).subset("source", "hellaswag"))
    np.testing.assert_allclose([r["hi"] for r in doc["rows"]], want.table["hi"], atol=1e-6)
    assert "by_subset" not in doc
    code, out, _ = _run(capsys, "leaderboard", str(jhu), "--format", "json")
    assert "by_subset" not in json.loads(out)  # a script's output keeps one shape by default
    code, out, _ = _run(capsys, "leaderboard", str(jhu), "--by", "source", "--format", "json")
    per = json.loads(out)["by_subset"]
    t = by_subset(io.load(jhu), "source")
    assert per["attribute"] == "source" and len(per["rows"]) == len(t) == 90
    np.testing.assert_allclose([r["score"] for r in per["rows"]], t["score"], atol=1e-12)


def test_leaderboard_by_subset_csv_block_follows_the_exports_one_rule(capsys, jhu):
    """The per-subset CSV block is written as the board above it: floats at the exports'
    digits (it printed 0.9450000000000001), counts as integers, the same numbers."""
    import io as stdio

    import pandas as pd

    from scorio_core.formatting import EXPORT_DIGITS

    code, out, _ = _run(capsys, "leaderboard", str(jhu), "--by", "source", "--format", "csv")
    assert code == 0
    block = out[out.index("\nattribute,") + 1:]  # the second CSV block
    per = pd.read_csv(stdio.StringIO(block), comment="#")
    t = by_subset(io.load(jhu), "source")
    assert len(per) == len(t) == 90
    for line in block.splitlines()[1:]:
        for cell in line.split(","):
            if "." in cell and cell.replace(".", "").replace("-", "").isdigit():
                assert len(cell.split(".")[1]) <= EXPORT_DIGITS, cell
    np.testing.assert_allclose(per["score"], t["score"], atol=10.0 ** -EXPORT_DIGITS)
    assert per["rank"].dtype.kind == "i"  # a count column, written as whole numbers


@pytest.mark.parametrize(("argv", "fragment"), [
    (["--subset", "source=pubmed"], "has no value 'pubmed'"),
    (["--subset", "topic=x"], "unknown question attribute 'topic'"),
    (["--by", "topic"], "unknown question attribute 'topic'"),
])
def test_bad_subsets_exit_2_naming_what_exists(capsys, jhu, argv, fragment):
    code, _, err = _run(capsys, "leaderboard", str(jhu), *argv)
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1


def test_curves_refuse_categorical_data(capsys, tmp_path):
    from scorio_core import Outcomes

    path = tmp_path / "cat.npz"
    io.save_npz(Outcomes(np.random.default_rng(0).integers(0, 3, (2, 5, 3)),
                         weights=[0, 0.5, 1]), path)
    code, _, err = _run(capsys, "curves", str(path))
    assert code == 2 and "binary outcomes" in err


def test_questions_text_follows_the_reports_views(capsys, data_dir):
    """`scorio-studio questions --top 200` printed the 'disagree' table with every question
    again (the report says in one line that it would repeat the questions table) and all
    120 questions easiest first: the text shows what the report shows, with its lines; the
    JSON/CSV keep every row."""
    from scorio_core.definitions import ANALYSES

    path = str(data_dir / "reasoning_synthetic.npz")
    code, out, err = _run(capsys, "questions", path, "--top", "200", "--format", "table")
    assert code == 0, err
    qv = ANALYSES["questions"]
    data = io.load(path)
    params = qv.params(top=200)
    shown = qv.shown_tables(qv.run(data, params))
    disagree = out.split("## Where models disagree most", 1)[1].split("##", 1)[0]
    assert shown["disagree"].note in disagree.replace("\n", " ")
    assert "disagreement" not in disagree.splitlines()[1:3]  # no table header, no rows
    every = out.split("## Questions, easiest first\n", 1)[1]
    lines = every.splitlines()
    # the data pool four benchmarks: each question's is named beside it
    assert lines[0].startswith("2PL fit")
    assert lines[1].split()[:3] == ["question", "benchmark", "mean"]
    names = shown["questions"].table["question"].tolist()
    assert [line.split()[0] for line in lines[2:2 + len(names)]] == names
    assert lines[2 + len(names)] == shown["questions"].note
    assert "'disagree' lists" not in shown["questions"].note  # it is not shown here
    code, out, _ = _run(capsys, "questions", path, "--top", "200", "--format", "json")
    doc = json.loads(out)
    assert len(doc["questions"]) == len(doc["disagree"]) == 120


@pytest.mark.parametrize("command", ["questions", "curves", "leaderboard"])
def test_the_header_states_the_subset_analysed(capsys, jhu, command):
    """`questions --subset` said "(9 models × 100 questions …)" while analysing the subset's
    10 questions (the leaderboard said 10): every command's first line comes from one
    function, with the subset's name and shape."""
    code, out, err = _run(capsys, command, str(jhu), "--subset", "source=medmcqa",
                          "--format", "table")
    assert code == 0, err
    want = io.load(jhu).subset("source", "medmcqa")
    assert want.M == 10
    head = out.splitlines()[0]
    assert head.endswith(f": {want.name} (9 models × 10 questions × 100 trials)"), head


def test_questions_on_which_every_model_ties_are_listed_as_uninformative(capsys, tmp_path):
    """'Questions that carry no information: none: every question separates some models'
    sat above a table with three questions at sd_models 0: the section lists them now."""
    R = np.array([[[1, 1], [0, 2], [2, 1]], [[0, 2], [1, 1], [0, 2]]])
    path = tmp_path / "graded.npz"
    io.save_npz(Outcomes(R, weights=[0, 0.5, 1]), path)
    code, out, err = _run(capsys, "questions", str(path), "--format", "table")
    assert code == 0, err
    section = out.split("## Questions that carry no information\n", 1)[1].split("##", 1)[0]
    assert not section.startswith("none") and "every model has the same mean score" in section
    rows = [ln.split()[0] for ln in section.splitlines()[2:] if ln.startswith("q")]
    assert rows == ["q0", "q1"]
