"""``scorio-studio plan``: trials and questions needed per undecided pair; budget split."""

from __future__ import annotations

import sys

from ._common import (
    _add_data_args,
    _csv,
    _json,
    _run,
    _with_source,
    load,
)

__all__ = ["add_parser", "params", "run"]


def add_parser(sub) -> None:
    from ..params import PlanParams, add_options

    pl = sub.add_parser(
        "plan",
        help="trials and questions that give an 80%% chance of deciding each undecided pair; "
        "budget split (Planner page)",
    )
    _add_data_args(pl)
    add_options(pl, PlanParams)  # every setting as declared in scorio_core/params.py
    pl.add_argument("--format", choices=["text", "csv", "json"], default="text",
                    help="csv: the pairs table under a provenance header")


def params(args):
    """The :class:`~scorio_core.params.PlanParams` the flags name."""
    from ..params import PlanParams, from_args

    return from_args(PlanParams, args)


def run(args) -> int:
    """Print the plan of the data the flags name (the one definition in
    :data:`scorio_core.analyses.PLAN`, as the Planner page renders it)."""
    from ..analyses.plan import to_json

    data = _with_source(args, load(args))
    result, t, prov = _run("plan", data, params(args))
    if args.format == "json":
        out = _json(to_json(result), prov)
    elif args.format == "csv":
        out = _csv(prov, t["pairs"])
    else:
        curve = t["order_curve"].drop(columns=["upper", "lower"])
        cs = result.curve_settings
        out = (
            result.plan.to_text()
            + f"\n{cs.upper} vs {cs.lower} vs N: p_decided = chance of a decision with every "
            f"model at N trials (ours); p_correct and z = the papers' Bayes@N with today's "
            f"estimates as truth ({args.sims:,} simulated tables per N; App. D, Fig. 6):\n"
            + curve.to_string(index=False, float_format=lambda v: f"{v:.4f}",
                              na_rep="—") + "\n"
        )
    sys.stdout.write(out)
    return 0
