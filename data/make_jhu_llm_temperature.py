"""Bundle the real JHU temperature dataset (Renze & Guven 2024, BSD-2-Clause) as Parquet.

Input: ``jhu_llm_temperature.csv``, the long table that ``convert_jhu_llm_temperature.py``
writes from the authors' repository (github.com/matthewrenze/jhu-llm-temperature at
commit b00cfb6; see ``jhu_llm_temperature.SOURCE.md``). Output:
``data/jhu_llm_temperature.parquet``, the same 99,000 rows and 11 columns with compact
types, zstd-compressed (about a tenth of the CSV's size)::

    python data/make_jhu_llm_temperature.py PATH/TO/jhu_llm_temperature.csv [OUT.parquet]

Nothing is dropped or recomputed: :func:`to_csv_bytes` writes the Parquet back as the
converter's CSV, byte for byte (``tests/test_jhu_dataset.py`` checks its sha256), and
``scorio_core.io.load`` reads both to the same :class:`~scorio_core.outcomes.Outcomes`.
"""

from __future__ import annotations

import csv
import hashlib
import io
import sys
from pathlib import Path

import polars as pl

HERE = Path(__file__).resolve().parent
OUT = HERE / "jhu_llm_temperature.parquet"
#: sha256 of the converter's CSV (jhu_llm_temperature.SOURCE.md).
CSV_SHA256 = "10547bb3d646aed0bf8ef3cbaee643e4c774d0383e277d122616514d4051d62d"
#: The converter's columns, in its order, with the compact type each is stored as.
SCHEMA = {
    "model": pl.String,
    "question": pl.String,
    "trial": pl.Int16,
    "outcome": pl.Int8,
    "decoding": pl.String,
    "temperature": pl.Float64,
    "attempt": pl.Int8,
    "answer": pl.String,
    "response_chars": pl.Int32,
    "api_error": pl.Int8,
    "source": pl.String,
}


def read_csv(path: str | Path) -> pl.DataFrame:
    """The converter's CSV with the bundled types (empty cells are nulls)."""
    data = Path(path).read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    if sha != CSV_SHA256:
        raise SystemExit(f"{path}: sha256 {sha}, expected {CSV_SHA256} (the converter's output)")
    df = pl.read_csv(io.BytesIO(data), schema=SCHEMA)
    if df.height != 99_000:
        raise SystemExit(f"{path}: {df.height} rows, expected 99,000")
    return df


def write_parquet(df: pl.DataFrame, out: str | Path = OUT) -> None:
    df.write_parquet(out, compression="zstd", compression_level=19, statistics=False)


def to_csv_bytes(path: str | Path = OUT) -> bytes:
    """The Parquet written back exactly as the converter writes its CSV."""
    df = pl.read_parquet(path)
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(df.columns)
    for row in df.iter_rows(named=True):
        row["temperature"] = f"{row['temperature']:.1f}"
        w.writerow(["" if v is None else v for v in row.values()])
    return buf.getvalue().encode("utf-8")


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit(__doc__)
    out = Path(argv[1]) if len(argv) > 1 else OUT
    write_parquet(read_csv(argv[0]), out)
    if hashlib.sha256(to_csv_bytes(out)).hexdigest() != CSV_SHA256:
        raise SystemExit(f"{out}: does not write back to the same CSV")
    print(f"wrote {out} ({out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main(sys.argv[1:])
