"""``scorio-studio report``: HTML / Markdown report or notebook of chosen analyses."""

from __future__ import annotations

from ..definitions import DEFAULT_SECTIONS, NAMED_ONLY, SIMULATIONS
from ._common import _add_data_args

__all__ = ["add_parser", "run", "SECTIONS_HELP"]

#: ``--sections``'s help, from the one declaration of the default sections.
SECTIONS_HELP = (
    f"comma-separated analyses, in report order (default: {','.join(DEFAULT_SECTIONS)}, "
    "those that fit the data; also, when named: "
    + ", ".join(f"{k} ({why}, slower)" for k, why in NAMED_ONLY.items())
    + " and the simulation studies " + ", ".join(SIMULATIONS) + ")"
)


def add_parser(sub) -> None:
    rep = sub.add_parser("report", help="HTML / Markdown report or notebook of chosen analyses")
    _add_data_args(rep)
    rep.add_argument("--sections", default=None, help=SECTIONS_HELP)
    rep.add_argument("--title", help="report title (default: names the dataset)")
    rep.add_argument("--out", required=True,
                     help="FILE.html, FILE.md or FILE.ipynb (a missing folder is made)")


def run(args) -> int:
    from ..report import cli_report

    return cli_report(args)
