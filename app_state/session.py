"""Save and restore analysis settings: one JSON file, or URL query parameters.

A session file records the data (file name, sha256, benchmark), the
settings of any analyses and simulation studies (and which study the Simulator
shows), so that the app's sidebar or a script can restore the same state;
:func:`to_query` / :func:`from_query` carry one analysis's
non-default settings in flat ``key=value`` strings (``st.query_params``), so
a link reproduces a view of a bundled dataset. A file's structure, types and sizes
are checked by a schema (pydantic models, built on the first read or write; messages
name the JSON path of each problem), then every value goes back through the analysis's
``Params`` validation on the way in.

Example
-------
>>> from scorio_core.definitions import ANALYSES
>>> conv = ANALYSES["convergence"]
>>> q = to_query("convergence", conv.params(seed=3, methods="bayes"))
>>> q
{'convergence.methods': '"bayes"', 'convergence.seed': '3'}
>>> from_query("convergence", q) == conv.params(seed=3, methods="bayes")
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Annotated, Any, Literal

from scorio_core._validation import ValidationError, parse_json
from scorio_core.definitions import ANALYSES, SECTIONS, SIMULATIONS
from scorio_core.definitions._base import params_dict
from scorio_core.definitions.provenance import provenance
from scorio_core.formatting import count_text, noun_text
from scorio_core.outcomes import COMBINED, Outcomes

__all__ = [
    "Session",
    "to_json",
    "from_json",
    "to_query",
    "from_query",
    "view_query",
    "view_from_query",
    "check_data",
    "FORMAT",
    "study_from_query",
]

#: ``format`` field of a session file (bumped if the layout changes). Version 2 added
#: simulation studies to ``settings`` and the top-level ``simulator`` (the chosen study);
#: version 1 files still load.
FORMAT = "scorio-studio/session-2"
_FORMAT_1 = "scorio-studio/session-1"
_MAX_BYTES = 2_000_000
_DATA = ("dataset", "input", "shape", "benchmark")
_MAX_TITLE = 300


@dataclass(frozen=True)
class Session:
    """Restored settings: ``data`` describes the input (file, sha256, benchmark, shape),
    ``settings`` maps analysis ids to their validated ``Params``, ``rubric`` is the
    rubric being edited (or ``None``) and ``report`` the Report page's ``sections``
    and ``title`` (empty when not saved); ``study`` is the simulation study the Simulator
    page shows (``None`` when not saved). ``settings`` also holds simulation studies' ``Params``
    by study id."""

    data: dict[str, Any]
    settings: dict[str, Any]
    rubric: Any = None
    report: dict[str, Any] = field(default_factory=dict)
    study: str | None = None


def _definition(analysis_id: str):
    if analysis_id in SECTIONS:
        return SECTIONS[analysis_id]
    raise ValidationError(
        f"unknown analysis {analysis_id!r}; expected one of {', '.join(SECTIONS)}"
    )


def _value(v: Any) -> Any:
    """A JSON value as a ``Params`` field value: lists become tuples, rubric objects Rubrics."""
    if isinstance(v, list):
        return tuple(_value(x) for x in v)
    if isinstance(v, dict):
        from scorio_core.rubric import from_json as rubric_from_json

        return rubric_from_json(v)
    return v


def _params(analysis_id: str, values: Mapping[str, Any], base: Any = None):
    cls = _definition(analysis_id).params
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(values) - names)
    if unknown:
        raise ValidationError(
            f"{analysis_id} has no {noun_text(len(unknown), 'setting')} "
            f"{', '.join(map(repr, unknown))}; "
            f"its settings are {', '.join(sorted(names))}"
        )
    start = {f.name: getattr(base, f.name) for f in fields(cls)} if base is not None else {}
    try:
        return cls(**start | {k: _value(v) for k, v in values.items()})
    except TypeError as exc:  # a value of the wrong kind reached a validator
        raise ValidationError(f"{analysis_id}: bad setting value ({exc})") from None


def _jsonable(params: Any) -> dict[str, Any]:
    from scorio_core.rubric import Rubric
    from scorio_core.rubric import to_json as rubric_to_json

    out = {}
    for f in fields(params):
        v = getattr(params, f.name)
        if isinstance(v, tuple):
            v = [rubric_to_json(x) if isinstance(x, Rubric) else x for x in v]
        out[f.name] = v
    return out


def to_json(
    settings: Mapping[str, Any],
    data: Outcomes | None = None,
    *,
    benchmark: str | None = None,
    rubric: Any = None,
    report: Mapping[str, Any] | None = None,
    study: str | None = None,
) -> str:
    """A session file: the data's provenance (when given; ``benchmark`` names the view
    when ``data`` are the full dataset), every analysis's and simulation study's settings,
    the rubric being edited, the Report page's ``{"sections": [...], "title": str}`` and
    the simulation ``study`` the Simulator page shows.

    Example
    -------
    >>> from scorio_core.definitions import SIMULATIONS
    >>> p = SIMULATIONS["order"].params(upper=0.7, lower=0.6)
    >>> s = from_json(to_json({"order": p}, study="order"))
    >>> s.study, s.settings["order"] == p
    ('order', True)
    """
    for aid, p in settings.items():
        if aid not in SECTIONS or not isinstance(p, _definition(aid).params):
            raise ValidationError(
                f"settings must map analysis ids to their Params; got {aid!r}: "
                f"{type(p).__name__}"
            )
    prov = provenance(data) if data is not None else {}
    payload = {
        "format": FORMAT,
        # data whose questions name no benchmark have none (benchmark None): no view to restore
        "data": {k: prov[k] for k in _DATA if prov.get(k) is not None},
        "settings": {aid: _jsonable(p) for aid, p in settings.items()},
    }
    if benchmark is not None:
        payload["data"]["benchmark"] = benchmark
    if rubric is not None:
        from scorio_core.rubric import to_json as rubric_to_json

        payload["rubric"] = rubric_to_json(rubric)
    if report:
        payload["report"] = dict(report) | {"sections": list(report.get("sections", ()))}
    if study is not None:
        payload["simulator"] = {"study": study}
    checked = _check(payload)  # what is written reads back
    if checked.report is not None:
        payload["report"] = {"sections": checked.report.sections, "title": checked.report.title}
    return json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def from_json(text: str | bytes) -> Session:
    """Read a session file written by :func:`to_json`; every setting is re-validated."""
    if len(text) > _MAX_BYTES:
        raise ValidationError(f"a session file is at most {_MAX_BYTES:,} bytes; got {len(text):,}")
    obj = parse_json(text, "session file")
    s = _check(obj)
    report = {"sections": s.report.sections, "title": s.report.title} if s.report else {}
    study = s.simulator.study if getattr(s, "simulator", None) else None
    settings = {aid: _params(aid, v) for aid, v in s.settings.items()}
    return Session(obj.get("data", {}), settings, s.rubric, report, study)


def _study(study: Any) -> str | None:
    if study is not None and study not in SIMULATIONS:
        raise ValidationError(
            f"unknown simulation study {study!r}; expected one of {', '.join(SIMULATIONS)}")
    return study


def _check(obj: Any) -> Any:
    """``obj`` validated by the session file's schema: structure, types and sizes, with the
    JSON path of each problem (settings' values are checked by their ``Params`` after)."""
    from scorio_core.rubric.schema import check

    return check(_schema(), obj, "session file", "")


@functools.cache
def _schema():
    """The session file's pydantic models, built on first use (pydantic stays out of the
    app's start: a page imports this module, a session is read or written on a click)."""
    from pydantic import AfterValidator, Field, TypeAdapter, model_validator

    from scorio_core.rubric.schema import RubricJSON, Strict

    Name = Annotated[str, Field(max_length=_MAX_TITLE)]

    class Obj(Strict):
        _word = "field"

    def hex64(v: str | None) -> str | None:
        if v is not None and (len(v) != 64 or set(v) - set("0123456789abcdef")):
            raise ValueError(f"must be 64 lowercase hex digits; got {v!r}"[:120])
        return v

    class Input(Obj):
        file: str | list[str] | None = None  # a list: data read from several files
        sha256: Annotated[str | None, AfterValidator(hex64)] = None
        bytes: int | None = None
        format: str | None = None
        sha256_per_file: dict[str, Annotated[str | None, AfterValidator(hex64)]] | None = None
        not_hashed: str | None = None

    class Shape(Obj):
        models: int
        questions: int
        trials: int

    class Data(Obj):
        dataset: Name = ""
        input: Input = Input()
        shape: Shape | None = None
        benchmark: Name = ""

    class Report(Obj):
        sections: list[Literal[tuple(ANALYSES)]] = []  # type: ignore[valid-type]
        title: Name = ""

    class Simulator(Obj):
        study: Annotated[str | None, AfterValidator(_study)] = None

    class Version1(Obj):
        """``scorio-studio/session-1``: analyses only, no simulator."""

        format: Literal[_FORMAT_1]
        data: Data = Data()
        settings: dict[str, dict[str, Any]] = {}
        rubric: RubricJSON | None = None
        report: Report | None = None

        @model_validator(mode="after")
        def _analyses_only(self):
            studies = sorted(set(self.settings) & set(SIMULATIONS))
            if studies and self.format == _FORMAT_1:
                raise ValueError(f"a {_FORMAT_1} file holds analyses only "
                                 f"({', '.join(ANALYSES)}); got {', '.join(studies)}")
            return self

    class Version2(Version1):
        """Adds simulation studies to ``settings`` and the study the Simulator shows."""

        format: Literal[FORMAT]
        simulator: Simulator | None = None

    return TypeAdapter(Annotated[Version1 | Version2, Field(discriminator="format")])


def check_data(session: Session, data: Outcomes) -> str | None:
    """Why ``data`` are not the data ``session`` was saved from (``None`` when they are).

    Compares the input file's sha256 when the session names one, else the dataset name;
    the message says what was expected and what was found.

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.definitions.provenance import attach_source
    >>> data = attach_source(Outcomes(np.ones((2, 3, 1), int)), b"abc", "runs.csv")
    >>> s = from_json(to_json({}, data))
    >>> check_data(s, data) is None
    True
    >>> print(check_data(s, attach_source(data, b"abd", "runs.csv")))
    the session was saved from runs.csv with sha256 ba7816bf…; the loaded data are runs.csv
    with sha256 a52d159f…
    """
    want = session.data.get("input", {}) or {}
    have = provenance(data)["input"]
    if want.get("sha256_per_file") and any(want["sha256_per_file"].values()):  # several files
        if want["sha256_per_file"] == have.get("sha256_per_file"):
            return None
        return (f"the session was saved from {len(want['sha256_per_file'])} files with other "
                "contents or names than the loaded data's "
                f"({count_text(len(have.get('sha256_per_file') or {}), 'file')} with a "
                "sha256)")
    if want.get("sha256"):
        if want["sha256"] == have.get("sha256"):
            return None
        found = (f"{have.get('file')} with sha256 {have['sha256'][:8]}…" if have.get("sha256")
                 else f"{data.name!r}, which has no file hash")
        return (f"the session was saved from {want.get('file')} with sha256 "
                f"{want['sha256'][:8]}…; the loaded data are {found}")
    name = session.data.get("dataset")
    if name and name != data.name:
        return f"the session was saved from dataset {name!r}; the loaded data are {data.name!r}"
    return None


def to_query(analysis_id: str, params: Any, base: Any = None) -> dict[str, str]:
    """The settings that differ from ``base`` (default: the ``Params`` defaults) as
    ``{"<id>.<field>": JSON text}``; ``analysis_id`` may also be a simulation study."""
    from scorio_core.rubric import Rubric

    default = params_dict(base if base is not None else _definition(analysis_id).params())
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


def from_query(analysis_id: str, query: Mapping[str, str], base: Any = None) -> Any:
    """``Params`` from query parameters written by :func:`to_query` (other keys are ignored);
    settings the query leaves out come from ``base`` (default: the ``Params`` defaults),
    e.g. the page's own defaults for these data.

    Example
    -------
    >>> from scorio_core.definitions import LeaderboardParams
    >>> from_query("leaderboard", {"leaderboard.confidence": "0.9"},
    ...            base=LeaderboardParams(ks=(1, 8))).ks
    (1, 8)
    """
    prefix = f"{analysis_id}."
    values = {
        k[len(prefix):]: _query_value(k, v) for k, v in query.items() if k.startswith(prefix)
    }
    return _params(analysis_id, values, base)


_MAX_QUERY_VALUE = 4000


def _query_value(key: str, value: Any) -> Any:
    text = str(value)
    if len(text) > _MAX_QUERY_VALUE:
        raise ValidationError(
            f"query parameter {key} is at most {_MAX_QUERY_VALUE} characters; got {len(text):,}"
        )
    return parse_json(text, f"query parameter {key}", max_depth=3)


def view_query(dataset: str, benchmark: str = COMBINED, analysis_id: str | None = None,
               params: Any = None) -> dict[str, str]:
    """Query parameters of a view of a bundled dataset: ``dataset`` (its file stem),
    ``benchmark`` (when not combined) and the analysis's non-default settings.

    Example
    -------
    >>> from scorio_core.definitions import GreedyParams
    >>> view_query("biased_coins", "combined", "greedy", GreedyParams(seed=7))
    {'dataset': 'biased_coins', 'greedy.seed': '7'}
    """
    out = {"dataset": dataset}
    if benchmark != COMBINED:
        out["benchmark"] = benchmark
    if analysis_id is not None:
        out |= to_query(analysis_id, params)
    return out


def study_from_query(query: Mapping[str, str]) -> str | None:
    """The simulation study a link asks the Simulator page to show (its ``study`` key).

    Example
    -------
    >>> study_from_query({"study": "order", "order.sims": "500"})
    'order'
    >>> study_from_query({"study": "dice"})
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: unknown simulation study 'dice'; expected one of
    coins, prior-depth, order, calibration, rubric-lesson
    """
    return _study(query.get("study"))


def view_from_query(query: Mapping[str, str]) -> tuple[str | None, str | None, dict[str, Any]]:
    """``(dataset, benchmark, {analysis id: Params})`` from a link's query parameters.

    Keys without a dot other than ``dataset`` and ``benchmark`` are ignored (browsers and
    proxies add their own); a dotted key must name an analysis and one of its settings.

    Example
    -------
    >>> view_from_query({"dataset": "biased_coins", "greedy.seed": "7"})
    ('biased_coins', None, {'greedy': GreedyParams(replicates=50, seed=7)})
    >>> view_from_query({"greedy.sed": "7"})
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: greedy has no setting 'sed'; its settings are
    replicates, seed
    """
    for k in ("dataset", "benchmark"):
        if k in query and len(str(query[k])) > _MAX_TITLE:
            raise ValidationError(f"query parameter {k} is at most {_MAX_TITLE} characters")
    ids = sorted({k.split(".", 1)[0] for k in query if "." in k})
    settings = {aid: from_query(aid, query) for aid in ids}
    return query.get("dataset"), query.get("benchmark"), settings
