"""Shared pieces of the ranker tests: degenerate inputs and the signature-parity check."""

from __future__ import annotations

import inspect

import numpy as np


def degenerate_cases() -> dict[str, tuple[np.ndarray, bool]]:
    """name -> (R, whether every model must tie)."""
    rng = np.random.default_rng(0)
    base = rng.integers(0, 2, (4, 6, 3))
    return {
        "all_correct": (np.ones((4, 5, 3), dtype=int), True),
        "all_wrong": (np.zeros((4, 5, 3), dtype=int), True),
        "identical": (np.repeat(base[:1], 3, axis=0), True),
        "L2": (base[:2], False),
        "M1": (base[:, :1], False),
        "N1": (base[:, :, :1], False),
        "L2_M1_N1": (np.array([[[1]], [[0]]]), False),
        "L1": (base[:1], True),
        "2d": (base[:, :, 0], False),
    }


def assert_signature_like_reference(fn, ref_fn, *, skip_default=(), drop=()) -> None:
    """Same keyword names and defaults as the reference function (``R`` excepted).

    ``skip_default``: parameters whose default deliberately differs; ``drop``:
    reference-only parameters we deliberately do not offer.
    """
    name = ref_fn.__name__
    ours = inspect.signature(fn).parameters
    theirs = {k: v for k, v in inspect.signature(ref_fn).parameters.items() if k not in drop}
    assert set(ours) == set(theirs), name
    for p in theirs:
        if p != "R" and p not in skip_default:
            assert ours[p].default == theirs[p].default, (name, p)
