"""Ranking methods of Ranking Reasoning LLMs under Test-Time Scaling (2026), App. I.1 behind one
contract and one registry.

Every public function is ``f(R, *, <params>, method="competition",
return_scores=False)``: ``R`` is a binary ``(L, M, N)`` tensor (``(L, M)`` means
``N = 1``) or an :class:`~scorio_core.Outcomes` (its ``R``; ``bayes`` takes its weights,
``METHODS["bayes_greedy"]`` its ``R0``; a binary-only method refuses categorical data), the
result is ranks ``(L,)`` with 1 = best (competition ranking for
ties) and, with ``return_scores=True``, also the scores (higher = better).
:data:`METHODS` maps each of the 72 identifiers of Ranking Reasoning LLMs under Test-Time
Scaling (2026), App. I.2 (plus marked extras) to a configured
:class:`~scorio_core.rank.registry.Method`.

Example
-------
>>> import numpy as np
>>> from scorio_core import rank
>>> R = np.array([[[1, 1], [1, 0]], [[0, 1], [0, 0]]])
>>> rank.avg(R).tolist()
[1, 2]
"""

from .._ties import rank_scores
from .bayesian import bayesian_mcmc, thompson
from .graph import alpharank, nash, pagerank, rank_centrality, spectral
from .hodge import hodge_rank
from .irt import (
    dynamic_irt,
    rasch,
    rasch_2pl,
    rasch_2pl_map,
    rasch_3pl,
    rasch_3pl_map,
    rasch_map,
    rasch_mml,
    rasch_mml_credible,
)
from .luce import (
    bradley_terry_luce,
    bradley_terry_luce_map,
    davidson_luce,
    davidson_luce_map,
    plackett_luce,
    plackett_luce_map,
)
from .metrics import (
    avg,
    bayes,
    g_pass_at_k_tau,
    inverse_difficulty,
    mg_pass_at_k,
    pass_at_k,
    pass_hat_k,
)
from .paired import (
    bradley_terry,
    bradley_terry_davidson,
    bradley_terry_davidson_map,
    bradley_terry_map,
    rao_kupper,
    rao_kupper_map,
)
from .priors import (
    CauchyPrior,
    CustomPrior,
    EmpiricalPrior,
    GaussianPrior,
    LaplacePrior,
    Prior,
    UniformPrior,
)
from .registry import FAMILIES, METHODS, Method, ranker, sort_registry
from .sequential import elo, glicko, trueskill
from .seriation import serial_rank
from .voting import (
    baldwin,
    borda,
    copeland,
    kemeny_young,
    majority_judgment,
    minimax,
    nanson,
    ranked_pairs,
    schulze,
    win_rate,
)

sort_registry()

__all__ = [
    "FAMILIES", "METHODS", "Method", "ranker", "rank_scores",
    "Prior", "GaussianPrior", "LaplacePrior", "CauchyPrior", "UniformPrior", "EmpiricalPrior",
    "CustomPrior",
    "avg", "inverse_difficulty", "pass_at_k", "pass_hat_k", "g_pass_at_k_tau", "mg_pass_at_k",
    "bayes", "thompson", "bayesian_mcmc",
    "borda", "copeland", "win_rate", "minimax", "schulze", "ranked_pairs", "kemeny_young",
    "nanson", "baldwin", "majority_judgment",
    "bradley_terry", "bradley_terry_map", "bradley_terry_davidson", "bradley_terry_davidson_map",
    "rao_kupper", "rao_kupper_map",
    "elo", "glicko", "trueskill",
    "plackett_luce", "plackett_luce_map", "davidson_luce", "davidson_luce_map",
    "bradley_terry_luce", "bradley_terry_luce_map",
    "rasch", "rasch_map", "rasch_2pl", "rasch_2pl_map", "rasch_3pl", "rasch_3pl_map",
    "rasch_mml", "rasch_mml_credible", "dynamic_irt",
    "pagerank", "spectral", "rank_centrality", "alpharank", "nash",
    "serial_rank", "hodge_rank",
]  # fmt: skip
