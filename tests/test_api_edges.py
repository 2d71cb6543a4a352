"""What a newcomer meets at the edges of the notebook API and the CLI (audit of 2026-11-30):
each test failed before its fix."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import scorio_core as sc
from scorio_core import ValidationError
from scorio_core.calibration import _reliability
from scorio_core.cli import main
from scorio_core.estimands import NOT_IDENTIFIED
from scorio_core.formatting import shape_text


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
    with pytest.raises(ValidationError, match="pass data_path=PATH"):
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
    for sid, kw, msg in [("calibration", {"means": None}, "means must be a list of values"),
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
