"""Low-budget stability: how well each method ranks from a single trial (Ranking Reasoning LLMs
under Test-Time Scaling (2026), §3.2, Tables 18-19).

Renders :func:`scorio_core.engines.stability.low_budget_stability` with
:func:`scorio_core.charts.stability_chart`.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.definitions import ANALYSES
>>> st = ANALYSES["stability"]
>>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (4, 20, 6)))
>>> result = st.run(data, st.params(methods="bayes,avg"))
>>> st.tables(result)["classes_gold"]["methods"].tolist()
['bayes, avg']
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import charts
from ..display import Shown
from ..engines.stability import Stability, low_budget_stability
from ..formatting import count_text
from ..outcomes import Outcomes
from ..params import StabilityParams
from ._base import (
    FAMILY_COLUMN,
    METHOD_COLUMN,
    PRINTED_ROWS,
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

__all__ = ["StabilityParams", "StabilityResult", "STABILITY", "COLUMNS", "claims"]


@dataclass(frozen=True, repr=False)
class StabilityResult(Shown):
    """The :class:`~scorio_core.engines.stability.Stability` of the chosen methods."""

    analysis_id = "stability"
    main_table = "classes_gold"

    stability: Stability


def _run(
    data: Outcomes, p: StabilityParams, progress: Progress | None = None, executor=None
) -> StabilityResult:
    ids = resolve_methods(p.methods)
    return StabilityResult(
        low_budget_stability(data.R, data.R0, ids, progress=progress, executor=executor)
    )


def _tables(r: StabilityResult) -> dict:
    s = r.stability
    return {
        "classes_gold": s.classes("gold"),
        "classes_self": s.classes("self"),
        "per_method": s.table.round(6),
    }


def _views(r: StabilityResult, tables: dict) -> dict[str, TableView]:
    """per_method in one line when longer than a printed report prints: each method's mean
    and sd there are those of its class in the two class tables, which list every method."""
    per = tables["per_method"]
    if len(per) <= PRINTED_ROWS:
        return {}
    return {"per_method": TableView(per.iloc[:0], (
        f"Not printed: {len(per):,} methods, one row each; a method's mean and sd are those of "
        "its class in 'classes_gold' and 'classes_self' above, which list every method. The "
        "CSV/JSON export lists them one row per method, with its family."))}


def _charts(r: StabilityResult) -> list[Chart]:
    s = r.stability
    if not s.tau["gold"]:
        return []
    return [
        Chart(
            "τ_b of single-trial rankings",
            charts.stability_chart({"vs gold": s.classes("gold"), "vs itself": s.classes("self")}),
            charts.STABILITY_CAPTION,
        )
    ]


def claims(r: StabilityResult) -> str:
    """The best class against each target, or the classes within noise of the top, in two
    sentences (:meth:`~scorio_core.engines.stability.Stability.claim`): what the page says
    under its metrics, the CLI under its heading and a report as "What to notice".

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.definitions.stability import STABILITY, claims
    >>> data = sc.Outcomes(np.random.default_rng(0).integers(0, 2, (4, 20, 3)))
    >>> claims(STABILITY.run(data, STABILITY.params(methods="bayes,borda"))).split(":")[0]
    'No best vs gold'
    >>> r = STABILITY.run(data, STABILITY.params(methods="bayes,win_rate"))
    >>> claims(r).split(":")[0]  # 3 slices cannot separate two classes
    'No single best vs gold'
    """
    s = r.stability
    if not s.tau["gold"]:
        return ""
    return " ".join(s.claim(t) for t in ("gold", "self"))


def _caveats(data: Outcomes, p: StabilityParams, r: StabilityResult) -> list[str]:
    out = common_caveats(data)
    slices = count_text(data.N, "single-trial slice")
    if data.N > 1:
        out.append(
            f"Means and s.d. are over the {slices} of this dataset, which share their "
            "questions: they measure trial-to-trial noise, not question sampling."
        )
    else:
        out.append(
            f"Means are over the {slices} of this dataset (all of its trials), so every τ_b "
            "compares rankings of the same trials and there is no trial-to-trial spread to "
            "measure: the s.d. is missing (—)."
        )
    return out + skipped_caveats(r.stability.skipped)


def _to_code(p: StabilityParams, data: str = "data") -> str:
    return (
        "import scorio_core as sc\n"
        "from scorio_core import charts\n\n"
        f"stability = sc.stability({data}, {settings_code(p)})\n"
        "stab = stability.stability  # table, classes('gold'), classes('self')\n"
        'sc.display.show(stab.classes("gold"))'
    )


#: The two targets a single-trial ranking is compared with, in words.
_TARGETS = {"gold": "the gold standard (Bayes@N on all trials)",
            "self": "the method's own ranking on all trials"}
#: What the spread of τ_b over the slices is, and what a missing τ_b means.
_SD = "s.d. of those τ_b over the slices (ddof 0): trial-to-trial spread, not the mean's " \
      "uncertainty"
_NOTE = "the slices with no τ_b, if any: every model tied on them"


def _class_columns(target: str) -> dict[str, str]:
    """What a class table's columns hold against ``target`` (``gold`` or ``self``)."""
    return {
        "rank": "the class's place by mean, best first (a tie broken by the lower sd)",
        "methods": "the methods whose single-trial rankings have the same τ_b on every slice",
        "size": "how many methods the class holds",
        "mean": "mean Kendall τ_b between each single-trial slice's ranking and "
                f"{_TARGETS[target]}, over the N slices",
        "sd": _SD,
        "note": _NOTE,
    }


#: What each column of the stability tables holds (:attr:`Analysis.columns`).
COLUMNS = {
    "classes_gold": _class_columns("gold"),
    "classes_self": _class_columns("self"),
    "per_method": {
        "method": METHOD_COLUMN,
        "family": FAMILY_COLUMN,
        "gold_mean": f"mean Kendall τ_b of its single-trial rankings with {_TARGETS['gold']}",
        "gold_sd": _SD,
        "self_mean": f"mean Kendall τ_b of its single-trial rankings with {_TARGETS['self']}",
        "self_sd": _SD,
        "slices": "single-trial slices ranked (one per trial, N)",
        "note": _NOTE,
    },
}


STABILITY = Analysis(
    id="stability",
    title="Low-budget stability (N = 1)",
    params=StabilityParams,
    run=_run,
    tables=_tables,
    views=_views,
    charts=_charts,
    how_to_read=(
        "With one trial per question (N = 1), each single-trial slice is ranked by every method "
        "and compared by Kendall τ_b with (i) the gold standard (Bayes@N on all trials) and "
        "(ii) the method's own ranking on all trials (self-consistency). Methods with identical "
        "τ_b on every slice are collapsed into one class; classes are sorted by mean τ_b, best "
        "first (002 Tables 18-19). A class is called best only when the slices separate it "
        "from every other: the gap, paired over the same slices, has a 95% interval that "
        "excludes 0 (and there are at least 6 slices); otherwise the classes within noise of "
        "the top are named. Each table's columns are explained under it."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=(
        'charts.stability_chart({"vs gold": stab.classes("gold"), '
        '"vs itself": stab.classes("self")})',
    ),
    requires=binary_required("Stability"),
    result_var="stab",
    notice=lambda p, r: claims(r) or None,
    columns=COLUMNS,
)
