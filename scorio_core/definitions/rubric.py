"""Rubric comparison: model ranks under several rubrics and their N = 1 agreement
(Don't Pass@k (2026), Fig. 7; Ranking Reasoning LLMs under Test-Time Scaling (2026), Table 5).

Renders :func:`scorio_core.rubric.scheme_ranks` and
:func:`~scorio_core.rubric.categorical_ranking` with :func:`scorio_core.charts.rank_bump_chart`.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.definitions import ANALYSES
>>> rub = ANALYSES["rubric"]
>>> R = np.random.default_rng(0).integers(0, 2, (4, 30, 6))
>>> sig = {"is_correct": R, "has_box": np.ones(R.shape), "repeated_pattern": np.zeros(R.shape),
...        "compass_C": np.zeros(R.shape)}
>>> result = rub.run(Outcomes(R, signals=sig), rub.params(schemes=("dontpass/format-aware",)))
>>> list(result.ranks.columns)
['Binary Bayes@N', 'Format Aware']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import pandas as pd

from .. import charts
from .. import rubric as rb
from .._validation import ValidationError, checked_keywords
from ..display import Shown
from ..leaderboard import Leaderboard, leaderboard
from ..outcomes import Outcomes
from ._base import Analysis, Chart, Progress, TableView, common_caveats
from .leaderboard import chart_captions

__all__ = ["RubricParams", "RubricResult", "RUBRIC", "RubricBoard", "rubric_board",
           "usable_presets", "default_schemes", "tau_view"]

DEFAULT_SCHEMES = tuple(k for k in rb.PRESETS if k.startswith("ranking/"))[:4]


def usable_presets(data: Outcomes) -> list[str]:
    """The presets whose signals ``data`` have (:func:`~scorio_core.rubric.signal_names`:
    binary data add ``is_correct``), in :data:`~scorio_core.rubric.PRESETS` order."""
    names = set(rb.signal_names(data))
    return [k for k, r in rb.PRESETS.items() if set(r.signals) <= names]


def default_schemes(data: Outcomes | None) -> tuple[str, ...]:
    """:data:`DEFAULT_SCHEMES` when ``data`` have their signals, else the first four
    presets the data can use (e.g. the length rubric on a real table)."""
    if data is None:
        return DEFAULT_SCHEMES
    usable = usable_presets(data)
    if set(DEFAULT_SCHEMES) <= set(usable) or not usable:
        return DEFAULT_SCHEMES
    return tuple(usable[:4])


@checked_keywords
@dataclass(frozen=True)
class RubricParams:
    """Settings of the rubric comparison (the Rubric builder's "Compare rubrics").

    Parameters
    ----------
    schemes : tuple of str or Rubric
        Preset names (``scorio-studio rubric list``) or :class:`~scorio_core.rubric.Rubric`
        objects; default the first four ``ranking/*`` presets.
    """

    schemes: tuple = DEFAULT_SCHEMES

    def __post_init__(self) -> None:
        s = (self.schemes,) if isinstance(self.schemes, str | rb.Rubric) else tuple(self.schemes)
        if not s:
            raise ValidationError("schemes must name at least one rubric preset or rubric")
        for x in s:
            if isinstance(x, str):
                rb.get_preset(x)
            elif not isinstance(x, rb.Rubric):
                raise ValidationError(
                    f"schemes must be preset names or Rubric objects; got {type(x).__name__}"
                )
        rb.resolve_schemes(list(s))  # unique labels
        object.__setattr__(self, "schemes", s)


@dataclass(frozen=True, repr=False)
class RubricResult(Shown):
    """Ranks per scheme (models × schemes, with the binary gold first), the N = 1 τ table and
    ``N``, the data's trials per question: the single-trial slices a rubric's τ could average
    over (its view, :func:`tau_view`, says whether every rubric had them all)."""

    analysis_id = "rubric"
    main_table = "tau"

    ranks: pd.DataFrame
    tau: pd.DataFrame
    N: int


class RubricBoard(NamedTuple):
    """One rubric applied to the data: the scored outcomes, their leaderboard and charts."""

    scored: Outcomes
    board: Leaderboard
    charts: list[Chart]


def rubric_board(data: Outcomes, rubric: rb.Rubric, confidence: float = 0.95) -> RubricBoard:
    """Score ``data`` with ``rubric`` and rank the models by Bayes@N of the weighted score
    (the Rubric builder's live leaderboard), with its category and forest charts.

    Example
    -------
    >>> from scorio_core.definitions.rubric import rubric_board
    >>> import numpy as np
    >>> R = np.random.default_rng(0).integers(0, 2, (3, 30, 4))
    >>> sig = {"is_correct": R, "repeated_pattern": np.zeros(R.shape)}
    >>> import pandas as pd
    >>> from scorio_core.rubric.table import from_tables
    >>> rules = pd.DataFrame({"rule": [1, 2], "category": [0, 1], "op": ["==", ">="],
    ...                       "signal": ["repeated_pattern", "is_correct"], "value": [1, 0.5]})
    >>> cats = pd.DataFrame({"category": [0, 1], "name": ["invalid", "correct"],
    ...                      "weight": [0.0, 1.0]})
    >>> out = rubric_board(sc.Outcomes(R, signals=sig), from_tables(rules, cats, default=0))
    >>> bool(out.board.table["score"].between(0, 1).all()), [c.title for c in out.charts]
    (True, ['Categories per model', 'Scores and intervals'])
    """
    scored = rb.apply(rubric, data)
    board = leaderboard(scored, w=list(rubric.weights), confidence=confidence)
    return RubricBoard(scored, board, [
        Chart("Categories per model", charts.category_bars(scored),
              "Share of each model's completions in each category: which categories drive "
              "its score (e.g. equal accuracy, different invalid rates)."),
        Chart("Scores and intervals", charts.forest_plot(board),
              chart_captions(board)[0]),
    ])


def _run(data: Outcomes, p: RubricParams, progress: Progress | None = None) -> RubricResult:
    del progress  # fast: no progress to report
    schemes = list(p.schemes)
    return RubricResult(
        rb.scheme_ranks(data, schemes, gold=True), rb.categorical_ranking(data, schemes), data.N
    )


def _tables(r: RubricResult) -> dict:
    # best first under the gold (binary) ranking, its first column; ties keep the data's order
    ranks = r.ranks.sort_values(r.ranks.columns[0], kind="stable") if len(r.ranks.columns) \
        else r.ranks
    return {"tau": r.tau, "ranks": ranks.reset_index()}


def tau_view(tau: pd.DataFrame, N: int) -> TableView:
    """The τ table as every reader's rendering shows it -- the Rubric page, the report, a
    result's own display and the notebook's ``sc.display.show``: its ``note`` (one sentence
    on the data, the same in every row: why τ_Greedy equals τ_GS, or that it is undefined)
    said under it rather than cut in a column, and ``n_slices`` said in the first line
    instead of a column when every rubric has all ``N`` single-trial slices (a column of its
    own split the one-row table into parts on the page). The CSV/JSON exports keep both.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.rubric import tau_view
    >>> tau = pd.DataFrame({"scheme": ["A"], "tau_gs_mean": [0.5], "n_slices": [8],
    ...                     "note": ["no greedy outcomes (R0) in this dataset"]})
    >>> view = tau_view(tau, 8)
    >>> list(view.table), view.note[1]
    (['scheme', 'tau_gs_mean'], 'Note: no greedy outcomes (R0) in this dataset.')
    >>> list(tau_view(tau, 10).table)  # two slices tie every model: how many is a number
    ['scheme', 'tau_gs_mean', 'n_slices']
    """
    notes = [x for x in dict.fromkeys(tau["note"]) if isinstance(x, str) and x.strip()]
    whole = bool((tau["n_slices"] == N).all())
    over = (f"the {N:,} single-trial slices" if whole else
            f"the single-trial slices that rank the models (n_slices of {N:,}: a slice that "
            "ties every model has no τ_b)")
    return TableView(
        tau.drop(columns=["note", *(["n_slices"] if whole else [])]),
        # what a table of the means alone (the Rubric page's) shows, and where the s.d. is
        (f"Columns ending in _mean: Kendall τ_b averaged over {over}; each one's s.d. over "
         "them is the matching _sd column. Higher τ_Self means the rubric ranks consistently "
         "from one trial.",
         *(f"Note: {x.strip().rstrip('.')}." for x in notes)),
    )


def _views(r: RubricResult, tables: dict[str, pd.DataFrame]) -> dict[str, TableView]:
    """The τ table's view (:func:`tau_view`); the ranks are shown whole."""
    return {"tau": tau_view(tables["tau"], r.N)}


def _charts(r: RubricResult) -> list[Chart]:
    return [Chart("Ranks under each rubric", charts.rank_bump_chart(r.ranks),
                  charts.RANK_BUMP_CAPTION)]


def _caveats(data: Outcomes, p: RubricParams, r: RubricResult) -> list[str]:
    out = common_caveats(data)
    if data.R0 is None:
        out.append("No greedy outcomes (R0): τ_Greedy is undefined.")
    out.append(  # over how many slices: the τ table's own line says (tau_view)
        "τ compares each rubric's single-trial (N = 1) rankings; ranks use Bayes@N with a "
        "uniform prior and each rubric's weights on all trials."
    )
    return out


def _scheme_code(s) -> str:
    return repr(s) if isinstance(s, str) else f"sc.rubric.from_json({rb.to_json(s)!r})"


def _to_code(p: RubricParams, data: str = "data") -> str:
    items = ", ".join(_scheme_code(s) for s in p.schemes)
    return (
        "import scorio_core as sc\n"
        "from scorio_core import charts\n"
        "from scorio_core.definitions.rubric import tau_view\n\n"
        f"schemes = [{items}]\n"
        f"ranks = sc.rubric.scheme_ranks({data}, schemes, gold=True)\n"
        f"tau = sc.rubric.categorical_ranking({data}, schemes)\n"
        "# as the report prints it: the note and the slices said under the table\n"
        f"sc.display.show(tau_view(tau, {data}.N))"
    )


def _requires(data: Outcomes) -> str | None:
    if not data.signals:
        return "needs per-completion signals for the rubrics to read; this dataset has none"
    if data.L < 2:
        return f"needs at least 2 models; these data have {data.L}"
    return None


#: An s.d. of τ_b over the single-trial slices, as the τ table gives it.
_SLICE_SD = "s.d. of those τ_b over the slices (ddof 0)"
#: What each column of the rubric comparison's tables holds (:attr:`Analysis.columns`).
COLUMNS = {
    "tau": {
        "scheme": "the rubric (a preset's name, or the name of a rubric given)",
        "categories": "number of outcome categories the rubric sorts completions into",
        "tau_gs_mean": "τ_GS: mean Kendall τ_b between the rubric's single-trial (N = 1) "
                       "rankings and the binary gold standard (Bayes@N of the data's own "
                       "outcomes, all trials), over the slices",
        "tau_gs_sd": _SLICE_SD,
        "tau_self_mean": "τ_Self: the same with the rubric's own ranking on all trials",
        "tau_self_sd": _SLICE_SD,
        "tau_greedy_mean": "τ_Greedy: the same with the greedy-prior ranking (Bayes_R0@N of "
                           "the data's outcomes, all trials; — without greedy outcomes)",
        "tau_greedy_sd": _SLICE_SD,
        "n_slices": "single-trial slices with a τ_GS (a slice that ties every model has none)",
        "note": "a word on the data, the same in every row (why τ_Greedy is missing, or "
                "equals τ_GS)",
    },
    "ranks": {
        "model": "model name",
        rb.GOLD_LABEL: "the model's rank by Bayes@N of the data's own outcomes on all trials, "
                       "the binary gold (1 = best; ties share the best rank)",
        "{scheme}": "its rank under the rubric {scheme}: Bayes@N of the rubric's categories "
                    "and weights on all trials (1 = best)",
    },
}


RUBRIC = Analysis(
    id="rubric",
    title="Rubric comparison",
    params=RubricParams,
    run=_run,
    tables=_tables,
    charts=_charts,
    how_to_read=(
        "Each rubric maps per-completion signals to categories with weights; the bump chart shows "
        "every model's rank (Bayes@N on all trials) under the binary gold and each rubric. The "
        "τ table scores each rubric at N = 1 (002 Table 5): how closely its single-trial "
        "rankings follow the binary gold standard (τ_GS), itself on all trials (τ_Self) and "
        "the greedy-prior ranking (τ_Greedy). Each table's columns are explained under it."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=("charts.rank_bump_chart(ranks)",),
    requires=_requires,
    result_var="tau",
    views=_views,
    for_data=lambda data: {"schemes": default_schemes(data)},
    columns=COLUMNS,
)
