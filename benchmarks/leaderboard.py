"""Leaderboard speed: our vectorized summary vs a loop of the reference package's calls, and
both scopes of the calibrated leaderboard vs the previous (uncalibrated) code.

Run: ``python benchmarks/leaderboard.py [--previous REV]`` (needs the ``bench`` extra:
``pip install -e .[bench]``; ``--previous`` defaults to the last commit before the
calibrated headline, read with ``git archive`` into a temporary folder).

Both sides compute, for every model of the combined synthetic tensor
(20 models x 120 questions x 80 trials, with the greedy prior), Bayes@N mean, s.d. and
95 % interval, avg@N, and Pass@k for k = 2, 4, 8 ("public eval calls": the same work,
target >= 10x). The full leaderboard row does far more than the reference loop (the
calibrated headline with its empirical-Bayes trial variances, simultaneous pairwise
decisions from 10^4 joint null draws, p_best) and is shown for scale; the second table
times both scopes against the previous code (target: both under 1 s together).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import HEADER, best_of, previous_tree, row  # noqa: E402

from scorio_core import eval as ev  # noqa: E402
from scorio_core import io  # noqa: E402
from scorio_core.leaderboard import leaderboard  # noqa: E402

KS = (2, 4, 8)
ROOT = Path(__file__).resolve().parent.parent
#: The last commit whose leaderboard had the uniform-prior headline (Bayes@N +- z sigma).
PREVIOUS = "6a8a952"
_SCOPES_TIMING = """
import sys, time
sys.path.insert(0, {src!r})
from scorio_core import io
from scorio_core.leaderboard import leaderboard
data = io.load({data!r})
def page(scope):  # what the Leaderboard page shows: the table and (where it exists) the
    b = leaderboard(data, use_prior=True, scope=scope, draws=10_000, seed=0)  # first line
    b.table
    getattr(b, "first_line", lambda: None)()
for scope in ("questions", "population"):
    page(scope)
    best = min(
        (lambda t0: (page(scope), time.perf_counter() - t0)[1])(time.perf_counter())
        for _ in range(5)
    )
    print(scope, best)
"""


def scopes_timing(src: Path) -> dict[str, float]:
    """Best-of-5 seconds of ``leaderboard(scope=...)`` (10^4 draws, default adjust) with its
    table and could-be-first line (where the package has one) of the package at ``src``, in
    a fresh interpreter."""
    data = ROOT / "data" / "reasoning_synthetic.npz"
    code = _SCOPES_TIMING.format(src=str(src), data=str(data))
    out = subprocess.run([sys.executable, "-c", code],
                         capture_output=True, text=True, check=True).stdout
    return {line.split()[0]: float(line.split()[1]) for line in out.splitlines() if line.strip()}


def compare_scopes(previous: str) -> None:
    """Both scopes, this tree vs ``previous`` (git revision), side by side."""
    now = scopes_timing(ROOT)
    with previous_tree(ROOT, previous) as tree:
        before = scopes_timing(tree)
    print(f"\n{'leaderboard, 10^4 draws':<44} {'now':>13} {'previous':>15} {'ratio':>10}")
    for scope in ("questions", "population"):
        print(f"{'scope=' + scope:<44} {now[scope] * 1e3:>10.1f} ms {before[scope] * 1e3:>12.1f} ms"
              f" {before[scope] / now[scope]:>9.2f}x")
    total = sum(now.values())
    print(f"both scopes now {total * 1e3:.0f} ms (target < 1000 ms): "
          f"{'OK' if total < 1 else 'SLOW'}  [previous = {previous}]")


def main(previous: str = PREVIOUS) -> None:
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
    ratio = t_ref / t_metrics
    print(f"\neval-calls ratio {ratio:.1f}x (target >= 10x): {'OK' if ratio >= 10 else 'BELOW'}")
    np.testing.assert_allclose(  # sanity: both sides computed the same numbers
        ours_board().table.set_index("model").loc[data.models[0], "bayes_mu"],
        ref.bayes(R[0], None, R0[0])[0],
        atol=1e-12,
    )
    compare_scopes(previous)


if __name__ == "__main__":
    from threadpoolctl import threadpool_limits

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--previous", default=PREVIOUS, help="git revision to compare with")
    args = ap.parse_args()
    with threadpool_limits(1, user_api="blas"):  # same for both sides; see rankers.py
        main(args.previous)
