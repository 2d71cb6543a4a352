"""Rubrics: per-completion signals -> categories -> weights (SPEC §7; Don't Pass@k (2026), §3.4,
App. F; Ranking Reasoning LLMs under Test-Time Scaling (2026), §3.5, App. F).

* :mod:`~scorio_core.rubric.model` -- :class:`Rubric`, conditions (:class:`Compare`,
  :class:`AllOf`, :class:`AnyOf`, :class:`Not`), :class:`Rule`, JSON save/load;
* :mod:`~scorio_core.rubric.evaluate` -- :func:`apply` (vectorized),
  :func:`category_distribution` and :func:`signal_names` (the data's signals and, for
  binary data, ``is_correct``: the outcome as a signal, :data:`DERIVED_SIGNALS`);
* :mod:`~scorio_core.rubric.presets` -- :data:`PRESETS` (Don't Pass@k (2026), Table 5, Ranking
  Reasoning LLMs under Test-Time Scaling (2026), Table 21, and a length rubric over
  ``response_chars``), :func:`list_presets`, :func:`get_preset`;
* :mod:`~scorio_core.rubric.ranking` -- :func:`categorical_ranking` (τ_GS, τ_Self,
  τ_Greedy at N = 1) and :func:`scheme_ranks` (bump chart input).

Example
-------
>>> from scorio_core import io
>>> from scorio_core.leaderboard import leaderboard
>>> from scorio_core.rubric import apply, get_preset
>>> data = io.load("data/reasoning_synthetic.npz")  # doctest: +SKIP
>>> scored = apply(get_preset("ranking/conservative"), data)  # doctest: +SKIP
>>> leaderboard(scored).table.head(3)  # doctest: +SKIP
"""

from .evaluate import (
    DERIVED_SIGNALS,
    R0_NOTE,
    apply,
    categorize,
    category_distribution,
    signal_names,
)
from .model import (
    MAX_CONDITIONS,
    MAX_RULES,
    OPS,
    SCOPES,
    AllOf,
    AnyOf,
    Compare,
    Condition,
    Not,
    Rubric,
    Rule,
    from_json,
    load,
    save,
    to_json,
)
from .presets import get_preset, list_presets

# .ranking (categorical rankings: Kendall's tau, the rank ties) imports the sweeps' agreement
# code; it loads on first use, so rubric files and presets stay light (a session file, the
# app's first page). PRESETS and READINGS are read from the presets' JSON files on first use.
_RANKING = ("GOLD_LABEL", "categorical_ranking", "resolve_schemes", "scheme_ranks")


def __getattr__(name: str):
    if name in _RANKING:
        from . import ranking

        return getattr(ranking, name)
    if name in ("PRESETS", "READINGS"):
        from . import presets

        return getattr(presets, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "MAX_RULES",
    "MAX_CONDITIONS",
    "OPS",
    "SCOPES",
    "Condition",
    "Compare",
    "AllOf",
    "AnyOf",
    "Not",
    "Rule",
    "Rubric",
    "to_json",
    "from_json",
    "save",
    "load",
    "apply",
    "categorize",
    "category_distribution",
    "R0_NOTE",
    "DERIVED_SIGNALS",
    "signal_names",
    "PRESETS",
    "READINGS",
    "list_presets",
    "get_preset",
    "categorical_ranking",
    "scheme_ranks",
    "resolve_schemes",
    "GOLD_LABEL",
]
