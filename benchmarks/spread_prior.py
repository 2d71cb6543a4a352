"""p_best with a prior on the field's spread learned from earlier fields, against the flat
prior, with known truth (README "A prior on the field's spread"; issue 20, Known gaps 1).

Run: ``python benchmarks/spread_prior.py [--reps 3000] [--workers 2] [--seed 7] [--quick]
[--histories 5,20] [--real-only | --stylised-only]``

Population scope. Stylised fields (:func:`scorio_core.calibration.p_best_calibration`: L
models with logit abilities ``τ z_i``, ``τ ~ U(0, 0.5)``, shared question difficulty and a
model × question interaction) and sub-fields of L of the bundled JHU run's 9 models
(:func:`~scorio_core.calibration.resample_p_best`, its shares standing in for the truth).
Each cell is run with the flat prior (``history 0``, the default) and with a prior learned
(:func:`scorio_core.spread_prior.prior_from_stats`) from 5 and 20 earlier fields of the same
design -- a fresh history for every 50 fields, so the result averages over histories as a
user's would vary. Printed per cell: the leader's ``p_best`` against how often it was truly
best (all fields, then the fields where ``p_best`` ≥ 0.6), the 0.6–0.8 and 0.8–1.0 bins of
every model's ``p_best``, the largest bin deviation (bins of ≥ 50) and the Brier score.
``--quick``: 300 fields per cell (a smoke run, not a measurement).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this tree's scorio_core, installed or not

from scorio_core import calibration as cal  # noqa: E402
from scorio_core.parallel import Executor  # noqa: E402

#: (L, M, N) of the stylised cells and of the real sub-field cells.
STYLISED = tuple((L, M, N) for L in (3, 5, 8) for M, N in ((15, 4), (15, 8), (30, 4), (30, 8)))
REAL = tuple((L, M, N) for L in (3, 5, 8) for M, N in ((15, 4), (30, 4)))


def _job(kind: str, kwargs: dict):
    if kind == "real":
        return cal.resample_p_best(**kwargs)
    return cal.p_best_calibration(**kwargs)


def _bin(t, label: str) -> str:
    row = t[t["bin"] == label]
    if not len(row) or not row["count"].iloc[0]:
        return "–"
    r = row.iloc[0]
    se = "" if np.isnan(r.se) else f" ± {r.se:.2f}"  # none or all came true: no s.e.
    return f"{r.predicted:.2f} → {r.observed:.2f}{se} ({int(r['count']):,})"


def _pooled(t, lo: float) -> str:
    hi = t[t["predicted"] >= lo]
    n = int(hi["count"].sum())
    if not n:
        return "–"
    pred = float((hi["predicted"] * hi["count"]).sum() / n)
    obs = float((hi["observed"] * hi["count"]).sum() / n)
    return f"{pred:.2f} → {obs:.2f} ± {np.sqrt(obs * (1 - obs) / n):.2f} ({n:,})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3000, help="fields per cell")
    ap.add_argument("--workers", type=int, default=2, help="local Dask workers (0: here)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="300 fields per cell (smoke run)")
    ap.add_argument("--histories", default="5,20",
                    help="earlier fields the learned priors come from (comma-separated)")
    only = ap.add_mutually_exclusive_group()
    only.add_argument("--real-only", action="store_true")
    only.add_argument("--stylised-only", action="store_true")
    args = ap.parse_args(argv)
    reps = 300 if args.quick else args.reps
    histories = [0] + [int(h) for h in args.histories.split(",") if h.strip()]
    cmd = "python benchmarks/spread_prior.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"command: {cmd.strip()}")
    print(f"{reps} fields per cell; population scope; seed {args.seed}; history 0 = the flat "
          "prior (default), otherwise a prior learned from that many earlier fields")
    cells = [] if args.real_only else [("stylised", *c) for c in STYLISED]
    cells += [] if args.stylised_only else [("real", *c) for c in REAL]
    p = None
    if any(c[0] == "real" for c in cells):
        from calibration import real_fields  # benchmarks/calibration.py: the bundled run

        p = next(iter(real_fields().values()))[0]
    jobs = [(kind, dict(M=M, N=N, L=L, scope="population", reps=reps, draws=2000, history=h,
                        seed=args.seed, **({"p": p} if kind == "real" else {})))
            for kind, L, M, N in cells for h in histories]
    t0 = time.perf_counter()
    with Executor(workers=args.workers or None) as ex:
        out = ex.map(_job, jobs, label="cells")
    print("\n| fields | L | M | N | prior | p_best ≥ 0.6 pooled | 0.6–0.8 | 0.8–1.0 | max dev | "
          "Brier |")
    print("|---|---:|---:|---:|---|---|---|---|---:|---:|")
    for (kind, kw), r in zip(jobs, out, strict=True):
        prior = "flat" if not kw["history"] else f"learned ({kw['history']} fields)"
        print(f"| {kind} | {r.L} | {r.M} | {r.N} | {prior} | {_pooled(r.table, 0.6)} | "
              f"{_bin(r.table, '0.6–0.8')} | {_bin(r.table, '0.8–1.0')} | "
              f"{r.max_deviation:.3f} | {r.brier:.4f} |")
    print(f"\n{len(jobs)} cells in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
