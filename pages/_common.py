"""Shared helpers for ``app.py`` and the pages: dataset sidebar, cached core calls.

Session-state contract (also the test seam)
-------------------------------------------
``st.session_state[UPLOAD_KEY]`` (``"scorio_upload"``)
    ``{"filename": str, "data": bytes}`` -- the raw bytes of the last uploaded
    file -- or, for several files, ``{"filename": "3 files", "files": {name: bytes}}``.
    The sidebar writes it right after ``st.file_uploader`` returns files;
    parsing, validation and caching read *only* this key, so a test (or any
    caller) that sets it and selects ``"Upload a file"`` exercises exactly the
    code path of a real upload.
``st.session_state[DATASET_KEY]`` (``"scorio_dataset"``)
    The :class:`Dataset` chosen in the current run (written by ``app.py`` before
    the page runs, read by pages through :func:`current_dataset`).
``st.session_state[LAST_GOOD_KEY]`` (``"scorio_last_good"``)
    The last dataset that loaded; shown again when a new upload is rejected.

Widget keys: ``dataset``, ``upload``, ``on_missing``, ``scorer``, ``col_<role>`` (column
mapping of a single uploaded table), ``upload_weights`` (category weights of an upload, e.g.
``"0, 0.5, 1"``), ``benchmark``.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import streamlit as st

from scorio_core import COMBINED, Outcomes, ValidationError, io
from scorio_core.analyses.provenance import attach_source
from scorio_core.leaderboard import COLUMN_HELP, Leaderboard

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
DATASET_KEY = "scorio_dataset"
LAST_GOOD_KEY = "scorio_last_good"
# Set by sidebar(), consumed by current_dataset(): "the router rendered the sidebar in this run".
_SHELL_KEY = "_scorio_shell_rendered"


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
def _load_bytes(
    files: tuple[tuple[str, bytes], ...],
    on_missing: str,
    columns: tuple,
    scorer: str | None,
    weights: tuple[float, ...] | None = None,
) -> Outcomes:
    source = {name: data for name, data in files}
    if len(files) == 1:
        (name, data), = files
        source = data
    else:
        name = None
    o = io.load(source, filename=name, on_missing=on_missing, columns=dict(columns) or None,
                scorer=scorer or None, weights=weights)
    return attach_source(o, source, name) if name else o  # one file: its sha256 for reports


def parse_weights(text: str) -> tuple[float, ...] | None:
    """The *Category weights* box: numbers separated by commas or spaces; blank = none."""
    parts = [t for t in text.replace(",", " ").split() if t]
    if not parts:
        return None
    try:
        return tuple(float(t) for t in parts)
    except ValueError:
        raise ValidationError(
            f"Category weights: expected numbers separated by commas, one per category 0..C "
            f"(e.g. 0, 0.5, 1); got {text!r}"
        ) from None


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


def _bundled(label: str) -> tuple[Outcomes, str]:
    path = BUNDLED[label]
    mtime = path.stat().st_mtime
    return _load_path(str(path), mtime), f"bundled:{path.name}:{mtime}"


def _upload_widgets() -> dict | None:
    side = st.sidebar
    files = side.file_uploader(
        "Outcome files or logs",
        type=UPLOAD_TYPES,
        key="upload",
        accept_multiple_files=True,
        help="`.npz` with an array `R` (L, M, N); a long table with columns model, question, "
        "trial, outcome (+ optional decoding = sample|greedy); or evaluation logs -- Inspect "
        "`.eval`/`.json`, lm-eval `samples_*.jsonl` + `results_*.json`, OpenAI evals `.jsonl`, "
        "HELM `per_instance_stats.json` + `run_spec.json` -- several at once or as one `.zip`.",
    )
    side.selectbox(
        "Missing cells",
        options=list(MISSING),
        format_func=MISSING.get,
        key="on_missing",
        help="What to do when some (model, question, trial) cells of a long table are absent",
    )
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


def _load_choice(choice: str) -> tuple[Outcomes, str, str] | None:
    """Load the chosen source; ``None`` when nothing is uploaded yet. Raises on bad input."""
    if choice != UPLOAD:
        o, token = _bundled(choice)
        return o, token, f"data/{BUNDLED[choice].name}"
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
    return o, token, up["filename"]


def _hint(exc: ValidationError) -> str:
    """What to change in the sidebar for this kind of load error (nothing for the others)."""
    if isinstance(exc, io.MissingColumnsError):
        cols = ", ".join(f"**{c}**" for c in exc.columns) or "a required column"
        if "files" in (st.session_state.get(UPLOAD_KEY) or {}):
            return (f"\n\nNo column {cols} was found. Rename it in the file (the column "
                    "mapping is offered when one table is uploaded).")
        return (f"\n\nNo column {cols} was found: pick the column that holds it under "
                "**Column mapping** in the sidebar.")
    if isinstance(exc, io.MissingCellsError):
        return "\n\nTo load it anyway, change **Missing cells** in the sidebar."
    if isinstance(exc, io.MissingWeightsError):
        return ("\n\nIf the data are categorical, enter one weight per category under "
                "**Category weights** in the sidebar (e.g. `0, 0.5, 1`).")
    return ""


def sidebar() -> Dataset:
    """Render the shared sidebar and store the selected :class:`Dataset` in session state."""
    side = st.sidebar
    choice = side.radio("Dataset", [*BUNDLED, UPLOAD], key="dataset")
    try:
        loaded = _load_choice(choice)
    except ValidationError as exc:
        loaded = None
        st.error(f"Could not load this file: {exc}{_hint(exc)}", icon=":material/error:")
    except Exception as exc:  # noqa: BLE001 -- a malformed upload must never show a traceback
        loaded = None
        st.error(f"Could not read this file ({type(exc).__name__}): {exc}", icon=":material/error:")
    if loaded is None:
        loaded = st.session_state.get(LAST_GOOD_KEY) or _fallback()
        if choice == UPLOAD:
            side.info(f"Showing the previous dataset: **{loaded[2]}**")
    else:
        st.session_state[LAST_GOOD_KEY] = loaded
    full, token, source = loaded

    benchmark = COMBINED
    if full.benchmark_names:
        options = [COMBINED, *full.benchmark_names]
        if st.session_state.get("benchmark") not in options:
            st.session_state["benchmark"] = COMBINED
        benchmark = side.selectbox(
            "Benchmark", options, key="benchmark", help="'combined' pools all questions"
        )
    view = full.select(benchmark)
    side.caption(f"{view.name}: {view.L} models × {view.M} questions × {view.N} trials")
    with side.expander("Workers (Dask)"):
        st.number_input(
            "Local worker processes", 0, 64, 0, key="workers",
            help="Run the Convergence and Stability sweeps on a local Dask cluster of this "
            "many processes (0: in the app's own process). Results are identical either way.",
        )
        st.text_input("or a scheduler address", key="scheduler", placeholder="tcp://host:8786",
                      help="A running Dask scheduler whose workers have scorio-studio installed")
    ds = Dataset(full, view, benchmark, token, source)
    st.session_state[DATASET_KEY] = ds
    st.session_state[_SHELL_KEY] = True
    return ds


def page_start(title: str, detail=None) -> Dataset:
    """The selected dataset, after the page title, its shape caption and the synthetic note.

    ``detail(outcomes) -> str`` adds a page-specific part to the caption.
    """
    ds = current_dataset()
    o = ds.view
    st.title(title)
    extra = f" · {detail(o)}" if detail else ""
    st.caption(f"{o.name} · {o.L} models × {o.M} questions × {o.N} trials{extra}")
    synthetic_note(o)
    return ds


def number_formats(columns, fmt: str = "%.3f") -> dict:
    """``column_config`` showing each of ``columns`` as a number with ``fmt``."""
    return {c: st.column_config.NumberColumn(format=fmt) for c in columns}


def forget_on_new_data(ds: Dataset, *keys: str) -> None:
    """Drop page widget values chosen for another dataset (e.g. k > N, another C)."""
    if st.session_state.get("_scorio_widgets_data") != ds.data_token:
        for key in keys:
            st.session_state.pop(key, None)
        st.session_state["_scorio_widgets_data"] = ds.data_token


def _fallback() -> tuple[Outcomes, str, str]:
    label = next(iter(BUNDLED))
    o, token = _bundled(label)
    return o, token, f"data/{BUNDLED[label].name}"


_REROUTED_KEY = "_scorio_rerouted"


def current_dataset() -> Dataset:
    """The dataset selected in the sidebar (``app.py`` renders it before every page)."""
    if st.session_state.pop(_SHELL_KEY, False):
        return st.session_state[DATASET_KEY]
    # Streamlit's pages/-folder compatibility mode (MPA v1) runs a page file without
    # app.py on the first request of a fresh server (a deep link such as /leaderboard),
    # showing its automatic page list instead of the router. Leave that mode (it is
    # server-wide and app.py's st.navigation leaves it too) and run again, now through
    # app.py. Only once per session: should the router still not run, render the
    # sidebar here so the page never works on a stale selection.
    if not st.session_state.get(_REROUTED_KEY):
        from streamlit.runtime.pages_manager import PagesManager

        st.session_state[_REROUTED_KEY] = True
        PagesManager.uses_pages_directory = False
        st.rerun()
    ds = sidebar()
    st.session_state.pop(_SHELL_KEY, None)
    return ds


@st.cache_data(max_entries=8)
def long_preview(token: str, _outcomes: Outcomes, rows: int = 200) -> pd.DataFrame:
    """First ``rows`` rows of the long table (one row per completion)."""
    return io.to_long_frame(_outcomes).head(rows).to_pandas()


#: Columns whose infinite or missing values mean something: a tie that no number of trials
#: separates (∞) or the last model, which has no next one (—).
_SYMBOLIC = ("z_next", "n_needed")


def spell_missing(table: pd.DataFrame, formats: dict[str, str]) -> pd.DataFrame:
    """``table`` for the screen: the ``formats`` columns as text, with ∞ and — where a
    number column would show ``Infinity`` and ``None``."""
    out = table.copy()
    for c, fmt in formats.items():
        if c in out:
            out[c] = [
                "—" if pd.isna(v) else ("∞" if v == float("inf") else fmt.format(v))
                for v in out[c]
            ]
    return out


def board_display(table: pd.DataFrame) -> pd.DataFrame:
    """The leaderboard for the screen: ∞ for a tie no number of trials separates, — for
    the last model (no next one)."""
    return spell_missing(table, {"z_next": "{:.2f}", "n_needed": "{:,.0f}"})


def column_config(table: pd.DataFrame) -> dict:
    """``st.column_config`` entries with the core's one-line help per column."""
    cfg = {}
    # Wide enough for the longest model name (about 7.5 px per character), within limits.
    name_px = int(min(max(7.5 * table["model"].astype(str).str.len().max() + 24, 120), 340))
    for c in table.columns:
        if c == "model":
            cfg[c] = st.column_config.TextColumn(c, help=COLUMN_HELP[c], pinned=True, width=name_px)
        elif c.startswith("rank"):
            cfg[c] = st.column_config.NumberColumn(c, help=COLUMN_HELP.get(c), format="%d")
        elif c.startswith("pass@"):
            help_ = f"Pass@{c[5:]}: probability that at least one of {c[5:]} trials is correct"
            cfg[c] = st.column_config.NumberColumn(c, help=help_, format="%.4f")
        elif c in _SYMBOLIC and not pd.api.types.is_numeric_dtype(table[c]):  # board_display
            cfg[c] = st.column_config.TextColumn(c, help=COLUMN_HELP[c])
        elif c == "n_needed":
            cfg[c] = st.column_config.NumberColumn(c, help=COLUMN_HELP[c], format="%.0f")
        elif c == "p_best":
            cfg[c] = st.column_config.NumberColumn(c, help=COLUMN_HELP[c], format="%.3f")
        elif c == "z_next":
            cfg[c] = st.column_config.NumberColumn(c, help=COLUMN_HELP[c], format="%.2f")
        else:
            cfg[c] = st.column_config.NumberColumn(c, help=COLUMN_HELP.get(c), format="%.4f")
    return cfg


def show_unresolved(board: Leaderboard, n_now: int) -> None:
    """A sentence and a table: which neighbours are tied, and the trials that would split them."""
    pairs = board.unresolved().rename(columns={"trials_needed": "trials needed"})
    conf = board.settings["confidence"]
    if pairs.empty:
        st.success(f"Every adjacent pair is separated at {conf:.0%}.")
        return
    st.markdown(
        f"**{len(pairs)} of {len(board.table) - 1} adjacent pairs are undecided** at "
        f"{conf:.0%} ({board.settings.get('scope', 'questions')} scope). Trials per question "
        f"that would separate each pair in the questions scope if its gap held (now N = "
        f"{n_now}; ∞ = identical means) -- the Planner adds the questions needed, which more "
        "trials cannot replace:"
    )
    st.dataframe(
        pairs,
        hide_index=True,
        height=table_height(len(pairs)),
        column_config={
            "gap": st.column_config.NumberColumn(format="%.4f"),
            "z": st.column_config.NumberColumn(format="%.2f"),
            "p_better": st.column_config.NumberColumn("P(better > next)", format="%.3f"),
            "trials needed": st.column_config.NumberColumn(format="%.0f"),
        },
    )


def table_height(n_rows: int, max_rows: int = 25) -> int:
    """Pixel height that shows ``n_rows`` rows (up to ``max_rows``) without scrolling."""
    return 35 * (min(n_rows, max_rows) + 1) + 3


def synthetic_note(o: Outcomes) -> None:
    """A visible warning when the dataset's metadata marks it synthetic."""
    if o.metadata.get("synthetic"):
        st.warning(
            "**Synthetic data — not real model outputs.** Simulated outcomes (see the "
            "description) for exploring and teaching the method; do not cite as results.",
            icon="⚠️",
        )


@st.cache_resource
def _results_store() -> dict:
    """Finished long analyses keyed by (kind, parameters); shared, bounded (oldest dropped)."""
    return {}


_RESULTS_SIZE = 24


def cached_result(kind: str, key: tuple):
    """A finished analysis from :func:`run_cached`, or ``None``."""
    return _results_store().get((kind, key))


def eta_text(elapsed: float, fraction: float) -> str:
    """``"1:05 elapsed, about 2:10 left"`` from the share done so far (linear estimate)."""

    def clock(sec: float) -> str:
        sec = int(round(sec))
        return f"{sec // 3600}:{sec % 3600 // 60:02d}:{sec % 60:02d}" if sec >= 3600 else (
            f"{sec // 60}:{sec % 60:02d}"
        )

    if fraction <= 0.02 or elapsed < 1.0:
        return f"{clock(elapsed)} elapsed"
    left = elapsed * (1.0 - fraction) / fraction
    return f"{clock(elapsed)} elapsed, about {clock(left)} left"


def executor():
    """The sidebar's choice as a :class:`scorio_core.parallel.Executor` (use in ``with``)."""
    from scorio_core.parallel import Executor

    scheduler = (st.session_state.get("scheduler") or "").strip() or None
    return Executor(int(st.session_state.get("workers") or 0), scheduler)


def run_cached(kind: str, key: tuple, compute, label: str):
    """Run ``compute(progress)`` once per ``(kind, key)`` with a progress bar; reuse after.

    ``progress(fraction, message)`` is the callback the core analyses accept.
    """
    store = _results_store()
    full = (kind, key)
    if full not in store:
        bar = st.progress(0.0, text=label)
        start = time.monotonic()

        def progress(frac: float, msg: str) -> None:
            f = min(max(float(frac), 0.0), 1.0)
            bar.progress(f, text=f"{label} — {msg} · {eta_text(time.monotonic() - start, f)}")

        result = compute(progress)
        bar.empty()
        if len(store) >= _RESULTS_SIZE:
            store.pop(next(iter(store)))
        store[full] = result
    return store[full]
