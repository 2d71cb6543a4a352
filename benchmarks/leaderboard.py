"""Leaderboard speed: our vectorized summary vs a loop of the reference package's calls.

Run: ``python benchmarks/leaderboard.py`` (needs the ``bench`` extra: ``pip install -e .[bench]``).

Both sides compute, for every model of the combined synthetic tensor
(20 models x 120 questions x 80 trials, with the greedy prior), Bayes@N mean, s.d. and
95 % interval, avg@N, and Pass@k for k = 2, 4, 8. Ours additionally computes CI-aware
ranks and trials-needed (and, on the second row, the pandas table and the
pairwise matrix). Target: >= 20x faster for the summary.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import HEADER, best_of, row  # noqa: E402

from scorio_core import eval as ev  # noqa: E402
from scorio_core import io  # noqa: E402
from scorio_core.leaderboard import leaderboard  # noqa: E402

KS = (2, 4, 8)


def main() -> None:
    try:
        from scorio import eval as ref
    except ImportError:
        sys.exit("the reference package is missing: pip install -e '.[bench]'")
    data = io.load(Path(__file__).resolve().parent.parent / "data" / "reasoning_synthetic.npz")
    R, R0 = data.R, data.R0
    print(f"data: {data.name}, shape (L, M, N) = {R.shape}, R0 depth {data.D}\n")

    def ours_board():
        return leaderboard(data, use_prior=True, ks=KS)

    def ours_board_pandas():
        board = leaderboard(data, use_prior=True, ks=KS)
        return board.table, board.prob_better

    def ours_metrics():
        ev.bayes_ci(R, None, R0)
        ev.avg(R)
        for k in KS:
            ev.pass_at_k(R, k)

    def ref_loop():
        for i in range(R.shape[0]):
            ref.bayes_ci(R[i], None, R0[i])
            ref.avg(R[i])
            for k in KS:
                ref.pass_at_k(R[i], k)

    t_board, t_metrics, t_ref = best_of(ours_board), best_of(ours_metrics), best_of(ref_loop)
    print(HEADER)
    print(row("vectorized summary (all columns, ranks)", t_board, t_ref))
    print(row("  + pandas table and L x L matrix", best_of(ours_board_pandas), t_ref))
    print(row("public eval calls, one per metric (batched)", t_metrics, t_ref))

    def ours_ci():
        for k in KS:
            ev.pass_at_k_ci(R, k)

    def ref_ci():
        for i in range(R.shape[0]):
            for k in KS:
                ref.pass_at_k_ci(R[i], k)

    print(row("Pass@k credible intervals, k = 2,4,8", best_of(ours_ci), best_of(ref_ci)))
    ratio = t_ref / t_board
    print(f"\nleaderboard ratio {ratio:.1f}x (target >= 20x): {'OK' if ratio >= 20 else 'BELOW'}")
    np.testing.assert_allclose(  # sanity: both sides computed the same numbers
        ours_board().table.set_index("model").loc[data.models[0], "mu"],
        ref.bayes(R[0], None, R0[0])[0],
        atol=1e-12,
    )


if __name__ == "__main__":
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1, user_api="blas"):  # same for both sides; see rankers.py
        main()
