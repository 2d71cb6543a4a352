"""Files added to an upload: merged only when nothing collides, otherwise the user chooses.

Dropping a second file onto the uploader that still holds the first used to read them
together silently (the same results as a CSV and as Inspect logs became every model
twice, ``p_best`` halved). When the uploader's files grow, the files already loaded are
the *current* data and the added ones the *new*: :func:`scorio_core.io.upload.check_upload`
compares them; if model names nearly coincide or (model, question) cells repeat, the
sidebar shows what collides and asks -- replace / add as another benchmark / cancel
(:data:`~scorio_core.io.upload.CHOICES`); until the user picks, the current data stay.

Session state: ``_scorio_upload_loaded`` (the ``(name, bytes)`` files the current data
come from), widget ``upload_merge`` (the choice), ``_scorio_upload_merge`` (the names of
the added files the choice is about; a different set of added files asks again).
"""

from __future__ import annotations

import streamlit as st

from app_pages._runs import RESULTS_TTL_S
from scorio_core import Outcomes, io
from scorio_core.formatting import noun_text
from scorio_core.io.upload import CHOICES, UploadCheck, apply_upload, check_upload

LOADED, CHOICE, ABOUT = "_scorio_upload_loaded", "upload_merge", "_scorio_upload_merge"
Files = tuple[tuple[str, bytes], ...]


def added(files: Files) -> tuple[Files, Files] | None:
    """``(current, new)`` when ``files`` are the loaded files plus others, else ``None``."""
    loaded = st.session_state.get(LOADED) or ()
    have = set(loaded)
    if loaded and have < set(files):
        return loaded, tuple(f for f in files if f not in have)
    return None


@st.cache_resource(max_entries=4, ttl=RESULTS_TTL_S, show_spinner="Comparing the added files…")
def _check(current: Files, new: Files, options: io.LoadOptions, _load) -> UploadCheck:
    return check_upload(_load(current, options), _load(new, options))


@st.cache_resource(max_entries=4, ttl=RESULTS_TTL_S, show_spinner="Combining…")
def _apply(current: Files, new: Files, options: io.LoadOptions, choice: str, _load) -> Outcomes:
    return apply_upload(_check(current, new, options, _load), choice)


def resolve(current: Files, new: Files, options: io.LoadOptions, load) -> tuple[Outcomes, str]:
    """The data to show after files were added, and the choice they come from (``""`` when
    nothing collides: then all files are read together, as before). ``load(files,
    options)`` reads files (the cached loader)."""
    chk = _check(current, new, options, load)
    if not chk.conflict:
        st.session_state[LOADED] = current + new
        return load(current + new, options), ""
    names = tuple(n for n, _ in new)
    if st.session_state.get(ABOUT) != names:  # other files added: ask again
        st.session_state[ABOUT] = names
        st.session_state.pop(CHOICE, None)
    side = st.sidebar
    side.warning(f"**The added {noun_text(len(names), 'file')} {', '.join(names)} "
                 f"{'collides' if len(names) == 1 else 'collide'} with the loaded data**: "
                 f"{chk.message}", icon=":material/merge_type:")
    choice = side.radio("What to do with the added files?", list(chk.choices), index=None,
                        key=CHOICE, format_func=lambda c: f"{c.replace('_', ' ')}: {CHOICES[c]}")
    if choice is None or choice == "cancel":
        side.caption("Showing the data loaded before the files were added.")
        return chk.current, choice or "pending"
    return _apply(current, new, options, choice, load), choice
