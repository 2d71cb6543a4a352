"""``scorio-studio check PATH``: would a smaller run's numbers hold? Smaller runs drawn from
this run's shares, analysed as the leaderboard would (the Check page's definition,
:data:`scorio_core.definitions.ANALYSES` ``["check"]``)."""

from __future__ import annotations

from ..estimands import SPLIT_TRIALS_PER_MODEL
from ..formatting import percent, shape_text
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

__all__ = ["add_parser", "run", "check"]


def add_parser(sub) -> None:
    definition_parser(sub, "check", "CheckParams",
                      "would a smaller run's intervals, decisions and p_best hold? smaller "
                      "runs drawn from this run's shares as the truth")


def check(data, args) -> str:
    from ..definitions import ANALYSES
    from ..params import CheckParams, from_args

    params = from_args(CheckParams, args)
    result, t, prov = _run("check", data, params)
    c = result.check
    notes = ANALYSES["check"].caveats(data, params, result)
    cols = ANALYSES["check"].column_help  # each table's columns as the definition declares
    fmt = output_format(args)
    if fmt == "json":
        return _json({k: v.to_dict(orient="records") for k, v in t.items()}, prov, notes)
    if fmt == "csv":
        return _csv(prov, *t.values(), notes=notes)
    plans = [] if c.plans.empty else [
        ("The Planner's plans, realised", "share of the planned pairs decided once the planned "
         "trials (or questions) were drawn, against the chance they were planned for",
         t["plans"], cols("plans"))]
    if not c.split.empty:
        plans.append(("The Planner's budget split, realised", f"a budget of "
                      f"{SPLIT_TRIALS_PER_MODEL} extra trials per question per model, split "
                      "as recommended: pairs decided beyond an even "
                      "split, and decided pairs expected against left", t["split"],
                      cols("split")))
    return render(
        fmt, title("Check a smaller run", data,
                   detail=f"{c.reps} runs of {shape_text(c.L, c.M, c.N)}"),
        [f"The truth: this run's shares ({c.source_N} trials per question). Intervals at "
         f"{percent(c.confidence)}, decisions {c.adjust}."],
        [("Intervals and decisions", "coverage: share of model-runs whose interval held the "
          "truth (band: the calibration grid's); wrong_way: share of runs with a pair decided "
          "the wrong way round; power: share of truly ordered pairs decided; first_coverage: "
          "share of runs whose could-be-first set held the truly best model", t["intervals"],
          cols("intervals")),
         ("p_best", "observed: share of the model-runs in the bin whose model was truly first",
          t["p_best"], cols("p_best")), *plans],
        notes, legend=legend_on(args),
    )


run = print_for(check)
