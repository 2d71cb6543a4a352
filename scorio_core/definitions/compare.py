"""Method comparison: every chosen ranker on the data and how they agree (Ranking Reasoning LLMs
under Test-Time Scaling (2026), §3.1, Table 1).

Renders :func:`scorio_core.engines.run_methods` + :func:`~scorio_core.engines.compare`
with :func:`scorio_core.charts.tau_heatmap`.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.definitions import ANALYSES
>>> cmp = ANALYSES["compare"]
>>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (4, 20, 6)))
>>> result = cmp.run(data, cmp.params(methods="bayes,avg,borda"))
>>> result.comparison.exact
['avg', 'bayes']
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import charts
from ..display import Shown
from ..engines.agreement import GOLD_METHOD, Comparison, compare, run_methods
from ..formatting import round_floats
from ..outcomes import Outcomes
from ..params import CompareParams
from ._base import (
    FAMILY_COLUMN,
    METHOD_COLUMN,
    Analysis,
    Chart,
    Progress,
    TableView,
    binary_required,
    common_caveats,
    resolve_methods,
    settings_code,
    skipped_caveats,
)

__all__ = ["CompareParams", "CompareResult", "COMPARE", "COLUMNS", "agreement_view",
           "ranks_table", "summary_note", "RANKS_CAPTION"]


@dataclass(frozen=True, repr=False)
class CompareResult(Shown):
    """The :class:`~scorio_core.engines.Comparison` (its ``run`` holds the ranks)."""

    analysis_id = "compare"
    main_table = "agreement"

    comparison: Comparison


def _run(data: Outcomes, p: CompareParams, progress: Progress | None = None) -> CompareResult:
    counted = None
    if progress is not None:

        def counted(i: int, n: int, mid: str) -> None:
            progress(i / max(n, 1), f"{mid} ({i + 1}/{n})")

    run = run_methods(data.R, data.R0, resolve_methods(p.methods), data.models, progress=counted)
    if progress is not None:
        progress(1.0, "done")
    return CompareResult(compare(run, R=data.R))


#: The line under the 'ranks' table wherever it is shown (page, CLI, report).
RANKS_CAPTION = "Rows: models in gold order (best first); columns: methods; 1 = best, ties share."


def ranks_table(c: Comparison) -> pd.DataFrame:
    """The 'ranks' table: one row per model **in gold order** (best first; models the gold
    ties keep the data's order), a column per method, 1 = best. The one order of this table
    in every rendering -- the Method comparison page, ``scorio-studio compare`` (table, CSV,
    JSON), the report and a notebook's ``sc.display.show``; ``c.run.ranks`` stays in the
    data's order.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> from scorio_core.definitions import ANALYSES
    >>> from scorio_core.definitions.compare import ranks_table
    >>> R = np.zeros((3, 4, 2), int); R[1] = 1; R[2, :2] = 1
    >>> data = Outcomes(R, models=["a", "b", "c"])
    >>> r = ANALYSES["compare"](data, methods="bayes,borda")
    >>> ranks_table(r.comparison).values.tolist()
    [['b', 1, 1], ['c', 2, 2], ['a', 3, 3]]
    """
    order = np.asarray(c.gold).argsort(kind="stable")
    return c.run.ranks.iloc[order].reset_index()


def _tables(r: CompareResult) -> dict:
    c = r.comparison
    return {
        "summary": pd.DataFrame([c.summary]),
        "agreement": c.agreement,
        "consensus": c.consensus,
        "ranks": ranks_table(c),
    }


#: More methods than this and a report lists only those that differ (agreement) and one row
#: per run of tied methods (consensus): sixty rows of τ_b = 1 say nothing and, printed first,
#: pushed the methods that differ past the rows a report prints.
LONG = 20
#: Tied methods that share one row of the report's consensus table (fewer stay one a row).
SHARED = 2


def _consensus_rows(c: pd.DataFrame) -> pd.DataFrame:
    """Runs of at least :data:`SHARED` methods with the same consensus numbers as one row
    each, its ``method`` cell naming them all (``12 methods: a, b, ...``)."""
    nums = [col for col in c.columns if col != "method"]
    # the row's numbers (to the export's digits: the same mean summed in another order is
    # the same mean) and note as one key; repr: a missing τ_b equals another missing one
    key = pd.Series([repr(t) for t in round_floats(c[nums]).itertuples(index=False, name=None)],
                    index=c.index)
    rows = []
    for _, run in c.groupby((key != key.shift()).cumsum(), sort=False):
        if len(run) >= SHARED:
            row = run.iloc[[0]].copy()
            row["method"] = f"{len(run)} methods: " + ", ".join(run["method"])
            rows.append(row)
        else:
            rows.append(run)
    out = pd.concat(rows, ignore_index=True)
    out.attrs = dict(c.attrs)
    return out


#: What a count of methods leaves out when the run has the gold standard's own method.
_GOLD_LEFT_OUT = (f"{GOLD_METHOD} is the gold standard itself (τ_b = 1 by definition): it is "
                  "in no count of the summary.")


def summary_note(agreement: pd.DataFrame) -> str:
    """The line under the 'summary' table: over how many methods its numbers are, and that
    the gold standard's own method is not among them (``n_tau_1`` is then one less than the
    methods with ``exact``).

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.compare import summary_note
    >>> summary_note(pd.DataFrame({"method": ["bayes", "avg", "borda"]}))
    'Over the 2 methods other than bayes, the gold standard itself (τ_b = 1 by definition).'
    """
    methods = agreement["method"]
    n = int((methods != GOLD_METHOD).sum())
    if (methods == GOLD_METHOD).any():
        return (f"Over the {n} methods other than {GOLD_METHOD}, the gold standard itself "
                "(τ_b = 1 by definition).")
    return f"Over the {n} methods compared."


def agreement_view(agreement: pd.DataFrame) -> TableView | None:
    """The 'agreement' table as a reader's rendering shows it with more than :data:`LONG`
    methods (``None``: every row, as it is): the methods that rank unlike the gold standard,
    with one line naming the exact ones -- sixty rows of τ_b = 1 say nothing. The report,
    a result's own display and the notebook's ``sc.display.show`` all show this view; the
    CSV/JSON export and ``cmp.agreement`` keep every method.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.compare import LONG, agreement_view
    >>> a = pd.DataFrame({"method": [f"m{i}" for i in range(LONG + 1)], "family": "x",
    ...                   "tau_b": [0.9] + [1.0] * LONG, "exact": [False] + [True] * LONG})
    >>> view = agreement_view(a)
    >>> view.table.to_dict("list"), view.note[:38]
    ({'method': ['m0'], 'family': ['x'], 'tau_b': [0.9]}, 'The other 20 methods rank the models e')
    >>> agreement_view(a.head(LONG)) is None
    True
    """
    exact = agreement["exact"].astype(bool)
    if len(agreement) <= LONG or not exact.any():
        return None
    gold = agreement["method"] == GOLD_METHOD  # the gold itself: not in n_tau_1
    counted = exact & ~gold
    n = int(counted.sum())
    names = ", ".join(agreement.loc[counted, "method"]) or "none"
    said = (f"The other {n} methods rank the models exactly as the gold standard (τ_b = "
            f"1; the summary's n_tau_1): {names}." if (~exact).any() else
            f"All {n} methods rank the models exactly as the gold standard (τ_b = 1; the "
            f"summary's n_tau_1): {names}.")
    if (exact & gold).any():
        said += f" {_GOLD_LEFT_OUT}"
    # the rows shown all differ: their 'exact' column would say 'no' in every row
    return TableView(agreement[~exact].drop(columns="exact").reset_index(drop=True),
                     said + " The CSV/JSON export lists every method.")


def _views(r: CompareResult, tables: dict) -> dict[str, TableView]:
    """The ranks with the line that says their order (:data:`RANKS_CAPTION`); with more
    than :data:`LONG` methods, the report lists the methods that rank unlike the gold
    standard and names the exact ones in one line (:func:`agreement_view`); tied consensus
    rows share one."""
    a, c = tables["agreement"], tables["consensus"]
    views = {"ranks": TableView(tables["ranks"], RANKS_CAPTION),  # its order said under it
             "summary": TableView(tables["summary"], summary_note(a))}
    if len(a) <= LONG:
        return views
    if (shown := agreement_view(a)) is not None:
        views["agreement"] = shown
    shared = _consensus_rows(c)
    if len(shared) < len(c):
        views["consensus"] = TableView(shared, (
            f"Methods with the same consensus numbers share one row ({len(shared)} rows for "
            f"{len(c)} methods); the CSV/JSON export lists every method on its own row."
            + (f" Every method counts here, {GOLD_METHOD} (the gold standard) too."
               if (c["method"] == GOLD_METHOD).any() else "")))
    return views


def _charts(r: CompareResult) -> list[Chart]:
    c = r.comparison
    if c.tau.shape[0] < 2:
        return []
    families = _families(c)
    if c.tau.shape[0] > charts.TAU_MAX_METHODS:
        return [Chart(
            "Agreement between method families",
            charts.tau_heatmap(c.tau, c.consensus["method"].tolist(), families),
            f"Mean Kendall τ_b between the methods of two families ({c.tau.shape[0]} methods: "
            "too many to label one by one; pick fewer families or methods for one row each), "
            "in consensus order: near 1 = they rank models alike; a low diagonal cell = a "
            "family whose own methods disagree.",
        )]
    return [
        Chart(
            "Agreement between methods",
            charts.tau_heatmap(c.tau, c.consensus["method"].tolist(), families),
            "Kendall τ_b between every pair of methods, sorted by consensus: yellow blocks "
            "rank models alike; darker rows are methods that disagree with most others.",
        )
    ]


def _families(c) -> dict[str, str]:
    """Method -> family of the methods compared (from the agreement table)."""
    return dict(zip(c.agreement["method"], c.agreement["family"], strict=True))


def _caveats(data: Outcomes, p: CompareParams, r: CompareResult) -> list[str]:
    out = common_caveats(data)
    out.append(
        "The gold standard is Bayes@N with a uniform prior on all trials (the avg@N order); "
        "agreement with it is agreement with this sample's ordering, not with an unknown truth."
    )
    return out + skipped_caveats(r.comparison.run.skipped)


def _to_code(p: CompareParams, data: str = "data") -> str:
    return (
        "import scorio_core as sc\n"
        "from scorio_core import charts\n"
        "from scorio_core.definitions.compare import agreement_view\n\n"
        f"compared = sc.compare({data}, {settings_code(p)})\n"
        "cmp = compared.comparison  # agreement, tau, consensus, summary, run.ranks\n"
        "# as the report prints it: with many methods, those that differ (every one: "
        "cmp.agreement)\n"
        "sc.display.show(agreement_view(cmp.agreement) or cmp.agreement)"
    )


#: The gold standard every τ_b here is taken against, in words.
_GOLD = "the gold standard's (Bayes@N, uniform prior, all trials)"
#: What each column of the comparison's tables holds (:attr:`Analysis.columns`).
COLUMNS = {
    "summary": {
        "mean": "mean Kendall τ_b of each method's ranking with " + _GOLD + ", over the "
        "methods other than bayes that have one",
        "median": "median of those τ_b",
        "min": "the lowest of those τ_b",
        "n_tau_1": "how many of those methods rank the models exactly as the gold standard "
        "(τ_b = 1)",
        "n_tau_ge_0.95": "how many reach τ_b >= 0.95",
        "n_undefined": "how many have no τ_b: the method or the gold standard ties every model",
    },
    "agreement": {
        "method": METHOD_COLUMN,
        "family": FAMILY_COLUMN,
        "tau_b": "Kendall τ_b between the method's ranking and " + _GOLD + ": 1 = the same "
        "order, 0 = unrelated, -1 = reversed",
        "exact": "whether the ranking equals the gold standard's exactly, ties included",
        "note": "why tau_b is missing: the method or the gold standard ties every model",
    },
    "consensus": {
        "consensus_rank": "place by mean_tau_b, best first (a tie broken by the lower "
        "std_tau_b; equal in both: one rank)",
        "method": METHOD_COLUMN + "; a report's row of tied methods names them all",
        "mean_tau_b": "mean Kendall τ_b of the method's ranking with every other method's "
        "(all trials)",
        "std_tau_b": "s.d. of those τ_b (over the other methods, ddof 0)",
        "note": "why mean_tau_b is missing: the method, or every other one, ties all models",
    },
    "ranks": {
        "model": "model name",
        "{method}": "the model's rank by that method on all trials (1 = best; ties "
        "share the best rank)",
    },
}


COMPARE = Analysis(
    id="compare",
    title="Method comparison",
    params=CompareParams,
    run=_run,
    tables=_tables,
    views=_views,
    charts=_charts,
    how_to_read=(
        "Each method ranks the models on all trials, and its ranking is compared with the "
        "gold standard's (Bayes@N, uniform prior) by Kendall τ_b. The summary sums up the "
        "methods other than bayes, the gold standard itself, as 002 Table 1 does; "
        "'consensus' sorts every method, bayes too, by its mean τ_b with all the others. "
        "With many methods a report lists in 'agreement' only those that differ from the "
        "gold standard (naming the exact ones below it) and gives tied methods one "
        "'consensus' row. Each table's columns are explained under it."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=(
        'charts.tau_heatmap(cmp.tau, cmp.consensus["method"].tolist(), '
        'dict(zip(cmp.agreement["method"], cmp.agreement["family"])))',
    ),
    requires=binary_required("Method comparison"),
    result_var="cmp",
    columns=COLUMNS,
)
