"""Save and restore the app's state: a session file in the sidebar, and links to a view.

Page settings live in ``st.session_state[STORE]`` (analysis id -> ``Params``), which
survives page changes (Streamlit drops the values of widgets a page does not render).
A page calls :func:`widgets` before its widgets -- it puts the stored (or restored, or
default) settings into the widget keys -- and :func:`remember` with the settings it ran.
A session file (:mod:`scorio_core.analyses.session`) holds the data's name and sha256,
the benchmark, every analysis's settings, the edited rubric and the Report page's choices;
restoring one whose data are not loaded says what it expected and what it found, and
waits (nothing is changed) until those data are loaded. For bundled datasets the URL
carries the dataset, the benchmark and the page's non-default settings.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from pages import _loading
from scorio_core import ValidationError
from scorio_core.analyses import ANALYSES
from scorio_core.analyses import session as sess
from scorio_core.analyses.page_state import page_default, state_keys, to_state
from scorio_core.analyses.provenance import export_filename

STORE, RUBRIC, REPORT = "_scorio_settings", "_scorio_rubric", "_scorio_report"
FORCE, TOKENS = "_scorio_force", "_scorio_tokens"
PENDING, NOTES = "_scorio_pending", "_scorio_notes"
URL_READ, WANT_BENCH, SEEN = "_scorio_url_read", "_scorio_want_benchmark", "_scorio_session_seen"
#: ``(file name, bytes)`` of a session file to restore: the uploader writes it, and a test
#: (or any caller) that sets it exercises exactly the path of a real upload.
UPLOADED = "scorio_session_upload"


def _ss():
    return st.session_state


def _force() -> set:
    return _ss().setdefault(FORCE, set())


def _apply(session: sess.Session) -> None:
    _ss().setdefault(STORE, {}).update(session.settings)
    _force().update(session.settings)
    if session.rubric is not None:
        _ss()[RUBRIC] = session.rubric
        _force().add("rubric_editor")
    if session.report:
        _ss()[REPORT] = session.report
        _force().add("report")


def _read_link() -> None:
    """A fresh session opened from a link: take its dataset, benchmark and settings."""
    q = st.query_params.to_dict()
    if not q:
        return
    try:
        stem, bench, settings = sess.view_from_query(q)
    except ValidationError as exc:
        _ss()[NOTES] = [f"This link's settings could not be used: {exc}"]
        return
    label = _loading.bundled_label(stem) if stem else None
    if stem and label is None:
        names = ", ".join(p.stem for p in _loading.BUNDLED.values())
        _ss()[NOTES] = [f"The link names dataset {stem!r}; expected one of {names}."]
        return
    if label:
        _ss()["dataset"] = label
    if bench:
        _ss()["benchmark"] = _ss()[WANT_BENCH] = bench
    _apply(sess.Session({}, settings))


def before_sidebar() -> None:
    """Before the dataset radio renders: a link's or a restored session's data choice."""
    if not _ss().get(URL_READ):
        _ss()[URL_READ] = True
        _read_link()
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
            _apply(pending["session"])
            _ss().pop(PENDING)
            if pending["session"].data.get("benchmark", ds.benchmark) != ds.benchmark:
                side.warning(f"Benchmark {pending['session'].data['benchmark']!r} is not in "
                             "these data; showing 'combined'.")
            side.success(f"Restored session **{pending['name']}**.")
        else:
            side.error(f"Session **{pending['name']}** is not restored yet: {why}. Load those "
                       "data (for an upload: *Upload a file*) and it is restored; nothing has "
                       "been changed.", icon=":material/error:")
            if side.button("Discard this session", key="session_discard"):
                _ss().pop(PENDING)
                st.rerun()
    for note in _ss().pop(NOTES, []):
        side.error(note, icon=":material/error:")
    want = _ss().pop(WANT_BENCH, None)
    if want and want != ds.benchmark:
        side.warning(f"The link's benchmark {want!r} is not in these data; showing "
                     f"{ds.benchmark!r}.")
    _session_box(ds)
    if ds.data_token.startswith("bundled:"):
        stem = ds.source.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        st.query_params.from_dict(sess.view_query(stem, ds.benchmark))
    else:  # a link cannot carry an upload
        st.query_params.clear()


def session_json(ds) -> str:
    """The session file of the current state: data, every analysis, rubric, report."""
    store = _ss().get(STORE, {})
    settings = {aid: store.get(aid) or page_default(aid, ds.view) for aid in ANALYSES}
    return sess.to_json(settings, ds.full, benchmark=ds.benchmark, rubric=_ss().get(RUBRIC),
                        report=_ss().get(REPORT))


def _session_box(ds) -> None:
    with st.sidebar.expander("Session"):
        st.download_button(
            "Save session", lambda: session_json(ds),
            export_filename(ds.view, "session", "json"), "application/json",
            key="session_save", icon=":material/save:",
            help="The data's name and sha256, the benchmark and every page's settings (no "
            "data): load it under Restore session to come back to this state.")
        f = st.file_uploader("Restore session", type=["json"], key="session_upload",
                             help="A file saved with Save session.")
        if f is not None and _ss().get(SEEN) != f.file_id:
            _ss()[SEEN] = f.file_id
            _ss()[UPLOADED] = (f.name, f.getvalue())
        if (up := _ss().pop(UPLOADED, None)) is None:
            return
        name, raw = up
        try:
            session = sess.from_json(raw)
        except ValidationError as exc:
            st.error(f"Could not restore {name}: {exc}", icon=":material/error:")
            return
        _ss()[PENDING] = {"session": session, "name": name, "selected": False}
        st.rerun()


def widgets(analysis_id: str, ds) -> None:
    """Put the stored, restored or default settings of ``analysis_id`` into its widget
    keys (call before the page's widgets); say what these data cannot show."""
    ss, force = _ss(), _force()
    params = ss.get(STORE, {}).get(analysis_id) or page_default(analysis_id, ds.view)
    tokens = ss.setdefault(TOKENS, {})
    # new data since this page last ran: re-show its settings as far as these data allow
    renew = analysis_id in force or tokens.get(analysis_id, ds.token) != ds.token
    keys = [k for k in state_keys(analysis_id) if not k.startswith("_")]
    if not renew and all(k in ss for k in keys):
        return
    try:
        state, notes = to_state(analysis_id, params, ds.view)
    except ValidationError as exc:
        state, notes = to_state(analysis_id, page_default(analysis_id, ds.view), ds.view)[0], [
            str(exc)]
    for k, v in state.items():
        if renew or k not in ss:
            ss[k] = v
    if analysis_id in force and notes:
        st.info("Restored with changes these data need: " + "; ".join(notes) + ".")
    force.discard(analysis_id)
    tokens[analysis_id] = ds.token


def remember(analysis_id: str, ds, params) -> None:
    """Keep the settings a page ran (for Save session and other pages) and put them in
    the link of a bundled dataset."""
    _ss().setdefault(STORE, {})[analysis_id] = params
    if ds.data_token.startswith("bundled:"):
        try:
            st.query_params.update(sess.to_query(analysis_id, params))
        except ValidationError:
            pass  # an edited rubric does not fit in a link; Save session keeps it


def restored_rubric():
    """The rubric a restored session asks the Rubric builder to edit (once), or ``None``."""
    if "rubric_editor" in _force():
        _force().discard("rubric_editor")
        return _ss().get(RUBRIC)
    return None


def remember_rubric(rubric) -> None:
    """Keep the rubric being edited for Save session."""
    _ss()[RUBRIC] = rubric


def report_widgets() -> None:
    """Put the Report page's restored or earlier sections and title into its widgets."""
    report = _ss().get(REPORT)
    if report and ("report" in _force() or "report_sections" not in _ss()):
        _ss()["report_sections"] = list(report.get("sections", []))
        if report.get("title"):
            _ss()["report_title"] = report["title"]
    _force().discard("report")


def remember_report(sections, title: str) -> None:
    """Keep the Report page's choices for Save session."""
    _ss()[REPORT] = {"sections": list(sections), "title": title}


def weights_key(weights) -> str:
    """A widget key for the weight editor that changes when its starting weights do."""
    return "weights_" + hashlib.sha256(repr(weights).encode()).hexdigest()[:8]
