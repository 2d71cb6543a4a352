"""Run the independent pieces of a sweep here or on a Dask cluster, with identical results.

The sweeps (convergence of re-ranked methods, N = 1 stability over methods, model-pool
robustness, the calibration and simulation studies) split into pieces -- through
:func:`scorio_core.resampling.run_pieces`, the one map of the resampling engine -- whose
inputs are fixed before anything runs -- bootstrap indices come from ``(seed, chunk)``,
pools from ``seed``, a simulation piece's random stream from ``(seed, piece)`` -- so where
a piece runs never changes its result: a local cluster or a remote one gives the same
numbers as this process, in the same order.

>>> from scorio_core.parallel import Executor
>>> with Executor() as ex:                       # this process
...     ex.map(pow, [(2, 3), (3, 2)])
[8, 9]

``Executor(workers=2)`` starts a local ``dask.distributed`` cluster of 2 single-threaded
worker processes for the duration of the ``with`` block; ``Executor(scheduler=
"tcp://host:8786")`` connects to a team's running scheduler (``dask scheduler`` plus
``dask worker`` processes on its machines, each with ``scorio-studio`` installed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ._validation import ValidationError, check_int

__all__ = ["Executor", "executor"]

Progress = Callable[[float, str], None]


class Executor:
    """Map a function over pieces of work, in order, here or on Dask.

    Parameters
    ----------
    workers : int, optional
        Start a local cluster with this many worker processes (1 thread each).
        ``None`` or 0: run in this process.
    scheduler : str, optional
        Address of a running Dask scheduler (``tcp://HOST:PORT``); overrides ``workers``.
    """

    def __init__(self, workers: int | None = None, scheduler: str | None = None) -> None:
        if workers not in (None, 0):
            check_int("workers", workers, minimum=1)
        if scheduler is not None and not str(scheduler).startswith(("tcp://", "tls://", "inproc")):
            raise ValidationError(
                f"scheduler must be a Dask address like tcp://HOST:8786; got {scheduler!r}"
            )
        self.workers, self.scheduler = workers or 0, scheduler
        self._client = None
        self._cluster = None

    @property
    def distributed(self) -> bool:
        return bool(self.workers or self.scheduler)

    @property
    def parallelism(self) -> int:
        """How many pieces run at once: 1 here, else the cluster's worker threads."""
        if self._client is None:
            return max(self.workers, 1) if self.distributed else 1
        info = self._client.scheduler_info().get("workers", {})
        return max(sum(int(w.get("nthreads", 1)) for w in info.values()), 1)

    def __enter__(self) -> Executor:
        if not self.distributed:
            return self
        try:
            from distributed import Client, LocalCluster
        except ImportError:  # pragma: no cover - a dependency
            raise ValidationError(
                "running on Dask needs the 'distributed' package (pip install 'dask[distributed]')"
            ) from None
        if self.scheduler:
            try:
                self._client = Client(self.scheduler, timeout="10s")
            except OSError as exc:
                raise ValidationError(
                    f"cannot reach the Dask scheduler at {self.scheduler} ({exc})"
                ) from None
        else:
            self._cluster = LocalCluster(
                n_workers=self.workers, threads_per_worker=1, processes=True,
                dashboard_address="127.0.0.1:0", host="127.0.0.1",  # any free port
            )
            self._client = Client(self._cluster)
        return self

    def __exit__(self, *exc) -> None:
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()
        self._client = self._cluster = None

    def map(
        self,
        fn: Callable[..., Any],
        items: Sequence[tuple],
        *,
        shared: tuple = (),
        progress: Progress | None = None,
        label: str = "",
    ) -> list:
        """``[fn(*item, *shared) for item in items]``; ``shared`` arguments (e.g. the data)
        are sent to each worker once. ``progress(fraction, label)`` after each piece."""
        items = list(items)
        n = max(len(items), 1)
        if not self.distributed or self._client is None:
            out = []
            for i, item in enumerate(items):
                out.append(fn(*item, *shared))
                if progress is not None:
                    progress((i + 1) / n, label)
            return out
        from distributed import as_completed
        from distributed.client import FutureCancelledError

        client = self._client
        for attempt in (1, 2):
            # hash=False: a fresh key per call; hashed keys are shared between calls that
            # scatter the same data, and releasing one call's copy can cancel another's tasks
            # one round trip for all of them; a list scatters each element whole (a tuple
            # argument stays one piece of data, not one future per element)
            shared_f = client.scatter(list(shared), broadcast=True, hash=False) if shared else []
            futures = [client.submit(fn, *item, *shared_f, pure=False) for item in items]
            try:
                for done, _ in enumerate(as_completed(futures), start=1):
                    if progress is not None:
                        progress(done / n, label)
                return client.gather(futures)
            except FutureCancelledError:  # a worker lost the shared data: send it again, once
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover


def executor(workers: int | None = None, scheduler: str | None = None) -> Executor:
    """:class:`Executor` from the CLI's ``--workers`` / ``--scheduler`` (use in ``with``)."""
    return Executor(workers, scheduler)

