"""The Simulator page's state: each study's ``Params`` <-> its widget values.

Used through :mod:`app_state.page_state` (``to_state("coins", ...)`` etc.):
:data:`WIDGETS` names each study's widget key per setting; its range is the setting's
declaration's (``page_min`` / ``page_max``, ``scorio_core.params.widget``), so a restored or
linked value outside it is clamped (with a note) rather than making the widget fail;
settings without a widget are kept in ``_``-prefixed helper keys.

Example
-------
>>> from scorio_core.definitions.simulate import SIMULATIONS
>>> p = SIMULATIONS["order"].params(upper=0.7, lower=0.6, sims=50_000)
>>> state, notes = to_state("order", p)
>>> state["sim_up"], state["sim_order_n"], notes
(0.7, 20000, ["**Datasets per N** 50,000 is outside the page's range 200 to 20,000; showing \
20,000"])
>>> from_state("order", state)
OrderParams(upper=0.7, lower=0.6, concentration=8.0, sims=20000, seed=0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from app_state.page_state import clamp
from app_state.texts import setting_label
from scorio_core import simulate as sim
from scorio_core.definitions.simulate import SIMULATIONS
from scorio_core.estimands import CALIBRATED_M
from scorio_core.params import widget

__all__ = ["WIDGETS", "PRIORS", "CAL_M", "bounds", "page_default", "to_state", "from_state",
           "state_keys"]

#: The rubric lesson's prior-outcome choices (label -> ``R0``).
PRIORS = {"none": None, "R0 = [[2], [1]]": ((2,), (1,)), "R0 = [[0, 2], [1, 2]]": ((0, 2), (1, 2))}
#: The calibration lesson's choices of M: those the calibration band is stated and measured at
#: (``scorio_core.estimands.CALIBRATED_M``, README's contract), so the lesson reads its
#: headline against the band the tool promises.
CAL_M = CALIBRATED_M

#: study -> setting -> widget key (the weights: three keys, ``sim_w0``..``sim_w2``).
WIDGETS: dict[str, dict[str, str]] = {
    "coins": {"concentration": "sim_kappa", "N": "sim_coins_n", "replicates": "sim_coins_reps",
              "seed": "sim_coins_seed", "methods": "sim_coins_methods",
              "fresh_questions": "sim_coins_fresh"},
    "prior-depth": {"replicates": "sim_depth_reps", "seed": "sim_depth_seed"},
    "order": {"upper": "sim_up", "lower": "sim_lo", "concentration": "sim_order_kappa",
              "sims": "sim_order_n"},
    "calibration": {"means": "sim_cal_mean", "concentration": "sim_cal_kappa",
                    "M_values": "sim_cal_m", "replicates": "sim_cal_reps"},
    "rubric-lesson": {"weights": "sim_w", "R0": "sim_r0"},
}


def bounds(sid: str, name: str) -> tuple[Any, Any]:
    """The range a page's widget offers for one setting of study ``sid`` (``(None, None)``:
    not a number), from the setting's declaration."""
    w = widget(SIMULATIONS[sid].params, name)
    if w["min_value"] is None or w["max_value"] is None:
        return None, None
    number = int if w["integer"] else float
    return number(w["min_value"]), number(w["max_value"])


def _hidden(sid: str) -> list[str]:
    return [f.name for f in fields(SIMULATIONS[sid].params) if f.name not in WIDGETS[sid]]


def state_keys(sid: str) -> tuple[str, ...]:
    """Widget keys and ``_``-prefixed helper keys of one study."""
    keys = []
    for name, key in WIDGETS[sid].items():
        keys += [f"{key}{k}" for k in range(3)] if name == "weights" else [key]
    return (*keys, *(f"_sim_{sid}_{n}" for n in _hidden(sid)))


def page_default(sid: str):
    """The settings the Simulator page shows for study ``sid`` before anything is chosen: the
    study's declared defaults, which ``scorio-studio simulate STUDY`` and a notebook run too,
    so a seed gives one headline on every surface (the page had run smaller studies -- coins
    N = 40 on 300 datasets, order 2,000 datasets per N -- so the same seed headlined other
    numbers on the page than on the command line). At the defaults each study runs within a
    few seconds, as the calibration lesson always had."""
    return SIMULATIONS[sid].params()


def to_state(sid: str, p: Any) -> tuple[dict[str, Any], list[str]]:
    """The widget values that show ``p`` (a study's ``Params``), and notes on what the
    widgets cannot show (values clamped into a widget's range, choices it does not offer),
    each calling the setting by its widget's label (``app_state.texts.setting_label``)."""
    notes: list[str] = []
    state: dict[str, Any] = {}
    cls = SIMULATIONS[sid].params
    for name, key in WIDGETS[sid].items():
        v, (lo, _), called = getattr(p, name), bounds(sid, name), setting_label(cls, name)
        if name == "methods":
            kept = [m for m in v if m in sim.FIG2A_METHODS]
            if len(kept) < len(v):
                notes.append(f"{called} {sorted(set(v) - set(kept))} are not offered")
            state[key] = kept or list(sim.FIG2A_METHODS)
        elif name == "M_values":
            kept = [m for m in v if m in CAL_M]
            if len(kept) < len(v):
                notes.append(f"{called} {sorted(set(v) - set(kept))} are not offered")
            state[key] = kept or list(page_default(sid).M_values)
        elif name == "means":
            if len(v) > 1:
                notes.append(f"{called}: the page simulates one; showing {v[0]:g} of {list(v)}")
            state[key] = clamp(cls, name, float(v[0]), notes)
        elif name == "weights":
            w = list(v) if len(v) == 3 else list(page_default(sid).weights)
            if len(v) != 3:
                notes.append(f"the page shows three weights, {setting_label(cls, name, 0)} to "
                             f"{setting_label(cls, name, 2)}; got {len(v)}, showing its own")
            for k, x in enumerate(w):
                state[f"{key}{k}"] = clamp(cls, name, float(x), notes, part=k)
        elif name == "R0":
            label = next((k for k, r in PRIORS.items() if r == v), None)
            if label is None:
                notes.append(f"{called} {v!r} are not offered; showing none")
            state[key] = label or "none"
        elif lo is None:
            state[key] = v
        else:
            state[key] = clamp(cls, name, type(lo)(v), notes)
    for n in _hidden(sid):
        state[f"_sim_{sid}_{n}"] = getattr(p, n)
    return state, notes


def from_state(sid: str, state: Mapping[str, Any]):
    """The study's ``Params`` the widget values in ``state`` describe (missing: page default)."""
    default, _ = to_state(sid, page_default(sid))

    def get(key: str) -> Any:
        v = state.get(key)
        return default[key] if v is None else v

    values: dict[str, Any] = {}
    for name, key in WIDGETS[sid].items():
        lo, _ = bounds(sid, name)
        if name == "weights":
            values[name] = tuple(float(get(f"{key}{k}")) for k in range(3))
        elif name == "R0":
            values[name] = PRIORS.get(get(key))
        elif name == "means":
            values[name] = (float(get(key)),)
        elif name in ("methods", "M_values"):
            values[name] = tuple(get(key))
        else:
            values[name] = get(key) if lo is None else type(lo)(get(key))
    for n in _hidden(sid):
        values[n] = get(f"_sim_{sid}_{n}")
    return SIMULATIONS[sid].params(**values)
