"""Pass@k, Pass^k (and G-Pass@k_τ) curves for every k ≤ N with calibrated pointwise
intervals (Don't Pass@k (2026), eqs. 21–23; SPEC §4 estimands).

Renders :func:`scorio_core.curves.pass_curves` with :func:`scorio_core.charts.pass_curve_chart`.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.definitions import ANALYSES
>>> cv = ANALYSES["curves"]
>>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 30, 4)))
>>> result = cv.run(data, cv.params())
>>> sorted(set(result.curves.table["k"]))
[1, 2, 3, 4]
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..curves import PassCurves, pass_curves
from ..display import Shown
from ..estimands import NOT_IDENTIFIED
from ..formatting import count_text, percent
from ..outcomes import Outcomes, binary_next
from ..params import CurvesParams
from ._base import (
    Analysis,
    Chart,
    Progress,
    TableView,
    common_caveats,
    subset_caveat,
    subset_code,
    subset_of,
)

__all__ = ["CurvesParams", "CurvesResult", "CURVES", "COLUMNS", "summary_table",
           "shown_summary"]


@dataclass(frozen=True, repr=False)
class CurvesResult(Shown):
    """The :class:`~scorio_core.curves.PassCurves`."""

    analysis_id = "curves"
    main_table = "summary"

    curves: PassCurves


def summary_ks(N: int) -> list[int]:
    """The ``k`` of the summary table: powers of two up to ``N``, and ``N``.

    Example
    -------
    >>> from scorio_core.definitions.curves import summary_ks
    >>> summary_ks(12)
    [1, 2, 4, 8, 12]
    """
    return sorted({2**i for i in range(N.bit_length()) if 2**i <= N} | {N})


def _run(data: Outcomes, p: CurvesParams, progress: Progress | None = None) -> CurvesResult:
    del progress  # well under a second for N <= 128
    data = subset_of(data, p.subset)
    return CurvesResult(pass_curves(data, kinds=p.kinds, tau=p.tau, scope=p.scope,
                                    confidence=p.confidence))


def _summary(c: PassCurves) -> pd.DataFrame:
    t = c.table[c.table["k"].isin(summary_ks(c.N))]
    return t.reset_index(drop=True)


def _tables(r: CurvesResult) -> dict:
    return {"summary": _summary(r.curves), "curves": r.curves.table}


def _at(curve: str, k: int) -> str:
    """A curve's name at one ``k``: ``Pass@k`` -> ``Pass@4``, ``Pass^k`` -> ``Pass^4``."""
    for mark in ("@k", "^k"):
        if mark in curve:
            return curve.replace(mark, f"{mark[0]}{k}", 1)
    return f"{curve} (k = {k})"


def summary_view(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary one row per model (in the table's order): each curve's value at each
    ``k`` with its interval as ``<name>``, ``<name> lo``, ``<name> hi`` -- every model in a
    few rows however many ``k`` (the long table runs to models × curves × ks rows). Every
    curve equals the mean score at ``k = 1``, so only the first curve keeps ``k = 1``.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.curves import summary_view
    >>> long = pd.DataFrame({"model": ["a"] * 3, "curve": ["Pass@k", "Pass@k", "Pass^k"],
    ...                      "k": [1, 2, 2], "value": [0.5, 0.7, 0.3], "se": [0.1] * 3,
    ...                      "lo": [0.3, 0.5, 0.1], "hi": [0.7, 0.9, 0.5]})
    >>> wide = summary_view(long)
    >>> wide.columns[::3].tolist(), wide.loc[0, ["Pass^2", "Pass^2 lo", "Pass^2 hi"]].tolist()
    (['model', 'Pass@1 hi', 'Pass@2 hi', 'Pass^2 hi'], [0.3, 0.1, 0.5])
    """
    first = summary["curve"].iloc[0] if len(summary) else None
    keep = summary[(summary["k"] > 1) | (summary["curve"] == first)]
    out = pd.DataFrame({"model": list(dict.fromkeys(summary["model"]))})
    for (curve, k), g in keep.groupby(["curve", "k"], sort=False):
        name = _at(str(curve), int(k))
        g = g.set_index("model")
        for col, suffix in (("value", ""), ("lo", " lo"), ("hi", " hi")):
            out[name + suffix] = out["model"].map(g[col]).to_numpy(dtype=float)
    return out


def summary_table(curves: PassCurves) -> pd.DataFrame:
    """The Pass@k curves one row per model as a report shows them (:func:`summary_view` of
    the curves at ``k`` = :func:`summary_ks`); ``curves.table`` holds every ``k`` in long
    form, with ``se``.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.curves import pass_curves
    >>> from scorio_core.definitions.curves import summary_table
    >>> R = np.random.default_rng(0).integers(0, 2, (3, 30, 4))
    >>> list(summary_table(pass_curves(sc.Outcomes(R), kinds=["pass"])).columns)[::3]
    ['model', 'Pass@1 hi', 'Pass@2 hi', 'Pass@4 hi']
    """
    return summary_view(_summary(curves))


def shown_summary(curves: PassCurves) -> TableView:
    """The summary as every reader's rendering shows it -- the report, a result's own
    display and the notebook's ``sc.display.show``: :func:`summary_table` with its line on
    what it holds (wider than :data:`~scorio_core.display.WIDE_COLUMNS`, it prints in the
    report's parts: :func:`~scorio_core.display.column_parts`).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.curves import pass_curves
    >>> from scorio_core.definitions.curves import shown_summary, summary_table
    >>> passk = pass_curves(sc.Outcomes(np.random.default_rng(0).integers(0, 2, (3, 30, 4))))
    >>> view = shown_summary(passk)
    >>> view.table.equals(summary_table(passk)), view.note[:21]
    (True, 'One row per model: ea')
    """
    s = _summary(curves)
    if not len(s):
        return TableView(s)
    return TableView(summary_view(s), (
        "One row per model: each curve's value at k = 1, 2, 4, …, N with its interval "
        "(lo, hi); every curve is the mean score at k = 1, so k = 1 is shown once. The "
        "CSV/JSON export lists the same in long form, with se."))


def _views(r: CurvesResult, tables: dict) -> dict[str, TableView]:
    """The summary one row per model (its long form runs past a page: models × curves ×
    ks rows), and not the every-k table: the chart draws every k, and printed it ran to
    pages of which a report showed the first 60 rows (one model's first curve). The
    export keeps both long tables, with ``se``."""
    s, every, c = tables["summary"], tables["curves"], r.curves
    n_curves = every["curve"].nunique()
    views = {"curves": TableView(every.iloc[:0], (
        f"Not printed: every k ({len(every):,} rows: {len(c.models):,} models × {n_curves} "
        f"curve{'s' if n_curves != 1 else ''} × k = 1 … {c.N}) is drawn in the chart above, "
        f"the summary above gives k = {', '.join(map(str, summary_ks(c.N)))}, and the "
        "CSV/JSON export lists every k."))}
    if len(s):
        views["summary"] = shown_summary(c)
    return views


def _charts(r: CurvesResult) -> list[Chart]:
    from .. import charts

    c = r.curves
    note = charts.highlight_note(c)
    return [Chart(
        "Every k, with intervals",
        charts.pass_curve_chart(c),
        f"Line = unbiased estimate at each k (it equals pass_at_k / pass_hat_k exactly), band = "
        f"its {percent(c.confidence)} pointwise interval ({c.scope} scope)"
        + (f"; {note}, without a band" if note else "") + ": Pass@k rises "
        "with k (more chances to succeed once), Pass^k falls (every draw must succeed)"
        # one model: no other line to cross, no ranking to depend on k
        + ("; crossing lines mean the ranking depends on k." if len(c.models) > 1 else "."),
        # a grey line's band: only where a click reaches the chart (a page, a notebook)
        interactive=("Click a line or its legend entry (shift-click for more) to see those "
                     "models alone, each with its band." if note else None),
    )]


def _caveats(data: Outcomes, p: CurvesParams, r: CurvesResult) -> list[str]:
    data = subset_of(data, p.subset)
    out = common_caveats(data) + subset_caveat(data, p.subset)
    if not r.curves.identified:
        out.append(NOT_IDENTIFIED[r.curves.scope])
    what = (f"each metric on these {data.M} questions, (1/M) Σ f_k(p_α) (questions scope: only "
            "the finite trials are uncertain)" if p.scope == "questions" else
            "each metric over the population these questions were drawn from, E[f_k(p)] "
            "(population scope: trials and question sampling)")
    out.append(
        f"Scope: {percent(p.confidence)} intervals for {what}; each interval holds on its own "
        "(pointwise per model and k), not the whole curve at once. Coverage measured by "
        "simulation: README, 'Pass@k curves'."
    )
    t = r.curves.table
    skewed = t[(t["k"] == data.N) & (data.N > 1) & ((t["value"] < 0.1) | (t["value"] > 0.9))]
    if data.N > 1:
        out.append(f"At k = {data.N} = N each question counts only whether all (Pass^k) or any "
                   "(Pass@k) of its trials succeeded: the estimate is unbiased but noisiest "
                   "there. On a skewed benchmark, where that value is below 0.1 or above 0.9, "
                   "the intervals at k = N covered 93–94% (questions scope) in the "
                   "simulations, and where almost no question is all-correct (Pass^N on a "
                   "hard benchmark, population scope) they are conservative: 98–99% "
                   "(README, 'Pass@k curves')"
                   + (f"; {count_text(len(skewed), 'such value')} here." if len(skewed) else "."))
    return out


def _to_code(p: CurvesParams, data: str = "data") -> str:
    tau = "" if p.tau is None else f", tau={p.tau!r}"
    return (
        "import scorio_core as sc\n"
        "from scorio_core import charts\n"
        "from scorio_core.curves import pass_curves\n"
        "from scorio_core.definitions.curves import shown_summary\n\n"
        f"passk = pass_curves({subset_code(p.subset, data)}, kinds={list(p.kinds)!r}{tau}, "
        f"scope={p.scope!r},\n                    confidence={p.confidence!r})\n"
        "# as the report prints it, in the same parts (one row per model; every k: "
        "passk.table)\n"
        "sc.display.show(shown_summary(passk))"
    )


def _requires(data: Outcomes) -> str | None:
    if not data.is_binary:
        return (f"Pass@k curves need binary outcomes; these data have {data.C + 1} categories. "
                + binary_next(data, to="to draw the Pass@k curves"))
    return None


#: What the long tables' columns hold ('summary' at k = 1, 2, 4, ..., N; 'curves' every k).
_LONG = {
    "model": "model name",
    "curve": "Pass@k (at least one of k trials correct), Pass^k (all k correct) or "
             "G-Pass@k_τ (at least ⌈τk⌉ of k correct)",
    "k": "trials drawn per question, 1 to N",
    "value": "the curve's unbiased estimate at k, averaged over the questions (it equals "
             "pass_at_k / pass_hat_k exactly; at k = 1 the mean score)",
    "se": "its standard error in the stated scope",
    "lo": "lower end of its interval at the confidence, stated scope (pointwise: each k on "
          "its own)",
    "hi": "upper end of that interval",
}
#: What each column of the curves' tables holds (:attr:`Analysis.columns`); a report's
#: summary is one row per model (:func:`summary_view`), a column per curve and k.
COLUMNS = {
    "summary": _LONG | {
        "{curve} lo": "lower end of the {curve} column's interval at the confidence, stated "
                      "scope (pointwise)",
        "{curve} hi": "upper end of the {curve} column's interval",
        "Pass@{k}": "the unbiased estimate of the chance that at least one of {k} trials is "
                    "correct, averaged over the questions",
        "Pass^{k}": "the unbiased estimate of the chance that all {k} trials are correct, "
                    "averaged over the questions",
        "G-Pass@{k}_τ": "the unbiased estimate of the chance that at least ⌈τ × {k}⌉ of "
                        "{k} trials are correct, averaged over the questions",
    },
    "curves": _LONG,
}


CURVES = Analysis(
    id="curves",
    title="Pass@k curves",
    params=CurvesParams,
    run=_run,
    tables=_tables,
    views=_views,
    charts=_charts,
    how_to_read=(
        "Each curve is the unbiased estimator of Pass@k (at least one of k draws correct), "
        "Pass^k (all k correct) or G-Pass@k_τ (at least ⌈τk⌉ correct) at every k ≤ N, "
        "computed as in scorio_core.eval, with its interval for the stated scope: questions "
        "= the metric on the questions asked (only the finite trials uncertain), population "
        "= over the population they were drawn from. At k = 1 both curves are the mean "
        "score and the interval is the leaderboard's. 'summary' shows k = 1, 2, 4, ..., N, "
        "one row per model; every k is in the chart, and in the 'curves' table of the "
        "CSV/JSON export. Each table's columns are explained under it."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=("charts.pass_curve_chart(passk)",),
    requires=_requires,
    result_var="passk",
    columns=COLUMNS,
)
