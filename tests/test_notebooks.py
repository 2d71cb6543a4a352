"""The tutorial notebooks (issue 24) run top to bottom on a fresh kernel, as a reader runs
them: from ``docs/notebooks``, with this checkout's ``scorio_core``. Committed without
outputs; every result they show displays itself as HTML (the rich display)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "docs" / "notebooks"
nbformat = pytest.importorskip("nbformat")


@pytest.mark.parametrize("name", ["quickstart", "teaching"])
def test_notebook_runs_top_to_bottom(name, kernel_env):
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code), (
        "commit the notebook without outputs (the tests execute it)")
    assert all("import scorio_core as sc" in c.source for c in code[:1])
    # public names only: sc.* (no private module or name)
    assert not re.search(r"sc\._|scorio_core\.\w*\._|from scorio_core\.\w+ import", "\n".join(
        c.source for c in code))
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    html = [o["data"]["text/html"] for c in code for o in c.outputs
            if o.get("output_type") in ("execute_result", "display_data")  # sc.show: displayed
            and "text/html" in o.get("data", {})]
    # no cell ends on a raw pandas frame (float digits, no formats): sc.show or a result
    raw = [c.source.splitlines()[-1] for c in code for o in c.outputs
           if 'class="dataframe"' in o.get("data", {}).get("text/html", "")]
    assert not raw, raw
    shown = [h for h in html if 'class="scorio-result"' in h]
    assert len(shown) >= 6, f"{len(shown)} rich results displayed"
    assert all("<table>" in h for h in shown)
    assert sum("<svg" in h for h in shown) >= 4  # the main charts, inline


def test_readme_links_the_notebooks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("quickstart", "teaching"):
        assert f"(docs/notebooks/{name}.ipynb)" in text
