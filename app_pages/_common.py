"""What pages import in one place: the sidebar's dataset, cached runs and shared widgets.

The code lives in small modules: :mod:`app_pages._loading` (bundled files, the
:class:`Dataset`), :mod:`app_pages._upload` (upload widgets), :mod:`app_pages._sidebar` (dataset,
benchmark, :func:`page_start`), :mod:`app_pages._session` (Save / Restore session),
:mod:`app_pages._link` (links to a view), :mod:`app_pages._page_state` (settings kept across pages),
:mod:`app_pages._runs` (long runs with progress, Dask workers) and :mod:`app_pages._widgets`
(table formats and notes); screen text is computed in :mod:`app_state.texts`.
"""

from __future__ import annotations

from app_pages._loading import BUNDLED, MISSING, UPLOAD, UPLOAD_KEY, UPLOAD_TYPES  # noqa: F401
from app_pages._runs import cached_result, clear_results, executor, run_cached, slot  # noqa: F401
from app_pages._sidebar import (  # noqa: F401
    DATASET_KEY,
    LAST_GOOD_KEY,
    Dataset,
    current_dataset,
    page_start,
    sidebar,
)
from app_pages._widgets import (  # noqa: F401
    BOX_PX,
    board_display,
    code_block,
    column_config,
    core_cells,
    core_table,
    fitted_table,
    long_preview,
    printf_formats,
    prose,
    setting,
    show_board,
    show_core,
    show_error,
    show_parts,
    show_refusal,
    show_split,
    show_table,
    show_unresolved,
    spread_prior_box,
    synthetic_note,
    table_height,
    weights_key,
)
from app_state.texts import eta_text, parse_weights  # noqa: F401
from scorio_core.references import cite  # noqa: F401 -- the papers by title on every page
