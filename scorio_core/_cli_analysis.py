"""Output of the ``compare``, ``convergence``, ``stability`` and ``greedy`` CLI commands.

Each command builds its analysis's ``Params`` from the flags, runs the one
definition in :mod:`scorio_core.analyses` (progress on stderr) and prints that
definition's tables: ``text`` for people, ``csv`` (under a commented
``# key: value`` provenance header) and ``json`` (with a ``provenance`` object)
for scripts. The page, the report and the notebook render the same definitions.
"""

from __future__ import annotations

import json
import math

import pandas as pd

from . import io
from ._validation import json_safe

__all__ = ["apply_rubric", "compare", "convergence", "greedy", "rubric", "stability"]


def _plain_json(payload) -> str:
    return json.dumps(json_safe(payload), indent=2, allow_nan=False) + "\n"


def _header(data, what: str) -> str:
    L, M, N = data.R.shape
    return f"# {what} on {data.name} ({L} models x {M} questions x {N} trials)\n"


def _progress(label: str):
    """Progress of a long run on stderr (stdout stays the table)."""
    from .cli import StderrProgress

    return StderrProgress(label)


def _skipped(skipped: dict[str, str]) -> str:
    return "".join(f"# skipped {m}: {why}\n" for m, why in skipped.items())


def _run(analysis_id: str, data, params, args=None):
    """``(result, tables, provenance)`` of one analysis definition, progress on stderr;
    on a Dask cluster when ``args`` asks for workers or a scheduler."""
    from .analyses import ANALYSES, CLUSTER_ANALYSES
    from .analyses.provenance import provenance
    from .parallel import Executor

    a = ANALYSES[analysis_id]
    a.check(data)
    workers, scheduler = getattr(args, "workers", None), getattr(args, "scheduler", None)
    with Executor(workers, scheduler) as ex:
        extra = {"executor": ex} if analysis_id in CLUSTER_ANALYSES else {}
        result = a.run(data, params, progress=_progress(analysis_id), **extra)
    return result, a.tables(result), provenance(data, analysis_id, params)


def _csv(prov, *frames: pd.DataFrame) -> str:
    """The provenance header, then each table as CSV, blank-line separated."""
    from .analyses.provenance import csv_header

    return csv_header(prov) + "\n".join(io.to_safe_csv(f) for f in frames)


def _json(payload, prov) -> str:
    from .analyses.provenance import to_json

    return to_json(payload, prov)


def compare(data, args) -> str:
    from .analyses import CompareParams

    result, t, prov = _run("compare", data, CompareParams(methods=args.methods))
    c = result.comparison
    skipped = _skipped(c.run.skipped)
    if args.format == "json":
        return _json(
            {
                "dataset": data.name,
                "ranks": {m: c.run.ranks[m].astype(int).tolist() for m in c.run.ranks},
                "models": list(data.models),
                "agreement": t["agreement"].to_dict(orient="records"),
                "summary": c.summary,
                "exact": c.exact,
                "consensus": t["consensus"].to_dict(orient="records"),
                "skipped": c.run.skipped,
            },
            prov,
        )
    return _csv(prov, c.run.ranks.reset_index(), t["agreement"].round(6)) + skipped


def convergence(data, args) -> str:
    from .analyses import ConvergenceParams

    params = ConvergenceParams(
        methods=args.methods, replicates=args.replicates, curve_replicates=None,
        slow_replicates=None, seed=args.seed, scheme=args.scheme, target=args.target,
        match=getattr(args, "match", "exact"),
    )
    result, t, prov = _run("convergence", data, params, args)
    summ, pmf, why = t["summary"], t["pmf"], list(result.explanations)
    match = params.match
    if args.format == "json":
        methods = {}
        for row in summ.to_dict(orient="records"):
            p = pmf[pmf.method == row["method"]]
            methods[row.pop("method")] = row | {
                "pmf": {int(n): float(v) for n, v in zip(p.n, p.p, strict=True) if v > 0}
            }
        return _json(
            {
                "dataset": data.name,
                "shape": list(data.R.shape),
                "replicates": args.replicates,
                "scheme": args.scheme,
                "seed": args.seed,
                "target": args.target,
                "match": match,
                "methods": methods,
                "skipped": result.skipped,
                "explanation": why,
            },
            prov,
        )
    notes = "".join(f"# {m}\n" for m in why)
    if args.format == "csv":
        return _csv(prov, summ, pmf) + _skipped(result.skipped) + notes
    lines = [
        _header(data, "convergence@n"),
        f"# {args.replicates:,} {args.scheme}-wise replicates, seed {args.seed}, target "
        f"{args.target}, match {match}; no convergence = the ranking still differs at "
        "trial N-1 or later\n",
        summ.to_string(index=False, float_format=lambda v: f"{v:.3f}") + "\n",
        "\n# PMF of convergence@n (n: probability; zero-mass n omitted)\n",
    ]
    for mid in summ.method:
        p = pmf[(pmf.method == mid) & (pmf.p > 0)]
        cells = ", ".join(f"{n}: {v:.4f}" for n, v in zip(p.n, p.p, strict=True))
        lines.append(f"{mid}: {cells or '(never converges)'}\n")
    return "".join(lines) + _skipped(result.skipped) + ("\n" + notes if notes else "")


def stability(data, args) -> str:
    from .analyses import StabilityParams

    result, t, prov = _run("stability", data, StabilityParams(methods=args.methods), args)
    st = result.stability
    gold, own = t["classes_gold"], t["classes_self"]
    if args.format == "json":
        return _json(
            {
                "dataset": data.name,
                "shape": list(data.R.shape),
                "methods": st.table.to_dict(orient="records"),
                "classes_gold": gold.to_dict(orient="records"),
                "classes_self": own.to_dict(orient="records"),
                "skipped": st.skipped,
            },
            prov,
        )
    if args.format == "csv":
        return _csv(prov, st.table) + _skipped(st.skipped)
    return "".join(
        [
            _header(data, "N = 1 stability"),
            "# tau_b of each single-trial ranking; methods with equal tau_b on every slice "
            "share a row\n\n## vs the gold standard (Bayes_U@N, all trials)\n",
            _classes_text(gold),
            "\n## vs each method's own full-trial ranking (self-consistency)\n",
            _classes_text(own),
            _skipped(st.skipped),
        ]
    )


def _classes_text(cls: pd.DataFrame) -> str:
    out = [f"{'rank':>4}  {'mean':>6}  {'sd':>6}  methods\n"]
    for r in cls.itertuples(index=False):
        note = getattr(r, "note", "")
        if math.isnan(r.mean):  # every slice: all models tie
            out.append(f"{r.rank:>4}  {'—':>6}  {'—':>6}  {r.methods}  [{note}]\n")
            continue
        tail = f"  [{note}]" if note else ""
        out.append(f"{r.rank:>4}  {r.mean:6.4f}  {r.sd:6.4f}  {r.methods}{tail}\n")
    return "".join(out)


def greedy(data, args) -> str:
    from .analyses import GreedyParams
    from .outcomes import COMBINED

    params = GreedyParams(replicates=args.replicates, seed=args.seed)
    result, t, prov = _run("greedy", data, params)
    labels = {b: data.select(b).name for b in result.analyses}
    if len(result.analyses) > 1:
        labels[COMBINED] = f"{COMBINED} (all questions)"
    table = t["table"].assign(data=lambda d: d["data"].map(labels))
    ranks = t["ranks"]
    if args.format == "json":
        return _json(
            {
                "dataset": data.name,
                "replicates": args.replicates,
                "seed": args.seed,
                "table": table.to_dict(orient="records"),
                "ranks": ranks.to_dict(orient="records"),
            },
            prov,
        )
    if args.format == "csv":
        return _csv(prov, table.round(6), ranks)
    return "".join(
        [
            _header(data, "greedy vs sampling"),
            f"# tau_gs: greedy-only vs sampling ranking; delta_tau and sd_reduction at N = 1 over "
            f"{args.replicates} resampled datasets (greedy prior minus uniform)\n",
            table.to_string(index=False, float_format=lambda v: f"{v:+.3f}"),
            "\n\n",
            "# ranks (displacement = greedy rank - sampling rank)\n",
            ranks.to_string(index=False, float_format=lambda v: f"{v:.3f}"),
            "\n",
        ]
    )


def _rubric(spec: str, signals=None):
    from pathlib import Path

    from . import rubric as rb

    if spec.lower().endswith(".json") or Path(spec).is_file():
        return rb.load(Path(spec), signals=signals)
    return rb.get_preset(spec)


def apply_rubric(spec: str, data):
    """The dataset scored by a preset or a rubric JSON file (``leaderboard --rubric``)."""
    from . import rubric as rb

    r = _rubric(spec, signals=tuple(data.signals))
    return rb.apply(r, data)


def rubric(args) -> str:
    from . import rubric as rb

    if args.rubric_command == "list":
        table = rb.list_presets()
        if args.format == "json":
            return _plain_json(table.to_dict(orient="records"))
        if args.format == "csv":
            return io.to_safe_csv(table)
        lines = [f"{'preset':<30} {'C+1':>3}  intent\n"]
        for r in table.itertuples(index=False):
            lines.append(f"{r.key:<30} {r.categories:>3}  {r.intent}\n")
        lines.append(
            "# scorio-studio rubric show NAME for the rules; "
            "scorio-studio leaderboard PATH --rubric NAME to score with one\n"
        )
        return "".join(lines)
    r = _rubric(args.name)
    if args.format == "json":
        return _plain_json(rb.to_json(r))
    return r.summary() + "\n"
