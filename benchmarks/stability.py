"""N = 1 stability of every ranking method on one 20 x 30 x 80 benchmark: CPU time per method.

Run: ``python benchmarks/stability.py [--benchmark "AIME'24"] [--only id,id] [--old PATH]``

Times :func:`scorio_core.engines.stability.low_budget_stability` for all methods of
``rank.METHODS`` on the bundled synthetic benchmark (default AIME'24, 20 x 30 x 80,
greedy trial as R0), end to end, and the per-method piece it runs (the method on
the full data plus on each of the 80 single-trial slices), in process CPU time
(``time.process_time``: on a shared machine wall time mostly measures the
neighbours) and wall time. Each method is called once on one slice first so that
imports and compiled-kernel loading are not counted.

``--old PATH`` runs the same measurement in a subprocess on another checkout's
``scorio_core`` (e.g. ``git archive <commit> | tar -x -C /tmp/base``) and prints old
and new side by side, with the number of slices whose ranking differs between the
two (the sweep's results must be unchanged). ``--emit-json FILE`` only measures and
saves; ``--old FILE.json`` then compares with that saved measurement.

Issue 15 target: the whole N = 1 sweep under 30 s of CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(benchmark: str, only: list[str] | None) -> dict:
    """Per-method CPU/wall seconds and slice ranks, plus the end-to-end sweep time."""
    import numpy as np
    from threadpoolctl import threadpool_limits

    import scorio_core
    from scorio_core import io
    from scorio_core.engines.stability import low_budget_stability, single_trial_ranks
    from scorio_core.rank import METHODS

    data = io.load(ROOT / "data" / "reasoning_synthetic.npz").select(benchmark)
    R, R0 = data.R, data.R0
    ids = only or list(METHODS)
    out = {"core": str(Path(scorio_core.__file__).parent), "shape": list(R.shape), "methods": {}}
    with threadpool_limits(1, user_api="blas"):
        for mid in ids:
            try:
                METHODS[mid](R[:, :, :1], R0)  # warm-up: imports, compiled kernels
            except Exception:  # noqa: BLE001 - methods that need N > 1 are skipped below
                pass
        for mid in ids:
            c0, w0 = time.process_time(), time.perf_counter()
            try:
                METHODS[mid](R, R0)
                ranks = single_trial_ranks(mid, R, R0)
            except Exception as exc:  # noqa: BLE001 - e.g. pass@k with k > 1 at N = 1
                out["methods"][mid] = {"error": type(exc).__name__}
                continue
            out["methods"][mid] = {
                "cpu": time.process_time() - c0,
                "wall": time.perf_counter() - w0,
                "ranks": np.asarray(ranks).astype(float).tolist(),
            }
        c0, w0 = time.process_time(), time.perf_counter()
        low_budget_stability(R, R0, ids)
        out["sweep_cpu"] = time.process_time() - c0
        out["sweep_wall"] = time.perf_counter() - w0
    return out


def _run_old(path: str, benchmark: str, only: str | None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        dest = Path(tmp) / "old.json"
        cmd = [sys.executable, __file__, "--benchmark", benchmark, "--emit-json", str(dest)]
        if only:
            cmd += ["--only", only]
        env = dict(os.environ, PYTHONPATH=str(Path(path).resolve()))
        subprocess.run(cmd, env=env, check=True)
        return json.loads(dest.read_text())


def _differing_slices(a: dict, b: dict, gold) -> str:
    """Slices ranked differently by old and new, and the largest change of τ_b vs gold."""
    import numpy as np

    from scorio_core.engines.agreement import tau_b_to

    if "ranks" not in a or "ranks" not in b:
        return "—"
    ra, rb = np.asarray(a["ranks"]), np.asarray(b["ranks"])
    k = int(np.any(ra != rb, axis=1).sum())
    if k == 0:
        return "0"
    d = np.nanmax(np.abs(tau_b_to(ra, gold) - tau_b_to(rb, gold)))
    return f"{k} (|dtau| <= {d:.3f})"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--benchmark", default="AIME'24")
    ap.add_argument("--only", default=None, help="comma-separated method ids")
    ap.add_argument("--old", default=None, help="root of another checkout to compare with")
    ap.add_argument("--emit-json", default=None,
                    help="only measure, and write the measurement to this JSON file "
                         "(usable later as --old FILE.json)")
    args = ap.parse_args(argv)
    only = args.only.split(",") if args.only else None
    if args.emit_json:
        Path(args.emit_json).write_text(json.dumps(measure(args.benchmark, only)))
        return
    if args.old and args.old.endswith(".json"):
        old = json.loads(Path(args.old).read_text())
    else:
        old = _run_old(args.old, args.benchmark, args.only) if args.old else None
    new = measure(args.benchmark, only)
    print(f"data: {args.benchmark}, shape {tuple(new['shape'])}; new core {new['core']}")
    if old:
        print(f"old core {old['core']}")
    print("times: process CPU (wall) seconds of the method on the full data + every slice\n")
    head = f"{'method':<44} {'new cpu':>8} {'(wall)':>8}"
    if old:
        head += f" {'old cpu':>8} {'(wall)':>8} {'speed-up':>9}  slices differ (tau_b vs gold)"
        from scorio_core import io
        from scorio_core.rank import METHODS

        data = io.load(ROOT / "data" / "reasoning_synthetic.npz").select(args.benchmark)
        gold = METHODS["bayes"](data.R)[0]
    print(head)
    rows = sorted(new["methods"].items(), key=lambda kv: -kv[1].get("cpu", -1))
    tot_new = tot_old = 0.0
    for mid, r in rows:
        if "error" in r:
            print(f"{mid:<44} skipped ({r['error']})")
            continue
        tot_new += r["cpu"]
        line = f"{mid:<44} {r['cpu']:>8.3f} {r['wall']:>8.3f}"
        if old and mid in old["methods"] and "cpu" in old["methods"][mid]:
            o = old["methods"][mid]
            tot_old += o["cpu"]
            line += (f" {o['cpu']:>8.3f} {o['wall']:>8.3f} {o['cpu'] / max(r['cpu'], 1e-9):>8.1f}x"
                     f"  {_differing_slices(o, r, gold)}")
        print(line)
    print(f"\nsum over methods: new {tot_new:.1f} s CPU"
          + (f", old {tot_old:.1f} s" if old else ""))
    line = (f"low_budget_stability end to end: new {new['sweep_cpu']:.1f} s CPU "
            f"({new['sweep_wall']:.1f} s wall)")
    if old:
        line += f", old {old['sweep_cpu']:.1f} s CPU ({old['sweep_wall']:.1f} s wall)"
    print(line + " (target < 30 s CPU)")


if __name__ == "__main__":
    main()
