"""``scorio-studio greedy``: greedy vs sampling (the Greedy page's definition,
:data:`scorio_core.definitions.GREEDY`)."""

from __future__ import annotations

from ._common import (
    _csv,
    _json,
    _run,
    definition_parser,
    legend_on,
    output_format,
    print_for,
    render,
    title,
)

__all__ = ["add_parser", "run", "greedy"]


def add_parser(sub) -> None:
    definition_parser(sub, "greedy", "GreedyParams",
                      "greedy vs sampling alignment and the greedy prior's effect")


def greedy(data, args) -> str:
    from ..definitions.greedy import GREEDY
    from ..params import GreedyParams, from_args

    params = from_args(GreedyParams, args)
    result, t, prov = _run("greedy", data, params)
    # the definition's rows, named as the page, the report and the notebook name them
    table, ranks = t["table"], t["ranks"]
    fmt = output_format(args)
    if fmt == "json":
        return _json(
            {
                "dataset": data.name,
                "replicates": args.replicates,
                "seed": args.seed,
                "table": table.to_dict(orient="records"),
                "verdict": GREEDY.notice_for(params, result),
                "ranks": ranks.to_dict(orient="records"),
            },
            prov,
        )
    if fmt == "csv":
        return _csv(prov, table, ranks)
    return render(
        fmt, title("Greedy vs sampling", data),
        [f"tau_gs: greedy-only vs sampling ranking; delta_tau and sd_reduction (each with its "
         "95% interval, delta_tau_lo to delta_tau_hi, sd_reduction_lo to sd_reduction_hi) at "
         f"N = 1 over {args.replicates} resampled datasets (greedy prior against uniform).",
         GREEDY.notice_for(params, result)],  # the page's and the report's sentence
        [("Greedy vs sampling", "", table, GREEDY.column_help("table")),
         ("Ranks", "displacement = greedy rank - sampling rank", ranks,
          GREEDY.column_help("ranks"))],
        legend=legend_on(args),
    )


run = print_for(greedy)
