"""Joint-posterior leaderboard speed: both scopes with 10^4 joint draws.

Run: ``python benchmarks/posterior.py``. Uses the bundled synthetic tensor
(20 models x 120 questions x 80 trials, greedy prior). Prints the best-of-5 wall
time of ``leaderboard(scope=...)`` per scope, their sum, and the share spent
drawing. Target: both scopes together < 1 s.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of  # noqa: E402

from scorio_core import eval as ev  # noqa: E402
from scorio_core import io  # noqa: E402
from scorio_core.leaderboard import leaderboard  # noqa: E402
from scorio_core.posterior import question_moments, sample_scores  # noqa: E402

DRAWS = 10_000


def main() -> None:
    data = io.load(Path(__file__).resolve().parent.parent / "data" / "reasoning_synthetic.npz")
    print(f"data: {data.name}, shape (L, M, N) = {data.R.shape}, draws = {DRAWS}\n")
    n, n0, w = ev.prepare_counts(data.R, data.weights, data.R0)
    q = question_moments(n, w, n0)
    total = 0.0
    for scope in ("questions", "population"):
        t = best_of(
            lambda s=scope: leaderboard(
                data, use_prior=True, scope=s, adjust="holm", draws=DRAWS, seed=0
            ).table,
            repeat=5,
        )
        t_draw = best_of(lambda s=scope: sample_scores(q, s, DRAWS, 0), repeat=5)
        total += t
        print(
            f"leaderboard scope={scope:<11} {t * 1e3:8.1f} ms  "
            f"(joint draws {t_draw * 1e3:6.1f} ms)"
        )
    print(f"\nboth scopes {total * 1e3:.1f} ms (target < 1000 ms): {'OK' if total < 1 else 'SLOW'}")


if __name__ == "__main__":
    main()
