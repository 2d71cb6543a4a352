"""Long analyses on a page: run once per (kind, content key) with a progress bar, reuse after.

Finished results live in Streamlit's own bounded cache (:func:`_slot`), keyed by content --
the data's token (its file's sha256, the loader options and the benchmark) and the frozen
params -- so every session with the same data and settings shares one result, and the cache
drops the least recently used entry when full and any entry an hour after it was made.
"""

from __future__ import annotations

import time

import streamlit as st

from app_pages._widgets import lazy_expander
from app_state.texts import eta_text

#: Most finished analyses kept (over all sessions), and how long one is kept after it is made.
RESULTS_SIZE, RESULTS_TTL_S = 32, 3600


@st.cache_resource(max_entries=RESULTS_SIZE, ttl=RESULTS_TTL_S, show_spinner=False)
def _slot(kind: str, key: tuple) -> dict:
    """The holder of one analysis' result (``"result"``) and what is derived from it once
    (e.g. ``"charts"``); empty until :func:`run_cached` fills it."""
    return {}


def clear_results() -> None:
    """Forget every finished analysis (tests; a new code version)."""
    _slot.clear()


def cached_result(kind: str, key: tuple):
    """A finished analysis from :func:`run_cached`, or ``None``."""
    return _slot(kind, key).get("result")


def slot(kind: str, key: tuple) -> dict:
    """The cache entry of ``(kind, key)`` (see :func:`_slot`)."""
    return _slot(kind, key)


#: The sidebar's Dask choice, kept while its box is closed (a widget's own state is
#: dropped in runs that do not render it).
WORKERS, SCHEDULER = "_scorio_workers", "_scorio_scheduler"


def workers_box() -> None:
    """The sidebar's *Workers (Dask)* box (widget keys ``workers``, ``scheduler``; the box
    itself ``workers_box``): its label says the current choice; its widgets render (and
    their code loads in the browser) only while it is open."""
    ss = st.session_state
    n, address = int(ss.get(WORKERS) or 0), ss.get(SCHEDULER) or ""
    now = f": {address}" if address else f": {n} local" if n else ""
    box = lazy_expander(f"Workers (Dask){now}", "workers_box", sidebar=True)
    if box is None:
        return
    ss.setdefault("workers", n)
    ss.setdefault("scheduler", address)
    with box:
        ss[WORKERS] = st.number_input(
            "Local worker processes", min_value=0, max_value=64, step=1, key="workers",
            help="Run the Convergence and Stability sweeps on a local Dask cluster of this "
            "many processes (0: in the app's own process). Results are identical either way.",
        )
        ss[SCHEDULER] = st.text_input(
            "or a scheduler address", key="scheduler", placeholder="tcp://host:8786",
            help="A running Dask scheduler whose workers have scorio-studio installed").strip()


def executor():
    """The sidebar's choice as a :class:`scorio_core.parallel.Executor` (use in ``with``)."""
    from scorio_core.parallel import Executor

    ss = st.session_state
    return Executor(int(ss.get(WORKERS) or 0), ss.get(SCHEDULER) or None)


def run_cached(kind: str, key: tuple, compute, label: str):
    """Run ``compute(progress)`` once per ``(kind, key)`` with a progress bar; reuse after.

    ``progress(fraction, message)`` is the callback the core analyses accept.
    """
    held = _slot(kind, key)
    if "result" not in held:
        bar = st.progress(0.0, text=label)
        start = time.monotonic()

        def progress(frac: float, msg: str) -> None:
            f = min(max(float(frac), 0.0), 1.0)
            bar.progress(f, text=f"{label} — {msg} · {eta_text(time.monotonic() - start, f)}")

        result = compute(progress)
        bar.empty()
        held["result"] = result
    return held["result"]
