"""Data page uploads: several log files, a .zip of logs, and the column mapping of a table."""

from __future__ import annotations

import io as pyio
import zipfile
from pathlib import Path

import numpy as np
from fixtures import make_logs as mk
from streamlit.testing.v1 import AppTest

from pages._common import UPLOAD, UPLOAD_KEY

APP = str(Path(__file__).resolve().parents[2] / "app.py")
MODELS = ["org/a", "org/b", "org/c"]


def _start() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.radio(key="dataset").set_value(UPLOAD).run()
    return at


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _logs(tmp_path) -> tuple[np.ndarray, list[Path]]:
    R = np.random.default_rng(5).integers(0, 2, (3, 4, 3))
    paths = [
        mk.write_inspect_eval(tmp_path / f"{i}.eval", m, "t", R[i], [1, 2, 3, 4],
                              compression="zstd")  # fmt: skip
        for i, m in enumerate(MODELS)
    ]
    return R, paths


def test_several_eval_logs_through_the_widget(tmp_path):
    R, paths = _logs(tmp_path)
    at = _start()
    files = [(p.name, p.read_bytes(), "application/zip") for p in paths]
    at.file_uploader(key="upload").set_value(files).run()
    _ok(at)
    ds = at.session_state["scorio_dataset"]
    assert ds.full.shape == R.shape and ds.full.models == tuple(MODELS)
    assert at.session_state[UPLOAD_KEY]["filename"] == "3 files"
    report = next(d.value for d in at.dataframe if "scorer" in d.value.columns)
    assert report["model"].tolist() == MODELS


def test_zip_of_logs_through_the_session_seam(tmp_path):
    R, paths = _logs(tmp_path)
    buf = pyio.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for p in paths:
            zf.write(p, f"logs/{p.name}")
    at = _start()
    at.session_state[UPLOAD_KEY] = {"filename": "logs.zip", "data": buf.getvalue()}
    at.run()
    _ok(at)
    assert at.session_state["scorio_dataset"].full.shape == R.shape


def test_column_mapping_selectboxes_load_a_table_with_other_names():
    csv = b"llm,item,sample,score\nA,q1,0,1\nA,q1,1,0\nB,q1,0,1\nB,q1,1,1\n"
    at = _start()
    at.file_uploader(key="upload").set_value(("runs.csv", csv, "text/csv")).run()
    assert at.error and "Column mapping" in at.error[0].value  # columns not found yet
    for role, col in (("model", "llm"), ("question", "item"), ("trial", "sample"),
                      ("outcome", "score")):  # fmt: skip
        at.selectbox(key=f"col_{role}").set_value(col)
    at.run()
    _ok(at)
    o = at.session_state["scorio_dataset"].full
    assert o.models == ("A", "B") and o.R.tolist() == [[[1, 0]], [[1, 1]]]
    assert o.metadata["columns"]["model"] == "llm"
