"""Convergence: τ_b curves and convergence@n over bootstrap replicates (Don't Pass@k (2026),
App. I.1).

Renders :func:`scorio_core.engines.convergence.convergence_curves`,
:func:`~scorio_core.engines.convergence.convergence_at_n` and
:func:`~scorio_core.engines.convergence.worst_trajectory` with the convergence charts.
Methods with a running-count fast path get ``replicates``; methods that must re-rank
every replicate get ``slow_replicates`` (as on the Convergence page).

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.definitions import ANALYSES
>>> conv = ANALYSES["convergence"]
>>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (4, 20, 8)))
>>> p = conv.params(methods="bayes,pass_at_k_2", replicates=200, curve_replicates=50)
>>> conv.tables(conv.run(data, p))["summary"]["replicates"].tolist()
[200, 200]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import charts
from .._validation import ValidationError
from ..display import Shown
from ..engines.convergence import (
    SINGLE_TRIAL_NEXT,
    SUMMARY_DECIMALS,
    ConvergenceRun,
    Curves,
    convergence_at_n,
    convergence_curves,
    explain_convergence,
    has_fast_path,
    subset_convergence,
    worst_trajectory,
)
from ..formatting import DECIMALS_ATTR, format_number
from ..outcomes import Outcomes
from ..params import MATCHES, SCHEMES, TARGETS, ConvergenceParams
from ..rank import METHODS
from ..references import expand
from ._base import (
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

__all__ = [
    "ConvergenceParams",
    "ConvergenceResult",
    "CONVERGENCE",
    "MATCHES",
    "SCHEMES",
    "TARGETS",
    "available_targets",
    "usable_methods",
    "worst_case",
    "worst_case_text",
    "SUMMARY_COLUMNS",
    "CURVE_COLUMNS",
    "SUMMARY_CAPTION",
    "subset_sizes",
    "run_subsets",
]

#: The summary table's columns, one line each (their decimals:
#: :data:`scorio_core.engines.convergence.SUMMARY_DECIMALS`, declared on the table): the
#: page's column help and every rendering's legend (:attr:`CONVERGENCE.columns`).
SUMMARY_COLUMNS = {
    "method": METHOD_COLUMN,
    "mean_trials": "mean convergence@n (the trials after which the ranking matches the "
                   "target, as the match setting says, for good) over the replicates that "
                   "converged (— : none converged)",
    "mean_trials_censored": expand("mean_trials with no convergence counted as N "
                                   "(000 Tables 9-11): censored at N wherever no_convergence "
                                   "is above 0"),
    "median_trials": "median convergence@n (trials) over converged replicates (— : none "
                     "converged)",
    "no_convergence": "share still differing from the target at trial N-1 or later: the "
                      "replicates left out of mean_trials and median_trials and counted as N "
                      "in mean_trials_censored",
    "replicates": "bootstrap replicates of the trials the method's numbers are over",
}
#: What the τ_b curves' columns hold (the known-truth coins study's table too).
CURVE_COLUMNS = {
    "method": METHOD_COLUMN,
    "n": "trials per question: the first n of each replicate's trials",
    "mean": "mean Kendall τ_b between the ranking from those n trials and the target "
            "ranking, over the replicates",
    "sd": "s.d. of that τ_b over the replicates (ddof 0): its spread, not the mean's "
          "uncertainty",
    "q05": "5% quantile of that τ_b over the replicates",
    "q95": "95% quantile of that τ_b over the replicates",
}
#: The line under the summary table: which values leave out or censor the replicates that
#: never converged (the table itself keeps every value a number).
SUMMARY_CAPTION = (
    "Rows with no_convergence above 0 have replicates that never converged: mean_trials and "
    "median_trials leave them out (— : none converged), mean_trials_censored counts them "
    "as N (censored at N)."
)


def subset_sizes(n_models: int) -> list[int]:
    """Model-subset sizes offered for ``n_models`` models (Don't Pass@k (2026), Tables 9–11 use 5,
    10, 15).

    Example
    -------
    >>> from scorio_core.definitions.convergence import subset_sizes
    >>> subset_sizes(11), subset_sizes(3)
    ([3, 5, 10], [3])
    """
    return [s for s in (3, 5, 10, 15) if s < n_models] or [n_models]


def run_subsets(
    data: Outcomes, params: ConvergenceParams, methods: list[str], sizes: list[int],
    subsets: int, replicates: int, progress: Progress | None = None,
) -> pd.DataFrame:
    """Mean convergence@n over random model subsets (Don't Pass@k (2026), Tables 9–11) with the
    scheme and seed of ``params``: one row per subset.

    Example
    -------
    >>> from scorio_core.definitions.convergence import run_subsets, ConvergenceParams
    >>> import numpy as np
    >>> data = sc.Outcomes(np.random.default_rng(0).integers(0, 2, (6, 20, 8)))
    >>> t = run_subsets(data, ConvergenceParams(), ["bayes"], [3], subsets=2, replicates=20)
    >>> len(t)
    2
    """
    return subset_convergence(
        data.R, data.R0, methods, sizes=sizes, subsets=int(subsets), replicates=int(replicates),
        scheme=params.scheme, seed=params.seed, models=data.models, progress=progress)

@dataclass(frozen=True, repr=False)
class ConvergenceResult(Shown):
    """One ``(Curves or None, ConvergenceRun)`` pair per speed group (fast, then re-ranked
    methods), the worst-case rank trajectory of the first method, and the plain-language
    reasons when convergence is empty or never happens
    (:func:`~scorio_core.engines.convergence.explain_convergence`)."""

    analysis_id = "convergence"
    main_table = "summary"

    parts: tuple[tuple[Curves | None, ConvergenceRun], ...]
    models: tuple[str, ...]
    trajectory: np.ndarray
    trajectory_method: str
    trajectory_replicate: int
    trajectory_converged_at: int
    explanations: tuple[str, ...] = ()

    @property
    def summary(self) -> pd.DataFrame:
        out = pd.concat([r.summary for _, r in self.parts], ignore_index=True)
        out.attrs[DECIMALS_ATTR] = dict(SUMMARY_DECIMALS)  # as each part's summary
        return out

    @property
    def curves(self) -> pd.DataFrame:
        got = [c.summary for c, _ in self.parts if c is not None]
        if not got:
            return pd.DataFrame(columns=["method", "n", "mean", "sd"])
        return pd.concat(got, ignore_index=True)

    @property
    def pmf(self) -> pd.DataFrame:
        return pd.concat([r.pmf for _, r in self.parts], ignore_index=True)

    @property
    def cdf(self) -> pd.DataFrame:
        return pd.concat([r.cdf for _, r in self.parts], ignore_index=True)

    @property
    def skipped(self) -> dict[str, str]:
        return {m: why for _, r in self.parts for m, why in r.skipped.items()}

    def run_of(self, method_id: str) -> ConvergenceRun:
        """The :class:`ConvergenceRun` that holds ``method_id``."""
        return next(r for _, r in self.parts if method_id in r.s_star)

    @property
    def methods(self) -> list[str]:
        """The methods that ran, in order."""
        return [m for _, r in self.parts for m in r.s_star]


def usable_methods(data: Outcomes) -> list[str]:
    """Methods that can rank these data at some step (enough trials, R0 when needed).

    Example
    -------
    >>> from scorio_core.definitions.convergence import usable_methods
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 10, 2)))
    >>> "pass_at_k_4" in usable_methods(data), "bayes_greedy" in usable_methods(data)
    (False, False)
    """
    return [
        m for m, meta in METHODS.items()
        if meta.min_trials <= data.N and not (meta.needs_r0 and data.R0 is None)
    ]


def available_targets(data: Outcomes) -> list[str]:
    """The targets these data support: ``truth`` only with one known true mean per model."""
    truth = data.metadata.get("true_means")
    ok = truth is not None and len(truth) == data.L
    return [t for t in TARGETS if t != "truth" or ok]


def worst_case(r: ConvergenceResult, data: Outcomes, method_id: str,
               converged_only: bool = True) -> Chart:
    """The rank trajectory of ``method_id``'s worst-case replicate (Don't Pass@k (2026), Fig. 9) as
    a chart.

    ``converged_only``: the slowest replicate that converged; otherwise the one whose
    ranking changed last (a no-convergence one if any).
    """
    run = r.run_of(method_id)
    b = run.worst(method_id, converged_only)
    traj = worst_trajectory(run, method_id, data.R, data.R0, converged_only)
    s = int(run.s_star[method_id][b])
    return Chart(
        charts.rank_trajectory_title(method_id, s),
        charts.rank_trajectory_chart(traj, data.models, s or None),
        charts.RANK_TRAJECTORY_CAPTION + " " + worst_case_text(run, method_id, b),
    )


def worst_case_text(run: ConvergenceRun, method_id: str, b: int) -> str:
    """What the worst-case trajectory's replicate ``b`` shows, in one sentence: where it
    converges -- and, when it is the slowest of the replicates that converged while others
    never did, how many never did (else 'converges at n = 3' reads as the worst case of
    all replicates, beside a summary where 9 in 10 never converge), as the summary's
    ``no_convergence`` column writes that share (0.077 there, not 7.7% here).

    Example
    -------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from scorio_core.definitions.convergence import worst_case_text
    >>> run = SimpleNamespace(s_star={"bayes": np.array([0, 3, 0, 2])},
    ...                       last_change={"bayes": np.array([3, 2, 3, 1])})
    >>> worst_case_text(run, "bayes", 1)  # doctest: +NORMALIZE_WHITESPACE
    'Replicate 1, the slowest of the replicates that converged: converges at n = 3; the
    others never settle on the target within the trials (no_convergence = 0.500).'
    >>> worst_case_text(run, "bayes", 0)
    'Replicate 0: no convergence (last change at n = 3).'
    """
    s_star = np.asarray(run.s_star[method_id])
    s = int(s_star[b])
    if not s:
        last = run.last_change[method_id][b]
        return f"Replicate {b}: no convergence (last change at n = {last})."
    never = float((s_star == 0).mean())  # the summary's no_convergence for this method
    if never == 0:
        return f"Replicate {b}, the slowest of all: converges at n = {s}."
    share = format_number(never, SUMMARY_DECIMALS["no_convergence"], probability=True)
    return (f"Replicate {b}, the slowest of the replicates that converged: converges at "
            f"n = {s}; the others never settle on the target within the trials "
            f"(no_convergence = {share}).")


def _target(data: Outcomes, target: str):
    if target != "truth":
        return target
    truth = data.metadata.get("true_means")
    if truth is None or len(truth) != data.L:
        raise ValidationError(
            "target 'truth' needs the dataset's known true means (metadata 'true_means', one "
            f"per model); {data.name!r} has none; use gold or self"
        )
    return np.asarray(truth, dtype=float)


def _truth_of(data: Outcomes, run: ConvergenceRun) -> np.ndarray | None:
    """The true means a run compared with (target 'truth': the run's target is 'scores')."""
    return _target(data, "truth") if run.target == "scores" else None


def _groups(p: ConvergenceParams) -> list[tuple[list[str], int, int]]:
    """``(method ids, curve replicates, convergence replicates)`` per speed group."""
    ids = resolve_methods(p.methods)
    if p.slow_replicates is None:
        return [(ids, p.curve_replicates, p.replicates)]
    fast = [m for m in ids if has_fast_path(m)]
    slow = [m for m in ids if not has_fast_path(m)]
    groups = [(fast, p.curve_replicates, p.replicates)]
    slow_curves = None if p.curve_replicates is None else p.slow_replicates
    groups.append((slow, slow_curves, p.slow_replicates))
    return [g for g in groups if g[0]]


def _requires(data: Outcomes) -> str | None:
    why = binary_required("Convergence")(data)
    if why is None and data.N < 2:
        why = (
            f"these data have N = {data.N} trial per question: convergence@n needs a step "
            "s <= N - 1 after which the ranking stays put. Load data with more trials, or "
            "rank single trials with " + SINGLE_TRIAL_NEXT
        )
    return why


def part_specs(p: ConvergenceParams) -> list[tuple[tuple[str, ...], int | None, int]]:
    """The independent parts of a run: ``(method ids, curve replicates, convergence@n
    replicates)`` per speed group (fast methods, then re-ranked ones). A page caches each
    part on its own, so adding a slow method does not recompute the fast ones."""
    return [(tuple(ids), bc, bn) for ids, bc, bn in _groups(p)]


def run_part(
    data: Outcomes, p: ConvergenceParams, ids, b_curves: int | None, b_conv: int,
    progress: Progress | None = None, executor=None,
) -> tuple[Curves | None, ConvergenceRun]:
    """The curves (unless ``b_curves`` is None) and convergence@n of one part;
    ``executor`` (:class:`scorio_core.parallel.Executor`) runs re-ranked methods' replicates
    here or on Dask, with the same result."""
    kw = {"scheme": p.scheme, "seed": p.seed, "target": _target(data, p.target),
          "executor": executor}

    def share(lo: float, hi: float, what: str) -> Progress | None:
        if progress is None:
            return None
        return lambda f, m: progress(lo + (hi - lo) * f, f"{what}: {m}")

    cur = None
    if b_curves is not None:
        cur = convergence_curves(data.R, data.R0, list(ids), replicates=b_curves,
                                 progress=share(0.0, 0.5, "curves"), **kw)
    run = convergence_at_n(data.R, data.R0, list(ids), replicates=b_conv, match=p.match,
                           progress=share(0.0 if cur is None else 0.5, 1.0, "convergence@n"),
                           **kw)
    return cur, run


def assemble(data: Outcomes, parts) -> ConvergenceResult:
    """The result from the parts of :func:`run_part`: worst case and explanations."""
    ran = [(r, m) for _, r in parts for m in r.s_star]
    if not ran:
        why = "; ".join(f"{m}: {w}" for _, r in parts for m, w in r.skipped.items())
        raise ValidationError(f"no chosen method can run on these data ({why})")
    run, mid = ran[0]
    b = run.worst(mid, True)
    traj = worst_trajectory(run, mid, data.R, data.R0, True)
    why = tuple(w for _, r in parts for w in explain_convergence(
        r, data.R, data.R0, truth=_truth_of(data, r), models=data.models))
    return ConvergenceResult(
        tuple(parts), data.models, traj, mid, b, int(run.s_star[mid][b]), why
    )


def _run(
    data: Outcomes, p: ConvergenceParams, progress: Progress | None = None, executor=None
) -> ConvergenceResult:
    specs = part_specs(p)
    parts = []
    for i, spec in enumerate(specs):
        step = None
        if progress is not None:
            step = lambda f, m, i=i: progress((i + f) / len(specs), m)  # noqa: E731
        parts.append(run_part(data, p, *spec, progress=step, executor=executor))
    result = assemble(data, parts)
    if progress is not None:
        progress(1.0, "done")
    return result


def _tables(r: ConvergenceResult) -> dict:
    return {"summary": r.summary, "curves": r.curves.round(6), "pmf": r.pmf}


#: A report shows the τ_b curves at n = 1, 2, 4, ... and N once N is larger than this (one
#: row per method and n ran to hundreds, and the first rows a report prints were one
#: method's).
CURVE_ROWS_EVERY_N = 16


def pmf_bins(pmf: pd.DataFrame, summary: pd.DataFrame) -> pd.DataFrame:
    """The convergence@n pmf as a printed report shows it: one row per method, the share of
    replicates whose convergence@n falls in each bin n = 1, 2, 3–4, 5–8, ... (doubling, the
    last ending at N - 1), then ``no_convergence`` (the summary's): each row sums to 1.

    Example
    -------
    >>> import pandas as pd
    >>> from scorio_core.definitions.convergence import pmf_bins
    >>> pmf = pd.DataFrame({"method": "bayes", "n": range(1, 6), "p": [.1, .2, .3, 0, .1]})
    >>> pmf_bins(pmf, pd.DataFrame({"method": ["bayes"], "no_convergence": [.3]}))
      method  n=1  n=2  n=3–4  n=5  no_convergence
    0  bayes  0.1  0.2    0.3  0.1             0.3
    """
    last = int(pmf["n"].max())
    edges = [(1, 1)] + [(lo + 1, min(2 * lo, last)) for lo in
                        (1 << i for i in range(max(last - 1, 0).bit_length())) if lo < last]
    cols: dict[str, list] = {"method": []}
    names = [f"n={lo}" if lo == hi else f"n={lo}–{hi}" for lo, hi in edges]
    never = summary.set_index("method")["no_convergence"]
    for method, g in pmf.groupby("method", sort=False):
        cols["method"].append(method)
        for name, (lo, hi) in zip(names, edges, strict=True):
            cols.setdefault(name, []).append(float(g.loc[g["n"].between(lo, hi), "p"].sum()))
        cols.setdefault("no_convergence", []).append(float(never[method]))
    out = pd.DataFrame(cols)
    # every share of the row prints as no_convergence does in the summary (one format per
    # column name in a report): the bins beside it, whose row sums to 1, alike
    out.attrs[DECIMALS_ATTR] = {c: SUMMARY_DECIMALS["no_convergence"] for c in out.columns[1:]}
    return out


def _views(r: ConvergenceResult, tables: dict) -> dict[str, TableView]:
    """The curves at doubling n (every method, the last n too) and the pmf in doubling bins
    of n (:func:`pmf_bins`), each with one line on what the report leaves to the export."""
    views = {}
    curves = tables["curves"]
    if len(curves) and curves["n"].max() > CURVE_ROWS_EVERY_N:
        last = int(curves["n"].max())
        steps = [1 << i for i in range(last.bit_length()) if 1 << i < last] + [last]
        views["curves"] = TableView(
            curves[curves["n"].isin(steps)].reset_index(drop=True),
            f"n = 1, 2, 4, …, {last} shown; the CSV/JSON export lists every n (the chart "
            "draws them all).")
    pmf = tables["pmf"]
    if not (pmf["p"] > 0).any():
        views["pmf"] = TableView(pmf.iloc[:0], (
            "No replicate converged within the trials: every method's mass is at 'no "
            "convergence' (see the caveats). The CSV/JSON export lists every n."))
    else:
        views["pmf"] = TableView(pmf_bins(pmf, tables["summary"]), (
            "Share of replicates whose convergence@n falls in each bin of n (doubling: 1, 2, "
            f"3–4, 5–8, …, up to N - 1 = {int(pmf['n'].max())}), and the share that never "
            "settled (no_convergence): each row sums to 1. The CSV/JSON export lists p for "
            "every n."))
    return views


def _charts(r: ConvergenceResult) -> list[Chart]:
    s = r.trajectory_converged_at
    # always the first chart (chart_code is positional); without curves it says why
    no_curves = None if any(c is not None for c, _ in r.parts) else (
        "The τ_b curves were not computed (curve_replicates=None): only convergence@n."
    )
    out = [Chart(
        "Agreement with the target as trials accumulate",
        charts.tau_curves(r.curves),
        charts.TAU_CURVES_CAPTION,
        no_curves,
    )]
    # nothing converged: the PMF and CDF are flat at zero and say nothing (the page hides
    # them with a note; the report prints this instead)
    empty = None if (r.pmf["p"] > 0).any() else (
        "No replicate converged within the trials, so there is no convergence@n "
        "distribution to plot: every method's mass is at 'no convergence' (see the caveats "
        "for why and what to change)."
    )
    # methods that never converged are lines at 0: the charts leave them out; say which
    flat = [m for m, g in r.pmf.groupby("method", sort=False) if not (g["p"] > 0).any()]
    left = "" if empty or not flat else (
        f" Not drawn: {', '.join(flat)} (no replicate converged; see the summary).")
    return out + [
        Chart("Distribution of convergence@n", charts.convergence_pmf(r.pmf),
              charts.CONVERGENCE_PMF_CAPTION + left, empty),
        Chart("Cumulative convergence@n", charts.convergence_cdf(r.cdf),
              charts.CONVERGENCE_CDF_CAPTION + left, empty),
        Chart(
            charts.rank_trajectory_title(r.trajectory_method, s),
            charts.rank_trajectory_chart(r.trajectory, r.models, s or None),
            charts.RANK_TRAJECTORY_CAPTION + " " + worst_case_text(
                r.run_of(r.trajectory_method), r.trajectory_method, r.trajectory_replicate),
        ),
    ]


def _caveats(data: Outcomes, p: ConvergenceParams, r: ConvergenceResult) -> list[str]:
    out = common_caveats(data)
    out.append(
        f"Bootstrap over the {data.N} observed trials ({p.scheme}-wise, seed {p.seed}): the "
        "curves describe re-drawing trials of these questions, not new questions; "
        f"convergence@n is bounded by N = {data.N} ('no_convergence' counts the rest)."
    )
    if p.target == "truth":
        out.append(
            "Target 'truth': the true ranking, by the known true means in the dataset's "
            "metadata, not the ranking these data give. The replicates re-draw the "
            f"{data.N} observed trials, so a replicate's ranking can only settle where these "
            "trials point: where they order a pair against the truth, or where the truth ties "
            "two models, an exact match with the truth cannot last (the reasons, by name, "
            "follow when it happens)."
        )
    never = r.summary.loc[r.summary["no_convergence"] >= 1.0, "method"].tolist()
    if never:
        late = ("no replicate's ranking settles on the true ranking" if p.target == "truth"
                else "the ranking still changes late")
        out.append(
            f"No replicate converged within N = {data.N} trials for: {', '.join(never)} "
            f"({late}; its distribution and CDF charts are flat at zero)."
        )
    if p.slow_replicates is not None and len(r.parts) > 1:
        slow = ", ".join(m for m in r.parts[-1][1].s_star)
        out.append(
            f"Re-ranked methods ({slow}) use only {p.slow_replicates} replicates: their "
            "estimates are much noisier than the fast methods'."
        )
    return out + list(r.explanations) + skipped_caveats(r.skipped) + _left_out(data, p)


def _left_out(data: Outcomes, p: ConvergenceParams) -> list[str]:
    """The default methods these data cannot rank, left out of a run on the defaults
    (:func:`_for_data`) -- said as an explicit request's skipped methods are
    (:func:`skipped_caveats`), not dropped in silence."""
    if p.methods != _for_data(data).get("methods"):
        return []
    ran = set(p.methods.split(","))
    out = []
    for m in ConvergenceParams().methods.split(","):
        if m in ran or m not in METHODS:
            continue
        meta = METHODS[m]
        why = (f"needs N >= {meta.min_trials} trials; the data have N = {data.N}"
               if meta.min_trials > data.N else "needs greedy outcomes (R0); the data have none")
        out.append(f"Default method {m} left out: {why}.")
    return out


def _to_code(p: ConvergenceParams, data: str = "data") -> str:
    return (
        "import scorio_core as sc\n"
        "from scorio_core import charts\n\n"
        f"conv = sc.convergence({data}, {settings_code(p)})\n"
        "summary, curves, pmf, cdf = conv.summary, conv.curves, conv.pmf, conv.cdf\n"
        "sc.display.show(summary)"
    )


def _for_data(data: Outcomes) -> dict[str, str]:
    """The default methods these data can rank (else the first usable one)."""
    usable = usable_methods(data)
    ids = [m for m in ConvergenceParams().methods.split(",") if m in usable] or usable[:1]
    return {"methods": ",".join(ids)} if ids else {}


CONVERGENCE = Analysis(
    id="convergence",
    title="Convergence",
    params=ConvergenceParams,
    run=_run,
    tables=_tables,
    views=_views,
    charts=_charts,
    how_to_read=(
        "How many trials until a ranking stops changing? Trials are resampled with a seeded "
        "bootstrap; each replicate is ranked after 1, 2, …, N trials and compared with a "
        "target. convergence@n is the trial count after which the ranking equals the target "
        "and never changes again (000 App. I.1); a replicate that is still changing at the "
        "last trials has no convergence within the data. The summary gives its mean and "
        "median per method, the curves the agreement with the target at each n, the pmf how "
        "the replicates' convergence@n spread. Each table's columns are explained under it."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=(
        "charts.tau_curves(curves)",
        "charts.convergence_pmf(pmf)",
        "charts.convergence_cdf(cdf)",
        "charts.rank_trajectory_chart(conv.trajectory, conv.models, "
        "conv.trajectory_converged_at or None)",
    ),
    requires=_requires,
    for_data=_for_data,
    result_var="conv",
    columns={
        "summary": SUMMARY_COLUMNS,
        "curves": CURVE_COLUMNS,
        # the long table (exports), and a report's doubling bins of n (pmf_bins)
        "pmf": {"method": METHOD_COLUMN,
                "n": "trials per question n (1 to N - 1)",
                "p": "share of the replicates whose convergence@n is n",
                "n={bin}": "share of the replicates whose convergence@n is in bin (n = 1, 2, "
                           "3–4, 5–8, …, N - 1)",
                "no_convergence": SUMMARY_COLUMNS["no_convergence"]},
    },
)
