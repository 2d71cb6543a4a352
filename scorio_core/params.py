"""Settings declared once: each analysis setting's type, default, choices or bounds, help
and label live on its params dataclass; validation and the CLI options are made from them.

A setting is a dataclass field made with :func:`setting`::

    @dataclass(frozen=True)
    class PlanParams:
        assurance: float = setting(0.8, "target chance of a decision", minimum=0.5,
                                   maximum=1.0, open_max=True, label="Chance of a decision")

    def __post_init__(self):
        validate(self)  # choices, bounds, whole numbers -- from the declarations

and ``add_options(parser, PlanParams)`` adds ``--assurance`` with that default, help and
check; ``from_args(PlanParams, args)`` builds the params back from the parsed flags.
Adding a setting to an analysis is one field here plus its use in ``run`` (see the
README's *Add a setting*). Light on purpose (no pandas or SciPy at import), so ``scorio-studio
--help`` stays fast; the params classes of the leaderboard and the Planner live here.

Example
-------
>>> from scorio_core.params import add_options, PlanParams, from_args
>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_options(p, PlanParams)
>>> params = from_args(PlanParams, p.parse_args(["--assurance", "0.9", "--adjust", "bh"]))
>>> params.assurance, params.adjust, params.scope
(0.9, 'bh', 'questions')
>>> PlanParams(assurance=1.0)
Traceback (most recent call last):
...
scorio_core._validation.ValidationError: assurance must be at least 0.5 and below 1; got 1.0
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ._validation import (
    Mention,
    Only,
    Said,
    SettingsConflict,
    ValidationError,
    as_names,
    as_numbers,
    checked_keywords,
    comma_splits,
    joined,
    split_names,
)
from .estimands import (
    ADJUST_HELP,
    ADJUSTMENTS,
    ASSURANCE,
    ASSURANCE_HELP,
    CHECKED_QUESTIONS,
    MAX_QUESTIONS,
    SCOPE_HELP,
    SCOPES,
    SPLIT_TRIALS_PER_MODEL,
)
from .references import expand

__all__ = [
    "Setting",
    "setting",
    "settings_of",
    "may_be_unset",
    "is_unset",
    "unset_words",
    "validate",
    "add_options",
    "widget",
    "widget_labels",
    "cli_flag",
    "from_args",
    "LeaderboardParams",
    "PlanParams",
    "CompareParams",
    "StabilityParams",
    "GreedyParams",
    "ConvergenceParams",
    "PairParams",
    "QuestionsParams",
    "CheckParams",
    "CurvesParams",
    "LEARNED_SPREAD_PRIOR",
    "CURVE_KINDS",
    "SCHEMES",
    "TARGETS",
    "MATCHES",
]


@dataclass(frozen=True)
class Setting:
    """What a setting is, for validation, the CLI, widgets and help texts.

    Attributes
    ----------
    help : str
        One line: what the setting does (the CLI's ``--help``, the widget's tooltip, the
        Python function's *Parameters*). Words that differ by surface -- a flag, a Python
        call, a page -- are a :class:`~scorio_core._validation.Said`: each surface reads its
        own (``--help``: :func:`_help`; a page: ``app_state.texts.app_widget``; Python: the
        ``str``).
    label : str, optional
        The widget's label (default: the name, capitalised).
    parts : tuple of str
        The labels of the widgets of a setting a page shows as several (the Planner's
        ``pair``: one picker per model), in the order of the setting's values; a note on
        the setting names them all (``app_state.texts.setting_label``).
    choices : tuple, optional
        The allowed values (first listed = shown first; the default need not be first).
    choice_help : dict, optional
        One line per choice, appended to ``help``.
    minimum, maximum : float, optional
        Bounds; ``open_min``/``open_max`` exclude them. On a setting that holds several
        numbers (a simulation's means): each number's, as ``integer`` is.
    page_min, page_max : float, optional
        The bounds a page's widget offers, where narrower than ``minimum`` / ``maximum``
        (the API and the CLI take the full range): one typo in a browser session should
        not start hours of work, and an open bound needs a closed one on a widget. A
        restored or linked value outside them is shown clamped, with a note. On a setting
        that holds several numbers (a simulation's means, its weights): each number's.
    integer : bool
        Whole numbers only (``bool`` refused).
    optional : bool
        ``None`` is allowed (it means a rule of its own; always so when the default is
        ``None``).
    cli : str or None
        The flag (default ``--name-with-dashes``); ``None`` for no CLI option.
    aliases : tuple of str
        Older spellings of the flag, still accepted and left out of ``--help`` (``--sims``
        of ``--replicates``): a script written before a flag was renamed keeps running.
    dest : str, optional
        The parsed attribute (default: the name), for a name another option of the same
        command already uses (the loader's ``format`` beside the output ``--format``).
    parse : callable, optional
        Text -> value for the CLI (default from the default's type).
    repeat : bool
        The flag may be given several times; the CLI passes the list of parsed values
        (``None`` when never given) and the params class combines them.
    unset : str, optional
        What the setting left unset (``None``, or an empty list) means, in words that read
        after its label or its name -- ``"none (ν = counts + 1)"``, ``"all questions"``: a
        report's settings line, a result's caption and the CLI's echo of a setting write it
        (:func:`unset_words`) where a bare "default" or ``None`` would hide what the run did.
        Where the run decides the value (the Planner's pair), the analysis's ``resolved``
        hook writes what it took instead. Every setting that may be unset declares one.
    """

    help: str
    label: str | None = None
    parts: tuple[str, ...] = ()
    choices: tuple | None = None
    choice_help: dict | None = None
    minimum: float | None = None
    maximum: float | None = None
    page_min: float | None = None
    page_max: float | None = None
    open_min: bool = False
    open_max: bool = False
    integer: bool = False
    optional: bool = False
    cli: str | None = ""
    aliases: tuple[str, ...] = ()
    dest: str | None = None
    parse: Any = None
    repeat: bool = False
    unset: str | None = None


def setting(default, help: str, **meta) -> Any:  # noqa: A002 - the word users read
    """A dataclass field with its :class:`Setting` (``meta``: its other attributes)."""
    from .references import expand  # CLI --help and page widgets: papers by title

    if meta.get("choice_help"):
        meta["choice_help"] = {k: expand(v) for k, v in meta["choice_help"].items()}
    return dataclasses.field(default=default, metadata={"setting": Setting(expand(help), **meta)})


def settings_of(cls) -> dict[str, tuple[Any, Setting]]:
    """``name -> (default, Setting)`` for the declared settings of a params class."""
    return {
        f.name: (f.default, f.metadata["setting"])
        for f in dataclasses.fields(cls)
        if "setting" in f.metadata
    }


def may_be_unset(default, s: Setting) -> bool:
    """Whether a setting may be left unset: its default is ``None`` or an empty list, or
    it takes ``None`` (``optional``)."""
    return default is None or default == () or s.optional


def is_unset(value) -> bool:
    """``None``, or an empty list: a setting left unset."""
    return value is None or (isinstance(value, tuple | list) and not value)


def unset_words(params) -> dict[str, str]:
    """What each setting of ``params`` left unset means, by name: its declared
    :attr:`Setting.unset` (what a settings line, a caption or the CLI's echo writes for it;
    the analysis's ``resolved`` hook overrides it with what a run took).

    Example
    -------
    >>> from scorio_core.params import unset_words, CurvesParams
    >>> unset_words(CurvesParams())
    {'tau': 'none (no G-Pass@k_τ curve)', 'subset': 'all questions'}
    >>> unset_words(CurvesParams(tau=0.5, subset="source=arc"))
    {}
    """
    return {name: s.unset for name, (_, s) in settings_of(type(params)).items()
            if s.unset is not None and is_unset(getattr(params, name))}


def _bound(x: float) -> str:
    """A bound as people read it: ``10,000,000``, ``0.5``."""
    return f"{int(x):,}" if float(x).is_integer() and abs(x) < 2**63 else f"{x:g}"


def _bounds_text(s: Setting) -> str:
    lo, hi = s.minimum, s.maximum
    if lo is not None and hi is not None and s.open_min == s.open_max:
        return f"{'strictly ' if s.open_min else ''}between {_bound(lo)} and {_bound(hi)}"
    parts = []
    if lo is not None:
        parts.append(f"{'above' if s.open_min else 'at least'} {_bound(lo)}")
    if hi is not None:
        parts.append(f"{'below' if s.open_max else 'at most'} {_bound(hi)}")
    return " and ".join(parts)


def check_value(name: str, value, s: Setting):
    """``value`` checked against ``s`` (choices, whole number, bounds); the value back. A
    setting that holds several numbers (a tuple or list) has each of them checked.

    Example
    -------
    >>> from scorio_core.params import check_value, settings_of
    >>> from scorio_core.simulate.params import CalibrationParams
    >>> _, s = settings_of(CalibrationParams)["M_values"]
    >>> check_value("questions", [10, 30.0], s)
    (10, 30)
    >>> check_value("questions", (10, 0), s)
    Traceback (most recent call last):
    ...
    scorio_core._validation.ValidationError: questions must be between 1 and 100,000; got 0
    """
    if s.choices is not None:
        if value not in s.choices:
            raise ValidationError(
                f"{name} must be one of {', '.join(map(repr, s.choices))}; got {value!r}"
            )
        return value
    numeric = s.integer or s.minimum is not None or s.maximum is not None
    if numeric and isinstance(value, tuple | list):  # each number of several
        return tuple(check_value(name, v, s) for v in value)
    if s.integer:
        if isinstance(value, bool):
            raise ValidationError(f"{name} must be a whole number; got {value!r}")
        if isinstance(value, numbers.Integral):  # numpy's integers too
            value = value if type(value) is int else int(value)
        elif isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise ValidationError(f"{name} must be a whole number; got {value!r}")
    elif s.minimum is not None or s.maximum is not None:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ValidationError(f"{name} must be a number; got {value!r}")
        if not isinstance(value, int | float):  # numpy's numbers: as Python's
            value = float(value)
        if not math.isfinite(float(value)):
            raise ValidationError(f"{name} must be a finite number; got {value!r}")
    low = s.minimum is not None and (value <= s.minimum if s.open_min else value < s.minimum)
    high = s.maximum is not None and (value >= s.maximum if s.open_max else value > s.maximum)
    if low or high:
        raise ValidationError(f"{name} must be {_bounds_text(s)}; got {value!r}")
    return value


def validate(obj) -> None:
    """Check every declared setting of a params instance (call from ``__post_init__``); an
    optional setting (default ``None``) may stay ``None``."""
    for name, (default, s) in settings_of(type(obj)).items():
        value = getattr(obj, name)
        if value is None and (default is None or s.optional):
            continue
        checked = check_value(name, value, s)
        if checked is not value:
            object.__setattr__(obj, name, checked)


def _choice_lines(s: Setting) -> list[str]:
    """One line per choice: ``key: text``, unless the text already starts with the key's
    word."""
    return [
        text if text.split(":")[0].split("-")[0] == str(key).split("-")[0] else f"{key}: {text}"
        for key, text in (s.choice_help or {}).items()
    ]


def _flag(name: str, s: Setting) -> str:
    return s.cli or "--" + name.replace("_", "-")


def _cli_name(name: str, s: Setting) -> str:
    """What the CLI calls a setting: its flag's word where the flag is not the field's name
    (``--replicates`` of the order study's ``sims``), so ``--help``'s placeholder and a refused
    value's message name the flag the user typed, the same in every command that has it."""
    return s.cli.lstrip("-").replace("-", "_") if s.cli else name


def cli_flag(cls, name: str) -> str | None:
    """What the command line calls setting ``name`` of ``cls``: its declared flag (the same
    declaration :func:`add_options` reads); ``None`` for a setting with no CLI option. A
    core message that names the setting (``scorio_core.cli._common.cli_name``) says it.

    Example
    -------
    >>> from scorio_core.params import cli_flag, LeaderboardParams
    >>> cli_flag(LeaderboardParams, "ks"), cli_flag(LeaderboardParams, "weights")
    ('--k', None)
    """
    _, s = settings_of(cls)[name]
    return None if s.cli is None else _flag(name, s)


def widget(cls, name: str) -> dict[str, Any]:
    """``label``, ``parts`` (the labels of its several widgets, or None), ``options``
    (the choices, or None), ``help`` (where the declaration writes it per surface, a
    :class:`~scorio_core._validation.Said` that a page renders in its own words:
    ``app_state.texts.app_widget``), ``min_value`` /
    ``max_value`` (the bounds a page offers, or None: ``page_min`` / ``page_max`` where
    declared) and
    ``integer`` of a setting for a page widget -- the same declaration the CLI option
    comes from.

    Example
    -------
    >>> from scorio_core.params import widget, PlanParams
    >>> w = widget(PlanParams, "adjust")
    >>> w["label"], w["options"][0], w["help"].startswith("multiplicity control")
    ('Multiplicity control', 'holm', True)
    """
    _, s = settings_of(cls)[name]
    text = joined("  \n", [s.help, *_choice_lines(s)])  # a help per surface stays one
    label = s.label or name.replace("_", " ").capitalize()
    return {"label": label, "parts": list(s.parts) or None,
            "options": None if s.choices is None else list(s.choices),
            "help": text, "min_value": s.minimum if s.page_min is None else s.page_min,
            "max_value": s.maximum if s.page_max is None else s.page_max,
            "integer": s.integer}


def widget_labels(cls, name: str, part: int | None = None) -> list[str]:
    """What a page calls setting ``name`` of ``cls``: its widget's declared label
    (:func:`widget`); where the declaration labels several widgets (``parts``: the Planner's
    pair, one picker per model), each of them, or the one at position ``part``; ``part`` of a
    setting shown as numbered widgets (the three category weights' sliders): that widget's
    label, "weight of category 2". Empty for a name ``cls`` does not declare (``cls`` None:
    an option only the command line has, ``leaderboard --rubric``). The app's notes and
    errors (``app_state.texts.setting_label``) and a report's settings line name a setting by
    it.

    Example
    -------
    >>> from scorio_core.params import widget_labels, PlanParams
    >>> widget_labels(PlanParams, "budget_trials"), widget_labels(PlanParams, "pair")
    (['Extra trials (budget)'], ['Better model', 'Other model'])
    >>> widget_labels(PlanParams, "pair", 1), widget_labels(PlanParams, "nope")
    (['Other model'], [])
    """
    if cls is None or name not in settings_of(cls):
        return []
    w = widget(cls, name)
    if w["parts"]:
        return list(w["parts"]) if part is None else [w["parts"][part]]
    return [w["label"] if part is None else f"{w['label']} {part}"]


def _help(s: Setting, default) -> str:
    from .cli._common import cli_text  # a help written per surface: the command line's words

    text = cli_text(s.help)
    if s.choice_help:
        text += " (" + "; ".join(_choice_lines(s)) + ")"
    if default is not None and default != () and s.choices is None and default is not False:
        shown = ",".join(map(str, default)) if isinstance(default, tuple) else default
        text += f"; default {shown}"
    return text.replace("%", "%%")  # argparse formats help with %


def _parser_for(name: str, default, s: Setting, flag: str | None = None):
    """Text -> value for ``flag`` (default: the setting's flag; an alias names itself): the
    declared ``parse`` or a number's, then the declared bounds, so a value out of range is
    argparse's usage error naming the flag the user typed."""
    if s.choices is not None and s.parse is None:
        return None
    flag = flag or _flag(name, s)
    word = flag.lstrip("-").replace("-", "_")  # what the message calls the setting
    kind = int if s.integer else float if isinstance(default, float) else str
    bounded = s.integer or s.minimum is not None or s.maximum is not None

    def read(text: str):
        try:
            return kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{flag} expects {'a whole number' if kind is int else 'a number'}; got {text!r}"
            ) from None

    def parse(text: str):
        value = s.parse(text) if s.parse is not None else read(text)
        if s.parse is not None and not bounded:
            return value
        try:
            return check_value(word, value, s)
        except ValidationError as exc:  # argparse says which flag
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


#: The parsed flags' attribute naming the params classes whose options the command has
#: (:func:`add_options`): the CLI builds each right after parsing, so settings that are each
#: valid but inconsistent together are a usage error as a value out of range is.
PARAMS_CLASSES = "_params_classes"


def add_options(parser: argparse.ArgumentParser, cls) -> None:
    """One CLI option per declared setting of ``cls`` that has a flag: the flag, default,
    choices, type check and help from the declaration; ``cls`` is noted in the parsed
    flags (:data:`PARAMS_CLASSES`)."""
    parser.set_defaults(**{PARAMS_CLASSES: (*(parser.get_default(PARAMS_CLASSES) or ()), cls)})
    for name, (default, s) in settings_of(cls).items():
        if s.cli is None:
            continue
        kw: dict[str, Any] = {"default": default, "help": _help(s, default),
                              "dest": s.dest or name}
        if s.choices is not None:
            kw["choices"] = list(s.choices)
        elif default is False and s.parse is None:  # a switch: the flag turns it on
            kw["action"] = "store_true"
        else:
            kw["type"] = _parser_for(name, default, s)
            kw["metavar"] = _cli_name(name, s).upper()  # the flag's word, not the field's
        if s.repeat:
            kw["action"] = "append"
        parser.add_argument(_flag(name, s), **kw)
        for old in s.aliases:  # an older spelling: same setting, same default, not in --help
            if "type" in kw:
                kw["type"] = _parser_for(name, default, s, old)
            parser.add_argument(old, **(kw | {"help": argparse.SUPPRESS}))


def from_args(cls, args: argparse.Namespace, **extra):
    """The params the parsed flags describe (``extra``: values not on the CLI)."""
    values = {
        name: getattr(args, s.dest or name)
        for name, (_, s) in settings_of(cls).items()
        if s.cli is not None and hasattr(args, s.dest or name)
    }
    return cls(**values, **extra)


# ------------------------------------------------------------------ shared declarations
def _confidence(default: float = 0.95, text: str = "level of the intervals and of the "
                "two-sided pairwise decisions") -> Any:
    return setting(default, text, minimum=0.0, maximum=1.0, open_min=True, open_max=True,
                   label="Confidence")


def _scope(text: str) -> Any:
    return setting(SCOPES[0], text, choices=SCOPES, choice_help=SCOPE_HELP, label="Scope")


def _adjust() -> Any:
    return setting(ADJUSTMENTS[0], "multiplicity control of the pairwise decisions",
                   choices=ADJUSTMENTS, choice_help=ADJUST_HELP, label="Multiplicity control")


def _assurance() -> Any:
    return setting(ASSURANCE, ASSURANCE_HELP, minimum=0.5, maximum=1.0, open_max=True,
                   label="Chance of a decision")


def _prior(text: str) -> Any:
    return setting("uniform", text, choices=("uniform", "greedy"), label="Prior")


def _draws(text: str) -> Any:
    return setting(10_000, text, integer=True, minimum=100, maximum=10_000_000)


def seed_setting(text: str = "seed of the random draws") -> Any:
    """A seed: a whole number from 0, up to 2**53 - 1 on a page (exact in JavaScript)."""
    return setting(0, text, integer=True, minimum=0, page_max=2**53 - 1)  # exact in JavaScript


def _spread_prior() -> Any:
    # the label is the page's control (flat / learned from the other benchmarks / a file)
    return setting(
        None, Said(
            "a prior on how spread fields like this one are, learned from earlier runs (",
            Only("python", "sc.fit_spread_prior(runs), or the JSON file its .save(path) "
                 "writes"),
            Only("cli", "the JSON file scorio-studio spread-prior RUNS -o FILE writes"),
            Only("app", "from the data's other benchmarks, or a prior file uploaded"),
            "): p_best, the rank distribution and the Planner's chances read it instead of "
            "the flat prior, which the field's own means cannot correct with few models or "
            "questions; the intervals and decisions do not depend on it. Default: flat"),
        parse=_prior_path, label="Spread prior", unset="none (the flat prior)")


def _prior_path(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("--spread-prior expects the path of a JSON file")
    return text


#: Largest k the CLI parses (Pass@k needs k <= N; no dataset has more trials per question).
MAX_K = 1_000_000


def numbers_parse(flag: str, example: str, kind: type = float, at_least: int = 1) -> Any:
    """A CLI parser of comma-separated finite numbers for ``flag`` (``kind``: float or int),
    at least ``at_least`` of them; a setting's bounds are checked on each number after it
    (:func:`add_options`).

    Example
    -------
    >>> from scorio_core.params import numbers_parse
    >>> numbers_parse("--weights", "0,0.5,1", at_least=2)("0, 1")
    (0.0, 1.0)
    >>> numbers_parse("--weights", "0,0.5,1", at_least=2)("1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: --weights expects at least 2 comma-separated numbers, e.g. \
0,0.5,1; got '1'
    """
    what = "whole numbers" if kind is int else "numbers"

    def refuse(how_many: str, text: str):
        return argparse.ArgumentTypeError(
            f"{flag} expects {how_many}comma-separated {what}, e.g. {example}; got {text!r}")

    def parse(text: str) -> tuple:
        try:
            values = tuple(kind(t) for t in text.split(","))
        except ValueError:
            raise refuse("", text) from None
        if len(values) < at_least:
            raise refuse(f"at least {at_least} ", text)
        if not all(math.isfinite(v) for v in values):
            raise argparse.ArgumentTypeError(f"{flag} expects finite numbers; got {text!r}")
        return values

    return parse


def ks_parse(flag: str) -> Any:
    """The parser of comma-separated ``k`` values (``--k 2,4,8``; ``sc.leaderboard(ks="2,4")``
    and ``sc.pass_curves(ks=...)`` read a string by it too), its messages naming ``flag``.

    Example
    -------
    >>> from scorio_core.params import ks_parse
    >>> ks_parse("ks")("2, 4,")
    (2, 4)
    """

    def parse(text: str) -> tuple[int, ...]:
        try:
            ks = tuple(int(t) for t in text.split(",") if t.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{flag} expects comma-separated whole numbers like 2,4,8; got {text!r}"
            ) from None
        if any(k < 1 for k in ks):
            raise argparse.ArgumentTypeError(f"{flag} values must be >= 1; got {text!r}")
        if any(k > MAX_K for k in ks):  # Pass@k needs k <= N trials; N is never this large
            raise argparse.ArgumentTypeError(
                f"{flag} values must be at most the trials per question N (and <= {MAX_K:,}); "
                f"got {text!r}"
            )
        return ks

    return parse


def _pair_parse(text: str, flag: str = "--pair") -> tuple[str, ...]:
    names = split_names(text)
    if len(names) < 2:
        raise argparse.ArgumentTypeError(
            f"{flag} expects two model names separated by a comma, e.g. a,b; got {text!r}"
        )
    return names  # more than two parts: names with commas, split by split_pair


def split_pair(parts: Sequence[str], models: Sequence[str]) -> tuple[str, str]:
    """``--pair`` parts as two model names of ``models``: with more than two parts (a
    name holds a comma), the one split whose both sides are models.

    >>> from scorio_core.params import split_pair
    >>> split_pair(["m", "comma", "b"], ["m,comma", "b", "c"])
    ('m,comma', 'b')
    """
    parts = [str(p) for p in parts]
    if len(parts) == 2:
        return parts[0], parts[1]
    fits = comma_splits(",".join(parts), models, parts=2)  # the one rule of names with commas
    if len(fits) != 1:
        raise ValidationError(
            f"--pair {','.join(parts)!r} must split at one comma into two model names of these "
            f"data; {'several splits do' if fits else 'no split does'} (models: "
            f"{', '.join(map(repr, models))})"
        )
    return fits[0]


def _subset_parse(text: str, flag: str = "--subset") -> tuple[str, tuple[str, ...]]:
    attr, sep, values = (t.strip() for t in text.partition("="))
    vals = split_names(values)
    if not sep or not attr or not vals:
        raise argparse.ArgumentTypeError(
            f"{flag} expects ATTRIBUTE=VALUE (or ATTRIBUTE=V1,V2 for several values), e.g. "
            f"source=medmcqa; got {text!r}"
        )
    return attr, vals


def _subset() -> Any:
    # An analysis setting, not a loader option: it picks questions of the loaded data by
    # their attributes (any format, after assembly), so a page switches subsets without
    # reloading, the per-subset tables see every subset of one load, and the report's
    # settings line and notebook cell name it.
    return setting(
        None, Said(
            "analyse only the questions whose attribute has this value",
            Only("python", ": (ATTRIBUTE, VALUES) or 'ATTRIBUTE=V1,V2', e.g. ('source', "
                 "['medmcqa']) (question attributes: data.question_attributes)"),
            Only("cli", ": ATTRIBUTE=VALUE, or ATTRIBUTE=V1,V2 for any of several (question "
                 "attributes: `scorio-studio info`), e.g. source=medmcqa"),
            Only("app", " (the data's question attributes: the Data page)"),
            "; the same estimands and calibration, on the subset's questions"),
        parse=_subset_parse, label="Subset", unset="all questions",
    )


def check_subset(value) -> tuple[str, tuple[str, ...]] | None:
    """``subset`` as ``(attribute, (value, ...))`` (``None`` stays ``None``; a string is read
    as ``--subset`` reads it).

    Example
    -------
    >>> from scorio_core.params import check_subset
    >>> check_subset(("source", "arc")), check_subset(["source", ["arc", "gsm"]])
    (('source', ('arc',)), ('source', ('arc', 'gsm')))
    >>> check_subset("source=arc, gsm")  # as --subset reads it
    ('source', ('arc', 'gsm'))
    """
    if value is None:
        return None
    if isinstance(value, str):  # "source=arc,gsm", as --subset reads it
        try:
            return _subset_parse(value, "subset")
        except argparse.ArgumentTypeError as exc:
            raise ValidationError(str(exc)) from None
    if isinstance(value, bytes) or len(value) != 2:
        raise ValidationError(
            f"subset must be (attribute, values), e.g. ('source', ['medmcqa']); got {value!r}"
        )
    attr, vals = value
    vals = (vals,) if isinstance(vals, str) else tuple(str(v) for v in vals)
    if not str(attr).strip() or not vals or not all(v.strip() for v in vals):
        raise ValidationError(f"subset needs an attribute and at least one value; got {value!r}")
    return str(attr).strip(), tuple(v.strip() for v in vals)


def _by() -> Any:
    return setting(
        None, Said(
            "the per-subset table: the analysis on the questions of each value of this "
            "question attribute alone (e.g. source); ",
            Only("python", "default: no table"), Only("cli", "default: no table"),
            Only("app", "a page starts with the data's first attribute")),
        label="Per subset", unset="none (no per-subset table)",
    )


@checked_keywords
@dataclass(frozen=True)
class LeaderboardParams:
    """Settings of the leaderboard (the Leaderboard page's widgets, ``scorio-studio
    leaderboard``). Each field's declaration (:func:`setting`) says what it does."""

    confidence: float = _confidence()
    prior: str = _prior("greedy: the file's greedy outcomes R0 enter the papers' Bayes@N "
                        "prior (the bayes_* columns; the headline uses the sampled trials)")
    ks: tuple[int, ...] = setting((), "Pass@k columns, e.g. 2,4,8 (binary data only)",
                                  cli="--k", parse=ks_parse("--k"), label="Pass@k columns",
                                  unset="none")
    weights: tuple[float, ...] | None = setting(
        None, "category weights (default: the dataset's)", cli=None, unset="the data's"
    )
    scope: str = _scope("the estimand of the intervals and decisions")
    adjust: str = _adjust()
    draws: int = _draws("draws of the confidence distribution (p_best, rank distribution) "
                        "and of the simultaneous procedure's null")
    seed: int = seed_setting()
    subset: tuple[str, tuple[str, ...]] | None = _subset()
    by: str | None = _by()
    spread_prior: str | None = _spread_prior()

    def __post_init__(self) -> None:
        validate(self)
        object.__setattr__(self, "subset", check_subset(self.subset))
        ks = as_numbers(self.ks, "ks", parse=ks_parse("ks"), example="2,4")
        for k in ks:
            if isinstance(k, bool) or not isinstance(k, int) or k < 1:
                raise ValidationError(f"ks must be whole numbers >= 1; got {list(ks)!r}")
        object.__setattr__(self, "ks", ks)
        if self.weights is not None:
            w = tuple(float(x) for x in as_numbers(self.weights, "weights", kind=float,
                                                   example="0,0.5,1"))
            if len(w) < 2 or not all(math.isfinite(x) for x in w):
                raise ValidationError(
                    f"weights must be at least two finite numbers; got {list(self.weights)!r}"
                )
            object.__setattr__(self, "weights", w)


#: Where a prior on the field's spread learned from earlier runs comes from and how it is
#: given, as each surface does it: the words inside "a prior learned from your earlier runs
#: (...)" of a caveat or a help text that points to one.
LEARNED_SPREAD_PRIOR = Said(
    Only("python", "sc.fit_spread_prior(runs), given as "),
    Only("cli", "scorio-studio spread-prior RUNS -o FILE, given as "),
    Mention(LeaderboardParams, "spread_prior"), Only("cli", " FILE"),
    Only("app", " on the Leaderboard and Planner pages"))


@checked_keywords
@dataclass(frozen=True)
class PlanParams:
    """Settings of the planner (the Planner page's widgets, ``scorio-studio plan``). Each
    field's declaration (:func:`setting`) says what it does."""

    confidence: float = _confidence(text="decision level: which pairs count as undecided")
    scope: str = _scope("scope whose decisions define the undecided pairs")
    adjust: str = _adjust()
    assurance: float = _assurance()
    prior: str = _prior("greedy: R0 enters the papers' Bayes@N prior (trials_needed_papers)")
    budget_trials: int = setting(
        0, "extra trials per question to split across models (one unit = one model answering "
        "every question once more); 0: L x N, as many trials again", integer=True, minimum=0,
        maximum=1_000_000, page_max=10_000, label="Extra trials (budget)")
    lead: float = setting(
        0.0, "smallest true lead that matters, in score units: also plan the trials and "
        "questions that decide any lead at least this large with the stated chance, whatever "
        "the field (trials_for_lead, questions_for_lead); 0: off", minimum=0.0,
        label="Lead that matters")
    draws: int = _draws("draws of the leaderboard's confidence distribution")
    seed: int = seed_setting("seed of the draws and of the order-curve simulation")
    spread_prior: str | None = _spread_prior()
    pair: tuple[str, str] | None = setting(
        None, "the pair of the decision / order curve, e.g. 'model a,model b' (default: the "
        "first undecided adjacent pair)", parse=_pair_parse, label="Pair",
        parts=("Better model", "Other model"), unset="the first undecided adjacent pair")
    n_max: int | None = setting(
        None, "largest trials per question of the curve (2-4096; default reaches 1.25 x the "
        "first pair's trials_needed)", integer=True, minimum=2, maximum=4096, label="Largest N",
        unset="1.25 × the first undecided pair's trials needed (4 × N when none is), within 64 "
        "to 4,096")  # planner.curve_settings' rule
    sims: int = setting(2000, "simulated tables per N of the papers' order curve", integer=True,
                        minimum=100, maximum=200_000, cli="--replicates", aliases=("--sims",),
                        label="Simulated tables per N")

    def __post_init__(self) -> None:
        validate(self)
        if self.pair is not None:  # a string: split as --pair is, at its comma
            pair = as_names(self.pair, "pair", noun="model names", example="model a,model b",
                            parse=lambda text: _pair_parse(text, "pair"))
            if len(pair) > 2 and isinstance(self.pair, str):  # a name with a comma
                raise ValidationError(
                    f"pair {self.pair!r} splits at its commas into {len(pair)} names: pass the "
                    "two model names as a list (a name may hold a comma)")
            if len(pair) != 2 or pair[0] == pair[1]:
                raise ValidationError(
                    f"pair must name two different models; got {list(self.pair)!r}"
                )
            object.__setattr__(self, "pair", pair)


def _methods(default: str, label: str = "Methods") -> Any:
    return setting(default, "'all', a family name, or comma-separated method ids",
                   label=label)


def _check_methods(obj) -> None:
    """Check ``obj.methods``; a sequence of ids (a notebook's ``methods=["bayes", "avg"]``)
    becomes the comma-separated text the CLI and the session file hold."""
    from .definitions._base import resolve_methods  # the registry: loaded only to validate

    ids = resolve_methods(obj.methods)
    if not isinstance(obj.methods, str):
        object.__setattr__(obj, "methods", ",".join(ids))


@dataclass(frozen=True)
class _MethodsParams:
    methods: str = _methods("all")

    def __post_init__(self) -> None:
        _check_methods(self)
        validate(self)


@checked_keywords
@dataclass(frozen=True)
class CompareParams(_MethodsParams):
    """Settings of the method comparison (``scorio-studio compare``, Method comparison page)."""


@checked_keywords
@dataclass(frozen=True)
class StabilityParams(_MethodsParams):
    """Settings of the N = 1 stability analysis (Stability page, ``scorio-studio stability``)."""

    methods: str = _methods("all", "Method families")  # the page picks whole families


@checked_keywords
@dataclass(frozen=True)
class GreedyParams:
    """Settings of greedy vs sampling (Greedy page, ``scorio-studio greedy``)."""

    replicates: int = setting(50, "column-wise resampled datasets for the N = 1 statistics "
                              "(the paper uses 50)", integer=True, minimum=2, page_max=5000,
                              label="Resampled datasets")
    seed: int = seed_setting()

    def __post_init__(self) -> None:
        validate(self)


#: Resampling schemes with what each resamples.
SCHEMES = {
    "column": "column-wise: resample trial indices",
    "row": "row-wise: resample each question's trials",
    "permutation": "permutation: shuffle trial order",
}
#: Targets a ranking is compared with.
TARGETS = {
    "gold": "gold standard (Bayes@N on all trials)",
    "self": "each method's own full-trial ranking",
    "truth": "known true means (simulated data)",
}
#: When a replicate counts as converged.
MATCHES = {
    "exact": expand("exact: the ranking equals the target (000 App. I.1)"),
    "ci": "with CI: decided pairs in the target's order; CI ties may swap",
}


@checked_keywords
@dataclass(frozen=True)
class ConvergenceParams:
    """Settings of the convergence analysis (Convergence page, ``scorio-studio convergence``).

    ``curve_replicates=None`` skips the τ_b curves (the CLI prints only convergence@n);
    ``slow_replicates=None`` uses ``replicates`` and ``curve_replicates`` for methods
    without a fast path too.
    """

    methods: str = _methods("bayes,pass_at_k_2,pass_at_k_4,pass_at_k_8")
    replicates: int = setting(10_000, "bootstrap replicates for convergence@n (the papers use "
                              "100,000)", integer=True, minimum=2, page_max=200_000,
                              label="Replicates for convergence@n")
    curve_replicates: int | None = setting(1000, "replicates for the τ_b curves (None: no "
                                           "curves)", integer=True, minimum=2, optional=True,
                                           cli=None, page_max=20_000,
                                           label="Replicates for curves",
                                           unset="none (no τ_b curves)")
    slow_replicates: int | None = setting(10, "replicates for methods without a fast path, "
                                          "which re-rank the data at every step of every "
                                          "replicate (None: as the others)", integer=True,
                                          minimum=2, optional=True, cli=None, page_max=500,
                                          label="Replicates for re-ranked methods",
                                          unset="as the other methods")
    seed: int = seed_setting()
    scheme: str = setting("column", "resampling scheme", choices=tuple(SCHEMES),
                          choice_help=SCHEMES, label="Resampling")
    target: str = setting("gold", "what each replicate's ranking is compared with (truth "
                          "needs the file's known true means, e.g. the biased coins)",
                          choices=tuple(TARGETS), choice_help=TARGETS, label="Target")
    match: str = setting("exact", "when a replicate counts as converged",
                         choices=tuple(MATCHES), choice_help=MATCHES,
                         label="A replicate has converged when")

    def __post_init__(self) -> None:
        _check_methods(self)
        validate(self)


@checked_keywords
@dataclass(frozen=True)
class PairParams:
    """Settings of the pair view (Pair page, ``scorio-studio pair PATH A B``): two models
    question by question. ``a``/``b`` left out: the two models with the highest mean score;
    ``question`` left out: the question that contributes most to their gap -- the first row
    of the questions table; for an exact tie (no gap), the one whose score difference is
    largest either way (the first in the data's order among equal ones)."""

    a: str | None = setting(None, "the first model (the difference is a - b; default: the "
                            "model with the highest mean score)", cli=None, label="Model A",
                            unset="the model with the highest mean score")
    b: str | None = setting(None, "the second model (default: the best other model)",
                            cli=None, label="Model B", unset="the best other model")
    confidence: float = _confidence(text="level of the intervals of the difference (both "
                                    "scopes); the pair is decided when it excludes 0")
    question: str | None = setting(None, "the question whose completions are shown side by "
                                   "side (default: the one that contributes most to the gap; "
                                   "for an exact tie, the one whose difference is largest "
                                   "either way)",
                                   label="Question",
                                   unset="the one that contributes most to the gap")
    top: int = setting(20, "questions listed and charted as driving the gap", integer=True,
                       minimum=1, maximum=10_000, label="Questions shown")

    def __post_init__(self) -> None:
        validate(self)
        for k in ("a", "b", "question"):
            v = getattr(self, k)
            if v is not None:
                if not isinstance(v, str) or not v.strip():
                    raise ValidationError(f"{k} must be a non-empty name; got {v!r}")
        if self.a is not None and self.a == self.b:
            raise SettingsConflict(PairParams, "{a} and {b} must be two different models",
                                   a=self.a, b=self.b)


@checked_keywords
@dataclass(frozen=True)
class CheckParams:
    """Settings of the check of a smaller run (the Check page, ``scorio-studio check``):
    smaller runs drawn from this run's shares, analysed as the leaderboard would."""

    trials: int | None = setting(
        None, "trials per question of the smaller runs (default: 4, or this run's N / 4 when "
        "fewer); at most N / 4, so that this run's shares can stand in for the truth",
        integer=True, minimum=1, maximum=1_000_000, label="Trials per question",
        unset="4, or this run's N / 4 when fewer")
    questions: int | None = setting(
        None, "questions of the smaller runs, drawn with replacement from this run's "
        "(default: as many as this run has)", integer=True, minimum=2, maximum=1_000_000,
        page_max=100_000,
        label="Questions", unset="as many as this run has")
    models: int | None = setting(
        None, "models per run of the p_best check, drawn at random from this run's "
        "(default: all of them — the check is about this field)", integer=True, minimum=2,
        maximum=100_000, label="Models (p_best check)", unset="all of this run's")
    reps: int = setting(200, "smaller runs drawn per scope and check (the shares' standard "
                        "errors shrink as one over the square root of their number)",
                        integer=True, minimum=10, maximum=1_000_000, page_max=100_000,
                        label="Smaller runs", cli="--replicates", aliases=("--reps",))
    confidence: float = _confidence()
    adjust: str = _adjust()
    plan_reps: int = setting(
        0, "smaller runs of the Planner check per scope: plan each undecided "
        "pair's trials and questions for the stated chance, draw what the plan asks for and "
        f"decide again; split a budget of {SPLIT_TRIALS_PER_MODEL} extra trials per question "
        "per model as the Planner "
        "recommends, draw them and decide again (0: skip; about 0.2 s per run of 9 models)",
        integer=True, minimum=0, maximum=100_000, label="Planner runs (0 = skip)",
        cli="--plan-replicates", aliases=("--plan-reps",))
    assurance: float = _assurance()
    max_questions: int = setting(
        CHECKED_QUESTIONS, "the Planner check draws the population scope's question plans up "
        f"to this many questions and counts larger ones as skipped; {MAX_QUESTIONS:,} (the "
        "Planner's own limit) draws every plan — at 30 questions x 4 trials most plans are "
        "larger, and drawing them takes about 7 times as long", integer=True, minimum=1,
        maximum=MAX_QUESTIONS, label="Largest question plan drawn")
    spread_history: int = setting(
        0, Said("p_best and the Planner check's chances read a prior on the field's spread "
                "learned from this many other smaller runs drawn from these data — what a "
                "prior learned from your earlier runs (", LEARNED_SPREAD_PRIOR, ") would do "
                "on runs like this one; 0: the flat prior (the default), otherwise at least "
                "5"), integer=True, minimum=0, maximum=1000, label="Spread prior from (runs)")
    draws: int = setting(2000, "draws of each smaller run's confidence distribution (p_best)",
                         integer=True, minimum=100, maximum=10_000_000)
    seed: int = seed_setting()

    def __post_init__(self) -> None:
        validate(self)
        from .spread_prior import MIN_FIELDS

        if 0 < self.spread_history < MIN_FIELDS:
            raise ValidationError(f"spread_history must be 0 (the flat prior) or at least "
                                  f"{MIN_FIELDS} runs; got {self.spread_history}")


#: Curves of the Pass family: ``kind`` of :func:`scorio_core.eval.pass_from_counts` -> name.
CURVE_KINDS = {"pass": "Pass@k", "hat": "Pass^k", "g": "G-Pass@k_τ"}


def kinds_parse(flag: str) -> Any:
    """The parser of comma-separated curves (``--curves pass,hat``; ``kinds="pass,hat"`` of
    :class:`CurvesParams` and ``sc.pass_curves`` is read by it too), each by its id or its
    name (``Pass@k``), its messages naming ``flag``.

    Example
    -------
    >>> from scorio_core.params import kinds_parse
    >>> kinds_parse("kinds")("Pass@k, hat")
    ('pass', 'hat')
    """
    names = {v.lower(): k for k, v in CURVE_KINDS.items()} | {k: k for k in CURVE_KINDS}
    tau = "tau" if flag.isidentifier() else "--tau"

    def parse(text: str) -> tuple[str, ...]:
        out = tuple(names.get(t.lower(), t) for t in split_names(text))
        bad = [t for t in out if t not in CURVE_KINDS]
        if bad or not out:
            raise argparse.ArgumentTypeError(
                f"{flag} expects comma-separated curves from {', '.join(CURVE_KINDS)} (Pass@k, "
                f"Pass^k, G-Pass@k_τ with {tau}); got {text!r}"
            )
        return out

    return parse


def _tau_parse(text: str) -> float:
    try:
        tau = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--tau expects a number in [0, 1]; got {text!r}") from None
    if not 0.0 <= tau <= 1.0:
        raise argparse.ArgumentTypeError(f"--tau must be between 0 and 1; got {text!r}")
    return tau


@checked_keywords
@dataclass(frozen=True)
class CurvesParams:
    """Settings of the Pass@k / Pass^k curves (the Leaderboard page's curves,
    ``scorio-studio curves``)."""

    kinds: tuple[str, ...] = setting(
        ("pass", "hat"), "the curves: pass (Pass@k), hat (Pass^k), g (G-Pass@k_τ, needs tau)",
        cli="--curves", parse=kinds_parse("--curves"), label="Curves")
    tau: float | None = setting(
        None, "τ of G-Pass@k_τ: the share of the k draws that must succeed (adds the g curve)",
        minimum=0.0, maximum=1.0, parse=_tau_parse, label="G-Pass τ",
        unset="none (no G-Pass@k_τ curve)")
    confidence: float = _confidence(text="level of the pointwise intervals (one per model and k)")
    scope: str = _scope("the estimand of the intervals")
    subset: tuple[str, tuple[str, ...]] | None = _subset()

    def __post_init__(self) -> None:
        validate(self)
        object.__setattr__(self, "subset", check_subset(self.subset))
        kinds = tuple(dict.fromkeys(as_names(self.kinds, "kinds", noun="curves",
                                             example="pass,hat", parse=kinds_parse("kinds"))))
        if not kinds or any(k not in CURVE_KINDS for k in kinds):
            raise ValidationError(
                f"kinds must name curves from {', '.join(CURVE_KINDS)}; got {self.kinds!r}"
            )
        if self.tau is not None and "g" not in kinds:
            kinds = (*kinds, "g")
        if "g" in kinds and self.tau is None:
            raise SettingsConflict(CurvesParams, "the G-Pass@k_τ curve (g in {kinds}) needs "
                                   "{tau}, the share of the k draws that must succeed, e.g. "
                                   "0.5", kinds=kinds, tau=None)
        object.__setattr__(self, "kinds", kinds)


@checked_keywords
@dataclass(frozen=True)
class QuestionsParams:
    """Settings of the question view (Questions page, ``scorio-studio questions``)."""

    top: int = setting(20, "questions listed in the 'models disagree most' table",
                       integer=True, minimum=1, maximum=10_000, page_max=1000,
                       label="Questions listed")
    heatmap_columns: int = setting(
        200, "most question columns the heatmap draws (more questions are binned in "
        "difficulty order; the tables keep every question)", integer=True, minimum=10,
        maximum=2000, label="Heatmap columns")
    irt: bool = setting(True, "fit the 2PL IRT model for difficulty and discrimination "
                        "(binary outcomes)", cli=None, label="2PL IRT")
    subset: tuple[str, tuple[str, ...]] | None = _subset()
    by: str | None = _by()

    def __post_init__(self) -> None:
        validate(self)
        object.__setattr__(self, "subset", check_subset(self.subset))
