"""Every ranking method at a lab's scale: time and peak memory per method.

Run: ``python benchmarks/lab_scale.py [--shape 100,500,64] [--only id,id] [--numpy-oracle]
[--reference]``

On a seeded synthetic tensor (default 100 models x 500 questions x 64 trials, int8,
abilities and difficulties drawn from a Rasch model) every method of
``rank.METHODS`` is called twice in this process:

* ``first``: the first call, wall time. It includes one-off costs: imports, and for
  the sequential ratings loading numba's cached machine code (or compiling it,
  ~1-3 s per kernel, when the cache next to ``rank/_seq_kernels.py`` is missing or
  stale).
* ``warm``: the second call, wall and CPU time, under ``tracemalloc``; ``peak`` is
  tracemalloc's peak of Python/numpy allocations during that call above what was
  allocated before it (numba's kernel-internal arrays are O(L) and not traced).

Issue 15 targets: all methods under 30 s in total on 2 cores, none above 5 s; peak
memory of any method under 300 MB.

``--numpy-oracle`` also times the pre-numba numpy round loops of Elo, Glicko and
TrueSkill (kept as ``tests/rank/_sequential_numpy.py``) on the same tensor and prints
the speed-up. ``--reference`` then runs ``benchmarks/rankers.py`` (ours vs the
reference package on AIME'24, 20 x 30 x 80).
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parent.parent


def lab_tensor(L: int, M: int, N: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Rasch outcomes ``(L, M, N)`` int8 and a one-trial greedy ``R0``."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(0.0, 1.0, L)
    b = rng.normal(0.0, 1.2, M)
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - b[None, :])))
    R = (rng.random((L, M, N)) < p[:, :, None]).astype(np.int8)
    R0 = (rng.random((L, M, 1)) < p[:, :, None]).astype(np.int8)
    return R, R0


def measure(fn) -> tuple[float, float, float, float]:
    """(first wall s, warm wall s, warm CPU s, warm peak MB)."""
    t0 = time.perf_counter()
    fn()
    first = time.perf_counter() - t0
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    w0, c0 = time.perf_counter(), time.process_time()
    fn()
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return first, wall, cpu, peak / 2**20


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shape", default="100,500,64", help="L,M,N")
    ap.add_argument("--only", default=None, help="comma-separated method ids")
    ap.add_argument("--numpy-oracle", action="store_true")
    ap.add_argument("--reference", action="store_true")
    args = ap.parse_args(argv)
    L, M, N = (int(v) for v in args.shape.split(","))

    t0 = time.perf_counter()
    from scorio_core.rank import METHODS

    print(f"import scorio_core.rank: {time.perf_counter() - t0:.2f} s")
    R, R0 = lab_tensor(L, M, N)
    print(f"data: synthetic Rasch, shape {R.shape}, {R.dtype}, {R.nbytes / 2**20:.1f} MB\n")
    ids = args.only.split(",") if args.only else list(METHODS)
    print(f"{'method':<48} {'first':>8} {'warm':>8} {'cpu':>8} {'peak MB':>8}")
    total = total_cpu = 0.0
    rows = []
    for mid in ids:
        m = METHODS[mid]
        if N < m.min_trials:
            continue
        first, wall, cpu, peak = measure(lambda m=m: m(R, R0))
        total += wall
        total_cpu += cpu
        rows.append((mid, wall, peak, cpu))
        print(f"{mid:<48} {first:>7.2f}s {wall:>7.2f}s {cpu:>7.2f}s {peak:>8.1f}", flush=True)
    slow = [f"{m} ({w:.1f} s wall, {c:.1f} s CPU)" for m, w, _, c in rows if w > 5.0]
    big = [f"{m} ({p:.0f} MB)" for m, _, p, _ in rows if p > 300.0]
    print(
        f"\ntotal warm: {total:.1f} s wall, {total_cpu:.1f} s CPU over {len(rows)} methods "
        "(target < 30 s)"
    )
    print("above 5 s:", ", ".join(slow) or "none")
    top = max(rows, key=lambda r: r[2])
    print(f"largest peak: {top[0]} ({top[2]:.0f} MB); above 300 MB:", ", ".join(big) or "none")

    if args.numpy_oracle:
        sys.path.insert(0, str(ROOT / "tests" / "rank"))
        import _sequential_numpy as old

        print(f"\nsequential ratings: numba kernels vs the previous numpy loops on {R.shape}")
        print("(CPU seconds: on a shared machine wall time mostly measures the other load)")
        print(f"{'method':<32} {'numba':>8} {'numpy':>8} {'speed-up':>9}")
        calls = [
            (f"elo_tie_{p}", lambda p=p: old.elo(R, K=0.05, tie_handling=p))
            for p in ("skip", "draw", "correct_draw_only")
        ]
        calls += [
            (f"glicko_tie_{p}", lambda p=p: old.glicko(R, tie_handling=p))
            for p in ("skip", "draw", "correct_draw_only")
        ]
        calls.append(("trueskill", lambda: old.trueskill(R, tau=0.00333333333)))
        cpu_new = {m: c for m, _, _, c in rows}
        for mid, fn in calls:
            if mid not in cpu_new:
                continue
            c0 = time.process_time()
            fn()
            c_old = time.process_time() - c0
            print(
                f"{mid:<32} {cpu_new[mid]:>7.2f}s {c_old:>7.2f}s "
                f"{c_old / max(cpu_new[mid], 1e-9):>8.1f}x",
                flush=True,
            )

    if args.reference:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        import rankers

        print("\nours vs the reference package (benchmarks/rankers.py, AIME'24 20 x 30 x 80):")
        rankers.main(["--repeat", "1"])


if __name__ == "__main__":
    # one BLAS thread, as in rankers.py: thread hand-off dominates the small products
    with threadpool_limits(1, user_api="blas"):
        main()
