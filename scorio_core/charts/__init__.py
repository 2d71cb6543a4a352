"""Altair chart builders for the app and for notebooks (no Streamlit import), one module per
analysis: :mod:`.leaderboard`, :mod:`.compare`, :mod:`.convergence`, :mod:`.stability`,
:mod:`.greedy`, :mod:`.rubric`, :mod:`.plan`, :mod:`.pair`, :mod:`.questions` (question
view, Pass@k curves), :mod:`.check` (a smaller run checked against this one) and
:mod:`.simulate` (the Simulator's studies); every builder is
re-exported here, so ``charts.forest_plot`` and ``charts.coverage_chart`` both work.

Every builder takes a core object (:class:`~scorio_core.outcomes.Outcomes` or
:class:`~scorio_core.leaderboard.Leaderboard`) and returns an Altair chart
whose height grows with the number of models (a fixed step per row), so 20
models with long names stay legible; widths follow the container
(``width="container"``) except the heatmaps, which have square cells (the method-family
heatmap's columns share the container's width); the Pass curves'
panels are stacked, each the container's width (:data:`~.questions.PANEL_WIDTH` in a
file). A chart with one line per model or method colours it with :func:`series_encodings`
(20 distinct colours, then a dash as well; the Pass curves colour only the models among
the :data:`~.questions.HIGHLIGHTED` best at some k, the others grey), and rank axes are
:func:`rank_y` (every rank on its row, 1 at the top).
In a notebook, display the chart directly; in Streamlit, use
``st.altair_chart(chart, width="stretch")``.

Example
-------
>>> import numpy as np
>>> from scorio_core.outcomes import Outcomes
>>> from scorio_core.leaderboard import leaderboard
>>> from scorio_core import charts
>>> o = Outcomes(np.random.default_rng(0).integers(0, 2, (3, 10, 8)), models=["a", "b", "c"])
>>> len(charts.forest_plot(leaderboard(o)).to_dict()["layer"])  # tick, dot, bar, 2 labels
5
"""

from __future__ import annotations

from . import (
    _common,
    check,
    compare,
    convergence,
    greedy,
    leaderboard,
    pair,
    plan,
    questions,
    rubric,
    simulate,
    stability,
)
from ._common import *  # noqa: F403 -- each module's __all__, re-exported
from .check import *  # noqa: F403
from .compare import *  # noqa: F403
from .convergence import *  # noqa: F403
from .greedy import *  # noqa: F403
from .leaderboard import *  # noqa: F403
from .pair import *  # noqa: F403
from .plan import *  # noqa: F403
from .questions import *  # noqa: F403
from .rubric import *  # noqa: F403
from .simulate import *  # noqa: F403
from .stability import *  # noqa: F403

#: Every module's own ``__all__`` (one list per name, kept where the builder lives).
__all__ = [
    name
    for module in (leaderboard, rubric, compare, convergence, stability, greedy, plan, simulate,
                   pair, questions, check, _common)
    for name in module.__all__
]
