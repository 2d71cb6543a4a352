"""``scorio-studio leaderboard``: the CI-aware leaderboard (the Leaderboard page)."""

from __future__ import annotations

import sys

from .._validation import ValidationError
from ._common import definition_parser, load, output_format

__all__ = ["add_parser", "run"]


def add_parser(sub) -> None:
    lb = definition_parser(sub, "leaderboard", "LeaderboardParams",
                           "CI-aware leaderboard with calibrated intervals (same as the page)")
    lb.add_argument(
        "--rubric",
        help="score with a rubric: a preset name (see `scorio-studio rubric list`) or a rubric "
        ".json file; maps the file's per-completion signals to categories first",
    )


def run(args) -> int:
    """Print the leaderboard of the data the flags name (the one definition in
    :data:`scorio_core.definitions.LEADERBOARD`, as the Leaderboard page runs it)."""
    from ..params import LeaderboardParams, from_args

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
    from ..definitions.leaderboard import LEADERBOARD

    params = from_args(LeaderboardParams, args, weights=args.weights)
    board = LEADERBOARD.run(data, params).board
    title = f"CI-aware leaderboard: {data.name} ({data.L} models x {data.M} questions x " \
        f"{data.N} trials)"
    sys.stdout.write(export.export(board, output_format(args), title=title))
    return 0
