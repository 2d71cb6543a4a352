"""One number format per column on every screen: the leaderboard's own table and its
per-subset table show ``p_best`` alike, as the CLI and the reports do."""

from __future__ import annotations

import numpy as np

from app_pages import _widgets
from scorio_core import leaderboard


def test_p_best_has_one_format_on_the_board_and_in_the_subset_table():
    R = np.random.default_rng(0).integers(0, 2, (4, 30, 4))
    table = leaderboard(R, scope="population").table
    board = _widgets.column_config(table)["p_best"]["type_config"]["format"]
    subset = _widgets.core_formats(table)["p_best"]["type_config"]["format"]
    assert board == subset == "%.3f"
    assert _widgets.column_config(table)["score"]["type_config"]["format"] == "%.4f"


def test_pair_tables_show_model_names_whole():
    """The Planner's and the undecided-pairs tables size their model-name columns to the
    longest name, as the leaderboard sizes its ``model`` column (within 120-240 px)."""
    import pandas as pd

    from scorio_core.planner import pair_needs

    R = np.random.default_rng(1).integers(0, 2, (3, 15, 4))
    names = ["FuseO1-DS-QwQ-SkyT1", "a", "gpt-4"]
    pairs = pair_needs(leaderboard(R, models=names), pairs="all")
    _, cfg = _widgets.core_table(pairs.drop(columns="note"), ["t"])
    for c in ("better", "next"):
        assert cfg[c]["width"] == _widgets.name_width(pairs[c]), cfg[c]
    assert _widgets.name_width(pd.Series(["FuseO1-DS-QwQ-SkyT1"])) == int(7.5 * 19 + 24)
    assert _widgets.name_width(pd.Series(["a"])) == 120  # at least
    assert _widgets.name_width(pd.Series(["x" * 80])) == 240  # at most
    board = leaderboard(R, models=names).table
    assert _widgets.column_config(board)["model"]["width"] == _widgets.name_width(board["model"])


def test_every_app_table_goes_through_show_table():
    """One place says how a missing number reads ("—", not Streamlit's "None"): every
    ``.dataframe(`` call of the pages is ``_widgets.show_table``'s."""
    import ast
    from pathlib import Path

    pages = Path(_widgets.__file__).parent
    calls = []
    for path in sorted(pages.glob("*.py")):
        tree = ast.parse(path.read_text())
        inside = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
                  and path.name == "_widgets.py" and f.name == "show_table"
                  for n in ast.walk(f)}
        calls += [f"{path.name}:{n.lineno}" for n in ast.walk(tree)
                  if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and n.func.attr == "dataframe" and id(n) not in inside]
    assert calls == [], calls
    assert "show_table" in (pages / "pair.py").read_text()  # the scan reads the pages


def test_missing_numbers_read_as_a_dash_in_number_columns_on_every_page():
    """One trial per question: the questions scope of the Pair page's difference and the
    Questions page's 2PL discrimination and item-rest correlation are missing for some
    rows. Each table hands Streamlit the "—" placeholder and keeps those columns numbers
    (a header click sorts them by number; text would sort "10" before "2")."""
    import io as pyio
    from pathlib import Path

    import pandas as pd
    from _apptest import start

    from app_pages._common import UPLOAD, UPLOAD_KEY
    from app_pages._loading import REASONING
    from scorio_core import Outcomes
    from scorio_core.io import save_table

    R = np.random.default_rng(3).integers(0, 2, (4, 24, 1))
    buf = pyio.BytesIO()
    save_table(Outcomes(R, models=list("abcd")), buf, format="csv")
    at = start(str(Path(__file__).resolve().parents[2] / "app.py"), REASONING, 120)
    at.session_state[UPLOAD_KEY] = {"filename": "one_trial.csv", "data": buf.getvalue()}
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    partly = {}
    for page in ("questions", "pair", "methods"):
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception and not at.error, page
        tables = [d for d in at.dataframe if not d.proto.editing_mode]  # not the editors
        assert tables and {d.proto.placeholder for d in tables} == {"—"}, page
        for d in tables:
            v = d.value
            partly[page] = partly.get(page, set()) | {
                c for c in v.columns if v[c].isna().any() and not v[c].isna().all()
                and pd.api.types.is_float_dtype(v[c])}
            assert not [c for c in v.columns if v[c].dtype == object
                        and v[c].isin(["None", "nan"]).any()], (page, list(v.columns))
    assert {"discrimination", "item_rest_r"} <= partly["questions"]
    assert {"se", "lo", "hi"} <= partly["pair"]

