"""Page settings that survive page changes, restores and links.

Streamlit drops the values of widgets a page does not render, so each page's settings live
in ``st.session_state[STORE]`` (analysis id -> ``Params``). A page calls :func:`widgets`
before its widgets -- it puts the stored, restored (Restore session, a link) or default
settings into the widget keys -- and :func:`remember` with the settings it ran, which also
writes them into the link of a bundled dataset (a simulation study's, which uses no data,
into every link). The conversions are :mod:`app_state.page_state`.
"""

from __future__ import annotations

import dataclasses

import streamlit as st

from app_state import session as sess
from app_state.page_state import page_default, state_keys, to_state
from app_state.table_fit import BUTTON_PX, SELECT_PX, distinct_cuts, fitted_names, text_px
from app_state.texts import error_text
from scorio_core import ValidationError
from scorio_core.formatting import md_name

STORE, RUBRIC, REPORT = "_scorio_settings", "_scorio_rubric", "_scorio_report"
LINK = "_scorio_link"  # a link's query parameters, applied over each page's own defaults
FORCE, TOKENS = "_scorio_force", "_scorio_tokens"
STUDY, STUDY_KEY = "_scorio_study", "sim_lesson"  # the Simulator's study: stored, its radio


def _ss():
    return st.session_state


def _force() -> set:
    return _ss().setdefault(FORCE, set())


def apply(session: sess.Session) -> None:
    """Make ``session``'s settings, rubric and report choices the ones pages show next."""
    _ss().setdefault(STORE, {}).update(session.settings)
    _force().update(session.settings)
    if session.rubric is not None:
        _ss()[RUBRIC] = session.rubric
        _force().add("rubric_editor")
    if session.report:
        _ss()[REPORT] = session.report
        _force().add("report")
    if session.study:
        _ss()[STUDY] = session.study
        _force().add(STUDY)


def apply_link(query: dict, settings: dict, study: str | None = None) -> None:
    """A link's (validated) settings: each page applies them over its own defaults."""
    _ss()[LINK] = dict(query)
    _force().update(settings)
    if study:
        _ss()[STUDY] = study
        _force().add(STUDY)


def stored(analysis_id: str, data=None):
    """The settings ``analysis_id`` last ran with (or its page default on ``data``)."""
    return _ss().get(STORE, {}).get(analysis_id) or page_default(analysis_id, data)


def widgets(analysis_id: str, ds) -> None:
    """Put the stored, restored or default settings of ``analysis_id`` into its widget
    keys (call before the page's widgets); say what these data cannot show, until the
    user's next action (also in the redraw of a session's first run, which applied a
    link's settings: ``_render.lasting``). ``ds`` is ``None`` for a simulation study."""
    from app_pages._render import lasting

    if note := lasting(f"settings:{analysis_id}", _put(analysis_id, ds)):
        st.info(note)


def _put(analysis_id: str, ds) -> str | None:
    """:func:`widgets`' work: what it changed in the settings, if anything, to show them."""
    ss, force = _ss(), _force()
    view, token = (ds.view, ds.token) if ds is not None else (None, None)
    params = stored(analysis_id, view)
    link = ss.get(LINK, {})
    if analysis_id in force and any(k.startswith(analysis_id + ".") for k in link):
        params = sess.from_query(analysis_id, link, base=page_default(analysis_id, view))
    tokens = ss.setdefault(TOKENS, {})
    # new data since this page last ran: re-show its settings as far as these data allow
    new_data = tokens.get(analysis_id, token) != token
    renew = analysis_id in force or new_data
    keys = [k for k in state_keys(analysis_id) if not k.startswith("_")]
    if not renew and all(k in ss for k in keys):
        return None
    try:
        state, notes = to_state(analysis_id, params, view)
    except ValidationError as exc:
        state, notes = to_state(analysis_id, page_default(analysis_id, view), view)[0], [
            error_text(exc)]
    for k, v in state.items():
        if renew or k not in ss:
            ss[k] = v
    note = None
    if analysis_id in force and notes:
        note = ("Restored with changes (what these data or this page cannot show): "
                + "; ".join(notes) + ".")
    elif new_data and notes:
        note = "Settings kept for the new data, with changes they need: " + "; ".join(notes) + "."
    force.discard(analysis_id)
    tokens[analysis_id] = token
    return note


def remember(analysis_id: str, ds, params) -> None:
    """Keep the settings a page ran (for Save session and other pages) and put them in
    the link of a bundled dataset (a simulation study, ``ds=None``: in any link, with the
    ``study`` it is)."""
    _ss().setdefault(STORE, {})[analysis_id] = params
    if ds is None:
        _ss()[STUDY] = analysis_id
        st.query_params.update({"study": analysis_id} | sess.to_query(
            analysis_id, params, base=page_default(analysis_id, None)))
    elif ds.data_token.startswith("bundled:"):
        try:
            st.query_params.update(sess.to_query(  # what differs from the page's defaults
                analysis_id, params, base=page_default(analysis_id, ds.view)))
        except ValidationError:
            pass  # an edited rubric does not fit in a link; Save session keeps it


def study_widget(default: str) -> None:
    """Put the restored, linked or last-run study into the Simulator's radio (before it)."""
    ss = _ss()
    if STUDY in _force() or STUDY_KEY not in ss:
        ss[STUDY_KEY] = ss.get(STUDY, default)
    _force().discard(STUDY)


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


def pair_button(a: str, b: str, key: str, question: str | None = None) -> None:
    """A button that opens the Pair page on models ``a`` and ``b`` (e.g. a leaderboard's
    top two), on ``question`` when given; its callback stores the pair and keeps the
    sidebar's choice across the switch."""
    on = f" on {question}" if question is not None else ""
    # on one line in a 1024 px window's column, long names cut in the middle: two names of
    # 70 characters wrapped the label in two to four lines, breaking a name mid-word
    short = fitted_names([a, b], BUTTON_PX - text_px(f"Pair view:  vs {on}"))
    # the names, where cut, letter for letter (the help is Markdown)
    whole = f": {md_name(a)} vs {md_name(b)}" if short != [a, b] else ""
    if st.button(f"Pair view: {short[0]} vs {short[1]}{on}", key=key,
                 icon=":material/compare:", on_click=_choose_pair, args=(a, b, question),
                 help=f"question by question, with their completions side by side{whole}"):
        st.switch_page("app_pages/pair.py")


def pair_picker(board, key: str) -> None:
    """Open the Pair page on a pair of ``board``: its undecided neighbours first (where a lead
    needs a closer look, question by question), then the top two."""
    un = board.unresolved()
    top = tuple(board.table["model"][:2])
    pairs = list(dict.fromkeys([*zip(un["better"], un["next"], strict=True), top]))
    # each pair on one line of the box, long names cut in the middle (the button's help and
    # the table above hold them whole): "A vs B" was clipped at the arrow without a mark
    a, b = st.selectbox("Look closer at", pairs, key=f"{key}_pick",
                        format_func=_pair_labels(pairs, SELECT_PX - text_px(" vs ")).get,
                        help="undecided neighbours first, then the top two")
    # the button on a row of its own, under the box: beside it, in two fifths of a 1024 px
    # window's column, it cut its label ("Pair view: claude-3-opus-20240229 vs gpt-4" by 83 px)
    pair_button(a, b, key)


def _pair_labels(pairs, px: float) -> dict[tuple[str, str], str]:
    """``"A vs B"`` for each pair, the two names within ``px`` (:func:`fitted_names`); where
    two pairs would read alike (names that differ only where they are cut), every name gets
    half the room, no two names alike (:func:`app_state.table_fit.distinct_cuts`)."""
    labels = {p: " vs ".join(fitted_names(p, px)) for p in pairs}
    if len(set(labels.values())) < len(labels):
        names = distinct_cuts([m for p in pairs for m in p], px / 2)
        labels = {p: " vs ".join(names[m] for m in p) for p in pairs}
    return labels


def _choose_pair(a: str, b: str, question: str | None = None) -> None:
    from scorio_core.definitions import ANALYSES

    current = _ss().get(STORE, {}).get("pair") or ANALYSES["pair"].params()
    _ss().setdefault(STORE, {})["pair"] = dataclasses.replace(current, a=a, b=b,
                                                              question=question)
    _force().add("pair")
    _ss()[LINK] = {k: v for k, v in _ss().get(LINK, {}).items() if not k.startswith("pair.")}
    for k in ("dataset", "benchmark"):  # widget values survive the page switch
        if k in _ss():
            _ss()[k] = _ss()[k]
