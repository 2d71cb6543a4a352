"""``scorio-studio convergence``: convergence@n over bootstrap replicates (the Convergence
page's definition, :data:`scorio_core.analyses.CONVERGENCE`)."""

from __future__ import annotations

import sys

from ._common import (
    _add_cluster_args,
    _add_data_args,
    _csv,
    _header,
    _json,
    _run,
    _skipped,
    _with_source,
    load,
)

__all__ = ["add_parser", "run", "convergence"]


def add_parser(sub) -> None:
    conv = sub.add_parser(
        "convergence", help="convergence@n over bootstrap replicates (Convergence page)"
    )
    _add_data_args(conv)
    from ..params import ConvergenceParams, add_options

    add_options(conv, ConvergenceParams)  # as declared in scorio_core/params.py
    conv.add_argument("--format", choices=["text", "csv", "json"], default="text")
    _add_cluster_args(conv)


def run(args) -> int:
    """Print the convergence tables of the data the flags name."""
    sys.stdout.write(convergence(_with_source(args, load(args)), args))
    return 0


def convergence(data, args) -> str:
    from ..params import ConvergenceParams, from_args

    # the CLI prints convergence@n only: no τ_b curves, every method at --replicates
    params = from_args(ConvergenceParams, args, curve_replicates=None, slow_replicates=None)
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

