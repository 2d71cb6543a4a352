"""Question view and Pass@k curves at lab scale (issue 23): 100 models × 500 questions × 64
trials, timed from the outcome tensor to every table and chart spec.

Run: ``python benchmarks/questions.py [--models 100] [--questions 500] [--trials 64]
[--repeats 3]``. Prints each step's first and best-of time; the target for the question view is
under 2 s. A fresh process first imports the IRT rankers and compiles the 2PL kernels
(one-time, its own row).
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


def _data(L: int, M: int, N: int, seed: int = 0):
    from scorio_core import Outcomes

    rng = np.random.default_rng(seed)
    theta, b = rng.normal(size=L), rng.normal(0, 1.5, M)
    a = np.exp(rng.normal(0, 0.3, M))
    p = 1 / (1 + np.exp(-a * (theta[:, None] - b)))
    R = (rng.random((L, M, N)) < p[..., None]).astype(np.int8)
    return Outcomes(R, question_attributes={"source": [f"s{i % 10}" for i in range(M)]})


def _time(fn, repeats: int) -> tuple[float, float]:
    """(first call, best of the next ``repeats``) in seconds."""
    t0 = time.perf_counter()
    fn()
    first = time.perf_counter() - t0
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return first, best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=int, default=100)
    ap.add_argument("--questions", type=int, default=500)
    ap.add_argument("--trials", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    threadpool_limits(1, user_api="blas")  # as the app and the CLI run
    from scorio_core.definitions import ANALYSES

    data = _data(args.models, args.questions, args.trials)
    print(f"# {data.L} models x {data.M} questions x {data.N} trials "
          f"({data.L * data.M * data.N:,} outcomes)\n")
    print("| step | first call (s) | best of next (s) |")
    print("|---|---:|---:|")
    qv, cv = ANALYSES["questions"], ANALYSES["curves"]
    t0 = time.perf_counter()
    from scorio_core.rank import irt

    tiny = np.random.default_rng(1).integers(0, 2, (4, 6, 3)).astype(np.int8)
    irt.rasch_2pl(tiny, return_item_params=True)  # imports and compiles the 2PL kernels
    print(f"| one-time: import the IRT rankers, compile the 2PL kernels (tiny table) | "
          f"{time.perf_counter() - t0:.2f} | |")

    def question_view():
        r = qv.run(data, qv.params())
        qv.tables(r)
        [c.chart.to_dict() for c in qv.charts(r)]

    steps = [
        ("question view (2PL IRT, tables, chart specs)", question_view),
        ("question view without IRT", lambda: qv.tables(qv.run(data, qv.params(irt=False)))),
        ("Pass@k + Pass^k curves, every k, questions scope",
         lambda: cv.run(data, cv.params())),
        ("... population scope", lambda: cv.run(data, cv.params(scope="population"))),
        ("... with G-Pass@k_0.5", lambda: cv.run(data, cv.params(tau=0.5))),
    ]
    for name, fn in steps:
        first, best = _time(fn, args.repeats)
        print(f"| {name} | {first:.2f} | {best:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
