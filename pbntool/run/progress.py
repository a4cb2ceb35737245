"""A progress bar on stderr (rich): input read of the total, boards, boards per second, time
elapsed and time left.

Shown when stderr is a terminal or with ``--progress``; never with ``--quiet`` or in a pipe
unless asked.  Diagnostics written to stderr while it runs appear above it.

The total is the inputs' size on disk, found before the run by ``stat`` alone
(``pbntool.text.inputs.input_bytes``: an archive counts as its compressed size, stdin as
unknown, and then the bar has no total).  The bar advances by the units' weights (the text
each one read), kept within each input's size on disk (``InputShare``), so it never runs past
the total, and reaches an input's share when the input is done.
"""

from __future__ import annotations

import sys
import time

from pbntool.text.inputs import Input

__all__ = ["InputShare", "ProgressBar"]


class InputShare:
    """How far the bar moves for each unit: its weight, within its input's size on disk.

    An archive's size comes with its first member (``Input.size``); the members after it,
    sizeless, share what is left of it.  An input's unspent share is given when the next
    input starts (decompressed text outweighs its archive; text decoded from UTF-16 weighs
    half its bytes).
    """

    def __init__(self, bounded: bool) -> None:
        self._bounded = bounded
        self._source: Input | None = None
        self._left = 0

    def advance(self, source: Input | None, weight: int) -> int:
        """Bytes to advance the bar by for a unit of ``source`` that weighs ``weight``."""
        if not self._bounded:
            return weight
        step = 0
        if source is not self._source:
            self._source = source
            if source is not None and source.size is not None:
                step, self._left = self._left, source.size  # the last input's rest is done
        spent = min(weight, self._left)
        self._left -= spent
        return step + spent


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
            TextColumn("ETA"),
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
        self._share = InputShare(bounded=total_bytes is not None)
        self._boards = 0
        self._start = time.perf_counter()
        self._progress.start()

    def advance(self, weight: int, boards: int, source: Input | None = None) -> None:
        self._boards += boards
        elapsed = max(time.perf_counter() - self._start, 1e-6)
        self._progress.update(
            self._task,
            advance=self._share.advance(source, weight),
            boards=self._boards,
            rate=self._boards / elapsed,
        )

    def stop(self) -> None:
        """End the bar (full when the batch read everything it was told of)."""
        task = self._progress.tasks[0]
        if task.total is not None and task.completed < task.total:
            self._progress.update(self._task, completed=task.total)
        self._progress.stop()
