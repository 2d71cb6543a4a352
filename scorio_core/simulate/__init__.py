"""LLM mimics with known truth, and the papers' teaching simulations (Don't Pass@k (2026), §2.7,
App. C-D).

One shared simulator and one module per study, each vectorized over replicates (no
Python loop over datasets):

* :mod:`.simulator` -- :func:`mimics` (:class:`Mimics`): per-question category
  probabilities with known truth, their outcomes (:func:`sample_outcomes`,
  :func:`sample_counts`, :func:`greedy_outcomes`), and the pieces, streams and map every
  study's replicates run through (:data:`BLOCK`).
* :mod:`.coins` -- :func:`truth_convergence`: mean Kendall τ_b vs ``N`` between each
  metric's ranking and the true ranking over fresh datasets (Don't Pass@k (2026), §2.7, Fig. 2a).
* :mod:`.depth` -- :func:`prior_depth`: original and updated models, τ(original, updated)
  and τ vs ``N`` for prior depths ``D`` (Don't Pass@k (2026), App. C, Fig. 5).
* :mod:`.order` -- :func:`correct_order`: probability that Bayes@N orders two close
  models correctly and their z-score vs ``N`` (Don't Pass@k (2026), App. D, Fig. 6).
* :mod:`.coverage` -- :func:`interval_coverage`: how often 95% intervals cover the truth.
* :mod:`.lesson` -- :func:`rubric_lesson`: Bayes@N's closed form term by term for a
  categorical example (Don't Pass@k (2026), §2.3-2.4, Algorithm 1).

Every public name is read from here (``simulate.mimics``, ``simulate.CorrectOrder``); a
name's module is imported when the name is first used, so drawing one study's chart does
not import the others (nor the ranking methods the coins study needs).

Example
-------
>>> from scorio_core import simulate
>>> sim = simulate.mimics([0.3, 0.6], M=20, seed=0)
>>> [round(float(t), 12) for t in sim.truth]
[0.3, 0.6]
>>> sim.outcomes(N=8, seed=1).shape
(2, 20, 8)
"""

from __future__ import annotations

import importlib
from typing import Any

#: public name -> the module of this package that defines it (or, for ``Curves``, imports it)
_LAZY: dict[str, str] = {
    **dict.fromkeys(
        ("PAPER_COINS", "BLOCK", "Progress", "Mimics", "mimics", "question_probs",
         "shift_to_means", "sample_outcomes", "sample_counts", "greedy_outcomes"),
        "simulator",
    ),
    **dict.fromkeys(("truth_convergence", "Curves"), "coins"),

    **dict.fromkeys(("PAPER_ORIGINAL_MEANS", "PAPER_UPDATE", "PriorDepth", "prior_depth"),
                    "depth"),
    **dict.fromkeys(("PAPER_ORDER", "PAPER_READING", "CorrectOrder", "correct_order"),
                    "order"),
    **dict.fromkeys(("COVERAGE_SCOPES", "Coverage", "interval_coverage"), "coverage"),
    **dict.fromkeys(("RubricLesson", "rubric_lesson", "LESSON_DECIMALS"), "lesson"),
    **dict.fromkeys(("FIG2A_METHODS", "LESSON_R", "pass_metric", "metric_name", "CoinsParams",
                     "PriorDepthParams",
                     "OrderParams", "CalibrationParams", "RubricLessonParams", "STUDY_PARAMS"),
                    "params"),
}

#: ``Progress`` (a type) and ``Curves`` (:mod:`scorio_core.engines.convergence`'s) read
#: from here too, without being this package's own names
__all__ = [name for name in _LAZY if name not in ("Progress", "Curves")]


def __getattr__(name: str) -> Any:  # PEP 562: a name's module is imported on first use
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
