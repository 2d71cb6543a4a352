"""``scorio-studio questions``: the question view (the Questions page's definition,
:data:`scorio_core.definitions.ANALYSES` ``["questions"]``)."""

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

__all__ = ["add_parser", "run", "questions"]


def add_parser(sub) -> None:
    definition_parser(sub, "questions", "QuestionsParams",
                      "question view: per-question success, 2PL difficulty and "
                      "discrimination, uninformative questions, where models disagree")


def questions(data, args) -> str:
    from ..definitions import ANALYSES
    from ..engines.questions import NO_INFORMATION_TEXT
    from ..params import QuestionsParams, from_args
    from ..report._build import empty_table_text

    params = from_args(QuestionsParams, args)
    result, t, prov = _run("questions", data, params)
    notes = ANALYSES["questions"].caveats(data, params, result)
    fmt = output_format(args)
    if fmt == "json":
        return _json({"dataset": data.name, "irt": result.stats.irt,
                      **{k: v.to_dict(orient="records") for k, v in t.items()}}, prov, notes)
    if fmt == "csv":
        return _csv(prov, *t.values(), notes=notes)
    # the text shows what the report shows (the definition's views: both ends of a long
    # questions table, no 'disagree' that would repeat it), each with its line
    shown = ANALYSES["questions"].shown_tables(result, t)
    cols = ANALYSES["questions"].column_help  # each table's columns as declared

    def table(name: str):
        view = shown[name]
        return (view.note, None) if view.table.empty and view.note else ("", view)

    said, disagree = table("disagree")
    sections = [
        ("Where models disagree most", said or "disagreement = mean |score_i - score_j| over "
         "model pairs", disagree, cols("disagree")),
        ("Questions that carry no information", NO_INFORMATION_TEXT
         if len(t["uninformative"]) else empty_table_text("uninformative"), None
         if not len(t["uninformative"]) else shown["uninformative"], cols("uninformative")),
    ]
    if "by_subset" in t:
        sections.append((f"Per subset ({result.by})", "", shown["by_subset"],
                         cols("by_subset")))
    sections.append(("Questions, easiest first", f"2PL fit: {result.stats.irt}",
                     shown["questions"], cols("questions")))
    return render(fmt, title("Questions", data, params), [], sections, notes,
                  legend=legend_on(args))


run = print_for(questions)
