"""Graded outcomes in long tables: fractional grades in [0, 1] and ``score_range`` load by
the one rule graded log scores use (:func:`scorio_core.io._assemble.grade_levels`)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from test_io import WEIGHTS, assert_same_data, make_outcomes  # the categorical fixture

import scorio_core as sc
from scorio_core import io
from scorio_core._validation import ValidationError, said_of
from scorio_core.cli import main
from scorio_core.cli._common import cli_text
from scorio_core.io import MissingWeightsError
from scorio_core.io._assemble import _MAX_LEVELS, grade_levels
from scorio_core.io._logs import LogPart, categorize
from scorio_core.outcomes import Outcomes

ROOT = Path(__file__).resolve().parents[2]
GRADED_LOGS = ROOT / "tests" / "fixtures" / "harness" / "inspect" / "graded"
MODELS, QUESTIONS, TRIALS = ("alpha", "beta", "gamma"), ("q1", "q2", "q3", "q4"), 3


def grade_frame(rng: np.random.Generator, grades: np.ndarray) -> pl.DataFrame:
    """A long table whose outcome cells are drawn from ``grades``."""
    rows = [
        (m, q, t, float(rng.choice(grades)))
        for m in MODELS for q in QUESTIONS for t in range(TRIALS)
    ]  # fmt: skip
    return pl.DataFrame(rows, schema=["model", "question", "trial", "outcome"], orient="row")


def write(df: pl.DataFrame, path: Path) -> Path:
    {".csv": df.write_csv, ".jsonl": df.write_ndjson, ".parquet": df.write_parquet}[
        path.suffix
    ](path)
    return path


def mean_grade(df: pl.DataFrame, scale: float = 1.0) -> dict[str, float]:
    """Each model's mean grade, by hand from the table."""
    return {m: float(np.mean(df.filter(pl.col("model") == m)["outcome"].to_numpy() / scale))
            for m in MODELS}  # fmt: skip


def scores(board) -> dict[str, float]:
    t = board.table
    return dict(zip(t["model"], t["score"], strict=True))


def assert_same(a: Outcomes, b: Outcomes) -> None:
    np.testing.assert_array_equal(a.R, b.R)
    np.testing.assert_array_equal(a.weights, b.weights)
    assert a.category_names == b.category_names
    assert a.models == b.models and a.questions == b.questions


# ---------------------------------------------------------------- grades in [0, 1]
def test_fractional_grades_in_0_1_load_and_score_as_their_mean(tmp_path):
    df = grade_frame(np.random.default_rng(0), np.array([0.0, 0.25, 0.5, 1.0]))
    o = io.load(write(df, tmp_path / "g.csv"))
    assert o.category_names == ("0", "0.25", "0.5", "1")
    assert o.weights.tolist() == [0.0, 0.25, 0.5, 1.0]
    assert o.metadata["score_range"] == [0.0, 1.0]
    want = mean_grade(df)
    for scope in ("questions", "population"):
        got = scores(sc.leaderboard(o, scope=scope))
        assert got == pytest.approx(want, abs=1e-12), scope
    # each cell's weight is its grade
    grades = np.asarray(o.weights)[o.R]
    assert sorted(grades.ravel().tolist()) == sorted(df["outcome"].to_list())


def test_the_audit_file_loads_through_the_cli(tmp_path, capsys):
    p = tmp_path / "g.csv"
    p.write_text("model,question,trial,outcome\na,q1,0,0.5\na,q1,1,1\nb,q1,0,0\nb,q1,1,0.25\n")
    for extra in ([], ["--score-range", "0,1"]):
        assert main(["info", str(p), *extra]) == 0
        cats = json.loads(capsys.readouterr().out)["categories"]
        assert list(cats) == ["0: 0 (w=0)", "1: 0.25 (w=0.25)", "2: 0.5 (w=0.5)", "3: 1 (w=1)"]
    board = sc.leaderboard(sc.load(p))
    assert scores(board) == pytest.approx({"a": 0.75, "b": 0.125})


def test_only_0_and_1_floats_stay_binary(tmp_path):
    p = tmp_path / "b.csv"
    p.write_text("model,question,trial,outcome\na,q1,0,0.0\na,q1,1,1.0\nb,q1,0,1.0\nb,q1,1,1.0\n")
    o = io.load(p)
    assert o.C == 1 and o.weights.tolist() == [0.0, 1.0]
    assert o.category_names == ("wrong", "correct")
    assert "score_range" not in o.metadata
    bools = io.load(b"model,question,trial,outcome\na,q1,0,true\na,q1,1,FALSE\n",
                    filename="b.csv")  # fmt: skip
    assert bools.C == 1 and bools.R.tolist() == [[[1, 0]]]


# ---------------------------------------------------------------- score_range
def test_score_range_0_10_scores_grade_over_10(tmp_path):
    df = grade_frame(np.random.default_rng(1), np.arange(0, 11, dtype=float))
    df = df.with_columns(pl.col("outcome").cast(pl.Int64))  # 0-10 integer grades
    p = write(df, tmp_path / "t.csv")
    top = int(df["outcome"].max())
    with pytest.raises(MissingWeightsError, match=r"no category weights were given.*"
                       rf"score_range=\[0, {top}\]"):  # fmt: skip
        io.load(p)  # integers above 1 without a scale: unchanged, plus the scale remedy
    o = sc.load(p, score_range=(0, 10))
    levels = sorted({0.0, 10.0} | set(df["outcome"].cast(pl.Float64).to_list()))
    assert o.category_names == tuple(f"{x:g}" for x in levels)
    np.testing.assert_allclose(o.weights, np.array(levels) / 10)
    assert o.metadata["score_range"] == [0.0, 10.0]
    want = mean_grade(df, scale=10.0)
    for scope in ("questions", "population"):
        assert scores(sc.leaderboard(o, scope=scope)) == pytest.approx(want, abs=1e-12)
    # the same through LoadOptions and load_table
    opts = io.LoadOptions(score_range=(0, 10))
    assert_same(io.load(p, opts), o)
    assert_same(io.load_table(df, score_range=(0, 10)), o)


def test_percent_outcomes_name_their_values_and_the_scale_that_loads_them(tmp_path, capsys):
    """Outcomes stored as 0/100: the error listed the 101 weights 0, 0.01, ..., 1 twice
    (1,664 characters) and offered the scale last, with the example 0,10. It names the
    values found, offers the scale those values imply first, lists no weights for 101
    categories -- and the option it offers loads the file. Python reads the options as
    keywords, the command line as flags: each surface its own spelling only (it read
    "score_range=(0, 100) (Python) / `--score-range 0,100` (command line) / 'Score range'
    ... in the app" everywhere)."""
    rng = np.random.default_rng(7)
    df = grade_frame(rng, np.array([0.0, 100.0])).with_columns(pl.col("outcome").cast(pl.Int64))
    p = write(df, tmp_path / "pct.csv")
    with pytest.raises(MissingWeightsError) as err:
        io.load(p)
    msg = str(err.value)
    assert "holds the values 0, 100," in msg and "no category weights were given" in msg
    assert msg.index("score_range=[0, 100]") < msg.index("weights=") and "101 of them" in msg
    assert "0.01" not in msg and "0,10 " not in msg and len(msg) < 800
    assert not any(o in msg for o in ("--", "(Python)", "in the app", "Score range"))
    assert main(["info", str(p)]) == 2  # the command line names the flags alone
    cli = capsys.readouterr().err
    assert "give the scale, --score-range 0,100; each value v" in cli, cli
    assert "101 of them, with --weights." in cli
    assert "score_range=" not in cli and "weights=" not in cli
    o = sc.load(p, score_range=(0, 100))  # what the message offers loads it, as the 0/1 data
    assert o.C == 1 and o.weights.tolist() == [0.0, 1.0]
    np.testing.assert_array_equal(o.R.ravel(), (df["outcome"].to_numpy() // 100))
    assert main(["info", str(p), "--score-range", "0,100"]) == 0
    cats = json.loads(capsys.readouterr().out)["categories"]
    assert list(cats) == ["0: 0 (w=0)", "1: 100 (w=1)"]
    # a few categories 0..2: an example list of weights, and the scale still first
    q = tmp_path / "cats.csv"
    q.write_text("model,question,trial,outcome\na,q1,0,2\na,q1,1,0\nb,q1,0,1\nb,q1,1,1\n")
    with pytest.raises(MissingWeightsError) as err:
        io.load(q)
    msg = str(err.value)
    assert "holds the values 0, 1, 2," in msg and "the first is 2 at row 1" in msg
    assert msg.index("score_range=[0, 2]") < msg.index("weights=[0, 0.5, 1]")
    assert io.load(q, score_range=(0, 2)).weights.tolist() == [0.0, 0.5, 1.0]
    # more distinct values than a scale can hold: the scale is offered only with the
    # rounding that makes it hold them (alone it is refused), and the two load the file
    many = tmp_path / "many.csv"
    many.write_text("model,question,trial,outcome\n" + "".join(
        f"a,q{i},0,{2 * i}\n" for i in range(30)))
    with pytest.raises(MissingWeightsError) as err:
        io.load(many)
    msg = str(err.value)
    assert "30 distinct values" in msg and "59 of them" in msg
    assert "score_range=[0, 58] and round_grades=11" in msg and "score_range=[0, 58]; " not in msg
    with pytest.raises(ValidationError, match="distinct values"):
        io.load(many, score_range=(0, 58))
    assert io.load(many, score_range=(0, 58), round_grades=11).C == 10


def test_score_range_on_the_cli(tmp_path, capsys):
    p = tmp_path / "t.csv"
    p.write_text("model,question,trial,outcome\na,q1,0,7\na,q1,1,10\nb,q1,0,0\nb,q1,1,3\n")
    assert main(["info", str(p), "--score-range", "0,10"]) == 0
    cats = json.loads(capsys.readouterr().out)["categories"]
    assert list(cats) == ["0: 0 (w=0)", "1: 3 (w=0.3)", "2: 7 (w=0.7)", "3: 10 (w=1)"]


@pytest.mark.parametrize("scale", [(0.0, 1.0), (-2.0, 2.0), (0.0, 10.0)])
def test_csv_jsonl_parquet_give_identical_outcomes(tmp_path, scale):
    lo, hi = scale
    grid = np.linspace(lo, hi, 9)
    df = grade_frame(np.random.default_rng(2), grid)
    kw = {} if scale == (0.0, 1.0) else {"score_range": scale}
    got = [io.load(write(df, tmp_path / f"t{suffix}"), **kw)
           for suffix in (".csv", ".jsonl", ".parquet")]  # fmt: skip
    for o in got[1:]:
        assert_same(got[0], o)
    assert scores(sc.leaderboard(got[0])) == pytest.approx(
        {m: (v - lo) / (hi - lo) for m, v in mean_grade(df).items()}, abs=1e-12
    )


def test_score_range_matches_graded_log_categories():
    values = [7, 3, 10, 0, 7, 6.5, 3]
    part = LogPart("x.json", "inspect", "m", "b", values=list(values), errors=[None] * 7,
                   where=[f"sample {i}" for i in range(7)])  # fmt: skip
    codes, names, weights = categorize([part], (0.0, 10.0))
    table = pl.DataFrame({"model": ["m"] * 7, "question": [f"q{i}" for i in range(7)],
                          "trial": [0] * 7, "outcome": [float(v) for v in values]})  # fmt: skip
    o = io.load_table(table, score_range=(0, 10))
    assert list(o.category_names) == names
    np.testing.assert_allclose(o.weights, weights)
    assert o.R[0, :, 0].tolist() == codes[0].tolist()
    # and grades in [0, 1] without a range
    part.values = [v / 10 for v in values]
    codes, names, weights = categorize([part])
    o = io.load_table(table.with_columns(outcome=pl.Series(part.values)))
    assert list(o.category_names) == names and o.weights.tolist() == weights
    assert o.R[0, :, 0].tolist() == codes[0].tolist()


def test_score_range_table_equals_the_inspect_graded_logs(tmp_path):
    logs = io.load(GRADED_LOGS, score_range=(0, 10), samples="skip")
    # the same grades written as a table of raw 0-10 values
    frame = io.to_long_frame(logs).with_columns(
        pl.col("outcome").replace_strict(
            list(range(logs.C + 1)), [float(n) for n in logs.category_names]
        )
    )
    table = io.load(write(frame, tmp_path / "grades.csv"), score_range=(0, 10))
    np.testing.assert_allclose(table.weights[table.R], logs.weights[logs.R])
    assert scores(sc.leaderboard(table)) == pytest.approx(scores(sc.leaderboard(logs)))


def test_benchmarks_with_different_trials_share_one_set_of_grades():
    # a: 1 trial, grades 0.5 only; b: 2 trials, grades 0.25 -- split, then joined
    rows = [("m1", "a1", 0, 0.5, "a"), ("m2", "a1", 0, 1.0, "a"),
            ("m1", "b1", 0, 0.25, "b"), ("m1", "b1", 1, 0.0, "b"),
            ("m2", "b1", 0, 1.0, "b"), ("m2", "b1", 1, 0.25, "b")]  # fmt: skip
    df = pl.DataFrame(rows, schema=["model", "question", "trial", "outcome", "benchmark"],
                      orient="row")  # fmt: skip
    o = io.load_table(df)
    assert set(o.parts) == {"a", "b"}
    for part in o.parts.values():
        np.testing.assert_array_equal(part.weights, o.weights)
    b = o.select("b")
    assert np.asarray(b.weights)[b.R].tolist() == [[[0.25, 0.0]], [[1.0, 0.25]]]


def test_where_filter_and_benchmark_choose_rows_before_the_grades():
    df = pl.DataFrame({"model": ["m"] * 4, "question": ["q1", "q2", "q1", "q2"],
                       "trial": [0] * 4, "outcome": [0.5, 1.0, 3.0, 0.0],
                       "temperature": ["0", "0", "1", "1"]})  # fmt: skip
    with pytest.raises(ValidationError, match=r"above 1 beside fractional grades"):
        io.load_table(df)
    o = io.load_table(df, where={"temperature": "0"})
    assert o.category_names == ("0", "0.5", "1")


# ---------------------------------------------------------------- errors
def test_values_outside_the_score_range_name_the_row_and_range(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("model,question,trial,outcome\na,q1,0,7\na,q1,1,12\nb,q1,0,0\nb,q1,1,-1\n")
    with pytest.raises(ValidationError, match=r"outside the score range \[0, 10\] given with "
                       r"score_range at row 2 = 12.0, 4 = -1.0"):  # fmt: skip
        io.load(p, score_range=(0, 10))


def test_score_range_with_weights_says_which_to_drop(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("model,question,trial,outcome\na,q1,0,1\na,q1,1,2\n")
    with pytest.raises(ValidationError, match=r"score_range and weights were both given.*drop "
                       r"weights to weight each grade.*or drop score_range.*; got "
                       r"score_range=\(0.0, 10.0\), weights=\(0, 0.5, 1\)"):  # fmt: skip
        io.load(p, score_range=(0, 10), weights=[0, 0.5, 1])
    with pytest.raises(ValidationError, match="were both given"):  # binary data too
        io.load_table(pl.DataFrame({"model": ["a"], "question": ["q"], "trial": [0],
                                    "outcome": [1]}), score_range=(0, 1), weights=[0, 1])


@pytest.mark.parametrize(
    ("cells", "found"),
    [
        (["0.5", "2.5"], r"found 1 fractional value outside \[0, 1\] at row 2 = 2.5"),
        (["-1", "1"], r"found 1 negative value at row 1 = -1.0"),
        (["-0.5", "1"], r"found 1 fractional value outside \[0, 1\] at row 1 = -0.5"),
        (["0.5", "3"], r"found 1 value above 1 beside fractional grades \(e.g. row 1 = 0.5\) "
                       r"at row 2 = 3.0"),
    ],
)
def test_numbers_that_are_neither_categories_nor_grades_offer_both_remedies(cells, found):
    data = "model,question,trial,outcome\n" + "".join(
        f"a,q1,{t},{c}\n" for t, c in enumerate(cells)
    )
    with pytest.raises(ValidationError, match=found) as err:
        io.load(data.encode(), filename="x.csv")
    msg = str(err.value)
    assert "must hold whole-number categories 0..C or grades in [0, 1]" in msg
    assert "give the scale, e.g. score_range=[0, 10] for a 0-10 grade" in msg
    assert msg.endswith("give one weight per category, e.g. weights=[0, 0.5, 1]")
    cli = cli_text(said_of(err.value))  # the command line's rendering: flags, as typed
    assert "e.g. --score-range 0,10 for" in cli and cli.endswith("e.g. --weights 0,0.5,1")


def test_fractional_grades_with_weights_are_refused():
    data = b"model,question,trial,outcome\na,q1,0,0.5\na,q1,1,1\n"
    with pytest.raises(ValidationError, match=r"1 fractional value at row 1 = 0.5 .*, but "
                       r"weights= were given.*drop the weights") as err:  # fmt: skip
        io.load(data, filename="x.csv", weights=[0, 1])
    assert ", but --weights were given, which" in cli_text(said_of(err.value))


def test_a_continuous_score_is_refused_as_logs_refuse_it():
    rng = np.random.default_rng(3)
    values = rng.random(40).round(4).tolist()
    table = pl.DataFrame({"model": ["m"] * 40, "question": [f"q{i}" for i in range(40)],
                          "trial": [0] * 40, "outcome": values})  # fmt: skip
    phrase = (r"distinct values in \[0, 1\].*a continuous score cannot be an outcome "
              rf"category \(at most {_MAX_LEVELS} levels")  # fmt: skip
    with pytest.raises(ValidationError, match=r"column 'outcome' holds \d+ " + phrase) as err:
        io.load_table(table)
    assert f"(e.g. row 0 = {values[0]!r} (0-based row positions))" in str(err.value)
    part = LogPart("x.json", "inspect", "m", "b", values=values, errors=[None] * 40,
                   where=[f"sample {i}" for i in range(40)])  # fmt: skip
    with pytest.raises(ValidationError, match=r"x.json: sample 0: the score \(across these "
                       r"logs\) holds \d+ " + phrase):  # fmt: skip
        categorize([part])
    # exactly _MAX_LEVELS levels (both ends included) still load
    ok = np.linspace(0, 1, _MAX_LEVELS)
    assert io.load_table(table.head(_MAX_LEVELS).with_columns(outcome=pl.Series(ok))).C == 20


def test_grade_levels_is_the_one_rule():
    assert grade_levels([0.5, -0.0, 1.0]) == ([0.0, 0.5, 1.0], ["0", "0.5", "1"], [0.0, 0.5, 1.0])
    assert grade_levels([1.0, 0.0]) == ([0.0, 1.0], None, [0.0, 1.0])
    assert grade_levels([0, 10], (0, 10)) == ([0.0, 10.0], ["0", "10"], [0.0, 1.0])
    assert grade_levels([0.1234561, 0.1234564])[1] == ["0.0", "0.1234561", "0.1234564", "1.0"]
    with pytest.raises(ValidationError, match=r"22 distinct values"):
        grade_levels(np.linspace(0, 1, 22))


# ---------------------------------------------------------------- categories unchanged
def test_integer_categories_with_weights_are_unchanged(tmp_path):
    # the categorical fixture of test_io (weights 0, 0.25, 1; R0, benchmarks, signals)
    o = make_outcomes(np.random.default_rng(4))
    for suffix in (".csv", ".jsonl", ".parquet"):
        path = tmp_path / f"cats{suffix}"
        io.save_table(o, path)
        back = io.load(path, weights=WEIGHTS, category_names=o.category_names)
        assert_same_data(o, back)
        assert back.weights.tolist() == WEIGHTS
        assert back.category_names == o.category_names
        assert "score_range" not in back.metadata
        assert io.load(path, weights=WEIGHTS).category_names == ("cat0", "cat1", "cat2")
        with pytest.raises(MissingWeightsError, match="no category weights were given"):
            io.load(path)
    # the bundled binary dataset's table reads back as it was
    data = sc.load(ROOT / "data" / "biased_coins.npz")
    io.save_table(data, tmp_path / "coins.parquet")
    back = io.load(tmp_path / "coins.parquet")
    np.testing.assert_array_equal(back.R, data.R)
    assert back.C == 1 and back.weights.tolist() == [0.0, 1.0]


def test_graded_files_combine_on_the_union_of_their_grades(tmp_path):
    """Several graded tables (and a binary one) on one scale: one category per grade any
    of them holds, each model's score its own mean grade (they were refused before)."""
    rows = {"a": [0.25, 1, 0, 1], "b": [0.75, 0.5, 1, 0], "c": [1, 0, 1, 1]}
    paths = []
    for m, vals in rows.items():
        p = tmp_path / f"{m}.csv"
        p.write_text("model,question,trial,outcome\n" + "".join(
            f"{m},q{i // 2},{i % 2},{v}\n" for i, v in enumerate(vals)))
        paths.append(p)
    data = io.load(paths)
    assert data.category_names == ("0", "0.25", "0.5", "0.75", "1")
    board = sc.leaderboard(data).table.set_index("model")["score"]
    for m, vals in rows.items():
        assert board[m] == pytest.approx(np.mean(vals), abs=1e-12)
    # one stated scale applies to every file
    (tmp_path / "ten.csv").write_text("model,question,trial,outcome\nd,q0,0,7\nd,q0,1,3\n"
                                      "d,q1,0,10\nd,q1,1,0\n")
    ten = io.load([paths[0], tmp_path / "ten.csv"], score_range=(0, 10))
    scores = sc.leaderboard(ten).table.set_index("model")["score"]
    assert scores["d"] == pytest.approx(0.5) and scores["a"] == pytest.approx(0.05625)


# ------------------------------------------- continuous scores rounded, grades thresholded
def _continuous(seed: int = 3, M: int = 40) -> tuple[pl.DataFrame, np.ndarray]:
    values = np.random.default_rng(seed).random((2, M)).round(4)
    table = pl.DataFrame({"model": ["a"] * M + ["b"] * M,
                          "question": [f"q{i}" for i in range(M)] * 2,
                          "trial": [0] * (2 * M), "outcome": values.ravel()})
    return table, values


def test_a_continuous_score_loads_rounded_or_thresholded_as_its_refusal_says():
    """The refusal of a continuous score said "round the grades to a few levels" and no
    option did: it names round_grades=11 and correct_from, and both load the same table
    and the same scores as logs: rounded to the nearest tenth (halves up) or counted
    correct from the threshold, said in the data's notes. Each surface names the options
    its own way: Python's keywords here, the flags on the command line."""
    table, values = _continuous()
    with pytest.raises(ValidationError) as err:
        io.load_table(table)
    msg = str(err.value)
    assert "round them: round_grades=11 (levels 0, 0.1, ..., 1), or" in msg
    assert "at least a threshold correct, e.g. correct_from=0.5; or" in msg
    assert "--" not in msg and "Round grades to" not in msg and "in the app" not in msg
    cli = cli_text(said_of(err.value))
    assert "round them: --round-grades 11 (levels 0, 0.1, ..., 1), or" in cli
    assert "e.g. --correct-from 0.5; or" in cli and "=" not in cli.split("round them")[1]
    rounded = io.load_table(table, round_grades=11)
    assert rounded.category_names == tuple(f"{k / 10:g}" for k in range(11))
    want = np.floor(values * 10 + 0.5) / 10
    np.testing.assert_allclose(rounded.weights[rounded.R[:, :, 0]], want, atol=1e-12)
    assert rounded.load_notes == ("Graded scores rounded to the nearest of 11 levels "
                                  "(round_grades=11): 0, 0.1, ..., 1; 11 categories, each "
                                  "weighted by its level",)
    assert cli_text(rounded.load_notes[0]).startswith(
        "Graded scores rounded to the nearest of 11 levels (--round-grades 11): ")
    assert rounded.metadata["rounded_grades"] == {"levels": 11, "scale": [0.0, 1.0]}
    binary = io.load_table(table, correct_from=0.5)
    assert binary.is_binary and np.array_equal(binary.R[:, :, 0], (values >= 0.5).astype(int))
    assert binary.load_notes == ("Outcomes made binary (correct_from=0.5): a score of at "
                                 "least 0.5 counts as correct (1), a lower one as wrong (0)",)
    # the same scores in Inspect logs: the one rule, the same categories
    parts = [LogPart(f"{m}.json", "inspect", m, "b", values=values[i].tolist(),
                     errors=[None] * 40, where=[f"sample {j}" for j in range(40)])
             for i, m in enumerate("ab")]  # fmt: skip
    codes, names, weights = categorize(parts, opts=io.LoadOptions(round_grades=11))
    assert names == list(rounded.category_names)
    assert np.array_equal(np.stack(codes), rounded.R[:, :, 0])
    # on a 0-10 scale: the levels and the threshold are the scale's own
    ten = table.with_columns(pl.col("outcome") * 10)
    assert io.load_table(ten, score_range=(0, 10), round_grades=3).category_names == (
        "0", "5", "10")
    assert np.array_equal(io.load_table(ten, score_range=(0, 10), correct_from=7).R[:, :, 0],
                          (values * 10 >= 7).astype(int))


def test_many_whole_number_scores_are_refused_with_a_scale_and_rounding_that_load_them():
    """Percent scores (0..100, 73 distinct values) were told to "round them to a few
    levels": the refusal names the scale and the rounding, and they load."""
    values = np.random.default_rng(0).integers(0, 101, (2, 60))
    table = pl.DataFrame({"model": ["a"] * 60 + ["b"] * 60,
                          "question": [f"q{i}" for i in range(60)] * 2,
                          "trial": [0] * 120, "outcome": values.ravel()})
    with pytest.raises(MissingWeightsError) as err:
        io.load_table(table)
    assert "round them, score_range=[0, 100] and round_grades=11 (levels 0, 10, ..., 100)" in \
        str(err.value)
    assert "round them, --score-range 0,100 and --round-grades 11 (levels" in cli_text(
        said_of(err.value))
    o = io.load_table(table, score_range=(0, 100), round_grades=11)
    np.testing.assert_allclose(o.weights[o.R[:, :, 0]], np.floor(values / 10 + 0.5) / 10,
                               atol=1e-12)


def test_round_grades_refuses_data_without_grades_to_round(tmp_path):
    """round_grades on categories (a table of whole-number categories with weights, letters
    C/P/I in logs) has nothing to round: refused, naming the categories, not ignored."""
    o = make_outcomes(np.random.default_rng(4))  # categories 0..2, weights 0, 0.25, 1
    path = tmp_path / "cats.npz"
    io.save_npz(o, path)
    with pytest.raises(ValidationError, match=r"round_grades=5 rounds graded scores "
                       r"\(numbers on a scale\), but these data hold the categories ") as err:
        io.load(path, round_grades=5)
    assert str(err.value).endswith("nothing to round; drop it (correct= names the categories "
                                   "that count as correct, to make them binary)")
    cli = cli_text(said_of(err.value))  # as the command line names the options
    assert cli.startswith("--round-grades 5 rounds graded scores (numbers on a scale), but ")
    assert cli.endswith("nothing to round; drop it (--correct names the categories that "
                        "count as correct, to make them binary)")
    cpi = ROOT / "tests" / "fixtures" / "harness" / "inspect" / "passk_cpi"
    with pytest.raises(ValidationError, match=r"categories I \(incorrect\) \(w=0\), P "):
        io.load(cpi, round_grades=5)
