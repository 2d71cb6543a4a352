"""Degenerate inputs shared by the ranker tests: name -> (R, every model must tie)."""

from __future__ import annotations

import numpy as np


def degenerate_cases() -> dict[str, tuple[np.ndarray, bool]]:
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
