"""Scorio Studio pages, run by ``app.py`` via ``st.navigation``; ``_common`` is shared."""
