"""scorio_core: Bayes@N evaluation, CI-aware ranking and analyses for LLM outcome tensors.

The core never imports Streamlit; every number the app shows comes from a
function here, so a notebook can reproduce it with the same call.

``import scorio_core as sc`` gives the user-facing calls by name; each loads its module on
first use (PEP 562), so the import itself stays light:

* data: ``sc.load`` (any table or harness log) gives :class:`Outcomes`;
* the leaderboard and the planner: ``sc.leaderboard``, ``sc.plan`` (``sc.fit_spread_prior``:
  how spread such fields are, learned from earlier runs, for ``spread_prior=``); whether a smaller
  run's numbers would hold, measured on this run's shares: ``sc.check_smaller_run``;
* the other analyses the app shows, each a thin call of its one definition
  (:data:`sc.ANALYSES <scorio_core.definitions.ANALYSES>`): ``sc.compare``,
  ``sc.convergence``, ``sc.stability``, ``sc.greedy``, ``sc.pair`` (two models question by
  question) and ``sc.questions`` (every model on every question); the Pass@k curves:
  ``sc.pass_curves``;
* teaching studies with known truth: ``sc.truth_convergence``, ``sc.prior_depth``,
  ``sc.correct_order``, ``sc.interval_coverage``, ``sc.rubric_lesson`` (``sc.simulate``
  holds the mimics they draw from; ``sc.SIMULATIONS`` the Simulator's definitions);
* reports: ``sc.report(data, "report.html")``; the metrics (``sc.bayes``, ``sc.pass_at_k``
  ...), the 77 ranking methods (``sc.rank.METHODS``: the ranking paper's 72 and more),
  rubrics (``sc.rubric``) and charts (``sc.charts``).

Every result displays itself in Jupyter, VS Code and marimo (its table, main chart,
settings and caveats; :mod:`scorio_core.display`) and prints a short summary in a terminal;
``sc.show(frame)`` displays any of its tables (``p.pairs``, ``board.unresolved()``) as the
reports print them, wherever it is called (mid-cell too; printed in a script).

>>> import scorio_core as sc
>>> board = sc.leaderboard(sc.load("data/biased_coins.npz"))
>>> board.table["model"].iloc[0]
'LLM_11'
>>> "bayes" in sc.rank.METHODS
True
"""

from importlib import import_module as _import_module
from typing import Any as _Any

from ._validation import ValidationError
from .outcomes import COMBINED, Outcomes

__version__ = "0.1.0"

#: Public name -> (module, attribute); attribute ``None`` is the module itself.
_LAZY: dict[str, tuple[str, str | None]] = {
    # data
    "load": ("scorio_core.io", "load"),
    "io": ("scorio_core.io", None),
    # metrics (000 §2)
    **{n: ("scorio_core.eval", n) for n in (
        "bayes", "bayes_ci", "avg", "avg_ci", "pass_at_k", "pass_at_k_ci", "pass_hat_k",
        "pass_hat_k_ci", "g_pass_at_k_tau", "g_pass_at_k_tau_ci", "mg_pass_at_k",
        "mg_pass_at_k_ci")},
    # the leaderboard and the planner
    "leaderboard": ("scorio_core.leaderboard", "leaderboard"),
    "Leaderboard": ("scorio_core.leaderboard", "Leaderboard"),
    "plan": ("scorio_core.planner", "plan"),
    "planner": ("scorio_core.planner", None),  # the pair curves and allocation behind sc.plan
    "by_subset": ("scorio_core.leaderboard", "by_subset"),
    # how spread fields like this one are, learned from earlier runs (p_best, the Planner)
    "fit_spread_prior": ("scorio_core.spread_prior", "fit_spread_prior"),
    "load_spread_prior": ("scorio_core.spread_prior", "load_spread_prior"),
    "SpreadPrior": ("scorio_core.spread_prior", "SpreadPrior"),
    # the question view and the Pass@k curves
    "question_stats": ("scorio_core.engines.questions", "question_stats"),
    "pass_curves": ("scorio_core.curves", "pass_curves"),
    # would a smaller run's numbers hold? (this run's shares as the truth)
    "check_smaller_run": ("scorio_core.smaller_run", "check_smaller_run"),
    # rankings and the analyses over them
    "rank": ("scorio_core.rank", None),
    "compare": ("scorio_core.api", "compare"),
    "convergence": ("scorio_core.api", "convergence"),
    "stability": ("scorio_core.api", "stability"),
    "greedy": ("scorio_core.api", "greedy"),
    "pair": ("scorio_core.api", "pair"),
    "questions": ("scorio_core.api", "questions"),
    "run_methods": ("scorio_core.engines", "run_methods"),
    "convergence_at_n": ("scorio_core.engines", "convergence_at_n"),
    "convergence_curves": ("scorio_core.engines", "convergence_curves"),
    "low_budget_stability": ("scorio_core.engines", "low_budget_stability"),
    "greedy_vs_sampling": ("scorio_core.engines", "greedy_vs_sampling"),
    "greedy_by_benchmark": ("scorio_core.engines", "greedy_by_benchmark"),
    # teaching simulations with known truth (and the mimics they draw from)
    "simulate": ("scorio_core.simulate", None),
    **{n: ("scorio_core.simulate", n) for n in (
        "truth_convergence", "prior_depth", "correct_order", "interval_coverage",
        "rubric_lesson")},
    # one definition per analysis; rubrics; charts; reports and exports
    "ANALYSES": ("scorio_core.definitions", "ANALYSES"),
    "SIMULATIONS": ("scorio_core.definitions", "SIMULATIONS"),
    "rubric": ("scorio_core.rubric", None),
    "charts": ("scorio_core.charts", None),
    "report": ("scorio_core.report", None),  # callable: sc.report(data, "report.html")
    "make_report": ("scorio_core.report", "make_report"),
    "build_report": ("scorio_core.report", "build_report"),
    "export": ("scorio_core.export", None),
    "formatting": ("scorio_core.formatting", None),
    "display": ("scorio_core.display", None),
    # any table as the reports print it (a result's frame: p.pairs, board.unresolved())
    "show": ("scorio_core.display", "show"),
}

__all__ = ["COMBINED", "Outcomes", "ValidationError", *_LAZY]


def __getattr__(name: str) -> _Any:
    """Load a public name's module on first use (PEP 562)."""
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'scorio_core' has no attribute {name!r}") from None
    value = _import_module(module)
    if attr is not None:
        value = getattr(value, attr)
    if name != "leaderboard":  # importing the module scorio_core.leaderboard rebinds the name
        globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names only (``__all__``), not the helpers of this module nor the
    submodules that loading a name binds here (``outcomes``, ``_validation``)."""
    return sorted({*__all__, "__version__"})
