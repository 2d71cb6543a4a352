"""Loading the sidebar's dataset: the bundled files, or an upload with its options
(:mod:`app_pages._upload`), cached by content."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from app_pages._upload import (  # noqa: F401 -- UPLOAD_KEY, MISSING, UPLOAD_TYPES re-exported
    MISSING,
    UPLOAD_KEY,
    UPLOAD_TYPES,
    column_mapping,
    upload_widgets,
    weights_box,
)
from app_state.texts import parse_weights
from scorio_core import Outcomes, io
from scorio_core.definitions.provenance import attach_source

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = {
    "Reasoning benchmarks (synthetic)": ROOT / "data" / "reasoning_synthetic.npz",
    "Biased coins (11 LLM mimics)": ROOT / "data" / "biased_coins.npz",
}
UPLOAD = "Upload a file"
#: ``io.load`` keywords of the current upload (columns, weights, scorer) for "Copy code".
LOAD_OPTIONS = "_scorio_load_options"


@dataclass(frozen=True)
class Dataset:
    """What the pages work on: the full dataset, the selected benchmark view,
    and a ``token`` that identifies both (a cache key for derived results)."""

    full: Outcomes
    view: Outcomes
    benchmark: str
    data_token: str  # identifies the loaded file (and loader options)
    source: str

    @property
    def token(self) -> str:
        """Identifies ``view``: a cache key for results derived from it."""
        return f"{self.data_token}|{self.benchmark}"


@st.cache_data(max_entries=4, show_spinner="Loading dataset…")
def _load_path(path: str, mtime: float) -> Outcomes:  # mtime: reload when the file changes
    return attach_source(io.load(Path(path)), Path(path))  # sha256 for exports and reports


@st.cache_data(max_entries=8, show_spinner="Reading upload…")
def _load_bytes(files: tuple[tuple[str, bytes], ...], options: io.LoadOptions) -> Outcomes:
    source = {name: data for name, data in files}
    name = None
    if len(files) == 1:
        (name, data), = files
        source = data
    o = io.load(source, options, filename=name)
    return attach_source(o, source, name) if name else o  # one file: its sha256 for reports


def bundled(label: str) -> tuple[Outcomes, str, str]:
    """A bundled dataset: ``(outcomes, cache token, source path relative to the repo)``."""
    path = BUNDLED[label]
    mtime = path.stat().st_mtime
    return _load_path(str(path), mtime), f"bundled:{path.name}:{mtime}", f"data/{path.name}"


def bundled_label(stem: str) -> str | None:
    """The sidebar label of the bundled dataset whose file is ``<stem>.npz`` (or ``None``)."""
    return next((k for k, p in BUNDLED.items() if p.stem == stem or p.name == stem), None)


def load_choice(choice: str) -> tuple[Outcomes, str, str] | None:
    """Load the chosen source; ``None`` when nothing is uploaded yet. Raises on bad input."""
    st.session_state[LOAD_OPTIONS] = {}
    if choice != UPLOAD:
        return bundled(choice)
    up = upload_widgets()
    if up is None:
        return None
    on_missing = st.session_state.get("on_missing", "error")
    files = tuple(up["files"].items()) if "files" in up else ((up["filename"], up["data"]),)
    columns, scorer = column_mapping(up), st.session_state.get("scorer", "").strip()
    text = st.session_state.get("upload_weights", "")
    o = None
    try:  # the weights box comes after the load, open when the data need weights
        options = io.LoadOptions(on_missing=on_missing, columns=dict(columns) or None,
                                 scorer=scorer or None, weights=parse_weights(text))
        o = _load_bytes(files, options)
    finally:
        weights_box(bool(text.strip()) or o is None or not o.is_binary)
    sha = hashlib.sha256()
    for name, data in files:
        sha.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    token = f"upload:{sha.hexdigest()[:16]}:{options!r}"
    st.session_state[LOAD_OPTIONS] = {"on_missing": on_missing, "columns": dict(columns),
                                      "weights": options.weights, "scorer": options.scorer}
    return o, token, up["filename"]


def several_files() -> bool:
    """Whether the current upload is several files (no column mapping then)."""
    return "files" in (st.session_state.get(UPLOAD_KEY) or {})
