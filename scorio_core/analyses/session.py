"""Save and restore analysis settings: one JSON file, or URL query parameters.

A session file records the data (file name, sha256, benchmark) and the
settings of any analyses, so that the app's sidebar or a script can restore
the same state; :func:`to_query` / :func:`from_query` carry one analysis's
non-default settings in flat ``key=value`` strings (``st.query_params``), so
a link reproduces a view of a bundled dataset. Every value goes back through
the analysis's ``Params`` validation on the way in.

Example
-------
>>> from scorio_core.analyses import ANALYSES
>>> conv = ANALYSES["convergence"]
>>> q = to_query("convergence", conv.params(seed=3, methods="bayes"))
>>> q
{'convergence.methods': '"bayes"', 'convergence.seed': '3'}
>>> from_query("convergence", q) == conv.params(seed=3, methods="bayes")
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from .._validation import ValidationError, parse_json
from ..outcomes import Outcomes
from . import ANALYSES
from ._base import params_dict
from .provenance import provenance

__all__ = ["Session", "to_json", "from_json", "to_query", "from_query", "FORMAT"]

#: ``format`` field of a session file (bumped if the layout changes).
FORMAT = "scorio-studio/session-1"
_MAX_BYTES = 2_000_000


@dataclass(frozen=True)
class Session:
    """Restored settings: ``data`` describes the input (file, sha256, benchmark, shape),
    ``settings`` maps analysis ids to their validated ``Params``."""

    data: dict[str, Any]
    settings: dict[str, Any]


def _value(v: Any) -> Any:
    """A JSON value as a ``Params`` field value: lists become tuples, rubric objects Rubrics."""
    if isinstance(v, list):
        return tuple(_value(x) for x in v)
    if isinstance(v, dict):
        from ..rubric import from_json as rubric_from_json

        return rubric_from_json(v)
    return v


def _params(analysis_id: str, values: Mapping[str, Any]):
    if analysis_id not in ANALYSES:
        raise ValidationError(
            f"unknown analysis {analysis_id!r}; expected one of {', '.join(ANALYSES)}"
        )
    cls = ANALYSES[analysis_id].params
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(values) - names)
    if unknown:
        raise ValidationError(
            f"{analysis_id} has no setting(s) {', '.join(map(repr, unknown))}; "
            f"its settings are {', '.join(sorted(names))}"
        )
    try:
        return cls(**{k: _value(v) for k, v in values.items()})
    except TypeError as exc:  # a value of the wrong kind reached a validator
        raise ValidationError(f"{analysis_id}: bad setting value ({exc})") from None


def _jsonable(params: Any) -> dict[str, Any]:
    from ..rubric import Rubric
    from ..rubric import to_json as rubric_to_json

    out = {}
    for f in fields(params):
        v = getattr(params, f.name)
        if isinstance(v, tuple):
            v = [rubric_to_json(x) if isinstance(x, Rubric) else x for x in v]
        out[f.name] = v
    return out


def to_json(settings: Mapping[str, Any], data: Outcomes | None = None) -> str:
    """A session file: the data's provenance (when given) and every analysis's settings."""
    for aid, p in settings.items():
        if aid not in ANALYSES or not isinstance(p, ANALYSES[aid].params):
            raise ValidationError(
                f"settings must map analysis ids to their Params; got {aid!r}: "
                f"{type(p).__name__}"
            )
    prov = provenance(data) if data is not None else {}
    payload = {
        "format": FORMAT,
        "data": {k: prov[k] for k in ("dataset", "input", "shape", "benchmark") if k in prov},
        "settings": {aid: _jsonable(p) for aid, p in settings.items()},
    }
    return json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def from_json(text: str | bytes) -> Session:
    """Read a session file written by :func:`to_json`; every setting is re-validated."""
    if len(text) > _MAX_BYTES:
        raise ValidationError(f"a session file is at most {_MAX_BYTES:,} bytes; got {len(text):,}")
    obj = parse_json(text, "session file")
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        found = obj.get("format") if isinstance(obj, dict) else type(obj).__name__
        raise ValidationError(f"expected a session file with format {FORMAT!r}; got {found!r}")
    settings = obj.get("settings", {})
    if not isinstance(settings, dict) or not all(isinstance(v, dict) for v in settings.values()):
        raise ValidationError("'settings' must map analysis ids to objects of settings")
    data = obj.get("data", {})
    if not isinstance(data, dict):
        raise ValidationError("'data' must be an object (dataset, input, shape, benchmark)")
    return Session(data, {aid: _params(aid, v) for aid, v in settings.items()})


def to_query(analysis_id: str, params: Any) -> dict[str, str]:
    """The settings that differ from the defaults as ``{"<id>.<field>": JSON text}``."""
    from ..rubric import Rubric

    default = params_dict(ANALYSES[analysis_id].params())
    out = {}
    for k, v in params_dict(params).items():
        raw = getattr(params, k)
        if isinstance(raw, tuple) and any(isinstance(x, Rubric) for x in raw):
            raise ValidationError(
                "an edited rubric does not fit in a link; save a session file instead"
            )
        if v != default[k]:
            out[f"{analysis_id}.{k}"] = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    return out


def from_query(analysis_id: str, query: Mapping[str, str]) -> Any:
    """``Params`` from query parameters written by :func:`to_query` (other keys are ignored)."""
    prefix = f"{analysis_id}."
    values = {
        k[len(prefix):]: parse_json(str(v), f"query parameter {k}", max_depth=3)
        for k, v in query.items()
        if k.startswith(prefix)
    }
    return _params(analysis_id, values)
