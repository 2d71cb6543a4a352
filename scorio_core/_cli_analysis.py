"""Output of the ``convergence``, ``stability`` and ``greedy`` CLI commands.

Each function takes the loaded :class:`~scorio_core.outcomes.Outcomes`, the
parsed arguments and the method-spec resolver, and returns the text to print
(``text`` for people, ``csv`` and ``json`` for scripts).
"""

from __future__ import annotations

import json
import math

import pandas as pd

from . import io
from ._validation import ValidationError

__all__ = ["apply_rubric", "convergence", "greedy", "rubric", "stability"]


def _clean(x):
    """JSON-safe values: NaN becomes null, numpy scalars become Python numbers."""
    if isinstance(x, dict):
        return {str(k): _clean(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_clean(v) for v in x]
    if hasattr(x, "item"):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def _json(payload) -> str:
    return json.dumps(_clean(payload), indent=2, allow_nan=False) + "\n"


def _header(data, what: str) -> str:
    L, M, N = data.R.shape
    return f"# {what} on {data.name} ({L} models x {M} questions x {N} trials)\n"


def _binary(data, what: str) -> None:
    if not data.is_binary:
        raise ValidationError(f"{what} needs binary outcomes; this file is categorical")


def _progress(label: str):
    """Progress of a long run on stderr (stdout stays the table)."""
    from .cli import StderrProgress

    return StderrProgress(label)


def _skipped(skipped: dict[str, str]) -> str:
    return "".join(f"# skipped {m}: {why}\n" for m, why in skipped.items())


def convergence(data, args, method_ids) -> str:
    from .analysis.convergence import convergence_at_n, explain_convergence

    _binary(data, "convergence")
    target = args.target
    if target == "truth":
        truth = data.metadata.get("true_means")
        if truth is None or len(truth) != data.L:
            raise ValidationError(
                "--target truth needs the file's known true means (metadata 'true_means', one "
                f"per model); {data.name!r} has none; use gold or self"
            )
        target = [float(t) for t in truth]
    run = convergence_at_n(
        data.R,
        data.R0,
        method_ids(args.methods),
        replicates=args.replicates,
        scheme=args.scheme,
        seed=args.seed,
        target=target,
        match=getattr(args, "match", "exact"),
        progress=_progress("convergence"),
    )
    summ, pmf = run.summary, run.pmf
    why = explain_convergence(run, data.R, data.R0)
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
                "match": run.match,
                "methods": methods,
                "skipped": run.skipped,
                "explanation": why,
            }
        )
    notes = "".join(f"# {m}\n" for m in why)
    if args.format == "csv":
        return io.to_safe_csv(summ) + "\n" + io.to_safe_csv(pmf) + _skipped(run.skipped) + notes
    lines = [
        _header(data, "convergence@n"),
        f"# {args.replicates:,} {args.scheme}-wise replicates, seed {args.seed}, target "
        f"{args.target}, match {run.match}; no convergence = the ranking still differs at "
        "trial N-1 or later\n",
        summ.to_string(index=False, float_format=lambda v: f"{v:.3f}") + "\n",
        "\n# PMF of convergence@n (n: probability; zero-mass n omitted)\n",
    ]
    for mid in summ.method:
        p = pmf[(pmf.method == mid) & (pmf.p > 0)]
        cells = ", ".join(f"{n}: {v:.4f}" for n, v in zip(p.n, p.p, strict=True))
        lines.append(f"{mid}: {cells or '(never converges)'}\n")
    return "".join(lines) + _skipped(run.skipped) + ("\n" + notes if notes else "")


def stability(data, args, method_ids) -> str:
    from .analysis.stability import low_budget_stability

    _binary(data, "stability")
    st = low_budget_stability(
        data.R, data.R0, method_ids(args.methods), progress=_progress("stability")
    )
    gold, own = st.classes("gold"), st.classes("self")
    if args.format == "json":
        return _json(
            {
                "dataset": data.name,
                "shape": list(data.R.shape),
                "methods": st.table.to_dict(orient="records"),
                "classes_gold": gold.to_dict(orient="records"),
                "classes_self": own.to_dict(orient="records"),
                "skipped": st.skipped,
            }
        )
    if args.format == "csv":
        return io.to_safe_csv(st.table) + _skipped(st.skipped)
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
        out.append(f"{r.rank:>4}  {r.mean:6.4f}  {r.sd:6.4f}  {r.methods}\n")
    return "".join(out)


def greedy(data, args, method_ids) -> str:
    from .analysis.greedy import greedy_by_benchmark, greedy_table
    from .outcomes import COMBINED

    _binary(data, "greedy vs sampling")
    analyses = greedy_by_benchmark(
        data, replicates=args.replicates, seed=args.seed, progress=_progress("greedy")
    )
    table = greedy_table(analyses)
    labels = {b: data.select(b).name for b in analyses}
    if len(analyses) > 1:
        labels[COMBINED] = f"{COMBINED} (all questions)"
    table.insert(0, "data", table.pop("benchmark").map(labels))
    detail = analyses[COMBINED]
    if args.format == "json":
        return _json(
            {
                "dataset": data.name,
                "replicates": args.replicates,
                "seed": args.seed,
                "table": table.to_dict(orient="records"),
                "ranks": detail.ranks.to_dict(orient="records"),
            }
        )
    if args.format == "csv":
        return io.to_safe_csv(table.round(6)) + "\n" + io.to_safe_csv(detail.ranks)
    return "".join(
        [
            _header(data, "greedy vs sampling"),
            f"# tau_gs: greedy-only vs sampling ranking; delta_tau and sd_reduction at N = 1 over "
            f"{args.replicates} resampled datasets (greedy prior minus uniform)\n",
            table.to_string(index=False, float_format=lambda v: f"{v:+.3f}"),
            "\n\n",
            "# ranks (displacement = greedy rank - sampling rank)\n",
            detail.ranks.to_string(index=False, float_format=lambda v: f"{v:.3f}"),
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
            return _json(table.to_dict(orient="records"))
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
        return _json(rb.to_json(r))
    return r.summary() + "\n"
