"""Fast start (issue 15): what importing the core and drawing the first leaderboard loads.

Each check runs in a fresh interpreter and reads ``sys.modules``, so it holds on any
machine: the heavy dependencies (ranking methods and their numba kernels, sweeps, Dask,
``scipy.stats``/``scipy.optimize``, polars, Altair) are imported where they are used, not
by ``import scorio_core`` or by the app's first page.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Never needed to import the core or to compute and tabulate a leaderboard.
HEAVY = (
    "numba",
    "dask",
    "distributed",
    "scipy.stats",
    "scipy.optimize",
    "scorio_core.rank",
    "scorio_core.engines",
    "scorio_core.simulate",
    "scorio_core.parallel",
)
#: Needed for charts and table files, not for the leaderboard table itself.
DEFERRED = ("altair", "polars", "vl_convert")


#: Analysis modules the leaderboard itself needs; any other definition counts as heavy.
LEADERBOARD_ANALYSES = ("_base", "leaderboard", "provenance")


def loaded_after(code: str) -> set[str]:
    """The modules of HEAVY and DEFERRED, and the analysis definitions other than the
    leaderboard, that ``code`` leaves in ``sys.modules``."""
    probe = (
        f"{code}\nimport json, sys\n"
        f"heavy = [m for m in {list(HEAVY + DEFERRED)!r} if m in sys.modules]\n"
        "heavy += [m for m in sys.modules if m.startswith('scorio_core.definitions.')\n"
        f"          and m.split('.')[2] not in {LEADERBOARD_ANALYSES!r}]\n"
        "print(json.dumps(heavy))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, check=True, capture_output=True, text=True
    )
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_import_scorio_core_is_light():
    assert loaded_after("import scorio_core") == set()


def test_leaderboard_path_imports_nothing_heavy():
    # what the Leaderboard page imports from the core, then the board computed and tabulated
    code = """
import numpy as np
from pathlib import Path
from scorio_core import ValidationError, export, io
from scorio_core.definitions import ANALYSES, CLUSTER_ANALYSES, LeaderboardParams
from scorio_core.definitions.leaderboard import LEADERBOARD
from scorio_core.definitions.provenance import attach_source, export_filename
from scorio_core.leaderboard import COLUMN_HELP, Leaderboard, prior_note
from scorio_core.report import chart_png, chart_svg, load_code
assert list(ANALYSES)[0] == "leaderboard" and "convergence" in ANALYSES
data = io.load(Path("data/reasoning_synthetic.npz"))
result = LEADERBOARD.run(data, LeaderboardParams(ks=(1, 8)))
tables = LEADERBOARD.tables(result)
assert len(tables["leaderboard"]) == data.L
export.export(result.board, "md", title="t")
"""
    assert loaded_after(code) == set()


def test_charts_load_altair_when_drawn():
    code = """
import numpy as np
from scorio_core import Outcomes
from scorio_core.definitions import LEADERBOARD
data = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 20, 4)), models=["a", "b", "c"])
charts = LEADERBOARD.charts(LEADERBOARD.run(data, LEADERBOARD.params()))
assert len(charts) == 2
"""
    assert loaded_after(code) == {"altair"}


def test_reading_a_table_loads_polars(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("model,question,trial,outcome\na,q1,0,1\na,q2,0,0\nb,q1,0,0\nb,q2,0,1\n")
    code = f"from scorio_core import io\nassert io.load({str(path)!r}).R.shape == (2, 2, 1)"
    assert loaded_after(code) == {"polars"}


def test_one_definition_loads_only_its_module():
    code = "from scorio_core.definitions import ANALYSES\nANALYSES['greedy']"
    definitions = {m for m in loaded_after(code) if m.startswith("scorio_core.definitions.")}
    assert definitions == {"scorio_core.definitions.greedy"}  # with its own dependencies


@pytest.mark.parametrize("kind", ["Params", "Result"])
def test_every_public_name_still_imports(kind):
    import scorio_core.definitions as an

    ids = list(an.ANALYSES)
    assert ids == list(an._DEFINITIONS) and ids[0] == "leaderboard" and "compare" in ids
    for aid, (module, const, prefix) in an._DEFINITIONS.items():
        definition = getattr(an, const)
        assert definition is an.ANALYSES[aid] and definition.id == aid
        cls = getattr(an, f"{prefix}{kind}")
        # settings declared once in the light scorio_core.params (CLI --help imports them)
        assert cls.__module__ in (f"scorio_core.definitions.{module}", "scorio_core.params")
    assert set(an.__all__) <= set(dir(an))
    with pytest.raises(AttributeError, match="no attribute 'NOPE'"):
        an.NOPE  # noqa: B018
    with pytest.raises(KeyError):
        an.ANALYSES["nope"]
    assert dict(an.ANALYSES).keys() == set(ids)


def test_the_app_and_its_leaderboard_page_import_nothing_heavy():
    """The module-level imports of app.py, the Leaderboard page and the page helpers they
    import (read from the files, so this follows the code), then the page's settings and
    its board. The app's session and page-state modules are allowed; nothing else."""
    import ast

    todo, seen, stmts = [ROOT / "app.py", ROOT / "app_pages" / "leaderboard.py"], set(), []
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        for node in ast.parse(f.read_text()).body:
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            module = getattr(node, "module", None) or ""
            if module == "__future__":
                continue
            stmts.append(ast.unparse(node))
            names = [a.name for a in node.names]
            helpers = names if module == "app_pages" else [module.split(".")[-1]] if (
                module.startswith("app_pages.")) else []
            todo += [ROOT / "app_pages" / f"{h}.py" for h in helpers]
    assert {"_sidebar.py", "_session.py", "_page_state.py"} <= {f.name for f in seen}
    assert "_rubric_editor.py" not in {f.name for f in seen}  # the Rubric builder's own
    code = "\n".join(["import sys", "sys.path.insert(0, '.')", *stmts]) + """
from pathlib import Path
from scorio_core import io
from scorio_core.definitions.leaderboard import LEADERBOARD
from app_state.page_state import from_state, page_default, to_state
data = io.load(Path("data/reasoning_synthetic.npz")).select("AIME'25")
state, _ = to_state("leaderboard", page_default("leaderboard", data), data)
params = from_state("leaderboard", state, data)
assert len(LEADERBOARD.tables(LEADERBOARD.run(data, params))["leaderboard"]) == data.L
from app_state import session
assert "leaderboard.confidence" not in session.to_query("leaderboard", params)  # the link
"""
    app_state = {"app_state.page_state", "app_state.session"}
    assert loaded_after(code) - app_state == set()
