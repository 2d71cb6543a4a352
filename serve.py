"""Start the app exactly as ``streamlit run app.py [FLAGS]`` does, in a server process that
has already imported what the first page needs.

Streamlit runs ``app.py`` when the first browser session connects, so that session would
pay for importing numpy, pandas, pyarrow, Altair and the core (about 1 s on a 2-core
machine) before its table can be sent. Importing them here, while the server starts,
moves that cost to start-up. Nothing Streamlit-specific is imported early (the pages' cached
functions must be created inside the running server), and every flag goes to Streamlit.

Run: ``python serve.py [STREAMLIT FLAGS]`` or ``scorio-studio app [STREAMLIT FLAGS]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent

#: What the first page (the Data or Leaderboard page) imports from the core and below it.
PRELOAD = (
    "numpy", "pandas", "pyarrow", "scipy.special", "altair",
    "scorio_core.io", "scorio_core.leaderboard", "scorio_core.display", "scorio_core.report",
    "scorio_core.analyses.leaderboard", "scorio_core.analyses.page_state",
    "scorio_core.analyses.session", "scorio_core.charts.leaderboard",
)  # fmt: skip


def main(flags: list[str]) -> int:
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", str(ROOT / "app.py"), *flags]
    return cli.main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
