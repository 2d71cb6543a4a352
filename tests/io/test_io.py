"""Round trips and behaviour of the loaders/writers in :mod:`scorio_core.io`."""

from __future__ import annotations

import io
from dataclasses import replace

import numpy as np
import pandas as pd
import polars as pl
import pytest

from scorio_core._validation import ValidationError, said_of
from scorio_core.cli._common import cli_text
from scorio_core.io import (
    LoadOptions,
    MissingColumnsError,
    load,
    load_npz,
    load_table,
    save_npz,
    save_table,
    to_long_frame,
)
from scorio_core.outcomes import Outcomes

TABLE_SUFFIXES = [".csv", ".parquet", ".jsonl"]
WEIGHTS = [0.0, 0.25, 1.0]


def make_outcomes(rng: np.random.Generator, *, shared_r0: bool = False) -> Outcomes:
    L, M, N, D = 3, 6, 4, 2
    R0 = rng.integers(0, 3, (M, D) if shared_r0 else (L, M, D))
    return Outcomes(
        R=rng.integers(0, 3, (L, M, N)),
        R0=R0,
        weights=WEIGHTS,
        category_names=["invalid", "partial", "correct"],
        models=["alpha", "beta-2", "-gamma"],  # leading '-' exercises CSV defusing
        questions=[f"{i:03d}" for i in range(M)],  # leading zeros must survive CSV
        benchmarks=["aime"] * 4 + ["gpqa"] * 2,
        signals={"has_box": rng.integers(0, 2, (L, M, N)), "token_ratio": rng.random((L, M, N))},
        name="toy",
        metadata={"synthetic": True, "seed": 3},
    )


def assert_same_data(a: Outcomes, b: Outcomes) -> None:
    np.testing.assert_array_equal(a.R, b.R)
    assert a.models == b.models
    assert a.questions == b.questions
    assert a.benchmarks == b.benchmarks
    if a.R0 is None:
        assert b.R0 is None
    else:
        np.testing.assert_array_equal(a.R0_per_model, b.R0_per_model)
    assert sorted(a.signals) == sorted(b.signals)
    for key in a.signals:
        np.testing.assert_allclose(a.signals[key], b.signals[key])


# --------------------------------------------------------------------- npz
@pytest.mark.parametrize("shared_r0", [False, True])
def test_npz_round_trip(tmp_path, shared_r0):
    o = make_outcomes(np.random.default_rng(1), shared_r0=shared_r0)
    path = tmp_path / "toy.npz"
    save_npz(o, path)
    back = load(path)
    assert_same_data(o, back)
    assert back.R0.ndim == o.R0.ndim  # npz keeps a shared R0 shared
    np.testing.assert_array_equal(back.weights, WEIGHTS)
    assert back.category_names == ("invalid", "partial", "correct")
    assert back.name == "toy"
    assert back.metadata["synthetic"] is True and back.metadata["seed"] == 3
    assert back.metadata["format"] == "npz"
    assert back.metadata["source_file"] == "toy.npz"


def test_npz_saved_without_pickle(tmp_path):
    o = make_outcomes(np.random.default_rng(2))
    path = tmp_path / "toy.npz"
    save_npz(o, path)
    with np.load(path, allow_pickle=False) as z:  # every member loads without pickle
        keys = set(z.files)
        assert z["models"].dtype.kind == "U"
        assert z["meta_json"].shape == ()
    assert {"R", "R0", "models", "signal__has_box", "signal__token_ratio"} <= keys


def test_npz_minimal_two_dimensional_r_and_extras():
    rng = np.random.default_rng(3)
    buf = io.BytesIO()
    np.savez(
        buf,
        R=rng.integers(0, 2, (5, 4)),
        signal__len=rng.random((5, 4)),
        true_p=np.linspace(0, 1, 5),
        big=np.zeros(20_000),
        meta_json=np.array('{"name": "from-meta", "note": "hi"}'),
    )
    o = load(buf.getvalue(), filename="upload.npz")
    assert o.shape == (1, 5, 4)
    assert o.signals["len"].shape == (1, 5, 4)
    assert o.models == ("model_0",)
    assert o.name == "from-meta"
    assert o.metadata["note"] == "hi"
    assert o.metadata["extra_arrays"] == {"true_p": np.linspace(0, 1, 5).tolist()}
    assert o.metadata["extra_arrays_not_loaded"] == ["big"]
    assert load_npz(buf.getvalue(), filename="u.npz", name="mine").name == "mine"


def test_npz_weights_argument_overrides_file(tmp_path):
    o = make_outcomes(np.random.default_rng(4))
    save_npz(o, tmp_path / "t.npz")
    back = load(tmp_path / "t.npz", weights=[0, 1, 1], category_names=["a", "b", "c"])
    np.testing.assert_array_equal(back.weights, [0, 1, 1])
    assert back.category_names == ("a", "b", "c")


@pytest.mark.parametrize("option", [{"where": {"source": "x"}}, {"model_columns": ("model", "t")},
                                    {"columns": {"model": "llm"}}, {"attributes": ("src",)},
                                    {"scorer": "match"}, {"score_range": (0, 10)}],
                         ids=lambda o: next(iter(o)))
def test_npz_refuses_the_table_and_log_options_it_would_ignore(tmp_path, option):
    """An .npz is the outcome array: a row filter, column mapping, scorer ... cannot apply.
    They had been ignored without a word (--where on an .npz analysed every question); the
    refusal names the option and the ways the file itself offers to take part of it, each
    as the surface that reads it names it: Python's keyword, the command line's flag."""
    o = make_outcomes(np.random.default_rng(4))
    save_npz(o, tmp_path / "t.npz")
    key = next(iter(option))
    with pytest.raises(ValidationError, match=rf"^t\.npz: an \.npz holds the outcome array "
                       rf"itself.*so {key}= would be ignored: drop it; to analyse part of it, "
                       r"choose a benchmark \(benchmark='aime'; benchmarks: aime, gpqa\)$") as err:
        load(tmp_path / "t.npz", **option)
    assert cli_text(said_of(err.value)).endswith(
        f"so --{key.replace('_', '-')} would be ignored: drop it; to analyse part of it, choose "
        "a benchmark (--benchmark aime; benchmarks: aime, gpqa)")
    table = tmp_path / "t.csv"  # beside a table, a scorer or a column mapping is the table's
    save_table(replace(o, name="other", models=("x", "y", "z")), table)
    both = load([tmp_path / "t.npz", table], weights=WEIGHTS, columns={"model": "model"})
    assert both.L == 6
    with pytest.raises(ValidationError, match=r"so where= would be ignored"):
        load([tmp_path / "t.npz", table], weights=WEIGHTS, where={"model": "x"})


def test_a_scorer_with_no_log_to_read_is_refused(tmp_path):
    """scorer= picks a log's scorer; given for a table alone it was ignored, and the table's
    'outcome' column read, whatever the user meant: refused, pointing to the column mapping,
    which does pick another column."""
    path = tmp_path / "t.csv"
    path.write_text("model,question,trial,outcome,strict\na,q1,0,1,0\nb,q1,0,0,1\n")
    with pytest.raises(ValidationError, match=r"^scorer='strict' picks the "
                       r"outcome among a log's scorers, but no log is read here \(t\.csv\): "
                       r"drop it; a table's outcome column is chosen with columns= \(e\.g\. "
                       r"\{'outcome': 'score'\}\)$") as err:
        load(path, scorer="strict")
    assert cli_text(said_of(err.value)) == (
        "--scorer strict picks the outcome among a log's scorers, but no log is read here "
        "(t.csv): drop it; a table's outcome column is chosen with --columns (e.g. "
        "outcome=score)")
    assert load(path, columns={"outcome": "strict"}).R[:, 0, 0].tolist() == [0, 1]


def test_npz_reads_a_model_map_as_tables_and_logs_do(tmp_path):
    """model_map renamed a table's or a log's models but was ignored for an .npz."""
    o = make_outcomes(np.random.default_rng(4))
    save_npz(o, tmp_path / "t.npz")
    back = load(tmp_path / "t.npz", model_map={"alpha": "a", "nobody": "n"})
    assert back.models == ("a", "beta-2", "-gamma")
    assert back.metadata["model_names"] == {"alpha": "a"}
    np.testing.assert_array_equal(back.R, o.R)
    with pytest.raises(ValidationError, match=r"model_map gives two models of the \.npz one "
                       r"name \(beta-2\).*cannot merge them"):
        load(tmp_path / "t.npz", model_map={"alpha": "beta-2"})


# ------------------------------------------------------------------ tables
@pytest.mark.parametrize("shared_r0", [False, True])
@pytest.mark.parametrize("suffix", TABLE_SUFFIXES)
def test_table_round_trip(tmp_path, suffix, shared_r0):
    o = make_outcomes(np.random.default_rng(5), shared_r0=shared_r0)
    path = tmp_path / f"toy{suffix}"
    save_table(o, path)
    back = load(path, weights=WEIGHTS, category_names=o.category_names)
    assert_same_data(o, back)
    assert back.R0.shape == (o.L, o.M, o.D)  # tables give R0 per model
    np.testing.assert_array_equal(back.weights, WEIGHTS)
    assert back.name == "toy"
    assert back.metadata["format"] == suffix.lstrip(".")


def test_csv_defuses_formula_cells_and_loads_them_back(tmp_path):
    o = make_outcomes(np.random.default_rng(6))
    path = tmp_path / "toy.csv"
    save_table(o, path)
    text = path.read_text()
    assert "\n'-gamma," in text and "\n-gamma," not in text
    assert load(path, weights=WEIGHTS).models == o.models


def test_to_long_frame_layout():
    rng = np.random.default_rng(7)
    o = make_outcomes(rng)
    df = to_long_frame(o)
    L, M, N, D = o.L, o.M, o.N, o.D
    assert df.columns == [
        "model",
        "question",
        "trial",
        "outcome",
        "decoding",
        "benchmark",
        "has_box",
        "token_ratio",
    ]
    assert df.height == L * M * (N + D)
    greedy = df.filter(pl.col("decoding") == "greedy")
    assert greedy.height == L * M * D
    assert sorted(greedy["trial"].unique().to_list()) == list(range(D))
    assert greedy["token_ratio"].null_count() == greedy.height
    row = df.filter(
        (pl.col("model") == "beta-2") & (pl.col("question") == "002") & (pl.col("trial") == 3)
    ).filter(pl.col("decoding") == "sample")
    assert row["outcome"].item() == o.R[1, 2, 3]
    # without R0 there is no decoding column
    plain = Outcomes(rng.integers(0, 2, (2, 3, 4)))
    assert to_long_frame(plain).columns == ["model", "question", "trial", "outcome"]


def test_save_table_to_file_object_and_bytes_input():
    o = make_outcomes(np.random.default_rng(8))
    for fmt in ("csv", "parquet", "jsonl"):
        buf = io.BytesIO()
        save_table(o, buf, format=fmt)
        back = load(buf.getvalue(), filename=f"upload.{fmt}", weights=WEIGHTS)
        assert_same_data(o, back)
        assert back.name == "upload"
        # a file object with a .name, as a Streamlit upload has
        up = io.BytesIO(buf.getvalue())
        up.name = f"x.{fmt}"
        assert load(up, weights=WEIGHTS).shape == o.shape
    # raw bytes with only format=
    buf = io.BytesIO()
    save_table(o, buf, format="csv")
    assert load(buf.getvalue(), format="csv", weights=WEIGHTS).shape == o.shape


def test_column_renaming():
    csv = (
        b"llm,item,sample_id,score,mode\n"
        b"a,q1,0,1,sample\na,q1,1,0,sample\na,q1,0,1,greedy\n"
        b"b,q1,0,0,sample\nb,q1,1,0,sample\nb,q1,0,0,greedy\n"
    )
    o = load(
        csv,
        filename="r.csv",
        columns={
            "model": "llm",
            "question": "item",
            "trial": "sample_id",
            "outcome": "score",
            "decoding": "mode",
        },
    )
    assert o.models == ("a", "b") and o.questions == ("q1",)
    assert o.R.tolist() == [[[1, 0]], [[0, 0]]]
    assert o.R0.tolist() == [[[1]], [[0]]]
    assert o.metadata["columns"]["model"] == "llm"


def test_a_table_without_trial_numbers_is_told_how_to_number_its_repeats(capsys, tmp_path):
    """A frame with one row per repeat and no ``trial`` column was refused with advice about
    ``columns={'model': ...}`` only (audit 4, finding 10), then with a pandas line only
    Python could follow. The refusal names the missing role's mapping and the loader option
    that numbers the repeats -- ``number_trials=True`` in Python, ``--number-trials`` on the
    command line (the app's switch: tests/app/test_data_upload.py) -- and that option, given
    as the refusal says, loads the table on both."""
    from scorio_core.cli import main

    rows = pd.DataFrame({"llm": ["a", "b", "a", "b", "a", "b", "a", "b"],
                         "question": ["q1", "q1", "q1", "q1", "q2", "q2", "q2", "q2"],
                         "outcome": [1, 1, 0, 1, 0, 0, 1, 0]})
    with pytest.raises(MissingColumnsError) as caught:
        load(rows, columns={"model": "llm"})
    exc = caught.value
    assert str(exc).endswith(
        "map yours with columns={'trial': '<your column>', ...}; a table with one row per "
        "repeat and no trial numbers: number_trials=True numbers the rows of each (llm, "
        "question) pair 0, 1, 2, ... in file order")
    assert exc.cli_message().endswith(
        "--columns trial=COLUMN; a table with one row per repeat and no trial numbers: "
        "--number-trials numbers the rows of each (llm, question) pair 0, 1, 2, ... in file "
        "order")
    assert cli_text(said_of(exc)) == exc.cli_message()  # one message, each surface's words
    # the advice, taken: each pair's rows in file order are its trials 0, 1
    o = load(rows, columns={"model": "llm"}, number_trials=True)
    assert o.R.tolist() == [[[1, 0], [0, 1]], [[1, 1], [0, 0]]]
    assert str(o.load_notes[0]).startswith("Trials numbered by row order (number_trials=True)")
    assert o.metadata["load_options"]["number_trials"] is True  # a notebook reads it again so
    path = tmp_path / "repeats.csv"
    rows.rename(columns={"llm": "model"}).to_csv(path, index=False)
    assert main(["leaderboard", str(path), "--format", "csv"]) == 2
    assert "--number-trials numbers the rows" in capsys.readouterr().err
    assert main(["leaderboard", str(path), "--number-trials", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert "# note: Trials numbered by row order (--number-trials)" in out
    board = pd.read_csv(io.StringIO(out), comment="#")
    assert dict(zip(board["model"], board["score"], strict=True)) == pytest.approx(
        {m: float(load(path, number_trials=True).select(models=[m]).R.mean()) for m in "ab"})
    # a column that looks like the trial numbers: that mapping, not a numbering
    df = rows.assign(sample=[0, 0, 1, 1, 0, 0, 1, 1])
    with pytest.raises(MissingColumnsError, match=r"did you mean columns=\{'trial': 'sample'\}\?$"):
        load(df, columns={"model": "llm"})


def test_number_trials_numbers_each_models_repeats_apart_and_refuses_what_it_cannot_number(
        tmp_path):
    """``number_trials`` numbers the rows the row filter keeps, per model as
    ``model_columns`` name it, greedy rows apart (its ``R0``); a table that has a trial
    column, and files that are not tables (an ``.npz``), are refused with the option named
    as each surface names it, not ignored."""
    rows = pd.DataFrame(
        [(0.7, "sample", "q1", 1), (1.0, "sample", "q1", 0), (0.7, "greedy", "q1", 1),
         (0.7, "sample", "q1", 0), (1.0, "sample", "q1", 1), (0.7, "sample", "q2", 1),
         (1.0, "greedy", "q1", 0), (0.7, "greedy", "q2", 0), (1.0, "sample", "q2", 0),
         (0.7, "sample", "q2", 0), (1.0, "greedy", "q2", 1), (1.0, "sample", "q2", 1)],
        columns=["temperature", "decoding", "question", "outcome"]).assign(model="m")
    o = load(rows, number_trials=True, model_columns=["model", "temperature"])
    assert o.models == ("m@temperature=0.7", "m@temperature=1.0")
    assert o.R.tolist() == [[[1, 0], [1, 0]], [[0, 1], [0, 1]]]
    assert o.R0.tolist() == [[[1], [0]], [[0], [1]]]
    kept = load(rows, number_trials=True, where={"temperature": 0.7})
    assert kept.R.tolist() == [[[1, 0], [1, 0]]] and kept.R0.tolist() == [[[1], [0]]]
    assert "trial_ids" not in kept.metadata and kept.metadata["numbered_trials"]  # not the file's
    # numbered once the models are named: one model under two names is one model's repeats
    runs = rows[rows.decoding == "sample"].assign(
        model=lambda d: np.where(d.temperature == 0.7, "org/m", "m")).drop(columns="decoding")
    merged = load(runs, number_trials=True, model_map={"org/m": "m"})
    assert merged.models == ("m",) and merged.R.tolist() == [[[1, 0, 0, 1], [1, 0, 0, 1]]]
    # a trial column already there: the two readings of the trials are refused together
    with pytest.raises(ValidationError) as caught:
        load(rows.assign(trial=range(12)), number_trials=True)
    said = said_of(caught.value)
    assert "has a trial column ('trial'), but number_trials numbers the rows" in str(said)
    assert "drop --number-trials to read the trials" in cli_text(said)
    path = tmp_path / "d.npz"
    save_npz(Outcomes(np.ones((2, 3, 2), dtype=int)), path)
    with pytest.raises(ValidationError, match=r"number_trials=True numbers the rows of a long "
                       r"table without a trial column, but no table is read here \(d\.npz\)"):
        load(path, number_trials=True)
    with pytest.raises(ValidationError, match="number_trials must be True or False; got 'yes'"):
        LoadOptions(number_trials="yes")


def test_loaded_data_remember_the_options_they_were_loaded_with(tmp_path):
    """``metadata["load_options"]`` holds the options of the load that made the data (those
    not at their defaults), so a notebook report loads the file again the same way; a file
    written from such data and loaded again holds its own load's, never the earlier ones."""
    import scorio_core as sc

    csv = tmp_path / "g.csv"
    csv.write_text("model,question,trial,outcome\na,q1,0,2\na,q1,1,0\nb,q1,0,1\nb,q1,1,2\n")
    data = load(csv, weights=[0, 0.5, 1], name="graded")
    assert data.metadata["load_options"] == {"weights": (0.0, 0.5, 1.0), "name": "graded"}
    assert sc.io.loaded_with(data) == LoadOptions(weights=[0, 0.5, 1], name="graded")
    assert sc.io.loaded_with(data.select(models=["a"])) is not None  # kept by a view
    save_npz(data, tmp_path / "g.npz")
    again = load(tmp_path / "g.npz")  # the .npz's own load: no options
    assert "load_options" not in again.metadata and sc.io.loaded_with(again) is None
    assert np.array_equal(again.R, data.R)
    assert sc.io.loaded_with(sc.Outcomes(data.R, weights=data.weights)) is None  # in code


def test_decoding_column_builds_r0():
    rng = np.random.default_rng(9)
    L, M, N, D = 2, 3, 4, 2
    R, R0 = rng.integers(0, 2, (L, M, N)), rng.integers(0, 2, (L, M, D))
    rows = []
    for m in range(L):
        for q in range(M):
            rows += [(f"m{m}", f"q{q}", t, int(R[m, q, t]), "sample") for t in range(N)]
            rows += [(f"m{m}", f"q{q}", 10 + d, int(R0[m, q, d]), "GREEDY ") for d in range(D)]
    order = rng.permutation(len(rows))
    rows = [rows[i] for i in order]
    # fix first appearance so the expected order is known
    first = [r for r in rows if r[0] == "m0" and r[1] == "q0"][0]
    rows.remove(first)
    rows.insert(0, first)
    df = pl.DataFrame(
        rows, schema=["model", "question", "trial", "outcome", "decoding"], orient="row"
    )
    o = load_table(df)
    qorder = [int(q[1:]) for q in o.questions]
    morder = [int(m[1:]) for m in o.models]
    np.testing.assert_array_equal(o.R, R[morder][:, qorder])
    np.testing.assert_array_equal(o.R0, R0[morder][:, qorder])


def test_models_and_questions_in_order_of_first_appearance_trials_by_value():
    csv = (
        b"model,question,trial,outcome\n"
        b"zeta,q9,30,1\nalpha,q2,5,0\nzeta,q2,7,1\nalpha,q9,2,1\n"
        b"zeta,q9,-4,0\nalpha,q2,1,1\nzeta,q2,100,0\nalpha,q9,9,0\n"
    )
    o = load(csv, filename="o.csv")
    assert o.models == ("zeta", "alpha")
    assert o.questions == ("q9", "q2")
    # zeta/q9: trials -4, 30 -> 0, 1; alpha/q2: 1, 5 -> 1, 0
    assert o.R[0, 0].tolist() == [0, 1]
    assert o.R[1, 1].tolist() == [1, 0]
    assert o.R[0, 1].tolist() == [1, 0]
    assert o.R[1, 0].tolist() == [1, 0]


def ragged_frame() -> pl.DataFrame:
    """q1 complete (3 trials), q2 has 2 trials for model b, q3 complete."""
    rows = []
    for m in ("a", "b"):
        for q in ("q1", "q2", "q3"):
            n = 2 if (m, q) == ("b", "q2") else 3
            rows += [(m, q, t, (t + len(q) + len(m)) % 2) for t in range(n)]
    return pl.DataFrame(rows, schema=["model", "question", "trial", "outcome"], orient="row")


def test_on_missing_drop_questions():
    o = load_table(ragged_frame(), on_missing="drop_questions")
    assert o.shape == (2, 2, 3)
    assert o.questions == ("q1", "q3")
    assert o.metadata["dropped_questions"] == ["q2"]
    assert o.metadata["on_missing"] == "drop_questions"
    assert o.metadata["n_questions_found"] == 3


def test_on_missing_truncate_keeps_first_trials_by_value():
    df = ragged_frame().with_columns(pl.col("trial") * 10)
    o = load_table(df.reverse(), on_missing="truncate")
    assert o.shape == (2, 3, 2)
    assert o.metadata["truncated_to_N"] == 2
    assert o.metadata["max_N_found"] == 3
    assert o.metadata["dropped_completions"] == 5
    full = df.filter(pl.col("trial") < 20).sort("trial")
    for m, mod in enumerate(o.models):
        for q, qu in enumerate(o.questions):
            want = full.filter((pl.col("model") == mod) & (pl.col("question") == qu))["outcome"]
            assert o.R[m, q].tolist() == want.to_list()


def test_what_on_missing_leaves_out_travels_with_the_data(tmp_path):
    """A table's ``on_missing`` says on the data what it left out, with counts that add up
    (the rows read minus the cells kept), and the note stays with the data through a
    selection, a reweighting and an ``.npz`` written and read back."""
    df = ragged_frame()  # 17 rows; b lacks a trial on q2
    o = load_table(df.with_columns(benchmark=pl.lit("set")), on_missing="truncate")
    (note,) = o.load_notes
    assert note.endswith(f"so {df.height - o.R.size} of {df.height} completions are left out: "
                         "a 3 of 9 (33.3%), b 2 of 8 (25.0%)")
    assert "(1 pair has fewer than 3; b: 1)" in note
    assert o.select("set").load_notes == o.with_weights([0, 1]).load_notes == (note,)
    save_npz(o, tmp_path / "t.npz")
    assert load(tmp_path / "t.npz").load_notes == (note,)
    d = load_table(df, on_missing="drop_questions")
    assert d.load_notes == ("on_missing='drop_questions' left out 1 of 3 questions (q2), each "
                            "incomplete for some model (b on 1 question), and with them 5 "
                            "completions the models gave on them: every model is scored on the "
                            "questions all of them answered in full",)
    assert df.height - d.R.size == 5
    assert load_table(df.filter(pl.col("question") != "q2")).load_notes == ()  # complete


def test_truncate_with_incomplete_greedy_rows_drops_r0():
    csv = (
        b"model,question,trial,outcome,decoding\n"
        b"a,q1,0,1,sample\na,q1,1,0,sample\na,q1,0,1,greedy\n"
        b"b,q1,0,0,sample\nb,q1,1,1,sample\n"
    )
    with pytest.raises(ValueError, match="fewer than D=1 greedy rows"):
        load(csv, filename="g.csv")
    o = load(csv, filename="g.csv", on_missing="truncate")
    assert o.R0 is None and o.metadata["truncated_to_D"] == 0
    assert o.shape == (2, 1, 2)


def test_outcome_types_booleans_and_whole_floats():
    csv = b"model,question,trial,outcome\na,q,0,true\na,q,1,FALSE\nb,q,0,1.0\nb,q,1,0\n"
    o = load(csv, filename="b.csv")
    assert o.R.tolist() == [[[1, 0]], [[1, 0]]]
    df = pl.DataFrame(
        {"model": ["a", "a"], "question": ["q", "q"], "trial": [0, 1], "outcome": [True, False]}
    )
    assert load_table(df).R.tolist() == [[[1, 0]]]


def test_text_columns_ignored_and_numeric_columns_become_signals():
    csv = (
        b",model,question,trial,outcome,completion,has_box,latency\n"
        b"0,a,q,0,1,the answer is 4,true,1.5\n"
        b"1,a,q,1,0,no idea,false,2\n"
    )
    o = load(csv, filename="s.csv")
    assert sorted(o.signals) == ["has_box", "latency"]
    assert o.signals["has_box"].tolist() == [[[1.0, 0.0]]]
    assert o.signals["latency"].tolist() == [[[1.5, 2.0]]]
    assert o.metadata["ignored_columns"] == ["", "completion"]


def test_numeric_question_ids_become_strings():
    jsonl = (
        b'{"model": "a", "question": 7, "trial": 0, "outcome": 1}\n'
        b'{"model": "a", "question": 12, "trial": 0, "outcome": 0}\n'
    )
    assert load(jsonl, filename="n.jsonl").questions == ("7", "12")
    csv = b"model,question,trial,outcome\na,007,0,1\na,012,0,1\n"
    assert load(csv, filename="n.csv").questions == ("007", "012")


def test_pandas_dataframe_input():
    df = pd.DataFrame({"model": ["a", "a", "b", "b"], "question": ["q"] * 4, "trial": [0, 1, 0, 1]})
    df["outcome"] = [1, 0, 0, 0]
    o = load(df)
    assert o.models == ("a", "b") and o.R.tolist() == [[[1, 0]], [[0, 0]]]


@pytest.mark.parametrize("suffix", [".npz", *TABLE_SUFFIXES])
def test_paths_with_glob_characters(tmp_path, suffix):
    # polars expands '*' and '[...]' in path strings; the loader must not
    o = make_outcomes(np.random.default_rng(12))
    folder = tmp_path / "runs[1]"
    folder.mkdir()
    path = folder / f"a*b[0]{suffix}"
    (save_npz if suffix == ".npz" else save_table)(o, path)
    assert load(str(path), weights=WEIGHTS).shape == o.shape


def test_path_as_str_and_table_loader(tmp_path):
    o = make_outcomes(np.random.default_rng(10))
    save_table(o, tmp_path / "t.parquet")
    assert load_table(str(tmp_path / "t.parquet"), weights=WEIGHTS).shape == o.shape
    save_table(o, tmp_path / "t.pq")
    assert load(tmp_path / "t.pq", weights=WEIGHTS, name="renamed").name == "renamed"


def test_192k_row_table_loads_correctly(tmp_path):
    rng = np.random.default_rng(11)
    L, M, N = 20, 120, 80
    R = rng.integers(0, 2, (L, M, N))
    trial_ids = rng.permutation(1000)[:N]  # arbitrary ids, not 0..N-1
    m, q, t = (a.ravel() for a in np.indices((L, M, N)))
    order = rng.permutation(m.size)
    df = pl.DataFrame(
        {
            "model": pl.Series([f"model-{i}" for i in range(L)]).gather(m[order]),
            "question": pl.Series([f"q{i}" for i in range(M)]).gather(q[order]),
            "trial": trial_ids[t[order]],
            "outcome": R[m, q, t][order],
            "latency": (m * 1000.0 + q + t / 100)[order],
        }
    )
    assert df.height == 192_000
    path = tmp_path / "big.csv"
    df.write_csv(path)
    o = load(path)  # its speed is printed by benchmarks/load_table.py, not asserted here
    assert o.shape == (L, M, N)
    mi = [int(x.split("-")[1]) for x in o.models]
    qi = [int(x[1:]) for x in o.questions]
    tsort = np.argsort(trial_ids)
    for a, b in [(0, 0), (5, 17), (L - 1, M - 1), (13, 64)]:
        np.testing.assert_array_equal(o.R[a, b], R[mi[a], qi[b]][tsort])
        np.testing.assert_allclose(o.signals["latency"][a, b], mi[a] * 1000.0 + qi[b] + tsort / 100)


@pytest.mark.parametrize(("option", "text", "said"), [
    ("columns", "model", "expects ROLE=COLUMN pairs separated by commas"),
    ("columns", "who=llm", "unknown role 'who' in {name}; roles are model, question"),
    ("columns", ",", "{name} expects at least one ROLE=COLUMN pair"),
    ("where", "temperature", "{name} expects COLUMN=VALUE (or COLUMN=V1,V2"),
    ("where", "=0.7", "{name} expects COLUMN=VALUE"),
])
def test_loader_option_errors_name_the_callers_keyword_or_flag(capsys, tmp_path, option, text,
                                                               said):
    """``sc.load(..., columns="model")`` said "--columns expects ROLE=COLUMN pairs": a flag
    the Python caller never typed. The parsers of ``columns`` and ``where`` take the name of
    the caller's option, as the other list parsers do: a Python call reads ``columns`` /
    ``where``, the command line ``--columns`` / ``--where``."""
    from scorio_core.cli import main
    from scorio_core.io import LoadOptions

    o = make_outcomes(np.random.default_rng(5))
    table = tmp_path / "t.csv"
    save_table(o, table)
    for call in (lambda: load(table, weights=WEIGHTS, **{option: text}),
                 lambda: LoadOptions(**{option: text})):
        with pytest.raises(ValidationError) as exc:
            call()
        msg = str(exc.value)
        assert said.format(name=option) in msg and f"--{option}" not in msg, msg
    with pytest.raises(SystemExit) as usage:  # argparse's usage error, naming the flag
        main(["info", str(table), "--weights", "0,0.25,1", f"--{option}", text])
    err = capsys.readouterr().err
    assert usage.value.code == 2
    assert f"argument --{option}: " in err and said.format(name=f"--{option}") in err, err


def _text_frame(labels: dict[int, str]) -> tuple[pd.DataFrame, np.ndarray]:
    """A 3 models x 4 questions x 2 trials table whose 0/1 outcomes are written as text."""
    rng = np.random.default_rng(5)
    R = rng.integers(0, 2, (3, 4, 2))
    rows = [(f"m{m}", f"q{q}", t, labels[int(R[m, q, t])])
            for m in range(3) for q in range(4) for t in range(2)]
    return pd.DataFrame(rows, columns=["model", "question", "trial", "outcome"]), R


def test_text_outcomes_are_refused_with_their_distinct_values_and_the_correct_option():
    """The audit: a column of 'correct'/'wrong' was refused listing 'correct' five times
    (``row 0 = 'correct', 1 = 'correct', ...``) with no way forward. The refusal lists each
    distinct value once with its count and offers ``correct=[...]`` with the data's own
    value -- ``--correct`` on the command line, the *Correct outcomes* box in the app."""
    from app_state.texts import app_text

    frame, R = _text_frame({1: "correct", 0: "wrong"})
    with pytest.raises(ValidationError) as err:
        load(frame)
    msg = str(err.value)
    n1 = int(R.sum())
    assert f"'correct' ({n1} rows)" in msg and f"'wrong' ({R.size - n1} rows)" in msg
    assert msg.count("'correct' (") == 1 and "row 0 =" not in msg
    assert "correct=['correct']" in msg and "df['outcome'].map({" in msg
    assert "'correct': 1" in msg and "'wrong': 0" in msg
    said = said_of(err.value)
    assert "--correct correct" in cli_text(said) and "correct=[" not in cli_text(said)
    assert "Correct outcomes" in app_text(said) and ".map(" not in app_text(said)


@pytest.mark.parametrize("labels", [{1: "C", 0: "I"}, {1: "correct", 0: "wrong"}])
def test_correct_makes_text_outcomes_binary_as_for_inspect_scores(labels, tmp_path):
    """``correct=["C"]`` picks categories by name for Inspect's C/I scores; it now does for a
    table's text outcomes too (a frame or a CSV): the values named count as correct, every
    other value wrong, and the data's notes say so."""
    frame, R = _text_frame(labels)
    right = labels[1]
    for source in (frame, tmp_path / "t.csv"):
        if not isinstance(source, pd.DataFrame):
            frame.to_csv(source, index=False)
        data = load(source, correct=[right.lower()])  # names as the data name them, any case
        assert data.is_binary and (data.R == R).all()
        assert data.load_notes == (f"Outcomes made binary (correct=['{right.lower()}']): "
                                   f"{right} counts as correct (1); {labels[0]} as wrong (0)",)
    with pytest.raises(ValidationError, match=r"correct=\['X'\] names no value of column "
                       rf"'outcome', which holds .*; name .* e\.g\. correct=\['{right}'\]"):
        load(frame, correct=["X"])
    with pytest.raises(ValidationError, match=r"weights= applies to numbers: drop it"):
        load(frame, correct=[right], weights=[0, 1])
    assert (load(frame.assign(outcome=frame.outcome.map({labels[1]: "True",
                                                          labels[0]: "False"}))).R == R).all()


def test_an_empty_frame_says_it_found_no_columns():
    """``sc.load(pd.DataFrame())`` said "... found ; rename them ..."."""
    with pytest.raises(ValidationError, match="; found no columns;"):
        load(pd.DataFrame())


def test_an_unsupported_file_type_is_told_every_suffix_the_loader_reads(tmp_path):
    """"unsupported file type; accepted suffixes: .npz, .csv, .parquet, .pq, .jsonl, .ndjson"
    left out the logs and archives the loader reads (.eval, .json, .zip). The refusal lists
    the one declaration of what ``load`` reads (``io.LOADED_SUFFIXES``: a folder's files are
    picked by it too), and each suffix it lists is one ``load`` reads; ``load_table``, which
    reads tables only, lists the tables and sends logs to ``load``."""
    from fixtures import make_logs as mk

    from scorio_core import io as sio

    assert {".eval", ".json", ".zip"} <= set(sio.LOADED_SUFFIXES)
    assert set(sio.ACCEPTED_SUFFIXES) <= set(sio.LOADED_SUFFIXES)
    with pytest.raises(ValidationError) as caught:
        load(b"model,question,trial,outcome\nA,q1,0,1\n", filename="runs.txt")
    assert str(caught.value) == ("runs.txt: unsupported file type (suffix '.txt'); accepted "
                                 "suffixes: " + ", ".join(sio.LOADED_SUFFIXES))
    with pytest.raises(ValidationError, match=r"pass filename= \(with one of the suffixes "
                       + ", ".join(sio.LOADED_SUFFIXES).replace(".", r"\.") + r"\)"):
        load(b"model,question,trial,outcome\nA,q1,0,1\n")
    # every suffix listed is read: a file of each
    R = np.random.default_rng(3).integers(0, 2, (1, 3, 2))
    o = Outcomes(R, models=["a"], questions=["1", "2", "3"])
    for suffix in sio.ACCEPTED_SUFFIXES:
        stem = tmp_path / f"t{suffix.lstrip('.')}"
        (save_npz if suffix == ".npz" else save_table)(o, stem.with_suffix(suffix))
        assert load(stem.with_suffix(suffix)).R.tolist() == R.tolist(), suffix
    log = mk.write_inspect_eval(tmp_path / "a.eval", "org/b", "t", R[0], [1, 2, 3])
    assert load(log).shape == (1, 3, 2)
    js = mk.write_inspect_json(tmp_path / "a.json", "org/b", "t", R[0], [1, 2, 3])
    assert load(js).R.tolist() == R.tolist()
    mk.write_zip(tmp_path / "logs.zip", [("logs/a.eval", log.read_bytes())])
    assert load(tmp_path / "logs.zip").R.tolist() == R.tolist()
    with pytest.raises(ValidationError) as caught:
        load_table(log)
    assert str(caught.value).endswith(
        "accepted suffixes: .npz, .csv, .parquet, .pq, .jsonl, .ndjson (logs and archives, "
        ".eval, .json, .zip: use load)")
