"""Run a list of analyses on one dataset into a :class:`Report` that the renderers read."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from .._validation import ValidationError
from ..definitions import ANALYSES, SECTIONS, SIMULATIONS, Analysis, Chart, params_dict
from ..definitions.provenance import provenance
from ..outcomes import Outcomes

__all__ = ["Report", "SectionResult", "build_report", "parse_sections", "settings_text"]

SectionSpec = str | tuple[str, Any]

# A report takes any id of SECTIONS: the analyses of the data, then the simulation studies
# (never in the default sections: they do not look at the data).


@dataclass(frozen=True)
class SectionResult:
    """One analysis in a report: its result, or why it could not run.

    ``error`` is ``None`` when the analysis ran; otherwise ``result`` is
    ``None`` and ``tables``/``charts`` are empty.
    """

    analysis: Analysis
    params: Any
    result: Any
    error: str | None
    tables: dict[str, pd.DataFrame]
    charts: list[Chart]
    caveats: list[str]
    seconds: float


@dataclass(frozen=True)
class Report:
    """A titled list of analysis sections on one dataset, with its provenance."""

    title: str
    data: Outcomes
    sections: tuple[SectionResult, ...]
    provenance: dict[str, Any]


def _word(v: Any) -> str:
    if v is None:
        return "default"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, list | tuple):
        return ", ".join(_word(x) for x in v) if v else "none"
    return str(v)


def settings_text(s: SectionResult) -> str:
    """A section's settings in words, for the report's settings line: ``name = value``,
    lists comma-separated, an unset setting as ``default`` -- or, where the analysis
    resolves it (:attr:`~scorio_core.definitions.Analysis.resolved`), the value this run used.

    Example
    -------
    >>> from scorio_core.report._build import settings_text
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> R = (np.random.default_rng(0).random((3, 20, 4)) < [[[.8]], [[.7]], [[.4]]]).astype(int)
    >>> rep = sc.build_report(Outcomes(R), [("plan", {"n_max": 8, "sims": 200})])
    >>> text = settings_text(rep.sections[0])
    >>> "budget_trials = 12 (0 = L × N)" in text, "null" in text, "None" in text
    (True, False, False)
    """
    values = {k: _word(v) for k, v in params_dict(s.params).items()}
    if s.analysis.resolved is not None and s.result is not None:
        values.update(s.analysis.resolved(s.params, s.result))
    return ", ".join(f"{k} = {v}" for k, v in values.items())


def parse_sections(text: str) -> list[str]:
    """Analysis ids from a comma-separated list such as ``"leaderboard,compare"``."""
    ids = [t.strip() for t in str(text).split(",") if t.strip()]
    unknown = [i for i in ids if i not in SECTIONS]
    if unknown or not ids:
        raise ValidationError(
            f"sections must be comma-separated analysis ids from {', '.join(ANALYSES)} or "
            f"simulation studies from {', '.join(SIMULATIONS)}; got {text!r}"
        )
    return ids


#: Said in a section whose default scope the report changed (:func:`_params`).
SCOPE_SWITCHED = ("With N = 1 trial per question the questions scope is not identified, so "
                  "this section is shown in the population scope (the mean over the "
                  "population of questions these were drawn from), which is.")


def _params(analysis: Analysis, spec: Any, data: Outcomes | None = None):
    if spec is None:
        params = analysis.params()
        # a report cannot be switched by its reader: where its default scope is not
        # identified (one trial per question), the scope that is identified is shown
        if (data is not None and data.N == 1 and data.M >= 2
                and getattr(params, "scope", None) == "questions"):
            return analysis.params(scope="population")
        return params
    if isinstance(spec, analysis.params):
        return spec
    if isinstance(spec, Mapping):
        return analysis.params(**spec)
    raise ValidationError(
        f"settings of {analysis.id!r} must be a {analysis.params.__name__} or a dict; "
        f"got {type(spec).__name__}"
    )


def _section(
    data: Outcomes, analysis: Analysis, params: Any,
    progress: Callable[[float, str], None] | None = None,
) -> SectionResult:
    t0 = time.perf_counter()
    try:
        analysis.check(data)
        result = analysis.run(data, params, progress=progress)
    except ValidationError as exc:
        return SectionResult(analysis, params, None, str(exc), {}, [], [], 0.0)
    return SectionResult(
        analysis,
        params,
        result,
        None,
        analysis.tables(result),
        analysis.charts(result),
        ([SCOPE_SWITCHED] if getattr(params, "scope", None) == "population" and data.N == 1
         and _default_scope(analysis) == "questions" else [])
        + analysis.caveats(data, params, result),
        time.perf_counter() - t0,
    )


def _default_scope(analysis: Analysis) -> str | None:
    return getattr(analysis.params(), "scope", None)


def build_report(
    data: Outcomes,
    sections: Iterable[SectionSpec] | None = None,
    *,
    title: str | None = None,
    progress: Callable[[float, str], None] | None = None,
) -> Report:
    """Run the chosen analyses on ``data``.

    Parameters
    ----------
    data : Outcomes
        The data to analyse (already restricted to one benchmark if wanted).
    sections : iterable, optional
        Analysis ids, or ``(id, params)`` pairs where ``params`` is the
        analysis's ``Params`` or a dict of its fields. Default: every analysis
        in :data:`~scorio_core.definitions.ANALYSES` with its default settings. Simulation
        studies (:data:`~scorio_core.definitions.SIMULATIONS`) run only when named.
        An analysis that does not fit the data (e.g. greedy without ``R0``)
        becomes a section that says why.
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
    specs = list(ANALYSES) if sections is None else list(sections)
    pairs = []
    for s in specs:
        aid, p = (s, None) if isinstance(s, str) else s
        if aid not in SECTIONS:
            raise ValidationError(
                f"unknown analysis {aid!r}; expected one of {', '.join(SECTIONS)}"
            )
        pairs.append((SECTIONS[aid], _params(SECTIONS[aid], p, data)))
    out = []
    n = max(len(pairs), 1)
    for i, (a, p) in enumerate(pairs):
        sub = None
        if progress is not None:
            progress(i / n, a.title)

            def sub(f: float, msg: str, i: int = i, title: str = a.title) -> None:
                progress((i + min(max(f, 0.0), 1.0)) / n, f"{title}: {msg}")

        out.append(_section(data, a, p, sub))
    if progress is not None:
        progress(1.0, "done")
    prov = provenance(data, "report")
    prov["settings"] = {s.analysis.id: params_dict(s.params) for s in out}
    prov["seeds"] = {
        f"{aid}.{k}": v
        for aid, st in prov["settings"].items()
        for k, v in st.items()
        if "seed" in k
    }
    return Report(title or f"Scorio Studio report: {data.name}", data, tuple(out), prov)
