"""The simulation studies in this process vs on a local Dask cluster (issue 15).

Run: ``python benchmarks/dask_simulate.py [--workers 2] [--scheduler tcp://HOST:8786]
[--scale 1.0]``.

Each study runs with the Simulator's default sizes (times ``--scale``) once in this
process and once on the cluster (its start is excluded), and the two results are compared
exactly. Prints both times, their ratio and ``identical: True/False`` per study.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from scorio_core import simulate as sim
from scorio_core.parallel import Executor


def _same(a, b) -> bool:
    if isinstance(a, sim.Curves):
        return all(np.array_equal(a.tau[m], b.tau[m], equal_nan=True) for m in a.tau)
    if isinstance(a, sim.PriorDepth):
        return np.array_equal(a.tau, b.tau) and np.array_equal(a.tau_update, b.tau_update)
    if isinstance(a, sim.CorrectOrder):
        return a.table.equals(b.table) and str(a.n_at) == str(b.n_at) and (
            str(a.predicted_at) == str(b.predicted_at))
    if isinstance(a, sim.Coverage):
        try:
            pd.testing.assert_frame_equal(a.table, b.table)
        except AssertionError:
            return False
        return True
    raise TypeError(type(a))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scheduler", default=None)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every replicate count")
    args = ap.parse_args()

    def n(x: int) -> int:
        return max(1, round(x * args.scale))

    studies = {
        f"truth convergence ({n(1000)} x 11 coins x N=80)": lambda ex: sim.truth_convergence(
            sim.mimics(seed=0), replicates=n(1000), seed=1, executor=ex),
        f"prior depth ({n(5000)} replicates)": lambda ex: sim.prior_depth(
            replicates=n(5000), seed=0, executor=ex),
        f"correct order ({n(4000)} datasets x 40 N)": lambda ex: sim.correct_order(
            n_sims=n(4000), seed=0, executor=ex),
        f"calibration ({n(2000)} datasets x 3 M x 7 N)": lambda ex: sim.interval_coverage(
            replicates=n(2000), seed=0, executor=ex),
    }
    where = args.scheduler or f"local cluster, {args.workers} workers"
    here, t_here = {}, {}
    for name, run in studies.items():
        t0 = time.perf_counter()
        here[name] = run(None)
        t_here[name] = time.perf_counter() - t0
    print(f"{'study':<46} {'this process':>12} {where:>26}   ratio  identical")
    with Executor(workers=args.workers, scheduler=args.scheduler) as ex:
        run(ex)  # warm the workers (imports) on the last study before timing
        for name, run in studies.items():
            t0 = time.perf_counter()
            there = run(ex)
            t = time.perf_counter() - t0
            print(f"{name:<46} {t_here[name]:10.2f} s {t:24.2f} s   {t_here[name] / t:4.2f}x"
                  f"  identical: {_same(here[name], there)}")


if __name__ == "__main__":
    main()
