"""``scorio-studio leaderboard``: the CI-aware leaderboard (the Leaderboard page)."""

from __future__ import annotations

import sys

from .._validation import SettingsConflict
from ._common import cli_text, definition_parser, legend_on, load, output_format, title

__all__ = ["add_parser", "run"]


def add_parser(sub) -> None:
    lb = definition_parser(sub, "leaderboard", "LeaderboardParams",
                           "CI-aware leaderboard: mean scores with calibrated intervals, rank "
                           "intervals, p_best and the papers' Bayes@N")
    lb.add_argument(
        "--rubric",
        help="score with a rubric: a preset name (see `scorio-studio rubric list`) or a rubric "
        ".json file; maps the file's per-completion signals to categories first",
    )


def run(args) -> int:
    """Print the leaderboard of the data the flags name (the one definition in
    :data:`scorio_core.definitions.LEADERBOARD`, as the Leaderboard page runs it)."""
    from ..params import LeaderboardParams, from_args

    if args.rubric and args.prior == "greedy":  # before the data are read
        # --rubric is this command's own option (add_parser), declared by no settings class:
        # the command line names it from its parser
        raise SettingsConflict({"prior": LeaderboardParams, "rubric": None},
                               "{prior} greedy cannot be combined with {rubric}: the greedy "
                               "outcomes are binary correctness, not rubric categories",
                               prior=args.prior, rubric=args.rubric)
    data = load(args)
    if args.rubric:
        from .rubric import apply_rubric

        data = apply_rubric(args.rubric, data)
    from .. import export
    from ..definitions.leaderboard import LEADERBOARD
    from ..definitions.provenance import provenance

    params = from_args(LeaderboardParams, args, weights=args.weights)
    result = LEADERBOARD.run(data, params)
    board = result.board
    view = data if params.subset is None else data.subset(*params.subset)
    head = title("CI-aware leaderboard", data, params)  # the subset's name and shape
    # what the load left out or pooled, with counts: under the title, and first among the
    # notes a script's CSV or JSON keeps
    # the definition's caveats (scope, multiplicity, where p_best runs high, synthetic data)
    # after the board's own notes, as the page and the report list them
    caveats = tuple(c for c in LEADERBOARD.caveats(data, params, result)
                    if c not in board.notes)
    notes = (*view.load_notes, *board.notes, *caveats)
    fmt = output_format(args)
    # the formats for people: the columns' legend under the table, from the definition's one
    # declaration (LEADERBOARD.columns: the board's COLUMN_HELP), as the page and reports
    text = export.export(board, fmt, title=head, legend=legend_on(args))
    if fmt in ("csv", "json"):  # the input file, settings and versions, as every command's
        text = _with_provenance(text, fmt, provenance(data, "leaderboard", params), notes)
    else:  # the notes' advice names flags here, not Python keywords (each load note
        # rendered before it is wrapped: the text around it would make it Python's form)
        text = cli_text(_under_title(text, tuple(map(cli_text, view.load_notes)), fmt))
    if result.subsets is not None:
        text = _per_subset(text, result, fmt, legend_on(args))
    # the could-be-first line heads the text already (export.describe): said once
    told = tuple(c for c in caveats if c != board.first_line())
    if told and fmt in ("table", "markdown"):
        text = text.rstrip("\n") + "\n\n" + _caveat_lines(told, fmt, export.markup_names(board))
    if fmt == "csv":  # closing the CSV, after the per-subset block
        from ._common import note_lines

        text += note_lines(notes)
    sys.stdout.write(text)
    return 0


def _caveat_lines(caveats: tuple[str, ...], fmt: str, names: tuple[str, ...] = ()) -> str:
    """The caveats as the board's notes are printed (:func:`scorio_core.export.note_lines`:
    Markdown quotes, else ``Note:`` paragraphs), each advice in the command line's words.
    They are our sentences: their code spans stay code in Markdown and lose their backticks
    in a terminal, and the ``names`` from the data they quote read letter for letter
    (:func:`~scorio_core.formatting.md_prose`, :func:`~scorio_core.formatting.plain_prose`)."""
    import textwrap

    from ..formatting import LINE_WIDTH, md_prose, plain_prose

    said = [cli_text(c) for c in caveats]
    if fmt == "markdown":
        return "".join(f"> {md_prose(c, names)}\n" for c in said)
    return "\n".join(textwrap.fill(f"Note: {plain_prose(c, names)}", width=LINE_WIDTH)
                     for c in said) + "\n"


def _under_title(text: str, loaded: tuple[str, ...], fmt: str) -> str:
    """The leaderboard for people with what the load did (``loaded``) right under its
    title, where the shape is stated: ``Loaded: ...`` lines (a quote in Markdown)."""
    if not loaded:
        return text
    import textwrap

    from ..formatting import LINE_WIDTH, _md_escape

    first, rest = text.split("\n", 1)
    if fmt == "markdown":
        said = "".join(f"\n> Loaded: {_md_escape(n)}\n" for n in loaded)
    else:
        said = "".join(textwrap.fill(f"Loaded: {n}", width=LINE_WIDTH) + "\n" for n in loaded)
    return f"{first}\n{said}{rest}"


def _with_provenance(text: str, fmt: str, prov: dict, notes: tuple[str, ...] = ()) -> str:
    """The leaderboard's CSV under the ``# key: value`` provenance header, or its JSON with a
    ``provenance`` object -- the form of every other command's exports -- and a ``notes``
    list: the board's notes (why ``se``/``lo``/``hi`` are blank at N = 1 ...) as the table
    for people has them (the CSV's close it as ``# note:`` lines, :func:`run`)."""
    import json

    from .._validation import json_safe
    from ..definitions.provenance import csv_header

    if fmt == "csv":
        return csv_header(prov) + text
    doc = json.loads(text)
    doc["provenance"] = prov
    doc["notes"] = [cli_text(n) for n in notes]
    return json.dumps(json_safe(doc), indent=2, allow_nan=False) + "\n"


def _per_subset(text: str, result, fmt: str, legend: bool = True) -> str:
    """The leaderboard's output with the per-subset leaderboards (``--by``) added: a
    ``by_subset`` key in JSON, a second CSV block, a second table otherwise (with its
    columns' legend unless ``legend`` is off)."""
    import json

    from .._validation import json_safe
    from ..definitions.leaderboard import LEADERBOARD
    from ._common import render

    t = result.subsets
    if fmt == "json":
        doc = json.loads(text)
        doc["by_subset"] = {"attribute": result.by, "rows": t.to_dict(orient="records")}
        return json.dumps(json_safe(doc), indent=2, allow_nan=False) + "\n"
    if fmt == "csv":  # by the exports' one rule, as the board above it
        from ..export import table_csv

        return text + "\n" + table_csv(t)
    return text + "\n" + render(fmt, f"Per subset ({result.by})", [
        "Each subset's own leaderboard on its questions (same scope and confidence); "
        "--by none leaves this out."], [("", "", t, LEADERBOARD.column_help("by_subset"))],
        legend=legend)
