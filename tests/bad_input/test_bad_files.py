"""Malformed files and arrays: each must raise ValidationError with an informative message."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import polars as pl
import pytest

from scorio_core._validation import ValidationError
from scorio_core.io import load, load_table, safe_csv_cell, save_npz, save_table, to_safe_csv
from scorio_core.outcomes import Outcomes

HEADER = b"model,question,trial,outcome\n"


def npz(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)  # allow_pickle defaults to True here, so object arrays pickle
    return buf.getvalue()


def csv(*rows: str, header: bytes = HEADER) -> bytes:
    return header + "".join(r + "\n" for r in rows).encode()


def jsonl(*lines: str) -> bytes:
    return "".join(line + "\n" for line in lines).encode()


GOOD_ROWS = ("a,q1,0,1", "a,q1,1,0", "b,q1,0,1", "b,q1,1,1")

# (id, file bytes, file name, load kwargs, expected message fragment)
BAD_FILES = [
    ("R 1-D", npz(R=np.array([0, 1, 1])), "x.npz", {}, "R must have 2 to 3 dimensions"),
    ("R 4-D", npz(R=np.zeros((1, 2, 3, 4), int)), "x.npz", {}, "got shape (1, 2, 3, 4)"),
    ("R NaN", npz(R=np.array([[0.0, np.nan]])), "x.npz", {}, "found nan at index (0, 1)"),
    ("R inf", npz(R=np.array([[np.inf, 1.0]])), "x.npz", {}, "found inf at index (0, 0)"),
    ("R fraction", npz(R=np.array([[0.0, 0.5]])), "x.npz", {}, "fractional value 0.5"),
    ("R negative", npz(R=np.array([[0, -1]])), "x.npz", {}, "found -1 at index (0, 1)"),
    (
        "category beyond weights",
        npz(R=np.array([[0, 3]]), weights=np.array([0.0, 0.5, 1.0])),
        "x.npz",
        {},
        "the 3 weights define categories 0..2",
    ),
    (
        "weights too short for category names",
        npz(R=np.array([[0, 1]]), weights=np.array([0.0, 1.0]), category_names=np.array(["a"])),
        "x.npz",
        {},
        "expected 2 category names",
    ),
    (
        "weights not 1-D",
        npz(R=np.array([[0, 1]]), weights=np.array([[0.0, 1.0]])),
        "x.npz",
        {},
        "weights must be a 1-D vector",
    ),
    (
        "R0 shape mismatch",
        npz(R=np.zeros((2, 3, 4), int), R0=np.zeros((2, 2, 1), int)),
        "x.npz",
        {},
        "R0 must have shape (2, 3, D) or (3, D)",
    ),
    ("empty R", npz(R=np.zeros((0, 3, 4), int)), "x.npz", {}, "R must not be empty"),
    (
        "pickled object array",
        npz(R=np.array([[1], [1, 2]], dtype=object)),
        "x.npz",
        {},
        "object arrays/pickles are refused",
    ),
    ("not a zip", b"R,1,0\nthis is text", "x.npz", {}, "not an .npz archive"),
    ("parquet named npz", b"PAR1" + b"\0" * 20, "x.npz", {}, "looks like a Parquet file"),
    ("truncated zip", npz(R=np.zeros((2, 3), int))[:80], "x.npz", {}, "corrupt or truncated zip"),
    ("no R", npz(X=np.zeros(3), Y=np.ones(2)), "x.npz", {}, "arrays found: 'X', 'Y'"),
    (
        "duplicate model names",
        npz(R=np.zeros((2, 3, 4), int), models=np.array(["gpt", "gpt"])),
        "x.npz",
        {},
        "model names must be unique; duplicated: 'gpt'",
    ),
    (
        "too few question ids",
        npz(R=np.zeros((2, 3, 4), int), questions=np.array(["a", "b"])),
        "x.npz",
        {},
        "expected 3 question ids",
    ),
    (
        "signal shape",
        npz(R=np.zeros((2, 3, 4), int), signal__len=np.zeros((2, 3))),
        "x.npz",
        {},
        "signal 'len' must be a numeric array of shape (2, 3, 4)",
    ),
    (
        "meta_json not an object",
        npz(R=np.zeros((2, 3), int), meta_json=np.array("[1, 2]")),
        "x.npz",
        {},
        "'meta_json' must hold a JSON object",
    ),
    (
        "meta_json invalid",
        npz(R=np.zeros((2, 3), int), meta_json=np.array("{name: x}")),
        "x.npz",
        {},
        "'meta_json' is not valid JSON",
    ),
    ("csv header only", HEADER, "x.csv", {}, "only a header row"),
    (
        "missing column",
        b"model,question,outcome\na,q,1\n",
        "x.csv",
        {},
        "missing 'trial'; found 'model', 'question', 'outcome'",
    ),
    (
        "wrong column names",
        b"Model,Question,Trial,Result\na,q,0,1\n",
        "x.csv",
        {},
        "did you mean columns={'model': 'Model', 'question': 'Question', 'trial': 'Trial', "
        "'outcome': 'Result'}",
    ),
    (
        "unknown column role",
        csv(*GOOD_ROWS),
        "x.csv",
        {"columns": {"llm": "model"}},
        "unknown role 'llm'",
    ),
    (
        "mapped column absent",
        csv(*GOOD_ROWS),
        "x.csv",
        {"columns": {"decoding": "mode"}},
        "maps 'decoding' to 'mode', but there is no such column",
    ),
    (
        "ragged trials",
        csv(*GOOD_ROWS, "a,q2,0,1", "b,q2,0,1", "b,q2,1,0"),
        "x.csv",
        {},
        "1 of 8 (model, question, trial) cells are missing",
    ),
    (
        "ragged trials names the pair",
        csv(*GOOD_ROWS, "a,q2,0,1", "b,q2,0,1", "b,q2,1,0"),
        "x.csv",
        {},
        "('a', 'q2') has 1 of 2",
    ),
    (
        "drop_questions leaves nothing",
        csv("a,q1,0,1", "a,q1,1,1", "b,q1,0,1"),
        "x.csv",
        {"on_missing": "drop_questions"},
        "would drop all 1 questions",
    ),
    (
        "truncate with an empty cell",
        csv("a,q1,0,1", "a,q2,0,1", "b,q1,0,1"),
        "x.csv",
        {"on_missing": "truncate"},
        "cannot keep any trial",
    ),
    (
        "unknown on_missing",
        csv(*GOOD_ROWS),
        "x.csv",
        {"on_missing": "ignore"},
        "on_missing must be one of 'error', 'drop_questions', 'truncate'; got 'ignore'",
    ),
    (
        "duplicate model/question/trial",
        csv(*GOOD_ROWS, "a,q1,1,1"),
        "x.csv",
        {},
        "('a', 'q1', trial 1) at rows 2, 5",
    ),
    (
        "non-numeric outcome",
        csv("a,q1,0,1", "a,q1,1,correct"),
        "x.csv",
        {},
        "found 1 non-numeric value at row 2 = 'correct'",
    ),
    ("null outcome", csv("a,q1,0,1", "a,q1,1,"), "x.csv", {}, "1 cell is empty/null at row 2"),
    ("fractional outcome", csv("a,q1,0,1", "a,q1,1,1.5"), "x.csv", {},
     "found 1 fractional value outside [0, 1] at row 2"),
    ("negative outcome", csv("a,q1,0,1", "a,q1,1,-1"), "x.csv", {}, "1 negative value at row 2"),
    ("NaN outcome", csv("a,q1,0,1", "a,q1,1,NaN"), "x.csv", {}, "1 NaN/infinite value at row 2"),
    ("empty model", csv("a,q1,0,1", ",q1,1,1"), "x.csv", {}, "column 'model' is empty at 1 row 2"),
    ("non-numeric trial", csv("a,q1,zero,1"), "x.csv", {}, "numeric trial ids"),
    ("huge category in table", csv("a,q1,0,5000"), "x.csv", {},
     "found 1 implausibly large value (> 1000) at row 1"),
    (
        "huge category in npz",
        npz(R=np.array([[0, 10**9]])),
        "x.npz",
        {},
        "categories above 1000 are refused",
    ),
    (
        "UTF-16 CSV",
        "model,question,trial,outcome\na,q,0,1\n".encode("utf-16"),
        "x.csv",
        {},
        "UTF-16",
    ),
    (
        "Latin-1 CSV",
        HEADER + "café,q,0,1\n".encode("latin-1"),
        "x.csv",
        {},
        "byte 0xe9 on line 2 cannot be decoded",
    ),
    (
        "ragged CSV line",
        csv("a,q1,0,1", "a,q1,1,0,extra,cells"),
        "x.csv",
        {},
        "could not parse the file as CSV",
    ),
    (
        "formula model name",
        csv('"=HYPERLINK(""http://evil"")",q1,0,1'),
        "x.csv",
        {},
        "starts with '=', which spreadsheets execute as a formula",
    ),
    (
        "markup model name",
        csv("<script>alert(1)</script>,q1,0,1"),
        "x.csv",
        {},
        "contains '<' or '>'",
    ),
    (
        "unknown decoding",
        csv("a,q1,0,1,sample", "a,q1,1,1,beam", header=b"model,question,trial,outcome,decoding\n"),
        "x.csv",
        {},
        "'sample' (also 'samples', 'sampled', 'sampling', 'stochastic', 'temperature>0') or "
        "'greedy' (also 'argmax', 'temperature=0'); found row 2 = 'beam'",
    ),
    (
        "two benchmark labels",
        csv("a,q1,0,1,aime", "a,q1,1,1,gpqa", header=b"model,question,trial,outcome,benchmark\n"),
        "x.csv",
        {},
        "'q1': 'aime', 'gpqa'",
    ),
    (
        "broken signal column",
        csv("a,q1,0,1,0.5", "a,q1,1,1,N/A", "a,q1,2,1,2", header=HEADER[:-1] + b",tokens\n"),
        "x.csv",
        {},
        "column 'tokens' looks numeric (a signal) but holds non-numbers at row 2 = 'N/A'",
    ),
    (
        "bad signal name",
        csv("a,q1,0,1,0.5", header=HEADER[:-1] + b",token ratio\n"),
        "x.csv",
        {},
        "numeric column 'token ratio' would become a signal",
    ),
    (
        "infinite signal value",
        csv("a,q1,0,1,0.5", "a,q1,1,1,inf", header=HEADER[:-1] + b",tokens\n"),
        "x.csv",
        {},
        "signal column 'tokens' holds infinite values at row 2",
    ),
    (
        "nested JSONL outcome",
        jsonl('{"model": "a", "question": "q", "trial": 0, "outcome": [1, 0]}'),
        "x.jsonl",
        {},
        "got values of type List",
    ),
    (
        "invalid JSONL line",
        jsonl('{"model": "a", "question": "q", "trial": 0, "outcome": 1}', "{oops"),
        "x.jsonl",
        {},
        "line 2 is not a JSON object",
    ),
    ("not parquet", b"model,question\n", "x.parquet", {}, "not a Parquet file"),
    ("npz named csv", npz(R=np.zeros((2, 2), int)), "x.csv", {},
     "looks like a NumPy archive (.npz): rename it to .npz"),
    ("unknown suffix", csv(*GOOD_ROWS), "x.xlsx", {}, "unsupported file type (suffix '.xlsx')"),
    ("no suffix", csv(*GOOD_ROWS), "results", {}, "accepted suffixes: .npz, .csv, .parquet"),
    ("unknown format", csv(*GOOD_ROWS), "x.csv", {"format": "xls"}, "format must be one of"),
    ("file over max_bytes", csv(*GOOD_ROWS), "x.csv", {"max_bytes": 50}, "max_bytes=50"),
]


@pytest.mark.parametrize(
    ("data", "filename", "kwargs", "fragment"),
    [case[1:] for case in BAD_FILES],
    ids=[case[0] for case in BAD_FILES],
)
def test_bad_file_bytes(data, filename, kwargs, fragment):
    with pytest.raises(ValidationError) as info:
        load(data, filename=filename, **kwargs)
    msg = str(info.value)
    assert fragment in msg
    # a file problem names the file; a bad option (checked before any file is read) names
    # the option
    assert msg.startswith(filename + ":") or "format=" in msg or msg.startswith(tuple(kwargs))


@pytest.mark.parametrize(
    ("data", "filename", "kwargs", "fragment"),
    [case[1:] for case in BAD_FILES if case[2] != "results"],
    ids=[case[0] for case in BAD_FILES if case[2] != "results"],
)
def test_bad_file_on_disk(tmp_path, data, filename, kwargs, fragment):
    path = tmp_path / filename
    path.write_bytes(data)
    with pytest.raises(ValidationError) as info:
        load(path, **kwargs)
    assert fragment in str(info.value)


@pytest.mark.parametrize("suffix", [".npz", ".csv", ".parquet", ".pq", ".jsonl", ".ndjson"])
def test_empty_file_each_format(tmp_path, suffix):
    path = tmp_path / f"empty{suffix}"
    path.write_bytes(b"")
    with pytest.raises(ValidationError, match=r"the file is empty \(0 bytes\)"):
        load(path)


def test_file_over_max_bytes_names_size_and_limit(tmp_path):
    path = tmp_path / "big.csv"
    path.write_bytes(csv(*GOOD_ROWS * 300))
    with pytest.raises(ValidationError) as info:
        load(path, max_bytes=2**12)
    msg = str(info.value)
    assert f"({path.stat().st_size:,} bytes)" in msg and "max_bytes=4,096, i.e. 4.0 KB" in msg


def test_missing_path_and_bad_source_type(tmp_path):
    with pytest.raises(ValidationError, match="file not found"):
        load(tmp_path / "nope.csv")
    with pytest.raises(ValidationError, match="not a regular file"):
        load(tmp_path)
    with pytest.raises(ValidationError, match="got int"):
        load(42)
    with pytest.raises(ValidationError, match="pass filename= .* or format="):
        load(csv(*GOOD_ROWS))


def test_empty_parquet_and_jsonl_tables(tmp_path):
    empty = pl.DataFrame(
        schema={"model": pl.String, "question": pl.String, "trial": pl.Int64, "outcome": pl.Int64}
    )
    empty.write_parquet(tmp_path / "e.parquet")
    with pytest.raises(ValidationError, match="the table has no data"):
        load(tmp_path / "e.parquet")
    with pytest.raises(ValidationError, match="no data found"):
        load(b"\n\n", filename="e.jsonl")


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"R": [[0, 1], [1]]}, "ragged"),
        ({"R": [[[0, 1], [1, 0]], [[1, 1]]]}, "ragged"),
        ({"R": np.zeros((3, 0))}, "must not be empty"),
        ({"R": []}, "must have 2 to 3 dimensions"),
        ({"R": np.array([["a", "b"]])}, "must be numeric"),
        ({"R": [[0, 1]], "weights": [0, np.nan]}, "weights must be finite"),
        ({"R": [[0, 2]], "weights": [0, 1]}, "define categories 0..1"),
        ({"R": [[0, 1]], "R0": [[[1]], [[0]]]}, "R0 must have shape (1, 1, D) or (1, D)"),
        ({"R": [[0, 1]], "models": ["=cmd|' /C calc'!A0"]}, "starts with '='"),
        ({"R": [[0, 1]], "benchmarks": ["combined"]}, "'combined' is reserved"),
    ],
)
def test_bad_arrays(kwargs, fragment):
    with pytest.raises(ValidationError) as info:
        Outcomes(**kwargs)
    assert fragment in str(info.value)


def test_table_from_frame_reports_zero_based_positions():
    df = pd.DataFrame({"model": ["a", "a"], "question": ["q", "q"], "trial": [0, 1]})
    df["outcome"] = [1.0, None]
    with pytest.raises(ValidationError, match="row 1 \\(0-based row positions\\)"):
        load_table(df)


def test_save_table_refuses_unknown_suffix(tmp_path):
    o = Outcomes(np.array([[[0, 1]]]))
    with pytest.raises(ValidationError, match="cannot write a table"):
        save_table(o, tmp_path / "x.xlsx")


# ------------------------------------------------------------ CSV safety
@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("=SUM(A1:A2)", "'=SUM(A1:A2)"),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@cmd", "'@cmd"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("gpt-4", "gpt-4"),
        ("a=b", "a=b"),
        ("", ""),
        ("'=already", "'=already"),
    ],
)
def test_safe_csv_cell(cell, expected):
    assert safe_csv_cell(cell) == expected


def test_to_safe_csv_polars_and_pandas():
    data = {"model": ['=HYPERLINK("x")', "ok", "@me"], "score": [-1.5, 0.25, 2.0]}
    text = to_safe_csv(pl.DataFrame(data))
    assert text.splitlines()[1].startswith("\"'=HYPERLINK(")
    assert "'@me" in text and "\n-1.5" not in text and ",-1.5" in text  # numbers untouched
    ptext = to_safe_csv(pd.DataFrame(data).set_index("model"))
    assert ptext.splitlines()[0] == "model,score"
    assert "'@me,2.0" in ptext
    assert to_safe_csv(pd.DataFrame({"=x": ["+y"]})) == "'=x\n'+y\n"
    with pytest.raises(TypeError):
        to_safe_csv([["=1"]])


@pytest.mark.parametrize("fmt", ["npz", "csv", "parquet", "jsonl"])
def test_corrupted_bytes_raise_only_validation_errors(fmt):
    """Random byte flips, cuts and insertions never escape as another exception type."""
    rng = np.random.default_rng(17)
    o = Outcomes(
        rng.integers(0, 3, (2, 3, 2)),
        R0=rng.integers(0, 3, (2, 3, 1)),
        weights=[0, 0.5, 1],
        benchmarks=["a", "a", "b"],
        signals={"x": rng.random((2, 3, 2))},
    )
    buf = io.BytesIO()
    if fmt == "npz":
        save_npz(o, buf)
    else:
        save_table(o, buf, format=fmt)
    good = buf.getvalue()
    for _ in range(60):
        data = bytearray(good)
        pos = int(rng.integers(0, len(data)))
        op = rng.integers(0, 3)
        if op == 0:
            data[pos] = int(rng.integers(0, 256))
        elif op == 1:
            del data[pos : pos + int(rng.integers(1, 20))]
        else:
            data[pos:pos] = bytes(rng.integers(0, 256, 3, dtype=np.uint8))
        try:
            load(bytes(data), filename=f"f.{fmt}")
        except ValidationError:
            pass
