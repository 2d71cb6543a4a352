"""Loading the sidebar's dataset: bundled files, uploads, the column mapping and weights box.

Session-state contract (also the test seam)
-------------------------------------------
``st.session_state[UPLOAD_KEY]`` (``"scorio_upload"``)
    ``{"filename": str, "data": bytes}`` -- the raw bytes of the last uploaded
    file -- or, for several files, ``{"filename": "3 files", "files": {name: bytes}}``.
    The sidebar writes it right after ``st.file_uploader`` returns files; parsing,
    validation and caching read *only* this key, so a test that sets it and selects
    ``"Upload a file"`` exercises exactly the code path of a real upload.

Widget keys: ``upload``, ``on_missing``, ``scorer``, ``col_<role>`` (column mapping of a
single uploaded table), ``upload_weights`` (category weights of an upload, e.g. ``"0, 0.5, 1"``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import streamlit as st

from scorio_core import Outcomes, io
from scorio_core.analyses.provenance import attach_source
from scorio_core.display import parse_weights

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = {
    "Reasoning benchmarks (synthetic)": ROOT / "data" / "reasoning_synthetic.npz",
    "Biased coins (11 LLM mimics)": ROOT / "data" / "biased_coins.npz",
}
UPLOAD = "Upload a file"
UPLOAD_TYPES = ["npz", "csv", "parquet", "pq", "jsonl", "ndjson", "eval", "json", "zip"]
NO_COLUMN = "(none)"
MISSING = {
    "error": "fail and name the missing cells",
    "drop_questions": "drop incomplete questions",
    "truncate": "truncate to the smallest N",
}
UPLOAD_KEY = "scorio_upload"
#: ``io.load`` keywords of the current upload (columns, weights, scorer) for "Copy code".
LOAD_OPTIONS = "_scorio_load_options"


@st.cache_data(max_entries=4, show_spinner="Loading dataset…")
def _load_path(path: str, mtime: float) -> Outcomes:  # mtime: reload when the file changes
    return attach_source(io.load(Path(path)), Path(path))  # sha256 for exports and reports


@st.cache_data(max_entries=8, show_spinner="Reading upload…")
def _load_bytes(files: tuple[tuple[str, bytes], ...], on_missing: str, columns: tuple,
                scorer: str | None, weights: tuple[float, ...] | None = None) -> Outcomes:
    source = {name: data for name, data in files}
    name = None
    if len(files) == 1:
        (name, data), = files
        source = data
    o = io.load(source, filename=name, on_missing=on_missing, columns=dict(columns) or None,
                scorer=scorer or None, weights=weights)
    return attach_source(o, source, name) if name else o  # one file: its sha256 for reports


def _weights_box(open_: bool) -> None:
    with st.sidebar.expander("Category weights", expanded=open_):
        st.text_input(
            "Weights of categories 0..C", key="upload_weights", placeholder="e.g. 0, 0.5, 1",
            help="Needed when the outcomes hold categories above 1 (tables cannot store "
            "weights); overrides the weights stored in an .npz. Blank: binary 0/1.",
        )


def _column_mapping(up: dict) -> tuple:
    """Selectboxes mapping our roles to the columns of a single uploaded table."""
    if "files" in up:
        return ()
    cols = io.table_columns(up["data"], filename=up["filename"])
    if not cols:
        return ()
    missing = [r for r in io.ROLES[:4] if r not in cols]
    mapping = []
    with st.sidebar.expander("Column mapping", expanded=bool(missing)):
        for role in io.ROLES:
            options = [NO_COLUMN, *cols]
            if st.session_state.get(f"col_{role}") not in options:
                st.session_state[f"col_{role}"] = role if role in cols else NO_COLUMN
            choice = st.selectbox(role, options, key=f"col_{role}")
            if choice not in (NO_COLUMN, role):
                mapping.append((role, choice))
    return tuple(mapping)


def bundled(label: str) -> tuple[Outcomes, str, str]:
    """A bundled dataset: ``(outcomes, cache token, source path relative to the repo)``."""
    path = BUNDLED[label]
    mtime = path.stat().st_mtime
    return _load_path(str(path), mtime), f"bundled:{path.name}:{mtime}", f"data/{path.name}"


def bundled_label(stem: str) -> str | None:
    """The sidebar label of the bundled dataset whose file is ``<stem>.npz`` (or ``None``)."""
    return next((k for k, p in BUNDLED.items() if p.stem == stem or p.name == stem), None)


def _upload_widgets() -> dict | None:
    side = st.sidebar
    files = side.file_uploader(
        "Outcome files or logs", type=UPLOAD_TYPES, key="upload", accept_multiple_files=True,
        help="`.npz` with an array `R` (L, M, N); a long table with columns model, question, "
        "trial, outcome (+ optional decoding = sample|greedy); or evaluation logs -- Inspect "
        "`.eval`/`.json`, lm-eval `samples_*.jsonl` + `results_*.json`, OpenAI evals `.jsonl`, "
        "HELM `per_instance_stats.json` + `run_spec.json` -- several at once or as one `.zip`.",
    )
    side.selectbox("Missing cells", options=list(MISSING), format_func=MISSING.get,
                   key="on_missing",
                   help="What to do when some (model, question, trial) cells of a long table "
                   "are absent")
    side.text_input("Scorer (logs)", key="scorer", placeholder="first scorer",
                    help="Logs with several scorers or metrics: the one to use as the outcome")
    if len(files or []) == 1:
        st.session_state[UPLOAD_KEY] = {"filename": files[0].name, "data": files[0].getvalue()}
    elif files:
        st.session_state[UPLOAD_KEY] = {
            "filename": f"{len(files)} files", "files": {f.name: f.getvalue() for f in files}
        }
    up = st.session_state.get(UPLOAD_KEY)
    if not files and up is not None:
        side.caption(f"Using the earlier upload **{up['filename']}**.")
    return up


def load_choice(choice: str) -> tuple[Outcomes, str, str] | None:
    """Load the chosen source; ``None`` when nothing is uploaded yet. Raises on bad input."""
    st.session_state[LOAD_OPTIONS] = {}
    if choice != UPLOAD:
        return bundled(choice)
    up = _upload_widgets()
    if up is None:
        return None
    on_missing = st.session_state.get("on_missing", "error")
    files = tuple(up["files"].items()) if "files" in up else ((up["filename"], up["data"]),)
    columns, scorer = _column_mapping(up), st.session_state.get("scorer", "").strip()
    text = st.session_state.get("upload_weights", "")
    o = None
    try:  # the weights box comes after the load, open when the data need weights
        weights = parse_weights(text)
        o = _load_bytes(files, on_missing, columns, scorer, weights)
    finally:
        _weights_box(bool(text.strip()) or o is None or not o.is_binary)
    sha = hashlib.sha256()
    for name, data in files:
        sha.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    token = f"upload:{sha.hexdigest()[:16]}:{on_missing}:{columns}:{scorer}:{weights}"
    st.session_state[LOAD_OPTIONS] = {"on_missing": on_missing, "columns": dict(columns),
                                      "weights": weights, "scorer": scorer or None}
    return o, token, up["filename"]


def several_files() -> bool:
    """Whether the current upload is several files (no column mapping then)."""
    return "files" in (st.session_state.get(UPLOAD_KEY) or {})
