"""The analyses by name for notebooks: ``sc.compare``, ``sc.convergence``,
``sc.stability``, ``sc.greedy``, ``sc.pair`` and ``sc.questions``.

Each is a thin call of the analysis's ONE definition (:data:`scorio_core.definitions.ANALYSES`:
``ANALYSES[id](data, **settings)``), so a notebook gets exactly the numbers of the page,
the CLI and the report. Their keyword arguments are the definition's settings, declared
once in :mod:`scorio_core.params`: the signature ``help()`` and Jupyter's Shift-Tab show,
and the *Parameters* section of each docstring, are generated from those declarations
(defaults, choices, bounds and help text), never written twice.

Example
-------
>>> import inspect
>>> import scorio_core as sc
>>> list(inspect.signature(sc.greedy).parameters)
['data', 'replicates', 'seed', 'progress']
>>> inspect.signature(sc.greedy).parameters["replicates"].default
50
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import params as _params
from ._validation import checked_keywords

if TYPE_CHECKING:
    from .definitions._base import Progress
    from .definitions.compare import CompareResult
    from .definitions.convergence import ConvergenceResult
    from .definitions.greedy import GreedyResult
    from .definitions.pair import PairResult
    from .definitions.questions import QuestionsResult
    from .definitions.stability import StabilityResult
    from .outcomes import Outcomes

__all__ = ["compare", "convergence", "stability", "greedy", "pair", "questions"]

#: What the analyses that rank binary correctness say of their ``data``.
_BINARY_DATA = "binary correctness for these analyses"


def _run(analysis_id: str, data: Any, progress: Any, settings: dict[str, Any]) -> Any:
    from .definitions import ANALYSES

    return ANALYSES[analysis_id](data, progress=progress, **settings)


def _bounds(s: _params.Setting) -> str:
    text = _params._bounds_text(s)
    return f"; {text}" if text else ""


def _parameters_doc(cls: type, data: str = _BINARY_DATA) -> str:
    """The numpydoc *Parameters* entries of ``cls``'s settings, from their declarations
    (``data``: what the analysis reads of its data)."""
    lines = ["data : Outcomes or array_like (L, M, N)",
             f"    The outcomes (``sc.load(path)``); {data}."]
    for f in dataclasses.fields(cls):
        default, s = f.default, f.metadata.get("setting")
        kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        lines.append(f"{f.name} : {kind}, default {default!r}")
        if s is None:
            continue
        text = s.help + _bounds(s)
        if s.choices is not None:
            text += "; one of " + ", ".join(map(repr, s.choices))
        lines.append(f"    {text[0].upper()}{text[1:]}.")
        lines += [f"    ``{k}``: {v}" + ("" if v.endswith(".") else ".")
                  for k, v in (s.choice_help or {}).items()]
    lines += ["progress : callable ``(fraction, message)``, optional",
              "    Hears about long runs (a progress bar, a log line)."]
    return "\n".join(lines)


def _declared(analysis_id: str, cls: type, result: str, data: str = _BINARY_DATA
              ) -> Callable[[Callable], Callable]:
    """Give a wrapper its settings: the signature and the *Parameters* section from
    ``cls``'s declarations (the docstring's ``{parameters}`` placeholder)."""

    def wrap(fn: Callable) -> Callable:
        params = [inspect.Parameter("data", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation="Outcomes")]
        params += [
            inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default,
                              annotation=f.type)
            for f in dataclasses.fields(cls)
        ]
        params.append(inspect.Parameter("progress", inspect.Parameter.KEYWORD_ONLY,
                                        default=None, annotation="Progress | None"))
        fn.__signature__ = inspect.Signature(params, return_annotation=result)
        doc = inspect.cleandoc(fn.__doc__ or "")
        fn.__doc__ = doc.replace("{parameters}", _parameters_doc(cls, data))
        fn.analysis_id = analysis_id
        return checked_keywords(fn)  # the declared settings: a misspelt one named

    return wrap


@_declared("compare", _params.CompareParams, "CompareResult")
def compare(data: Outcomes, *, progress: Progress | None = None,
            **settings: Any) -> CompareResult:
    """Rank the models with every chosen method and measure how the rankings agree
    (Kendall τ_b with the gold standard Bayes@N and between methods; Ranking Reasoning LLMs under
    Test-Time Scaling (2026), Table 1).

    The Method comparison page, ``scorio-studio compare`` and the report's ``compare``
    section: ``sc.ANALYSES["compare"]``.

    Parameters
    ----------
    {parameters}

    Returns
    -------
    CompareResult
        ``.comparison`` (:class:`~scorio_core.engines.Comparison`: ``agreement``, ``tau``,
        ``consensus``, ``summary``, ``run.ranks``); ``.tables()`` and ``.charts()`` are the
        page's; it displays its agreement table and τ heatmap in a notebook.

    Example
    -------
    >>> import scorio_core as sc
    >>> data = sc.load("data/biased_coins.npz")
    >>> result = sc.compare(data, methods=["bayes", "avg", "borda"])
    >>> result.comparison.agreement["method"].tolist()
    ['avg', 'bayes', 'borda']
    >>> round(float(result.tables()["summary"]["min"].item()), 4)  # borda's τ_b with gold
    0.9273
    """
    return _run("compare", data, progress, settings)


@_declared("convergence", _params.ConvergenceParams, "ConvergenceResult")
def convergence(data: Outcomes, *, progress: Progress | None = None,
                **settings: Any) -> ConvergenceResult:
    """How many trials until each method's ranking stops changing: τ_b curves and the
    convergence@n distribution over bootstrap replicates (Don't Pass@k (2026), App. I.1).

    The Convergence page, ``scorio-studio convergence`` and the report's ``convergence``
    section: ``sc.ANALYSES["convergence"]``. Methods with a running-count fast path get
    ``replicates``; methods that re-rank every replicate get ``slow_replicates``.

    Parameters
    ----------
    {parameters}

    Returns
    -------
    ConvergenceResult
        ``summary`` (mean, median, censored mean and the no-convergence share per method),
        ``curves``, ``pmf``, ``cdf``, the worst-case ``trajectory`` and ``explanations``
        (why nothing converges, when so); it displays the summary and the τ_b curves.

    Example
    -------
    >>> import scorio_core as sc
    >>> data = sc.load("data/biased_coins.npz")
    >>> conv = sc.convergence(data, methods="bayes,avg", replicates=200, curve_replicates=20)
    >>> conv.summary["method"].tolist(), conv.summary["replicates"].tolist()
    (['bayes', 'avg'], [200, 200])
    """
    return _run("convergence", data, progress, settings)


@_declared("stability", _params.StabilityParams, "StabilityResult")
def stability(data: Outcomes, *, progress: Progress | None = None,
              **settings: Any) -> StabilityResult:
    """How well each method ranks from a single trial (N = 1): τ_b of every single-trial
    slice with the gold standard and with the method's own full ranking, methods
    collapsed into classes (Ranking Reasoning LLMs under Test-Time Scaling (2026), Tables 18-19).

    The Stability page, ``scorio-studio stability`` and the report's ``stability``
    section: ``sc.ANALYSES["stability"]``.

    Parameters
    ----------
    {parameters}

    Returns
    -------
    StabilityResult
        ``.stability`` (:class:`~scorio_core.engines.stability.Stability`: ``table``,
        ``classes("gold")``, ``classes("self")``); it displays the classes vs gold and
        their chart.

    Example
    -------
    >>> import scorio_core as sc
    >>> data = sc.load("data/biased_coins.npz")
    >>> st = sc.stability(data, methods="bayes,avg")
    >>> st.tables()["classes_gold"]["methods"].tolist()
    ['bayes, avg']
    """
    return _run("stability", data, progress, settings)


@_declared("greedy", _params.GreedyParams, "GreedyResult")
def greedy(data: Outcomes, *, progress: Progress | None = None,
           **settings: Any) -> GreedyResult:
    """Greedy vs sampling: how one greedy decode ranks the models compared with sampling
    (τ_G-S), and whether the greedy outcomes as a prior help at N = 1 (Δτ, s.d. reduction;
    Ranking Reasoning LLMs under Test-Time Scaling (2026), Table 4), per benchmark and combined.
    Needs the greedy outcomes ``R0``.

    The Greedy vs sampling page, ``scorio-studio greedy`` and the report's ``greedy``
    section: ``sc.ANALYSES["greedy"]``.

    Parameters
    ----------
    {parameters}

    Returns
    -------
    GreedyResult
        ``.analyses`` (one :class:`~scorio_core.engines.greedy.GreedyAnalysis` per
        benchmark and ``"combined"``), ``.detail`` (the combined one); ``.tables()["table"]``
        is the page's table (its all-questions row reads ``combined`` beside a row per
        benchmark, else the one benchmark's name or the dataset's); it displays that table
        and the rank scatter.

    Example
    -------
    >>> import scorio_core as sc
    >>> data = sc.load("data/reasoning_synthetic.npz").select("AIME'25")
    >>> g = sc.greedy(data, replicates=5)
    >>> g.tables()["table"]["data"].tolist()  # one benchmark: its name
    ["AIME'25"]
    """
    return _run("greedy", data, progress, settings)


@_declared("pair", _params.PairParams, "PairResult",
           "any categories (each trial scored by its category's weight), 2 or more models")
def pair(data: Outcomes, *, progress: Progress | None = None, **settings: Any) -> PairResult:
    """Two models question by question: their paired difference of mean score with its
    interval in both scopes (the leaderboard's numbers for that pair), the questions that
    drive the gap, and one question's completions side by side with each repeat's score.

    The Pair page, ``scorio-studio pair`` and the report's ``pair`` section:
    ``sc.ANALYSES["pair"]``.

    Parameters
    ----------
    {parameters}

    Returns
    -------
    PairResult
        ``.comparison`` (:class:`~scorio_core.engines.pair.PairComparison`: ``a``, ``b``,
        ``summary`` in both scopes, ``questions`` in the order they push the gap) and
        ``.flips`` (:class:`~scorio_core.engines.pair.FlipTable`: the chosen question's
        repeats, with their texts where the data carry them); ``.tables()`` and
        ``.charts()`` are the page's; it displays the summary, the question's texts and the
        gap-drivers chart.

    Example
    -------
    >>> import scorio_core as sc
    >>> data = sc.load("data/biased_coins.npz")
    >>> p = sc.pair(data, a="LLM_11", b="LLM_3")
    >>> p.comparison.summary["scope"].tolist()
    ['questions', 'population']
    >>> p.flips.question == p.comparison.questions["question"].iloc[0]
    True
    """
    return _run("pair", data, progress, settings)


@_declared("questions", _params.QuestionsParams, "QuestionsResult",
           "any categories (each trial scored by its category's weight; the 2PL fit "
           "needs binary outcomes)")
def questions(data: Outcomes, *, progress: Progress | None = None,
              **settings: Any) -> QuestionsResult:
    """Every model on every question: each question's mean score, how much the models
    disagree on it, its 2PL difficulty and discrimination, the questions that carry no
    information and those where the models differ most (and, with ``by``, a summary per
    value of a question attribute).

    The Questions page, ``scorio-studio questions`` and the report's ``questions`` section:
    ``sc.ANALYSES["questions"]``.

    Parameters
    ----------
    {parameters}

    Returns
    -------
    QuestionsResult
        ``.stats`` (:class:`~scorio_core.engines.questions.QuestionStats`: ``table``,
        ``disagree(n)``, ``uninformative``), ``.subsets`` (per attribute value, with
        ``by``); ``.tables()`` and ``.charts()`` are the page's; it displays the questions
        table and the heatmap.

    Example
    -------
    >>> import scorio_core as sc
    >>> data = sc.load("data/biased_coins.npz")
    >>> q = sc.questions(data, irt=False, top=5)
    >>> len(q.stats.table) == data.M, len(q.tables()["disagree"])
    (True, 5)
    """
    return _run("questions", data, progress, settings)
