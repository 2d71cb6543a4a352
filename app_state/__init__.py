"""What only the app needs, kept out of the core and free of Streamlit (so it is unit-tested
without a browser): session files and links (:mod:`.session`), the settings each page keeps
(:mod:`.page_state`, :mod:`.sim_state`) and the screen texts and tables (:mod:`.texts`).

The Streamlit side -- widgets, caches, the sidebar -- is in ``app_pages/``; the computation,
results, charts, reports and the CLI are in ``scorio_core`` (which never imports this).
"""
