"""Peak memory of loading a HELM run with long texts: this tree vs the previous store assembly.

Run: ``python benchmarks/sample_store_memory.py [--scale 1.0] [--repeat 3] [--previous REV]``
(``--previous`` defaults to the last commit that sorted a log's texts at once, read with
``git archive`` into a temporary folder).

Writes a synthetic HELM run in helm-run's on-disk shape (``run_spec.json``,
``scenario_state.json``, ``per_instance_stats.json``, ``stats.json``; see
``tests/fixtures/helm_runs.py``): 20,000 instances x 3 train trials = 60,000 request
states, each with a prompt of about 3,000 characters (the instructions and the trial's
in-context examples, then the question) and a completion with its tokens -- a
``scenario_state.json`` of about 375 MiB at ``--scale 1`` (``--scale`` multiplies the
instances). Then, in a fresh interpreter per load, ``scorio_core.io.load(run)`` with the
completion texts kept (the default) for each tree, alternately, ``--repeat`` times: peak
resident memory over the interpreter after its imports (``ru_maxrss``) and wall seconds,
and a digest of every row of the sample store (both trees must write the same rows in the
same order). The texts are spilled to scratch Parquet as the file is read; what this
compares is the assembly of the store from them (``scorio_core.samples.SampleWriter.add``:
the previous code sorted every text at once, this one sorts the keys and writes the file a
band of row groups at a time). A third row loads with this tree but the freed memory kept
(``scorio_core.io._logs.trim_heap`` a no-op, as on a C library without ``malloc_trim``):
glibc keeps the pages of the log's freed strings, and the store's Parquet and frames, which
polars allocates with its own allocator, add to them.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import previous_tree  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "harness" / "helm" / "simple_mcqa"
#: The last commit whose SampleWriter.add sorted a log's texts in one frame.
PREVIOUS = "ff2e83e"
_LOAD = """
import resource, sys, time
sys.path.insert(0, {src!r})
import polars as pl
import scorio_core as sc
import scorio_core.io
import scorio_core.io._logs
if {untrimmed}:
    scorio_core.io._logs.trim_heap = lambda: False
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
data = sc.io.load({run!r})
wall = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
store = data.samples
rows = pl.concat([pl.read_parquet(f) for f in store.files])
print(sc.__file__, (peak - base) / 1024, wall, len(store), int(rows.hash_rows(seed=0).sum()))
"""


def write_run(folder: Path, instances: int, trials: int = 3, chars: int = 3000) -> Path:
    """A HELM run of ``instances`` x ``trials`` request states with ~``chars``-character
    prompts (seeded): the fixture's run_spec.json and scenario.json, edited."""
    rng = np.random.default_rng(0)
    src = next(FIXTURE.glob("*alpha"))
    run = folder / "synth_mcqa__model=org_big"
    run.mkdir(parents=True)
    spec = json.loads((src / "run_spec.json").read_text())
    spec["name"] = "synth_mcqa:model=org/big"
    spec["adapter_spec"].update(model="org/big", model_deployment="org/big",
                                num_train_trials=trials, max_eval_instances=instances)
    (run / "run_spec.json").write_text(json.dumps(spec, indent=2))
    shutil.copy(src / "scenario.json", run / "scenario.json")
    words = np.array(["even", "odd", "number", "question", "answer", "the", "is", "of",
                      "letter", "choice", "seventy", "forty", "Which", "shown", "A.", "B."])
    hits = rng.random((instances, trials)) < rng.uniform(0.1, 0.9, instances)[:, None]
    tokens = [{"text": w, "logprob": -1.5} for w in words[:5]] * 9
    with open(run / "scenario_state.json", "w") as fh:
        fh.write('{"adapter_spec": ' + json.dumps(spec["adapter_spec"]) + ', "request_states": [')
        sep = ""
        for t in range(trials):
            # the train trial's in-context examples, shared by its requests (as in HELM)
            shots = " ".join(rng.choice(words, chars // 6))[: chars - 200]
            for i in range(instances):
                q = f"Is {i} even or odd? " + " ".join(rng.choice(words, 12))
                out = "A" if hits[i, t] else "B"
                rs = {
                    "instance": {"input": {"text": q},
                                 "references": [{"output": {"text": "Even"}, "tags": ["correct"]},
                                                {"output": {"text": "Odd"}, "tags": []}],
                                 "split": "test", "id": f"id{i}"},
                    "train_trial_index": t,
                    "output_mapping": {"A": "Even", "B": "Odd"},
                    "request": {"model_deployment": "org/big", "model": "org/big",
                                "prompt": "Answer the following questions with a single letter "
                                          f"only.\n\n{shots}\n\nQuestion: {q}\nA. Even\nB. Odd\n"
                                          "Answer:",
                                "temperature": 0.0, "num_completions": 1, "max_tokens": 5},
                    "result": {"success": True, "completions": [
                        {"text": out, "logprob": -0.1,
                         "tokens": [{"text": out, "logprob": -0.1}, *tokens]}]},
                    "num_train_instances": 5, "prompt_truncated": False,
                }
                fh.write(sep + json.dumps(rs, indent=1))
                sep = ", "
        fh.write("]}")
    stats = [{"instance_id": f"id{i}", "train_trial_index": t,
              "stats": [{"name": {"name": "exact_match", "split": "test"}, "count": 1,
                         "sum": float(hits[i, t]), "mean": float(hits[i, t])}]}
             for i in range(instances) for t in range(trials)]
    (run / "per_instance_stats.json").write_text(json.dumps(stats))
    (run / "stats.json").write_text(json.dumps(
        [{"name": {"name": "exact_match", "split": "test"}, "count": trials,
          "mean": float(hits.mean())}]))
    return run


def load(src: Path, run: Path, untrimmed: bool = False) -> tuple[float, float, int, int]:
    """(peak MiB over the imports, seconds, store rows, rows digest) of one load of ``run``
    by the package at ``src``, in a fresh interpreter; ``untrimmed``: without giving freed
    memory back (this tree only)."""
    code = _LOAD.format(src=str(src), run=str(run), untrimmed=untrimmed)
    out = subprocess.run([sys.executable, "-c", code],
                         capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
    file, peak, wall, n, digest = out.stdout.split()
    assert Path(file).is_relative_to(src), f"{file} was imported, not the tree at {src}"
    return float(peak), float(wall), int(n), int(digest)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="times 20,000 instances")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--previous", default=PREVIOUS)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, previous_tree(ROOT, args.previous) as old:
        run = write_run(Path(tmp), max(1, round(20_000 * args.scale)))
        size = (run / "scenario_state.json").stat().st_size / 2**20
        print(f"synthetic HELM run: scenario_state.json {size:.0f} MiB")
        res: dict[str, list] = {"now": [], "untrimmed": [], "previous": []}
        for _ in range(args.repeat):  # alternately, so all see the same machine load
            res["now"].append(load(ROOT, run))
            res["untrimmed"].append(load(ROOT, run, untrimmed=True))
            res["previous"].append(load(old, run))
    print(f"\n{'io.load, texts kept':<30} {'peak RSS':>12} {'wall':>9}   (median of {args.repeat})")
    med = {k: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v))
           for k, v in res.items()}
    labels = {"now": "this tree", "untrimmed": "this tree, freed memory kept",
              "previous": f"previous ({args.previous})"}
    for k, (peak, wall) in med.items():
        label = labels[k]
        print(f"{label:<30} {peak:>8.0f} MiB {wall:>7.2f} s")
    (pn, wn), (pp, wp) = med["now"], med["previous"]
    print(f"{'ratio now / previous':<30} {pn / pp:>12.2f} {wn / wp:>9.2f}")
    same = {(r[2], r[3]) for v in res.values() for r in v}
    print(f"same store rows in the same order: {'yes' if len(same) == 1 else 'NO'} "
          f"({next(iter(same))[0]:,} completions)")


if __name__ == "__main__":
    main()
