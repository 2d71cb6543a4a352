"""Links to a view: the URL of a bundled dataset carries the dataset, the benchmark and the
current page's non-default settings (``st.query_params``; the Simulator's study and its
settings whatever the data); a new browser session opened from such a link starts from that
view. Bad query parameters become one message."""

from __future__ import annotations

import streamlit as st

from app_pages import _loading, _page_state
from app_state import session as sess
from app_state.texts import error_text
from scorio_core import ValidationError

URL_READ, WANT_BENCH, NOTE = "_scorio_url_read", "_scorio_want_benchmark", "_scorio_link_note"


def _ss():
    return st.session_state


def read_once() -> None:
    """Once per browser session, before the dataset radio renders: take the link's view."""
    if not _ss().get(URL_READ):
        _ss()[URL_READ] = True
        _read()


def _read() -> None:
    """A fresh session opened from a link: take its dataset, benchmark and settings.

    Each analysis's (or study's) settings are read on their own: settings that do not fit
    together (a study's better model below its worse one) cost the link those settings
    alone, said in the sidebar, not its dataset, its other settings nor the Simulator's study
    it opens (the audit: order.upper=0.6&order.lower=0.7 opened Biased coins)."""
    q = st.query_params.to_dict()
    if not q:
        return
    try:
        stem, bench, _ = sess.view_from_query({k: v for k, v in q.items() if "." not in k})
        study = sess.study_from_query(q)
    except ValidationError as exc:
        _ss()[NOTE] = f"This link's settings could not be used: {error_text(exc)}"
        return
    settings, wrong = {}, []
    for aid in sorted({k.split(".", 1)[0] for k in q if "." in k}):
        mine = {k: v for k, v in q.items() if k.startswith(aid + ".")}
        try:
            settings |= sess.view_from_query(mine)[2]
        except ValidationError as exc:
            wrong.append(error_text(exc))
            q = {k: v for k, v in q.items() if k not in mine}  # its page shows its defaults
    if wrong:
        _ss()[NOTE] = ("This link's settings could not be used: " + "; ".join(wrong)
                       + ". Their page shows its own settings instead.")
    label = _loading.bundled_label(stem) if stem else None
    if stem and label is None:
        names = ", ".join(p.stem for p in _loading.BUNDLED.values())
        _ss()[NOTE] = f"The link names dataset {stem!r}; expected one of {names}."
        return
    if label:
        _ss()["dataset"] = label
    if bench:
        _ss()["benchmark"] = _ss()[WANT_BENCH] = bench
    _page_state.apply_link(q, settings, study)


def write(ds) -> None:
    """Report what the link asked for but could not get, and put this view in the URL. Said
    in the run that read the link and again in the redraw of its charts (``_render.
    lasting``), so it stays on screen until the user's next action."""
    from app_pages._render import lasting

    if note := lasting(NOTE, _ss().pop(NOTE, None)):
        st.sidebar.error(note, icon=":material/error:")
    want = lasting(WANT_BENCH, _ss().pop(WANT_BENCH, None))
    if want and want != ds.benchmark:
        st.sidebar.warning(f"The link's benchmark {want!r} is not in these data; showing "
                           f"{ds.benchmark!r}.")
    if ds.data_token.startswith("bundled:"):
        stem = ds.source.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        st.query_params.from_dict(sess.view_query(stem, ds.benchmark))
    else:  # a link cannot carry an upload
        st.query_params.clear()
