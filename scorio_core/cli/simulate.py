"""``scorio-studio simulate {coins|prior-depth|order|calibration|rubric-lesson}``: the
Simulator page's studies, each rendered from its one definition in
:data:`scorio_core.definitions.SIMULATIONS`.

``table`` for people (the lesson's "How to read this" under the title, its settings, headline
numbers and tables, then its "What to notice": the lesson the page and a report read, said of
the tables printed here instead of their charts), ``markdown`` the same as Markdown, ``csv``
(the study's tables under a provenance header) and ``json`` (provenance, settings, tables and
the headline numbers) for scripts.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["add_parser", "run", "render", "reading_lines", "STUDIES"]

#: study -> its one-line help; its flags come from its declared settings
#: (:data:`scorio_core.simulate.params.STUDY_PARAMS`, a light module: ``--help`` does not
#: import the studies)
STUDIES = {
    "coins": "τ_b vs N against the true ranking of the 11 biased coins (000 Fig. 2a)",
    "prior-depth": "original/updated models and prior depth D (000 App. C, Fig. 5)",
    "order": "P(correct order) and z vs N for a better and a worse model, --upper and "
             "--lower (by default LLM10 and LLM9 of 000 App. D, Fig. 6)",
    "calibration": "coverage of the leaderboard's 95% headline intervals, beside the papers' "
                   "Bayes@N interval, vs N and M in both scopes",
    "rubric-lesson": "Bayes@N term by term for 001's worked example (Algorithm 1)",
}


def add_parser(sub) -> None:
    """Register the ``simulate`` subcommand and one sub-subcommand per study, each with
    the flags of its declared settings, the output format and the Dask options."""
    from ..params import add_options
    from ..simulate.params import STUDY_PARAMS
    from ._common import _add_cluster_args, add_format

    p = sub.add_parser("simulate", help="teaching simulations with known truth: the "
                       "papers' figures, interval coverage and a worked example")
    studies = p.add_subparsers(
        dest="study", required=True, metavar="STUDY",
        help="the study; its settings: scorio-studio simulate STUDY --help")
    for study, text in STUDIES.items():
        sp = studies.add_parser(study, help=text.replace("%", "%%"),
                                description=text)  # help is %-formatted, this is not
        add_options(sp, STUDY_PARAMS[study])
        add_format(sp)
        if study != "rubric-lesson":
            _add_cluster_args(sp)  # the studies' replicates on Dask (the lesson has none)


def params(args: argparse.Namespace):
    """The study's ``Params`` from the flags (unset flags keep the declared defaults)."""
    from ..params import from_args
    from ..simulate.params import STUDY_PARAMS

    return from_args(STUDY_PARAMS[args.study], args)


def _notes(study: str, r) -> dict:
    if study == "prior-depth":
        return {"update": r.update_summary,
                "original_means": [round(float(m), 4) for m in r.original_means]}
    if study == "order":
        return {"N_at_z": r.n_at, f"predicted_from_N={r.predict_from}": r.predicted_at}
    if study == "rubric-lesson":
        return {"mu": r.mu, "sigma": r.sigma, "T": r.T}
    return {}


def _text_tables(study: str, shown: dict) -> dict:
    """The tables for people (as the report shows them, :meth:`Analysis.shown_tables`),
    τ wide: per method (coins) or per depth (prior-depth) at a few N. Prior depth's one-row
    update table is left out: its two numbers are the headlines above it. The coins table
    keeps n = 1, 2, 4, ... and the last n (the run's N), where the lesson's lines end."""
    if study == "coins":
        summ = shown["tau"].table
        wide = summ.pivot(index="n", columns="method", values="mean")
        wide = wide[list(dict.fromkeys(summ["method"]))]
        last = int(wide.index[-1])
        keep = [n for n in wide.index if n == last or (n & (n - 1) == 0)]
        return {"tau": wide.loc[keep].reset_index()}
    if study == "prior-depth":
        wide = shown["tau"].table.pivot(index="n", columns="D", values="mean")
        wide.columns = [f"D={d}" for d in wide.columns]
        return {"tau": wide.reset_index()}
    return shown


def _text_columns(study: str, analysis) -> dict:
    """What the columns of each table of :func:`_text_tables` hold, for the legend under it:
    the study's declaration (:meth:`Analysis.column_help
    <scorio_core.definitions.Analysis.column_help>`); the wide τ tables' value columns (a
    method's, a depth's) hold the long table's ``mean``, said in its declared words."""
    declared = {name: analysis.column_help(name) for name in analysis.columns}
    tau = declared.get("tau", {})
    if study == "coins":
        declared["tau"] = {"n": tau["n"], "{method}": tau["mean"]}
    elif study == "prior-depth":
        declared["tau"] = {"n": tau["n"], "D={D}": f"{tau['mean']}; D = {tau['D']}"}
    return declared


def settings_lines(params) -> list[str]:
    """The study's settings as the user would type them: ``Settings:`` and the flags of
    this command with their values (``--concentration 3``, ``--weights 0,0.5,1``; a switch
    named when on), then the settings it has no flag for, as a notebook writes them
    (``methods = ('bayes', 'avg')``), one left unset with what that means (its declared
    :attr:`~scorio_core.params.Setting.unset`: ``R0 = None (ν = counts + 1)``).

    Example
    -------
    >>> from scorio_core.cli.simulate import settings_lines
    >>> from scorio_core.simulate.params import OrderParams, RubricLessonParams
    >>> settings_lines(OrderParams(upper=0.7, lower=0.6))
    ['Settings: --upper 0.7 --lower 0.6 --concentration 8 --replicates 4000 --seed 0']
    >>> settings_lines(RubricLessonParams())[1]
    'Without a flag here (set in Python): R0 = None (ν = counts + 1), R = ((0, 1, 2, 2, 1), \
(1, 1, 0, 2, 2))'
    """
    from ..params import _flag, settings_of, unset_words
    from ._common import _typed

    typed, notebook = [], []
    unset = unset_words(params)
    for name, (_, s) in settings_of(type(params)).items():
        value = getattr(params, name)
        if s.cli is None:
            word = unset.get(name)
            if word is None:
                note = ""
            elif value is None and word.startswith("none"):  # None says the word's "none"
                note = word[len("none"):]  # R0 = None (ν = counts + 1)
            else:
                note = f" ({word})"
            notebook.append(f"{name} = {value!r}{note}")
        elif isinstance(value, bool):  # a switch: the flag turns it on
            typed += [_flag(name, s)] if value else []
        else:
            typed.append(f"{_flag(name, s)} {_typed(value)}")
    out = ["Settings: " + " ".join(typed)]
    if notebook:
        out.append("Without a flag here (set in Python): " + ", ".join(notebook))
    return out


def headline_lines(study: str, result) -> list[str]:
    """The numbers the Simulator page headlines (:func:`~scorio_core.definitions.simulate.
    highlights`: each in the format of the table that holds it), one labelled line each."""
    from ..definitions.simulate import highlights
    from ..formatting import format_column

    out = [f"{h.label}: {h.value}" + (f" ({h.help})" if h.help else "")
           for h in highlights(study, result)]
    if study == "prior-depth":  # the truth the updates are drawn around, one format
        means = format_column([float(m) for m in result.original_means], "mean")
        out.append(f"Original models' true means: {', '.join(means)}")
    return out


def render(args: argparse.Namespace) -> str:
    """Run the chosen study and return the text to print."""
    from ..charts.simulate import tables_intro, tables_notice
    from ..definitions import CLUSTER_ANALYSES, SIMULATIONS, params_dict
    from ..definitions.provenance import provenance
    from ..definitions.simulate import LESSONS
    from ..display import readable
    from ..parallel import Executor
    from ._common import _csv, _json, _progress, legend_on, output_format, render

    study, fmt = args.study, output_format(args)
    a = SIMULATIONS[study]
    p = params(args)
    extra = {}
    with Executor(getattr(args, "workers", None), getattr(args, "scheduler", None)) as ex:
        if study in CLUSTER_ANALYSES:
            extra["executor"] = ex
        result = a.run(None, p, progress=_progress(study), **extra)
    tables, notes = a.tables(result), _notes(study, result)
    prov = provenance(None, study, p)
    settings = params_dict(p)
    if fmt == "json":
        payload = {
            "study": a.title,
            "settings": settings,
            **{k: t.to_dict(orient="records") for k, t in tables.items()},
            **notes,
        }
        return _json(payload, prov)
    if fmt == "csv":
        return _csv(prov, *tables.values())
    intro = settings_lines(p) + headline_lines(study, result)
    shown = _text_tables(study, a.shown_tables(result, tables))
    declared = _text_columns(study, a)  # each table's columns, for the legend under it
    body = render(fmt, a.title, intro, [(name, "", t, declared.get(name))
                                        for name, t in shown.items()], legend=legend_on(args))
    # the lesson the page and a report read, said of what is printed here: how to read its
    # headlines and tables under the title, what to notice in them once they are printed
    printed = {name: readable(t)[0] for name, t in shown.items()}
    lesson = LESSONS[study]
    title, rest = body.split("\n", 1)
    out = [title, "", *reading_lines("How to read this",
                                     tables_intro(lesson, p, result, printed), fmt),
           rest.rstrip("\n"), "",
           *reading_lines("What to notice", tables_notice(lesson, p, result, printed), fmt)]
    return "\n".join(out) + "\n"


def reading_lines(label: str, text: str, fmt: str) -> list[str]:
    """A study's "How to read this" or "What to notice" (Markdown prose, as its definition
    says it once): in ``markdown`` as the report writes it, its emphasis and code spans kept;
    in ``table`` as a terminal reads it, the markup gone (:func:`~scorio_core.formatting.
    md_plain`) and the paragraph wrapped to the width the leaderboard's sentences take.

    Example
    -------
    >>> from scorio_core.cli.simulate import reading_lines
    >>> reading_lines("How to read this", "Eleven *LLM mimics*, the prior `R0`", "table")
    ['How to read this: Eleven LLM mimics, the prior R0']
    >>> reading_lines("How to read this", "Eleven *LLM mimics*, the prior `R0`", "markdown")
    ['**How to read this.** Eleven *LLM mimics*, the prior `R0`']
    """
    import textwrap

    from ..formatting import LINE_WIDTH, md_plain, md_prose  # one rule for Markdown's prose
    from ._common import cli_text

    if fmt == "markdown":
        return [f"**{label}.** {md_prose(cli_text(text))}"]
    return textwrap.wrap(f"{label}: {md_plain(cli_text(text))}", LINE_WIDTH,
                         break_on_hyphens=False)


def run(args: argparse.Namespace) -> int:
    """Print the chosen study."""
    sys.stdout.write(render(args))
    return 0
