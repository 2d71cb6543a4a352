"""One definition per analysis, rendered by its page, its CLI subcommand, a report section
and a notebook cell (SPEC §9).

:data:`ANALYSES` maps an id to its :class:`Analysis`: a frozen ``params``
dataclass (defaults + validation), ``run(data, params)``, ``tables``,
``charts``, ``how_to_read``, ``caveats`` and ``to_code`` (public calls only).

Definitions are imported when first used: ``ANALYSES["leaderboard"]`` (or
``from scorio_core.definitions import LEADERBOARD``) loads the leaderboard alone, not the
ranking methods, sweeps and their scipy/numba/dask dependencies that other analyses
need -- the app's first page and the CLI start fast. Listing the ids
(``list(ANALYSES)``, ``"x" in ANALYSES``) imports nothing.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.definitions import ANALYSES
>>> data = Outcomes(np.random.default_rng(1).integers(0, 2, (3, 25, 4)), models=["a", "b", "c"])
>>> lb = ANALYSES["leaderboard"]
>>> result = lb.run(data, lb.params())
>>> ns = {"data": data}
>>> exec(lb.to_code(lb.params(), "data"), ns)  # its last line shows the table (printed here)
model  rank  rank_lo  rank_hi  p_best  score ...
>>> bool(np.allclose(ns["board"].table["score"], lb.tables(result)["leaderboard"]["score"]))
True
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded on first use (pandas): listing ids and defaults stays light
    from ._base import Analysis

#: Every analysis, in report order: ``id: (module, definition, class prefix)``. The module
#: ``scorio_core.definitions.<module>`` defines ``<definition>`` (an :class:`Analysis`) and the
#: classes ``<prefix>Params`` and ``<prefix>Result``. Add an analysis with one line here.
_DEFINITIONS: dict[str, tuple[str, str, str]] = {
    "leaderboard": ("leaderboard", "LEADERBOARD", "Leaderboard"),
    "compare": ("compare", "COMPARE", "Compare"),
    "convergence": ("convergence", "CONVERGENCE", "Convergence"),
    "stability": ("stability", "STABILITY", "Stability"),
    "greedy": ("greedy", "GREEDY", "Greedy"),
    "rubric": ("rubric", "RUBRIC", "Rubric"),
    "plan": ("plan", "PLAN", "Plan"),
    "pair": ("pair", "PAIR", "Pair"),
    "questions": ("questions", "QUESTIONS", "Questions"),
    "curves": ("curves", "CURVES", "Curves"),
    "check": ("check", "CHECK", "Check"),
}

#: The simulation studies (:mod:`scorio_core.definitions.simulate`), the same way: definitions
#: that make their own data, so they are report sections only when named.
_SIMULATION_DEFINITIONS: dict[str, tuple[str, str, str]] = {
    "coins": ("simulate", "COINS", "Coins"),
    "prior-depth": ("simulate", "PRIOR_DEPTH", "PriorDepth"),
    "order": ("simulate", "ORDER", "Order"),
    "calibration": ("simulate", "CALIBRATION", "Calibration"),
    "rubric-lesson": ("simulate", "RUBRIC_LESSON", "RubricLesson"),
}

#: The analyses a report leaves out unless they are named, with why: on the bundled data
#: they take most of a full report's time (``python benchmarks/report.py --sections``:
#: ``make_report`` to HTML takes 3-7 s with the default sections, 14-41 s with stability
#: added, 6-13 s with the check added, 16-36 s with every analysis), and both ask a what-if
#: of a smaller run rather than read the data as they are.
NAMED_ONLY: dict[str, str] = {
    "stability": "ranks N = 1 subsamples with every registered method",
    "check": "re-analyses many smaller runs drawn from these data",
}

#: The sections of a report that names none, in report order -- one list for ``sc.report``
#: / ``make_report`` / ``build_report``, ``scorio-studio report`` (its ``--help`` prints
#: it) and the app's Report page: every analysis but :data:`NAMED_ONLY`, so a first report
#: takes seconds. A report keeps those that fit the data (:func:`default_sections`).
DEFAULT_SECTIONS: tuple[str, ...] = tuple(k for k in _DEFINITIONS if k not in NAMED_ONLY)

#: Analyses whose ``run`` takes ``executor=`` (:class:`scorio_core.parallel.Executor`): their
#: sweeps can run on a Dask cluster with the same result.
CLUSTER_ANALYSES = ("convergence", "stability", "coins", "prior-depth", "order", "calibration")


def _load(module: str, name: str) -> Any:
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


class _Registry(Mapping[str, "Analysis"]):
    """A read-only ``{id: Analysis}`` that imports a definition the first time it is read.

    Example
    -------
    >>> import scorio_core as sc
    >>> list(sc.ANALYSES)[:3], sc.ANALYSES["greedy"].title
    (['leaderboard', 'compare', 'convergence'], 'Greedy vs sampling')
    """

    def __init__(self, name: str, definitions: Mapping[str, tuple[str, str, str]]) -> None:
        self._name = name
        self._definitions = dict(definitions)
        self._loaded: dict[str, Analysis] = {}

    def __getitem__(self, analysis_id: str) -> Analysis:
        if analysis_id not in self._loaded:
            module, name, _ = self._definitions[analysis_id]  # KeyError for an unknown id
            self._loaded[analysis_id] = _load(module, name)
        return self._loaded[analysis_id]

    def __contains__(self, analysis_id: object) -> bool:  # Mapping's would load it
        return analysis_id in self._definitions

    def __iter__(self) -> Iterator[str]:
        return iter(self._definitions)

    def __len__(self) -> int:
        return len(self._definitions)

    def __repr__(self) -> str:
        return f"{self._name}({', '.join(self._definitions)})"


#: Every analysis by id, in report order (a read-only mapping; definitions load on first use).
ANALYSES: Mapping[str, Analysis] = _Registry("ANALYSES", _DEFINITIONS)
#: Every simulation study by id (``scorio-studio simulate``; loaded on first use).
SIMULATIONS: Mapping[str, Analysis] = _Registry("SIMULATIONS", _SIMULATION_DEFINITIONS)
#: Every definition by id, the analyses then the studies: one namespace (report sections,
#: session settings, page state).
SECTIONS: Mapping[str, Analysis] = _Registry(
    "SECTIONS", {**_DEFINITIONS, **_SIMULATION_DEFINITIONS}
)

# public name -> module that defines it, for the names imported on first use
_LAZY: dict[str, str] = dict.fromkeys(("Analysis", "Chart", "TableView", "PRINTED_ROWS",
                                       "params_dict", "resolve_methods"), "_base")
for _module, _name, _prefix in _DEFINITIONS.values():
    _LAZY |= {_name: _module, f"{_prefix}Params": _module, f"{_prefix}Result": _module}
del _module, _name, _prefix


def default_sections(data: Any) -> tuple[list[str], dict[str, str]]:
    """The sections of a report of ``data`` that names none: the :data:`DEFAULT_SECTIONS`
    that fit these data, and ``{id: why not}`` for those that do not (a report says so in
    one line instead of a section that could not run).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.definitions import default_sections
    >>> ids, left_out = default_sections(sc.Outcomes(np.ones((3, 4, 2), int)))
    >>> "greedy" in ids, left_out["greedy"]
    (False, 'needs greedy outcomes (R0); this dataset has none')
    """
    ids, left_out = [], {}
    for aid in DEFAULT_SECTIONS:
        why = ANALYSES[aid].requires(data)
        if why:
            left_out[aid] = why
        else:
            ids.append(aid)
    return ids, left_out


def __getattr__(name: str) -> Any:  # PEP 562: definitions and their classes on first use
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = _load(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "ANALYSES",
    "SIMULATIONS",
    "SECTIONS",
    "CLUSTER_ANALYSES",
    "DEFAULT_SECTIONS",
    "NAMED_ONLY",
    "default_sections",
    *_LAZY,  # Analysis, Chart, TableView, PRINTED_ROWS, params_dict, resolve_methods, then
    # every definition
]
