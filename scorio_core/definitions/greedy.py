"""Greedy vs sampling: alignment of one greedy decode with sampling, and the greedy prior's
effect at small N (Ranking Reasoning LLMs under Test-Time Scaling (2026), §3.4, Table 4, Figs. 3,
7).

Renders :func:`scorio_core.engines.greedy.greedy_by_benchmark` and
:func:`~scorio_core.engines.greedy.greedy_table` with the greedy charts.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.definitions import ANALYSES
>>> g = ANALYSES["greedy"]
>>> rng = np.random.default_rng(0)
>>> data = Outcomes(rng.integers(0, 2, (4, 20, 6)), R0=rng.integers(0, 2, (4, 20, 1)))
>>> list(g.tables(g.run(data, g.params(replicates=10)))["table"]["data"])  # no benchmarks
['dataset']
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import charts
from ..display import Shown
from ..engines.greedy import GreedyAnalysis, greedy_by_benchmark, greedy_table
from ..outcomes import COMBINED, Outcomes
from ..params import GreedyParams
from ._base import Analysis, Chart, Progress, binary_required, common_caveats, settings_code

__all__ = ["GreedyParams", "GreedyResult", "GREEDY", "COLUMNS", "verdict", "whole_label"]

LABELS = {"bayes": "Bayes_U@N (uniform prior)", "bayes_greedy": "Bayes_R0@N (greedy prior)"}


@dataclass(frozen=True, repr=False)
class GreedyResult(Shown):
    """One :class:`~scorio_core.engines.greedy.GreedyAnalysis` per benchmark (+ ``combined``,
    all the questions) and ``whole``: what the tables call all the questions
    (:func:`whole_label`)."""

    analysis_id = "greedy"
    main_table = "table"

    analyses: dict[str, GreedyAnalysis]
    whole: str = COMBINED

    @property
    def detail(self) -> GreedyAnalysis:
        return self.analyses[COMBINED]


def whole_label(data: Outcomes) -> str:
    """The ``data`` of the table's all-questions row: ``combined`` where it pools several
    benchmarks (beside a row for each), else what the questions are -- the one benchmark's
    name, or the dataset's when its questions name none (``combined`` there said a pooling
    that did not happen).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.definitions.greedy import whole_label
    >>> R = np.ones((2, 4, 2), int)
    >>> o = sc.Outcomes(R, benchmarks=["a", "a", "b", "b"], name="runs")
    >>> whole_label(o), whole_label(o.select("b")), whole_label(sc.Outcomes(R, name="runs"))
    ('combined', 'b', 'runs')
    """
    names = data.benchmark_names
    return COMBINED if len(names) > 1 else names[0] if names else data.name


def _run(data: Outcomes, p: GreedyParams, progress: Progress | None = None) -> GreedyResult:
    return GreedyResult(
        greedy_by_benchmark(data, replicates=p.replicates, seed=p.seed, progress=progress),
        whole_label(data),
    )


def verdict(r: GreedyResult, p: GreedyParams | None = None) -> str:
    """One sentence: does the greedy prior help at N = 1 on these data, how sure that is, and
    why -- what the page says under its metrics and a report (and ``scorio-studio greedy``)
    as "What to notice". It "helps" or "hurts" only where Δτ's interval over the resampled
    datasets excludes 0 (:attr:`~scorio_core.engines.greedy.GreedyAnalysis.delta_tau_gap`),
    and "narrows" or "widens" the spread only where the s.d. reduction's interval does
    (:attr:`~scorio_core.engines.greedy.GreedyAnalysis.sd_reduction_gap`); else it makes no
    clear difference. ``p``: the run's settings (for its seed).

    Example
    -------
    >>> from scorio_core.definitions.greedy import verdict, GREEDY, GreedyParams
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> rng = np.random.default_rng(0)
    >>> data = Outcomes(rng.integers(0, 2, (4, 20, 6)), R0=rng.integers(0, 2, (4, 20, 1)))
    >>> verdict(GREEDY.run(data, GreedyParams(replicates=10))).startswith("At N = 1")
    True
    """
    import math

    from ..formatting import format_column, percent, share_percent

    g = r.detail
    s = g.summary()
    gap, spread_gap = g.delta_tau_gap, g.sd_reduction_gap

    def shown(k: str) -> str:  # as the page's metric and the tables print it
        return format_column([s[k]], k)[0]

    dt, sd = s["delta_tau"], s["sd_reduction"]
    seed = "" if p is None else f" at seed {p.seed}"
    datasets = f"{gap.n} resampled dataset{'' if gap.n == 1 else 's'}{seed}"
    if gap.n < gap.min_pairs:
        sure = (f"{datasets} cannot separate it from no effect at {percent(gap.confidence)} "
                f"(that takes at least {gap.min_pairs})")
    else:
        sure = (f"{gap.interval_text()} over {datasets}, the two priors scored on the same "
                "datasets" + ("" if gap.separated else "; it includes 0"))
    word = ("makes no clear difference to" if not gap.separated else
            "helps" if dt > 0 else "hurts")
    reduction = f"s.d. reduction {shown('sd_reduction')}"
    if not math.isfinite(sd):
        spread = ("its spread is not measured (τ_b does not vary over the uniform prior's "
                  "replicates)")
    elif not math.isfinite(spread_gap.lo):
        spread = ("τ_b does not vary at all over the greedy prior's replicates "
                  f"({reduction}; a spread of 0 has no interval)" if sd == 1 else
                  f"its change of spread has no interval ({reduction}; too few datasets "
                  "score both priors)")
    elif spread_gap.separated:  # as Δτ: a direction only where the interval excludes 0
        spread = (f"it {'narrows' if sd > 0 else 'widens'} the spread by {share_percent(abs(sd))} "
                  f"({reduction}, {spread_gap.interval_text()})")
    else:
        why = ("it includes 0" if spread_gap.n >= spread_gap.min_pairs else
               f"{spread_gap.n} datasets cannot separate it: that takes at least "
               f"{spread_gap.min_pairs}")
        spread = (f"it makes no clear difference in spread ({reduction}, "
                  f"{spread_gap.interval_text()}; {why})")
    return (
        f"At N = 1 the greedy prior {word} mean agreement with the gold standard "
        f"(Δτ {'+' if dt > 0 else ''}{shown('delta_tau')}; {sure}), and {spread}. It acts as "
        "shrinkage toward the greedy ordering: useful when τ_G-S is high, biased when low."
    )


def _tables(r: GreedyResult) -> dict:
    t = greedy_table(r.analyses).rename(columns={"benchmark": "data"})
    t["data"] = t["data"].replace({COMBINED: r.whole})
    return {"table": t, "ranks": r.detail.ranks}


def _charts(r: GreedyResult) -> list[Chart]:
    g = r.detail
    curves = g.curves.summary.assign(method=lambda d: d["method"].map(LABELS))
    return [
        Chart("Greedy vs sampling ranks", charts.greedy_scatter(g.ranks),
              charts.GREEDY_SCATTER_CAPTION),
        Chart("τ_b at N = 1", charts.tau_distribution_chart(g.distributions),
              charts.TAU_DISTRIBUTION_CAPTION),
        Chart(
            "Agreement with the gold standard as N grows",
            charts.tau_curves(curves, y_title="Kendall τ_b vs gold"),
            "Mean τ_b vs Bayes_U@N on all trials (band ±1 s.d. over resampled datasets): the "
            "greedy prior's advantage, if any, is largest at small N and fades as trials add up.",
        ),
    ]


def _caveats(data: Outcomes, p: GreedyParams, r: GreedyResult) -> list[str]:
    out = common_caveats(data)
    out.append(
        f"Δτ and the s.d. reduction come from {p.replicates} column-wise resampled datasets "
        f"(seed {p.seed}); with few replicates they move by a few hundredths between seeds. "
        "Their intervals count both that and what the data's own trials allow: the datasets "
        f"re-draw the same {data.N} trials, so more replicates narrow them only so far."
    )
    out.append(
        "The greedy prior acts as shrinkage toward the greedy ordering: it helps when τ_G-S is "
        "high and biases the ranking when it is low."
    )
    return out


def _to_code(p: GreedyParams, data: str = "data") -> str:
    return (
        "import scorio_core as sc\n"
        "from scorio_core import charts\n\n"
        f"greedy_result = sc.greedy({data}, {settings_code(p)})\n"
        "greedy, detail = greedy_result.analyses, greedy_result.detail  # per benchmark; combined\n"
        "greedy_curves = detail.curves.summary.assign(method=lambda d: d['method'].map("
        f"{LABELS!r}))\n"
        'sc.display.show(greedy_result.tables()["table"])'
    )


def _requires(data: Outcomes) -> str | None:
    if data.R0 is None:
        return "needs greedy outcomes (R0); this dataset has none"
    return binary_required("Greedy vs sampling")(data)


#: What each column of the greedy tables holds (:attr:`Analysis.columns`).
COLUMNS = {
    "table": {
        "data": "the questions of the row: each benchmark, then all of them (combined)",
        "mean_accuracy": "mean sampled accuracy over the models, questions and trials (the "
                         "paper's difficulty)",
        "greedy_accuracy": "mean greedy (R0) accuracy over the models, questions and greedy "
                           "trials",
        "tau_gs": "τ_G-S: Kendall τ_b between the ranking by greedy accuracy and the "
                  "sampling ranking (Bayes@N on all trials)",
        "delta_tau": "Δτ: mean τ_b with the gold standard (Bayes_U@N, all trials) at N = 1 "
                     "with the greedy prior minus with the uniform prior, over the "
                     "resampled datasets (> 0: the prior helps)",
        "delta_tau_lo": "lower end of Δτ's 95% interval (the two priors scored on the same "
                        "resampled datasets, paired)",
        "delta_tau_hi": "upper end of Δτ's 95% interval",
        "sd_reduction": "1 - sd(greedy)/sd(uniform) of τ_b at N = 1 over the resampled "
                        "datasets: how much the greedy prior narrows its spread (> 0: "
                        "narrower)",
        "sd_reduction_lo": "lower end of the s.d. reduction's 95% interval (paired, on the "
                           "log of the s.d. ratio)",
        "sd_reduction_hi": "upper end of the s.d. reduction's 95% interval",
    },
    "ranks": {
        "model": "model name",
        "sampling_accuracy": "the model's mean over its sampled trials",
        "greedy_accuracy": "the model's mean over its greedy (R0) trials",
        "sampling_rank": "its rank by Bayes@N on the sampled trials (1 = best)",
        "greedy_rank": "its rank by greedy accuracy (1 = best; ties share the best rank)",
        "displacement": "greedy_rank - sampling_rank: above 0, greedy decoding ranks it "
                        "worse",
    },
}


GREEDY = Analysis(
    id="greedy",
    title="Greedy vs sampling",
    params=GreedyParams,
    run=_run,
    tables=_tables,
    charts=_charts,
    how_to_read=(
        "Do greedy decodes rank the models as sampling does, and does a prior built from "
        "them help at one sampled trial per question (002 Table 4)? τ_G-S compares the two "
        "rankings; Δτ and the s.d. reduction compare the greedy prior with the uniform one "
        "on the same resampled datasets, each with its 95% interval: the prior is said to "
        "help or hurt, to narrow or widen the spread, only where that interval excludes 0. "
        "The ranks table lists each model's sampling and greedy rank. Each table's columns "
        "are explained under it."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=(
        "charts.greedy_scatter(detail.ranks)",
        "charts.tau_distribution_chart(detail.distributions)",
        'charts.tau_curves(greedy_curves, y_title="Kendall τ_b vs gold")',
    ),
    requires=_requires,
    result_var="greedy",
    notice=lambda p, r: verdict(r, p),
    columns=COLUMNS,
)
