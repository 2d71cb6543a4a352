"""Rubric speed: applying every preset to the combined synthetic tensor.

Run: ``python benchmarks/rubric.py``.

For each preset of :data:`scorio_core.rubric.PRESETS` (000 Table 5, 002 Table 21)
this times :func:`scorio_core.rubric.apply` on the bundled reasoning data (20 models
x 120 questions x 80 trials, nine signals): evaluating every predicate on whole
``(L, M, N)`` arrays, the percentile thresholds, the ordered rules and building the
new :class:`~scorio_core.outcomes.Outcomes`. Target: well under 1 s per preset.
The categorical-ranking analysis (002 §3.5: 80 single-trial slices x 8 schemes) is
timed last.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of  # noqa: E402

from scorio_core import io  # noqa: E402
from scorio_core.rubric import PRESETS, apply, categorical_ranking  # noqa: E402

TARGET_S = 1.0


def main() -> None:
    data = io.load(Path(__file__).resolve().parent.parent / "data" / "reasoning_synthetic.npz")
    L, M, N = data.shape
    print(f"data: {data.name}, shape (L, M, N) = {data.shape}, {len(data.signals)} signals")
    print(f"{'preset':<32} {'categories':>10} {'apply':>12}")
    worst = 0.0
    for key, rubric in PRESETS.items():
        t = best_of(lambda r=rubric: apply(r, data), repeat=5)
        worst = max(worst, t)
        print(f"{key:<32} {rubric.C + 1:>10} {t * 1e3:>9.1f} ms")
    verdict = "OK" if worst < TARGET_S else "TOO SLOW"
    print(f"\nslowest preset: {worst * 1e3:.1f} ms (target < {TARGET_S:g} s: {verdict})")
    t = best_of(lambda: categorical_ranking(data), repeat=3)
    print(f"categorical_ranking, 8 schemes x {N} single-trial slices: {t * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
