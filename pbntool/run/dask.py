"""The Dask engine (``--engine dask``): the same units on a ``dask.distributed`` cluster.

Workers run ``pbntool.run.engine.run_work`` on the units the main process planned, exactly as
local worker processes do, so results are the same byte for byte; the main process still
writes them in order.  Units carry their data (workers need no access to the input files,
only ``pip install pbntool``).  Install with ``pip install 'pbntool[dask]'``.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

from pbntool.run.engine import UNBOUNDED, Pending, run_work
from pbntool.run.tasks import Task
from pbntool.run.units import Work

__all__ = ["CONNECT_SECONDS", "DaskEngine", "DaskMissing", "DaskUnreachable"]

CONNECT_SECONDS = 5
"""How long to try to reach a ``--scheduler`` before giving up (Dask's own default is 30 s)."""


class DaskMissing(RuntimeError):
    """dask.distributed is not installed (or, as ``DaskUnreachable``, cannot be used)."""


class DaskUnreachable(DaskMissing):
    """The ``--scheduler`` address is malformed or nothing answers there."""


class DaskEngine:
    """Units as Dask tasks; a cluster at ``scheduler`` (``tcp://host:8786``), else a local
    cluster of ``jobs`` single-threaded worker processes."""

    def __init__(self, scheduler: str | None, jobs: int) -> None:
        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError as error:
            raise DaskMissing(
                "the dask engine needs dask.distributed: pip install 'pbntool[dask]'"
            ) from error
        self._cluster: Any = None
        if scheduler:
            self._client: Any = _connect(distributed, scheduler)
        else:
            with warnings.catch_warnings():  # "port 8787 in use": no dashboard is wanted here
                warnings.simplefilter("ignore")
                self._cluster = distributed.LocalCluster(
                    n_workers=max(1, jobs),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    worker_dashboard_address=None,
                    # Critical only: at close, a worker whose heartbeat meets the scheduler
                    # already gone logs an ERROR with a traceback (the run went well; a unit
                    # that fails reaches us through its future).
                    silence_logs=50,
                )
            self._client = distributed.Client(self._cluster, set_as_default=False)
        workers = self._client.scheduler_info().get("workers", {})
        threads = sum(int(info.get("nthreads", 1)) for info in workers.values()) or max(1, jobs)
        self.window = 2 * threads + 1
        self.window_weight = UNBOUNDED

    def submit(self, task: Task, work: Work) -> Pending:
        future: Pending = self._client.submit(run_work, task, work, pure=False)
        return future

    def planned_all(self) -> None:
        """Dask's scheduler balances the tasks itself."""

    def close(self, cancel: bool = False) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def _connect(distributed: Any, scheduler: str) -> Any:
    """A client of the scheduler at ``scheduler``, or ``DaskUnreachable`` saying why not."""
    try:
        # Checked first: a Client made for a malformed address fails only when it is
        # collected, with a traceback, ten seconds later.
        from distributed.comm.addressing import parse_address, parse_host_port

        parse_host_port(parse_address(scheduler)[1])
        return distributed.Client(scheduler, set_as_default=False, timeout=CONNECT_SECONDS)
    except (OSError, ValueError, TypeError) as error:  # TimeoutError is an OSError
        reason = str(error) or type(error).__name__
        raise DaskUnreachable(f"cannot use the Dask scheduler {scheduler}: {reason}") from None
