"""A rubric as two flat tables, for editing in a spreadsheet-like grid.

**Rules table** -- one row per predicate (literal):

========== ==============================================================
rule       order of the rule (1 = tested first); rows with the same number
           are AND-ed; several rules may give the same category (OR)
category   category the rule assigns
signal     signal the predicate reads
op         ``<``, ``<=``, ``>``, ``>=``, ``==``, ``!=``
value      fixed threshold, or
percentile percentile threshold (0-100) with ``scope`` model / dataset / global
           and optionally ``among`` (``signal op number`` terms joined by ``&``:
           the percentile is taken over those completions only), or
other      another signal, compared completion by completion
negate     true: the predicate must *not* hold
========== ==============================================================

**Categories table** -- ``category, name, weight, description``.

:func:`to_tables` flattens any rubric into this form (conditions are put in
disjunctive normal form: an OR becomes consecutive rules with the same
category, which is the same thing under first-match semantics);
:func:`from_tables` builds and validates a :class:`~scorio_core.rubric.Rubric`
from the tables, naming the offending row in every error.

Example
-------
>>> from scorio_core.rubric.table import to_tables
>>> from scorio_core.rubric import get_preset
>>> rules, cats = to_tables(get_preset("dontpass/exact-match"))
>>> rules[["rule", "category", "signal", "op", "value"]].head(2).values.tolist()
[[1, 0, 'repeated_pattern', '==', 1.0], [2, 0, 'compass_C', '>=', 0.5]]
"""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pandas as pd

from .._validation import ValidationError
from .model import OPS, SCOPES, AllOf, AnyOf, Compare, Condition, Not, Rubric, Rule

__all__ = [
    "RULE_COLUMNS",
    "RULE_HELP",
    "CATEGORY_COLUMNS",
    "to_tables",
    "from_tables",
]

RULE_COLUMNS = [
    "rule",
    "category",
    "signal",
    "op",
    "value",
    "percentile",
    "scope",
    "among",
    "other",
    "negate",
]
CATEGORY_COLUMNS = ["category", "name", "weight", "description"]

Literal = tuple[Compare, bool]  # (predicate, negated)


def _dnf(c: Condition, neg: bool = False) -> list[list[Literal]]:
    """Disjunctive normal form: a list of conjunctions of (possibly negated) predicates."""
    if isinstance(c, Compare):
        return [[(c, neg)]]
    if isinstance(c, Not):
        return _dnf(c.term, not neg)
    if isinstance(c, AllOf | AnyOf):
        conj = isinstance(c, AllOf) != neg  # De Morgan
        parts = [_dnf(t, neg) for t in c.terms]
        if conj:
            return [sum(combo, []) for combo in itertools.product(*parts)]
        return [conj_ for p in parts for conj_ in p]
    raise ValidationError(f"cannot flatten condition of type {type(c).__name__}")


def _among_text(c: Condition | None) -> str:
    if c is None:
        return ""
    dnf = _dnf(c)
    bad = len(dnf) != 1 or any(p.value is None for p, _ in dnf[0])
    if bad:
        raise ValidationError(
            f"the 'among' condition {c.describe(True)!r} is not a plain AND of fixed-threshold "
            "predicates, so this rubric cannot be edited as a table (edit its JSON instead)"
        )
    return " & ".join(f"{'not ' if n else ''}{p.signal} {p.op} {_num(p.value)}" for p, n in dnf[0])


def _num(x: float) -> str:
    return f"{x:g}"


_TERM = re.compile(r"^\s*(not\s+)?([A-Za-z_][\w.\-]*)\s*(<=|>=|==|!=|<|>)\s*([-+0-9.eE]+)\s*$")


def _parse_among(text: str, where: str) -> Condition | None:
    if not text.strip():
        return None
    terms: list[Condition] = []
    for part in text.split("&"):
        m = _TERM.match(part)
        if not m:
            raise ValidationError(
                f"{where}: 'among' must be terms like 'is_correct < 0.5' joined by '&'; "
                f"could not read {part.strip()!r}"
            )
        neg, sig, op, num = m.groups()
        try:
            val = float(num)
        except ValueError:
            raise ValidationError(f"{where}: {num!r} in 'among' is not a number") from None
        term: Condition = Compare(sig, op, value=val)
        terms.append(Not(term) if neg else term)
    return terms[0] if len(terms) == 1 else AllOf(tuple(terms))


def to_tables(rubric: Rubric) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(rules, categories)`` tables of a rubric (see the module docstring)."""
    rows = []
    group = 0
    for rule in rubric.rules:
        for conj in _dnf(rule.when):
            group += 1
            for p, neg in conj:
                rows.append(
                    {
                        "rule": group,
                        "category": rule.category,
                        "signal": p.signal,
                        "op": p.op,
                        "value": np.nan if p.value is None else p.value,
                        "percentile": np.nan if p.percentile is None else p.percentile,
                        "scope": p.scope or "",
                        "among": _among_text(p.among),
                        "other": p.other or "",
                        "negate": bool(neg),
                    }
                )
    rules = pd.DataFrame(rows, columns=RULE_COLUMNS)
    cats = pd.DataFrame(
        {
            "category": np.arange(rubric.C + 1),
            "name": list(rubric.categories),
            "weight": list(rubric.weights),
            "description": list(rubric.category_descriptions),
        }
    )
    return rules, cats


#: What each rules-table column means (tooltips of the Rubric builder's grid).
RULE_HELP = {
    "rule": "order: rule 1 is tested first; rows with the same number are AND-ed",
    "category": "category the rule assigns",
    "signal": "signal the predicate reads",
    "op": "comparison operator",
    "value": "fixed threshold",
    "percentile": "percentile threshold (0-100); needs a scope",
    "scope": "where the percentile is computed: per model, per dataset (benchmark), "
    "or over everything",
    "among": "percentile only over completions matching e.g. 'is_correct < 0.5' "
    "(terms joined by &)",
    "other": "compare with another signal",
    "negate": "the predicate must not hold",
}


def _blank(x) -> bool:
    return (
        x is None
        or (isinstance(x, float) and math.isnan(x))
        or (isinstance(x, str) and not x.strip())
        or x is pd.NA
    )


def _int(x, where: str, what: str) -> int:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise ValidationError(f"{where}: {what} must be a whole number; got {x!r}") from None
    if not math.isfinite(v) or v != int(v):
        raise ValidationError(f"{where}: {what} must be a whole number; got {x!r}")
    return int(v)


def _row_compare(r: dict, where: str) -> tuple[Condition, int, int]:
    if _blank(r.get("signal")):
        raise ValidationError(f"{where}: choose the signal the predicate reads")
    op = r.get("op")
    if op not in OPS:
        raise ValidationError(f"{where}: op must be one of {', '.join(OPS)}; got {op!r}")
    given = {k: r.get(k) for k in ("value", "percentile", "other") if not _blank(r.get(k))}
    if len(given) != 1:
        raise ValidationError(
            f"{where}: give exactly one threshold — 'value', 'percentile' (with 'scope') or "
            f"'other' (a signal); got {', '.join(given) or 'none'}"
        )
    kw: dict = {}
    if "value" in given:
        kw["value"] = given["value"]
    elif "other" in given:
        kw["other"] = str(given["other"]).strip()
    else:
        scope = r.get("scope")
        if _blank(scope) or scope not in SCOPES:
            raise ValidationError(
                f"{where}: a percentile threshold needs scope {', '.join(SCOPES)}; got {scope!r}"
            )
        kw.update(
            percentile=given["percentile"],
            scope=scope,
            among=_parse_among(str(r.get("among") or ""), where),
        )
    if "percentile" not in given:
        for k in ("scope", "among"):
            if not _blank(r.get(k)):
                raise ValidationError(f"{where}: {k!r} only goes with a 'percentile' threshold")
    try:
        cond: Condition = Compare(str(r["signal"]).strip(), op, **kw)
    except ValidationError as exc:
        raise ValidationError(f"{where}: {exc}") from None
    if bool(r.get("negate")) and not _blank(r.get("negate")):
        cond = Not(cond)
    return cond, _int(r.get("rule"), where, "rule"), _int(r.get("category"), where, "category")


def from_tables(
    rules: pd.DataFrame,
    categories: pd.DataFrame,
    *,
    name: str = "Custom rubric",
    default: int | None = None,
    description: str = "",
    intent: str = "",
    source: str = "",
) -> Rubric:
    """Build a :class:`Rubric` from the two tables; errors name the row at fault.

    Rows of ``rules`` whose every field is empty are ignored (a grid's spare rows).
    """
    rules = pd.DataFrame(rules).reindex(columns=RULE_COLUMNS)
    cats = pd.DataFrame(categories).reindex(columns=CATEGORY_COLUMNS)
    cats = cats[~cats.apply(lambda r: all(_blank(v) for v in r), axis=1)]
    if cats.empty:
        raise ValidationError("the categories table is empty; a rubric needs categories 0..C")
    idx = [_int(c, f"categories row {i + 1}", "category") for i, c in enumerate(cats["category"])]
    if sorted(idx) != list(range(len(idx))):
        raise ValidationError(
            f"categories must be numbered 0..{len(idx) - 1} without gaps; got {sorted(idx)}"
        )
    cats = cats.assign(category=idx).sort_values("category")
    names = [str(n).strip() if not _blank(n) else "" for n in cats["name"]]
    for i, n in enumerate(names):
        if not n:
            raise ValidationError(f"category {i} needs a name")
    weights = []
    for i, w in enumerate(cats["weight"]):
        try:
            weights.append(float(w))
        except (TypeError, ValueError):
            raise ValidationError(
                f"weight of category {i} ({names[i]}) must be a number; got {w!r}"
            ) from None
    descs = ["" if _blank(d) else str(d) for d in cats["description"]]

    groups: dict[int, tuple[int, list[Condition], int]] = {}
    for i, r in enumerate(rules.to_dict(orient="records")):
        if all(_blank(v) or v is False for v in r.values()):
            continue
        where = f"rules row {i + 1}"
        cond, g, cat = _row_compare(r, where)
        if g in groups and groups[g][0] != cat:
            raise ValidationError(
                f"{where}: rule {g} already assigns category {groups[g][0]}; rows of one rule "
                "must give the same category (use another rule number for an OR)"
            )
        groups.setdefault(g, (cat, [], i))[1].append(cond)
    built = [
        Rule(cat, terms[0] if len(terms) == 1 else AllOf(tuple(terms)))
        for _, (cat, terms, _) in sorted(groups.items())
    ]
    return Rubric(
        name=name,
        categories=tuple(names),
        weights=tuple(weights),
        rules=tuple(built),
        default=default,
        category_descriptions=tuple(descs),
        description=description,
        intent=intent,
        source=source,
    )
