"""The rubric JSON format (and the presets' table files) as pydantic models (SPEC §7).

The models check the shape of the JSON -- which keys, of which types, where -- and
build the frozen dataclasses of :mod:`.model`, whose constructors check what ties
fields together (one threshold per comparison, categories in range, the size
budgets) for JSON and Python callers alike. Every error names its JSON path, what
was expected and what was found.

This module imports pydantic, so it is imported on the first parse
(:meth:`Rubric.from_json <scorio_core.rubric.model.Rubric.from_json>`, the presets, a
session file), never by ``import scorio_core``. :class:`Strict` and :func:`check`
serve other JSON formats too (the app's session files).

Example
-------
>>> from scorio_core.rubric.schema import parse_rubric
>>> rubric = {"name": "x", "categories": ["wrong", "right"], "weights": [0, 1],
...           "rules": [{"category": 1, "when": {"signal": "s", "op": ">", "value": "1"}}]}
>>> parse_rubric(rubric)
Traceback (most recent call last):
...
scorio_core._validation.ValidationError: rubric.rules[0].when.value: must be a number; got
str '1'
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar, Literal

import pydantic
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    TypeAdapter,
    WrapValidator,
    field_validator,
    model_validator,
)

from .._validation import ValidationError
from ..formatting import noun_text
from .model import _MAX_DEPTH, FORMAT, VERSION, AllOf, AnyOf, Compare, Not, Rubric, Rule

__all__ = ["Strict", "check", "parse_rubric", "parse_presets", "RubricJSON"]


class Strict(BaseModel):
    """A JSON object with known keys: no type coercion (``"1"`` is not a number, ``true``
    not an integer), unknown keys refused with the list of known ones, missing required
    keys named together. Subclasses set ``_target`` to the class :meth:`build` calls with
    the fields as keywords."""

    model_config = ConfigDict(strict=True)
    _target: ClassVar[Callable[..., Any] | None] = None
    #: What the object's keys are called in messages, and a hint for missing ones.
    _word: ClassVar[str] = "key"
    _hint: ClassVar[str] = ""

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            raise ValueError(f"must be a JSON object; got {_found(data)}")
        keys = {f.alias or name: f for name, f in cls.model_fields.items()}
        extra = [k for k in data if k not in keys]
        if extra:
            raise ValueError(
                f"unknown {noun_text(len(extra), cls._word)} {', '.join(map(repr, extra))}; "
                "expected some of "
                f"{', '.join(sorted(keys))}"[:500]
            )
        missing = [k for k, f in keys.items() if f.is_required() and k not in data]
        if missing:
            raise ValueError(
                f"missing required {noun_text(len(missing), cls._word)}: {', '.join(missing)}"
                + (f"; {cls._hint}" if cls._hint else "")
            )
        return dict(data)

    def build(self) -> Any:
        """The validated object as its ``_target`` (fields passed by name)."""
        return type(self)._target(**{k: getattr(self, k) for k in type(self).model_fields})


def _built(model: type[Strict], tag: str | None = None) -> Any:
    """``model`` validated, then built (``model.build``); tagged for a discriminated union."""
    extra = (Tag(tag),) if tag else ()
    return Annotated[model, AfterValidator(lambda m: m.build()), *extra]


# ------------------------------------------------------------------------ errors
_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxlevel = 60, 60, 4, 4, 2
#: Problems listed in one error message (pydantic finds them all).
_MOST = 3


def _found(x: Any) -> str:
    if isinstance(x, str | list | dict) and len(x) > 60:
        unit = "characters" if isinstance(x, str) else "items"
        return f"{type(x).__name__} of {len(x):,} {unit}"
    return f"{type(x).__name__} {_SHORT.repr(x)}"


def _path(root: str, prefix: str, loc: tuple, obj: Any) -> str:
    """The JSON path of ``loc`` in ``obj``: pydantic's location also holds the tags of
    tagged unions (a condition's kind, a session file's format), which ``obj`` lacks."""
    out, node = prefix, obj
    for part in loc:
        if isinstance(node, Mapping) and part in node:
            out += f".{part}" if out else str(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            out += f"[{part}]"
        else:
            continue  # a tag
        node = node[part]
    return out if out != prefix else root


def _message(err: Mapping[str, Any], root: str, prefix: str, obj: Any) -> str:
    where = _path(root, prefix, err["loc"], obj)
    ctx = err.get("ctx") or {}
    if err["type"] == "value_error":  # ours (a ValidationError from a constructor), worded
        text = str(ctx.get("error", err["msg"]))
        return text if text.startswith(where) else f"{where}: {text}"
    if err["type"] == "union_tag_invalid":  # a tagged union's tag field, e.g. 'format'
        return (
            f"{where}: {ctx['discriminator']} must be one of {ctx['expected_tags']}; "
            f"got {ctx['tag']!r}"
        )
    if err["type"] == "union_tag_not_found":
        return f"{where}: must be a JSON object with a {ctx['discriminator']} field"
    msg = err["msg"]
    if err["type"] in ("model_attributes_type", "model_type", "dict_type"):
        msg = "must be a JSON object"
    for said in ("Input should", "String should", "List should", "Dictionary should"):
        msg = msg.replace(said, "must")
    msg = msg.replace(" a valid dictionary", " a JSON object").replace(" a valid ", " a ")
    msg = re.sub(r"\ba (?=[aeiou])", "an ", msg)
    return f"{where}: {msg}; got {_found(err['input'])}"


def check(adapter: TypeAdapter, obj: Any, root: str, prefix: str | None = None) -> Any:
    """``adapter.validate_python(obj)``, or :class:`ValidationError` listing the first
    problems, each with its JSON path: ``root`` for the object itself, ``prefix`` (default
    ``root``) before the paths inside it (``rubric.rules[0]``; ``data.input`` with ``""``)."""
    try:
        return adapter.validate_python(obj, context={"depth": 0})
    except pydantic.ValidationError as exc:
        errors = exc.errors(include_url=False)
        prefix = root if prefix is None else prefix
        lines = [_message(e, root, prefix, obj) for e in errors[:_MOST]]
        if len(errors) > _MOST:
            more = len(errors) - _MOST
            lines.append(f"(and {more} more problem{'s' if more > 1 else ''})")
        raise ValidationError("\n".join(lines)) from None


# -------------------------------------------------------------------- conditions
def _depth(value: Any, handler: Callable[[Any], Any], info: pydantic.ValidationInfo) -> Any:
    """Count condition levels on the way down: refuse what nests deeper than _MAX_DEPTH
    before validating it (each level is a Python call in evaluation and display)."""
    ctx = info.context  # check() passes the counter
    if ctx["depth"] > _MAX_DEPTH:
        raise ValueError(f"conditions nested deeper than {_MAX_DEPTH} levels")
    ctx["depth"] += 1
    try:
        return handler(value)
    finally:
        ctx["depth"] -= 1


def _kind(c: Any) -> str | None:
    if not isinstance(c, Mapping):
        return None
    return next(
        (t for k, t in (("all", "AllOf"), ("any", "AnyOf"), ("not", "Not")) if k in c), "Compare"
    )


class _Compare(Strict):
    _target = Compare
    _hint = "or use 'all', 'any' or 'not'"
    signal: str
    op: str
    value: float | None = None
    percentile: float | None = None
    scope: str | None = None
    among: ConditionJSON | None = None
    other: str | None = None
    label: str = ""


class _AllOf(Strict):
    _target = AllOf
    terms: list[ConditionJSON] = Field(alias="all")
    label: str = ""


class _AnyOf(Strict):
    _target = AnyOf
    terms: list[ConditionJSON] = Field(alias="any")
    label: str = ""


class _Not(Strict):
    _target = Not
    term: ConditionJSON = Field(alias="not")
    label: str = ""


#: A condition: ``{"signal", "op", <threshold>}``, ``{"all": [...]}``, ``{"any": [...]}`` or
#: ``{"not": ...}``, each with an optional ``label``; validated into a :class:`Condition`.
ConditionJSON = Annotated[
    _built(_Compare, "Compare")
    | _built(_AllOf, "AllOf")
    | _built(_AnyOf, "AnyOf")
    | _built(_Not, "Not"),
    Discriminator(
        _kind,
        custom_error_type="condition",
        custom_error_message="must be a condition object ({'signal', 'op', ...}, "
        "{'all': [...]}, {'any': [...]} or {'not': ...})",
    ),
    WrapValidator(_depth),
]


# ------------------------------------------------------------------------ rubric
class _Rule(Strict):
    _target = Rule
    category: int
    when: ConditionJSON
    label: str = ""


RuleJSON = _built(_Rule)


class _Category(Strict):
    name: str
    description: str = ""


def _named(c: Any) -> Any:
    if isinstance(c, str):
        return {"name": c}
    if not isinstance(c, Mapping):
        raise ValueError(
            f"must be a category name or a {{'name', 'description'}} object; got {_found(c)}"
        )
    return c


class _Rubric(Strict):
    format: Literal[FORMAT] = FORMAT
    version: int = VERSION
    name: str
    description: str = ""
    intent: str = ""
    source: str = ""
    categories: list[Annotated[_Category, BeforeValidator(_named)]]
    weights: list[float]
    rules: list[RuleJSON]
    default: int | None = None

    @field_validator("version")
    @classmethod
    def _supported(cls, v: int) -> int:
        if v != VERSION:
            raise ValueError(f"{v!r} is not supported; this build reads {VERSION}")
        return v

    def build(self) -> Rubric:
        return Rubric(
            name=self.name,
            categories=tuple(c.name for c in self.categories),
            category_descriptions=tuple(c.description for c in self.categories),
            weights=tuple(self.weights),
            rules=tuple(self.rules),
            default=self.default,
            description=self.description,
            intent=self.intent,
            source=self.source,
        )


#: A rubric's JSON (:meth:`Rubric.to_json` output), validated into a :class:`Rubric`.
RubricJSON = _built(_Rubric)


class _PresetTable(Strict):
    """A file of presets (one paper's table): ``{key: rubric}`` in the table's order."""

    format: Literal["scorio-rubric-presets"]
    version: Literal[1]
    description: str = ""
    presets: dict[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")], RubricJSON]


for _m in (_Compare, _AllOf, _AnyOf, _Not):
    _m.model_rebuild()
_RUBRIC = TypeAdapter(RubricJSON)
_PRESETS = TypeAdapter(_PresetTable)


def parse_rubric(obj: Any) -> Rubric:
    """A :class:`Rubric` from its JSON object (already parsed), or :class:`ValidationError`."""
    return check(_RUBRIC, obj, "rubric")


def parse_presets(obj: Any, name: str) -> dict[str, Rubric]:
    """The presets of one table file (already parsed), by key in file order."""
    return check(_PRESETS, obj, name).presets
