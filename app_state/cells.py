"""From a clicked cell of the Questions page's heatmap to a pair of models and a question
(Streamlit-free; the page's widgets live in ``app_pages._explore``).

Example
-------
>>> import numpy as np
>>> from types import SimpleNamespace
>>> stats = SimpleNamespace(models=("a", "b", "c"), questions=("q1", "q2", "q3"),
...                         score=np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 1.0]]))
>>> clicked(stats, 200, {"selection": {"cell": [{"model": "b", "position": 1}]}})
('b', 'q2')
>>> clicked(stats, 2, {"selection": {"cell": [{"model": "c", "position": 0}]}})  # bins of 2
('c', 'q2')
>>> # in the bin q1-q2, c stands out on q2 (others' mean 0.5); who differs from b there:
>>> partners(stats, "b", "q2")
[('a', 1.0), ('c', 1.0)]
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["clicked", "partners"]


def clicked(stats: Any, columns: int, event: Any) -> tuple[str, str] | None:
    """The heatmap cell a selection ``event`` holds: its model and question, or ``None``.

    The heatmap averages adjacent questions into bins when there are more than ``columns``
    (``QuestionStats.heatmap_frame``); a click on a bin picks its question where that model
    differs most from the others' mean.
    """
    from scorio_core.charts.questions import CELL  # altair: only where a heatmap is drawn

    points = ((event or {}).get("selection") or {}).get(CELL) or []
    point = points[0] if points else {}
    model, pos = point.get("model"), point.get("position")
    if model is None or pos is None or str(model) not in stats.models:
        return None
    width = max(1, -(-len(stats.questions) // max(int(columns), 1)))
    cols = range(int(pos) * width, min((int(pos) + 1) * width, len(stats.questions)))
    if not cols:
        return None
    i = list(stats.models).index(str(model))
    rest = np.delete(stats.score, i, axis=0)
    gap = [abs(stats.score[i, c] - rest[:, c].mean()) if rest.size else 0.0 for c in cols]
    return str(model), str(stats.questions[cols[int(np.argmax(gap))]])


def partners(stats: Any, model: str, question: str) -> list[tuple[str, float]]:
    """The other models with their score minus ``model``'s on ``question``, the largest
    difference first (ties in the heatmap's order, best model first)."""
    models = list(stats.models)
    i, q = models.index(model), list(stats.questions).index(question)
    gaps = [(m, float(stats.score[k, q] - stats.score[i, q])) for k, m in enumerate(models)
            if k != i]
    return sorted(gaps, key=lambda g: -abs(g[1]))
