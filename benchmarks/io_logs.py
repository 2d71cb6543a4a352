"""Log import speed: a 16-model x 30-question x 8-epoch set of Inspect AI ``.eval`` logs.

Run: ``python benchmarks/io_logs.py``.

Writes 16 ``.eval`` files (one per model, 240 samples each, in the on-disk shape of
``tests/fixtures/make_logs.py``) into a temporary directory, zstd- and deflate-
compressed, and times :func:`scorio_core.io.load` on the directory: detecting each
file's format, reading ``header.json`` and ``summaries.json`` (the fast path), mapping
the scores and assembling the ``(16, 30, 8)`` tensor. Also timed: the slow path without
``summaries.json`` (every ``samples/{id}_epoch_{n}.json`` member is read, as for an
unfinished run) and the same outcomes as one long CSV. Target: < 2 s per load.
Each log load is timed twice: keeping the completion texts (the default: with
``summaries.json`` each sample's own member is read too, for its output) and with
``samples="skip"`` (scores only).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
import numpy as np  # noqa: E402
from _timing import best_of  # noqa: E402
from fixtures import make_logs as mk  # noqa: E402

from scorio_core import io  # noqa: E402

TARGET_S = 2.0
L, M, N = 16, 30, 8


def main() -> None:
    rng = np.random.default_rng(0)
    R = (rng.random((L, M, N)) < rng.uniform(0.2, 0.9, (L, 1, 1))).astype(int)
    models = [f"org/model-{i:02d}" for i in range(L)]
    ids = list(range(1, M + 1))
    print(f"{L} models x {M} questions x {N} epochs = {L * M * N} samples in {L} .eval files")
    print(f"{'what':<52} {'load':>10} {'no texts':>10}")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for kind, kw in (
            ("zstd, summaries.json (Inspect's default)", {"compression": "zstd"}),
            ("deflate, summaries.json", {"compression": "deflate"}),
            ("zstd, sample members only (no summaries.json)",
             {"compression": "zstd", "summaries": False}),
        ):  # fmt: skip
            d = root / kind.split(",")[0] / str(kw.get("summaries", True))
            d.mkdir(parents=True)
            for m, model in enumerate(models):
                mk.write_inspect_eval(d / f"m{m:02d}.eval", model, "bench", R[m], ids, **kw)
            size = sum(p.stat().st_size for p in d.iterdir())
            o = io.load(d)
            assert o.shape == (L, M, N)
            np.testing.assert_array_equal(o.R.sum(), R.sum())
            t = best_of(lambda d=d: io.load(d), repeat=5)
            t_skip = best_of(lambda d=d: io.load(d, samples="skip"), repeat=5)
            worst = max(worst, t)
            print(f"{kind:<52} {t * 1e3:>7.1f} ms {t_skip * 1e3:>7.1f} ms   "
                  f"({size / 2**20:.1f} MB on disk)")
        csv = mk.write_long_csv(root / "long.csv", models, ids, R)
        t = best_of(lambda: io.load(csv), repeat=5)
        print(f"{'the same outcomes as one long CSV':<52} {t * 1e3:>7.1f} ms")
    verdict = "OK" if worst < TARGET_S else "TOO SLOW"
    print(f"\nslowest .eval load: {worst * 1e3:.1f} ms (target < {TARGET_S:g} s: {verdict})")


if __name__ == "__main__":
    main()
