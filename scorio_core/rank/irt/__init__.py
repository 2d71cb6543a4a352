"""Item response theory rankers (Ranking Reasoning LLMs under Test-Time Scaling (2026), App. I.1.8):
Rasch, 2PL, 3PL, MML + EAP, dynamic IRT.

Models are examinees with abilities ``θ_l``, questions are items. Every
estimator reads the binomial reduction of Ranking Reasoning LLMs under Test-Time Scaling (2026),
eq. (53); one module per model family, one objective per family (the equations and
algorithms are that paper's)::

    (1)  k_lm = Σ_n R_lmn ~ Binomial(N, p_lm)
    (2)  p_lm = σ(θ_l - b_m)                          Rasch / 1PL, eq. 54  onepl
    (3)  p_lm = σ(a_m (θ_l - b_m))                    2PL, eq. 55          xpl
    (4)  p_lm = c_m + (1 - c_m) σ(a_m (θ_l - b_m))    3PL, eq. 56          xpl
    (5)  P(R_lmn = 1) = σ(θ_ln - b_m)                 dynamic, Alg. 8      dynamic
    (6)  θ_l ~ N(0, 1) integrated out                 Rasch MML, Alg. 7    mml

The joint fits minimise one objective over abilities and item parameters::

    (7)  F(x) = NLL(x) + P(θ) + ridge/2 (‖θ‖² + ‖b‖²) + model penalties

with ``P`` the prior penalty (:mod:`~scorio_core.rank.priors`). ML is MAP with
the uniform prior (``P = 0``): each ``*_map`` ranker and its ML twin call the
same fit, with ``prior`` or ``None``. Scores are abilities (higher = better).

Shared by every family (``_base``):

* The standard form: ``R`` is read once into :class:`~._base._Counts` (counts
  ``k``, informative items). Constant items (solved by every model on every
  trial, or by none) have difficulty ``∓∞`` in the (extended) ML fit and carry
  no information about abilities: they are left out of every fit and reported
  with difficulty ``±inf``.
* Models with the same sufficient statistic share one parameter (same total for
  Rasch and MML, same count row for 2PL/3PL, same totals for dynamic IRT), so
  ties come out as exactly equal scores.
* One L-BFGS loop (:func:`~._base._solve` over
  :func:`~scorio_core.rank._optim.fit`), preconditioned by the expected
  information at the start, with one stopping verdict: converged when max
  |gradient| of (7) is below 0.05 (log-likelihood units). Where (7) is smooth
  and strictly convex (Rasch under a uniform or Gaussian prior, linear growth)
  it is minimised by compiled Newton steps instead (``_kernels``), whose
  Hessian is bipartite: the item block is eliminated by its Schur complement.
* Location gauge of ML fits (the likelihood only sees ``θ_l - b_m``): fitted
  with mean ability 0, reported with ``Σ_m b_m = 0`` for Rasch and dynamic IRT
  as in Ranking Reasoning LLMs under Test-Time Scaling (2026), Algorithms 6 and 8, and with median
  ability 0 for 2PL/3PL. A common shift changes no ranking. Under a proper prior the location is
  identified and nothing is centred; the likelihood's symmetries (shift, and in 2PL/3PL
  the ability/discrimination scale) are explicit coordinates that only the
  prior and penalties see (:class:`~._base._AbilityPrior`).
* Where the ML estimate does not exist (a model that solves everything or
  nothing, separated response patterns) the vague ridge (precision ``1e-6``)
  in (7) selects the finite point far out along the diverging direction. It
  moves abilities by ``O(1e-6)`` where the MLE exists and keeps the order. The
  reference package raises ``ValueError`` on such data instead.
* Every ranker follows the shared contract (ranks, 1 = best; ``(ranks,
  scores)`` with ``return_scores=True``; scores are abilities, higher =
  better). ``return_item_params=True`` returns ``(ranks, scores,
  item_params)`` (it implies the scores, as in the reference package);
  ``item_params`` is a dict of arrays plus ``"converged"``.

Timings against the reference package: ``python benchmarks/rankers.py --only
rasch,...`` (``--irt-solvers`` for Newton against L-BFGS).
"""

from __future__ import annotations

# import order is registration order, the order of 002 App. I.2
# isort: off
from .onepl import rasch, rasch_map
from .xpl import rasch_2pl, rasch_2pl_map, rasch_3pl, rasch_3pl_map
from .mml import rasch_mml, rasch_mml_credible
from .dynamic import dynamic_irt
# isort: on

__all__ = [
    "rasch", "rasch_map", "rasch_2pl", "rasch_2pl_map", "rasch_3pl", "rasch_3pl_map",
    "rasch_mml", "rasch_mml_credible", "dynamic_irt",
]  # fmt: skip
