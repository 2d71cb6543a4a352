"""``scorio-studio plan``: trials and questions needed per undecided pair; budget split."""

from __future__ import annotations

import argparse
import sys

from ._common import (
    _add_data_args,
    _confidence,
    _csv,
    _json,
    _positive_int,
    _run,
    _with_source,
    load,
)

__all__ = ["add_parser", "params", "run"]


def _pair(text: str) -> tuple[str, str]:
    names = tuple(t.strip() for t in text.split(",") if t.strip())
    if len(names) != 2:
        raise argparse.ArgumentTypeError(
            f"--pair expects two model names separated by a comma, e.g. a,b; got {text!r}"
        )
    return names


def add_parser(sub) -> None:
    pl = sub.add_parser(
        "plan", help="trials and questions needed per undecided pair; budget split (Planner page)"
    )
    _add_data_args(pl)
    pl.add_argument("--budget-trials", type=_positive_int, default=0,
                    help="extra trials per question to split across models (one unit = one "
                    "model answering every question once more); default one per model")
    pl.add_argument("--confidence", type=_confidence, default=0.95)
    pl.add_argument("--scope", choices=["questions", "population"], default="questions",
                    help="scope whose decisions define the undecided pairs")
    pl.add_argument("--adjust", choices=["none", "holm", "bh"], default="none")
    pl.add_argument("--prior", choices=["uniform", "greedy"], default="uniform")
    pl.add_argument("--draws", type=_positive_int, default=10_000,
                    help="joint posterior draws of the population scope")
    pl.add_argument("--seed", type=_positive_int, default=0,
                    help="seed of the posterior draws and of the order-curve simulation")
    pl.add_argument("--pair", type=_pair, default=None,
                    help="order curve of this pair, e.g. 'model a,model b' (default: the first "
                    "undecided adjacent pair)")
    pl.add_argument("--n-max", type=_positive_int, default=None,
                    help="largest trials per question of the order curve (2-4096; default "
                    "reaches 1.25 x the first pair's trials needed)")
    pl.add_argument("--sims", type=_positive_int, default=2000,
                    help="simulated tables per N of the order curve")
    pl.add_argument("--format", choices=["text", "csv", "json"], default="text",
                    help="csv: the pairs table under a provenance header")


def params(args):
    """The :class:`~scorio_core.analyses.PlanParams` the flags name."""
    from ..analyses import PlanParams

    return PlanParams(
        confidence=args.confidence, scope=args.scope, adjust=args.adjust, prior=args.prior,
        budget_trials=args.budget_trials, draws=args.draws, seed=args.seed, pair=args.pair,
        n_max=args.n_max, sims=args.sims,
    )


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
            + f"\nP(correct order) and z vs N, {cs.upper} vs {cs.lower} ({args.sims:,} simulated "
            "tables per N, today's estimates as truth; 000 App. D):\n"
            + curve.to_string(index=False, float_format=lambda v: f"{v:.4f}") + "\n"
        )
    sys.stdout.write(out)
    return 0
