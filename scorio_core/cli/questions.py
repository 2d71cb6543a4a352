"""``scorio-studio questions``: the question view (the Questions page's definition,
:data:`scorio_core.definitions.ANALYSES` ``["questions"]``)."""

from __future__ import annotations

import sys

from ._common import (
    _add_data_args,
    _csv,
    _json,
    _run,
    _with_source,
    add_format,
    load,
    output_format,
    render,
)

__all__ = ["add_parser", "run", "questions"]


def add_parser(sub) -> None:
    from ..params import QuestionsParams, add_options

    qv = sub.add_parser("questions", help="question view: per-question success, 2PL difficulty "
                        "and discrimination, uninformative questions, where models disagree")
    _add_data_args(qv)
    add_options(qv, QuestionsParams)  # as declared in scorio_core/params.py
    add_format(qv)


def run(args) -> int:
    """Print the question view of the data the flags name."""
    sys.stdout.write(questions(_with_source(args, load(args)), args))
    return 0


def _shape(data) -> str:
    L, M, N = data.R.shape
    return f"{data.name} ({L} models x {M} questions x {N} trials)"


def questions(data, args) -> str:
    from ..definitions import ANALYSES
    from ..params import QuestionsParams, from_args

    params = from_args(QuestionsParams, args)
    result, t, prov = _run("questions", data, params)
    notes = ANALYSES["questions"].caveats(data, params, result)
    fmt = output_format(args)
    if fmt == "json":
        return _json({"dataset": data.name, "irt": result.stats.irt,
                      **{k: v.to_dict(orient="records") for k, v in t.items()}}, prov)
    if fmt == "csv":
        return _csv(prov, *t.values())
    sections = [
        ("Where models disagree most", "disagreement = mean |score_i - score_j| over model "
         "pairs", t["disagree"]),
        ("Questions that carry no information", "every model always right or always wrong"
         if len(t["uninformative"]) else "none: every question separates some models", None
         if not len(t["uninformative"]) else t["uninformative"]),
    ]
    if "by_subset" in t:
        sections.append((f"Per subset ({result.by})", "", t["by_subset"]))
    sections.append(("Every question, easiest first", f"2PL fit: {result.stats.irt}",
                     t["questions"]))
    return render(fmt, f"Questions of {_shape(data)}", [], sections, notes)
