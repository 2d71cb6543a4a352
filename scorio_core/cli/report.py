"""``scorio-studio report``: HTML / Markdown report or notebook of chosen analyses."""

from __future__ import annotations

from ._common import _add_data_args

__all__ = ["add_parser", "run"]


def add_parser(sub) -> None:
    rep = sub.add_parser("report", help="HTML / Markdown report or notebook of chosen analyses")
    _add_data_args(rep)
    rep.add_argument("--sections", default="leaderboard,compare,convergence,stability,greedy,"
                     "rubric,plan,questions,curves", help="comma-separated analyses, in report "
                     "order (default: %(default)s; pair and check, which take longer, and the "
                     "simulation studies coins, prior-depth, order, calibration and "
                     "rubric-lesson are sections too, when named)")
    rep.add_argument("--title", help="report title (default: names the dataset)")
    rep.add_argument("--out", required=True, help="FILE.html, FILE.md or FILE.ipynb")


def run(args) -> int:
    from ..report import cli_report

    return cli_report(args)
