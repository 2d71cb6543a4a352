"""What only the app needs, kept out of the core and free of Streamlit (so it is unit-tested
without a browser): session files and links (:mod:`.session`), the settings each page keeps
(:mod:`.page_state`, :mod:`.sim_state`) and the screen texts and tables (:mod:`.texts`).

The Streamlit side -- widgets, caches, the sidebar -- is in ``app_pages/``; the computation,
results, charts, reports and the CLI are in ``scorio_core`` (which never imports this).
"""

#: The environment variable that, set to ``1`` where the server starts, draws a session's
#: first run's charts in that run instead of a moment later (``app_pages._render``, which
#: reads it): for servers that tests drive, where every new session would otherwise wait
#: for the timer's rerun. Unset (or any other value), a first visit gets its table first.
#: Declared here, free of Streamlit, so the tools that start such a server
#: (``tests/app/_browser.py``, the screenshot tool) name it without importing the pages,
#: whose cached functions Streamlit warns about outside a running server.
CHARTS_AT_ONCE = "SCORIO_CHARTS_AT_ONCE"
