"""``scorio-studio questions``: the question view (the Questions page's definition,
:data:`scorio_core.definitions.ANALYSES` ``["questions"]``)."""

from __future__ import annotations

from ..formatting import shape_text
from ._common import (
    _csv,
    _json,
    _run,
    definition_parser,
    output_format,
    print_for,
    render,
)

__all__ = ["add_parser", "run", "questions"]


def add_parser(sub) -> None:
    definition_parser(sub, "questions", "QuestionsParams",
                      "question view: per-question success, 2PL difficulty and "
                      "discrimination, uninformative questions, where models disagree")


def _shape(data) -> str:
    L, M, N = data.R.shape
    return f"{data.name} ({shape_text(L, M, N)})"


def questions(data, args) -> str:
    from ..definitions import ANALYSES
    from ..params import QuestionsParams, from_args

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

    def table(name: str):
        view = shown[name]
        return (view.note, None) if view.table.empty and view.note else ("", view)

    said, disagree = table("disagree")
    sections = [
        ("Where models disagree most", said or "disagreement = mean |score_i - score_j| over "
         "model pairs", disagree),
        ("Questions that carry no information", "every model always right or always wrong"
         if len(t["uninformative"]) else "none: every question separates some models", None
         if not len(t["uninformative"]) else shown["uninformative"]),
    ]
    if "by_subset" in t:
        sections.append((f"Per subset ({result.by})", "", shown["by_subset"]))
    sections.append(("Questions, easiest first", f"2PL fit: {result.stats.irt}",
                     shown["questions"]))
    return render(fmt, f"Questions of {_shape(data)}", [], sections, notes)


run = print_for(questions)
