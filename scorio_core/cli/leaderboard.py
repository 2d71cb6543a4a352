"""``scorio-studio leaderboard``: the CI-aware leaderboard (the Leaderboard page)."""

from __future__ import annotations

import sys

from .._validation import ValidationError
from ..estimands import ADJUST_HELP, ADJUSTMENTS, SCOPE_HELP, SCOPES
from ._common import FORMATS, _add_data_args, _confidence, _ks, _positive_int, _weights, load

__all__ = ["add_parser", "run"]


def add_parser(sub) -> None:
    lb = sub.add_parser(
        "leaderboard", help="CI-aware leaderboard with calibrated intervals (same as the page)"
    )
    _add_data_args(lb)
    lb.add_argument("--confidence", type=_confidence, default=0.95,
                    help="level of the intervals and of the two-sided pairwise decisions")
    lb.add_argument("--scope", choices=list(SCOPES), default=SCOPES[0],
                    help="; ".join(f"{k}: {v}" for k, v in SCOPE_HELP.items()))
    lb.add_argument("--adjust", choices=list(ADJUSTMENTS), default=ADJUSTMENTS[0],
                    help="; ".join(f"{k}: {v}" for k, v in ADJUST_HELP.items()).replace("%", "%%"))
    lb.add_argument("--draws", type=_positive_int, default=10_000,
                    help="draws of the confidence distribution (p_best) and of the "
                    "simultaneous procedure")
    lb.add_argument("--seed", type=_positive_int, default=0)
    lb.add_argument(
        "--prior",
        choices=["uniform", "greedy"],
        default="uniform",
        help="greedy: use the file's greedy/R0 outcomes as Dirichlet prior counts",
    )
    lb.add_argument("--k", type=_ks, default=[], help="Pass@k columns, e.g. 2,4,8")
    lb.add_argument("--format", choices=list(FORMATS), default="csv")
    lb.add_argument(
        "--rubric",
        help="score with a rubric: a preset name (see `scorio-studio rubric list`) or a rubric "
        ".json file; maps the file's per-completion signals to categories first",
    )


def run(args) -> int:
    """Print the leaderboard of the data the flags name."""
    data = load(args)
    if args.rubric:
        from .rubric import apply_rubric

        if args.prior == "greedy":
            raise ValidationError(
                "--prior greedy cannot be combined with --rubric: the greedy outcomes are "
                "binary correctness, not rubric categories"
            )
        data = apply_rubric(args.rubric, data)
    from .. import export
    from ..leaderboard import leaderboard

    board = leaderboard(
        data,
        w=_weights(args.weights),
        use_prior=args.prior == "greedy",
        confidence=args.confidence,
        ks=args.k,
        scope=args.scope,
        adjust=args.adjust,
        draws=args.draws,
        seed=args.seed,
    )
    sys.stdout.write(export.export(board, args.format))
    return 0
