"""The Rubric builder's editable form of a rubric (app only; Streamlit-free): the two
tables of :mod:`scorio_core.rubric.table` plus the fields beside them, the blank starting
point, preset labels and download names."""

from __future__ import annotations

import numpy as np
import pandas as pd

from scorio_core.rubric import Rubric
from scorio_core.rubric.table import RULE_COLUMNS, to_tables

__all__ = ["EDITOR_FIELDS", "RULE_PARTS", "RULE_READ", "RULE_MORE", "editor_state",
           "blank_tables", "more_rows", "joined_rules", "preset_label", "rubric_filename"]


def editor_state(rubric: Rubric | None = None) -> dict:
    """The editable form of ``rubric`` (``None``: the blank starting point): ``rules`` and
    ``cats`` tables plus the fields the tables do not hold (name, default, texts).

    :func:`from_tables` with ``rules``, ``cats`` and those fields gives the rubric back.

    Example
    -------
    >>> from scorio_core.rubric import get_preset
    >>> from scorio_core.rubric.table import from_tables
    >>> p = get_preset("ranking/conservative")
    >>> s = editor_state(p)
    >>> r = from_tables(s["rules"], s["cats"], **{k: s[k] for k in EDITOR_FIELDS})
    >>> (r.name, r.weights, r.default) == (p.name, p.weights, p.default)
    True
    >>> editor_state()["name"], editor_state()["default"]
    ('Custom rubric', None)
    """
    if rubric is None:
        rules, cats = blank_tables()
        meta = {"name": "Custom rubric", "default": None, "intent": "", "description": "",
                "source": ""}
        return {"rules": rules, "cats": cats, **meta}
    rules, cats = to_tables(rubric)
    return {"rules": rules, "cats": cats, **{k: getattr(rubric, k) for k in EDITOR_FIELDS}}


#: Rubric fields that live beside the two tables in :func:`editor_state`.
EDITOR_FIELDS = ("name", "default", "intent", "description", "source")


#: The rules editor's two parts, one under the other: each row's test of its signal (with
#: the rule it belongs to and the category that rule gives), then the same rows' thresholds
#: other than a fixed value -- a percentile over a scope, among some completions, or another
#: signal. The ten columns side by side, with their pencil marks, ran 254 px past the main
#: column of a 1024 px window.
RULE_PARTS = (("rule", "category", "signal", "op", "value", "negate"),
              ("rule", "signal", "percentile", "scope", "among", "other"))
#: The columns of the second part that say which row it is: read there, edited in the first.
RULE_READ = ("rule", "signal")
#: The columns edited in the second part (and only there).
RULE_MORE = tuple(c for c in RULE_PARTS[1] if c not in RULE_READ)


def more_rows(first: pd.DataFrame, kept: pd.DataFrame | None = None) -> pd.DataFrame:
    """The second part's rows for the rows ``first`` (the first part's edited table, its rows
    by the index the editor gives them: a row keeps its number when another is deleted, an
    added one gets a new number): each row's :data:`RULE_READ` as the first part has them and
    its :data:`RULE_MORE` as ``kept`` (the second part's last edited rows, by the same index)
    holds them, else as ``first`` does (an added row: blank).

    The second part is drawn anew when the first adds or deletes a row (its rows are
    fixed); its rows then start from these, so a threshold edited there stays with its row.

    Example
    -------
    >>> first = pd.DataFrame({"rule": [1, 3], "signal": ["a", "c"], "percentile": [None, None],
    ...                       "scope": ["", ""], "among": ["", ""], "other": ["", ""]},
    ...                      index=[0, 2])  # row 1 deleted
    >>> kept = pd.DataFrame({"percentile": [75.0, 80.0, 10.0], "scope": ["dataset"] * 3,
    ...                      "among": [""] * 3, "other": [""] * 3})
    >>> rows = more_rows(first, kept)
    >>> rows.index.tolist(), rows["signal"].tolist(), rows["percentile"].tolist()
    ([0, 2], ['a', 'c'], [75.0, 10.0])
    """
    rows = first[list(RULE_PARTS[1])].copy()
    if kept is not None:
        common = rows.index.intersection(kept.index)
        for c in RULE_MORE:
            rows[c] = rows[c].astype(object) if rows[c].dtype != kept[c].dtype else rows[c]
            rows.loc[common, c] = kept.loc[common, c]
        rows = rows.infer_objects()
    return rows


def joined_rules(first: pd.DataFrame, more: pd.DataFrame) -> pd.DataFrame:
    """The one table of rules from the two parts' edited rows (by the same index):
    :data:`RULE_MORE` from ``more``, every other column from ``first``; numbered afresh."""
    return first.assign(**{c: more[c] for c in RULE_MORE}).reset_index(drop=True)


def preset_label(key: str) -> str:
    """``"<preset name> — <source>"`` for a preset key (the papers' tables cited by title,
    or the length rubric for real tables).

    Example
    -------
    >>> preset_label("dontpass/exact-match")
    "Exact Match — Don't Pass@k (2026), Table 5"
    """
    from scorio_core.references import cite
    from scorio_core.rubric.presets import PRESETS

    table = key.split("/", 1)[0]
    paper = {"dontpass": cite("000", "Table 5"),
             "ranking": cite("002", "Table 21")}.get(table, "response length")
    return f"{PRESETS[key].name} — {paper}"


def rubric_filename(rubric: Rubric) -> str:
    """A safe ``.json`` file name from the rubric's name.

    Example
    -------
    >>> from scorio_core.rubric import get_preset
    >>> rubric_filename(get_preset("ranking/format-aware"))
    'Format_aware.json'
    """
    return "".join(ch if ch.isalnum() else "_" for ch in rubric.name) + ".json"


def blank_tables() -> tuple[pd.DataFrame, pd.DataFrame]:
    """A starting point: invalid / wrong / correct from ``is_correct`` and ``repeated_pattern``."""
    rules = pd.DataFrame(
        [
            {"rule": 1, "category": 0, "signal": "repeated_pattern", "op": "==", "value": 1.0},
            {"rule": 2, "category": 2, "signal": "is_correct", "op": ">=", "value": 0.5},
            {"rule": 3, "category": 1, "signal": "is_correct", "op": "<", "value": 0.5},
        ]
    ).reindex(columns=RULE_COLUMNS)
    rules["percentile"] = np.nan
    rules[["scope", "among", "other"]] = ""
    rules["negate"] = False
    cats = pd.DataFrame(
        {
            "category": [0, 1, 2],
            "name": ["invalid", "wrong", "correct"],
            "weight": [0.0, 0.0, 1.0],
            "description": ["", "", ""],
        }
    )
    return rules, cats


