"""``scorio-studio compare``: rank with many methods and measure agreement (the
Method comparison page's definition, :data:`scorio_core.definitions.COMPARE`)."""

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

__all__ = ["add_parser", "run", "compare"]


def add_parser(sub) -> None:
    definition_parser(sub, "compare", "CompareParams",
                      "rank with many methods and measure how their rankings agree (Kendall "
                      "τ_b with the gold standard and with each other)")


def compare(data, args) -> str:
    from ..definitions.compare import COMPARE, RANKS_CAPTION, summary_note
    from ..params import CompareParams, from_args

    result, t, prov = _run("compare", data, from_args(CompareParams, args))
    c = result.comparison
    skipped = _skipped(c.run.skipped)
    fmt = output_format(args)
    ranks = t["ranks"]  # models in gold order (best first), as every rendering lists them
    if fmt == "json":
        return _json(
            {
                "dataset": data.name,
                "ranks": {m: ranks[m].astype(int).tolist() for m in c.run.ranks},
                "models": ranks["model"].tolist(),
                "agreement": t["agreement"].to_dict(orient="records"),
                "summary": c.summary,
                "exact": c.exact,
                "consensus": t["consensus"].to_dict(orient="records"),
                "skipped": c.run.skipped,
            },
            prov,
        )
    if fmt == "csv":
        return _csv(prov, ranks, t["agreement"]) + skipped
    cols = COMPARE.column_help  # each table's columns as the definition declares them
    return render(
        fmt, title("Method comparison", data),
        ["Kendall τ_b of each method's ranking with the gold standard (Bayes@N, uniform "
         "prior, all trials); 'exact' = the same weak order."],
        [("Summary", summary_note(t["agreement"]), t["summary"], cols("summary")),
         ("Agreement with the gold standard", "", t["agreement"], cols("agreement")),
         ("Consensus", "", t["consensus"], cols("consensus")),
         ("Ranks", RANKS_CAPTION, ranks, cols("ranks"))],
        [f"skipped {m}: {why}" for m, why in c.run.skipped.items()],
        legend=legend_on(args),
    )


run = print_for(compare)
