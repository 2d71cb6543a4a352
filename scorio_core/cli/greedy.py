"""``scorio-studio greedy``: greedy vs sampling (the Greedy page's definition,
:data:`scorio_core.definitions.GREEDY`)."""

from __future__ import annotations

from ..formatting import shape_text
from ._common import (
    _csv,
    _json,
    _run,
    definition_parser,
    output_format,
    print_for,
    render,
)

__all__ = ["add_parser", "run", "greedy"]


def add_parser(sub) -> None:
    definition_parser(sub, "greedy", "GreedyParams",
                      "greedy vs sampling alignment and the greedy prior's effect")


def greedy(data, args) -> str:
    from ..outcomes import COMBINED
    from ..params import GreedyParams, from_args

    params = from_args(GreedyParams, args)
    result, t, prov = _run("greedy", data, params)
    labels = {b: data.select(b).name for b in result.analyses}
    if len(result.analyses) > 1:
        labels[COMBINED] = f"{COMBINED} (all questions)"
    table = t["table"].assign(data=lambda d: d["data"].map(labels))
    ranks = t["ranks"]
    fmt = output_format(args)
    if fmt == "json":
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
    if fmt == "csv":
        return _csv(prov, table, ranks)
    L, M, N = data.R.shape
    return render(
        fmt, f"Greedy vs sampling on {data.name} ({shape_text(L, M, N)})",
        [f"tau_gs: greedy-only vs sampling ranking; delta_tau and sd_reduction at N = 1 over "
         f"{args.replicates} resampled datasets (greedy prior minus uniform)."],
        [("Greedy vs sampling", "", table),
         ("Ranks", "displacement = greedy rank - sampling rank", ranks)],
    )


run = print_for(greedy)
