"""Peak memory and time of reading harness logs -- HELM runs, folders of Inspect logs --
and of the advice after a failed load: this tree vs a previous one, side by side.

Run: ``python benchmarks/harness_read_memory.py [--instances 5000] [--tasks 40]
[--samples 60] [--repeat 1] [--traced] [--previous REV]`` (``--previous`` defaults to
``HEAD``: the tree as last committed, read with ``git archive`` into a temporary folder).

Cases, each loaded in a fresh interpreter per tree, alternately:

* ``helm fixture``: the largest HELM run of the fixtures (simple_mcqa, written by helm-run).
* ``helm synthetic``: a HELM run of ``--instances`` instances x 3 train trials in helm-run's
  on-disk shape (``sample_store_memory.write_run``: prompts of ~3,000 characters), whose
  ``per_instance_stats.json`` records carry every stat helm-run writes for simple_mcqa (27
  per record, as in the fixture): 56 MiB of stats and 92 MiB of request states at 5,000.
* ``inspect .json``: a folder of ``--tasks`` tasks x 2 models of Inspect ``.json`` logs,
  ``--samples`` samples each carrying ~24,000 characters of events (what a model call
  logs): loaded whole, then with ``benchmark=`` one task.
* ``advice .json`` / ``advice .eval``: the same folder as ``.json`` and as ``.eval``
  logs loaded with a scorer no log has: the load fails, and before saying so it tries
  other tasks alone (``_dispatch._failed_log_hint``) -- the time to the message.

Printed per case and tree: peak resident memory over the interpreter's after its imports
(``VmHWM`` reset through ``/proc/self/clear_refs``, Linux; MiB; about 100 MiB of it is what
the first load takes whatever the file, the same in both trees), with ``--traced`` the
peak of Python's allocations (``tracemalloc``, slower; ~29 MiB is that first load's),
wall seconds, how many whole JSON files were parsed (``json.loads`` of more than
64 KiB) and a digest of what was loaded (the outcomes and the sample store's rows, or the
error's message): both trees must load the same.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
from _timing import previous_tree  # noqa: E402
from fixtures import make_logs as mk  # noqa: E402
from sample_store_memory import FIXTURE, write_run  # noqa: E402

ROOT = HERE.parent
_LOAD = """
import hashlib, json, re, sys, time, tracemalloc
sys.path.insert(0, {src!r})
import polars as pl
import scorio_core as sc
import scorio_core.io
loads, whole = json.loads, [0]
def counted(s, *a, **k):
    whole[0] += len(s) > 2**16
    return loads(s, *a, **k)
json.loads = counted
def kib(key):
    return int(re.search(key + r":\\s+(\\d+)", open("/proc/self/status").read())[1])
with open("/proc/self/clear_refs", "w") as fh:  # the peak (VmHWM) counted from here
    fh.write("5")
base = kib("VmRSS")
if {traced}:
    tracemalloc.start()
t0 = time.perf_counter()
try:
    o = sc.io.load({path!r}, **{kw!r})
    digest = hashlib.sha256(o.R.tobytes() + repr((o.models, o.questions)).encode())
    if o.samples is not None:
        rows = pl.concat([pl.read_parquet(f) for f in o.samples.files])
        digest.update(str(int(rows.hash_rows(seed=0).sum())).encode())
    what = f"{{o.shape}}"
except sc.io.ValidationError as exc:
    digest, what = hashlib.sha256(str(exc).encode()), "refused"
wall = time.perf_counter() - t0
traced = tracemalloc.get_traced_memory()[1] / 2**20 if {traced} else float("nan")
peak = (kib("VmHWM") - base) / 1024
print(sc.__file__, peak, traced, wall, whole[0], digest.hexdigest()[:12], what)
"""


def helm_run(folder: Path, instances: int) -> Path:
    """``write_run``'s synthetic HELM run with realistic ``per_instance_stats.json``
    records: the fixture's 27 stats each, ``exact_match`` set to the run's outcome."""
    run = write_run(folder, instances)
    stats = json.loads((next(FIXTURE.glob("*alpha")) / "per_instance_stats.json")
                       .read_text())[0]["stats"]
    records = []
    for r in json.loads((run / "per_instance_stats.json").read_text()):
        v = r["stats"][0]["mean"]
        records.append({**r, "stats": [
            s | ({"sum": v, "sum_squared": v, "min": v, "max": v, "mean": v}
                 if s["name"]["name"] == "exact_match" else {}) for s in stats]})
    (run / "per_instance_stats.json").write_text(json.dumps(records, separators=(",", ":")))
    return run


def inspect_logs(folder: Path, tasks: int, samples: int, suffix: str) -> Path:
    """``tasks`` x 2 models of Inspect logs (``.json`` or ``.eval``, in the shape of
    ``tests/fixtures/make_logs.py``), each sample with a model event of ~24,000 characters."""
    rng = np.random.default_rng(0)
    ids = list(range(1, samples + 1))
    words = np.array(["the", "answer", "is", "of", "number", "which", "step", "so", "then"])
    d = folder / suffix.lstrip(".")
    d.mkdir()
    for t in range(tasks):
        for model in ("org/alpha", "org/beta"):
            values = (rng.random((samples, 1)) < 0.6).astype(int)
            log = mk.inspect_samples(values, ids)
            for s in log:
                s["events"] = [{"event": "model", "input": [
                    {"role": "user", "content": " ".join(rng.choice(words, 4000))}]}]
            task, path = f"task{t:02d}", d / f"{model[4:]}_task{t:02d}{suffix}"
            spec = mk._inspect_spec(model, task, ids, 1)
            head = {"version": 2, "status": "success", "eval": spec, "plan": mk._plan(),
                    "results": {"total_samples": samples, "completed_samples": samples,
                                "scores": []}, "stats": {}}
            if suffix == ".json":
                path.write_text(json.dumps(head | {"samples": log, "reductions": []}))
            else:
                mk.write_zip(path, [(f"samples/{s['id']}_epoch_1.json", json.dumps(s).encode())
                                    for s in log] + [
                    ("summaries.json", json.dumps([mk._summary(s) for s in log]).encode()),
                    ("header.json", json.dumps(head).encode())])
    return d


def load(src: Path, path: Path, kw: dict, traced: bool) -> tuple:
    """(peak MiB, traced MiB, seconds, whole JSON parses, digest, what) of one load."""
    code = _LOAD.format(src=str(src), path=str(path), kw=kw, traced=traced)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=tempfile.gettempdir())
    file, peak, tm, wall, whole, digest, what = out.stdout.split(maxsplit=6)
    assert Path(file).is_relative_to(src), f"{file} was imported, not the tree at {src}"
    return float(peak), float(tm), float(wall), int(whole), digest, what.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", type=int, default=5000, help="of the synthetic HELM run")
    ap.add_argument("--tasks", type=int, default=40, help="of the Inspect folders")
    ap.add_argument("--samples", type=int, default=60, help="per Inspect log")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--traced", action="store_true", help="also tracemalloc's peak")
    ap.add_argument("--previous", default="HEAD")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, previous_tree(ROOT, args.previous) as old:
        root = Path(tmp)
        fixture = root / "fixture" / next(FIXTURE.glob("*alpha")).name
        shutil.copytree(next(FIXTURE.glob("*alpha")), fixture)
        run = helm_run(root / "synthetic", args.instances)
        as_json = inspect_logs(root, args.tasks, args.samples, ".json")
        as_eval = inspect_logs(root, args.tasks, args.samples, ".eval")
        mib = [sum(p.stat().st_size for p in files) / 2**20 for files in (
            [run / "per_instance_stats.json"], [run / "scenario_state.json"],
            as_json.iterdir())]
        print(f"synthetic HELM run: {args.instances:,} instances x 3 trials, "
              f"per_instance_stats.json {mib[0]:.0f} MiB, scenario_state.json {mib[1]:.0f} "
              f"MiB; Inspect folders: {args.tasks} tasks x 2 models, {args.samples} samples "
              f"per log, {mib[2]:.0f} MiB of .json")
        cases = {
            "helm fixture": (fixture, {}),
            "helm synthetic": (run, {}),
            "helm synthetic, no texts": (run, {"samples": "skip"}),
            "inspect .json folder": (as_json, {}),
            "inspect .json, one task": (as_json, {"benchmark": "task00"}),
            "advice .json (no such scorer)": (as_json, {"scorer": "nope"}),
            "advice .eval (no such scorer)": (as_eval, {"scorer": "nope"}),
        }
        trees = {"now": ROOT, "previous": old}
        print(f"\n{'case':<31} {'tree':<9} {'peak RSS':>9} {'traced':>9} {'wall':>8} "
              f"{'parsed':>7}  digest")
        for case, (path, kw) in cases.items():
            res = {k: [load(src, path, kw, args.traced) for _ in range(args.repeat)]
                   for k, src in trees.items()}
            for k, rows in res.items():
                peak, tm, wall = (statistics.median(r[i] for r in rows) for i in range(3))
                print(f"{case if k == 'now' else '':<31} {k:<9} {peak:>5.0f} MiB "
                      f"{tm:>5.0f} MiB {wall:>6.2f} s {rows[0][3]:>7}  {rows[0][4]} "
                      f"{rows[0][5]}")
            same = {r[4] for rows in res.values() for r in rows}
            print(f"{'':<31} same result: {'yes' if len(same) == 1 else 'NO'}")


if __name__ == "__main__":
    main()
