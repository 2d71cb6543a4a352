"""Long-table loading speed: a 192,000-row CSV (20 models x 120 questions x 80 trials).

Run: ``python benchmarks/load_table.py``.

Times :func:`scorio_core.io.load` on a shuffled long CSV with arbitrary trial ids and
one numeric signal column, the shape of the bundled reasoning tensor. Target: well
under 1 s (the correctness of the same load is asserted in ``tests/io/test_io.py``; the
time is printed here, never asserted in a test).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of  # noqa: E402

from scorio_core.io import load  # noqa: E402

TARGET_S = 1.0


def write_table(path: Path, L: int = 20, M: int = 120, N: int = 80, seed: int = 11) -> None:
    rng = np.random.default_rng(seed)
    R = rng.integers(0, 2, (L, M, N))
    trial_ids = rng.permutation(1000)[:N]
    m, q, t = (a.ravel() for a in np.indices((L, M, N)))
    order = rng.permutation(m.size)
    pl.DataFrame(
        {
            "model": pl.Series([f"model-{i}" for i in range(L)]).gather(m[order]),
            "question": pl.Series([f"q{i}" for i in range(M)]).gather(q[order]),
            "trial": trial_ids[t[order]],
            "outcome": R[m, q, t][order],
            "latency": (m * 1000.0 + q + t / 100)[order],
        }
    ).write_csv(path)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.csv"
        write_table(path)
        t = best_of(lambda: load(path), repeat=5)
    verdict = "OK" if t < TARGET_S else "TOO SLOW"
    print(f"load 192,000-row long CSV (20 x 120 x 80, one signal): {t * 1e3:.0f} ms "
          f"(target < {TARGET_S:g} s: {verdict})")


if __name__ == "__main__":
    main()
