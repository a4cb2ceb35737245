"""A progress bar on stderr (rich): boards, boards per second, input read and time left.

Shown when stderr is a terminal or with ``--progress``; never with ``--quiet`` or in a pipe
unless asked.  Diagnostics written to stderr while it runs appear above it.
"""

from __future__ import annotations

import sys
import time

__all__ = ["ProgressBar"]


class ProgressBar:
    """Advanced by the batch as results are written, in order."""

    def __init__(self, total_bytes: int | None) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        columns = [
            TextColumn("[bold]pbntool[/]"),
            BarColumn(),
            DownloadColumn(),
            TextColumn("{task.fields[boards]:,} boards, {task.fields[rate]:,.0f}/s"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
        ]
        self._progress = Progress(
            *columns,
            console=Console(file=sys.stderr, force_terminal=None),
            transient=False,
            refresh_per_second=4,
            redirect_stdout=False,
        )
        self._task = self._progress.add_task("read", total=total_bytes, boards=0, rate=0.0)
        self._boards = 0
        self._start = time.perf_counter()
        self._progress.start()

    def advance(self, weight: int, boards: int) -> None:
        self._boards += boards
        elapsed = max(time.perf_counter() - self._start, 1e-6)
        self._progress.update(
            self._task, advance=weight, boards=self._boards, rate=self._boards / elapsed
        )

    def stop(self) -> None:
        """End the bar (full when the batch read everything it was told of)."""
        task = self._progress.tasks[0]
        if task.total is not None and task.completed < task.total:
            self._progress.update(self._task, completed=task.total)
        self._progress.stop()
