"""Compiled locking loop of ranked pairs (Ranking Reasoning LLMs under Test-Time Scaling (2026),
App. I.1.4), ``numba.njit(cache=True)``.

Locking is sequential (each decision depends on the transitive closure of the
victories locked before it); in numpy each of the up to ``L(L-1)/2`` steps was a
handful of small array calls. Here the same batch rule runs as plain loops.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["lock_batches"]


@njit(cache=True)
def _add_edges(reach, src, dst, use):
    """Reflexive transitive closure ``reach`` with the edges ``src[k] -> dst[k]`` (where
    ``use[k]``) added, as a new array."""
    L = reach.shape[0]
    out = reach.copy()
    for k in range(src.size):
        if not use[k]:
            continue
        i, j = src[k], dst[k]
        for a in range(L):
            if out[a, i]:
                for c in range(L):
                    if out[j, c]:
                        out[a, c] = True
    return out


@njit(cache=True)
def lock_batches(src, dst, starts, L):
    """Lock the victories ``src -> dst`` (sorted strongest first) batch by batch.

    ``starts`` (with a final ``len(src)``) delimit batches of equal keys. A batch
    victory whose head already reaches its tail is skipped; the rest are added
    together, and if that closes a cycle the victories on it (head reaches tail
    in the trial closure) are left out and the others locked. Returns
    ``(locked (L, L) bool, whether some batch conflicted)``.
    """
    locked = np.zeros((L, L), dtype=np.bool_)
    reach = np.eye(L, dtype=np.bool_)
    conflict = False
    for q in range(starts.size - 1):
        a, b = starts[q], starts[q + 1]
        s, d = src[a:b], dst[a:b]
        ok = np.empty(b - a, dtype=np.bool_)
        for k in range(b - a):
            ok[k] = not reach[d[k], s[k]]
        trial = _add_edges(reach, s, d, ok)
        cyc = False
        for k in range(b - a):
            if ok[k] and trial[d[k], s[k]]:
                ok[k] = False
                cyc = True
        if cyc:
            conflict = True
            trial = _add_edges(reach, s, d, ok)
        for k in range(b - a):
            if ok[k]:
                locked[s[k], d[k]] = True
        reach = trial
    return locked, conflict
