"""``scorio-studio pair PATH A B``: two models question by question (the Pair page's
definition, :data:`scorio_core.definitions.ANALYSES` ``["pair"]``)."""

from __future__ import annotations

from ._common import (
    _csv,
    _json,
    _run,
    definition_parser,
    legend_on,
    output_format,
    print_for,
    render,
    title,
)

__all__ = ["add_parser", "run", "pair"]


def add_parser(sub) -> None:
    p = definition_parser(sub, "pair", "PairParams",
                          "two models question by question: the difference in both scopes, "
                          "the questions that drive it, one question's completions side by "
                          "side")
    p.add_argument("a", metavar="A", help="the first model (the difference is A - B)")
    p.add_argument("b", metavar="B", help="the second model")


def pair(data, args) -> str:
    from ..params import PairParams, from_args

    params = from_args(PairParams, args, a=args.a, b=args.b)
    result, t, prov = _run("pair", data, params)
    fmt = output_format(args)
    if fmt == "json":
        return _json({k: v.to_dict(orient="records") for k, v in t.items()}, prov)
    if fmt == "csv":
        return _csv(prov, *t.values())
    from ..definitions import ANALYSES
    from ..definitions.pair import interval_note
    from ..samples import one_line

    # the text shows the report's rows: the chart's questions and what the rest add, the
    # flips grouped by outcome when there are no texts (the CSV/JSON: every row)
    cols = ANALYSES["pair"].column_help  # each table's columns as the definition declares
    shown = ANALYSES["pair"].shown_tables(result, t)
    (q, q_note), (flips, flips_note) = shown["questions"], shown["flips"]
    repeats, repeats_note = shown["repeats"]  # trials numbered as the flips, said how
    # log text on a terminal or in Markdown: line breaks and control characters spelled out
    t = {k: v.map(one_line) for k, v in {**t, "questions": q, "flips": flips,
                                         "repeats": repeats}.items()}
    c, f = result.comparison, result.flips
    ctx = [f"{k}: {one_line(v)}" for k, v in f.context.items()] + [flips_note or ""]
    return render(
        fmt, title("Pair view", data, detail=f"{c.a} - {c.b}"),
        [f"Difference of mean score in both scopes. {interval_note(c.confidence)}"],
        [("Difference", "", t["summary"].drop(columns=["estimand"]), cols("summary")),
         ("Questions that drive the gap (the chart's: the most either way)",
          f"contribution = the question's difference / M. {q_note}", t["questions"],
          cols("questions")),
         (f"Question {f.label}: both models' repeats", "; ".join(filter(None, ctx)),
          t["flips"], cols("flips")),
         ("Repeats grouped", repeats_note or "", t["repeats"], cols("repeats"))],
        legend=legend_on(args),
    )


run = print_for(pair)
