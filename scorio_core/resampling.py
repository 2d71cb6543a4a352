"""The one resampling engine: seeded index draws of trials and model pools (Don't Pass@k (2026),
§2.7, §3.3; Ranking Reasoning LLMs under Test-Time Scaling (2026), §3.3), the random stream of every
piece of work (:func:`stream`), fixed-size pieces (:func:`blocks`) and the map of pieces here or on
a Dask cluster (:func:`run_pieces`). The bootstrap, convergence, stability, the Planner's
simulations, the calibration studies and the teaching studies all draw and map through here, so a
result never depends on batch sizes, on how many workers ran it, or on where.

Seeding (one scheme): a piece's stream is ``default_rng(SeedSequence(root, spawn_key=path))``
-- child ``path`` of the root ``SeedSequence(root)``, as ``SeedSequence.spawn`` would make
it -- where ``root`` is the user's seed, alone or with the names of the stream's use
(e.g. ``[seed, chunk, scheme]``), and ``path`` numbers the pieces.

Schemes for a tensor ``R (L, M, N)``:

``column``
    resample trial indices with replacement; every question of a replicate
    uses the same trial columns (Don't Pass@k (2026), Fig. 2b, the paper's convergence@n).
``row``
    resample each question's trials independently with replacement (Don't Pass@k (2026), Fig. 2c).
``permutation``
    shuffle the trial order (no replacement): the full-data ranking is kept,
    only the path to it changes.

Replicate ``b`` is generated from its own chunk of :data:`CHUNK` replicates,
seeded by ``(seed, b // CHUNK)``; so the indices of a replicate never depend on
how many replicates are requested or on the ``batch`` size used to process
them. The N single-trial slices ``R[:, :, n]`` (Ranking Reasoning LLMs under Test-Time
Scaling (2026), §3.2) are the column scheme with one trial per replicate: :func:`slice_indices`.

Example
-------
>>> from scorio_core.resampling import resample_indices
>>> idx = resample_indices(5, 3, "column", seed=0)
>>> idx.shape
(3, 5)
>>> bool((resample_indices(5, 2, "column", seed=0, start=1) == idx[1:]).all())
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._validation import ValidationError, check_choice, check_int

if TYPE_CHECKING:
    from .parallel import Executor

__all__ = [
    "CHUNK",
    "SCHEMES",
    "stream",
    "blocks",
    "run_pieces",
    "iter_batches",
    "model_pools",
    "pool_prior",
    "pool_sizes",
    "resample",
    "resample_indices",
    "slice_indices",
]

#: Resampling schemes (see the module docstring).
SCHEMES = ("column", "row", "permutation")
#: Replicates per independently seeded chunk (fixes replicate b's indices for good).
CHUNK = 512


def _check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValidationError(f"seed must be a non-negative integer; got {seed!r}")
    return int(seed)


def stream(root: int | Sequence[int], *path: int) -> np.random.Generator:
    """The random stream of the piece at ``path`` below ``root`` (see the module docstring).

    Example
    -------
    >>> import numpy as np
    >>> from scorio_core.resampling import stream
    >>> a = stream(7, 2).random()
    >>> b = np.random.default_rng(np.random.SeedSequence(7).spawn(3)[2]).random()
    >>> a == b, stream([7, 1]).random() == stream([7, 1]).random()
    (True, True)
    """
    return np.random.default_rng(np.random.SeedSequence(root, spawn_key=tuple(path)))


def blocks(total: int, size: int) -> list[tuple[int, int]]:
    """``[start, stop)`` pieces of ``size`` covering ``range(total)`` (the last may be short).

    Example
    -------
    >>> from scorio_core.resampling import blocks
    >>> blocks(5, 2)
    [(0, 2), (2, 4), (4, 5)]
    """
    return [(a, min(a + size, total)) for a in range(0, total, size)]


def run_pieces(
    fn: Callable[..., Any],
    items: Sequence[tuple],
    *,
    shared: tuple = (),
    executor: Executor | None = None,
    progress: Callable[[float, str], None] | None = None,
    label: str = "",
) -> list:
    """``[fn(*item, *shared) for item in items]``, in order, in this process (``executor``
    ``None``) or on the executor's Dask cluster -- the same result either way, since each
    piece's inputs (indices, stream) are fixed by its item. ``progress(fraction, label)``
    hears of each finished piece; ``shared`` (e.g. the data) goes to each worker once.

    Example
    -------
    >>> from scorio_core.resampling import run_pieces
    >>> run_pieces(pow, [(2, 3), (3, 2)])
    [8, 9]
    """
    from .parallel import Executor

    ex = executor if executor is not None else Executor()
    return ex.map(fn, items, shared=shared, progress=progress, label=label)


def _chunk(N: int, scheme: str, seed: int, c: int, M: int | None) -> np.ndarray:
    rng = stream([seed, c, SCHEMES.index(scheme)])
    if scheme == "column":
        return rng.integers(0, N, size=(CHUNK, N), dtype=np.int32)
    if scheme == "row":
        return rng.integers(0, N, size=(CHUNK, M, N), dtype=np.int32)
    return rng.permuted(np.broadcast_to(np.arange(N, dtype=np.int32), (CHUNK, N)), axis=1)


def resample_indices(
    N: int,
    replicates: int,
    scheme: str = "column",
    seed: int = 0,
    *,
    M: int | None = None,
    start: int = 0,
) -> np.ndarray:
    """Trial indices of replicates ``start .. start + replicates - 1``.

    Shape ``(B, N)`` for ``column``/``permutation`` and ``(B, M, N)`` for
    ``row`` (which needs ``M``). Entry ``[b, ..., j]`` is the original trial
    used as the replicate's ``j``-th trial.
    """
    N = check_int("N (trials)", N)
    B = check_int("replicates", replicates, minimum=0)
    start = check_int("start", start, minimum=0)
    scheme = check_choice("scheme", scheme, SCHEMES)
    seed = _check_seed(seed)
    if scheme == "row":
        M = check_int("M (questions)", M)
    shape = (B, M, N) if scheme == "row" else (B, N)
    out = np.empty(shape, dtype=np.int32)
    if B == 0:
        return out
    first, last = start // CHUNK, (start + B - 1) // CHUNK
    pos = 0
    for c in range(first, last + 1):
        block = _chunk(N, scheme, seed, c, M)
        lo = max(start - c * CHUNK, 0)
        hi = min(start + B - c * CHUNK, CHUNK)
        out[pos : pos + hi - lo] = block[lo:hi]
        pos += hi - lo
    return out


def iter_batches(
    N: int,
    replicates: int,
    scheme: str = "column",
    seed: int = 0,
    *,
    M: int | None = None,
    batch: int = 2048,
) -> Iterator[tuple[int, np.ndarray]]:
    """Yield ``(start, indices)`` blocks of at most ``batch`` replicates.

    Concatenating the blocks gives exactly ``resample_indices(N, replicates, ...)``.
    """
    batch = check_int("batch", batch)
    replicates = check_int("replicates", replicates, minimum=0)
    for start in range(0, replicates, batch):
        b = min(batch, replicates - start)
        yield start, resample_indices(N, b, scheme, seed, M=M, start=start)


def resample(R, idx: np.ndarray) -> np.ndarray:
    """Materialize replicates ``(B, L, M, N')`` from indices of :func:`resample_indices`.

    Memory grows with the batch; the analyses use the indices directly and
    only materialize replicates for methods without a fast path.
    """
    R = np.asarray(R)
    idx = np.asarray(idx)
    if R.ndim != 3:
        raise ValidationError(f"R must have shape (L, M, N); got {R.shape}")
    if idx.ndim == 2:  # column / permutation: (B, N')
        return np.moveaxis(R[:, :, idx], 2, 0)
    if idx.ndim == 3:  # row: (B, M, N')
        if idx.shape[1] != R.shape[1]:
            raise ValidationError(
                f"row indices are for M={idx.shape[1]} questions; R has M={R.shape[1]}"
            )
        m = np.arange(R.shape[1])[None, :, None]
        return np.moveaxis(R[:, m, idx], 1, 0)
    raise ValidationError(f"indices must have 2 or 3 dimensions; got shape {idx.shape}")


def slice_indices(N: int) -> np.ndarray:
    """The N single-trial slices as column-scheme indices ``(N, 1)`` (Ranking Reasoning LLMs under
    Test-Time Scaling (2026), §3.2)."""
    return np.arange(check_int("N (trials)", N), dtype=np.int32)[:, None]


def model_pools(L: int, size: int, pools: int, seed: int = 0) -> np.ndarray:
    """``pools`` random model subsets of ``size`` models each, ``(pools, size)``.

    Each pool is drawn without replacement (sorted indices); pools are drawn
    independently, so the same subset may recur (a bootstrap over pools, Ranking Reasoning LLMs
    under Test-Time Scaling (2026), §3.3).
    """
    L = check_int("L (models)", L)
    size = check_int("pool size", size, minimum=2)
    pools = check_int("pools", pools)
    if size > L:
        raise ValidationError(f"pool size must be at most the {L} models; got {size}")
    rng = stream([_check_seed(seed), size])
    keys = rng.random((pools, L))
    return np.sort(np.argsort(keys, axis=1)[:, :size], axis=1)


def pool_sizes(sizes, L: int, what: str = "pool") -> list[int]:
    """The requested pool sizes that fit ``2 <= size <= L``; an error if none does."""
    fit = [int(s) for s in sizes if 2 <= s <= L]
    if not fit:
        raise ValidationError(f"no {what} size fits between 2 and the {L} models")
    return fit


def pool_prior(R0, pool: np.ndarray):
    """The prior outcomes of a model pool: per-model ``R0`` sliced, a shared one kept."""
    if R0 is None:
        return None
    return np.asarray(R0)[pool] if np.ndim(R0) == 3 else R0
