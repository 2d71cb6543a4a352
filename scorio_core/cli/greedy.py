"""``scorio-studio greedy``: greedy vs sampling (the Greedy page's definition,
:data:`scorio_core.analyses.GREEDY`)."""

from __future__ import annotations

import sys

from ._common import (
    _add_data_args,
    _csv,
    _header,
    _json,
    _run,
    _with_source,
    load,
)

__all__ = ["add_parser", "run", "greedy"]


def add_parser(sub) -> None:
    gr = sub.add_parser("greedy", help="greedy vs sampling alignment and the greedy prior's effect")
    _add_data_args(gr)
    from ..params import GreedyParams, add_options

    add_options(gr, GreedyParams)  # as declared in scorio_core/params.py
    gr.add_argument("--format", choices=["text", "csv", "json"], default="text")


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

