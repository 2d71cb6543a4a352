"""Hostile inputs to :mod:`scorio_core.io` (issue 14): sizes are checked from headers,
metadata and counts before anything large is decoded, and each refusal is one clear line.

Memory and time of the worst cases are measured by ``benchmarks/hostile_inputs.py``
(no timing assertions here).
"""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import polars as pl
import pytest
from fixtures import make_logs
from numpy.lib import format as npformat

from scorio_core.io import MAX_CELLS, ValidationError, load, load_npz, to_long_frame
from scorio_core.io import _assemble as assemble_module
from scorio_core.io import _base as base_module
from scorio_core.io import _logs as logs_module
from scorio_core.io import npz as npz_module
from scorio_core.io import table as table_module


# ------------------------------------------------------------------ helpers
def npy_header(shape: tuple[int, ...], dtype: str = "<i8") -> bytes:
    """The bytes of a version-1.0 ``.npy`` header declaring ``shape`` and ``dtype``."""
    buf = io.BytesIO()
    npformat.write_array_header_1_0(
        buf, {"descr": dtype, "fortran_order": False, "shape": shape}
    )
    return buf.getvalue()


def forged_npz(members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip whose ``<key>.npy`` members hold the given raw bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=compression) as zf:
        for key, data in members.items():
            zf.writestr(f"{key}.npy", data)
    return buf.getvalue()


def npy(a: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, a, allow_pickle=False)
    return buf.getvalue()


# ------------------------------------------------------------------ .npz
def test_tiny_npz_declaring_a_huge_shape_is_refused_from_its_header():
    # the case: a few hundred bytes whose header asks numpy for ~7 TiB
    data = forged_npz({"R": npy_header((1000, 1000, 1_000_000))})
    assert len(data) < 400
    with pytest.raises(ValidationError) as err:
        load(data, filename="bomb.npz")
    msg = str(err.value)
    assert msg.startswith("bomb.npz: array 'R' declares shape (1,000 x 1,000 x 1,000,000)")
    assert f"{MAX_CELLS:,}" in msg and "\n" not in msg


def test_zero_bomb_over_the_cell_cap_is_refused_before_decompressing():
    # 60 M zeros compress to ~60 KB; the header is consistent with the zip directory,
    # so only the cell cap stops it
    n = MAX_CELLS + 10_000_000
    data = forged_npz({"R": npy_header((1, 1, n), "|i1") + bytes(n)})
    assert len(data) < 200_000
    with pytest.raises(ValidationError, match=r"declares shape .* more than the 50,000,000"):
        load_npz(data, filename="zeros.npz")


def test_declared_size_must_match_the_members_uncompressed_size():
    # a small shape followed by 5 MB of padding: the member expands far past its array
    padded = npy_header((2, 2, 2)) + bytes(8 * 8) + bytes(5_000_000)
    with pytest.raises(ValidationError, match=r"array 'R' declares shape \(2, 2, 2\).*forged"):
        load_npz(forged_npz({"R": padded}), filename="pad.npz")
    # and a header promising more data than the member holds
    short = npy_header((2, 2, 4)) + bytes(8 * 8)
    with pytest.raises(ValidationError, match="corrupt or forged"):
        load_npz(forged_npz({"R": short}), filename="short.npz")


def test_total_decoded_size_is_capped(monkeypatch):
    monkeypatch.setattr(npz_module, "MAX_DECODED_BYTES", 10_000)
    R = np.zeros((2, 10, 40), dtype=np.int64)  # 6,400 bytes: under the cap alone
    members = {"R": npy(R), "signal__x": npy(R.astype(float))}  # 12,800 together
    with pytest.raises(ValidationError, match="decode to more than"):
        load_npz(forged_npz(members), filename="big.npz")
    assert load_npz(forged_npz({"R": npy(R)}), filename="ok.npz").shape == (2, 10, 40)


@pytest.mark.parametrize(
    "dtype, what",
    [("|O", "pickle"), ([("a", "<i8"), ("b", "<f8")], "dtype"), ("<c16", "dtype")],
)
def test_object_structured_and_complex_members_are_refused_from_the_header(dtype, what):
    buf = io.BytesIO()
    descr = npformat.dtype_to_descr(np.dtype(dtype))
    npformat.write_array_header_1_0(buf, {"descr": descr, "fortran_order": False, "shape": (2,)})
    data = forged_npz({"R": buf.getvalue() + bytes(64)})
    with pytest.raises(ValidationError, match=what):
        load_npz(data, filename="odd.npz")


def test_large_extra_arrays_are_named_but_never_decoded(monkeypatch):
    R = np.ones((1, 3, 2), dtype=np.int8)
    big = np.zeros(20_000)
    reads: list[str] = []
    real = npz_module._read_member
    monkeypatch.setattr(
        npz_module, "_read_member", lambda zf, h: reads.append(h.member) or real(zf, h)
    )
    o = load_npz(forged_npz({"R": npy(R), "true_p": npy(big), "small": npy(np.arange(3))}),
                 filename="x.npz")
    assert o.metadata["extra_arrays_not_loaded"] == ["true_p"]
    assert o.metadata["extra_arrays"] == {"small": [0, 1, 2]}
    assert "true_p.npy" not in reads


def test_non_npy_members_are_listed_not_read():
    R = np.ones((1, 3, 2), dtype=np.int8)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("R.npy", npy(R))
        zf.writestr("notes.txt", b"x" * 100)
    o = load_npz(buf.getvalue(), filename="x.npz")
    assert o.metadata["extra_arrays_not_loaded"] == ["notes.txt"]


def test_fortran_order_and_version_2_headers_still_load():
    rng = np.random.default_rng(0)
    R = np.asfortranarray(rng.integers(0, 2, (2, 3, 4)))
    buf = io.BytesIO()
    npformat.write_array(buf, R, version=(2, 0))
    o = load_npz(forged_npz({"R": buf.getvalue()}), filename="f.npz")
    np.testing.assert_array_equal(o.R, R)


def test_deeply_nested_meta_json_is_a_clear_error():
    R = np.ones((1, 2, 2), dtype=np.int8)
    meta = np.array("[" * 100_000 + "]" * 100_000)
    data = forged_npz({"R": npy(R), "meta_json": npy(meta)})
    with pytest.raises(ValidationError, match=r"'meta_json' is nested 100000 levels deep"):
        load_npz(data, filename="deep.npz")


# ------------------------------------------------------------------ tables
def long_csv(rows: int) -> bytes:
    lines = ["model,question,trial,outcome"]
    lines += [f"m{i % 2},q{i // 4},{(i // 2) % 2},1" for i in range(rows)]
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture
def no_parsing(monkeypatch):
    """Fail the test if polars is asked to materialize a table."""

    def boom(*args, **kwargs):
        raise AssertionError("the table was parsed before its size was checked")

    for fn in ("read_csv", "read_parquet", "read_ndjson"):
        monkeypatch.setattr(pl, fn, boom)


def test_parquet_row_count_is_read_from_its_metadata(monkeypatch, no_parsing):
    monkeypatch.setattr(table_module, "MAX_ROWS", 1_000)
    buf = io.BytesIO()
    pl.DataFrame({"model": ["a"] * 1001, "question": ["q"] * 1001, "trial": range(1001),
                  "outcome": [1] * 1001}).write_parquet(buf)
    with pytest.raises(ValidationError, match=r"^many\.parquet: the table has 1,001 rows \(from "
                       r"its metadata\), more than the 1,000 rows allowed"):
        load(buf.getvalue(), filename="many.parquet")


def test_csv_rows_are_counted_before_parsing(monkeypatch, no_parsing):
    monkeypatch.setattr(table_module, "MAX_ROWS", 100)
    with pytest.raises(ValidationError, match="the table has 101 lines below the header"):
        load(long_csv(101), filename="many.csv")


def test_jsonl_rows_times_columns_are_capped(monkeypatch, no_parsing):
    # every line adds a new key: parsed, 300 lines would be a 300 x 304 table of nulls
    monkeypatch.setattr(table_module, "MAX_TABLE_CELLS", 10_000)
    lines = [json.dumps({"model": "a", "question": f"q{i}", "trial": 0, "outcome": 1,
                         f"k{i}": 1}) for i in range(300)]
    with pytest.raises(ValidationError, match=r"300 lines x 304 columns, more than the 10,000"):
        load("\n".join(lines).encode(), filename="wide.jsonl")


def test_jsonl_distinct_keys_are_capped_without_polars_schema_inference(monkeypatch, no_parsing):
    # polars' inference costs rows x distinct keys: a key per line would take hours
    monkeypatch.setattr(table_module, "MAX_COLUMNS", 50)
    monkeypatch.setattr(pl, "scan_ndjson", lambda *a, **k: pytest.fail("schema inference"))
    lines = [json.dumps({"model": "a", "question": "q", "trial": i, "outcome": 1, f"k{i}": 1})
             for i in range(60)]
    with pytest.raises(ValidationError, match=r"more than 50 distinct keys \(columns\)"):
        load("\n".join(lines).encode(), filename="keys.jsonl")


def test_rows_of_frames_and_records_of_logs_are_capped(monkeypatch, tmp_path):
    monkeypatch.setattr(assemble_module, "MAX_ROWS", 10)
    df = pl.read_csv(long_csv(12))
    with pytest.raises(ValidationError, match="the table has 12 rows, more than the 10"):
        load(df)
    monkeypatch.setattr(logs_module, "MAX_ROWS", 10)
    R = np.ones((1, 4, 3), dtype=int)  # 12 records
    path = make_logs.write_openai_evals(tmp_path / "run.jsonl", "m", "arith", R[0], [1, 2, 3, 4])
    with pytest.raises(ValidationError, match="the logs hold 12 records, more than the 10"):
        load(path)


def test_tables_within_the_caps_still_load(monkeypatch):
    monkeypatch.setattr(table_module, "MAX_ROWS", 8)
    o = load(long_csv(8), filename="ok.csv")
    assert o.shape == (2, 2, 2)


# ------------------------------------------------------- duplicated columns
@pytest.mark.parametrize(
    "header, col",
    [("model,question,trial,outcome,outcome", "outcome"),
     ("model,question,trial,outcome,latency,latency", "latency")],
)
def test_a_duplicated_csv_column_is_an_error_naming_it(header, col):
    n = header.count(",") + 1
    data = f"{header}\n" + "\n".join(",".join(["a", "q", str(t), "1"] + ["1"] * (n - 4))
                                      for t in range(2))
    with pytest.raises(ValidationError, match=f"column '{col}' appears more than once"):
        load(data.encode(), filename="dup.csv")


def test_a_duplicated_jsonl_key_is_an_error_naming_it():
    line = '{"model": "a", "question": "q", "trial": 0, "outcome": 0, "outcome": 1}'
    with pytest.raises(ValidationError, match="column 'outcome' appears more than once"):
        load(line.encode(), filename="dup.jsonl")


def test_a_duplicated_parquet_column_is_an_error_naming_it(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    cols = [pa.array(["a", "a"]), pa.array(["q", "q"]), pa.array([0, 1]), pa.array([1, 0]),
            pa.array([1, 1])]  # fmt: skip
    table = pa.Table.from_arrays(cols, names=["model", "question", "trial", "outcome", "outcome"])
    pq.write_table(table, tmp_path / "dup.parquet")
    with pytest.raises(ValidationError, match="'outcome' has more than one occurrence"):
        load(tmp_path / "dup.parquet")


# ---------------------------------------------------------------- trial ids
BIG = 2**53  # 2**53 and 2**53 + 1 are the same float64


@pytest.mark.parametrize("suffix", [".csv", ".parquet", ".jsonl"])
def test_trial_ids_above_2_53_do_not_collide(suffix):
    ids = [BIG, BIG + 1, BIG + 2]
    df = pl.DataFrame({"model": ["a"] * 3 + ["b"] * 3, "question": ["q"] * 6,
                       "trial": ids * 2, "outcome": [1, 0, 1, 0, 0, 1]})
    buf = io.BytesIO()
    {".csv": df.write_csv, ".parquet": df.write_parquet, ".jsonl": df.write_ndjson}[suffix](buf)
    o = load(buf.getvalue(), filename="big" + suffix)
    assert o.shape == (2, 1, 3)
    assert o.metadata["trial_ids"] == ids
    assert o.R[:, 0].tolist() == [[1, 0, 1], [0, 0, 1]]
    assert to_long_frame(o)["trial"].to_list()[:3] == ids  # exact on the way out too


def test_unsigned_trial_ids_past_2_63_stay_exact():
    ids = [2**64 - 2, 2**64 - 1]
    csv = "model,question,trial,outcome\n" + "".join(f"a,q,{t},1\n" for t in ids)
    o = load(csv.encode(), filename="u.csv")
    assert o.metadata["trial_ids"] == ids and o.N == 2


def test_fractional_trial_ids_still_order_trials():
    csv = b"model,question,trial,outcome\na,q,0.5,1\na,q,0.25,0\n"
    o = load(csv, filename="f.csv")
    assert o.R.tolist() == [[[0, 1]]] and o.metadata["trial_ids"] == [0.25, 0.5]


# ------------------------------------------------------------ deep JSON in logs
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "name, text",
    [
        ("log.json", '{"eval": ' + DEEP + ', "samples": []}'),  # Inspect-like
        ("per_instance_stats.json", DEEP),  # HELM
        ("samples_arith_2026-01-01T00-00-00.jsonl", '{"doc_id": ' + DEEP + "}\n"),  # lm-eval
        ("run.jsonl", '{"spec": ' + DEEP + "}\n"),  # OpenAI evals / table
    ],
)
def test_deeply_nested_json_logs_are_one_line_errors(tmp_path, name, text):
    # json.loads raises RecursionError (not a ValueError) past ~1,000 levels
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(ValidationError, match="recursion depth") as err:
        load(path)
    assert str(err.value).startswith(name) and "\n" not in str(err.value)


def test_deeply_nested_member_of_an_inspect_eval_is_an_error(tmp_path):
    path = tmp_path / "run.eval"
    make_logs.write_zip(path, [("header.json", DEEP.encode())])
    with pytest.raises(ValidationError, match="recursion depth"):
        load(path)


# -------------------------------------------------------------- zip archives
def test_a_zip_of_files_is_refused_from_its_directory_when_it_expands_too_far(
    monkeypatch, tmp_path
):
    monkeypatch.setattr(base_module, "MAX_DECODED_BYTES", 1_000)
    monkeypatch.setattr(base_module, "read_member", lambda *a: pytest.fail("read a member"))
    path = tmp_path / "runs.zip"
    make_logs.write_zip(path, [("a.csv", long_csv(60)), ("b.csv", long_csv(60))])
    msg = r"^runs\.zip: the 2 members to read expand to 1\.\d KB, more than the 1000 bytes"
    with pytest.raises(ValidationError, match=msg):
        load(path)


def test_an_inspect_member_may_expand_to_max_bytes_not_eight_times_more(tmp_path):
    # 60 KB of JSON that deflates to a few hundred bytes; max_bytes = 20 KB
    path = tmp_path / "run.eval"
    header = b"{" + b" " * 60_000 + b"}"
    make_logs.write_zip(path, [("header.json", header)])
    assert path.stat().st_size < 20_000
    with pytest.raises(ValidationError, match="'header.json' expands to 58.6 KB, over the"):
        load(path, max_bytes=20_000)
