"""Altair chart builders for the app and for notebooks (no Streamlit import), one module per
analysis: :mod:`.leaderboard`, :mod:`.compare`, :mod:`.convergence`, :mod:`.stability`,
:mod:`.greedy`, :mod:`.rubric`, :mod:`.plan` and :mod:`.simulate` (the Simulator's studies);
every builder is re-exported here, so ``charts.forest_plot`` and ``charts.coverage_chart``
both work.

Every builder takes a core object (:class:`~scorio_core.outcomes.Outcomes` or
:class:`~scorio_core.leaderboard.Leaderboard`) and returns an Altair chart
whose height grows with the number of models (a fixed step per row), so 20
models with long names stay legible; widths follow the container
(``width="container"``) except the heatmap, which has square cells.
In a notebook, display the chart directly; in Streamlit, use
``st.altair_chart(chart, width="stretch")``.

Example
-------
>>> import numpy as np
>>> from scorio_core.outcomes import Outcomes
>>> from scorio_core.leaderboard import leaderboard
>>> from scorio_core import charts
>>> o = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 10, 8)), models=["a", "b", "c"])
>>> len(charts.forest_plot(leaderboard(o)).to_dict()["layer"])  # interval, dot, rank label
3
"""

from __future__ import annotations

from ._common import LABEL_LIMIT, PALETTE, ROW_PX, inline
from .compare import TAU_HEATMAP_WIDTH, tau_heatmap
from .convergence import (
    CONVERGENCE_CDF_CAPTION,
    CONVERGENCE_PMF_CAPTION,
    RANK_TRAJECTORY_CAPTION,
    TAU_CURVES_CAPTION,
    convergence_cdf,
    convergence_pmf,
    rank_trajectory_chart,
    tau_curves,
)
from .greedy import (
    GREEDY_SCATTER_CAPTION,
    TAU_DISTRIBUTION_CAPTION,
    greedy_scatter,
    tau_distribution_chart,
)
from .leaderboard import accuracy_strip, confidence_heatmap, forest_plot
from .plan import allocation_chart, order_curve_chart
from .rubric import RANK_BUMP_CAPTION, category_bars, rank_bump_chart
from .simulate import (
    CORRECT_ORDER_CAPTION,
    COVERAGE_CAPTION,
    LESSON_TEXT,
    PRIOR_DEPTH_CAPTION,
    PRIOR_DEPTH_DELTA_CAPTION,
    RUBRIC_WEIGHT_CAPTION,
    TRUTH_CONVERGENCE_CAPTION,
    UPDATE_HISTOGRAM_CAPTION,
    LessonText,
    correct_order_chart,
    coverage_chart,
    prior_depth_chart,
    rubric_weight_chart,
    truth_convergence_chart,
    update_histogram,
)
from .stability import STABILITY_CAPTION, stability_chart

__all__ = [
    # leaderboard
    "accuracy_strip",
    "forest_plot",
    "confidence_heatmap",
    # rubric
    "category_bars",
    "rank_bump_chart",
    "RANK_BUMP_CAPTION",
    # compare
    "tau_heatmap",
    "TAU_HEATMAP_WIDTH",
    # convergence
    "tau_curves",
    "TAU_CURVES_CAPTION",
    "convergence_pmf",
    "CONVERGENCE_PMF_CAPTION",
    "convergence_cdf",
    "CONVERGENCE_CDF_CAPTION",
    "rank_trajectory_chart",
    "RANK_TRAJECTORY_CAPTION",
    # stability
    "stability_chart",
    "STABILITY_CAPTION",
    # greedy
    "greedy_scatter",
    "GREEDY_SCATTER_CAPTION",
    "tau_distribution_chart",
    "TAU_DISTRIBUTION_CAPTION",
    # plan
    "order_curve_chart",
    "allocation_chart",
    # simulate
    "LESSON_TEXT",
    "LessonText",
    "truth_convergence_chart",
    "TRUTH_CONVERGENCE_CAPTION",
    "update_histogram",
    "UPDATE_HISTOGRAM_CAPTION",
    "prior_depth_chart",
    "PRIOR_DEPTH_CAPTION",
    "PRIOR_DEPTH_DELTA_CAPTION",
    "correct_order_chart",
    "CORRECT_ORDER_CAPTION",
    "coverage_chart",
    "COVERAGE_CAPTION",
    "rubric_weight_chart",
    "RUBRIC_WEIGHT_CAPTION",
    # shared
    "ROW_PX",
    "LABEL_LIMIT",
    "PALETTE",
    "inline",
]
