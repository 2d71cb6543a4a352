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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app_state.texts import setting_label
from scorio_core._validation import ValidationError
from scorio_core.definitions import ANALYSES, SECTIONS, SIMULATIONS
from scorio_core.formatting import percent  # noqa: F401 -- the pages' import
from scorio_core.outcomes import Outcomes
from scorio_core.params import settings_of, widget

# The definitions (and what they import) load only when a page asks for them: the
# Leaderboard's first run must not import the sweeps, rankers and studies.


def _P(analysis_id: str) -> type:
    """The ``Params`` class of one analysis."""
    return ANALYSES[analysis_id].params


def _sim():
    from app_state import sim_state as _sim_state

    return _sim_state


def usable_methods(data):
    from scorio_core.definitions.convergence import usable_methods

    return usable_methods(data)


def available_targets(data):
    from scorio_core.definitions.convergence import available_targets

    return available_targets(data)

__all__ = [
    "PAGES",
    "CONFIDENCES",
    "ASSURANCES",
    "percent",
    "CURRENT_RUBRIC",
    "ks_options",
    "trial_options",
    "page_default",
    "to_state",
    "clamp",
    "complete_pair",
    "from_state",
    "state_keys",
    "keys",
    "FIELDS",
    "Field",
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
    "pair": "pair",
    "questions": "questions",
    "curves": "leaderboard",
    "check": "check",
}
#: The Leaderboard's and Planner's confidence choices.
CONFIDENCES = (0.80, 0.90, 0.95, 0.99)
#: The Planner's choices of the target chance of a decision.
ASSURANCES = (0.5, 0.8, 0.9, 0.95)



#: The Rubric builder's label for the rubric being edited in "Compare rubrics".
CURRENT_RUBRIC = "current (edited)"
_EDITED = " (edited)"

@dataclass(frozen=True)
class Field:
    """How one setting (or a few settings shown together) appears on its page.

    Attributes
    ----------
    keys : tuple of str
        The session keys of its widgets (``_``-prefixed: kept without a widget).
    show : callable, optional
        ``(setting values, data, notes) -> widget values`` (default: as they are); appends
        a note for what these data cannot show, calling a setting ``notes.name(key)`` (its
        widget's label: :class:`_Notes`).
    read : callable, optional
        ``(widget values, data, overrides) -> setting values`` (default: as they are).
    raw : bool
        ``read`` receives the state's values as they are (``None`` when missing) instead
        of falling back to the page default's.
    """

    keys: tuple[str, ...]
    show: Callable[..., tuple] | None = None
    read: Callable[..., tuple] | None = None
    raw: bool = False


class _Notes(list):
    """The notes :func:`to_state` collects on the settings of ``params`` (a settings class):
    ``name(key)`` is how a note calls one of them, by its widget's declared label in bold
    (:func:`app_state.texts.setting_label`), as the errors and clamp notes do."""

    def __init__(self, params: type):
        super().__init__()
        self.params = params

    def name(self, key: str, part: int | None = None) -> str:
        return setting_label(self.params, key, part)


def _one(fn: Callable) -> Callable[..., tuple]:
    """A one-value conversion as the tuple form :class:`Field` uses."""
    return lambda values, *rest: (fn(values[0], *rest),)


def _number(kind: type) -> Callable[..., tuple]:
    return lambda values, data, overrides: (kind(values[0]),)


def _snap(choices: tuple, name: str) -> Callable[..., tuple]:
    """Show the nearest of ``choices`` (a row of percentage buttons offers only those) for
    setting ``name``; the note writes both values as the buttons do (:func:`percent`)."""

    def show(value, data, notes):
        near = value if value in choices else min(choices, key=lambda c: abs(c - value))
        if near != value:
            notes.append(f"{notes.name(name)} {percent(value)} is not one of the choices; "
                         f"showing {percent(near)}")
        return near

    return _one(show)


def _show_ks(ks, data, notes):
    shown = [k for k in ks if k in ks_options(data.N)]
    if len(shown) < len(ks):
        notes.append(f"{notes.name('ks')} {sorted(set(ks) - set(shown))} are not offered for "
                     f"N = {data.N} trials")
    return shown if data.is_binary else []


def _show_prior(prior, data, notes):
    if prior == "greedy" and data.R0 is None:
        notes.append(f"{notes.name('prior')} greedy needs R0, which these data do not have; "
                     "showing uniform")
    return prior == "greedy" and data.R0 is not None


def _show_conv_methods(methods, data, notes):
    usable, ids = usable_methods(data), _resolve(methods)
    if any(m not in usable for m in ids):
        notes.append(f"{notes.name('methods')} not usable on these data were left out: "
                     f"{', '.join(m for m in ids if m not in usable)}")
    return [m for m in ids if m in usable]


def _show_target(target, data, notes):
    if target in available_targets(data):
        return target
    notes.append(f"{notes.name('target')} {target!r} needs known true means; showing 'gold'")
    return "gold"


def _show_lead(lead, data, notes):
    span = float(max(data.weights) - min(data.weights))
    if lead > span:
        notes.append(f"{notes.name('lead')} {lead:g} is above these data's score range, "
                     f"{span:g}; showing {span:g}")
    return min(float(lead), span)


def _show_pair(values, data, notes):
    pair, n_max = values
    if pair is not None and not set(pair) <= {str(m) for m in data.models}:
        picked = " and ".join(f"{notes.name('pair', k)} {m!r}" for k, m in enumerate(pair))
        notes.append(f"{picked} are not both in these data; showing the default pair and "
                     f"{notes.name('n_max')}")
        pair = n_max = None
    return (pair and pair[0], pair and pair[1], n_max)


def _read_pair(values, data, overrides):
    up, lo, n_max = values
    names = {str(m) for m in data.models}
    pair = (up, lo) if up in names and lo in names and up != lo else None
    return pair, int(n_max) if n_max else None


def complete_pair(state, changed: str, default: tuple[str, str]) -> None:
    """Keep the Planner's two model pickers both chosen or both empty after ``changed``
    (``"plan_upper"`` or ``"plan_lower"``) changed.

    Empty pickers (``None``) mean the default pair (``PlanParams.pair = None``): the page
    shows it as their placeholder, never as their value, so a default is not read back as a
    choice. A picker cleared empties the other one; a picker set while the other is empty
    fills it from ``default``, the ``(better, other)`` pair the page's curves used (its
    other model, or its first when that is the model just picked).

    Example
    -------
    >>> state = {"plan_upper": "c", "plan_lower": None}
    >>> complete_pair(state, "plan_upper", ("a", "b")); state
    {'plan_upper': 'c', 'plan_lower': 'b'}
    >>> state["plan_upper"] = None
    >>> complete_pair(state, "plan_upper", ("a", "b")); state
    {'plan_upper': None, 'plan_lower': None}
    >>> state["plan_lower"] = "a"
    >>> complete_pair(state, "plan_lower", ("a", "b")); state
    {'plan_upper': 'b', 'plan_lower': 'a'}
    """
    up, lo, _ = FIELDS["plan"][("pair", "n_max")].keys
    if changed not in (up, lo):
        raise ValidationError(f"changed must be {up!r} or {lo!r}; got {changed!r}")
    other = lo if changed == up else up
    if state.get(changed) is None:
        state[other] = None
    elif state.get(other) is None:
        mine, theirs = default if changed == up else default[::-1]
        state[other] = theirs if theirs != state[changed] else mine


def _show_models(values, data, notes):
    """The pair's two models: named ones these data have, the best others for the rest."""
    from scorio_core.definitions.pair import default_pair

    names = {str(m) for m in data.models}
    missing = [f"{notes.name(k)} {m!r}" for k, m in zip("ab", values, strict=True)
               if m is not None and m not in names]
    if missing:
        notes.append(f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not in "
                     "these data; showing the best models instead")
    a, b = (m if m in names else None for m in values)
    return default_pair(data, a, b if b != a else None)


def _read_models(values, data, overrides):
    from scorio_core.definitions.pair import default_pair

    names = {str(m) for m in data.models}
    a, b = (m if m in names else None for m in values)
    return default_pair(data, a, b if b != a else None)


def _show_question(q, data, notes):
    """The chosen question, or ``""`` (a select box shows ``None`` as no choice) for "the
    one that drives the gap most"."""
    if q is not None and q not in data.questions:
        notes.append(f"{notes.name('question')} {q!r} is not in these data; showing the one "
                     "that drives the gap")
        return ""
    return q or ""


def _show_compare(values, data, notes):
    ids = _resolve(values[0])
    fams, _ = _families(ids)
    return fams, ids, fams


def _show_stability(values, data, notes):
    ids = _resolve(values[0])
    fams, pool = _families(ids)
    if set(pool) != set(ids):
        notes.append(f"{notes.name('methods')}: the page picks whole families; showing "
                     f"{', '.join(fams)} ({len(pool)} methods, not {len(ids)})")
    return (fams,)


def _read_stability(values, data, overrides):
    from scorio_core.rank import METHODS

    fams = list(values[0])
    return (_spec([m for m, v in METHODS.items() if v.family in fams]),)


def _show_rubric(values, data, notes):
    """Preset names as they are, an edited rubric as the editor's "current"."""
    custom = [s for s in values[0] if not isinstance(s, str)]
    if len(custom) > 1:
        notes.append(f"the Rubric builder edits one rubric at a time; kept {custom[0].name!r}")
    chosen = list(dict.fromkeys(s if isinstance(s, str) else CURRENT_RUBRIC for s in values[0]))
    if data is not None:  # presets reading signals these data lack would only fail
        from scorio_core.definitions.rubric import default_schemes, usable_presets

        usable = set(usable_presets(data))
        lack = [k for k in chosen if k != CURRENT_RUBRIC and k not in usable]
        if lack and usable:  # (no usable preset: the page says the data have no signals)
            notes.append(f"left out {', '.join(lack)}: these data lack the signals they read")
            chosen = [k for k in chosen if k not in lack] or [
                k for k in default_schemes(data) if k in usable]
    rubric = custom[0] if custom else None
    if rubric is not None and rubric.name.endswith(_EDITED):
        rubric = dataclasses.replace(rubric, name=rubric.name[: -len(_EDITED)])
    return chosen, rubric


def _read_rubric(values, data, overrides):
    current = overrides.get("current")
    edited = current and dataclasses.replace(current, name=current.name + _EDITED)
    chosen = values[0]
    if chosen is None:
        from scorio_core.definitions.rubric import default_schemes

        chosen = default_schemes(data)
    return (tuple(edited if k == CURRENT_RUBRIC else k for k in chosen
                  if k != CURRENT_RUBRIC or edited),)


#: The subset widget's "every question" choice.
ALL_QUESTIONS = ""
#: The Leaderboard's G-Pass τ choices (``None``: no G-Pass curve).
TAUS = (None, 0.25, 0.5, 0.75, 1.0)


def subset_options(data) -> list[str]:
    """The subset widget's choices: every question, then ``attribute=value`` for each value of
    each question attribute.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> o = Outcomes(np.ones((1, 3, 2), int), question_attributes={"src": ["a", "b", "a"]})
    >>> subset_options(o)
    ['', 'src=a', 'src=b']
    """
    return [ALL_QUESTIONS, *(f"{k}={v}" for k in data.question_attributes
                             for v in data.attribute_values(k))]


def _show_subset(subset, data, notes):
    if subset is None:
        return ALL_QUESTIONS
    text = f"{subset[0]}={subset[1][0]}"
    if len(subset[1]) > 1 or text not in subset_options(data):
        notes.append(f"{notes.name('subset')} {subset[0]}={','.join(subset[1])} is not one of "
                     "these data's single-value subsets; showing every question")
        return ALL_QUESTIONS
    return text


def _read_subset(value, data, overrides):
    if not value:
        return None
    attr, _, v = str(value).partition("=")
    return (attr, (v,))


def _show_by(by, data, notes):
    from scorio_core.definitions._base import NO_SUBSETS

    attrs = list(data.question_attributes)
    if by is None:
        return NO_SUBSETS
    if by != NO_SUBSETS and by not in attrs:
        notes.append(f"{notes.name('by')} {by!r} is not a question attribute of these data; "
                     "no per-subset table")
        return NO_SUBSETS
    return by


def _read_by(value, data, overrides):
    from scorio_core.definitions._base import NO_SUBSETS

    return None if value in (None, NO_SUBSETS) else value


def _show_kinds(kinds, data, notes):
    return [k for k in kinds if k != "g"]


def _show_tau(tau, data, notes):
    if tau not in TAUS:
        near = min(TAUS[1:], key=lambda t: abs(t - tau))
        notes.append(f"{notes.name('tau')} {tau} is not one of the choices; showing {near}")
        return near
    return tau


def trial_options(data) -> list[int]:
    """The Check page's choices of trials per question of the smaller runs: powers of two up
    to ``N /`` :data:`~scorio_core.smaller_run.STAND_IN_RATIO`, and that.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core import Outcomes
    >>> trial_options(Outcomes(np.zeros((2, 3, 100), int)))
    [1, 2, 4, 8, 16, 25]
    """
    from scorio_core.estimands import STAND_IN_RATIO

    return ks_options(max(1, data.N // STAND_IN_RATIO))


def _default_trials(data) -> int:
    from scorio_core.smaller_run import default_trials

    return default_trials(data)


def _show_trials(trials, data, notes):
    options = trial_options(data)
    if trials is None:
        return _default_trials(data)
    if trials not in options:
        near = min(options, key=lambda k: abs(k - trials))
        notes.append(f"{notes.name('trials')} {trials} is not offered for a run of {data.N} "
                     f"trials (at most {options[-1]}); showing {near}")
        return near
    return trials


def _show_models_n(models, data, notes):
    if models is not None and models > data.L:
        notes.append(f"{notes.name('models')} {models} is more than these data's {data.L} "
                     "models; showing all of them")
    return data.L if models is None else min(models, data.L)


def _or_none(default: Callable) -> Callable[..., tuple]:
    """Read a whole number back as ``None`` (the setting's "as this run") when it equals
    ``default(data)``, so a session keeps meaning "as many as the run has"."""
    return _one(lambda v, data, o: None if v is None or int(v) == default(data) else int(v))


_INT, _FLOAT = _number(int), _number(float)

#: Each analysis' page state, declared once: setting name(s) -> :class:`Field`. The page's
#: widget keys come from here (:func:`keys`), as do :func:`to_state`, :func:`from_state` and
#: :func:`state_keys`.
FIELDS: dict[str, dict[tuple[str, ...], Field]] = {
    "leaderboard": {
        ("confidence",): Field(("confidence",), _snap(CONFIDENCES, "confidence"), _FLOAT),
        ("prior",): Field(("use_prior",), _one(_show_prior), _one(
            lambda v, data, o: "greedy" if v and data.R0 is not None else "uniform")),
        ("ks",): Field(("ks",), _one(_show_ks), _one(
            lambda v, data, o: tuple(int(k) for k in v) if data.is_binary else ())),
        ("scope",): Field(("scope",)),
        ("adjust",): Field(("adjust",)),
        ("weights",): Field(("_lb_weights",), read=_one(
            lambda v, data, o: None if data.is_binary else o.get("weights", v))),
        ("draws",): Field(("_lb_draws",), read=_INT),
        ("seed",): Field(("_lb_seed",), read=_INT),
        ("subset",): Field(("lb_subset",), _one(_show_subset), _one(_read_subset)),
        ("by",): Field(("lb_by",), _one(_show_by), _one(_read_by)),
        ("spread_prior",): Field(("_lb_spread_prior",), raw=True),
    },
    "compare": {
        ("methods",): Field(("families", "methods", "_methods_families"), _show_compare,
                            lambda v, data, o: (_spec(list(v[1])),)),
    },
    "convergence": {
        ("methods",): Field(("conv_methods",), _one(_show_conv_methods),
                            _one(lambda v, data, o: ",".join(v))),
        ("target",): Field(("conv_target",), _one(_show_target)),
        ("scheme",): Field(("conv_scheme",)),
        ("seed",): Field(("conv_seed",), read=_INT),
        ("match",): Field(("conv_match",)),
        ("curve_replicates",): Field(("conv_b_curves",), _one(
            lambda v, data, n: v or _P("convergence").curve_replicates), _INT),
        ("replicates",): Field(("conv_b_conv",), read=_INT),
        ("slow_replicates",): Field(("conv_b_slow",), _one(
            lambda v, data, n: v or _P("convergence").slow_replicates), _INT),
    },
    "stability": {("methods",): Field(("stab_families",), _show_stability, _read_stability)},
    "greedy": {
        ("replicates",): Field(("greedy_reps",), read=_INT),
        ("seed",): Field(("greedy_seed",), read=_INT),
    },
    "rubric": {
        ("schemes",): Field(("rubric_compare", "_rubric_custom"), _show_rubric, _read_rubric,
                            raw=True),
    },
    "plan": {
        ("confidence",): Field(("plan_confidence",), _snap(CONFIDENCES, "confidence"), _FLOAT),
        ("scope",): Field(("plan_scope",)),
        ("adjust",): Field(("plan_adjust",)),
        ("assurance",): Field(("plan_assurance",), _snap(ASSURANCES, "assurance"), _FLOAT),
        ("budget_trials",): Field(("plan_budget",), _one(
            lambda v, data, n: v or data.L * data.N), _INT),  # 0: as many trials again
        ("lead",): Field(("plan_lead",), _one(_show_lead), _FLOAT),
        ("pair", "n_max"): Field(("plan_upper", "plan_lower", "plan_nmax"), _show_pair,
                                 _read_pair, raw=True),
        ("prior",): Field(("_plan_prior",)),
        ("draws",): Field(("_plan_draws",), read=_INT),
        ("seed",): Field(("_plan_seed",), read=_INT),
        ("sims",): Field(("_plan_sims",), read=_INT),
        ("spread_prior",): Field(("_plan_spread_prior",), raw=True),
    },
    "pair": {
        ("a", "b"): Field(("pair_a", "pair_b"), _show_models, _read_models, raw=True),
        ("confidence",): Field(("pair_confidence",), _snap(CONFIDENCES, "confidence"), _FLOAT),
        ("question",): Field(("pair_question",), _one(_show_question), _one(
            lambda v, data, o: v if v in data.questions else None), raw=True),
        ("top",): Field(("_pair_top",), read=_INT),
    },
    "questions": {
        ("top",): Field(("qv_top",), read=_INT),
        ("heatmap_columns",): Field(("_qv_columns",), read=_INT),
        ("irt",): Field(("qv_irt",), read=_one(lambda v, data, o: bool(v))),
        ("subset",): Field(("qv_subset",), _one(_show_subset), _one(_read_subset)),
        ("by",): Field(("qv_by",), _one(_show_by), _one(_read_by)),
    },
    "check": {
        ("trials",): Field(("chk_trials",), _one(_show_trials), _or_none(_default_trials)),
        ("questions",): Field(("chk_questions",), _one(lambda v, data, n: v or data.M),
                              _or_none(lambda data: data.M)),
        ("models",): Field(("chk_models",), _one(_show_models_n), _or_none(lambda data: data.L)),
        ("reps",): Field(("chk_reps",), read=_INT),
        ("confidence",): Field(("chk_confidence",), _snap(CONFIDENCES, "confidence"), _FLOAT),
        ("adjust",): Field(("chk_adjust",)),
        ("plan_reps",): Field(("chk_plan_reps",), read=_INT),
        ("assurance",): Field(("chk_assurance",), _snap(ASSURANCES, "assurance"), _FLOAT),
        ("max_questions",): Field(("chk_max_questions",), read=_INT),
        ("spread_history",): Field(("chk_spread_history",), read=_INT),
        ("draws",): Field(("_chk_draws",), read=_INT),
        ("seed",): Field(("_chk_seed",), read=_INT),
    },
    # the Leaderboard page draws the curves in its own scope, confidence and subset
    "curves": {
        ("kinds",): Field(("cv_kinds",), _one(_show_kinds), _one(
            lambda v, data, o: tuple(v) or ("pass",))),
        ("tau",): Field(("cv_tau",), _one(_show_tau), raw=True),
        ("confidence",): Field(("_cv_confidence",), read=_FLOAT),
        ("scope",): Field(("_cv_scope",)),
        ("subset",): Field(("_cv_subset",), raw=True),
    },
}


def keys(analysis_id: str) -> dict[str, str]:
    """Setting name -> its widget's session key, for a page's ``key=`` arguments (settings
    shown by several widgets are not listed; their keys are in :data:`FIELDS`; a
    simulation study's: :data:`app_state.sim_state.WIDGETS`).

    Example
    -------
    >>> keys("greedy")
    {'replicates': 'greedy_reps', 'seed': 'greedy_seed'}
    """
    if analysis_id in SIMULATIONS:  # a Simulator study's (the weights' three: not listed)
        return {n: k for n, k in _sim().WIDGETS[analysis_id].items() if n != "weights"}
    return {names[0]: f.keys[0] for names, f in FIELDS[analysis_id].items()
            if len(names) == len(f.keys) == 1}


def state_keys(analysis_id: str) -> tuple[str, ...]:
    """The page-state keys of one analysis or simulation study (widget keys and
    ``_``-prefixed helpers)."""
    _check_id(analysis_id)
    if analysis_id in SIMULATIONS:
        return _sim().state_keys(analysis_id)
    return tuple(k for f in FIELDS[analysis_id].values() for k in f.keys)


def _check_id(analysis_id: str) -> None:
    if analysis_id not in FIELDS and analysis_id not in SIMULATIONS:
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
        top = widget(_P("plan"), "budget_trials")["max_value"]  # as many trials again
        return _P("plan")(budget_trials=min(data.L * data.N, top))
    first = next(iter(data.question_attributes), None) if data is not None else None
    if analysis_id == "leaderboard":  # the page shows the per-subset table of the first
        ks = tuple(k for k in (1, 8) if k <= data.N) if data.is_binary else ()  # attribute
        return _P("leaderboard")(ks=ks, by=first)
    if analysis_id == "questions":
        return _P("questions")(by=first)
    if analysis_id == "pair" and data.L > 1:  # the two models with the highest mean score
        from scorio_core.definitions.pair import default_pair

        a, b = default_pair(data)
        return _P("pair")(a=a, b=b)
    # convergence's methods, a rubric comparison's presets: what these data can run
    return ANALYSES[analysis_id].default_params(data)


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
    notes = _Notes(_P(analysis_id))
    state: dict[str, Any] = {}
    for names, f in FIELDS[analysis_id].items():
        values = tuple(getattr(params, n) for n in names)
        shown = f.show(values, data, notes) if f.show else values
        if len(names) == len(f.keys) == 1 and not f.keys[0].startswith("_"):  # one widget
            shown = (_in_range(analysis_id, names[0], shown[0], notes),)
        state.update(zip(f.keys, shown, strict=True))
    return state, list(notes)


def _in_range(analysis_id: str, name: str, value, notes: list[str]):
    """``value`` within the bounds its page's number widget offers (the declaration's; a
    widget given a value outside them would silently show its minimum instead)."""
    if name not in settings_of(_P(analysis_id)):
        return value
    w = widget(_P(analysis_id), name)
    if (w["options"] is not None or isinstance(value, bool)
            or not isinstance(value, (int, float))):
        return value
    return clamp(_P(analysis_id), name, value, notes)


def _number(x) -> str:
    """A value or bound as the notes write it: ``20,000``, ``0.5``."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,g}"


def clamp(params: type, name: str, value, notes: list[str], part: int | None = None):
    """``value`` of setting ``name`` of ``params`` (a settings class) within the range its
    page widget offers (``scorio_core.params.widget``: ``page_min`` / ``page_max`` where
    declared), in ``value``'s type; when it moved, a note says so (a widget given a value
    outside its range would silently show its minimum instead). The note calls the setting
    by its widget's declared label, in bold, as an error does (``app_state.texts.
    setting_label``); ``part``: the number of one of a setting's several widgets (the three
    category weights: "weight of category 2").

    Example
    -------
    >>> from scorio_core.simulate.params import OrderParams
    >>> notes = []
    >>> clamp(OrderParams, "sims", 50_000, notes), notes
    (20000, ["**Datasets per N** 50,000 is outside the page's range 200 to 20,000; showing 20,000"])
    """
    w = widget(params, name)
    lo = -math.inf if w["min_value"] is None else w["min_value"]
    hi = math.inf if w["max_value"] is None else w["max_value"]
    shown = type(value)(min(max(value, lo), hi))
    if shown != value:
        span = (f"{_number(lo)} to {_number(hi)}" if math.isfinite(lo) and math.isfinite(hi)
                else f"(at least {_number(lo)})" if math.isfinite(lo) else
                f"(at most {_number(hi)})")
        notes.append(f"{setting_label(params, name, part)} {_number(value)} is outside the "
                     f"page's range {span}; showing {_number(shown)}")
    return shown


def _resolve(methods: str) -> list[str]:
    from scorio_core.definitions._base import resolve_methods

    return resolve_methods(methods)


def _spec(ids: list[str]) -> str:
    """The shortest ``methods`` text for ``ids``: ``all``, one family's name, or the ids."""
    from scorio_core.rank import METHODS

    if ids == list(METHODS):
        return "all"
    fams, pool = _families(ids)
    return fams[0] if len(fams) == 1 and pool == ids else ",".join(ids)


def from_state(analysis_id: str, state: Mapping[str, Any], data: Outcomes | None,
               **overrides: Any):
    """The settings the widget values in ``state`` describe (missing values: the page
    default). ``overrides`` supply values a widget returns but does not keep in ``state``
    (the Leaderboard's weight editor: ``weights=``; the Rubric builder: ``current=`` rubric)."""
    _check_id(analysis_id)
    if analysis_id in SIMULATIONS:
        return _sim().from_state(analysis_id, state)
    default, _ = to_state(analysis_id, page_default(analysis_id, data), data)
    settings: dict[str, Any] = {}
    for names, f in FIELDS[analysis_id].items():
        values = tuple(
            state.get(k) if f.raw or state.get(k) is not None else default[k] for k in f.keys
        )
        read = f.read(values, data, overrides) if f.read else values
        settings.update(zip(names, read, strict=True))
    return _P(analysis_id)(**settings)
