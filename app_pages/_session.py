"""Save and restore the app's state: a session file in the sidebar, and links to a view.

The settings themselves are kept by :mod:`app_pages._page_state`. A session file
(:mod:`app_state.session`) holds the data's name and sha256, the benchmark,
every analysis's settings, the Simulator's study and the settings of the studies it ran,
the edited rubric and the Report page's choices; restoring
one whose data are not loaded says what it expected and what it found, and waits
(nothing is changed) until those data are loaded. For bundled datasets the URL carries
the dataset, the benchmark and the page's non-default settings.
"""

from __future__ import annotations

import inspect

import streamlit as st

from app_pages import _link, _loading, _page_state
from app_pages._widgets import lazy_expander
from app_state import session as sess
from app_state.page_state import page_default
from app_state.texts import error_text
from scorio_core import ValidationError
from scorio_core.definitions import ANALYSES, SIMULATIONS
from scorio_core.definitions.provenance import export_filename

PENDING, SLOT = "_scorio_pending", "_scorio_save_slot"
SEEN = "_scorio_session_seen"
#: ``(file name, bytes)`` of a session file to restore: the uploader writes it, and a test
#: (or any caller) that sets it exercises exactly the path of a real upload.
UPLOADED = "scorio_session_upload"


#: The uploader's own size limit where the installed Streamlit has one (else its 200 MB
#: server limit shows; the core still refuses files over 2,000,000 bytes).
_MAX_MB = ({"max_upload_size": 2}
           if "max_upload_size" in inspect.signature(st.file_uploader).parameters else {})


def _ss():
    return st.session_state


def before_sidebar() -> None:
    """Before the dataset radio renders: a link's or a restored session's data choice."""
    _link.read_once()
    pending = _ss().get(PENDING)
    if pending is not None and not pending["selected"]:
        pending["selected"] = True
        data = pending["session"].data
        label = _loading.bundled_label(str((data.get("input") or {}).get("file") or ""))
        _ss()["dataset"] = label or _loading.UPLOAD
        if data.get("benchmark"):
            _ss()["benchmark"] = data["benchmark"]


def after_sidebar(ds) -> None:
    """Finish a waiting restore, show notes, the Session box, and this view's link."""
    side = st.sidebar
    pending = _ss().get(PENDING)
    if pending is not None:
        why = sess.check_data(pending["session"], ds.full)
        if why is None:
            _page_state.apply(pending["session"])
            _ss().pop(PENDING)
            if pending["session"].data.get("benchmark", ds.benchmark) != ds.benchmark:
                side.warning(f"Benchmark {pending['session'].data['benchmark']!r} is not in "
                             "these data; showing 'combined'.")
            side.success(f"Restored session **{pending['name']}**.")
        else:
            st.error(f"Session **{pending['name']}** is not restored yet: {why} — load those data "
                     "(for an upload: *Upload a file* in the sidebar) and it is restored; nothing "
                     "has been changed (or *Discard this session* in the sidebar).",
                     icon=":material/error:")  # top of the page: the reason is seen first
            if side.button("Discard this session", key="session_discard"):
                _ss().pop(PENDING)
                st.rerun()
    _session_box(ds)
    _link.write(ds)


def session_json(ds, state=None) -> str:
    """The session file of the current state (or of ``state``, a snapshot of the session
    state): data, every analysis (page defaults where a page has not run), rubric, report."""
    ss = _ss() if state is None else state
    ran = ss.get(_page_state.STORE) or {}
    settings = {aid: ran.get(aid) or page_default(aid, ds.view) for aid in ANALYSES}
    settings |= {sid: ran[sid] for sid in SIMULATIONS if sid in ran}
    return sess.to_json(settings, ds.full, benchmark=ds.benchmark,
                        rubric=ss.get(_page_state.RUBRIC), report=ss.get(_page_state.REPORT),
                        study=ss.get(_page_state.STUDY))


def save_button() -> None:
    """*Save session*, rendered after the page ran so the file holds this run's settings
    (``app.py`` calls it last; its place in the sidebar was kept by :func:`after_sidebar`)."""
    slot, ds = _ss().pop(SLOT, None), _ss().get("scorio_dataset")
    if slot is None or ds is None:
        return
    # this run's state now; the file itself (every page's defaults: their definitions and
    # sweeps) is made on click, so the first page does not import every analysis
    keys = (_page_state.STORE, _page_state.RUBRIC, _page_state.REPORT, _page_state.STUDY)
    snapshot = {k: _ss().get(k) for k in keys}
    snapshot[_page_state.STORE] = dict(snapshot[_page_state.STORE] or {})
    slot.download_button(
        "Save session", lambda: session_json(ds, snapshot),
        export_filename(ds.view, "session", "json"),
        "application/json", on_click="ignore", key="session_save", icon=":material/save:",
        help="The data's name and sha256, the benchmark and every page's settings (no "
        "data): load it under Restore session to come back to this state.")


def _session_box(ds) -> None:
    box = lazy_expander("Session", "session_box", sidebar=True)  # widgets only while open
    if box is not None:
        with box:
            _ss()[SLOT] = st.empty()
            f = st.file_uploader("Restore session", type=["json"], key="session_upload",
                                 help="A file saved with Save session (at most 2 MB).", **_MAX_MB)
            if f is not None and _ss().get(SEEN) != f.file_id:
                _ss()[SEEN] = f.file_id
                _ss()[UPLOADED] = (f.name, f.getvalue())
    if (up := _ss().pop(UPLOADED, None)) is None:
        return
    name, raw = up
    try:
        session = sess.from_json(raw)
    except ValidationError as exc:
        st.sidebar.error(f"Could not restore {name}: {error_text(exc)}", icon=":material/error:")
        return
    _ss()[PENDING] = {"session": session, "name": name, "selected": False}
    st.rerun()
