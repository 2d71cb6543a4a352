"""Time of the default prior-depth study (000 App. C), ours vs a per-replicate loop.

Run: ``python benchmarks/simulate.py [--replicates 5000] [--loop-replicates 30]``

Ours: :func:`scorio_core.simulate.prior_depth` with its defaults (8 models, M = 30,
D in {0, 1, 2, 4, 8, 16}, 17 values of N up to 80, 5000 replicates, 50 000 drawn
updates): replicates are vectorized, trials and prior trials drawn as binomial
increments. Reference: the loop a user would write with the public API — per
replicate, draw the updated models, sample ``R`` (8 x 30 x 80) and ``R0``
(8 x 30 x 16) with :mod:`scorio_core.simulate`, and for every N and D call
:func:`scorio_core.eval.bayes` and rank; timed on ``--loop-replicates`` replicates
and scaled. Target: ours under 10 s on 2 cores. Also times the other default studies
(wall clock and this process's CPU seconds, the steadier figure on a shared machine).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this tree's scorio_core, installed or not

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from scorio_core import eval as ev  # noqa: E402
from scorio_core import simulate as sim  # noqa: E402
from scorio_core._ties import rank_scores  # noqa: E402
from scorio_core.engines import kendall_tau_b  # noqa: E402

STEPS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80)
DEPTHS = (0, 1, 2, 4, 8, 16)


def _loop(replicates: int, seed: int = 0) -> float:
    """Per-replicate reference loop; returns seconds per replicate."""
    rng = np.random.default_rng(seed)
    i = np.arange(1, 9)
    orig = sim.shift_to_means(
        rng.beta((i + 3)[:, None], (12 - i)[:, None], size=(8, 30)), sim.PAPER_ORIGINAL_MEANS
    )
    t0 = time.perf_counter()
    for _ in range(replicates):
        sig = rng.choice([-1, 1], size=(8, 2))
        p = rng.beta((i + 3 + sig[:, 0])[:, None], (12 - i + sig[:, 1])[:, None], size=(8, 30))
        truth = rank_scores(p.mean(-1))
        R = sim.sample_outcomes(np.stack([1 - p, p], -1), max(STEPS), rng)
        R0 = sim.sample_outcomes(np.stack([1 - orig, orig], -1), max(DEPTHS), rng)
        for s in STEPS:
            for d in DEPTHS:
                mu = ev.bayes(R[:, :, :s], R0=R0[:, :, :d] if d else None).mu
                kendall_tau_b(rank_scores(mu), truth)
    return (time.perf_counter() - t0) / replicates


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicates", type=int, default=5000)
    ap.add_argument("--loop-replicates", type=int, default=30)
    args = ap.parse_args(argv)
    threadpool_limits(1, user_api="blas")

    t0, c0 = time.perf_counter(), time.process_time()
    r = sim.prior_depth(replicates=args.replicates, seed=0)
    ours, ours_cpu = time.perf_counter() - t0, time.process_time() - c0
    per = _loop(args.loop_replicates)
    ref = per * args.replicates
    u = r.update_summary
    print(
        f"prior depth, {args.replicates} replicates x {len(STEPS)} N x {len(DEPTHS)} D "
        f"(+ {r.settings['updates']} updates)"
    )
    print(f"  ours (vectorized):        {ours:8.2f} s   ({ours_cpu:.2f} s CPU; target < 10 s "
          "on 2 cores)")
    print(f"  per-replicate loop:       {ref:8.2f} s   (scaled from {args.loop_replicates})")
    print(f"  speed-up:                 {ref / ours:8.1f}x")
    print(
        f"  mean tau(original, updated) = {u['mean_tau']:.4f} (paper 0.88), "
        f"changed = {u['share_changed']:.1%} (paper ~86 %)"
    )

    for name, fn in [
        (
            "coins, Fig. 2a (1000 datasets, 8 metrics, N = 1..80)",
            lambda: sim.truth_convergence(sim.mimics(seed=0), replicates=1000, seed=1),
        ),
        ("correct order (4000 datasets x 40 N)", lambda: sim.correct_order(seed=0)),
        ("calibration (2000 datasets x 3 M x 7 N)", lambda: sim.interval_coverage(seed=0)),
    ]:
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        # CPU seconds too: on a shared machine they vary far less than the wall clock
        print(f"  {name:<58} {time.perf_counter() - t0:6.2f} s  "
              f"({time.process_time() - c0:5.2f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
