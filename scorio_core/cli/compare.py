"""``scorio-studio compare``: rank with many methods and measure agreement (the
Method comparison page's definition, :data:`scorio_core.definitions.COMPARE`)."""

from __future__ import annotations

import sys

from ._common import (
    _add_data_args,
    _csv,
    _json,
    _run,
    _skipped,
    _with_source,
    add_format,
    load,
    output_format,
    render,
)

__all__ = ["add_parser", "run", "compare"]


def add_parser(sub) -> None:
    cmp = sub.add_parser(
        "compare", help="rank with many methods and measure agreement (Method comparison page)"
    )
    _add_data_args(cmp)
    from ..params import CompareParams, add_options

    add_options(cmp, CompareParams)  # as declared in scorio_core/params.py
    add_format(cmp)


def run(args) -> int:
    """Print the compare tables of the data the flags name."""
    sys.stdout.write(compare(_with_source(args, load(args)), args))
    return 0


def compare(data, args) -> str:
    from ..params import CompareParams, from_args

    result, t, prov = _run("compare", data, from_args(CompareParams, args))
    c = result.comparison
    skipped = _skipped(c.run.skipped)
    fmt = output_format(args)
    if fmt == "json":
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
    if fmt == "csv":
        return _csv(prov, c.run.ranks.reset_index(), t["agreement"].round(6)) + skipped
    L, M, N = data.R.shape
    return render(
        fmt, f"Method comparison on {data.name} ({L} models x {M} questions x {N} trials)",
        ["Kendall τ_b of each method's ranking with the gold standard (Bayes@N, uniform "
         "prior, all trials); 'exact' = the same weak order."],
        [("Summary", "", t["summary"]), ("Agreement with the gold standard", "", t["agreement"]),
         ("Consensus", "", t["consensus"]), ("Ranks", "", c.run.ranks.reset_index())],
        [f"skipped {m}: {why}" for m, why in c.run.skipped.items()],
    )

