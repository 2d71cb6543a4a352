"""``scorio-studio info`` (validate a file, print its shape report) and ``scorio-studio
import`` (write logs/tables as one file)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..formatting import round_json, shape_text
from ._common import _add_data_args, _pick, cli_text, load

__all__ = ["add_parser", "run"]

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
    data = load(args)
    if args.command == "import":
        sys.stderr.write(_import(data, args.out))
        return 0
    report = {**data.describe(), **_pick(data.metadata, *_REPORTED)}
    # every float with the exports' digits: our mean beside the harness's own value alike
    print(json.dumps(round_json(report), indent=2, ensure_ascii=False, default=str))
    return 0


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
            f"([{', '.join(f'{w:g}' for w in data.weights)}]); pass "
            "--weights when analysing, or write .npz"
        )
    return "\n".join(lines) + "\n"

