"""The app's page state as plain values: each analysis's ``Params`` <-> its widget values.

A page keeps its settings in widget values (``st.session_state[key]``); a session file
and a link keep them as the analysis's ``Params``. :func:`to_state` turns settings into
the widget values a page shows for given data (dropping what the data cannot show, with
a note), :func:`from_state` reads them back, and :func:`page_default` is what a page
shows before anything is chosen. No Streamlit here: a page passes ``st.session_state``
(any mapping), so the conversions are tested without a browser.

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 8)))
>>> p = page_default("greedy", data)
>>> state, notes = to_state("greedy", p.__class__(replicates=20, seed=4), data)
>>> state
{'greedy_reps': 20, 'greedy_seed': 4}
>>> from_state("greedy", state, data)
GreedyParams(replicates=20, seed=4)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from scorio_core._validation import ValidationError
from scorio_core.analyses import ANALYSES, SECTIONS, SIMULATIONS
from scorio_core.outcomes import Outcomes

if TYPE_CHECKING:
    from scorio_core.analyses.plan import PlanParams

# The definitions (and what they import) load only when a page asks for them: the
# Leaderboard's first run must not import the sweeps, rankers and studies.


def _P(analysis_id: str) -> type:
    """The ``Params`` class of one analysis."""
    return ANALYSES[analysis_id].params


def _sim():
    from app_state import sim_state as _sim_state

    return _sim_state


def usable_methods(data):
    from scorio_core.analyses.convergence import usable_methods

    return usable_methods(data)


def available_targets(data):
    from scorio_core.analyses.convergence import available_targets

    return available_targets(data)

__all__ = [
    "PAGES",
    "CONFIDENCES",
    "CURRENT_RUBRIC",
    "ks_options",
    "page_default",
    "to_state",
    "from_state",
    "state_keys",
]

#: The page (its URL path) that renders each analysis.
PAGES = {
    "leaderboard": "leaderboard",
    "compare": "methods",
    "convergence": "convergence",
    "stability": "stability",
    "greedy": "greedy",
    "rubric": "rubric",
    "plan": "planner",
}
#: The Leaderboard's and Planner's confidence choices.
CONFIDENCES = (0.80, 0.90, 0.95, 0.99)
#: The Planner's choices of the target chance of a decision.
ASSURANCES = (0.5, 0.8, 0.9, 0.95)
#: The Rubric builder's label for the rubric being edited in "Compare rubrics".
CURRENT_RUBRIC = "current (edited)"
_EDITED = " (edited)"

# Widget keys per analysis; keys starting with "_" are page state without a widget.
_KEYS = {
    "leaderboard": ("confidence", "use_prior", "ks", "scope", "adjust", "_lb_weights",
                    "_lb_draws", "_lb_seed"),
    "compare": ("families", "methods", "_methods_families"),
    "convergence": ("conv_methods", "conv_target", "conv_scheme", "conv_seed", "conv_match",
                    "conv_b_curves", "conv_b_conv", "conv_b_slow"),
    "stability": ("stab_families",),
    "greedy": ("greedy_reps", "greedy_seed"),
    "rubric": ("rubric_compare", "_rubric_custom"),
    "plan": ("plan_confidence", "plan_scope", "plan_adjust", "plan_assurance", "plan_budget",
             "plan_upper",
             "plan_lower", "plan_nmax", "_plan_prior", "_plan_draws", "_plan_seed",
             "_plan_sims"),
}


def state_keys(analysis_id: str) -> tuple[str, ...]:
    """The page-state keys of one analysis or simulation study (widget keys and
    ``_``-prefixed helpers)."""
    _check_id(analysis_id)
    if analysis_id in SIMULATIONS:
        return _sim().state_keys(analysis_id)
    return _KEYS[analysis_id]


def _check_id(analysis_id: str) -> None:
    if analysis_id not in _KEYS and analysis_id not in SIMULATIONS:
        raise ValidationError(
            f"unknown analysis {analysis_id!r}; expected one of "
            f"{', '.join([*ANALYSES, *SIMULATIONS])}"
        )


def _definition(analysis_id: str):
    return SECTIONS[analysis_id]


def ks_options(n: int) -> list[int]:
    """The Leaderboard's Pass@k choices for ``n`` trials: powers of two up to ``n``, and ``n``.

    Example
    -------
    >>> ks_options(12)
    [1, 2, 4, 8, 12]
    """
    return sorted({2**i for i in range(int(math.log2(max(n, 1))) + 1)} | {n})


def _families(ids: list[str]) -> tuple[list[str], list[str]]:
    """The families of ``ids`` (registry order) and every method of those families."""
    from scorio_core.rank import FAMILIES, METHODS

    fams = [f for f in FAMILIES if any(METHODS[m].family == f for m in ids)]
    return fams, [m for m, v in METHODS.items() if v.family in fams]


def page_default(analysis_id: str, data: Outcomes | None):
    """The settings a page shows on ``data`` before anything is chosen (a simulation
    study, which uses no data: the Simulator page's defaults)."""
    _check_id(analysis_id)
    if analysis_id in SIMULATIONS:
        return _sim().page_default(analysis_id)
    if analysis_id == "plan":
        return _P("plan")(budget_trials=min(data.L * data.N, 10_000))  # as many trials again
    if analysis_id == "leaderboard":
        ks = tuple(k for k in (1, 8) if k <= data.N) if data.is_binary else ()
        return _P("leaderboard")(ks=ks)
    if analysis_id == "convergence":
        usable = usable_methods(data)
        ids = [m for m in _P("convergence").methods.split(",") if m in usable] or usable[:1]
        return _P("convergence")(methods=",".join(ids) or _P("convergence").methods)
    return ANALYSES[analysis_id].params()


def to_state(analysis_id: str, params: Any,
             data: Outcomes | None) -> tuple[dict[str, Any], list[str]]:
    """The widget values that show ``params`` on ``data``, and notes on what was dropped
    because these data cannot show it (e.g. Pass@k with k > N, the Planner's pair of
    models these data do not have)."""
    _check_id(analysis_id)
    if not isinstance(params, _definition(analysis_id).params):
        want = _definition(analysis_id).params.__name__
        raise ValidationError(f"{analysis_id} settings must be {want}; got {type(params).__name__}")
    if analysis_id in SIMULATIONS:
        return _sim().to_state(analysis_id, params)
    notes: list[str] = []
    p = params
    if analysis_id == "plan":
        return _plan_state(p, data, notes), notes
    if analysis_id == "leaderboard":
        conf = p.confidence
        if conf not in CONFIDENCES:
            conf = min(CONFIDENCES, key=lambda c: abs(c - p.confidence))
            notes.append(f"confidence {p.confidence} is not one of the choices; showing {conf}")
        ks = [k for k in p.ks if k in ks_options(data.N)]
        if len(ks) < len(p.ks):
            dropped = sorted(set(p.ks) - set(ks))
            notes.append(f"Pass@k columns {dropped} are not offered for N = {data.N} trials")
        use_prior = p.prior == "greedy" and data.R0 is not None
        if p.prior == "greedy" and data.R0 is None:
            notes.append("the greedy prior needs R0, which these data do not have")
        return {"confidence": conf, "use_prior": use_prior, "ks": ks if data.is_binary else [],
                "scope": p.scope, "adjust": p.adjust, "_lb_weights": p.weights,
                "_lb_draws": p.draws, "_lb_seed": p.seed}, notes
    if analysis_id == "compare":
        ids = _resolve(p.methods)
        fams, _ = _families(ids)
        return {"families": fams, "methods": ids, "_methods_families": fams}, notes
    if analysis_id == "stability":
        ids = _resolve(p.methods)
        fams, pool = _families(ids)
        if set(pool) != set(ids):
            notes.append("the Stability page picks whole method families: showing "
                         f"{', '.join(fams)} ({len(pool)} methods, not {len(ids)})")
        return {"stab_families": fams}, notes
    if analysis_id == "convergence":
        usable = usable_methods(data)
        ids = [m for m in _resolve(p.methods) if m in usable]
        if len(ids) < len(_resolve(p.methods)):
            notes.append(f"convergence methods not usable on these data were left out: "
                         f"{', '.join(m for m in _resolve(p.methods) if m not in usable)}")
        target = p.target
        if target not in available_targets(data):
            notes.append(f"target {target!r} needs known true means; showing 'gold'")
            target = "gold"
        return {"conv_methods": ids, "conv_target": target, "conv_scheme": p.scheme,
                "conv_seed": p.seed, "conv_match": p.match,
                "conv_b_curves": p.curve_replicates or _P("convergence").curve_replicates,
                "conv_b_conv": p.replicates,
                "conv_b_slow": p.slow_replicates or _P("convergence").slow_replicates}, notes
    if analysis_id == "greedy":
        return {"greedy_reps": p.replicates, "greedy_seed": p.seed}, notes
    # rubric: preset names as they are, an edited rubric as the editor's "current"
    custom = [s for s in p.schemes if not isinstance(s, str)]
    if len(custom) > 1:
        notes.append(f"the Rubric builder edits one rubric at a time; kept {custom[0].name!r}")
    chosen = [s if isinstance(s, str) else CURRENT_RUBRIC for s in p.schemes]
    chosen = list(dict.fromkeys(chosen))
    rubric = custom[0] if custom else None
    if rubric is not None and rubric.name.endswith(_EDITED):
        rubric = dataclasses.replace(rubric, name=rubric.name[: -len(_EDITED)])
    return {"rubric_compare": chosen, "_rubric_custom": rubric}, notes


def _resolve(methods: str) -> list[str]:
    from scorio_core.analyses._base import resolve_methods

    return resolve_methods(methods)


def _spec(ids: list[str]) -> str:
    """The shortest ``methods`` text for ``ids``: ``all``, one family's name, or the ids."""
    from scorio_core.rank import METHODS

    if ids == list(METHODS):
        return "all"
    fams, pool = _families(ids)
    return fams[0] if len(fams) == 1 and pool == ids else ",".join(ids)


def _plan_state(p: PlanParams, data: Outcomes, notes: list[str]) -> dict[str, Any]:
    pair, n_max = p.pair, p.n_max
    if pair is not None and not set(pair) <= {str(m) for m in data.models}:
        notes.append(f"the order-curve pair {pair[0]} vs {pair[1]} is not in these data; "
                     "showing the default pair and N")
        pair = n_max = None
    conf = p.confidence if p.confidence in CONFIDENCES else min(
        CONFIDENCES, key=lambda c: abs(c - p.confidence))
    if conf != p.confidence:
        notes.append(f"confidence {p.confidence} is not one of the choices; showing {conf}")
    budget = min(p.budget_trials or data.L * data.N, 10_000)
    if budget != (p.budget_trials or data.L * data.N):
        notes.append(f"budget {p.budget_trials} is above the widget's 10,000; showing 10,000")
    assurance = min(ASSURANCES, key=lambda a: abs(a - p.assurance))
    if assurance != p.assurance:
        notes.append(f"assurance {p.assurance} is not one of the choices; showing {assurance}")
    return {"plan_confidence": conf, "plan_scope": p.scope, "plan_adjust": p.adjust,
            "plan_assurance": assurance,
            "plan_budget": budget, "plan_upper": pair and pair[0],
            "plan_lower": pair and pair[1], "plan_nmax": n_max, "_plan_prior": p.prior,
            "_plan_draws": p.draws, "_plan_seed": p.seed, "_plan_sims": p.sims}


def from_state(analysis_id: str, state: Mapping[str, Any], data: Outcomes | None,
               **overrides: Any):
    """The settings the widget values in ``state`` describe (missing values: the page
    default). ``overrides`` supply values a widget returns but does not keep in ``state``
    (the Leaderboard's weight editor: ``weights=``; the Rubric builder: ``current=`` rubric)."""
    _check_id(analysis_id)
    if analysis_id in SIMULATIONS:
        return _sim().from_state(analysis_id, state)
    d = page_default(analysis_id, data)
    default, _ = to_state(analysis_id, d, data)

    def get(key: str) -> Any:
        v = state.get(key)
        return default[key] if v is None else v

    if analysis_id == "leaderboard":
        prior = "greedy" if get("use_prior") and data.R0 is not None else "uniform"
        weights = overrides.get("weights", get("_lb_weights"))
        return _P("leaderboard")(
            confidence=float(get("confidence")), prior=prior,
            ks=tuple(int(k) for k in get("ks")) if data.is_binary else (),
            weights=None if data.is_binary else weights, scope=get("scope") or "questions",
            adjust=get("adjust"), draws=int(get("_lb_draws")), seed=int(get("_lb_seed")))
    if analysis_id == "compare":
        return _P("compare")(methods=_spec(list(get("methods"))))
    if analysis_id == "stability":
        from scorio_core.rank import METHODS

        fams = list(get("stab_families"))
        return _P("stability")(methods=_spec([m for m, v in METHODS.items() if v.family in fams]))
    if analysis_id == "convergence":
        return _P("convergence")(
            methods=",".join(get("conv_methods")), replicates=int(get("conv_b_conv")),
            curve_replicates=int(get("conv_b_curves")), slow_replicates=int(get("conv_b_slow")),
            seed=int(get("conv_seed")), scheme=get("conv_scheme"), target=get("conv_target"),
            match=get("conv_match"))
    if analysis_id == "greedy":
        return _P("greedy")(replicates=int(get("greedy_reps")), seed=int(get("greedy_seed")))
    if analysis_id == "plan":
        names = {str(m) for m in data.models}
        up, lo, n_max = state.get("plan_upper"), state.get("plan_lower"), state.get("plan_nmax")
        pair = (up, lo) if up in names and lo in names and up != lo else None
        return _P("plan")(
            confidence=float(get("plan_confidence")), scope=get("plan_scope"),
            adjust=get("plan_adjust"), assurance=float(get("plan_assurance")),
            prior=get("_plan_prior"),
            budget_trials=int(get("plan_budget")), draws=int(get("_plan_draws")),
            seed=int(get("_plan_seed")), pair=pair, n_max=int(n_max) if n_max else None,
            sims=int(get("_plan_sims")))
    current = overrides.get("current")
    edited = current and dataclasses.replace(current, name=current.name + _EDITED)
    chosen = state.get("rubric_compare")
    if chosen is None:
        from scorio_core.analyses.rubric import DEFAULT_SCHEMES

        chosen = DEFAULT_SCHEMES
    chosen = list(chosen)
    return _P("rubric")(schemes=tuple(edited if k == CURRENT_RUBRIC else k for k in chosen
                                      if k != CURRENT_RUBRIC or edited))
