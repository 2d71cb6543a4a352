"""The shared sidebar (dataset, benchmark, workers, session) and what a page starts with.

``st.session_state[DATASET_KEY]`` (``"scorio_dataset"``) holds the :class:`Dataset` chosen
in the current run (written by ``app.py`` before the page runs, read through
:func:`current_dataset`); ``st.session_state[LAST_GOOD_KEY]`` the last dataset that loaded,
shown again when a new upload is rejected. Widget keys: ``dataset``, ``benchmark``,
``workers``, ``scheduler``.
"""

from __future__ import annotations

import streamlit as st

from app_pages import _loading, _runs, _session, _widgets
from app_pages._loading import Dataset
from app_state.texts import error_text, load_changed_line, load_hint
from scorio_core import COMBINED, Outcomes, ValidationError
from scorio_core.formatting import shape_text
from scorio_core.outcomes import GROUP

DATASET_KEY = "scorio_dataset"
LAST_GOOD_KEY = "scorio_last_good"
# Set by sidebar(), consumed by current_dataset(): "the router rendered the sidebar in this run".
_SHELL_KEY = "_scorio_shell_rendered"


def _load(choice: str) -> tuple[Outcomes, str, str]:
    try:
        loaded = _loading.load_choice(choice)
    except ValidationError as exc:
        loaded = None
        st.error(f"Could not load this file: {error_text(exc)}"  # the options' widgets
                 f"{load_hint(exc, _loading.several_files())}", icon=":material/error:")
    except Exception as exc:  # noqa: BLE001 -- a malformed upload must never show a traceback
        loaded = None
        st.error(f"Could not read this file ({type(exc).__name__}): {exc}", icon=":material/error:")
    if loaded is None:
        first = next(iter(_loading.BUNDLED))
        loaded = st.session_state.get(LAST_GOOD_KEY) or _loading.bundled(first)
        if choice == _loading.UPLOAD:
            st.sidebar.info(f"Showing the previous dataset: **{loaded[2]}**")
    else:
        st.session_state[LAST_GOOD_KEY] = loaded
    return loaded


def sidebar() -> Dataset:
    """Render the shared sidebar and store the selected :class:`Dataset` in session state."""
    side = st.sidebar
    _session.before_sidebar()  # a link's or a restored session's dataset and benchmark
    # a select box, like Benchmark below: one widget kind less to load on a first visit
    choice = side.selectbox("Dataset", [*_loading.BUNDLED, _loading.UPLOAD], key="dataset")
    full, token, source = _load(choice)
    benchmark = COMBINED
    if full.benchmark_names:
        # a harness group of benchmarks (lm-eval group_subtasks) is a choice too
        groups = [g for g in (full.attribute_values(GROUP) if GROUP in full.question_attributes
                              else []) if g not in full.benchmark_names]
        options = [COMBINED, *full.benchmark_names, *groups]
        if st.session_state.get("benchmark") not in options:
            st.session_state["benchmark"] = COMBINED
        benchmark = side.selectbox(
            "Benchmark", options, key="benchmark", help="'combined' pools all questions; a "
            "group pools the questions of its benchmarks",
            format_func=lambda b: f"{b} (group)" if b in groups else b,
        )
    view = full.select(benchmark)
    side.caption(f"{view.name}: {shape_text(view.L, view.M, view.N)}")
    _runs.workers_box()
    ds = Dataset(full, view, benchmark, token, source)
    _session.after_sidebar(ds)  # Save / Restore session; the link of this view
    st.session_state[DATASET_KEY] = ds
    st.session_state[_SHELL_KEY] = True
    return ds


def current_dataset() -> Dataset:
    """The dataset selected in the sidebar (``app.py`` renders it before every page)."""
    if st.session_state.pop(_SHELL_KEY, False):
        return st.session_state[DATASET_KEY]
    # A page run without app.py (e.g. AppTest on a page file): render the sidebar here so
    # the page never works on a stale selection. (Pages live in app_pages/, not pages/:
    # Streamlit's legacy pages/-folder mode would run a deep link's file without app.py.)
    ds = sidebar()
    st.session_state.pop(_SHELL_KEY, None)
    return ds


def page_start(title: str, detail=None) -> Dataset:
    """The selected dataset, after the page title, its shape caption, a line saying what the
    load changed (:func:`app_state.texts.load_changed_line`) and the synthetic note.

    ``detail(outcomes) -> str`` adds a page-specific part to the caption.
    """
    ds = current_dataset()
    o = ds.view
    st.title(title)
    extra = f" · {detail(o)}" if detail else ""
    st.caption(f"{_widgets.prose(o.name)} · {shape_text(o.L, o.M, o.N)}{extra}")
    # what the load did to the numbers, said where every analysis starts, not only in the
    # collapsed Caveats box at the page's end
    if changed := load_changed_line(o):
        st.markdown(f":material/info: {changed}")
    _widgets.synthetic_note(o)
    return ds
