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


def assert_signature_like_reference(fn, ref_fn, *, skip_default=(), drop=(), extra=()) -> None:
    """Same keyword names and defaults as the reference function (``R`` excepted).

    ``skip_default``: parameters whose default deliberately differs; ``drop``:
    reference-only parameters we deliberately do not offer; ``extra``: ours only.
    """
    name = ref_fn.__name__
    ours = {k: v for k, v in inspect.signature(fn).parameters.items() if k not in extra}
    theirs = {k: v for k, v in inspect.signature(ref_fn).parameters.items() if k not in drop}
    assert set(ours) == set(theirs), name
    for p in theirs:
        if p != "R" and p not in skip_default:
            assert ours[p].default == theirs[p].default, (name, p)


def assert_same_order_as_reference(
    ours, theirs, ref_scores=None, *, rtol: float = 1e-9, atol: float = 1e-12, msg: str = ""
) -> None:
    """The reference ranks every pair the way we do, except where its answer is arbitrary.

    A pair we rank apart must be ranked the same way by the reference. A pair we tie
    (the math implies a tie) may be tied or split by the reference: which way its
    exact-comparison ranking splits scores that are equal in exact arithmetic depends on
    its solver's stopping point and on the machine's floating-point path. When the
    reference's scores are given, such a split is accepted only where its two scores
    agree to ``atol + rtol·max|score|`` (its convergence error), so a real disagreement
    still fails.
    """
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    sign_ours = np.sign(ours[:, None] - ours[None, :])
    sign_ref = np.sign(theirs[:, None] - theirs[None, :])
    undetermined = sign_ours == 0
    if ref_scores is not None:
        s = np.asarray(ref_scores, dtype=float)
        gap = np.abs(s[:, None] - s[None, :])
        undetermined &= gap <= atol + rtol * np.abs(s).max()
    bad = (sign_ours != sign_ref) & ~undetermined
    assert not bad.any(), (msg, ours.tolist(), theirs.tolist(), np.argwhere(bad)[:4].tolist())
