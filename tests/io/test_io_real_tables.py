"""Real long tables load as they are: missing signal values, question attributes, decoding
spellings, row filters (``where``) and model identities built from several columns."""

from __future__ import annotations

import argparse
import io

import numpy as np
import polars as pl
import pytest

from scorio_core.io import (
    LoadOptions,
    ValidationError,
    load,
    load_npz,
    load_table,
    save_npz,
    save_table,
)
from scorio_core.outcomes import Outcomes
from scorio_core.params import add_options, from_args


def _csv(header: str, *rows: str) -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode()


# a small real-shaped table: 2 models x 3 questions; T=0 greedy (2 attempts), T=0.5 and
# T=1.0 sampled (2 attempts each); a missing length; a source per question; answers vary
HEADER = "model,question,trial,outcome,decoding,temperature,attempt,answer,chars,source"


def _real_table() -> bytes:
    rows = []
    rng = np.random.default_rng(3)
    for m in ("A", "B"):
        for q, src in (("q1", "arc"), ("q2", "medmcqa"), ("q3", "arc")):
            for t_idx, temp in enumerate((0.0, 0.5, 1.0)):
                for a in (1, 2):
                    trial = 10 * t_idx + a
                    dec = "greedy" if temp == 0 else "sampled"
                    out = int(rng.integers(0, 2))
                    chars = "" if (m, q, trial) == ("B", "q2", 12) else str(100 + trial)
                    ans = "ABCD"[int(rng.integers(0, 4))]
                    rows.append(f"{m},{q},{trial},{out},{dec},{temp},{a},{ans},{chars},{src}")
    return _csv(HEADER, *rows)


@pytest.fixture(scope="module")
def real() -> bytes:
    return _real_table()


def _frame(data: bytes) -> pl.DataFrame:
    return pl.read_csv(io.BytesIO(data))


# ------------------------------------------------------------------ missing signals
def test_missing_signal_is_nan_and_counted(real):
    o = load(real, filename="t.csv")
    assert o.shape == (2, 3, 4) and o.D == 2
    chars = o.signals["chars"]
    m, q = o.models.index("B"), o.questions.index("q2")
    t = o.metadata["trial_ids"].index(12)
    assert np.isnan(chars[m, q, t]) and int(np.isnan(chars).sum()) == 1
    assert chars[0, 0, 0] == 111.0  # trial 11 of A/q1: 100 + 11
    assert o.metadata["missing_signal_values"] == {"chars": 1}
    assert o.describe()["missing signal values"] == {"chars": "1 of 24 completions"}


def test_missing_signal_survives_npz_and_table_round_trips(real):
    o = load(real, filename="t.csv")
    buf = io.BytesIO()
    save_npz(o, buf)
    back = load_npz(buf.getvalue(), filename="t.npz")
    np.testing.assert_array_equal(back.signals["chars"], o.signals["chars"])  # NaN == NaN
    assert back.question_attributes == o.question_attributes
    buf = io.BytesIO()
    save_table(o, buf, format="parquet")
    again = load_table(buf.getvalue(), filename="t.parquet")
    np.testing.assert_array_equal(again.signals["chars"], o.signals["chars"])
    assert again.question_attributes == o.question_attributes


def test_signal_missing_on_every_sample_row_is_ignored_with_the_reason():
    data = _csv("model,question,trial,outcome,decoding,x",
                "a,q,0,1,sample,", "a,q,1,0,sample,", "a,q,0,1,greedy,3")  # fmt: skip
    o = load(data, filename="t.csv")
    assert "x" not in o.signals
    assert o.metadata["ignored_why"]["x"] == "no value on any sample row"


# ------------------------------------------------------------- question attributes
def test_attributes_with_gaps_round_trip_through_npz_and_tables():
    o = Outcomes(np.array([[[1, 0], [0, 1], [1, 1]]]), models=["m"],
                 question_attributes={"src": ["a", "", "b"], "tag": ["x", "x", ""]})  # fmt: skip
    buf = io.BytesIO()
    save_npz(o, buf)
    assert load_npz(buf.getvalue(), filename="o.npz").question_attributes == {
        "src": ("a", "", "b"), "tag": ("x", "x", "")}
    for fmt in ("csv", "parquet", "jsonl"):
        buf = io.BytesIO()
        save_table(o, buf, format=fmt)
        back = load_table(buf.getvalue(), filename=f"o.{fmt}")
        assert back.question_attributes == o.question_attributes, fmt


def test_constant_text_column_is_a_question_attribute_varying_one_is_ignored(real):
    o = load(real, filename="t.csv")
    assert o.question_attributes == {"source": ("arc", "medmcqa", "arc")}
    assert o.metadata["ignored_columns"] == ["answer"]
    assert o.metadata["ignored_why"]["answer"] == "text that varies within a question"
    assert o.describe()["question attributes"] == {"source": {"arc": 2, "medmcqa": 1}}
    assert "source" not in o.signals and "answer" not in o.signals


def test_per_question_text_is_not_a_subset():
    # a prompt column: constant within each question but different on every question
    data = _csv("model,question,trial,outcome,prompt,tag",
                "a,q1,0,1,What is 2+2?,easy", "a,q1,1,0,What is 2+2?,easy",
                "a,q2,0,1,Name a prime.,easy", "a,q2,1,1,Name a prime.,easy",
                "a,q3,0,0,Spell it.,hard", "a,q3,1,0,Spell it.,hard")  # fmt: skip
    o = load(data, filename="t.csv")
    assert o.question_attributes == {"tag": ("easy", "easy", "hard")}
    assert "different value on every question" in o.metadata["ignored_why"]["prompt"]


def test_empty_cells_do_not_contradict_an_attribute():
    data = _csv("model,question,trial,outcome,src",
                "a,q1,0,1,x", "a,q1,1,0,", "b,q1,0,1,x", "b,q1,1,1,x",
                "a,q2,0,1,", "a,q2,1,1,", "b,q2,0,0,", "b,q2,1,1,")  # fmt: skip
    o = load(data, filename="t.csv")
    assert o.question_attributes == {"src": ("x", "")}
    assert o.describe()["question attributes"] == {"src": {"(no value)": 1, "x": 1}}
    assert o.attribute_values("src") == ["x"]


def test_explicit_attribute_columns():
    data = _csv("model,question,trial,outcome,level",
                "a,q1,0,1,1", "a,q1,1,0,1", "a,q2,0,1,2", "a,q2,1,1,2")  # fmt: skip
    assert "level" in load(data, filename="t.csv").signals  # numbers are signals by default
    o = load(data, filename="t.csv", attributes=["level"])
    assert o.question_attributes == {"level": ("1", "2")} and "level" not in o.signals
    bad = _csv("model,question,trial,outcome,level", "a,q1,0,1,1", "a,q1,1,0,2")
    with pytest.raises(ValidationError, match=r"'level' must hold one value per question.*"
                                              r"'q1': '1', '2'"):  # fmt: skip
        load(bad, filename="t.csv", attributes=["level"])
    with pytest.raises(ValidationError, match="'nope', which is not in the table; columns: "
                                              "'level'"):  # fmt: skip
        load(data, filename="t.csv", attributes=["nope"])
    with pytest.raises(ValidationError, match="'model', which is a role"):
        load(data, filename="t.csv", attributes=["model"])


def test_outcomes_validates_question_attributes():
    R = np.zeros((1, 3, 2), dtype=int)
    ok = Outcomes(R, question_attributes={"src": ["a", "b", "a"]})
    assert ok.question_attributes == {"src": ("a", "b", "a")}
    for attrs, msg in [
        ({"src": ["a", "b"]}, "one value per question (3); got 2"),
        ({"bad name": ["a"] * 3}, "must be letters, digits"),
        ({"src": ["<b>", "a", "a"]}, "markup"),
        ({"src": ["", "", ""]}, "no value on any question"),
        ({"src": "abc"}, "sequence of 3 strings"),
    ]:
        with pytest.raises(ValidationError, match=msg.replace("(", r"\(").replace(")", r"\)")):
            Outcomes(R, question_attributes=attrs)
    with pytest.raises(ValidationError, match="both a signal and a question attribute"):
        Outcomes(R, signals={"src": np.zeros((1, 3, 2))}, question_attributes={"src": ["a"] * 3})


def test_subset_and_select_keep_attributes_consistent():
    R = np.arange(12).reshape(1, 6, 2) % 2
    sig = np.arange(12, dtype=float).reshape(1, 6, 2)
    o = Outcomes(R, R0=np.ones((1, 6, 1), dtype=int), signals={"s": sig},
                 benchmarks=["b1", "b1", "b1", "b2", "b2", "b2"],
                 question_attributes={"src": ["x", "y", "x", "y", "x", ""],
                                      "only_b2": ["", "", "", "u", "u", "v"]})  # fmt: skip
    s = o.subset("src", "x")
    assert s.questions == ("q0", "q2", "q4")
    assert s.question_attributes == {"src": ("x", "x", "x"), "only_b2": ("", "", "u")}
    np.testing.assert_array_equal(s.signals["s"], sig[:, [0, 2, 4]])
    assert s.benchmarks == ("b1", "b1", "b2") and s.R0.shape == (1, 3, 1)
    assert o.subset("src", ["x", "y"]).M == 5  # '' (no value) is in neither
    b1 = o.select("b1")
    assert b1.question_attributes == {"src": ("x", "y", "x")}  # only_b2 has no value left
    with pytest.raises(ValidationError, match="unknown question attribute 'nope'; this dataset "
                                              "has: 'src', 'only_b2'"):  # fmt: skip
        o.subset("nope", "x")
    with pytest.raises(ValidationError, match="has no value 'z'; its values are: 'x', 'y'"):
        o.subset("src", "z")


# ---------------------------------------------------------------- decoding spellings
@pytest.mark.parametrize(
    ("spelling", "greedy"),
    [("sample", False), ("Sampled", False), ("sampling", False), ("samples", False),
     ("stochastic", False), ("temperature>0", False), ("Temperature > 0", False),
     ("t>0", False), ("greedy", True), ("GREEDY ", True), ("argmax", True),
     ("temperature=0", True), ("temp = 0.0", True), ("T==0", True)],
)  # fmt: skip
def test_decoding_spellings(spelling, greedy):
    other = "sample" if greedy else "greedy"
    data = _csv("model,question,trial,outcome,decoding",
                f"a,q,0,1,{spelling}", f"a,q,1,0,{other}", "a,q,2,1,sample")  # fmt: skip
    o = load(data, filename="t.csv")
    # the spelled row is greedy iff it is read as greedy: R0 holds its outcome (1)
    assert (o.D, o.N) == (1, 2)
    assert o.R0[0, 0, 0] == (1 if greedy else 0)
    canonical = spelling.strip().lower() in ("sample", "greedy")
    notes = o.metadata.get("decoding_spellings", {})
    assert notes == ({} if canonical else {spelling.strip(): "greedy" if greedy else "sample"})


@pytest.mark.parametrize("spelling", ["beam", "temperature>0.5", "t<0", "top_p"])
def test_unknown_decoding_spelling_is_refused_with_the_row(spelling):
    data = _csv("model,question,trial,outcome,decoding", "a,q,0,1,sample", f"a,q,1,0,{spelling}")
    with pytest.raises(ValidationError, match=f"found row 2 = '{spelling}'"):
        load(data, filename="t.csv")


# ---------------------------------------------------------------------- where
def test_where_keeps_matching_rows_numbers_compare_as_numbers(real):
    o = load(real, filename="t.csv", where={"temperature": "0.50"})
    assert o.shape == (2, 3, 2) and o.R0 is None
    assert o.metadata["trial_ids"] == [11, 12]
    assert o.metadata["where"] == {"temperature": ["0.50"]}
    assert o.metadata["rows_kept_by_where"] == "12 of 36"
    both = load(real, filename="t.csv", where=[("temperature", ("0.5", "1.0"))])
    assert both.N == 4 and both.R0 is None
    with_greedy = load(real, filename="t.csv", where={"temperature": [0.0, 1.0]})
    assert (with_greedy.N, with_greedy.D) == (2, 2)


def test_where_on_several_columns_must_all_match(real):
    o = load(real, filename="t.csv", where={"temperature": 1.0, "model": "B"})
    assert o.models == ("B",) and o.N == 2
    # text values compare exactly after trimming spaces
    f = _frame(real).with_columns(pl.col("source").str.to_uppercase())
    with pytest.raises(ValidationError, match="never takes the value"):
        load_table(f, where={"source": "arc"})


def test_where_errors_list_what_exists(real):
    with pytest.raises(ValidationError, match="names column 'temp', which the table does "
                                              "not have; its columns are 'model'"):  # fmt: skip
        load(real, filename="t.csv", where={"temp": 0.5})
    with pytest.raises(ValidationError, match=r"never takes the value '0.7'; its values "
                                              r"are 0.0, 0.5, 1.0"):  # fmt: skip
        load(real, filename="t.csv", where={"temperature": ["0.5", "0.7"]})
    with pytest.raises(ValidationError, match="'abc' is not a number"):
        load(real, filename="t.csv", where={"temperature": "abc"})
    with pytest.raises(ValidationError, match="no row has temperature in"):
        load(real, filename="t.csv", where={"temperature": "0.0", "decoding": "sampled"})


def test_errors_after_where_name_the_files_rows():
    data = _csv("model,question,trial,outcome,temperature",
                "a,q,0,1,0.5", "a,q,1,1,0.7", "a,q,2,x,0.7")  # fmt: skip
    with pytest.raises(ValidationError, match="row 3 = 'x'"):
        load(data, filename="t.csv", where={"temperature": 0.7})


def test_where_flag_repeats_and_merges():
    p = argparse.ArgumentParser()
    add_options(p, LoadOptions)
    args = p.parse_args(["--where", "temperature=0.0,1.0", "--where", "source = arc",
                         "--where", "temperature=0.5", "--model-columns", "model,temperature",
                         "--attributes", "source"])  # fmt: skip
    opts = from_args(LoadOptions, args)
    assert opts.where == (("temperature", ("0.0", "1.0", "0.5")), ("source", ("arc",)))
    assert opts.model_columns == ("model", "temperature") and opts.attributes == ("source",)
    assert opts == LoadOptions(where={"temperature": ["0.0", "1.0", "0.5"], "source": "arc"},
                               model_columns=["model", "temperature"], attributes=["source"])
    hash(opts)  # options key caches
    for bad in (["--where", "temperature"], ["--where", "=1"], ["--where", "x="]):
        with pytest.raises(SystemExit):
            p.parse_args(bad)
    assert from_args(LoadOptions, p.parse_args([])).where is None


# ---------------------------------------------------------------- model identity
def test_model_columns_compose_names_and_greedy_rows_become_their_own_model(real):
    o = load(real, filename="t.csv", model_columns=("model", "temperature"))
    assert o.models == ("A@temperature=0.0", "A@temperature=0.5", "A@temperature=1.0",
                        "B@temperature=0.0", "B@temperature=0.5", "B@temperature=1.0")  # fmt: skip
    assert o.shape == (6, 3, 2) and o.R0 is None  # T=0 identities are all greedy: their trials
    assert "greedy rows are the trials of their own models (A@temperature=0.0, B@" in (
        o.metadata["decoding_note"]
    )
    assert "temperature" not in o.signals  # part of the identity, not a signal
    f = _frame(real)
    for i, name in enumerate(o.models):
        m, temp = name.split("@temperature=")
        for j, q in enumerate(o.questions):
            rows = f.filter((pl.col("model") == m) & (pl.col("temperature") == float(temp))
                            & (pl.col("question") == q)).sort("trial")  # fmt: skip
            assert o.R[i, j].tolist() == rows["outcome"].to_list()


def test_greedy_rows_stay_R0_when_the_identity_does_not_tell_them_apart(real):
    # model x attempt: every (model, attempt) has greedy and sampled rows -> greedy is R0
    o = load(real, filename="t.csv", model_columns=["model", "attempt"])
    assert o.models == ("A@attempt=1", "A@attempt=2", "B@attempt=1", "B@attempt=2")
    assert (o.N, o.D) == (2, 1) and "decoding_note" not in o.metadata
    assert o.R0[1, 0, 0] == int(_frame(real).filter((pl.col("model") == "A")
                                & (pl.col("question") == "q1") & (pl.col("trial") == 2))
                                ["outcome"].item())  # fmt: skip


def test_model_columns_errors(real):
    with pytest.raises(ValidationError, match=r"names column 'temp', which the table does "
                                              "not have"):  # fmt: skip
        load(real, filename="t.csv", model_columns=("model", "temp"))
    with pytest.raises(ValidationError, match="model_columns starts with 'model'"):
        load(real, filename="t.csv", model_columns=("model", "temperature"),
             columns={"model": "source"})  # fmt: skip
    with pytest.raises(ValidationError, match="distinct, non-empty columns"):
        LoadOptions(model_columns=("model", "model"))
    data = _csv("model,question,trial,outcome,cond", "a,q,0,1,x", "a,q,1,1,")
    with pytest.raises(ValidationError, match="'cond' names part of the model .* empty at 1 "
                                              r"row, e.g. row 2"):  # fmt: skip
        load(data, filename="t.csv", model_columns=("model", "cond"))


def test_model_column_other_than_model_is_the_base_name():
    data = _csv("llm,question,trial,outcome,prompt",
                "a,q,0,1,cot", "a,q,1,1,cot", "a,q,0,0,plain", "a,q,1,1,plain")  # fmt: skip
    o = load(data, filename="t.csv", model_columns=["llm", "prompt"])
    assert o.models == ("a@prompt=cot", "a@prompt=plain")
    assert o.R.tolist() == [[[1, 1]], [[0, 1]]]


def test_several_files_with_model_columns_and_where(tmp_path, real):
    f = _frame(real)
    f.filter(pl.col("model") == "A").write_csv(tmp_path / "a.csv")
    f.filter(pl.col("model") == "B").write_csv(tmp_path / "b.csv")
    opts = LoadOptions(where={"temperature": ["0.0", "1.0"]},
                       model_columns=("model", "temperature"))  # fmt: skip
    both = load([tmp_path / "a.csv", tmp_path / "b.csv"], opts)
    one = load(real, opts, filename="t.csv")
    assert both.models == one.models
    np.testing.assert_array_equal(both.R, one.R)
    assert both.question_attributes == one.question_attributes


# ------------------------------------------------ reports reload with the same options
def test_report_and_notebook_read_the_data_with_the_same_options(tmp_path, real):
    from scorio_core.report import load_code, make_report

    path = tmp_path / "t.csv"
    path.write_bytes(real)
    opts = LoadOptions(where={"temperature": ["0.5", "1.0"]},
                       model_columns=("model", "temperature"), on_missing="truncate")  # fmt: skip
    code = load_code(path, options=opts)
    assert "model_columns=('model', 'temperature')" in code
    ns: dict = {}
    exec(compile(code.replace("data.describe()", ""), "<cell>", "exec"), ns)  # noqa: S102
    expected = load(path, opts)
    assert ns["data"].models == expected.models == (
        "A@temperature=0.5", "A@temperature=1.0", "B@temperature=0.5", "B@temperature=1.0")
    np.testing.assert_array_equal(ns["data"].R, expected.R)
    out = make_report(path, tmp_path / "r.md", sections=["leaderboard"], options=opts)
    text = out.read_text()
    assert "B@temperature=1.0" in text and "A@temperature=0.0" not in text
