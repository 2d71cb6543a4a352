"""The :class:`Analysis` contract shared by every definition, and small shared helpers.

An analysis is one frozen record of functions over a frozen ``Params``
dataclass: ``run(data, params)`` returns a named result; ``tables(result)``
and ``charts(result)`` render it; ``caveats(data, params, result)`` says what
limits it; ``to_code(params, data_expr)`` is the notebook cell that reproduces
it with public ``scorio_core`` calls, and ``chart_code`` are the expressions
(evaluated after that cell) that draw its charts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, NamedTuple

import pandas as pd

from .._validation import (
    Said,
    ValidationError,
    as_names,
    capitalized,
    split_names,
    unknown_settings,
)
from ..display import PRINTED_ROWS  # declared with the renderers: the report's and notebook's
from ..formatting import count_text, noun_text
from ..outcomes import (  # as_outcomes: re-exported
    ONE_MODEL_NEXT,
    Outcomes,
    as_outcomes,
    binary_next,
)
from ..params import unset_words
from ..references import expand

if TYPE_CHECKING:  # altair loads when a chart is drawn, not when a definition is read
    import altair as alt

__all__ = [
    "Analysis",
    "as_outcomes",
    "Chart",
    "TableView",
    "PRINTED_ROWS",
    "Progress",
    "resolve_methods",
    "settings_code",
    "params_dict",
    "common_caveats",
]


#: ``progress(fraction, message)``: the callback long runs report to (page bar, CLI stderr).
Progress = Callable[[float, str], None]

#: What a ``method`` column holds, in every table that lists ranking methods (the method
#: comparison, convergence, stability): one declaration (:attr:`Analysis.columns`).
METHOD_COLUMN = "a registered ranking method's id (scorio-studio methods lists them)"
#: What a ``family`` column beside it holds.
FAMILY_COLUMN = "the method's family in the registry (metrics, paired, irt, voting, ...)"


class _ChartFields(NamedTuple):
    title: str
    chart: alt.TopLevelMixin
    caption: str
    empty: str | None = None
    interactive: str | None = None


class Chart(_ChartFields):
    """One chart of an analysis: its title, the Altair chart and what to read from it.

    ``empty`` says why the chart has nothing to show on these data (e.g. no replicate
    converged, so a convergence@n distribution is flat at zero); renderers that can (the
    report) print it instead of drawing an empty chart. ``interactive``: what the chart
    shows under the pointer (a click, a hover), one sentence said after the caption where
    the chart is drawn live (a page, a notebook report's chart cell: :attr:`live_caption`);
    the drawings as pictures (the HTML and Markdown reports, a result's own SVG display, an
    exported file) leave it out, as there nothing responds. Paper keys in the texts
    (``Don't Pass@k (2026), App. D``) are spelled out by title
    (:func:`scorio_core.references.expand`).
    """

    __slots__ = ()

    def __new__(cls, title: str, chart: alt.TopLevelMixin, caption: str,
                empty: str | None = None, interactive: str | None = None) -> Chart:
        return super().__new__(cls, expand(title), chart, expand(caption), expand(empty),
                               expand(interactive))

    @property
    def live_caption(self) -> str:
        """The caption where the chart is drawn live: :attr:`interactive` after it."""
        return f"{self.caption} {self.interactive}" if self.interactive else self.caption


class TableView(NamedTuple):
    """How a reader's rendering (the report, the CLI's text) shows one table of a result:
    the rows chosen for reading -- e.g. the pair chart's questions -- and ``note``, one
    line saying what the rows left out hold, so the table still reconciles with the
    section's numbers, or lines said under it (the Planner's per-pair notes, a column of
    sentences in the exports). The exports (CSV/JSON) keep the whole table
    (:attr:`Analysis.tables`)."""

    table: pd.DataFrame
    note: str | tuple[str, ...] | None = None


@dataclass(frozen=True)
class Analysis:
    """One analysis, defined once and rendered by page, CLI, report and notebook.

    Attributes
    ----------
    id, title : str
        Registry key (also the report's ``--sections`` name) and section heading.
    params : type
        Frozen dataclass of settings; ``params()`` gives the defaults and its
        ``__post_init__`` validates.
    run : callable ``(Outcomes, params, progress=None) -> result``
        ``progress(fraction, message)`` (optional) hears about long runs.
    tables : callable ``result -> dict[str, DataFrame]``
    charts : callable ``result -> list[Chart]``
    how_to_read : str
        A short paragraph: what the section shows and how to read it.
    reading : callable ``(params, result) -> str``, optional
        The paragraph of one run where it names the run's own settings and results (a
        simulation study: the pair it simulated); renderers of a run (report, notebook)
        read it through :meth:`how_to_read_for`. Default: :attr:`how_to_read`.
    notice : callable ``(params, result) -> str``, optional
        What to notice in one run's result (a simulation study's lesson: which line ends
        highest, how often the pair is ordered wrongly): the Simulator page shows it under
        the charts, the report and its notebook after them, all through
        :meth:`notice_for`. Default: none.
    caveats : callable ``(Outcomes, params, result) -> list[str]``
    to_code : callable ``(params, data_expr) -> str``
        Python source of a notebook cell that recomputes the result from a
        variable named ``data_expr`` holding the :class:`Outcomes`; it binds
        ``result_var`` and ends with the main table shown as the report prints it,
        ``sc.display.show(table)`` (:func:`scorio_core.display.show`): the reader sees the
        report's numbers, the variables stay the raw frames and results.
    chart_code : tuple of str
        One expression per chart (same order as ``charts``), valid after ``to_code``.
    requires : callable ``Outcomes -> str | None``
        Why the analysis cannot run on these data (``None`` when it can).
    result_var : str
        Name of the variable ``to_code`` binds to the core result.
    resolved : callable ``(params, result) -> dict[str, str]``, optional
        The value a setting left at its default (``None``, or ``0`` meaning "as many
        again") actually took in this run, in words (e.g. the Planner's budget): the
        report's settings line and a result's caption state what was used, not the
        placeholder. Given one or not, the analysis's ``resolved`` first words every setting
        left unset by its declaration (:func:`~scorio_core.params.unset_words`: "none (no
        G-Pass@k_τ curve)"), then this hook's words, where there is a result, over them.
    views : callable ``(result, tables) -> dict[str, TableView]``, optional
        The tables a reader's rendering (report, CLI text) shows other than whole
        (:class:`TableView`: the rows chosen for reading and one line on the rest);
        ``tables`` stays complete for the exports. See :meth:`shown_tables`.
    csv_tables : callable ``result -> dict[str, DataFrame]``, optional
        The tables as the CSV files hold them where a file carries more than the table on
        screen (the leaderboard's: a constant ``scope`` column,
        :func:`scorio_core.export.csv_table`); default :attr:`tables`. The page's CSV
        downloads and the CLI write the same file from it.
    for_data : callable ``Outcomes -> dict``, optional
        The settings whose default depends on what the data can run (a rubric comparison's
        presets: those whose signals the data have; convergence's methods: those the data's
        trials allow), by name. Every run that names no such setting -- a notebook call, a
        report section, the page's first view -- takes them (:meth:`default_params`).
    uses_data : bool
        ``False`` for the simulation studies (:data:`~scorio_core.definitions.SIMULATIONS`):
        they make their own data with known truth from their settings, so ``run``,
        ``caveats`` and ``to_code`` ignore the data (callers may pass ``None``).
    columns : mapping ``{table: {column: meaning}}``
        What each column of each table holds, declared once per column: one line with the
        estimand, its units and how it is computed. A column whose name the data choose (a
        method's id, ``pass@4``) is declared as a template (``{method}``, ``pass@{k}``:
        :func:`~scorio_core.display.column_meanings`). Every rendering reads it -- a
        result's own display and its headers' tooltips, the reports' "Columns:" legend
        under each table, the app's column help and legend (:meth:`column_help`); a test
        fails if a table shows a column it does not declare.
    """

    id: str
    title: str
    params: type
    run: Callable[[Outcomes, Any], Any]
    tables: Callable[[Any], dict[str, pd.DataFrame]]
    charts: Callable[[Any], list[Chart]]
    how_to_read: str
    caveats: Callable[[Outcomes, Any, Any], list[str]]
    to_code: Callable[[Any, str], str]
    chart_code: tuple[str, ...]
    requires: Callable[[Outcomes], str | None]
    result_var: str
    uses_data: bool = True
    resolved: Callable[[Any, Any], dict[str, str]] | None = None
    views: Callable[[Any, dict[str, pd.DataFrame]], dict[str, TableView]] | None = None
    csv_tables: Callable[[Any], dict[str, pd.DataFrame]] | None = None
    reading: Callable[[Any, Any], str] | None = None
    notice: Callable[[Any, Any], str] | None = None
    for_data: Callable[[Outcomes], dict[str, Any]] | None = None
    columns: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # every renderer (page, CLI, report, notebook) reads these: papers by title
        object.__setattr__(self, "how_to_read", expand(self.how_to_read))
        object.__setattr__(self, "columns", {
            table: {c: expand(m) for c, m in cols.items()} for table, cols in self.columns.items()})
        caveats = self.caveats

        def cited(data: Outcomes, params: Any, result: Any) -> list[str]:
            return [expand(c) for c in caveats(data, params, result)]

        object.__setattr__(self, "caveats", cited)
        own = self.resolved

        def resolved(params: Any, result: Any) -> dict[str, str]:
            # what an unset setting means, declared once with it; what the run took over it
            words = unset_words(params)
            if own is not None and result is not None:
                words.update(own(params, result))
            return words

        object.__setattr__(self, "resolved", resolved)

    def __call__(self, data: Any = None, params: Any = None, /, *,
                 progress: Progress | None = None, **settings: Any) -> Any:
        """Run the analysis: ``params`` (an instance of :attr:`params`) or its settings by
        name, checked; the result remembers the settings and the data's label for its
        display, and the caveats of the run (``result.caveats``: :attr:`caveats`, what the
        page and the report show for it), written now -- it holds no reference to the data.

        This is what ``sc.compare``, ``sc.convergence``, ``sc.stability`` and ``sc.greedy``
        call: one definition, so a notebook gets the page's numbers.

        Example
        -------
        >>> import numpy as np
        >>> from scorio_core.definitions import ANALYSES
        >>> data = sc.Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 4)))
        >>> ANALYSES["greedy"](data)
        Traceback (most recent call last):
        ...
        scorio_core._validation.ValidationError: Greedy vs sampling: needs greedy outcomes (R0); \
this dataset has none
        """
        from ..display import attach

        if self.uses_data:
            data = as_outcomes(data, self.title)
        if params is None:
            known = [f.name for f in fields(self.params)]
            unknown = [k for k in settings if k not in known]
            if unknown:  # as every public call says it (sc.pair's own settings: these)
                raise unknown_settings(self.title, unknown, known)
            params = self.default_params(data if self.uses_data else None, **settings)
        elif settings:
            raise ValidationError(
                f"{self.title}: give params or settings by name, not both; got params and "
                f"{', '.join(settings)}"
            )
        elif not isinstance(params, self.params):
            raise ValidationError(
                f"{self.title}: params must be {self.params.__name__}; got "
                f"{type(params).__name__}"
            )
        if self.uses_data:
            self.check(data)
        result = self.run(data, params, progress=progress)
        return attach(result, self, params, data)

    def default_params(self, data: Outcomes | None = None, **settings: Any) -> Any:
        """The settings of a run on ``data`` that names only ``settings``: the defaults, with
        those whose default depends on what these data can run fitted to them
        (:attr:`for_data`; ``data=None``: the plain defaults).

        Example
        -------
        >>> import numpy as np
        >>> from scorio_core.definitions import ANALYSES
        >>> conv = ANALYSES["convergence"]
        >>> two = sc.Outcomes(np.random.default_rng(0).integers(0, 2, (3, 10, 2)))
        >>> conv.params().methods, conv.default_params(two).methods  # no Pass@4 at N = 2
        ('bayes,pass_at_k_2,pass_at_k_4,pass_at_k_8', 'bayes,pass_at_k_2')
        >>> conv.default_params(two, methods="avg").methods
        'avg'
        """
        fitted = self.for_data(data) if self.for_data is not None and data is not None else {}
        return self.params(**(fitted | settings))

    def shown_tables(self, result: Any,
                     tables: dict[str, pd.DataFrame] | None = None) -> dict[str, TableView]:
        """Every table of ``result`` as a reader's rendering shows it: a :class:`TableView`
        per name of :attr:`tables` (``tables``, when given, are those already made) -- the
        whole table, or the rows :attr:`views` chooses with its note.

        Example
        -------
        >>> import numpy as np
        >>> from scorio_core.definitions import ANALYSES
        >>> pair = ANALYSES["pair"]
        >>> R = np.zeros((2, 30, 4), int); R[0, :3] = 1; R[1, 3] = 1
        >>> r = pair.run(sc.Outcomes(R, models=["a", "b"]), pair.params(top=2))
        >>> len(pair.tables(r)["questions"]), len(pair.shown_tables(r)["questions"].table)
        (30, 2)
        """
        tables = self.tables(result) if tables is None else tables
        views = self.views(result, tables) if self.views is not None else {}
        return {name: views.get(name, TableView(df)) for name, df in tables.items()}

    def column_help(self, table: str) -> dict[str, str]:
        """What each column of the table ``table`` holds: its declaration in :attr:`columns`
        (a template's ``{placeholder}`` stands for part of a name the data choose:
        :func:`~scorio_core.display.column_meanings`); empty for a table it does not know.

        Example
        -------
        >>> from scorio_core.definitions import ANALYSES
        >>> from scorio_core.display import column_meanings
        >>> help = ANALYSES["leaderboard"].column_help("leaderboard")
        >>> column_meanings(["pass@4"], help)["pass@4"][:41]
        'Pass@4: chance that at least one of 4 tri'
        """
        return dict(self.columns.get(table, {}))

    def how_to_read_for(self, params: Any = None, result: Any = None) -> str:
        """The "How to read this" of a run with ``params`` and its ``result`` (``None``: not
        run): :attr:`reading`'s text where the analysis has one, else :attr:`how_to_read`.

        Example
        -------
        >>> from scorio_core.definitions import SIMULATIONS
        >>> order = SIMULATIONS["order"]
        >>> order.how_to_read_for(order.params()) == order.how_to_read  # the paper's pair
        True
        >>> order.how_to_read_for(order.params(upper=0.7, lower=0.6)).split(" (Don't")[0]
        'The better model (π̄ = 0.7) and the worse model (π̄ = 0.6) differ by 10.0 points'
        """
        if self.reading is None or params is None:
            return self.how_to_read
        return expand(self.reading(params, result))

    def notice_for(self, params: Any, result: Any) -> str | None:
        """The "What to notice" of a run with ``params`` and its ``result`` (:attr:`notice`;
        ``None`` where the analysis has none or did not run).

        Example
        -------
        >>> from scorio_core.definitions import SIMULATIONS
        >>> lesson = SIMULATIONS["rubric-lesson"]
        >>> p = lesson.params()
        >>> lesson.notice_for(p, lesson.run(None, p)).split(" (")[0]
        'With weights 0 / 0.5 / 1 and no prior, μ = 0.56250 and σ = 0.09200'
        >>> lesson.notice_for(p, None) is None
        True
        """
        if self.notice is None or result is None:
            return None
        return expand(self.notice(params, result))

    def refusal(self, data: Outcomes) -> str | None:
        """Why the analysis cannot run on ``data`` as a page shows it (``None`` when it can):
        :attr:`requires`'s reason as a sentence -- a capital first letter (the analysis's
        title before a bare "needs ...") and a full stop; the reasons are written to follow
        "Title: " in an error, so some start lower-case.

        Example
        -------
        >>> import numpy as np
        >>> from scorio_core.definitions import ANALYSES
        >>> one = sc.Outcomes(np.ones((1, 4, 8), int))
        >>> ANALYSES["pair"].requires(one)[:13], ANALYSES["pair"].refusal(one)[:13]
        ('the pair view', 'The pair view')
        """
        why = self.requires(data)
        if not why:
            return None
        why = why.strip()  # a Said (options each surface names its own way) stays one
        # "needs greedy outcomes ...": the analysis is its subject
        why = f"{self.title} " + why if why.startswith("needs ") else capitalized(why)
        return why if why.endswith((".", "?", "!")) else why + "."

    def check(self, data: Outcomes) -> None:
        """Raise :class:`ValidationError` when :attr:`requires` says the data do not fit."""
        why = self.requires(data)
        if why:  # a reason that names its subject ("Stability needs ...") stands alone
            raise ValidationError(why if why[:1].isupper() else f"{self.title}: " + why)


def params_dict(params: Any) -> dict[str, Any]:
    """Every setting of a ``Params`` dataclass as plain JSON-friendly values."""
    out = {}
    for f in fields(params):
        v = getattr(params, f.name)
        if isinstance(v, tuple):
            v = [getattr(x, "name", x) for x in v]
        out[f.name] = v
    return out


def resolve_methods(spec: str | Iterable[str]) -> list[str]:
    """Method ids from ``'all'``, a family name, a comma-separated string or a sequence
(a list, tuple or array; anything else is refused), each a registered method: the one
reading of ``methods`` of the analyses, the engines and ``--methods``.

    Example
    -------
    >>> from scorio_core.definitions._base import resolve_methods
    >>> resolve_methods("bayes, avg")
    ['bayes', 'avg']
    """
    from ..rank import FAMILIES, METHODS

    def parse(text: str) -> list[str]:  # --methods: every caller reads a string this way
        s = text.strip()
        if s == "all":
            return list(METHODS)
        if s in FAMILIES:
            return [m for m, v in METHODS.items() if v.family == s]
        return list(split_names(s))

    ids = list(as_names(spec, "methods", noun="method ids", example="bayes,avg", parse=parse))
    if not ids:
        raise ValidationError("methods must name at least one method, 'all' or a family")
    unknown = [i for i in ids if i not in METHODS]
    if unknown:
        raise ValidationError(
            f"unknown {noun_text(len(unknown), 'method id')}: {', '.join(unknown)}; expected "
            "'all', a family "
            f"({', '.join(FAMILIES)}) or ids from `scorio-studio methods`"
        )
    return ids


def settings_code(params: Any) -> str:
    """Every setting of ``params`` as Python keyword arguments (``sc.compare(data, ...)``
    in a notebook cell), each value written as it is held (``repr``).

    Example
    -------
    >>> from scorio_core.definitions._base import settings_code
    >>> from scorio_core.params import GreedyParams
    >>> settings_code(GreedyParams(replicates=8))
    'replicates=8, seed=0'
    """
    return ", ".join(f"{f.name}={getattr(params, f.name)!r}" for f in fields(params))


def common_caveats(data: Outcomes) -> list[str]:
    """Caveats every section shares: what the load did that changes the numbers (tasks
    pooled, trials or questions left out: :attr:`Outcomes.load_notes`, with counts),
    synthetic data and small question/model counts."""
    out = [n if n.endswith(".") else n + "." for n in getattr(data, "load_notes", ())]
    if data.metadata.get("synthetic"):
        out.append(
            "Synthetic data — not real model outputs: simulated outcomes for exploring and "
            "teaching the method; do not cite these numbers as results."
        )
    if data.M < 20:
        out.append(
            f"Only {count_text(data.M, 'question')}: intervals are wide and rankings can "
            "change with a "
            "different question sample."
        )
    if data.L == 2:  # one model: nothing is ranked (the leaderboard's first line says so)
        out.append(f"Only {count_text(data.L, 'model')}: rank agreement statistics (τ_b) are "
                   "coarse.")
    out.extend(_filters_counted_twice(data))
    return out


def _filters_counted_twice(data: Outcomes) -> list[str]:
    """lm-eval logs make one benchmark per filter of a task (``gsm8k/strict-match``,
    ``gsm8k/flexible-extract``): a view of several holds the task's documents once per
    filter, which weights that task more than the others."""
    if "lm_eval" not in str(data.metadata.get("format", "")):
        return []
    tasks: dict[str, list[str]] = {}
    for b in data.benchmark_names:
        if "/" in b:
            tasks.setdefault(b.rsplit("/", 1)[0], []).append(b)
    from ..io.options import mention

    # the option as each surface names it (a Said): Python's keyword, the flag, the box
    return [Said(f"Task {t!r} is here once per filter ({', '.join(bs)}): its documents count "
                 f"{len(bs)} times in this view. Choose one benchmark (",
                 mention("benchmark", bs[0]), ") to count each document once.")
            for t, bs in tasks.items() if len(bs) > 1]


def binary_required(what: str) -> Callable[[Outcomes], str | None]:
    """A ``requires`` check for analyses that rank binary correctness with >= 2 models: why
    not, and what to do instead, in sentences -- for categorical or graded data, the loader
    option that makes them binary, with a value tried on them
    (:func:`~scorio_core.outcomes.binary_next`). One model is said first: no option of the
    categories makes this analysis run on it.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.definitions._base import binary_required
    >>> R = np.random.default_rng(0).integers(0, 3, (3, 10, 4))
    >>> why = binary_required("Stability")(sc.Outcomes(R, weights=[0, 0.5, 1]))
    >>> why.split(". ")[0]
    'Stability needs binary outcomes (0/1); these data have 3 categories'
    >>> why.split(": ")[-1]  # as a notebook reads it; the CLI and the app name their own
    "correct=['cat2']; correct_from=0.5 counts cat1 correct too."
    """

    def check(data: Outcomes) -> str | None:
        if data.L < 2:
            return f"{what} needs at least 2 models; these data have {data.L}. {ONE_MODEL_NEXT}"
        if not data.is_binary:
            return (f"{what} needs binary outcomes (0/1); these data have {data.C + 1} "
                    "categories. " + binary_next(data, what))
        return None

    return check


def skipped_caveats(skipped: dict[str, str]) -> list[str]:
    """One caveat per method that could not run, with its reason."""
    return [f"Method {m} skipped: {why}." for m, why in skipped.items()]


def subset_of(data: Outcomes, subset: tuple[str, tuple[str, ...]] | None) -> Outcomes:
    """The questions of ``data`` that the ``subset`` setting names (all when ``None``)."""
    if subset is None:
        return data
    attribute, values = subset
    return data.subset(attribute, list(values))


def subset_code(subset: tuple[str, tuple[str, ...]] | None, data: str) -> str:
    """The Python expression of :func:`subset_of` for the generated notebook code."""
    if subset is None:
        return data
    return f"{data}.subset({subset[0]!r}, {list(subset[1])!r})"


#: The ``by`` value that asks for no per-subset table.
NO_SUBSETS = "none"


def resolve_by(data: Outcomes, by: str | None) -> str | None:
    """The question attribute of the per-subset table: ``by``; ``None`` or
    :data:`NO_SUBSETS` = no table (so a script's output keeps one shape whatever the data
    carry; the app's pages choose the data's first attribute as their default)."""
    if by is None or by == NO_SUBSETS:
        return None
    data.attribute_values(by)  # a clear error naming the attributes the data have
    return by


def subset_caveat(data: Outcomes, subset) -> list[str]:
    """What the reader must know about a subset: which questions, and how many."""
    if subset is None:
        return []
    return [f"Subset: only the {count_text(data.M, 'question')} whose {subset[0]} is "
            f"{' or '.join(subset[1])}; the same estimands and calibration as the whole, on "
            "these questions (fewer questions: wider intervals)."]
