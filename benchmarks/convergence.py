"""convergence@n with 100,000 column-wise bootstrap replicates, ours vs a reference loop.

Run: ``python benchmarks/convergence.py [--replicates 100000] [--ref-replicates 20]``
(the reference side needs the ``bench`` extra: ``pip install -e .[bench]``).

Data: the bundled biased coins (11 models x 30 questions x 80 trials).
Methods: Bayes@N, Pass@2, Pass@4, Pass@8 (000 Fig. 1 / App. J).

Ours: :func:`scorio_core.engines.convergence.convergence_at_n` (running
counts, backwards walk that drops a replicate at its first mismatch).
Reference: the straightforward loop a user would write with the reference
package — for each replicate, rank the first ``s`` resampled trials with
``scorio.rank.<method>`` for every ``s = 1..80`` and find convergence@n. It is
timed on ``--ref-replicates`` replicates and scaled to the full count; both
sides use the same replicate indices and the script checks that convergence@n
agrees on the subsample. Target: ours under 60 s on 2 cores.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from scorio_core import io
from scorio_core import resampling as bs
from scorio_core.engines.convergence import convergence_at_n

METHODS = {
    "bayes": ("bayes", {}),
    "pass_at_k_2": ("pass_at_k", {"k": 2}),
    "pass_at_k_4": ("pass_at_k", {"k": 4}),
    "pass_at_k_8": ("pass_at_k", {"k": 8}),
}


def _reference_s_star(ref, name, kw, R, idx, gold) -> int:
    """convergence@n of one replicate by re-ranking every prefix with the reference package."""
    Rrep = R[:, :, idx]
    N = idx.size
    k = kw.get("k", 1)
    ranks = [getattr(ref, name)(Rrep[:, :, :s], **kw) if s >= k else None for s in range(1, N + 1)]
    for s in range(1, N):
        if all(r is not None and np.array_equal(r, gold) for r in ranks[s - 1 :]):
            return s
    return 0


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicates", type=int, default=100_000)
    ap.add_argument("--ref-replicates", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    data = io.load(Path(__file__).resolve().parent.parent / "data" / "biased_coins.npz")
    R = data.R
    print(f"data: {data.name}, shape {R.shape}; {args.replicates:,} column-wise replicates\n")

    with threadpool_limits(1):
        t0 = time.perf_counter()
        run = convergence_at_n(R, methods=list(METHODS), replicates=args.replicates, seed=args.seed)
        ours = time.perf_counter() - t0
    print(run.summary.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print(
        f"\nours: {ours:.1f} s for {args.replicates:,} replicates x {len(METHODS)} methods "
        f"(target < 60 s)"
    )

    try:
        import scorio.rank as ref
    except ImportError:
        print("reference package missing (pip install -e '.[bench]'): no ratio printed")
        return
    idx = bs.resample_indices(R.shape[2], args.ref_replicates, "column", args.seed)
    gold = ref.bayes(R)
    t0 = time.perf_counter()
    agree = True
    with threadpool_limits(1):
        for mid, (name, kw) in METHODS.items():
            got = [
                _reference_s_star(ref, name, kw, R, idx[b], gold)
                for b in range(args.ref_replicates)
            ]
            agree &= got == run.s_star[mid][: args.ref_replicates].tolist()
    t_ref = (time.perf_counter() - t0) * args.replicates / args.ref_replicates
    print(
        f"reference loop: {t_ref:.0f} s scaled from {args.ref_replicates} replicates "
        f"({t_ref / 3600:.1f} h)"
    )
    print(f"ratio: {t_ref / ours:,.0f}x faster; convergence@n identical on the subsample: {agree}")


if __name__ == "__main__":
    main()
