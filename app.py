"""Scorio Studio -- router only: page config, the shared dataset sidebar, navigation.

Run with ``streamlit run app.py`` from the repository root. Every number on
every page comes from a ``scorio_core`` call that a notebook can repeat.
"""

from __future__ import annotations

import sys
from importlib.machinery import ModuleSpec
from pathlib import Path

# Streamlit runs this script as ``__main__`` with its path as ``__file__`` and no spec, so
# every process started by spawning -- each worker of the local Dask cluster that the
# sidebar's *Workers* start for a sweep -- ran the whole script again before its first
# piece of work (the app's imports and the sidebar's data load, outside Streamlit). A spec
# named ``__main__`` tells multiprocessing there is no main module to run again.
__spec__ = ModuleSpec("__main__", None)

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:  # `streamlit run` adds it; AppTest and other launchers may not
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from app_pages import _render, _session, _sidebar  # noqa: E402

# Our matrices are small: BLAS threads only add hand-off cost (and contend between sessions).
threadpool_limits(1, user_api="blas")
st.set_page_config(page_title="Scorio Studio", page_icon="📊", layout="wide")

nav = st.navigation(
    [
        st.Page("app_pages/data.py", title="Data", icon=":material/table_view:", default=True),
        st.Page("app_pages/leaderboard.py", title="Leaderboard", icon=":material/leaderboard:"),
        st.Page("app_pages/pair.py", title="Pair view", icon=":material/compare:"),
        st.Page("app_pages/questions.py", title="Questions", icon=":material/quiz:"),
        st.Page("app_pages/planner.py", title="Planner", icon=":material/event_note:"),
        st.Page("app_pages/check.py", title="Check a smaller run",
                icon=":material/fact_check:"),
        st.Page("app_pages/rubric.py", title="Rubric builder", icon=":material/rule:"),
        st.Page(
            "app_pages/methods.py", title="Method comparison", icon=":material/compare_arrows:"
        ),
        st.Page("app_pages/convergence.py", title="Convergence", icon=":material/trending_up:"),
        st.Page("app_pages/stability.py", title="Stability", icon=":material/balance:"),
        st.Page("app_pages/greedy.py", title="Greedy vs sampling", icon=":material/call_split:"),
        st.Page("app_pages/report.py", title="Report", icon=":material/description:"),
        st.Page("app_pages/simulator.py", title="Simulator", icon=":material/casino:"),
    ],
    expanded=True,  # every page listed: no "View more" hiding the last ones
)
st.session_state[_render.RUNS] = st.session_state.get(_render.RUNS, 0) + 1
st.sidebar.title("Scorio Studio")
_sidebar.sidebar()
try:
    nav.run()
finally:  # after the page, so the file holds the settings this run used
    _session.save_button()
    _render.draw_deferred()  # a session's first run: its charts in a moment
    _render.run_marker()  # what browser tests wait for
