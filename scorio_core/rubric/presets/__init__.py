"""The rubric presets (SPEC §7), as data: one JSON file per paper's table, and one of ours.

* ``dontpass/*`` (``dontpass.json``) -- the 12 categorical schemata of "Don't Pass@k"
  (2026; App. F, Table 5) built from the rubric variables of its Table 4. Thresholds
  are "computed per dataset", so percentiles use ``scope="dataset"`` (per benchmark, all
  models pooled).
* ``ranking/*`` (``ranking.json``) -- the 8 representative schemes of "Ranking reasoning
  LLMs under test-time scaling" (2026; App. F, Table 21) with their weights and the
  predicates of its App. F.3. "All thresholds are computed per-model", so percentiles use
  ``scope="model"``.
* ``length/*`` (``length.json``) -- not from the papers: a rubric over response length
  (``response_chars``) and correctness (``is_correct``, the outcome of binary data as a
  signal: :data:`~scorio_core.rubric.evaluate.DERIVED_SIGNALS`) for real tables such as
  the bundled sampling-temperature set; its default category collects the completions
  whose length is missing (:data:`~scorio_core.outcomes.MISSING_SIGNAL_RULE`).

Every rule list of the papers' presets starts with category 0 (invalid) and partitions the remaining
completions, so no preset needs a default category. Where a paper's definition is
ambiguous the reading chosen is stated in the preset's ``description`` (and listed in
:data:`READINGS`). Each entry of a file is a rubric in the format of
:meth:`Rubric.to_json <scorio_core.rubric.model.Rubric.to_json>`, validated by
:mod:`scorio_core.rubric.schema`; the files are read on first use of :data:`PRESETS`.

Example
-------
>>> from scorio_core.rubric.presets import PRESETS, get_preset
>>> len(PRESETS)
21
>>> get_preset("ranking/conservative").weights
(0.0, -0.1, 0.05, 1.0)
"""

from __future__ import annotations

import difflib
import json
import re
import threading
from importlib.resources import files
from typing import Any

import pandas as pd

from ..._validation import ValidationError, checked_keywords
from ...references import expand
from ..model import Rubric

__all__ = ["PRESETS", "READINGS", "list_presets", "get_preset"]

#: The table files in the order of :data:`PRESETS`; a file's stem prefixes its keys.
TABLES = ("dontpass", "ranking", "length")
_LOADED: dict[str, Any] = {}
_LOCK = threading.Lock()  # the app's sessions are threads: one reading, one set of objects


def _load() -> dict[str, Any]:
    """Read and validate every table file once (pydantic and the files stay unread until
    a preset is asked for: importing the rubric package is free of both)."""
    with _LOCK:
        if _LOADED:
            return _LOADED
        from ..schema import parse_presets

        presets: dict[str, Rubric] = {}
        for stem in TABLES:
            text = files(__name__).joinpath(f"{stem}.json").read_text(encoding="utf-8")
            # the papers by title in every text a reader sees (name, description, source)
            table = parse_presets(json.loads(expand(text)), f"{stem}.json")
            presets |= {f"{stem}/{k}": r for k, r in table.items()}
        readings = {
            k: r.description.split("Reading: ", 1)[1]
            for k, r in presets.items()
            if "Reading: " in r.description
        }
        _LOADED.update(PRESETS=presets, READINGS=readings)
        return _LOADED


def __getattr__(name: str) -> Any:
    # PRESETS: every preset by key (dontpass/... = 000 Table 5, ranking/... = 002 Table 21);
    # READINGS: the readings chosen where a paper is ambiguous, by preset key.
    if name in ("PRESETS", "READINGS"):
        return _load()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@checked_keywords
def list_presets() -> pd.DataFrame:
    """One row per preset: ``key, name, paper, categories, weights, intent, source``."""
    return pd.DataFrame(
        [
            {
                "key": k,
                "name": r.name,
                "paper": k.split("/", 1)[0],
                "categories": r.C + 1,
                "weights": list(r.weights),
                "intent": r.intent,
                "source": r.source,
            }
            for k, r in _load()["PRESETS"].items()
        ]
    )


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", s.lower())


@checked_keywords
def get_preset(name: str) -> Rubric:
    """The preset with this key; a unique case/punctuation-insensitive match of a key,
    its last part or a preset's display name is also accepted.

    Raises :class:`ValidationError` for unknown or ambiguous names, with close matches.
    """
    if not isinstance(name, str):
        raise ValidationError(f"preset name must be a string; got {type(name).__name__}")
    presets = _load()["PRESETS"]
    if name in presets:
        return presets[name]
    n = _norm(name)
    hits = [
        k
        for k, r in presets.items()
        if n and n in (_norm(k), _norm(k.split("/", 1)[1]), _norm(r.name))
    ]
    if len(hits) == 1:
        return presets[hits[0]]
    if len(hits) > 1:
        raise ValidationError(f"preset name {name!r} is ambiguous: {', '.join(hits)}")
    close = difflib.get_close_matches(name, list(presets), n=3, cutoff=0.4)
    tails = sorted({k.split("/", 1)[1] for k in presets})
    for t in difflib.get_close_matches(name.lower(), tails, n=2, cutoff=0.5):
        close += [k for k in presets if k.endswith("/" + t)]
    close = list(dict.fromkeys(close))[:4]
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    raise ValidationError(f"unknown rubric preset {name!r}{hint} (available: {', '.join(presets)})")
