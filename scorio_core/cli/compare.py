"""``scorio-studio compare``: rank with many methods and measure agreement (the
Method comparison page's definition, :data:`scorio_core.analyses.COMPARE`)."""

from __future__ import annotations

import sys

from ._common import (
    _add_data_args,
    _csv,
    _json,
    _run,
    _skipped,
    _with_source,
    load,
)

__all__ = ["add_parser", "run", "compare"]


def add_parser(sub) -> None:
    cmp = sub.add_parser(
        "compare", help="rank with many methods and measure agreement (Method comparison page)"
    )
    _add_data_args(cmp)
    from ..params import CompareParams, add_options

    add_options(cmp, CompareParams)  # as declared in scorio_core/params.py
    cmp.add_argument("--format", choices=["csv", "json"], default="csv")


def run(args) -> int:
    """Print the compare tables of the data the flags name."""
    sys.stdout.write(compare(_with_source(args, load(args)), args))
    return 0


def compare(data, args) -> str:
    from ..params import CompareParams, from_args

    result, t, prov = _run("compare", data, from_args(CompareParams, args))
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

