"""``scorio-studio rubric list|show`` and the ``--rubric`` option of ``leaderboard``."""

from __future__ import annotations

import sys

from ._common import _plain_json, add_format, output_format, render

__all__ = ["add_parser", "run", "apply_rubric", "rubric"]


def add_parser(sub) -> None:
    rub = sub.add_parser("rubric", help="list and show rubric presets: per-completion "
                         "signals -> outcome categories -> weights")
    rsub = rub.add_subparsers(dest="rubric_command", required=True)
    rl = rsub.add_parser("list", help="the presets: 000 Table 5's (dontpass/...), 002 Table "
                         "21's (ranking/...) and Scorio Studio's teaching presets (length/...)")
    add_format(rl, legend=False)  # the presets: no definition declares their columns
    rs = rsub.add_parser("show", help="one rubric's categories, weights and ordered rules")
    rs.add_argument("name", help="preset name (e.g. ranking/conservative) or a rubric .json file")
    rs.add_argument("--format", choices=["text", "json"], default="text",
                    help="json: the rubric file format, ready to edit and load back")


def run(args) -> int:
    sys.stdout.write(rubric(args))
    return 0


def _rubric(spec: str, signals=None):
    from pathlib import Path

    from .. import rubric as rb

    if spec.lower().endswith(".json") or Path(spec).is_file():
        return rb.load(Path(spec), signals=signals)
    return rb.get_preset(spec)


def apply_rubric(spec: str, data):
    """The dataset scored by a preset or a rubric JSON file (``leaderboard --rubric``)."""
    from .. import rubric as rb

    r = _rubric(spec, signals=rb.signal_names(data))
    return rb.apply(r, data)


def rubric(args) -> str:
    from .. import rubric as rb

    if args.rubric_command == "list":
        table = rb.list_presets()
        fmt = output_format(args)
        if fmt == "json":
            return _plain_json(table.to_dict(orient="records"))
        if fmt == "csv":
            from ..export import table_csv

            return table_csv(table)
        shown = table[["key", "categories", "intent"]].rename(
            columns={"key": "preset", "categories": "C+1"})
        return render(fmt, "Rubric presets", [], [("", "", shown)], [
            "scorio-studio rubric show NAME for the rules; scorio-studio leaderboard PATH "
            "--rubric NAME to score with one"])
    r = _rubric(args.name)
    if args.format == "json":
        return _plain_json(rb.to_json(r))
    return r.summary() + "\n"
