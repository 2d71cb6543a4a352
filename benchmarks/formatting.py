"""Table formatting speed: ``format_columns`` (every table the app, the CLI and the reports
print goes through it, one cell at a time) on the tables the bundled data's leaderboard and
Data page show, and on a 2,000-row table of every column kind, this tree against a previous
revision.

Run: ``python benchmarks/formatting.py [--previous REV]`` (``--previous`` defaults to
a2a9daf, the last commit whose cell checks (``_is_missing``, ``_as_float``) went through
``numbers.Real`` for every float and int cell; read with ``git archive`` into a temporary
folder). Each side runs in a fresh interpreter, three times taking turns with the other, and
reports the best of 7 calls (after a warm-up); both sides must print the same cells
(checked: a digest of every cell). A ratio above 1 means this tree is faster. No target: a
page formats its tables on every run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import fresh_cases, side_by_side  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: The last commit whose cell checks went through ``numbers.Real`` for every cell.
PREVIOUS = "a2a9daf"
_TIMING = """
import hashlib, json, sys, time
sys.path.insert(0, {src!r})
import numpy as np, pandas as pd
from scorio_core import io, leaderboard
from scorio_core.io import to_long_frame
from scorio_core.formatting import format_columns

rng = np.random.default_rng(0)
n = 2000
mixed = pd.DataFrame({{
    "model": [f"m{{i}}" for i in range(n)], "score": rng.random(n),
    "lo": rng.random(n) - 0.5, "p_best": rng.random(n) ** 8,
    "trials_needed": rng.integers(0, 5000, n).astype(float), "rank": rng.integers(1, 20, n),
    "big": rng.random(n) * 1e6, "flag": rng.random(n) < 0.5}})
mixed.loc[::7, "score"] = np.nan
mixed.loc[::11, "lo"] = np.inf
tables = {{"2,000 rows x 8 columns (every kind)": mixed}}
for name in ("jhu_llm_temperature.parquet", "reasoning_synthetic.npz"):
    data = io.load({data!r} + "/" + name)
    tables[name + ": leaderboard"] = leaderboard(data).table
    tables[name + ": long table, 200 rows"] = to_long_frame(data).head(200).to_pandas()
for what, df in tables.items():
    cells = format_columns(df)
    best = float("inf")
    for _ in range(7):
        t0 = time.perf_counter()
        format_columns(df)
        best = min(best, time.perf_counter() - t0)
    digest = hashlib.sha256(json.dumps([c for _, _, c in cells]).encode()).hexdigest()[:12]
    print(what, best, digest, sep="\\t")
"""


def timing(src: Path) -> dict[str, tuple[float, str]]:
    """Best-of-7 seconds and the cells' digest of ``format_columns`` per table, for the
    package at ``src``."""
    return fresh_cases(_TIMING.format(src=str(src), data=str(ROOT / "data")))


def main(previous: str = PREVIOUS) -> None:
    side_by_side(timing, ROOT, previous, "format_columns", "same cells")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--previous", default=PREVIOUS, help="git revision to compare with")
    main(ap.parse_args().previous)
