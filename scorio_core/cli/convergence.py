"""``scorio-studio convergence``: convergence@n over bootstrap replicates (the Convergence
page's definition, :data:`scorio_core.definitions.CONVERGENCE`)."""

from __future__ import annotations

from ._common import (
    _csv,
    _json,
    _run,
    _skipped,
    definition_parser,
    legend_on,
    output_format,
    print_for,
    render,
    title,
)

__all__ = ["add_parser", "run", "convergence"]


def add_parser(sub) -> None:
    definition_parser(sub, "convergence", "ConvergenceParams",
                      "convergence@n: the trials after which each method's ranking stops "
                      "changing, over bootstrap replicates", cluster=True)


def convergence(data, args) -> str:
    from ..params import ConvergenceParams, from_args

    # the CLI prints convergence@n only: no τ_b curves, every method at --replicates
    params = from_args(ConvergenceParams, args, curve_replicates=None, slow_replicates=None)
    result, t, prov = _run("convergence", data, params, args)
    summ, pmf, why = t["summary"], t["pmf"], list(result.explanations)
    match = params.match
    fmt = output_format(args)
    if fmt == "json":
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
    if fmt == "csv":
        return _csv(prov, summ, pmf) + _skipped(result.skipped) + notes
    from ..definitions import ANALYSES

    # the report's pmf: one row per method, its mass in doubling bins of n (the CSV/JSON:
    # p for every n); nothing converged: the line that says so, no empty table
    a = ANALYSES["convergence"]
    view = a.shown_tables(result, t)["pmf"]
    dist = ("Distribution of convergence@n", view.note, None) if view.table.empty else (
        "Distribution of convergence@n", "", view, a.column_help("pmf"))
    return render(
        fmt, title("convergence@n", data),
        [f"{args.replicates:,} {args.scheme}-wise replicates, seed {args.seed}, target "
         f"{args.target}, match {match}; no convergence = the ranking still differs at trial "
         "N-1 or later."],
        [("Summary", "", summ, a.column_help("summary")), dist],
        [*(f"skipped {m}: {w}" for m, w in result.skipped.items()), *why],
        legend=legend_on(args),
    )


run = print_for(convergence)
