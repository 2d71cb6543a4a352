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

#: What the first page (the Data or Leaderboard page) imports from the core and below it;
#: polars reads the default dataset (a Parquet long table).
PRELOAD = (
    "numpy", "pandas", "pyarrow", "polars", "scipy.special", "altair",
    "scorio_core.io", "scorio_core.leaderboard", "app_state.texts", "scorio_core.report",
    "scorio_core.definitions.leaderboard", "app_state.page_state",
    "app_state.session", "scorio_core.charts.leaderboard", "app_state.datasets",
    "app_state.load_form",
)  # fmt: skip


#: Imported on the first page's first run otherwise: Streamlit's emoji and icon tables
#: (``page_icon``, ``icon=`` arguments), the BLAS limiter, the rubric package.
PRELOAD_MORE = (
    "streamlit.emojis", "streamlit.material_icon_names", "threadpoolctl", "scorio_core.rubric",
)  # fmt: skip


def warm_up() -> None:
    """Pay the first page's first-call costs now: a 3 × 4 × 2 table read back from
    Parquet as the default dataset is (polars' reader), the Data page's charts and signal
    table, the leaderboard, its charts as Vega-Lite (Altair resolves its channel schemas
    and narwhals its pandas backend on first use) and its table as Arrow (what
    ``st.dataframe`` sends); the core only, no Streamlit."""
    import io as pyio

    import numpy as np
    import pyarrow as pa

    from app_state.texts import board_display, data_charts, signal_table
    from scorio_core import Outcomes, io
    from scorio_core.definitions import LeaderboardParams
    from scorio_core.definitions.leaderboard import LEADERBOARD

    R = np.array([[[1, 0], [1, 1], [0, 0], [1, 0]], [[0, 0], [1, 0], [0, 1], [0, 0]],
                  [[1, 1], [1, 1], [1, 0], [0, 1]]], dtype=np.int8)  # fmt: skip
    buf = pyio.BytesIO()
    io.save_table(Outcomes(R, signals={"chars": R * 10.0 + 1}), buf, format="parquet")
    data = io.load(buf.getvalue(), filename="warm_up.parquet")
    for c in data_charts(data):
        c.chart.to_dict(validate=False)
    pa.Table.from_pandas(signal_table(data))
    pa.Table.from_pandas(io.to_long_frame(data).to_pandas())
    result = LEADERBOARD.run(data, LeaderboardParams())
    for c in LEADERBOARD.charts(result):
        c.chart.to_dict(validate=False)  # as app_pages._render.vega_lite sends them
    pa.Table.from_pandas(board_display(result.board.table))


def main(flags: list[str]) -> int:
    import importlib

    for name in (*PRELOAD, *PRELOAD_MORE):
        importlib.import_module(name)
    try:
        warm_up()
    except Exception as exc:  # noqa: BLE001 -- a speed-up only: the app must still start
        print(f"serve.py: warm-up skipped ({type(exc).__name__}: {exc})", file=sys.stderr)
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", str(ROOT / "app.py"), *flags]
    return cli.main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
