"""Adding files to data already loaded, without merging silently.

A second upload used to be read together with the first: the same results as a CSV and
as Inspect logs became 32 "models", each twice (``o3-mini (high)`` and
``matharena/o3-mini (high)``), with halved ``p_best`` and no warning.
:func:`check_upload` compares the new files with the current dataset and says what would
collide -- model names that differ only by a provider prefix, case or spacing, and
(model, question) cells present in both -- and which choices there are;
:func:`apply_upload` carries out the one the user picks:

* ``"replace"`` -- the new files alone;
* ``"add_benchmark"`` -- the new files as another benchmark beside the current data,
  their near-duplicate model names mapped onto the current ones (a model present in
  only one of them makes missing cells, refused as any missing cells are);
* ``"add"`` -- offered only when nothing collides: the union (new models or questions);
* ``"cancel"`` -- keep the current data (:func:`apply_upload` returns it unchanged).

Example
-------
>>> from scorio_core.io import load
>>> from scorio_core.io.upload import apply_upload, check_upload
>>> cur = load(b"model,question,trial,outcome\\no3,q1,0,1\\no3,q2,0,0\\n", filename="a.csv")
>>> new = b"model,question,trial,outcome\\nmatharena/o3,q1,0,1\\nmatharena/o3,q2,0,0\\n"
>>> chk = check_upload(cur, new, filename="b.csv")
>>> chk.near_duplicates, chk.duplicate_cells, chk.choices
((('o3', 'matharena/o3'),), 2, ('replace', 'add_benchmark', 'cancel'))
>>> apply_upload(chk, "add_benchmark").benchmark_names
['a', 'b']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .._lazy import lazy_module
from .._validation import ValidationError
from ..formatting import count_text
from ..outcomes import Outcomes
from ._assemble import _from_frame
from .options import LoadOptions, options_from
from .table import to_long_frame

if TYPE_CHECKING:
    import polars as pl
else:
    pl = lazy_module("polars")

__all__ = ["UploadCheck", "check_upload", "apply_upload", "model_key", "CHOICES"]

CHOICES = {
    "replace": "use the new files instead of the current data",
    "add_benchmark": "add the new files as another benchmark (same models, other questions)",
    "add": "add the new models/questions to the current data (nothing collides)",
    "cancel": "keep the current data",
}


def model_key(name: str) -> str:
    """What makes two model names the same model: no provider prefix (up to the last
    ``/``), case and runs of white space ignored."""
    return re.sub(r"\s+", " ", name.rsplit("/", 1)[-1]).strip().casefold()


@dataclass(frozen=True)
class UploadCheck:
    """What adding ``new`` to ``current`` would do, and the choices it leaves.

    Attributes
    ----------
    current, new : Outcomes
    near_duplicates : tuple of (current name, new name)
        Different names of one model (:func:`model_key`).
    same_models : tuple of str
        Names present in both exactly.
    duplicate_cells : int
        (model, question) pairs that both hold, after mapping near-duplicate names.
    choices : tuple of str
        Keys of :data:`CHOICES`, the recommended first.
    message : str
        One paragraph for the page: what collides and what each choice does.
    """

    current: Outcomes
    new: Outcomes
    near_duplicates: tuple[tuple[str, str], ...]
    same_models: tuple[str, ...]
    duplicate_cells: int
    choices: tuple[str, ...]
    message: str

    @property
    def conflict(self) -> bool:
        return bool(self.near_duplicates or self.duplicate_cells)


def check_upload(
    current: Outcomes, new: Any, options: LoadOptions | None = None, **load_kw: Any
) -> UploadCheck:
    """Compare new files (anything :func:`scorio_core.io.load` reads, or an
    :class:`Outcomes`) with the ``current`` dataset; nothing is merged here."""
    if not isinstance(new, Outcomes):
        from . import load

        filename = load_kw.pop("filename", None)
        new = load(new, options_from(options, load_kw), filename=filename)
    cur_keys: dict[str, str] = {}
    for m in current.models:
        cur_keys.setdefault(model_key(m), m)
    same = tuple(m for m in new.models if m in current.models)
    near = tuple(
        (cur_keys[model_key(m)], m)
        for m in new.models
        if m not in current.models and model_key(m) in cur_keys
    )
    rename = {b: a for a, b in near}
    shared_q = set(current.questions) & set(new.questions)
    models = {rename.get(m, m) for m in new.models} & set(current.models)
    dup = len(models) * len(shared_q)
    parts = []
    if near:
        shown = ", ".join(f"{b!r} (new) ~ {a!r}" for a, b in near[:5])
        parts.append(f"{count_text(len(near), 'model name')} of the new files "
                     + ("looks like a current one" if len(near) == 1 else
                        "look like current ones") + f": {shown}")
    if dup:
        parts.append(
            f"{count_text(dup, '(model, question) pair')} {'is' if dup == 1 else 'are'} in "
            f"both the current data and the new files ({count_text(len(models), 'model')} x "
            f"{count_text(len(shared_q), 'question')})"
        )
    if parts:
        choices = ("replace", "add_benchmark", "cancel")
        message = (
            "; ".join(parts) + ". Merging them would count one model twice or mix two runs of "
            "the same questions. Choose: replace (use the new files), add_benchmark (the new "
            "files as another benchmark, model names mapped onto the current ones) or cancel."
        )
    else:
        choices = ("add", "replace", "add_benchmark", "cancel")
        message = (
            f"the new files add {count_text(len(set(new.models) - set(current.models)), 'model')}"
            f" and {count_text(len(set(new.questions) - set(current.questions)), 'question')}; "
            "nothing collides"
        )
    return UploadCheck(current, new, near, same, dup, choices, message)


def apply_upload(check: UploadCheck, choice: str, benchmark: str | None = None) -> Outcomes:
    """Carry out ``choice`` (one of ``check.choices``); ``benchmark`` names the new files'
    benchmark for ``"add_benchmark"`` (default: their dataset name)."""
    if choice not in check.choices:
        raise ValidationError(
            f"choice must be one of {', '.join(map(repr, check.choices))}; got {choice!r}"
        )
    cur, new = check.current, check.new
    if choice == "cancel":
        return cur
    if choice == "replace":
        return new
    if cur.C != new.C or list(cur.weights) != list(new.weights):
        raise ValidationError(
            f"the new files' categories {list(new.category_names)} (weights "
            f"{[float(w) for w in new.weights]}) differ from the current data's "
            f"{list(cur.category_names)}; they can only replace it"
        )
    a, b = to_long_frame(cur), to_long_frame(new)
    if choice == "add_benchmark":
        label = benchmark or new.name
        old = cur.benchmark_names or [cur.name]
        if label in old:
            raise ValidationError(
                f"benchmark {label!r} is already in the current data ({', '.join(old)}); "
                "name the new one differently"
            )
        rename = {n: c for c, n in check.near_duplicates}
        b = b.with_columns(
            pl.col("model").replace(rename),
            question=pl.lit(label + "/") + pl.col("question"),
            benchmark=pl.lit(label),
        )
        if "benchmark" not in a.columns:
            a = a.with_columns(benchmark=pl.lit(cur.name))
    df = pl.concat([a, b], how="diagonal_relaxed")
    if "decoding" in df.columns:
        df = df.with_columns(pl.col("decoding").fill_null("sample"))
    opts = LoadOptions(
        name=cur.name, weights=tuple(cur.weights), category_names=tuple(cur.category_names)
    )
    meta = {"format": "combined", "upload": {"choice": choice, "added": new.name}}
    out = _from_frame(df, "frame", f"{cur.name} + {new.name}", opts, meta_extra=meta)
    return replace(out, name=cur.name) if out.name != cur.name else out
