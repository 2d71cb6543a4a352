"""``scorio-studio plan``: trials and questions needed per undecided pair; budget split."""

from __future__ import annotations

import sys

from ._common import _add_data_args, _confidence, _positive_int, load

__all__ = ["add_parser", "run"]


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
    pl.add_argument("--format", choices=["text", "csv", "json"], default="text")


def run(args) -> int:
    """Print the plan of the data the flags name."""
    from ..planner import plan

    data = load(args)
    result = plan(
        data, use_prior=args.prior == "greedy", confidence=args.confidence,
        scope=args.scope, adjust=args.adjust, budget_trials=args.budget_trials,
    )
    fmt = {"text": result.to_text, "csv": result.to_csv, "json": result.to_json}
    sys.stdout.write(fmt[args.format]())
    return 0
