"""Loaders and writers for :class:`~scorio_core.outcomes.Outcomes` (SPEC §2).

One module per on-disk format behind one :func:`load`; pickle is never used:

* :mod:`~scorio_core.io.npz` -- NumPy arrays read with ``allow_pickle=False``: ``R``
  ``(L, M, N)`` (a 2-D ``R`` is one model), optional ``R0``, ``models``, ``questions``,
  ``benchmarks``, ``category_names`` (unicode string arrays), ``weights``,
  ``signal__<name>`` float arrays ``(L, M, N)`` and ``meta_json`` (a 0-d string
  holding a JSON object).
* :mod:`~scorio_core.io.table` -- CSV, Parquet or JSONL read with polars, one row per
  completion with columns ``model, question, trial, outcome`` (+ optional
  ``decoding`` = ``sample|greedy`` and ``benchmark``; other numeric columns are
  signals).
* evaluation-harness logs -- :mod:`~scorio_core.io.inspect` (Inspect AI ``.eval`` and
  ``.json``), :mod:`~scorio_core.io.lm_eval` (lm-evaluation-harness
  ``samples_<task>_<date>.jsonl``), :mod:`~scorio_core.io.openai_evals` (OpenAI evals
  JSONL) and :mod:`~scorio_core.io.helm` (HELM ``per_instance_stats.json``). Every
  loader builds the same long records and goes through the same assembly, validation
  and missing-cell policy (``_assemble``).

Every problem is reported as a :class:`~scorio_core._validation.ValidationError`
whose message starts with the file name and says what was expected and what was
found. Row numbers in table messages count data rows from 1 (the header is not
counted; in a CSV the line number is the row number + 1).

Example
-------
>>> from scorio_core.io import load
>>> csv = b"model,question,trial,outcome\\nA,q1,0,1\\nA,q1,1,0\\nB,q1,0,1\\nB,q1,1,1\\n"
>>> o = load(csv, filename="runs.csv")
>>> o.models, o.R[:, 0].tolist()
(('A', 'B'), [[1, 0], [1, 1]])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._lazy import lazy_module
from .._validation import ValidationError, checked_keywords
from ..outcomes import MissingWeightsError, Outcomes
from ._assemble import COLUMN_SYNONYMS, ROLES, guess_columns
from ._base import (
    ACCEPTED_SUFFIXES,
    LOADED_SUFFIXES,
    MAX_BYTES,
    MAX_CELLS,
    MAX_COLUMNS,
    MAX_DECODED_BYTES,
    MAX_ROWS,
    MAX_TABLE_CELLS,
    MissingCellsError,
    MissingColumnsError,
    OnMissing,
    Source,
)
from ._dispatch import LOG_FORMATS, load_many
from ._logs import LOADED_COLUMN, import_table, means_text
from .npz import load_npz, save_npz
from .options import OPTION_NAMES, LoadOptions, as_asked, options_from
from .table import (
    _is_frame,
    load_table,
    safe_csv_cell,
    save_table,
    table_columns,
    to_long_frame,
    to_safe_csv,
)

if TYPE_CHECKING:
    import polars as pl
else:  # polars loads with the first table read, not with `import scorio_core.io`
    pl = lazy_module("polars")

__all__ = [
    "ACCEPTED_SUFFIXES",
    "LOADED_SUFFIXES",
    "LOG_FORMATS",
    "MAX_BYTES",
    "MAX_CELLS",
    "MAX_COLUMNS",
    "MAX_DECODED_BYTES",
    "MAX_ROWS",
    "MAX_TABLE_CELLS",
    "MissingCellsError",
    "MissingColumnsError",
    "MissingWeightsError",
    "OnMissing",
    "ROLES",
    "COLUMN_SYNONYMS",
    "guess_columns",
    "import_table",
    "LOADED_COLUMN",
    "means_text",
    "LoadOptions",
    "ValidationError",
    "load",
    "loaded_with",
    "load_keywords",
    "load_keywords_text",
    "load_npz",
    "load_table",
    "save_npz",
    "save_table",
    "table_columns",
    "to_long_frame",
    "safe_csv_cell",
    "to_safe_csv",
]


# -------------------------------------------------------------------- load
@checked_keywords(also=OPTION_NAMES)
def load(
    source: Source | Sequence[Source] | Mapping[str, bytes] | pl.DataFrame,
    options: LoadOptions | None = None,
    *,
    filename: str | None = None,
    **option_values: Any,
) -> Outcomes:
    """Load outcomes from one or several files or a directory, telling each file's format
    from its content.

    Parameters
    ----------
    source : path, bytes, binary file object, a list of these, a directory, or a mapping
        A path, or the raw bytes of an upload (then ``filename`` gives the suffix). A
        directory is read recursively (hidden files skipped); a ``.zip`` that is not an
        Inspect log or an ``.npz`` is read as an archive of files; a mapping is
        ``{file name: bytes}`` (e.g. several uploads). A polars/pandas DataFrame is
        passed to :func:`load_table`.
    options : LoadOptions, optional
        How to read the files (:class:`LoadOptions`, declared once for the API, the CLI
        and the app). The keywords below override its fields, e.g.
        ``load(path, on_missing="truncate")``.
    filename : str, optional
        Name used for the suffix and in messages (defaults to the path's name).
    format : str, optional
        Overrides detection: ``"npz"``, ``"csv"``, ``"parquet"``, ``"pq"``, ``"jsonl"``,
        ``"ndjson"``, ``"inspect"``, ``"lm_eval"``, ``"openai_evals"`` or ``"helm"``.
    columns, on_missing
        Table options, see :func:`load_table`; ``on_missing`` applies to logs too
        (errored samples are missing cells).
    number_trials : bool
        A long table of one row per repeat without a trial column: the rows of each
        (model, question) pair are numbered 0, 1, 2, ... in file order as its trials (after
        ``where``, greedy rows apart), said in ``load_notes``; refused for a table that has
        a trial column and for logs and ``.npz`` files, which hold their own trials.
    name : str, optional
        Dataset name; defaults to the ``.npz`` metadata name, the file stem or the task.
    max_bytes : int
        Files larger than this are refused before parsing.
    weights, category_names : optional
        Category weights/names; override the ones stored in an ``.npz`` or derived from
        log scores. Tables cannot store them, so a table (or an ``.npz`` without a
        ``weights`` array) with integer outcomes above 1 needs ``weights`` (or, for
        grades on a scale, ``score_range``): weights are never invented
        (:class:`MissingWeightsError` names the first such row or cell).
    scorer : str, optional
        Logs with several scorers/metrics: which one is the outcome (Inspect scorer name
        or a key of a dict-valued score, lm-eval metric or ``"FILTER/METRIC"``, HELM stat
        name; default: the first, or ``exact_match`` for HELM, noted in the import report).
    benchmark : str, optional
        Load only this benchmark (task; lm-eval ``TASK/FILTER``), chosen before the files
        are assembled. Without it, benchmarks whose trials differ are each kept with all
        their trials (``Outcomes.parts``, returned by ``select``).
    score_range : (float, float), optional
        The scale of graded scores outside [0, 1] (e.g. ``(0, 10)``), in logs and tables:
        each distinct score in it becomes a category weighted ``(v - LO) / (HI - LO)``,
        named by the score; never guessed. Grades in [0, 1] need none (a table's
        fractional outcomes in [0, 1] load as grades weighted by their value). Not
        together with ``weights`` for a table.
    model_map : mapping, sequence of pairs or path, optional
        Model renames (``{"mockllm/alpha": "alpha"}``, or a JSON/CSV file), applied to
        logs and tables before assembly.
    model_prefix : {"strip", "keep"}
        Log model names lose their provider prefix when the names stay distinct
        (default ``"strip"``, reported in the import report).
    correct, correct_from : optional
        Make categorical or graded outcomes binary, for the analyses that rank correctness:
        a trial counts as correct when its category is one of ``correct`` (``["C"]``;
        ``["C", "P"]`` counts partial credit too) or its score is at least ``correct_from``
        (on the scores' own scale; continuous scores too). Said in ``load_notes``.
    round_grades : int, optional
        Continuous or finely graded scores rounded to the nearest of this many evenly spaced
        levels of their scale (2 to 21; 11: 0, 0.1, ..., 1), each level a category
        weighted by its value. Said in ``load_notes``.

    Returns
    -------
    Outcomes
        Logs add ``metadata["import_report"]`` (per file: format, model, benchmark,
        scorer, records, missing samples, our mean, the harness's own headline, notes).
        The file's own trial ids are kept in ``metadata["trial_ids"]`` (or
        ``"trial_ids_per_pair"``). One file records its name and sha256
        (``metadata["source_sha256"]``); data read from several files (a directory, an
        archive, a list or mapping of files, or a file and the files read beside it: for
        names, lm-eval's ``results_<date>.json`` and HELM's ``run_spec.json``; for the texts
        shown, HELM's ``scenario_state.json`` and the sample store beside a table or
        ``.npz``, ``<stem>.samples.parquet``)
        record each one's sha256, hashed once, in ``metadata["source_sha256_per_file"]`` (see
        :func:`~scorio_core.definitions.provenance.attach_sources`). The options given
        (those not at their defaults, :meth:`LoadOptions.changed`) are kept in
        ``metadata["load_options"]``, so a notebook report (``sc.report(data, "r.ipynb")``)
        loads the file again the same way.

    Raises
    ------
    ValidationError
        For unknown formats, empty or oversized files and any malformed content; the
        message starts with the file name (and names the member or line for logs).
        Three kinds say what to change: :class:`MissingColumnsError` (``.columns``:
        pass ``columns=``), :class:`MissingCellsError` (pass ``on_missing=``) and
        :class:`MissingWeightsError` (pass ``weights=``).

    Notes
    -----
    Sizes are checked before anything large is decoded: ``max_bytes`` per file;
    :data:`MAX_ROWS` rows of a table (from Parquet metadata or a line count) or records
    of logs; :data:`MAX_TABLE_CELLS` rows x columns; :data:`MAX_COLUMNS` distinct JSONL
    keys; and for ``.npz``, each ``.npy`` header's shape and dtype (at most
    :data:`MAX_CELLS` elements per array, :data:`MAX_DECODED_BYTES` in total, and the
    declared size must equal the member's size in the zip directory).

    Formats: ``.npz`` (:mod:`.npz`); long tables (:mod:`.table`); Inspect AI ``.eval`` and
    ``.json`` logs (:mod:`.inspect`); lm-evaluation-harness ``samples_<task>_<date>.jsonl``
    (:mod:`.lm_eval`); OpenAI evals JSONL (:mod:`.openai_evals`); HELM
    ``per_instance_stats.json`` (:mod:`.helm`). Several files are combined when they
    agree on categories and each (model, benchmark) comes from one file; the shared
    assembly then requires the same questions and trials for every model.

    Examples
    --------
    >>> o = sc.load(b"model,question,trial,outcome\\nA,q1,0,1\\nA,q1,1,1\\n", filename="x.csv")
    >>> o.shape
    (1, 1, 2)
    """
    opts = options_from(options, option_values)
    if _is_frame(source):  # the options on the categories applied there
        return _with_options(load_table(source, opts), opts)
    # records each file read, with its sha256 (one file: its path too, for exports)
    return _with_options(_with_paths(
        as_asked(load_many(source, opts, filename=filename), opts), source), opts)


#: Where loaded data keep the loader options they were read with (:func:`loaded_with`).
LOAD_OPTIONS_KEY = "load_options"


def _with_options(data: Outcomes, opts: LoadOptions) -> Outcomes:
    """``data`` with the options of this load that are not at their defaults in
    ``metadata["load_options"]`` -- never those of an earlier load carried in a file's own
    metadata (an ``.npz`` written from data read with options)."""
    from dataclasses import replace

    meta = {k: v for k, v in data.metadata.items() if k != LOAD_OPTIONS_KEY}
    if given := opts.changed():
        meta[LOAD_OPTIONS_KEY] = given
    return replace(data, metadata=meta)


@checked_keywords
def loaded_with(data: Outcomes) -> LoadOptions | None:
    """The loader options ``data`` were read with by :func:`load` (``None``: data made in
    code, or read with the defaults), to read their file again the same way.

    Example
    -------
    >>> csv = b"model,question,trial,outcome\\nA,q1,0,2\\nA,q1,1,0\\n"
    >>> data = sc.load(csv, filename="x.csv", weights=[0, 0.5, 1])
    >>> in_code = sc.Outcomes(data.R, weights=data.weights)
    >>> sc.io.loaded_with(data).weights, sc.io.loaded_with(in_code)
    ((0.0, 0.5, 1.0), None)
    """
    given = data.metadata.get(LOAD_OPTIONS_KEY)
    if not isinstance(given, Mapping) or not given:
        return None
    try:  # as kept (or read back from an .npz's JSON: lists for tuples)
        return LoadOptions(**given)
    except (TypeError, ValueError):  # a record no longer read the same way: none
        return None


#: The options a load call writes as mappings (``columns={'model': 'llm'}``), kept as pairs.
_MAPPINGS = ("columns", "model_map", "where")


@checked_keywords
def load_keywords(given: LoadOptions | Outcomes | None) -> dict[str, Any]:
    """The keywords of the :func:`load` call that reads data as ``given`` says: the fields of
    a :class:`LoadOptions` not at their defaults (:meth:`LoadOptions.changed`), or those
    loaded data were read with (:func:`loaded_with`) -- ``{}`` for none -- with the options
    kept as pairs written as the dicts a call passes. The one record every "Copy code" cell,
    notebook report and report provenance writes.

    Example
    -------
    >>> opts = sc.io.LoadOptions(where={"temperature": 0.7}, correct_from=5, number_trials=True)
    >>> sc.io.load_keywords(opts)
    {'number_trials': True, 'where': {'temperature': ('0.7',)}, 'correct_from': 5.0}
    >>> sc.io.load_keywords(sc.Outcomes([[[0, 1]]]))
    {}
    """
    opts = loaded_with(given) if isinstance(given, Outcomes) else given
    out = {} if opts is None else opts.changed()
    for key in _MAPPINGS:
        if key in out:
            out[key] = dict(out[key])
    return out


@checked_keywords
def load_keywords_text(given: LoadOptions | Outcomes | None) -> str:
    """:func:`load_keywords` as a call writes them, ``", "``-separated (``""`` for none).

    Example
    -------
    >>> sc.io.load_keywords_text(sc.io.LoadOptions(correct_from=5, score_range=(0, 10)))
    'score_range=(0.0, 10.0), correct_from=5.0'
    """
    return ", ".join(f"{k}={v!r}" for k, v in load_keywords(given).items())


def _with_paths(data: Outcomes, source: Any) -> Outcomes:
    """``data`` read from a folder or several paths, with those paths (resolved) in
    ``metadata["source_paths"]``: a notebook report loads them again, as it loads the one
    file of ``metadata["source_path"]``. Never a record carried over from a file's own
    metadata (an ``.npz`` written from a folder's logs)."""
    import os
    from dataclasses import replace
    from pathlib import Path

    paths = list(source) if isinstance(source, list | tuple) else [source]
    given = [Path(p) for p in paths if isinstance(p, str | os.PathLike)]
    meta = {k: v for k, v in data.metadata.items() if k != "source_paths"}
    if given and len(given) == len(paths) and (len(given) > 1 or given[0].is_dir()):
        meta["source_paths"] = [str(p.resolve()) for p in given]
    return data if meta == data.metadata else replace(data, metadata=meta)
