"""Loading the sidebar's dataset: the bundled files, or an upload with its options
(:mod:`app_pages._upload`), cached by content."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from app_pages import _merge
from app_pages._load_options import options_box
from app_pages._runs import RESULTS_TTL_S
from app_pages._upload import (  # noqa: F401 -- re-exported
    MISSING,
    UPLOAD_KEY,
    UPLOAD_TYPES,
    column_mapping,
    upload_widgets,
    weights_box,
)
from app_state.load_form import form_options
from scorio_core import Outcomes, io
from scorio_core.definitions.provenance import attach_source

ROOT = Path(__file__).resolve().parent.parent
#: Sidebar labels of the bundled datasets; the first is the app's default.
TEMPERATURE = "Sampling temperature (real: 9 API models)"
REASONING = "Reasoning benchmarks (synthetic)"
COINS = "Biased coins (11 LLM mimics)"
BUNDLED = {
    TEMPERATURE: ROOT / "data" / "jhu_llm_temperature.parquet",
    REASONING: ROOT / "data" / "reasoning_synthetic.npz",
    COINS: ROOT / "data" / "biased_coins.npz",
}
UPLOAD = "Upload a file"


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


# Loaded datasets are cached as the objects themselves (cache_resource), not as pickled
# copies: an Outcomes keeps its sample-store files alive, which are removed once neither a
# cache entry nor a session holds it (scorio_core.samples); a pickled copy would hold
# nothing. Outcomes are frozen, so sessions can share one.
@st.cache_resource(max_entries=4, ttl=RESULTS_TTL_S, show_spinner="Loading dataset…")
def _load_path(path: str, mtime: float) -> Outcomes:  # mtime: reload when the file changes
    return io.load(Path(path))  # records the file's sha256 for exports and reports


@st.cache_resource(max_entries=8, ttl=RESULTS_TTL_S, show_spinner="Reading upload…")
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
    """The sidebar label of the bundled dataset whose file is ``<stem>.<ext>`` (or ``None``)."""
    return next((k for k, p in BUNDLED.items() if p.stem == stem or p.name == stem), None)


def load_choice(choice: str) -> tuple[Outcomes, str, str] | None:
    """Load the chosen source; ``None`` when nothing is uploaded yet. Raises on bad input."""
    ss = st.session_state
    if choice != UPLOAD:
        return bundled(choice)
    up = upload_widgets()
    if up is None:
        return None
    files = tuple(up["files"].items()) if "files" in up else ((up["filename"], up["data"]),)
    values = {"on_missing": ss.get("on_missing", "error"), "scorer": ss.get("scorer", ""),
              "weights": ss.get("upload_weights", ""), **column_mapping(up), **options_box()}
    o, text, merge = None, values["weights"], ""
    try:  # the weights box comes after the load, open when the data need weights
        options = form_options(values)
        if (pair := _merge.added(files)) is not None:
            o, merge = _merge.resolve(*pair, options, _load_bytes)
        else:
            o = _load_bytes(files, options)
            ss[_merge.LOADED] = files
    finally:
        weights_box(bool(text.strip()) or o is None or not o.is_binary)
    sha = hashlib.sha256()
    for name, data in files:
        sha.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    # the options and the files the data were read with are the data's own record
    # (io.loaded_with, metadata): what "Copy code" and the report write
    token = f"upload:{sha.hexdigest()[:16]}:{options!r}:{merge}"
    return o, token, up["filename"]


def several_files() -> bool:
    """Whether the current upload is several files (no column mapping then)."""
    return "files" in (st.session_state.get(UPLOAD_KEY) or {})


def uploaded_names() -> list[str]:
    """The names of the files of the current upload of several (``[]`` otherwise): where
    "Copy code" reads data that do not record their files (added files combined by a
    choice, :func:`app_state.texts.code_source`)."""
    return list((st.session_state.get(UPLOAD_KEY) or {}).get("files") or ())
