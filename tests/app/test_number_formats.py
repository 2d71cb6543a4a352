"""One number format per column on every screen: the leaderboard's own table and its
per-subset table show ``p_best`` alike, as the CLI and the reports do."""

from __future__ import annotations

import numpy as np
import pandas as pd

from app_pages import _widgets
from app_state.table_fit import (
    CELL_PAD_PX,
    MIN_COLUMN_PX,
    NAME_MAX_PX,
    name_columns,
    name_px,
    shown_names,
    text_px,
)
from scorio_core import leaderboard


def test_p_best_has_one_format_on_the_board_and_in_the_subset_table():
    R = np.random.default_rng(0).integers(0, 2, (4, 30, 4))
    table = leaderboard(R, scope="population").table
    board = _widgets.column_config(table)["p_best"]["type_config"]["format"]
    subset = _widgets.core_table(table)[1]["p_best"]["type_config"]["format"]
    assert board == subset == "%.3f"
    assert _widgets.column_config(table)["score"]["type_config"]["format"] == "%.4f"


def test_pair_tables_show_model_names_whole():
    """The Planner's and the undecided-pairs tables size their model-name columns to the
    longest name, as the leaderboard sizes its ``model`` column (within 50-240 px)."""
    import pandas as pd

    from scorio_core.planner import pair_needs

    R = np.random.default_rng(1).integers(0, 2, (3, 15, 4))
    names = ["FuseO1-DS-QwQ-SkyT1", "a", "gpt-4"]
    pairs = pair_needs(leaderboard(R, models=names), pairs="all")
    _, cfg = _widgets.core_table(pairs.drop(columns="note"), ["t"])
    for c in ("better", "next"):
        assert cfg[c]["width"] == name_px(pairs[c], c), cfg[c]
    # as wide as the grid's type draws the longest name or the header, plus its padding
    long = "FuseO1-DS-QwQ-SkyT1"
    assert name_px(pd.Series([long, "a"])) == round(text_px(long)) + CELL_PAD_PX
    assert name_px(pd.Series(["a"]), "better") == round(text_px("better")) + 16
    assert name_px(pd.Series(["a"]), "") == MIN_COLUMN_PX  # at least
    assert name_px(pd.Series(["x" * 80])) == NAME_MAX_PX  # at most
    board = leaderboard(R, models=names).table
    assert _widgets.column_config(board)["model"]["width"] == name_px(board["model"])


def test_every_model_name_column_is_capped_and_a_cut_name_ends_in_an_ellipsis():
    """A 70-character model name: every model-name column (the board's ``model``, a pair's
    ``better``/``next``, the Questions page's ``best``/``worst``) is drawn at most
    NAME_MAX_PX wide -- the grid, left to size ``best`` by its first rows ("4 tied"), cut
    "gemini-" -- and a name wider than its column is shown cut with "…" while the cell keeps
    the whole name (a pandas Styler's display value); a short name is left as it is."""
    long = "Modèle-Français-Überlang-Instruct-v2.5-2026-01-preview-very-long-name"
    R = np.random.default_rng(2).integers(0, 2, (3, 15, 4))
    board = leaderboard(R, models=[long, "gpt-4", "gemini-1.5-pro-preview-0409"])
    questions = pd.DataFrame({"question": ["q1", "q2", "q3"], "mean": [0.5, 0.25, 0.75],
                              "best": ["4 tied", "gemini-1.5-pro-preview-0409", long],
                              "worst": ["gpt-4", "2 tied", ""]})
    for table in (board.table, board.unresolved(), questions):
        shown, cfg = _widgets.core_table(table)
        cols = name_columns(table)
        assert cols and set(cols) <= set(cfg), cols
        for c in cols:
            assert cfg[c]["width"] == name_px(table[c], c) <= NAME_MAX_PX
        data, cfg2 = _widgets.grid_data(shown, cfg)
        assert any(long in set(shown[c]) for c in cols)
        assert isinstance(data, pd.io.formats.style.Styler)  # a long name is cut
        assert data.data[cols].equals(shown[cols])  # the cells keep the whole names
        html = data.to_html()  # what the grid draws: the Styler's display values
        assert long not in html
        for c in cols:
            for name in set(shown[c]) - {""}:
                drawn = shown_names(set(shown[c]) - {""}, cfg[c]["width"])[name]
                assert (drawn == name) == (name != long) and f">{drawn}<" in html, (c, name)
            if long in set(shown[c]):
                cut = shown_names([long], cfg[c]["width"])[long]
                assert cut.endswith("…") and long.startswith(cut[:-1])
                assert text_px(cut) <= cfg[c]["width"] - CELL_PAD_PX
                assert cfg2[c]["help"].endswith(_widgets.CUT_HELP)
    # the leaderboard's own columns: the same cap
    cfg = _widgets.column_config(_widgets.board_display(board.table))
    assert cfg["model"]["width"] == NAME_MAX_PX
    # names that fit: the frame as it is, no Styler
    short = board.table.assign(model=["a", "b", "c"])
    assert isinstance(_widgets.grid_data(*_widgets.core_table(short))[0], pd.DataFrame)

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
    assert "show_core" in (pages / "pair.py").read_text()  # the scan reads the pages


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



def test_a_confidence_or_chance_reads_as_its_buttons_write_it_on_every_page():
    """A confidence or a chance of a decision that a page writes in a caption or a note goes
    through :func:`app_state.page_state.percent`, the buttons' own format: ``{x:.0%}`` wrote
    0.925 as 92% beside buttons and restore notes that say 92.5%."""
    import ast
    from pathlib import Path

    from app_state.page_state import percent

    root = Path(_widgets.__file__).parents[1]
    found, scanned = [], 0
    for path in sorted([*(root / "app_pages").glob("*.py"), *(root / "app_state").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FormattedValue):
                continue
            expr = ast.unparse(node.value)
            scanned += "conf" in expr or "assurance" in expr
            spec = ast.unparse(node.format_spec) if node.format_spec else ""
            if "%" in spec and ("conf" in expr or "assurance" in expr or "chance" in expr):
                found.append(f"{path.name}:{node.lineno} {{{expr}:{spec}}}")
    assert found == [], found
    assert scanned >= 8  # the scan sees the pages' confidences (now written with percent)
    assert (percent(0.925), percent(1 - 0.95), percent(0.8)) == ("92.5%", "5%", "80%")


def test_p_best_reads_as_the_cli_prints_it_on_the_leaderboard_page(tmp_path, capsys):
    """A p_best above 0 that rounds to zero reads "<0.001" in the CLI, and so does a 0 of the
    draws (first in none of them: not impossible, so never "0.000" on a board of several
    models); the Leaderboard page showed "0.000" (a printf number column cannot write
    "<0.001"). The page's cells are now the CLI's, column by column."""
    import io as pyio
    from pathlib import Path

    from _apptest import start

    from app_pages._common import UPLOAD, UPLOAD_KEY
    from app_pages._loading import REASONING
    from scorio_core import Outcomes
    from scorio_core.cli import main
    from scorio_core.io import save_table

    rng = np.random.default_rng(3)
    R = (rng.random((10, 15, 4)) < np.linspace(0.8, 0.2, 10)[:, None, None]).astype(int)
    path = tmp_path / "ten.csv"
    save_table(Outcomes(R, models=[f"model_{i}" for i in range(10)]), path, format="csv")
    assert main(["leaderboard", str(path), "--format", "table"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("model "))
    col = lines[head].split().index("p_best")
    cli = {line.split()[0]: line.split()[col] for line in lines[head + 1:head + 11]}
    assert "<0.001" in cli.values() and "0.000" not in cli.values()  # a draw's 0: a bound
    at = start(str(Path(__file__).resolve().parents[2] / "app.py"), REASONING, 120)
    buf = pyio.BytesIO(path.read_bytes())
    at.session_state[UPLOAD_KEY] = {"filename": "ten.csv", "data": buf.getvalue()}
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    at.switch_page("app_pages/leaderboard.py").run()
    assert not at.exception and not at.error
    board = next(d.value for d in at.dataframe if "rank_chain" in d.value.columns)
    assert dict(zip(board["model"], board["p_best"], strict=True)) == cli


def test_every_page_table_goes_through_the_one_rule():
    """A number column whose cells the core spells (<0.001, <0.0001, ∞, "met now") is shown
    as the core's text on every page -- one rule (``_widgets.core_table``, used by
    ``show_core`` and the leaderboard's ``board_display``), not a printf format per page that
    printed "0.0000" where the CLI says "<0.0001"."""
    import ast
    from pathlib import Path

    import pandas as pd

    pages = Path(_widgets.__file__).parent
    calls = [f"{p.name}:{n.lineno}" for p in sorted(pages.glob("*.py")) if p.name != "_widgets.py"
             for n in ast.walk(ast.parse(p.read_text()))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "core_table"]
    assert calls == [], calls
    t = pd.DataFrame({"model": ["a", "b", "c"], "p_value": [1.7e-05, 0.25, 0.0],
                      "score": [0.5, 0.25, 0.125], "n": [3, 4, 5]})
    shown, cfg = _widgets.core_table(t)
    assert shown["p_value"].tolist() == ["<0.0001", "0.2500", "0.0000"]
    assert cfg["p_value"]["type_config"]["type"] == "text"
    assert cfg["p_value"]["alignment"] == "right"
    # the other number columns stay numbers in the core's decimals
    assert shown["score"].tolist() == [0.5, 0.25, 0.125]
    assert cfg["score"]["type_config"]["format"] == "%.4f"
    assert cfg["n"]["type_config"]["format"] == "localized"


def test_every_code_box_wraps_its_lines():
    """The Data page's loading cell, its licence and the Simulator's outcome matrix were
    ``st.code`` without ``wrap_lines``: a long line ran past the box's edge, cut without a
    mark. Every code box of the pages wraps (``_widgets.code_block``)."""
    import ast
    from pathlib import Path

    pages = Path(_widgets.__file__).parent
    boxes, unwrapped = 0, []
    for path in sorted(pages.glob("*.py")):
        for n in ast.walk(ast.parse(path.read_text())):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                    and n.func.attr == "code":
                boxes += 1
                wraps = any(k.arg == "wrap_lines" and getattr(k.value, "value", None) is True
                            for k in n.keywords)
                if not wraps:
                    unwrapped.append(f"{path.name}:{n.lineno}")
    assert unwrapped == [] and boxes >= 3, unwrapped
    for page in ("data.py", "_data_header.py", "simulator.py"):
        assert "code_block(" in (pages / page).read_text() or "code_expander(" in (
            pages / page).read_text(), page


def test_the_leaderboard_page_leaves_out_columns_with_no_value(tmp_path):
    """At N = 1 (questions scope) the page showed p_best, se, lo, hi and t_next as "—" in
    every row; it leaves them out with the line the CLI and the reports say."""
    import io as pyio
    from pathlib import Path

    from _apptest import start

    from app_pages._common import UPLOAD, UPLOAD_KEY
    from app_pages._loading import REASONING
    from scorio_core import Outcomes
    from scorio_core.io import save_table

    R = np.random.default_rng(5).integers(0, 2, (3, 30, 1))
    path = tmp_path / "one.csv"
    save_table(Outcomes(R, models=["a", "b", "c"]), path, format="csv")
    at = start(str(Path(__file__).resolve().parents[2] / "app.py"), REASONING, 120)
    buf = pyio.BytesIO(path.read_bytes())
    at.session_state[UPLOAD_KEY] = {"filename": "one.csv", "data": buf.getvalue()}
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    at.switch_page("app_pages/leaderboard.py").run()
    assert not at.exception and not at.error
    board = next(d.value for d in at.dataframe if "rank_chain" in d.value.columns)
    assert not {"p_best", "se", "lo", "hi", "t_next"} & set(board.columns)
    assert {"score", "bayes_mu", "rank_lo"} <= set(board.columns)
    said = [c.value for c in at.caption]
    assert "Not shown, no value in any row: p_best, se, lo, hi, t_next." in said, said
