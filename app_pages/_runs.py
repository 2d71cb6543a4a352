"""Long analyses on a page: run once per (kind, parameters) with a progress bar, reuse after."""

from __future__ import annotations

import time

import streamlit as st

from app_pages._widgets import lazy_expander
from scorio_core.display import eta_text

_RESULTS_SIZE = 24


@st.cache_resource
def _results_store() -> dict:
    """Finished long analyses keyed by (kind, parameters); shared, bounded (oldest dropped)."""
    return {}


def cached_result(kind: str, key: tuple):
    """A finished analysis from :func:`run_cached`, or ``None``."""
    return _results_store().get((kind, key))


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
