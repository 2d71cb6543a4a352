"""``scorio-studio plan``: trials and questions needed per undecided pair; budget split."""

from __future__ import annotations

import argparse
import sys

from ..estimands import ADJUST_HELP, ADJUSTMENTS, ASSURANCE, ASSURANCE_HELP, SCOPE_HELP, SCOPES
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


def _assurance(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not 0.5 <= v < 1:
        raise argparse.ArgumentTypeError(
            f"--assurance expects a probability from 0.5 up to (not including) 1; got {text!r}"
        )
    return v


def add_parser(sub) -> None:
    pl = sub.add_parser(
        "plan",
        help="trials and questions that give an 80%% chance of deciding each undecided pair; "
        "budget split (Planner page)",
    )
    _add_data_args(pl)
    pl.add_argument("--budget-trials", type=_positive_int, default=0,
                    help="extra trials per question to split across models (one unit = one "
                    "model answering every question once more); default L x N (as many "
                    "trials again)")
    pl.add_argument("--confidence", type=_confidence, default=0.95)
    pl.add_argument("--assurance", type=_assurance, default=ASSURANCE,
                    help=f"target chance of a decision, 0.5-1 (default {ASSURANCE}): "
                    + ASSURANCE_HELP.replace("%", "%%"))
    pl.add_argument("--scope", choices=list(SCOPES), default=SCOPES[0],
                    help="scope whose decisions define the undecided pairs: "
                    + "; ".join(f"{k}: {v}" for k, v in SCOPE_HELP.items()))
    pl.add_argument("--adjust", choices=list(ADJUSTMENTS), default=ADJUSTMENTS[0],
                    help="; ".join(f"{k}: {v}" for k, v in ADJUST_HELP.items()).replace(
                        "%", "%%"))
    pl.add_argument("--prior", choices=["uniform", "greedy"], default="uniform",
                    help="greedy: R0 enters the papers' Bayes@N prior (trials_needed_papers)")
    pl.add_argument("--draws", type=_positive_int, default=10_000,
                    help="draws of the leaderboard's confidence distribution")
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
        confidence=args.confidence, scope=args.scope, adjust=args.adjust,
        assurance=args.assurance, prior=args.prior,
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
            + f"\n{cs.upper} vs {cs.lower} vs N: p_decided = chance of a decision with every "
            f"model at N trials (ours); p_correct and z = the papers' Bayes@N with today's "
            f"estimates as truth ({args.sims:,} simulated tables per N; App. D, Fig. 6):\n"
            + curve.to_string(index=False, float_format=lambda v: f"{v:.4f}",
                              na_rep="—") + "\n"
        )
    sys.stdout.write(out)
    return 0
