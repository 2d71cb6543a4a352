"""Does a run's shares stand in for the truth? The premise of *Check a smaller run*
(:mod:`scorio_core.smaller_run`), measured with known truth.

Run: ``python benchmarks/stand_in.py [--reps 400] [--seed 11]``

Three tables of known per-question probabilities (6 models × 200 questions, shared question
difficulty, a model × question interaction, three near-tied leaders): U-shaped, skewed easy
(mean about 0.8) and hard (mean about 0.15). For each, smaller runs of 30 questions × 4
trials are drawn (:func:`scorio_core.calibration.resample_check` and
:func:`~scorio_core.calibration.resample_p_best`, both scopes) once from the *true*
probabilities and once from the shares of one simulated run with ``N₀`` = 16, 32 and 100
trials per question -- what the check does with a user's run. If the shares stand in for
the truth, each stand-in row reads like its table's ``truth`` row.

Printed per scope: coverage of the headline intervals, the share of runs with a wrong-way
decision (Holm), and the top ``p_best`` bin (mean prediction -> share truly first, entries).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy import special

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this tree's scorio_core, installed or not

from scorio_core import Outcomes  # noqa: E402
from scorio_core import calibration as cal  # noqa: E402
from scorio_core.smaller_run import stand_in_truth  # noqa: E402

#: name -> (mean and s.d. of the question difficulty, the six abilities) on the logit scale.
TABLES = {
    "u-shaped": ((0.0, 3.0), (0.2, 0.15, 0.1, 0.0, -0.1, -0.4)),
    "skewed": ((-1.5, 1.5), (0.3, 0.25, 0.2, 0.0, -0.3, -0.6)),
    "hard": ((2.0, 1.5), (0.4, 0.3, 0.3, 0.1, -0.2, -0.5)),
}
SOURCES = (16, 32, 100)
Q, INTERACTION, M, N = 200, 0.7, 30, 4


def truth(name: str, rng: np.random.Generator) -> np.ndarray:
    (mu, sd), theta = TABLES[name]
    b = rng.normal(mu, sd, Q)
    theta = np.asarray(theta)
    return special.expit(theta[:, None] - b[None, :]
                         - INTERACTION * rng.standard_normal((theta.size, Q)))


def row(p: np.ndarray, reps: int) -> list[str]:
    out = []
    for scope in ("questions", "population"):
        c = cal.resample_check(p, M, N, scope=scope, reps=reps, seed=1)
        b = cal.resample_p_best(p, M, N, scope=scope, reps=reps, seed=1)
        top = b.table.iloc[-1]
        out += [f"{c.coverage:.3f}", f"{c.false_decisions:.3f}",
                f"{top['predicted']:.2f} -> {top['observed']:.2f} ({int(top['count'])})"]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    print(f"Smaller runs of {M} questions x {N} trials, {args.reps} per cell; 6 models x {Q} "
          "questions per table\n")
    print("| table | source | questions: coverage | wrong-way | top p_best bin | "
          "population: coverage | wrong-way | top p_best bin |")
    print("|---|---|---:|---:|---|---:|---:|---|")
    for name in TABLES:
        rng = np.random.default_rng(args.seed)
        p = truth(name, rng)
        sources = {"truth": p}
        for n0 in SOURCES:
            R = (rng.random((*p.shape, n0)) < p[..., None]).astype(np.int8)
            sources[f"shares of N0 = {n0}"] = stand_in_truth(Outcomes(R))[0]
        for source, q in sources.items():
            print(f"| {name} | {source} | " + " | ".join(row(q, args.reps)) + " |", flush=True)
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
