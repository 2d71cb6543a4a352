"""Convergence: τ_b curves and convergence@n over bootstrap replicates (000 App. I.1).

Renders :func:`scorio_core.analysis.convergence.convergence_curves`,
:func:`~scorio_core.analysis.convergence.convergence_at_n` and
:func:`~scorio_core.analysis.convergence.worst_trajectory` with the convergence charts.
Methods with a running-count fast path get ``replicates``; methods that must re-rank
every replicate get ``slow_replicates`` (as on the Convergence page).

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.analyses import ANALYSES
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
from .._validation import ValidationError, check_choice, check_int
from ..analysis.convergence import (
    ConvergenceRun,
    Curves,
    convergence_at_n,
    convergence_curves,
    has_fast_path,
    worst_trajectory,
)
from ..outcomes import Outcomes
from ._base import (
    Analysis,
    Chart,
    binary_required,
    common_caveats,
    methods_code,
    resolve_methods,
    skipped_caveats,
)

__all__ = ["ConvergenceParams", "ConvergenceResult", "CONVERGENCE"]

SCHEMES = ("column", "row", "permutation")
TARGETS = ("gold", "self", "truth")


@dataclass(frozen=True)
class ConvergenceParams:
    """Settings of the convergence analysis (Convergence page, ``scorio-studio convergence``).

    Parameters
    ----------
    methods : str
        ``"all"``, a family name or comma-separated method ids.
    replicates : int
        Bootstrap replicates for convergence@n (the papers use 100,000).
    curve_replicates : int
        Replicates for the τ_b curves.
    slow_replicates : int or None
        Replicates (curves and convergence@n) for methods without a fast path;
        ``None`` uses ``replicates`` and ``curve_replicates`` for them too.
    seed : int
    scheme : {"column", "row", "permutation"}
    target : {"gold", "self", "truth"}
        ``truth`` needs the dataset's known ``true_means`` (simulated data).
    """

    methods: str = "bayes,pass_at_k_2,pass_at_k_4,pass_at_k_8"
    replicates: int = 10_000
    curve_replicates: int = 1000
    slow_replicates: int | None = 10
    seed: int = 0
    scheme: str = "column"
    target: str = "gold"

    def __post_init__(self) -> None:
        resolve_methods(self.methods)
        check_int("replicates", self.replicates, 2)
        check_int("curve_replicates", self.curve_replicates, 2)
        if self.slow_replicates is not None:
            check_int("slow_replicates", self.slow_replicates, 2)
        check_int("seed", self.seed, 0)
        check_choice("scheme", self.scheme, SCHEMES)
        check_choice("target", self.target, TARGETS)


@dataclass(frozen=True)
class ConvergenceResult:
    """One ``(Curves, ConvergenceRun)`` pair per speed group (fast, then re-ranked methods),
    and the worst-case rank trajectory of the first method."""

    parts: tuple[tuple[Curves, ConvergenceRun], ...]
    models: tuple[str, ...]
    trajectory: np.ndarray
    trajectory_method: str
    trajectory_replicate: int
    trajectory_converged_at: int

    @property
    def summary(self) -> pd.DataFrame:
        return pd.concat([r.summary for _, r in self.parts], ignore_index=True)

    @property
    def curves(self) -> pd.DataFrame:
        return pd.concat([c.summary for c, _ in self.parts], ignore_index=True)

    @property
    def pmf(self) -> pd.DataFrame:
        return pd.concat([r.pmf for _, r in self.parts], ignore_index=True)

    @property
    def cdf(self) -> pd.DataFrame:
        return pd.concat([r.cdf for _, r in self.parts], ignore_index=True)

    @property
    def skipped(self) -> dict[str, str]:
        return {m: why for _, r in self.parts for m, why in r.skipped.items()}


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


def _groups(p: ConvergenceParams) -> list[tuple[list[str], int, int]]:
    """``(method ids, curve replicates, convergence replicates)`` per speed group."""
    ids = resolve_methods(p.methods)
    if p.slow_replicates is None:
        return [(ids, p.curve_replicates, p.replicates)]
    fast = [m for m in ids if has_fast_path(m)]
    slow = [m for m in ids if not has_fast_path(m)]
    groups = [(fast, p.curve_replicates, p.replicates)]
    groups.append((slow, p.slow_replicates, p.slow_replicates))
    return [g for g in groups if g[0]]


def _run(data: Outcomes, p: ConvergenceParams) -> ConvergenceResult:
    tgt = _target(data, p.target)
    kw = {"scheme": p.scheme, "seed": p.seed, "target": tgt}
    parts = []
    for ids, b_curves, b_conv in _groups(p):
        cur = convergence_curves(data.R, data.R0, ids, replicates=b_curves, **kw)
        run = convergence_at_n(data.R, data.R0, ids, replicates=b_conv, **kw)
        parts.append((cur, run))
    ran = [(r, m) for _, r in parts for m in r.s_star]
    if not ran:
        why = "; ".join(f"{m}: {w}" for _, r in parts for m, w in r.skipped.items())
        raise ValidationError(f"no chosen method can run on these data ({why})")
    run, mid = ran[0]
    b = run.worst(mid, True)
    traj = worst_trajectory(run, mid, data.R, data.R0, True)
    return ConvergenceResult(
        tuple(parts), data.models, traj, mid, b, int(run.s_star[mid][b])
    )


def _tables(r: ConvergenceResult) -> dict:
    return {"summary": r.summary, "curves": r.curves.round(6), "pmf": r.pmf}


def _charts(r: ConvergenceResult) -> list[Chart]:
    s = r.trajectory_converged_at
    where = f"converges at n = {s}" if s else "never converges within the trials"
    return [
        Chart(
            "Agreement with the target as trials accumulate",
            charts.tau_curves(r.curves),
            charts.TAU_CURVES_CAPTION,
        ),
        Chart("Distribution of convergence@n", charts.convergence_pmf(r.pmf),
              charts.CONVERGENCE_PMF_CAPTION),
        Chart("Cumulative convergence@n", charts.convergence_cdf(r.cdf),
              charts.CONVERGENCE_CDF_CAPTION),
        Chart(
            f"Worst-case replicate of {r.trajectory_method}",
            charts.rank_trajectory_chart(r.trajectory, r.models, s or None),
            charts.RANK_TRAJECTORY_CAPTION + f" Replicate {r.trajectory_replicate}: {where}.",
        ),
    ]


def _caveats(data: Outcomes, p: ConvergenceParams, r: ConvergenceResult) -> list[str]:
    out = common_caveats(data)
    out.append(
        f"Bootstrap over the {data.N} observed trials ({p.scheme}-wise, seed {p.seed}): the "
        "curves describe re-drawing trials of these questions, not new questions; "
        f"convergence@n is bounded by N = {data.N} ('no_convergence' counts the rest)."
    )
    never = r.summary.loc[r.summary["no_convergence"] >= 1.0, "method"].tolist()
    if never:
        out.append(
            f"No replicate converged within N = {data.N} trials for: {', '.join(never)} (the "
            "ranking still changes late; its distribution and CDF charts are flat at zero)."
        )
    if p.slow_replicates is not None and len(r.parts) > 1:
        slow = ", ".join(m for m in r.parts[-1][1].s_star)
        out.append(
            f"Re-ranked methods ({slow}) use only {p.slow_replicates} replicates: their "
            "estimates are much noisier than the fast methods'."
        )
    return out + skipped_caveats(r.skipped)


def _to_code(p: ConvergenceParams, data: str = "data") -> str:
    lines = [
        "import pandas as pd",
        "from scorio_core import charts",
        "from scorio_core.analysis.convergence import convergence_at_n, convergence_curves, "
        "worst_trajectory",
        "from scorio_core.rank import METHODS",
        "",
    ]
    tgt = repr(p.target)
    if p.target == "truth":
        lines.append(f"target = [float(t) for t in {data}.metadata['true_means']]")
        tgt = "target"
    kw = f"scheme={p.scheme!r}, seed={p.seed}, target={tgt}"
    names = []
    for i, (ids, b_curves, b_conv) in enumerate(_groups(p)):
        ids_code = methods_code(ids) if p.slow_replicates is not None else methods_code(p.methods)
        lines += [
            f"curves_{i} = convergence_curves({data}.R, {data}.R0, {ids_code}, "
            f"replicates={b_curves}, {kw})",
            f"conv_{i} = convergence_at_n({data}.R, {data}.R0, {ids_code}, "
            f"replicates={b_conv}, {kw})",
        ]
        names.append(i)
    cat = ", ".join(f"conv_{i}.{{}}" for i in names)
    lines += [
        "summary = pd.concat([" + cat.format(*["summary"] * len(names)) + "], ignore_index=True)",
        "curves = pd.concat(["
        + ", ".join(f"curves_{i}.summary" for i in names)
        + "], ignore_index=True)",
        "pmf = pd.concat([" + cat.format(*["pmf"] * len(names)) + "], ignore_index=True)",
        "cdf = pd.concat([" + cat.format(*["cdf"] * len(names)) + "], ignore_index=True)",
        f"models = {data}.models",
        "worst_run, first = next((r, m) for r in [" + ", ".join(f"conv_{i}" for i in names)
        + "] for m in r.s_star)",
        f"trajectory = worst_trajectory(worst_run, first, {data}.R, {data}.R0, True)",
        "converged_at = int(worst_run.s_star[first][worst_run.worst(first, True)])",
        "summary",
    ]
    return "\n".join(lines)


CONVERGENCE = Analysis(
    id="convergence",
    title="Convergence",
    params=ConvergenceParams,
    run=_run,
    tables=_tables,
    charts=_charts,
    how_to_read=(
        "How many trials until a ranking stops changing? Trials are resampled with a seeded "
        "bootstrap; each replicate is ranked after 1, 2, …, N trials and compared with a "
        "target. convergence@n is the trial count after which the ranking equals the target "
        "and never changes again (000 App. I.1). In the summary, 'mean' averages the replicates "
        "that converged, 'mean_censored' counts no convergence as N, and 'no_convergence' is the "
        "share still changing at trial N-1 or later."
    ),
    caveats=_caveats,
    to_code=_to_code,
    chart_code=(
        "charts.tau_curves(curves)",
        "charts.convergence_pmf(pmf)",
        "charts.convergence_cdf(cdf)",
        "charts.rank_trajectory_chart(trajectory, models, converged_at or None)",
    ),
    requires=binary_required("Convergence"),
    result_var="conv_0",
)
