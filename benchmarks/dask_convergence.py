"""convergence@n of a re-ranked method in this process vs on a local Dask cluster.

Run: ``python benchmarks/dask_convergence.py [--replicates 10000] [--workers 2]
[--method bradley_terry] [--scheduler tcp://HOST:8786]``.

Issue 15's target: ``bradley_terry`` with 10^4 column-wise replicates on the biased
coins (11 x 30 x 80) on a 2-worker local cluster, identical to the single-process result
with the same seed. Prints both times, their ratio and whether every replicate agrees.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from scorio_core import io
from scorio_core.engines import convergence_at_n
from scorio_core.parallel import Executor

DATA = Path(__file__).resolve().parents[1] / "data" / "biased_coins.npz"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicates", type=int, default=10_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--method", default="bradley_terry")
    ap.add_argument("--scheduler", default=None)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    R = io.load(DATA).R
    kw = dict(methods=[args.method], replicates=args.replicates, seed=args.seed)
    print(f"{args.method}, {args.replicates:,} replicates on {DATA.name} {R.shape}")
    t0 = time.perf_counter()
    here = convergence_at_n(R, **kw)
    t_here = time.perf_counter() - t0
    where = args.scheduler or f"local cluster, {args.workers} workers"
    with Executor(workers=args.workers, scheduler=args.scheduler) as ex:
        t0 = time.perf_counter()
        there = convergence_at_n(R, **kw, executor=ex)
        t_there = time.perf_counter() - t0
    same = np.array_equal(here.s_star[args.method], there.s_star[args.method])
    print(f"{'this process':<32} {t_here:9.1f} s")
    print(f"{where:<32} {t_there:9.1f} s   ({t_here / t_there:.2f}x; cluster start excluded)")
    print(f"identical convergence@n for every replicate: {same}")
    print(here.summary.to_string(index=False))


if __name__ == "__main__":
    main()
