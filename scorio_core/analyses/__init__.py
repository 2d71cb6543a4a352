"""One definition per analysis, rendered by its page, its CLI subcommand, a report section
and a notebook cell (SPEC §9).

:data:`ANALYSES` maps an id to its :class:`Analysis`: a frozen ``params``
dataclass (defaults + validation), ``run(data, params)``, ``tables``,
``charts``, ``how_to_read``, ``caveats`` and ``to_code`` (public calls only).

Example
-------
>>> import numpy as np
>>> from scorio_core import Outcomes
>>> from scorio_core.analyses import ANALYSES
>>> data = Outcomes(np.random.default_rng(1).integers(0, 2, (3, 25, 4)), models=["a", "b", "c"])
>>> lb = ANALYSES["leaderboard"]
>>> result = lb.run(data, lb.params())
>>> ns = {"data": data}
>>> exec(lb.to_code(lb.params(), "data"), ns)
>>> bool(np.allclose(ns["board"].table["mu"], lb.tables(result)["leaderboard"]["mu"]))
True
"""

from ._base import Analysis, Chart, params_dict, resolve_methods
from .compare import COMPARE, CompareParams, CompareResult
from .convergence import CONVERGENCE, ConvergenceParams, ConvergenceResult
from .greedy import GREEDY, GreedyParams, GreedyResult
from .leaderboard import LEADERBOARD, LeaderboardParams, LeaderboardResult
from .plan import PLAN, PlanParams, PlanResult
from .rubric import RUBRIC, RubricParams, RubricResult
from .simulate import SIMULATIONS
from .stability import STABILITY, StabilityParams, StabilityResult

#: Analyses whose ``run`` takes ``executor=`` (:class:`scorio_core.parallel.Executor`): their
#: sweeps can run on a Dask cluster with the same result.
CLUSTER_ANALYSES = ("convergence", "stability")

#: Every analysis by id, in report order.
ANALYSES: dict[str, Analysis] = {
    a.id: a for a in (LEADERBOARD, COMPARE, CONVERGENCE, STABILITY, GREEDY, RUBRIC, PLAN)
}

__all__ = [
    "ANALYSES",
    "SIMULATIONS",
    "CLUSTER_ANALYSES",
    "Analysis",
    "Chart",
    "params_dict",
    "resolve_methods",
    "CompareParams",
    "CompareResult",
    "ConvergenceParams",
    "ConvergenceResult",
    "GreedyParams",
    "GreedyResult",
    "LeaderboardParams",
    "LeaderboardResult",
    "PlanParams",
    "PlanResult",
    "RubricParams",
    "RubricResult",
    "StabilityParams",
    "StabilityResult",
]
