"""``scorio-studio plan``: trials and questions needed per undecided pair; budget split."""

from __future__ import annotations

import sys

from ..estimands import ASSURANCE
from ..formatting import a_chance, count_text, percent
from ._common import (
    _csv,
    _json,
    _run,
    definition_parser,
    legend_on,
    load,
    output_format,
    render,
    title,
)

__all__ = ["add_parser", "params", "run"]


def add_parser(sub) -> None:
    definition_parser(sub, "plan", "PlanParams",
                      f"trials and questions that give {a_chance(ASSURANCE).replace('%', '%%')} "
                      "(--assurance) of deciding each undecided pair; how to split a budget of "
                      "extra trials",
                      format_help=" (csv: the pairs table under a provenance header)")


def params(args):
    """The :class:`~scorio_core.params.PlanParams` the flags name."""
    from ..params import PlanParams, from_args

    return from_args(PlanParams, args)


def run(args) -> int:
    """Print the plan of the data the flags name (the one definition in
    :data:`scorio_core.definitions.PLAN`, as the Planner page renders it)."""
    from ..definitions.plan import to_json

    data = load(args)
    if args.pair is not None:  # a model name with a comma: split where both are models
        from ..params import split_pair

        args.pair = split_pair(args.pair, data.models)
    result, t, prov = _run("plan", data, params(args))
    fmt = output_format(args)
    if fmt == "json":
        out = _json(to_json(result), prov)
    elif fmt == "csv":
        out = _csv(prov, t["pairs"])
    else:
        out = _text(result, t, args, fmt, data)
    sys.stdout.write(out)
    return 0


def _text(result, t, args, fmt: str, data) -> str:
    """The plan for people: the undecided pairs, the budget split and one pair's curves."""
    from ..definitions import ANALYSES

    p, cs = result.plan, result.curve_settings
    s = p.settings
    cols = ANALYSES["plan"].column_help  # each table's columns as the definition declares them
    head = title("Planner", data)
    intro = [
        f"{s['scope'].capitalize()} scope, {percent(s['confidence'])}, adjustment "
        f"{s['adjust']}, assurance {percent(s['assurance'])}.",
    ]
    pairs = (
        ("Undecided adjacent pairs", "Every adjacent pair is decided: nothing to plan.", None)
        if p.pairs.empty else
        # as the report shows it (the definition's view): the notes under the table, each
        # naming its pairs, not a column of sentences; the csv/json keep the column
        (count_text(len(p.pairs), "undecided adjacent pair"), "",
         ANALYSES["plan"].shown_tables(result, t)["pairs"], cols("pairs"))
    )
    curve = t["order_curve"].drop(columns=["upper", "lower"])
    sections = [pairs, ("Budget split", p.headline(), p.allocation, cols("allocation"))]
    legend = legend_on(args)
    if not result.shows_pair:  # every adjacent pair decided and no pair chosen (--pair)
        return render(fmt, head, intro, sections, legend=legend)
    return render(fmt, head, intro, [
        *sections,
        (f"{cs.upper} vs {cs.lower} vs N",
         f"p_decided = chance of a decision with every model at N trials (ours); p_correct and "
         f"z = the papers' Bayes@N with today's estimates as truth ({args.sims:,} simulated "
         "tables per N; App. D, Fig. 6).", curve, cols("order_curve")),
        (f"{cs.upper} vs {cs.lower}: smallest lead each plan decides",
         f"smallest_lead = the smallest true lead of {cs.upper} that the plan (trials per "
         f"question, every model; or questions at today's N) decides with "
         f"{percent(s['assurance'])} chance on any field, no prior on the lead; gap_now = today's "
         "estimate.", t["gap_curve"].drop(columns=["upper", "lower"]), cols("gap_curve")),
    ], legend=legend)
