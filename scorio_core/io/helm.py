"""HELM run outputs: ``per_instance_stats.json`` with the sibling ``run_spec.json``.

``helm-run`` writes one directory per run (``benchmark_output/runs/<suite>/<run name>/``)
holding ``run_spec.json`` (``name``, ``adapter_spec.model``,
``adapter_spec.num_train_trials``) and ``per_instance_stats.json``: a list of
``{"instance_id", "train_trial_index", "perturbation"?, "stats": [{"name": {"name",
"split", ...}, "count", "sum", "mean", ...}]}``. Question = ``instance_id``, trial =
``train_trial_index``, outcome = the mean of the stat named by ``scorer`` (default
``exact_match``). Perturbed copies of instances (``perturbation`` set) are skipped.
Benchmark = the run name without its ``model=`` / ``model_deployment=`` arguments.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from .._validation import ValidationError
from ._base import _Src
from ._logs import LogPart, choose_scorer

__all__: list[str] = []  # read through scorio_core.io.load

DEFAULT_STAT = "exact_match"


def is_instance_stats(obj: Any) -> bool:
    """Whether a parsed JSON document is a HELM ``per_instance_stats.json``."""
    return (
        isinstance(obj, list)
        and bool(obj)
        and isinstance(obj[0], dict)
        and "instance_id" in obj[0]
        and "stats" in obj[0]
    )


def _run_spec(src: _Src, siblings: Mapping[str, _Src]) -> tuple[str, str, int | None]:
    spec_src = next(
        (v for k, v in siblings.items() if PurePosixPath(k).name == "run_spec.json"), None
    )
    if spec_src is None:
        raise ValidationError(
            f"{src.label}: no run_spec.json next to it (HELM writes one in each run directory; "
            "it names the model); load the run directory"
        )
    try:
        spec = json.loads(spec_src.read())
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ValidationError(f"{spec_src.label}: not JSON ({exc})") from None
    adapter = spec.get("adapter_spec") if isinstance(spec, dict) else None
    model = (adapter or {}).get("model") or (adapter or {}).get("model_deployment")
    if not model:
        raise ValidationError(f"{spec_src.label}: adapter_spec.model is missing")
    name = str(spec.get("name") or PurePosixPath(src.label).parent.name)
    head, _, args = name.partition(":")
    kept = [a for a in args.split(",") if a and not re.match(r"^model(_deployment)?=", a)]
    bench = head + (":" + ",".join(kept) if kept else "")
    return str(model), bench, (adapter or {}).get("num_train_trials")


def read_stats(
    src: _Src, obj: Any, scorer: str | None, siblings: Mapping[str, _Src]
) -> LogPart:
    """One parsed ``per_instance_stats.json`` as a :class:`LogPart`."""
    model, bench, n_trials = _run_spec(src, siblings)
    part = LogPart(src.label, "helm", model, bench)
    available = list(
        dict.fromkeys(
            s["name"]["name"]
            for r in obj if isinstance(r, dict) and not r.get("perturbation")
            for s in r.get("stats", []) if isinstance(s, dict) and isinstance(s.get("name"), dict)
        )
    )  # fmt: skip
    if scorer is None and DEFAULT_STAT in available:
        scorer = DEFAULT_STAT
    part.scorer = choose_scorer(available, scorer, part, "stat")
    for i, r in enumerate(obj):
        if not isinstance(r, dict) or "instance_id" not in r:
            raise ValidationError(f"{src.label}: item {i} has no 'instance_id'")
        if r.get("perturbation"):
            continue
        where = f"item {i} (instance_id {r['instance_id']})"
        stat = next(
            (
                s for s in r.get("stats", [])
                if isinstance(s, dict) and (s.get("name") or {}).get("name") == part.scorer
                and not (s.get("name") or {}).get("perturbation")
            ),
            None,
        )  # fmt: skip
        trial = r.get("train_trial_index", 0)
        if stat is None:
            part.add(r["instance_id"], trial, None, where, f"no {part.scorer!r} stat")
            continue
        value = stat.get("mean")
        if value is None and stat.get("count"):
            value = stat.get("sum", 0) / stat["count"]
        part.add(r["instance_id"], trial, value, where)
    if isinstance(n_trials, int) and n_trials >= 1:
        part.declared_trials = list(range(n_trials))
        part.trials_from = f"run_spec.json (adapter_spec.num_train_trials = {n_trials})"
    return part
