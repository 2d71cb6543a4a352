"""``scorio-studio curves``: Pass@k and Pass^k (G-Pass@k_τ) for every k <= N with calibrated
intervals (the Leaderboard page's curves, :data:`scorio_core.definitions.ANALYSES`
``["curves"]``)."""

from __future__ import annotations

from ..formatting import percent
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

__all__ = ["add_parser", "run", "curves"]


def add_parser(sub) -> None:
    definition_parser(sub, "curves", "CurvesParams",
                      "Pass@k and Pass^k (G-Pass@k_τ with --tau) for every k <= N with "
                      "calibrated intervals")


def curves(data, args) -> str:
    from ..definitions import ANALYSES
    from ..params import CurvesParams, from_args

    params = from_args(CurvesParams, args)
    result, t, prov = _run("curves", data, params)
    notes = ANALYSES["curves"].caveats(data, params, result)
    fmt = output_format(args)
    if fmt == "json":
        return _json({"dataset": data.name, "scope": params.scope,
                      "confidence": params.confidence, "tau": params.tau,
                      "curves": t["curves"].to_dict(orient="records")}, prov, notes)
    if fmt == "csv":
        return _csv(prov, t["curves"], notes=notes)
    return render(
        fmt, title("Pass@k curves", data, params),
        [f"value = unbiased estimator at k; lo-hi = {percent(params.confidence)} pointwise "
         f"interval, {params.scope} scope. Every k: --format csv."],
        [("k = 1, 2, 4, ..., N", "", t["summary"], ANALYSES["curves"].column_help("summary"))],
        notes, legend=legend_on(args),
    )


run = print_for(curves)
