"""Hostile files against :func:`scorio_core.io.load`: time and peak memory of each refusal.

Run: ``python benchmarks/hostile_inputs.py [--keep DIR]``.

Writes the worst inputs of issue 14 to a temporary directory -- an ``.npz`` of a few
hundred bytes whose header declares a ~7 TiB array, a deflate bomb of zeros that
decompresses to 8 GiB (consistent header) or hides 8 GiB of padding behind a tiny
array, a ``.zip`` of a CSV inflating to 8 GiB, a 10^8-row Parquet file, a 2.2·10^7-line
CSV, a JSONL file whose every line adds a column, an object (pickle) array and a
100,000-deep ``meta_json`` -- then loads each in a fresh Python process and prints the
seconds, the peak resident memory (``VmHWM``) and the one-line error. The baseline row
is a process that only imports ``scorio_core.io`` and loads a 3-row CSV. Targets: every
file refused in a few seconds, with peak memory within a few hundred MB of the baseline.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

import numpy as np
import polars as pl
from numpy.lib import format as npformat

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from scorio_core import io
from scorio_core._validation import ValidationError
t1 = time.perf_counter()
try:
    o = io.load(sys.argv[1])
    msg = f"loaded {o.shape}"
except ValidationError as exc:
    msg = str(exc)
t2 = time.perf_counter()
# VmHWM, not ru_maxrss: ru_maxrss survives exec and would report the parent's peak
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM"))
print(json.dumps({"import_s": t1 - t0, "load_s": t2 - t1, "lines": msg.count(chr(10)) + 1,
                  "peak_mb": hwm / 1024, "msg": msg}))
"""


def npy_header(shape: tuple[int, ...], descr: str) -> bytes:
    buf = io.BytesIO()
    npformat.write_array_header_1_0(buf, {"descr": descr, "fortran_order": False, "shape": shape})
    return buf.getvalue()


def zip_bomb(path: Path, header: bytes, zeros: int, member: str = "R.npy") -> None:
    """``R.npy`` = ``header`` + ``zeros`` zero bytes, deflated without compressing 8 GiB:
    a fully flushed deflate block of 64 MiB of zeros is independent of what precedes it,
    so the compressed stream is that block repeated (the CRC is computed for real)."""
    chunk = 64 * 2**20
    assert zeros % chunk == 0
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    head = co.compress(header) + co.flush(zlib.Z_FULL_FLUSH)
    block = co.compress(bytes(chunk)) + co.flush(zlib.Z_FULL_FLUSH)
    tail = co.flush(zlib.Z_FINISH)
    crc = zlib.crc32(header)
    zero_chunk = bytes(chunk)
    for _ in range(zeros // chunk):
        crc = zlib.crc32(zero_chunk, crc)
    info = zipfile.ZipInfo(member, date_time=(2026, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w") as zf:
        with zf.open(info, "w", force_zip64=True) as w:
            w._compressor = _Replay(block, head, tail)  # our precompressed blocks
            w.write(header)
            for _ in range(zeros // chunk):
                w.write(zero_chunk)
    with zipfile.ZipFile(path) as zf:  # the directory holds the real sizes and CRC
        assert zf.getinfo(member).CRC == crc
        assert zf.getinfo(member).file_size == len(header) + zeros


class _Replay:
    def __init__(self, block: bytes, head: bytes, tail: bytes):
        self.block, self.head, self.tail, self.first = block, head, tail, True

    def compress(self, data: bytes) -> bytes:
        if self.first:
            self.first = False
            return self.head
        return self.block

    def flush(self) -> bytes:
        return self.tail


def write_cases(d: Path) -> dict[str, Path]:
    cases: dict[str, Path] = {}
    base = d / "baseline.csv"
    base.write_bytes(b"model,question,trial,outcome\na,q,0,1\nb,q,0,0\nc,q,0,1\n")
    cases["baseline (3-row CSV)"] = base

    p = d / "header_bomb.npz"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("R.npy", npy_header((1000, 1000, 1_000_000), "<i8"))
    cases[f"npz, header declares 7.3 TiB ({p.stat().st_size} bytes)"] = p

    p = d / "zeros_bomb.npz"
    zip_bomb(p, npy_header((8, 1024, 2**20), "|i1"), 8 * 2**30)
    cases[f"npz, 8 GiB of zeros, consistent header ({p.stat().st_size / 2**20:.1f} MB)"] = p

    p = d / "padding_bomb.npz"
    zip_bomb(p, npy_header((2, 3, 4), "|i1"), 8 * 2**30)  # 24 bytes of array, then padding
    cases[f"npz, tiny array + 8 GiB padding ({p.stat().st_size / 2**20:.1f} MB)"] = p

    p = d / "logs.zip"
    zip_bomb(p, b"model,question,trial,outcome\n", 8 * 2**30, member="runs.csv")
    cases[f".zip of a CSV inflating to 8 GiB ({p.stat().st_size / 2**20:.1f} MB)"] = p

    p = d / "rows.parquet"
    n = 10**8
    (
        pl.LazyFrame()
        .select(pl.int_range(0, n, dtype=pl.Int64).alias("trial"))
        .with_columns(model=pl.lit("a"), question=pl.lit("q"), outcome=pl.lit(1))
        .sink_parquet(p)
    )
    cases[f"Parquet, 10^8 rows ({p.stat().st_size / 2**20:.1f} MB)"] = p

    p = d / "lines.csv"
    rows = 22_000_000
    with p.open("wb") as fh:
        fh.write(b"model,question,trial,outcome\n")
        block = b"a,q,0,1\n" * 1_000_000
        for _ in range(rows // 1_000_000):
            fh.write(block)
    cases[f"CSV, 2.2·10^7 lines ({p.stat().st_size / 2**20:.0f} MB)"] = p

    p = d / "wide.jsonl"
    with p.open("w") as fh:
        for i in range(200_000):
            fh.write(json.dumps({"model": "a", "question": f"q{i}", "trial": 0, "outcome": 1,
                                 f"k{i}": 1}) + "\n")  # fmt: skip
    mb = p.stat().st_size / 2**20
    cases[f"JSONL, a new column per line (200,000 x 200,004; {mb:.0f} MB)"] = p

    p = d / "pickle.npz"
    buf = io.BytesIO()
    np.save(buf, np.array([{"x": 1}], dtype=object), allow_pickle=True)
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("R.npy", buf.getvalue())
    cases["npz, object (pickle) array"] = p

    p = d / "deep_meta.npz"
    deep = np.array("[" * 100_000 + "]" * 100_000)
    np.savez(p, R=np.ones((1, 2, 2), dtype=np.int8), meta_json=deep)
    cases["npz, meta_json nested 100,000 deep"] = p

    p = d / "stray_two.csv"
    p.write_bytes(b"model,question,trial,outcome\na,q,0,1\na,q,1,2\nb,q,0,0\nb,q,1,1\n")
    cases["CSV, binary with one stray 2 (no weights)"] = p
    return cases


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", help="write the files here and keep them")
    args = ap.parse_args()
    d = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="scorio-hostile-"))
    d.mkdir(parents=True, exist_ok=True)
    try:
        print(f"writing hostile files to {d} ...", file=sys.stderr)
        cases = write_cases(d)
        root = Path(__file__).resolve().parent.parent
        print(f"{'case':<62} {'load s':>7} {'peak MB':>8} lines  message")
        for label, path in cases.items():
            out = subprocess.run(
                [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True,
                cwd=root, env={"OMP_NUM_THREADS": "1", "PATH": ""}, timeout=600,
            )  # fmt: skip
            if out.returncode:
                print(f"{label:<62} CRASHED: {out.stderr.strip().splitlines()[-1:]}")
                continue
            r = json.loads(out.stdout)
            msg = r["msg"] if len(r["msg"]) <= 150 else r["msg"][:147] + "..."
            print(f"{label:<62} {r['load_s']:>7.2f} {r['peak_mb']:>8.0f} {r['lines']:>5}  {msg}")
    finally:
        if not args.keep:
            shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
