"""The sidebar's upload widgets: files, missing-cell policy, scorer, column mapping, weights.

Session-state contract (also the test seam)
-------------------------------------------
``st.session_state[UPLOAD_KEY]`` (``"scorio_upload"``)
    ``{"filename": str, "data": bytes}`` -- the raw bytes of the last uploaded
    file -- or, for several files, ``{"filename": "3 files", "files": {name: bytes}}``.
    The sidebar writes it right after ``st.file_uploader`` returns files; parsing,
    validation and caching read *only* this key, so a test that sets it and selects
    ``"Upload a file"`` exercises exactly the code path of a real upload.

Widget keys: ``upload``, ``on_missing``, ``scorer``, ``col_<role>`` (column mapping of a
single uploaded table), ``load_number_trials`` (its *Number repeats as trials* switch),
``model_conditions`` (its *Model identity* columns),
``upload_weights`` (category weights of an upload, e.g. ``"0, 0.5, 1"``); the *Rows and
model names* box is :mod:`app_pages._load_options`.
"""

from __future__ import annotations

import streamlit as st

from app_pages._load_options import model_identity
from app_state.load_form import uploaded_files
from app_state.texts import app_widget, guessed_columns_text
from scorio_core import io
from scorio_core.io import lm_eval

#: What the uploader takes: every suffix the loader reads (its one list,
#: :data:`scorio_core.io.LOADED_SUFFIXES`), and lm-eval task definitions (``.yaml``,
#: ``.yml``: :data:`scorio_core.io.lm_eval.TASK_SUFFIXES`), which the loader recognises and
#: refuses with the ``lm_eval`` command that writes logs -- left out here, the widget refused
#: one as a file type it does not take, and that message never showed.
UPLOAD_TYPES = [s.lstrip(".") for s in (*io.LOADED_SUFFIXES, *lm_eval.TASK_SUFFIXES)]
NO_COLUMN = "(none)"
#: How the *Missing cells* box names the declared choices (``LoadOptions.on_missing``).
MISSING = {
    "error": "fail and name the missing cells",
    "drop_questions": "drop incomplete questions",
    "truncate": "truncate to the smallest N",
}
UPLOAD_KEY = "scorio_upload"
#: The *Column mapping* box's switch that numbers the rows as trials (``number_trials``).
NUMBER_TRIALS = "load_number_trials"


def weights_box(open_: bool) -> None:
    # titled by the weights' declaration: a message naming the setting names this box
    with st.sidebar.expander(app_widget(io.LoadOptions, "weights")["label"], expanded=open_):
        st.text_input(
            "Weights of categories 0..C", key="upload_weights", placeholder="e.g. 0, 0.5, 1",
            help="Needed when the outcomes hold categories above 1 (tables cannot store "
            "weights); overrides the weights stored in an .npz. Blank: binary 0/1.",
        )


def column_mapping(up: dict) -> dict:
    """Selectboxes mapping our roles to the columns of a single uploaded table, the
    condition columns that join the model column in each model's name, and the switch that
    numbers the rows of a table without a trial column: the values of
    :func:`~app_state.load_form.form_options` they give (none for other files)."""
    if "files" in up:
        return {}
    cols = io.table_columns(up["data"], filename=up["filename"])
    if not cols:
        return {}
    missing = [r for r in io.ROLES[:4] if r not in cols]
    guesses = io.guess_columns(cols)  # e.g. a 'correct' column for the outcome
    mapping, numbered = [], False
    conditions = st.session_state.get("model_conditions") or []
    expanded = bool(missing or conditions or st.session_state.get(NUMBER_TRIALS))
    with st.sidebar.expander("Column mapping", expanded=expanded):
        for role in io.ROLES:
            options = [NO_COLUMN, *cols]
            if st.session_state.get(f"col_{role}") not in options:
                st.session_state[f"col_{role}"] = role if role in cols else guesses.get(
                    role, NO_COLUMN)
            choice = st.selectbox(role, options, key=f"col_{role}")
            if choice not in (NO_COLUMN, role):
                mapping.append((role, choice))
            if role == "trial":  # one row per repeat, no trial numbers: the loader numbers them
                w = app_widget(io.LoadOptions, "number_trials")
                numbered = st.checkbox(w["label"], key=NUMBER_TRIALS, help=w["help"])
        shown = {r: c for r, c in guesses.items() if st.session_state.get(f"col_{r}") == c}
        if shown:
            st.caption(guessed_columns_text(shown))
        model_col = dict(mapping).get("model", "model")
        conditions = model_identity(cols, model_col)
    return {"columns": tuple(mapping), "model_columns": conditions, "number_trials": numbered}


def upload_widgets() -> dict | None:
    side = st.sidebar
    files = side.file_uploader(
        "Outcome files or logs", type=UPLOAD_TYPES, key="upload", accept_multiple_files=True,
        help="`.npz` with an array `R` (L, M, N); a long table with columns model, question, "
        "trial, outcome (+ optional decoding = sample|greedy); or evaluation logs — Inspect "
        "`.eval`/`.json`, lm-eval `samples_*.jsonl` + `results_*.json`, OpenAI evals `.jsonl`, "
        "HELM `per_instance_stats.json` + `run_spec.json` (+ `scenario_state.json` for the "
        "texts) — several at once or as one `.zip`.",
    )
    # labels and help from the declarations: the notes that name these widgets
    # (app_state.texts.setting_label) name them as they are shown
    w = app_widget(io.LoadOptions, "on_missing")
    side.selectbox(w["label"], options=w["options"], format_func=MISSING.get, key="on_missing",
                   help=w["help"])
    w = app_widget(io.LoadOptions, "scorer")
    side.text_input(w["label"], key="scorer", placeholder="first scorer", help=w["help"])
    if len(files or []) == 1:
        st.session_state[UPLOAD_KEY] = {"filename": files[0].name, "data": files[0].getvalue()}
    elif files:  # refused when two different files share a name (load_choice says why)
        named = uploaded_files((f.name, f.getvalue()) for f in files)
        st.session_state[UPLOAD_KEY] = (
            {"filename": f"{len(named)} files", "files": named} if len(named) > 1
            else dict(zip(("filename", "data"), next(iter(named.items())), strict=True)))
    up = st.session_state.get(UPLOAD_KEY)
    if not files and up is not None:
        side.caption(f"Using the earlier upload **{up['filename']}**.")
    return up
