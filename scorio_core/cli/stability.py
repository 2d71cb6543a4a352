"""``scorio-studio stability``: N = 1 stability of every method (the Stability page's
definition, :data:`scorio_core.definitions.STABILITY`)."""

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

__all__ = ["add_parser", "run", "stability"]


def add_parser(sub) -> None:
    definition_parser(sub, "stability", "StabilityParams",
                      "N = 1 stability: Kendall τ_b of every method's "
                      "single-trial rankings with the gold standard and with its own ranking on "
                      "all trials",
                      cluster=True)


def stability(data, args) -> str:
    from ..definitions import ANALYSES
    from ..params import StabilityParams, from_args

    result, t, prov = _run("stability", data, from_args(StabilityParams, args), args)
    st = result.stability
    gold, own = t["classes_gold"], t["classes_self"]
    fmt = output_format(args)
    if fmt == "json":
        return _json(
            {
                "dataset": data.name,
                "shape": list(data.R.shape),
                "methods": st.table.to_dict(orient="records"),
                "classes_gold": gold.to_dict(orient="records"),
                "classes_self": own.to_dict(orient="records"),
                # the page's and the report's sentences: a best only where the slices
                # separate it from the rest
                "claims": {t: st.claim(t) for t in ("gold", "self")} if st.tau["gold"] else {},
                "skipped": st.skipped,
            },
            prov,
        )
    if fmt == "csv":
        return _csv(prov, st.table) + _skipped(st.skipped)
    N = data.N
    cols = ANALYSES["stability"].column_help  # each table's columns as the definition declares
    return render(
        fmt, title("N = 1 stability", data),
        [f"tau_b of each single-trial ranking: mean and sd over the {N:,} single-trial "
         "slices; methods with equal tau_b on every slice share a row (— : every slice ties "
         "all models).", *(st.claim(t) for t in ("gold", "self") if st.tau["gold"])],
        [("vs the gold standard (Bayes_U@N, all trials)", "", gold, cols("classes_gold")),
         ("vs each method's own full-trial ranking (self-consistency)", "", own,
          cols("classes_self"))],
        [f"skipped {m}: {why}" for m, why in st.skipped.items()],
        legend=legend_on(args),
    )


run = print_for(stability)
