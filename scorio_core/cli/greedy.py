"""``scorio-studio greedy``: greedy vs sampling (the Greedy page's definition,
:data:`scorio_core.definitions.GREEDY`)."""

from __future__ import annotations

import sys

from ._common import (
    _add_data_args,
    _csv,
    _json,
    _run,
    _with_source,
    add_format,
    load,
    output_format,
    render,
)

__all__ = ["add_parser", "run", "greedy"]


def add_parser(sub) -> None:
    gr = sub.add_parser("greedy", help="greedy vs sampling alignment and the greedy prior's effect")
    _add_data_args(gr)
    from ..params import GreedyParams, add_options

    add_options(gr, GreedyParams)  # as declared in scorio_core/params.py
    add_format(gr)


def run(args) -> int:
    """Print the greedy tables of the data the flags name."""
    sys.stdout.write(greedy(_with_source(args, load(args)), args))
    return 0


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
        return _csv(prov, table.round(6), ranks)
    L, M, N = data.R.shape
    return render(
        fmt, f"Greedy vs sampling on {data.name} ({L} models x {M} questions x {N} trials)",
        [f"tau_gs: greedy-only vs sampling ranking; delta_tau and sd_reduction at N = 1 over "
         f"{args.replicates} resampled datasets (greedy prior minus uniform)."],
        [("Greedy vs sampling", "", table),
         ("Ranks", "displacement = greedy rank - sampling rank", ranks)],
    )

