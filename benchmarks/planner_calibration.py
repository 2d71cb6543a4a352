"""Calibration of the Planner (SPEC §4, issue 20): do the planned data decide the pairs as
often as stated, does a plan decide every true lead of at least its stated gap
(``trials_gap`` / ``questions_gap``) as often as stated, is "cannot be settled by more
trials" a calibrated probability, and does the recommended split of extra trials beat an
even split -- all with known truth.

Run: ``python benchmarks/planner_calibration.py [--reps 200] [--alloc-reps 150]
[--workers 2] [--seed 0] [--quick] [--real [--real-reps 500]] [--max-trials 100000]
[--max-questions 4000]``

Fields of 5 models (6 for the allocation) with shared question difficulty and a model ×
question interaction (:mod:`scorio_core.plan_calibration`), binary and -- in three cells --
three outcomes weighted (0, 0.5, 1) around the same scores: each replicate runs
``scorio_core.planner.plan`` on ``N`` trials, then draws the trials or questions the plan
names and decides again with the leaderboard's own statistics. Printed beside our plan:
the papers' expected-z rule (``trials_needed_papers``), which the old Planner reported as
"trials needed". ``--quick``: 40 / 30 replicates (a smoke run, not a measurement).
``--real`` adds rows ("real") on fields resampled from the bundled JHU run, whose shares
(100 trials per question) stand in for the truth: 5 of its 9 models and M of its 100
questions per field (``plan_calibration.resample_assurance``), and 6 models for the budget
split (``resample_allocation``). ``--max-trials`` / ``--max-questions``: the largest plans
drawn (default: every trial plan, question plans up to 4,000 questions; larger plans are
counted in "beyond the limits"); ``--max-questions 1000000`` draws every plan (population
question plans at 30/4 mostly ask for more than 4,000 questions, and drawing them takes
about 7 times as long).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this tree's scorio_core, installed or not

from scorio_core import plan_calibration as pc  # noqa: E402
from scorio_core.parallel import Executor  # noqa: E402

#: (scope, M, N) of the assurance study; (scope, spread, M, N) of the allocation study.
ASSURANCE_CELLS = (
    ("questions", 15, 8), ("questions", 30, 4), ("questions", 100, 2), ("questions", 100, 8),
    ("population", 30, 4), ("population", 100, 8), ("population", 100, 32),
)
#: (scope, M, N) of the assurance study on weighted categories (0, 0.5, 1).
CATEGORICAL_CELLS = (("questions", 30, 4), ("population", 30, 4), ("population", 100, 8))
ALLOCATION_CELLS = (
    ("questions", "even", 30, 4), ("questions", "random", 30, 4),
    ("questions", "even", 100, 8), ("population", "even", 100, 8),
)
#: (scope, M, N) of the studies on the real run (``--real``): assurance, and the budget split.
REAL_CELLS = (("questions", 30, 4), ("questions", 100, 8), ("population", 30, 4),
              ("population", 100, 8))
REAL_ALLOCATION_CELLS = (("questions", 30, 4), ("population", 30, 4))


def _job(kind: str, kwargs: dict):
    return getattr(pc, kind)(**kwargs)


def _pct(x: float) -> str:
    return "–" if x != x else f"{100 * x:.0f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=200, help="fields per assurance cell")
    ap.add_argument("--alloc-reps", type=int, default=150, help="fields per allocation cell")
    ap.add_argument("--workers", type=int, default=2, help="local Dask workers (0: here)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="40 / 30 replicates (smoke run)")
    ap.add_argument("--real", action="store_true",
                    help="add rows on fields resampled from the bundled real run")
    ap.add_argument("--real-reps", type=int, default=500, help="fields per real cell")
    ap.add_argument("--max-trials", type=int, default=pc.MAX_REALISED[0],
                    help="largest trial plan drawn (100000: every plan)")
    ap.add_argument("--max-questions", type=int, default=pc.MAX_REALISED[1],
                    help="largest question plan drawn (1000000: every plan)")
    args = ap.parse_args(argv)
    if args.quick:
        args.reps, args.alloc_reps, args.real_reps = 40, 30, 40
    cmd = "python benchmarks/planner_calibration.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    print(f"command: {cmd.strip()}")
    print(f"replicates: {args.reps} per assurance cell, {args.alloc_reps} per allocation cell"
          + (f", {args.real_reps} per real cell" if args.real else "")
          + f"; seed {args.seed}; decisions at 95 %, Holm; target chance 80 %; plans drawn "
          f"up to {args.max_trials:,} trials per question and {args.max_questions:,} questions")
    cells = ([("binary", *c) for c in ASSURANCE_CELLS]
             + [("categorical", *c) for c in CATEGORICAL_CELLS])
    jobs = [("assurance_check", dict(M=M, N=N, scope=s, reps=args.reps, seed=args.seed,
                                     categorical=kind == "categorical",
                                     max_trials=args.max_trials, max_questions=args.max_questions))
            for kind, s, M, N in cells]
    splits = [("allocation_check", dict(M=M, N=N, scope=s, spread=sp, reps=args.alloc_reps,
                                        seed=args.seed))
              for s, sp, M, N in ALLOCATION_CELLS]
    if args.real:
        from calibration import real_fields  # benchmarks/calibration.py: the bundled run

        p = next(iter(real_fields().values()))[0]
        cells += [("real", *c) for c in REAL_CELLS]
        jobs += [("resample_assurance", dict(p=p, M=M, N=N, scope=s, L=5, reps=args.real_reps,
                                             multiples=(2, 8, 64), seed=args.seed,
                                             max_trials=args.max_trials,
                                             max_questions=args.max_questions))
                 for s, M, N in REAL_CELLS]
        splits += [("resample_allocation", dict(p=p, M=M, N=N, scope=s, L=6,
                                                reps=args.real_reps, seed=args.seed))
                   for s, M, N in REAL_ALLOCATION_CELLS]
    t0 = time.perf_counter()
    with Executor(workers=args.workers or None) as ex:
        out = ex.map(_job, jobs + splits, label="cells")
    res_a, res_b = out[: len(cells)], out[len(cells):]
    kinds = [c[0] for c in cells]

    print("\n## Planned data: how often the pair is then decided (target 80 %)\n")
    print("| outcomes | scope | M | N | trials_needed: pairs | decided % | questions_needed: "
          "pairs | decided % | papers' rule: pairs | decided % | beyond the limits |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for o, r in zip(kinds, res_a, strict=True):
        print(f"| {o} | {r.scope} | {r.M} | {r.N} | {r.planned} | {_pct(r.realised)} "
              f"(± {_pct(r.realised_se)}) | {r.q_planned} | {_pct(r.q_realised)} | "
              f"{r.papers_planned} | {_pct(r.papers_realised)} | {r.skipped} |")
    print("\n## Stated gaps: of the plans whose better model truly leads by at least "
          "trials_gap / questions_gap, the share decided (target: at least 80 % on any field; "
          "no prior on the lead)\n")
    print("| outcomes | scope | M | N | plan | plans | lead ≥ gap: plans | decided % | lead "
          "within 1.5 × gap: plans | decided % |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---:|")
    for o, r in zip(kinds, res_a, strict=True):
        for _, d in r.detectable().iterrows():
            print(f"| {o} | {r.scope} | {r.M} | {r.N} | {d['kind']} | {d['plans']} | "
                  f"{d['lead_at_least_gap']} | {_pct(d['decided'])} (± {_pct(d['se'])}) | "
                  f"{d['lead_within_1.5x']} | {_pct(d['decided_near'])} |")
    print("\n## The plan's chance of a decision at the true gap vs realised (every realised "
          "plan; the law the stated gaps invert)\n")
    print("| outcomes | scope | M | N | predicted bin | plans | predicted | realised | se |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|")
    for o, r in zip(kinds, res_a, strict=True):
        for _, b in r.at_truth_bins().iterrows():
            if b["count"] >= 5:
                print(f"| {o} | {r.scope} | {r.M} | {r.N} | {b['bin']} | {b['count']} | "
                      f"{b['predicted']:.2f} | {b['observed']:.2f} | {b['se']:.2f} |")
    print("\n## Predicted chance of a decision at 2N, 8N, 64N trials vs realised "
          "(every undecided adjacent pair; in the population scope 64N ≈ any number of trials, "
          "so these rows check p_unsettled)\n")
    print("| outcomes | scope | M | N | × N | predicted bin | pairs | predicted | realised | "
          "se |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|---:|")
    for o, r in zip(kinds, res_a, strict=True):
        for _, b in r.bins.iterrows():
            if b["count"] >= 5:
                print(f"| {o} | {r.scope} | {r.M} | {r.N} | {b['multiple']} | {b['bin']} | "
                      f"{b['count']} | {b['predicted']:.2f} | {b['observed']:.2f} | "
                      f"{b['se']:.2f} |")
    print("\n## Budget of 3 L extra trials per question: pairs decided in the true order "
          "(same extra draws for every split; abilities \"table\": the real run)\n")
    print("| scope | abilities | M | N | fields | before | greedy | even | recommended | "
          "recommended − even (se) | greedy chosen % | claimed gain | realised gain (se) | "
          "decided pairs expected → left (se) | wrong order |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in res_b:
        claimed = "–" if r.claimed_gain != r.claimed_gain else f"{r.claimed_gain:.2f}"
        realised = ("–" if r.realised_gain != r.realised_gain else f"{r.realised_gain:.2f}"
                    + ("" if r.realised_gain_se != r.realised_gain_se
                       else f" ({r.realised_gain_se:.2f})"))
        print(f"| {r.scope} | {r.spread} | {r.M} | {r.N} | {r.reps} | {r.before:.2f} | "
              f"{r.greedy:.2f} | {r.uniform:.2f} | {r.chosen:.2f} | "
              f"{r.chosen - r.uniform:+.2f} ({r.chosen_gain_se:.2f}) | "
              f"{100 * r.greedy_share:.0f} | {claimed} | {realised} | "
              f"{r.expected:.2f} → {r.decided:.2f} ({r.decided_se:.2f}) | "
              f"{r.wrong_chosen:.2f} |")
    print(f"\nelapsed: {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
