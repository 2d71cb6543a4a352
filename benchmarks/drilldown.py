"""Drill-down speed: the pair view on a lab-scale tensor, and one question's completions
from a 10^5-completion sample store with the memory it takes.

Run: ``python benchmarks/drilldown.py`` (from the repository root).

1. The pair definition (``ANALYSES["pair"].run``: both scopes, the questions that drive
   the gap, one question's flip table, its tables and chart) on 100 models x 500
   questions x 64 trials. Target: < 2 s.
2. A sample store of 100,000 completions (20 models x 500 questions x 10 trials, outputs
   of about 1,500 characters: ~150 MB of text) written as Parquet; a fresh process opens
   it and reads one question's completions (200 rows). Reported: the time and the
   process's peak memory above its baseline (Linux VmHWM, reset after a warm-up query on
   a one-row store), against the text it shows and against reading the whole store.
   Target: < 1 s, memory bounded by what is shown (the question's row groups).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from scorio_core import Outcomes  # noqa: E402
from scorio_core.definitions import ANALYSES  # noqa: E402
from scorio_core.samples import ROW_GROUP, SampleStore, SampleWriter  # noqa: E402

PAIR_TARGET_S, OPEN_TARGET_S = 2.0, 1.0
L, M, N = 100, 500, 64
SL, SM, SN = 20, 500, 10  # the store: 100,000 completions
WORDS = np.array("the answer is therefore because we add both sides then divide by two so "
                 "that x equals four and check it again carefully step".split())

_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import polars as pl
from scorio_core.samples import SampleStore

def hwm():  # peak resident set size since the last reset, bytes (Linux VmHWM)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) * 1024

warm = SampleStore.from_frame(pl.DataFrame({"model": ["m"], "question": ["q"], "trial": [0],
                                            "output": ["x"]}))
warm.for_question("q")  # polars' thread pool and readers start here, not in the measurement
open("/proc/self/clear_refs", "w").write("5")  # VmHWM := current RSS
base = hwm()
t0 = time.perf_counter()
if sys.argv[3] == "ALL":
    rows = pl.read_parquet(sys.argv[2])
else:
    store = SampleStore.open(sys.argv[2])
    rows = store.for_question(sys.argv[3])
t = time.perf_counter() - t0
peak = hwm() - base
text = [c for c in ("input", "output", "answer") if c in rows.columns]
shown = sum(rows[c].str.len_bytes().sum() or 0 for c in text)
print(json.dumps({"seconds": t, "rows": rows.height, "shown_bytes": int(shown),
                  "peak_above_base": peak, "base_rss": base}))
"""


def pair_view() -> None:
    rng = np.random.default_rng(0)
    p = rng.beta(2, 2, (L, M, 1))
    data = Outcomes((rng.random((L, M, N)) < p).astype(np.int8))
    pair = ANALYSES["pair"]
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        r = pair.run(data, pair.params())
        pair.tables(r)
        pair.charts(r)[0].chart.to_dict()
        times.append(time.perf_counter() - t0)
    t = min(times)
    verdict = "OK" if t < PAIR_TARGET_S else "TOO SLOW"
    print(f"pair view, {L} models x {M} questions x {N} trials: best {t * 1e3:.0f} ms, "
          f"median {np.median(times) * 1e3:.0f} ms over 5 runs (target < {PAIR_TARGET_S:g} s: "
          f"{verdict})")


def _store(path: Path) -> tuple[int, int]:
    rng = np.random.default_rng(1)
    writer = SampleWriter()
    text_bytes = 0
    for m in range(SL):  # one file per model, as the log importers write them
        n = SM * SN
        lens = rng.integers(150, 350, n)
        out = [" ".join(WORDS[rng.integers(0, WORDS.size, k)]) for k in lens]
        q = np.repeat(np.arange(SM), SN)
        frame = pl.DataFrame({
            "model": [f"model-{m:02d}"] * n,
            "question": [f"q{i:04d}" for i in q],
            "trial": np.tile(np.arange(SN), SM),
            "input": [f"Question {i}: what is x if 2x = {2 * i}?" for i in q],
            "output": out,
            "answer": [str(i) for i in q],
        })
        text_bytes += sum(frame[c].str.len_bytes().sum() for c in ("input", "output", "answer"))
        writer.add(frame)
    store = writer.store()
    store.write_parquet(path)
    return len(store), int(text_bytes)


def sample_store() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "samples.parquet"
        t0 = time.perf_counter()
        n, text_bytes = _store(path)
        built = time.perf_counter() - t0
        print(f"\nsample store: {n:,} completions, {text_bytes / 2**20:.0f} MB of text, "
              f"{path.stat().st_size / 2**20:.1f} MB as Parquet (built in {built:.1f} s)")
        assert len(SampleStore.open(path)) == n
        def child(q: str) -> dict:
            out = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), str(path), q],
                                 capture_output=True, text=True, check=True)
            return json.loads(out.stdout)

        runs = [child(q) for q in ("q0250", "q0007", "q0499")]
        for r in runs:
            print(f"  one question ({r['rows']} rows, {r['shown_bytes'] / 2**10:.0f} KB of text): "
                  f"{r['seconds'] * 1e3:.0f} ms in a fresh process; peak memory "
                  f"+{r['peak_above_base'] / 2**20:.1f} MB above its "
                  f"{r['base_rss'] / 2**20:.0f} MB")
        full = child("ALL")
        print(f"  for contrast, reading the whole store: {full['seconds'] * 1e3:.0f} ms, peak "
              f"memory +{full['peak_above_base'] / 2**20:.0f} MB")
        worst = max(r["seconds"] for r in runs)
        mem = max(r["peak_above_base"] for r in runs)
        verdict = "OK" if worst < OPEN_TARGET_S else "TOO SLOW"
        print(f"slowest open: {worst * 1e3:.0f} ms (target < {OPEN_TARGET_S:g} s: {verdict}); "
              f"peak memory +{mem / 2**20:.1f} MB = {mem / full['peak_above_base']:.1%} of a "
              f"full read's (the row groups of one question, {ROW_GROUP:,} rows each, not the "
              "store)")


if __name__ == "__main__":
    pair_view()
    sample_store()
