"""Priors for MAP estimation: a penalty ``P(θ)`` and its gradient (Ranking Reasoning LLMs under
Test-Time Scaling (2026), App. I.1.5).

``-log posterior = -log likelihood(θ) + P(θ)``. Every ``*_map`` ranker accepts
``prior=`` as a :class:`Prior` or a float (Gaussian variance around 0). ML is
MAP with :class:`UniformPrior` (no penalty), so there is one objective per
model, not two copies.

Example
-------
>>> from scorio_core.rank.priors import GaussianPrior
>>> import numpy as np
>>> GaussianPrior(var=2.0).penalty(np.array([1.0, -1.0]))
0.5
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .._validation import (
    ValidationError,
    as_numbers,
    binary_array_next,
    checked_keywords,
    checked_methods,
)

__all__ = [
    "Prior",
    "GaussianPrior",
    "LaplacePrior",
    "CauchyPrior",
    "UniformPrior",
    "EmpiricalPrior",
    "CustomPrior",
    "as_prior",
]


def _finite(name: str, value) -> None:
    a = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(a)):
        raise ValidationError(f"prior {name} must be finite; got {value!r}")


def _positive(name: str, value) -> None:
    v = float(value)
    if not (np.isfinite(v) and v > 0):
        raise ValidationError(f"prior {name} must be a positive finite number; got {value!r}")


@checked_methods  # its subclasses' own methods: @checked_keywords checks them
class Prior:
    """Base class: ``penalty(θ) -> float`` and ``grad(θ) -> array``."""

    def penalty(self, theta: np.ndarray) -> float:  # pragma: no cover - interface
        raise NotImplementedError

    def grad(self, theta: np.ndarray) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError


@checked_keywords
@dataclass(frozen=True)
class GaussianPrior(Prior):
    """``P(θ) = Σ (θ_i - mean)² / (2 var)``; ``mean``: one number, or one per model (a list,
    an array or one comma-separated string, ``"0,0.5"``)."""

    mean: float | Sequence[float] | np.ndarray | str = 0.0
    var: float = 1.0

    def __post_init__(self):
        if isinstance(self.mean, str):  # "0,0.5" as typed, not one text
            object.__setattr__(self, "mean", as_numbers(self.mean, "mean", kind=float,
                                                        example="0,0.5"))
        _finite("mean", self.mean)
        if not self.var > 0:
            raise ValidationError(f"Gaussian prior variance must be positive; got {self.var}")
        _positive("variance", self.var)

    def penalty(self, theta):
        return float(np.sum((theta - self.mean) ** 2) / (2 * self.var))

    def grad(self, theta):
        return (theta - self.mean) / self.var


@checked_keywords
@dataclass(frozen=True)
class LaplacePrior(Prior):
    """``P(θ) = Σ |θ_i - loc| / scale`` (smoothed at 0 so the gradient exists)."""

    loc: float = 0.0
    scale: float = 1.0
    smooth: float = 1e-8

    def __post_init__(self):
        _finite("loc", self.loc)
        if not self.scale > 0:
            raise ValidationError(f"Laplace prior scale must be positive; got {self.scale}")
        _positive("scale", self.scale)
        _positive("smooth", self.smooth)

    def penalty(self, theta):
        d = theta - self.loc
        return float(np.sum(np.sqrt(d * d + self.smooth)) / self.scale)

    def grad(self, theta):
        d = theta - self.loc
        return d / np.sqrt(d * d + self.smooth) / self.scale


@checked_keywords
@dataclass(frozen=True)
class CauchyPrior(Prior):
    """``P(θ) = Σ log(1 + ((θ_i - loc) / scale)²)`` (heavy tails: weak shrinkage of big gaps)."""

    loc: float = 0.0
    scale: float = 1.0

    def __post_init__(self):
        _finite("loc", self.loc)
        if not self.scale > 0:
            raise ValidationError(f"Cauchy prior scale must be positive; got {self.scale}")
        _positive("scale", self.scale)

    def penalty(self, theta):
        u = (theta - self.loc) / self.scale
        return float(np.sum(np.log1p(u * u)))

    def grad(self, theta):
        u = (theta - self.loc) / self.scale
        return 2 * u / (1 + u * u) / self.scale


@checked_keywords
@dataclass(frozen=True)
class UniformPrior(Prior):
    """No penalty: MAP equals maximum likelihood."""

    def penalty(self, theta):
        return 0.0

    def grad(self, theta):
        return np.zeros_like(theta)


@checked_keywords
@dataclass(frozen=True)
class EmpiricalPrior(Prior):
    """Gaussian around the centred logits of each model's accuracy in ``R0``.

    ``μ_i = logit(clip(acc_i, eps, 1 - eps))``, centred to mean 0 because
    strengths are identified only up to a shift; ``P(θ) = Σ (θ_i - μ_i)² / (2 var)``.
    """

    R0: np.ndarray
    var: float = 1.0
    eps: float = 1e-6
    prior_mean: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        R0 = np.asarray(self.R0, dtype=float)
        if R0.ndim not in (2, 3) or not np.all(np.isin(R0, (0, 1))):
            # categories 0..C: the expression that makes them binary (not for other values)
            cats = (R0.ndim in (2, 3) and R0.size > 0 and bool(np.all(R0 >= 0))
                    and bool(np.all(R0 == np.floor(R0))))
            raise ValidationError(
                f"EmpiricalPrior needs binary R0 of shape (L, M) or (L, M, D); got shape "
                f"{R0.shape}" + (f" with categories up to {int(R0.max())}. " + binary_array_next(
                    R0.astype(int), None, name="R0") if cats else ""))
        if not self.var > 0:
            raise ValidationError(f"prior variance must be positive; got {self.var}")
        _positive("variance", self.var)
        if not 0 < float(self.eps) < 0.5:
            raise ValidationError(f"EmpiricalPrior eps must lie in (0, 0.5); got {self.eps!r}")
        acc = R0.reshape(R0.shape[0], -1).mean(1)
        acc = np.clip(acc, self.eps, 1 - self.eps)
        mu = np.log(acc / (1 - acc))
        object.__setattr__(self, "prior_mean", mu - mu.mean())

    def penalty(self, theta):
        return float(np.sum((theta - self.prior_mean) ** 2) / (2 * self.var))

    def grad(self, theta):
        return (theta - self.prior_mean) / self.var


@checked_keywords
@dataclass(frozen=True)
class CustomPrior(Prior):
    """A user penalty; the gradient is by central differences unless ``grad_fn`` is given."""

    penalty_fn: Callable[[np.ndarray], float]
    grad_fn: Callable[[np.ndarray], np.ndarray] | None = None

    def penalty(self, theta):
        return float(self.penalty_fn(theta))

    def grad(self, theta):
        if self.grad_fn is not None:
            return np.asarray(self.grad_fn(theta), dtype=float)
        h = 1e-6
        eye = np.eye(theta.size) * h
        return np.array(
            [(self.penalty_fn(theta + e) - self.penalty_fn(theta - e)) / (2 * h) for e in eye]
        )


def as_prior(prior: Prior | float | None, n_models: int | None = None) -> Prior:
    """``None`` -> uniform (ML); a float -> Gaussian with that variance; a Prior as is.

    With ``n_models``, also check that the prior accepts a strength vector of
    that length (e.g. an :class:`EmpiricalPrior` built from another model set).
    """
    if prior is None:
        p: Prior = UniformPrior()
    elif isinstance(prior, Prior):
        p = prior
    elif isinstance(prior, bool) or not isinstance(prior, int | float | np.floating | np.integer):
        raise ValidationError(f"prior must be a Prior or a positive variance; got {prior!r}")
    elif not np.isfinite(prior):
        raise ValidationError(f"prior variance must be a positive finite number; got {prior!r}")
    else:
        p = GaussianPrior(0.0, float(prior))
    if n_models is not None:
        zeros = np.zeros(n_models)
        try:
            g = np.asarray(p.grad(zeros), dtype=float)
            pen = float(p.penalty(zeros))
        except (ValueError, TypeError) as exc:
            raise ValidationError(
                f"prior does not accept a strength vector of {n_models} models: {exc}"
            ) from None
        if g.shape != (n_models,) or not np.isfinite(pen):
            raise ValidationError(
                f"prior must give a finite penalty and a gradient of shape ({n_models},) for "
                f"{n_models} models; got gradient shape {g.shape}"
            )
    return p
