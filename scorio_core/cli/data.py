"""``scorio-studio info`` (validate a file, print its shape report) and ``scorio-studio
import`` (write logs/tables as one file)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..formatting import round_json, shape_text, weight_text
from ._common import _add_data_args, _pick, cli_text, load

__all__ = ["add_parser", "run", "said_once"]

#: Loader notes ``info`` prints after the shape report (what was filtered, composed,
#: ignored or read under another spelling).
_REPORTED = ("where", "rows_kept_by_where", "model_columns", "decoding_note",
             "decoding_spellings", "ignored_columns", "ignored_why", "import_report",
             "trial_ids")  # fmt: skip


def add_parser(sub) -> None:
    info = sub.add_parser("info", help="validate a file and print its shape report")
    _add_data_args(info)

    imp = sub.add_parser(
        "import", help="read logs/tables and write them as one .parquet/.csv/.jsonl or .npz"
    )
    _add_data_args(imp)
    imp.add_argument("--out", required=True, help="output file: .npz, .parquet, .csv or .jsonl")


def run(args) -> int:
    from .._validation import ValidationError

    try:
        data = load(args)
    except ValidationError as exc:
        if args.command == "info" and args.benchmark is None:  # what there is, though the
            # parts cannot be combined
            _inventory(args, exc)
        raise
    if args.command == "import":
        sys.stderr.write(_import(data, args.out))
        return 0
    report = {**data.describe(), **_pick(data.metadata, *_REPORTED)}
    # the notes' advice names flags here, not Python keywords
    if "changed by the load" in report:
        report["changed by the load"] = [cli_text(n) for n in report["changed by the load"]]
    if "import_report" in report:
        report["import_report"] = said_once(_flagged(report["import_report"]))
    # every float with the exports' digits: our mean beside the harness's own value alike
    print(json.dumps(round_json(report), indent=2, ensure_ascii=False, default=str))
    return 0


def _flagged(report: dict) -> dict:
    """An import report with its notes, and each file's, and what its means are as the
    command line reads them (:func:`~scorio_core.cli._common.cli_text`: the loader's options
    by their flags)."""

    def flagged(part: dict) -> dict:
        notes = part.get("notes")
        return {**part, "notes": [cli_text(n) for n in notes]} if notes else part

    out = dict(flagged(report))  # a copy: the report is the data's own metadata
    if isinstance(out.get("files"), list):
        out["files"] = [flagged(f) for f in out["files"]]
    for key in ("mean_meaning", "mean_loaded_after"):  # the options that changed the outcomes
        if key in out:
            out[key] = cli_text(out[key])
    return out


def said_once(report: dict) -> dict:
    """An import report with each note said once: a note of the whole load (``notes``, e.g.
    the provider prefix taken off every model name) left out of the files it came from,
    where it was repeated once per file; a file left without notes has no ``notes``.

    Example
    -------
    >>> from scorio_core.cli.data import said_once
    >>> said_once({"notes": ["prefix"], "files": [{"file": "a", "notes": ["prefix"]},
    ...                                           {"file": "b", "notes": ["prefix", "own"]}]})
    {'notes': ['prefix'], 'files': [{'file': 'a'}, {'file': 'b', 'notes': ['own']}]}

    A note the report says of some files (led by their names: it covers every file whose
    row has it) is left out of those files too:

    >>> said_once({"notes": ["each of 2 files (a, b): 2 errored", "b: unfinished"],
    ...            "files": [{"file": "a", "notes": ["2 errored"]},
    ...                      {"file": "b", "notes": ["2 errored", "unfinished"]}]})["files"]
    [{'file': 'a'}, {'file': 'b'}]
    """
    said = set(map(str, report.get("notes") or ()))
    if not said or not isinstance(report.get("files"), list):
        return report

    # a note said of some files starts with them ("a.eval: ...", "each of 2 files (a.eval,
    # b.eval): ...") and covers every file whose row has it (io._logs.report_notes)
    def told(note: str) -> bool:
        return note in said or any(s.endswith(f": {note}") for s in said)

    files = []
    for f in report["files"]:
        own = [n for n in f.get("notes") or () if not told(str(n))]
        files.append({k: own if k == "notes" else v for k, v in f.items()
                      if k != "notes" or own})
    return {**report, "files": files}


def _inventory(args, exc: Exception) -> None:
    """Print what the files hold, task by task (:func:`scorio_core.io._dispatch.inventory`:
    harness, files, models, questions, trials, and how each part loads), when the data
    read but could not be combined into one dataset (``exc``, the refusal, which the
    command then reports as its error); nothing when the files themselves do not read or
    hold one part only."""
    from .._validation import ValidationError, said_of
    from ..io._dispatch import inventory
    from ..io.options import LoadOptions
    from ..params import from_args

    paths = [Path(p) for p in args.path]
    try:
        rows = inventory(paths[0] if len(paths) == 1 else paths, from_args(LoadOptions, args))
    except ValidationError:
        return
    if len(rows) < 2:
        return
    for row in rows:
        if "loads" in row:
            row["loads"] = cli_text(row["loads"])
    report = {"combined": f"no: {cli_text(said_of(exc)).splitlines()[0]}", "parts": rows}
    print(json.dumps(round_json(report), indent=2, ensure_ascii=False, default=str))


def _import(data, out: str) -> str:
    """Write ``data`` to ``out`` (.npz keeps weights and category names; tables do not)."""
    from .. import io

    path = Path(out)
    if path.suffix.lower() == ".npz":
        io.save_npz(data, path)
    else:
        io.save_table(data, path)
    report = data.metadata.get("import_report", {})
    lines = [f"wrote {path} ({shape_text(data.L, data.M, data.N)})"]
    if data.samples is not None:  # the completion texts beside it, attached when it is read
        from ..samples import beside

        store = data.samples.write_parquet(beside(path))
        lines.append(f"wrote {store} ({len(data.samples):,} completions; text columns: "
                     f"{', '.join(data.samples.columns)})")
    lines += [f"note: {cli_text(n)}" for n in report.get("notes", [])]  # flags, not keywords
    if report.get("missing_samples"):
        lines.append(f"note: {report['missing_samples']} samples had no score (missing cells)")
    if not data.is_binary and path.suffix.lower() != ".npz":
        lines.append(
            "note: tables do not store category weights "
            f"([{', '.join(map(weight_text, data.weights))}]); pass "
            "--weights when analysing, or write .npz"
        )
    return "\n".join(lines) + "\n"

