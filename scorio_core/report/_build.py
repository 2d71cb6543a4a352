"""Run a list of analyses on one dataset into a :class:`Report` that the renderers read."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import pandas as pd

from .._validation import (
    ValidationError,
    checked_keywords,
    did_you_mean,
    said_of,
    split_names,
)
from ..definitions import (
    ANALYSES,
    SECTIONS,
    SIMULATIONS,
    Analysis,
    Chart,
    TableView,
    default_sections,
    params_dict,
)
from ..definitions.provenance import benchmark_words, provenance

# the table as a reader sees it, and a wide one's parts: one rule for the report, show() and
# a result's own display
from ..display import PART_COLUMNS, WIDE_COLUMNS, Displayed, column_parts, part_text, readable
from ..formatting import count_text, shape_text
from ..outcomes import Outcomes, as_outcomes
from ..params import widget_labels

__all__ = [
    "Report",
    "WIDE_COLUMNS",
    "PART_COLUMNS",
    "column_parts",
    "part_text",
    "left_out_text",
    "SectionResult",
    "build_report",
    "parse_sections",
    "settings_text",
    "settings_items",
    "setting_text",
    "SettingText",
    "provenance_rows",
    "HowRead",
    "how_read",
    "EMPTY_TABLES",
    "empty_table_text",
    "readable",
]

SectionSpec = str | tuple[str, Any]

# A report takes any id of SECTIONS: the analyses of the data, then the simulation studies
# (never in the default sections, DEFAULT_SECTIONS: they do not look at the data).


@dataclass(frozen=True)
class SectionResult:
    """One analysis in a report: its result, or why it could not run.

    ``error`` is ``None`` when the analysis ran; otherwise ``result`` is
    ``None`` and ``tables``/``charts`` are empty. ``tables`` are whole (what the exports
    hold); ``shown`` is how the report shows each (:meth:`Analysis.shown_tables
    <scorio_core.definitions.Analysis.shown_tables>`: e.g. the pair chart's questions,
    with a line on the rest).
    """

    analysis: Analysis
    params: Any
    result: Any
    error: str | None
    tables: dict[str, pd.DataFrame]
    charts: list[Chart]
    caveats: list[str]
    seconds: float
    shown: dict[str, TableView] = field(default_factory=dict)


@dataclass(frozen=True, repr=False)  # displays itself (scorio_core.display.VIEWS)
class Report(Displayed):
    """A titled list of analysis sections on one dataset, with its provenance.

    ``left_out`` maps a default section that does not fit these data to why (a report
    that names no sections runs :func:`~scorio_core.definitions.default_sections`)."""

    title: str
    data: Outcomes
    sections: tuple[SectionResult, ...]
    provenance: dict[str, Any]
    left_out: dict[str, str] = field(default_factory=dict)


def _word(v: Any, seed: bool = False) -> str:
    """A setting's value in words: a count with thousands separators, as the caveats and
    tables print it ("10,000 replicates"), a seed as it is typed, a list comma-separated
    (each row of a table of them in brackets: a lesson's ``R``)."""
    if v is None:  # a setting that declares no word for it (params.Setting.unset)
        return "not set"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int) and not seed:
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, list | tuple):
        return ", ".join(f"[{_word(x, seed)}]" if isinstance(x, list | tuple) else
                         _word(x, seed) for x in v) if v else "none"
    return str(v)


class SettingText(NamedTuple):
    """One setting as a report's settings line says it: ``label``, what the page calls it
    (:func:`~scorio_core.params.widget_labels`, several joined by " / "; ``""`` where none is
    declared), ``name``, the keyword a notebook call takes, and ``value`` in words."""

    label: str
    name: str
    value: str


def settings_items(s: SectionResult) -> list[SettingText]:
    """A section's settings, each with its label and its value in words: lists
    comma-separated, an unset setting as its declaration says what unset means
    (:attr:`Setting.unset <scorio_core.params.Setting>`: "none (ν = counts + 1)", "all
    questions") -- or, where the analysis resolves it
    (:attr:`~scorio_core.definitions.Analysis.resolved`), the value this run used.

    Example
    -------
    >>> from scorio_core.report._build import settings_items
    >>> rep = sc.build_report(sc.load("data/biased_coins.npz"), [("compare", None)])
    >>> settings_items(rep.sections[0])
    [SettingText(label='Methods', name='methods', value='all')]
    """
    values = {k: _word(v, seed="seed" in k) for k, v in params_dict(s.params).items()}
    # the declared words of the unset settings, and what this run took (a section that
    # failed has no result: the declared words alone)
    values.update(s.analysis.resolved(s.params, s.result))
    out = []
    for name, value in values.items():
        label = " / ".join(widget_labels(type(s.params), name))
        out.append(SettingText(label[:1].upper() + label[1:], name, value))
    return out


def _same(text: str) -> str:
    return text


def _code_span(name: str) -> str:
    return f"`{name}`"


def settings_text(s: SectionResult, text: Callable[[str], str] = _same,
                  code: Callable[[str], str] = _code_span) -> str:
    """A section's settings line (after "Settings: "), for a reader who may never open the
    notebook: each setting by its label, then the name a notebook call takes, then its value
    (:func:`settings_items`), separated by semicolons (a value may hold commas) --
    "Confidence (`confidence`): 0.95; Scope (`scope`): questions" -- as the Markdown report
    and the notebook write it (the HTML report lists the same items, :func:`setting_text`, one
    a line). ``text`` writes the words and values in the format (Markdown escaping), ``code``
    the name as code (default: a Markdown code span).

    Example
    -------
    >>> from scorio_core.report._build import settings_text
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> R = (np.random.default_rng(0).random((3, 20, 4)) < [[[.8]], [[.7]], [[.4]]]).astype(int)
    >>> rep = sc.build_report(Outcomes(R), [("plan", {"n_max": 8, "sims": 200})])
    >>> text = settings_text(rep.sections[0])
    >>> text.split("; ")[:2]
    ['Confidence (`confidence`): 0.95', 'Scope (`scope`): questions']
    >>> "Extra trials (budget) (`budget_trials`): 12 (0 = L × N)" in text
    True
    >>> "null" in text, "None" in text
    (False, False)
    """
    return "; ".join(setting_text(i, text, code) for i in settings_items(s))


def setting_text(item: SettingText, text: Callable[[str], str] = _same,
                 code: Callable[[str], str] = _code_span) -> str:
    """One setting of a settings line (:func:`settings_text`): "Label (`name`): value", or
    "`name`: value" where no label is declared.

    Example
    -------
    >>> from scorio_core.report._build import SettingText, setting_text
    >>> setting_text(SettingText("Extra trials (budget)", "budget_trials", "12 (0 = L × N)"))
    'Extra trials (budget) (`budget_trials`): 12 (0 = L × N)'
    """
    if not item.label:
        return f"{code(item.name)}: {text(item.value)}"
    return f"{text(item.label)} ({code(item.name)}): {text(item.value)}"


@checked_keywords
def parse_sections(text: str) -> list[str]:
    """Analysis ids from a comma-separated list such as ``"leaderboard,compare"``: the CLI's
    ``--sections``, and ``sections=`` given as one string to :func:`build_report` and
    ``sc.report``.

    Example
    -------
    >>> from scorio_core.report import parse_sections
    >>> parse_sections("leaderboard, plan")
    ['leaderboard', 'plan']
    """
    ids = list(split_names(text))
    unknown = [i for i in ids if i not in SECTIONS]
    if unknown or not ids:
        said = ", ".join(
            f"{i!r}" + (f" ({hint[2:]})" if (hint := did_you_mean(i, list(SECTIONS))) else "")
            for i in unknown)
        said = f"; unknown: {said}" if said else ""
        raise ValidationError(
            f"sections must be comma-separated analysis ids from {', '.join(ANALYSES)} or "
            f"simulation studies from {', '.join(SIMULATIONS)}; got {text!r}{said}"
        )
    return ids


#: Said in a section whose default scope the report changed (:func:`_params`).
SCOPE_SWITCHED = ("With N = 1 trial per question the questions scope is not identified, so "
                  "this section is shown in the population scope (the mean over the "
                  "population of questions these were drawn from), which is.")


def _params(analysis: Analysis, spec: Any, data: Outcomes | None = None
            ) -> tuple[Any, list[str]]:
    """The section's settings, and what the report says of settings it chose itself."""
    if spec is None:  # defaults fitted to what these data can run (a rubric's presets)
        params = analysis.default_params(data)
        # a report cannot be switched by its reader: where its default scope is not
        # identified (one trial per question), the scope that is identified is shown
        if (data is not None and data.N == 1 and data.M >= 2
                and getattr(params, "scope", None) == "questions"):
            return analysis.default_params(data, scope="population"), [SCOPE_SWITCHED]
        return params, []
    if isinstance(spec, analysis.params):
        return spec, []
    if isinstance(spec, Mapping):
        return analysis.default_params(data, **spec), []
    raise ValidationError(
        f"settings of {analysis.id!r} must be a {analysis.params.__name__} or a dict; "
        f"got {type(spec).__name__}"
    )


def _section(
    data: Outcomes, analysis: Analysis, params: Any,
    progress: Callable[[float, str], None] | None = None, notes: list[str] | None = None,
) -> SectionResult:
    """One section; ``notes`` (the report's own, e.g. :data:`SCOPE_SWITCHED`) open its
    caveats."""
    t0 = time.perf_counter()
    try:
        analysis.check(data)
        result = analysis.run(data, params, progress=progress)
    except ValidationError as exc:
        # said_of: a page showing the report's errors names the options its own way
        return SectionResult(analysis, params, None, said_of(exc), {}, [], [], 0.0)
    tables = analysis.tables(result)
    return SectionResult(
        analysis,
        params,
        result,
        None,
        tables,
        analysis.charts(result),
        list(notes or []) + analysis.caveats(data, params, result),
        time.perf_counter() - t0,
        analysis.shown_tables(result, tables),
    )


#: How a report's reader selects one benchmark (a notebook: ``benchmark=NAME``).
SELECT_ONE = "--benchmark NAME (benchmark= in Python)"


def pooled_text(data: Outcomes, select: str = SELECT_ONE) -> str:
    """The sentence a report opens with when its data pool several benchmarks (the
    combined view), else ``""``: every analysis then counts each question once, whatever
    benchmark it comes from.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.report._build import pooled_text
    >>> o = sc.Outcomes(np.ones((2, 4, 2), dtype=int), benchmarks=["a", "a", "b", "b"])
    >>> pooled_text(o)[:60]
    'These data pool the questions of 2 benchmarks (a, b): every '
    >>> pooled_text(o.select("a"))
    ''
    """
    names = list(dict.fromkeys(data.benchmarks or ()))
    if len(names) < 2:
        return ""
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return (f"These data pool the questions of {len(names)} benchmarks ({shown}): every "
            "analysis counts each question once, whichever benchmark it comes from; report "
            f"one alone with {select}.")


def _spec(s: Any) -> tuple[str, Any]:
    """One item of ``sections``: an analysis id, or an ``(id, settings)`` pair."""
    if isinstance(s, str):
        return s, None
    if isinstance(s, tuple | list) and len(s) == 2 and isinstance(s[0], str):
        return s[0], s[1]
    raise ValidationError(
        "each section is an analysis id or an (id, settings) pair, e.g. sections=['leaderboard', "
        f"('plan', {{'confidence': 0.9}})]; got {type(s).__name__} {str(s)[:80]!r}"
    )


@checked_keywords
def build_report(
    data: Outcomes,
    sections: str | Iterable[SectionSpec] | None = None,
    *,
    title: str | None = None,
    progress: Callable[[float, str], None] | None = None,
) -> Report:
    """Run the chosen analyses on ``data``.

    Parameters
    ----------
    data : Outcomes or array_like (L, M, N)
        The data to analyse (already restricted to one benchmark if wanted); an array is
        read as :func:`~scorio_core.outcomes.as_outcomes` reads it (a 2-D one is refused
        with its two readings).
    sections : str or iterable, optional
        Analysis ids -- a list, or one comma-separated string such as ``"leaderboard,plan"``
        (:func:`parse_sections`, as ``scorio-studio report --sections``) -- or ``(id,
        params)`` pairs where ``params`` is the analysis's ``Params`` or a dict of its
        fields. Default: the analyses of
        :data:`~scorio_core.definitions.DEFAULT_SECTIONS` that fit the data, with their
        default settings (those that do not fit are listed in ``Report.left_out`` with why,
        and the report says so in one line); ``stability`` and ``check``
        (:data:`~scorio_core.definitions.NAMED_ONLY`) and the simulation studies
        (:data:`~scorio_core.definitions.SIMULATIONS`) run only when named. A named
        analysis that does not fit the data (e.g. greedy without ``R0``) becomes a section
        that says why.
    title : str, optional
        Default: ``"Scorio Studio report: <dataset name>"``.
    progress : callable ``(fraction, message)``, optional

    Returns
    -------
    Report

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 4)), name="demo")
    >>> rep = sc.build_report(data, ["leaderboard", ("greedy", {"replicates": 5})])
    >>> [(s.analysis.id, s.error) for s in rep.sections]  # doctest: +NORMALIZE_WHITESPACE
    [('leaderboard', None),
     ('greedy', 'Greedy vs sampling: needs greedy outcomes (R0); this dataset has none')]
    """
    data = as_outcomes(data, "report")  # an array as every analysis reads it
    left_out: dict[str, str] = {}
    if sections is None:
        specs, left_out = default_sections(data)
    elif isinstance(sections, str):  # "leaderboard,plan", as the CLI's --sections (not letters)
        specs = parse_sections(sections)
    else:
        specs = list(sections)
    pairs = []
    for s in specs:
        aid, p = _spec(s)
        if aid not in SECTIONS:
            raise ValidationError(
                f"unknown analysis {aid!r}{did_you_mean(aid, list(SECTIONS))}; expected one "
                f"of {', '.join(SECTIONS)}"
            )
        pairs.append((SECTIONS[aid], *_params(SECTIONS[aid], p, data)))
    out = []
    n = max(len(pairs), 1)
    for i, (a, p, notes) in enumerate(pairs):
        sub = None
        if progress is not None:
            progress(i / n, a.title)

            def sub(f: float, msg: str, i: int = i, title: str = a.title) -> None:
                progress((i + min(max(f, 0.0), 1.0)) / n, f"{title}: {msg}")

        out.append(_section(data, a, p, sub, notes))
    if progress is not None:
        progress(1.0, "done")
    prov = provenance(data, "report")
    prov["settings"] = {s.analysis.id: params_dict(s.params) for s in out}
    ran = {s.analysis.id for s in out if s.error is None}  # a section that said why not drew none
    prov["seeds"] = {
        f"{aid}.{k}": v
        for aid, st in prov["settings"].items() if aid in ran
        for k, v in st.items()
        if "seed" in k
    }
    return Report(title or f"Scorio Studio report: {data.name}", data, tuple(out), prov,
                  left_out)


def left_out_text(report: Report) -> list[str]:
    """One sentence per default section that does not fit the report's data (none when
    the sections were named): what a report that chose its own sections says of those it
    left out, instead of a section that could not run.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.report._build import left_out_text
    >>> rep = sc.build_report(sc.Outcomes(np.ones((2, 3, 4), int)))
    >>> left_out_text(rep)[0]
    'Not in this report — Greedy vs sampling: needs greedy outcomes (R0); this dataset has none.'
    """
    out = []
    for aid, why in report.left_out.items():
        why = why.rstrip(".")  # a reason that names its subject stands alone (as check's)
        said = why if why[:1].isupper() else f"{ANALYSES[aid].title}: " + why
        out.append("Not in this report — " + said + ".")
    return out


#: What an analysis table with no rows means, by table name: the report says this sentence
#: instead of a bare header row (a name not listed gets :data:`EMPTY_TABLE`).
EMPTY_TABLES = {
    "unresolved": "None: every adjacent pair is decided.",
    "pairs": "None: every adjacent pair is already decided, so no pair needs more trials.",
    "uninformative": "None: every question separates some models (no question was always "
                     "right, always wrong or all tied for every model).",
    "disagree": "None: there are no questions on which to compare the models.",
    "order_curve": "None: no pair to follow (the chart above says why).",
    "gap_curve": "None: no pair to follow (the chart above says why).",
    "flips": "None: no trials of this question to show side by side.",
    "repeats": "None: no repeated answers to group.",
}
EMPTY_TABLE = "None: this table has no rows for these data."


def empty_table_text(name: str) -> str:
    """The sentence a report shows for table ``name`` when it has no rows.

    Example
    -------
    >>> from scorio_core.report._build import empty_table_text
    >>> empty_table_text("unresolved")
    'None: every adjacent pair is decided.'
    """
    return EMPTY_TABLES.get(name, EMPTY_TABLE)


def _lines(v: Any) -> list[str]:
    return list(dict.fromkeys(map(str, v))) if isinstance(v, list | tuple) else [str(v)]


def provenance_rows(prov: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The provenance block as ``(label, lines)`` rows, in plain words -- the HTML and the
    Markdown report print the same, above the record itself: the input file(s) listed one a
    line, each file's sha256 as ``sha256sum`` prints it (``<digest>  <file>``) when the data
    came from several files, the loader options they were read with as the ``sc.load`` call
    writes them (:func:`load_options_text`), the record's benchmark in words
    (:func:`~scorio_core.definitions.provenance.benchmark_words`).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> from scorio_core.definitions.provenance import attach_sources, provenance
    >>> from scorio_core.report._build import provenance_rows
    >>> data = attach_sources(Outcomes(np.ones((1, 2, 1), int)), [("a.csv", b"1"), ("b.csv", b"2")])
    >>> rows = dict(provenance_rows(provenance(data)))
    >>> [line[:16] for line in rows["sha256"]]
    ['6b86b273ff34fce1', 'd4735e3a265e16ee']
    >>> csv = b"model,question,trial,outcome\\nA,q1,0,7\\nB,q1,0,3\\n"
    >>> graded = sc.load(csv, filename="g.csv", score_range=(0, 10), correct_from=5)
    >>> dict(provenance_rows(provenance(graded)))["load options"]
    ['score_range=(0.0, 10.0), correct_from=5.0']
    """
    inp, shape = prov["input"] or {}, prov["shape"]
    per_file = inp.get("sha256_per_file") or {}
    # every file read, each once (a log's and those read beside it for names); else the
    # file(s) the record names
    files = list(per_file) or (_lines(inp["file"]) if inp.get("file") else [])
    if not files:
        where = ("input file", ["(none: made in code or from a data frame, not from a file)"])
        sha = ["(none: the data were not loaded from a file)"]
    else:
        where = ("input file" if len(files) == 1 else f"input files ({len(files)})", files)
        if inp.get("sha256"):
            sha = [inp["sha256"]]
        elif inp.get("not_hashed"):
            sha = [inp["not_hashed"]]
        elif per_file:
            sha = [f"{h or 'not hashed'}  {name}" for name, h in per_file.items()]
        else:
            sha = ["(not recorded for this input: read from memory, not from a file on disk)"]
    given = load_options_text(prov)
    loaded = [("load options", [given or "none (the loader's defaults)"])] if (
        given or files) else []
    return [
        ("dataset", [prov["dataset"]]),
        where,
        ("sha256", sha),
        *loaded,
        ("shape", [shape_text(shape["models"], shape["questions"], shape["trials"])]),
        ("benchmark", [benchmark_words(prov)]),
        ("synthetic", ["yes" if prov["synthetic"] else "no"]),
        ("seeds", [", ".join(f"{k} = {v}" for k, v in prov["seeds"].items()) or "none"]),
        ("versions", [", ".join(f"{k} {v}" for k, v in prov["versions"].items())]),
        ("created (UTC)", [prov["created_utc"]]),
    ]


def load_options_text(prov: dict[str, Any]) -> str:
    """The loader options a provenance record says the data were read with
    (``load_options``, the data's own record) as the ``sc.load`` call writes them
    (:func:`~scorio_core.io.load_keywords_text`: ``correct_from=5.0, number_trials=True``),
    ``""`` for none.

    Example
    -------
    >>> from scorio_core.report._build import load_options_text
    >>> load_options_text({"load_options": {"number_trials": True, "where": {"t": ["0.7"]}}})
    "number_trials=True, where={'t': ('0.7',)}"
    """
    from ..io import LoadOptions, load_keywords_text

    given = prov.get("load_options") or {}
    if not given:
        return ""
    try:  # as a call writes them (tuples, not the record's JSON lists)
        return load_keywords_text(LoadOptions(**given))
    except (TypeError, ValueError):  # a record no longer read the same way: as recorded
        return ", ".join(f"{k}={v!r}" for k, v in given.items())


@dataclass(frozen=True)
class HowRead:
    """How harness logs were read (their import report): one row per file, the sentences
    that say what the columns mean and what was left out, and the report's notes."""

    table: pd.DataFrame
    sentences: list[str]
    notes: list[str]


def how_read(data: Outcomes) -> HowRead | None:
    """The "How the data were read" part of a report: ``None`` unless ``data`` came from
    harness logs (``metadata["import_report"]``).

    Example
    -------
    >>> from scorio_core.report._build import how_read
    >>> part = how_read(sc.load("tests/fixtures/harness/openai_evals/modelgraded_partial"))
    >>> list(part.table.columns)[:4], any("grader" in n for n in part.notes)
    (['model', 'benchmark', 'ours (mean)', 'harness value'], True)
    """
    from ..io import import_table, means_text  # one table of the import report, the app's too

    rep = data.metadata.get("import_report")
    if not rep or not rep.get("files"):
        return None
    table = import_table(rep).drop(columns="notes")  # the notes are listed below it
    if table["harness value"].isna().all():  # no harness headline in these logs
        table = table.drop(columns=["harness value", "harness reducer"])
    elif (table["harness reducer"] == "").all():
        table = table.drop(columns="harness reducer")
    n = rep.get("n_files", len(table))
    missing = rep.get("missing_samples", 0)
    sentences = [
        f"{count_text(n, 'file')} read; {count_text(missing, 'sample')} without a score "
        "(errored or unscored: missing cells, handled by the loader's on_missing setting)."
    ]
    if table["ours (mean)"].notna().any():  # the columns, as the loader defines them
        sentences.append(means_text(rep, name=str) + ".")
    if skipped := rep.get("skipped_files"):
        sentences.append("Skipped (not outcome files): " + ", ".join(map(str, skipped)) + ".")
    return HowRead(table, sentences, [str(x) for x in rep.get("notes", [])])
