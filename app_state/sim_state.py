"""The Simulator page's state: each study's ``Params`` <-> its widget values.

Used through :mod:`app_state.page_state` (``to_state("coins", ...)`` etc.):
:data:`WIDGETS` names each study's widget key and range per setting, so a restored or
linked value outside a widget's range is clamped (with a note) rather than making the
widget fail; settings without a widget are kept in ``_``-prefixed helper keys.

Example
-------
>>> from scorio_core.definitions.simulate import SIMULATIONS
>>> p = SIMULATIONS["order"].params(upper=0.7, lower=0.6, sims=50_000)
>>> state, notes = to_state("order", p)
>>> state["sim_up"], state["sim_order_n"], notes
(0.7, 20000, ['sims 50000 is outside the widget range 200 to 20000; showing 20000'])
>>> from_state("order", state)
OrderParams(upper=0.7, lower=0.6, concentration=3.0, sims=20000, seed=0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from scorio_core import simulate as sim
from scorio_core.definitions.simulate import SIMULATIONS

__all__ = ["WIDGETS", "PRIORS", "CAL_M", "SEED_MAX", "page_default", "to_state", "from_state",
           "state_keys"]

SEED_MAX = 2**31 - 1
#: The rubric lesson's prior-outcome choices (label -> ``R0``).
PRIORS = {"none": None, "R0 = [[2], [1]]": ((2,), (1,)), "R0 = [[0, 2], [1, 2]]": ((0, 2), (1, 2))}
#: The calibration lesson's choices of M.
CAL_M = (10, 30, 100, 300)

#: study -> setting -> (widget key, low, high); ``None`` bounds: not a number widget.
WIDGETS: dict[str, dict[str, tuple[str, Any, Any]]] = {
    "coins": {"concentration": ("sim_kappa", 0.5, 100.0), "N": ("sim_coins_n", 8, 200),
              "replicates": ("sim_coins_reps", 50, 3000),
              "seed": ("sim_coins_seed", 0, SEED_MAX),
              "methods": ("sim_coins_methods", None, None),
              "fresh_questions": ("sim_coins_fresh", None, None)},
    "prior-depth": {"replicates": ("sim_depth_reps", 200, 20000),
                    "seed": ("sim_depth_seed", 0, SEED_MAX)},
    "order": {"upper": ("sim_up", 0.01, 0.99), "lower": ("sim_lo", 0.01, 0.99),
              "concentration": ("sim_order_kappa", 0.5, 10000.0),
              "sims": ("sim_order_n", 200, 20000)},
    "calibration": {"means": ("sim_cal_mean", 0.05, 0.95),
                    "concentration": ("sim_cal_kappa", 0.5, 10000.0),
                    "M_values": ("sim_cal_m", None, None),
                    "replicates": ("sim_cal_reps", 200, 10000)},
    "rubric-lesson": {"weights": ("sim_w", 0.0, 1.0), "R0": ("sim_r0", None, None)},
}
#: What the page shows before anything is chosen (smaller runs than the CLI defaults).
_PAGE = {"coins": {"N": 40, "replicates": 300}, "prior-depth": {"replicates": 2000},
         "order": {"sims": 2000}}


def _hidden(sid: str) -> list[str]:
    return [f.name for f in fields(SIMULATIONS[sid].params) if f.name not in WIDGETS[sid]]


def state_keys(sid: str) -> tuple[str, ...]:
    """Widget keys and ``_``-prefixed helper keys of one study."""
    keys = []
    for name, (key, *_) in WIDGETS[sid].items():
        keys += [f"{key}{k}" for k in range(3)] if name == "weights" else [key]
    return (*keys, *(f"_sim_{sid}_{n}" for n in _hidden(sid)))


def page_default(sid: str):
    """The settings the Simulator page shows for study ``sid`` before anything is chosen."""
    return SIMULATIONS[sid].params(**_PAGE.get(sid, {}))


def _clamp(name: str, v: Any, lo: Any, hi: Any, notes: list[str]) -> Any:
    c = type(lo)(min(max(v, lo), hi))
    if c != v:
        notes.append(f"{name} {v!r} is outside the widget range {lo} to {hi}; showing {c!r}")
    return c


def to_state(sid: str, p: Any) -> tuple[dict[str, Any], list[str]]:
    """The widget values that show ``p`` (a study's ``Params``), and notes on what the
    widgets cannot show (values clamped into a widget's range, choices it does not offer)."""
    notes: list[str] = []
    state: dict[str, Any] = {}
    for name, (key, lo, hi) in WIDGETS[sid].items():
        v = getattr(p, name)
        if name == "methods":
            kept = [m for m in v if m in sim.FIG2A_METHODS]
            if len(kept) < len(v):
                notes.append(f"metrics {sorted(set(v) - set(kept))} are not offered")
            state[key] = kept or list(sim.FIG2A_METHODS)
        elif name == "M_values":
            kept = [m for m in v if m in CAL_M]
            if len(kept) < len(v):
                notes.append(f"M values {sorted(set(v) - set(kept))} are not offered")
            state[key] = kept or list(page_default(sid).M_values)
        elif name == "means":
            if len(v) > 1:
                notes.append(f"the page simulates one mean; showing {v[0]:g} of {list(v)}")
            state[key] = _clamp("mean", v[0], lo, hi, notes)
        elif name == "weights":
            w = list(v) if len(v) == 3 else list(page_default(sid).weights)
            if len(v) != 3:
                notes.append(f"the page shows three category weights; got {len(v)}")
            for k, x in enumerate(w):
                state[f"{key}{k}"] = _clamp(f"weight {k}", float(x), lo, hi, notes)
        elif name == "R0":
            label = next((k for k, r in PRIORS.items() if r == v), None)
            if label is None:
                notes.append(f"prior outcomes {v!r} are not offered; showing none")
            state[key] = label or "none"
        elif lo is None:
            state[key] = v
        else:
            state[key] = _clamp(name, v, lo, hi, notes)
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
    for name, (key, lo, _) in WIDGETS[sid].items():
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
