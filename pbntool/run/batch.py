"""Running a command over many inputs: planning, the engine, counting, the summary, exit codes.

``Batch(options, task)`` is iterated by a command: it yields ``(input, chunk)`` in input order
— the rendered output of consecutive records — while it counts what it yields in its
``Tally`` (``pbntool.run.report``, the one owner of counts, summary and exit code).  It stops
early at ``max_errors``.  Then ``finish`` prints the summary and returns the exit code.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TextIO

from pbntool.diagnostics import Diagnostic, Severity
from pbntool.formats import Format
from pbntool.formats.split import slice_chars, slices_of, spread_slice_chars
from pbntool.run.engine import available_cores, open_engine, run_ordered
from pbntool.run.report import EXIT_FINDINGS, EXIT_OK, EXIT_UNREADABLE, Tally
from pbntool.run.tasks import Chunk, DialectTask, Task, finding
from pbntool.run.units import Planned, plan_input
from pbntool.text.edit import InputFiles
from pbntool.text.inputs import Input, Selection, input_bytes, iter_inputs, read_path_list

__all__ = [
    "EXIT_FINDINGS",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "Batch",
    "BatchOptions",
    "Tally",
    "UsageError",
]


class UsageError(ValueError):
    """Options that do not go together; the command exits 2 before reading anything."""


@dataclass(frozen=True, slots=True)
class BatchOptions:
    """What to read and how: the options every batch command shares."""

    paths: tuple[str, ...] = ()
    files_from: str | None = None
    """A file listing one path per line (``-``: stdin)."""
    selection: Selection = field(default_factory=Selection)
    form: Format | None = None
    jobs: int = 0
    """Worker processes; 0 means one per core."""
    engine: str = "local"
    scheduler: str | None = None
    max_errors: int | None = None
    fail_on: Severity = Severity.ERROR
    progress: bool | None = None
    """True: always; None: when stderr is a terminal; False: never (and never when quiet)."""
    quiet: bool = False
    summary_json: bool = False
    dialect: str | None = None
    """Read in a program's dialect (``pbntool.formats.pbn.dialects``); each input whole."""

    def input_files(self) -> InputFiles:
        """The files on disk this run reads (walked now, names only): no output may be one."""
        paths = list(self.paths)
        if self.files_from not in (None, "-"):
            with contextlib.suppress(OSError):
                paths.extend(listed_paths(str(self.files_from)))
        return InputFiles.of(paths, self.selection.follow_symlinks)

    def check(self) -> None:
        """Raise ``UsageError`` for impossible combinations."""
        if not self.paths and self.files_from is None:
            raise UsageError("no input: give paths, - for stdin, or --files-from")
        if self.files_from == "-" and "-" in self.paths:
            raise UsageError("stdin cannot be both --files-from - and an input (-)")
        if self.jobs < 0:
            raise UsageError("-j must be at least 1 (or 0 for one per core)")
        if self.max_errors is not None and self.max_errors < 1:
            raise UsageError("--max-errors must be at least 1")
        if self.files_from not in (None, "-") and not Path(str(self.files_from)).is_file():
            raise UsageError(f"--files-from {self.files_from}: no such file")
        if self.scheduler and self.engine != "dask":
            raise UsageError("--scheduler needs --engine dask")
        ratio = self.selection.limits.max_ratio
        if not ratio > 0:  # also false for nan
            raise UsageError(f"--max-ratio must be a number above 0, not {ratio:g}")

    def warnings(self) -> list[str]:
        """What the options ask for that the run does differently (said before it starts)."""
        cores = available_cores()
        if self.jobs > cores and self.scheduler is None:
            return [f"-j {self.jobs} is more than the {cores} cores here; using -j {cores}"]
        return []

    def sources(self) -> Iterator[Input]:
        """Every input of the run, in order: the paths, then those ``--files-from`` lists."""
        yield from iter_inputs(self.paths, self.selection)
        if self.files_from is not None:
            yield from iter_inputs(listed_paths(self.files_from), self.selection)

    def many_inputs(self) -> bool:
        """Whether the run reads a folder or a list of files (not only the files named)."""
        return self.files_from is not None or any(
            path != "-" and os.path.isdir(path) for path in self.paths
        )

    @property
    def job_count(self) -> int:
        """Workers to start: ``-j``, at most one per core (more only cost memory) unless they
        run on a Dask cluster elsewhere."""
        if self.scheduler is not None and self.jobs:
            return self.jobs
        return min(self.jobs, available_cores()) if self.jobs else available_cores()


class Batch:
    """Every input of ``options``, planned, run on the engine and yielded in order."""

    def __init__(self, options: BatchOptions, task: Task, unit_chars: int | None = None) -> None:
        """``unit_chars``: text per unit when the command wants other than the splitters'
        default (``pbntool.formats.split.slice_chars``): larger inputs are cut to that size
        and, when the run is in this process, smaller ones run together up to it
        (``GatheringEngine``)."""
        options.check()
        self.options = options
        self.unit_chars = unit_chars
        self.task: Task = task if options.dialect is None else DialectTask(task, options.dialect)
        self.tally = Tally(fail_on=options.fail_on)
        self._progress: ProgressLike | None = None
        self.spool = False
        """Set by a consumer that takes spooled chunks (``Chunk.spool``) before iterating:
        local workers then leave large texts in spool files (``pbntool.run.spool``)."""

    def __iter__(self) -> Iterator[tuple[Input, Chunk]]:
        options = self.options
        engine = open_engine(
            options.engine,
            options.job_count,
            options.scheduler,
            gather=self.unit_chars,
            spool=self.spool,
            inline=not options.many_inputs(),
        )
        local = options.engine == "local"
        self._progress = open_progress(options)
        counted: Input | None = None
        try:
            for plan, result in run_ordered(self._plans(local), self.task, engine):
                if plan.source is not counted:
                    # Counted as its results are handed out, not as it is planned: the
                    # planner runs ahead of the workers, and a run stopped by --max-errors
                    # reports the inputs it read.
                    counted = plan.source
                    self.tally.inputs += 1
                if self._progress is not None:
                    boards = sum(chunk.boards for chunk in result.chunks)
                    weight = plan.work.weight if plan.work else 0
                    self._progress.advance(weight, boards, plan.source)
                assert plan.source is not None
                for chunk in result.chunks:
                    self.tally.add(chunk)
                    yield plan.source, chunk
                    if self._reached_max_errors():
                        self.tally.stopped = True
                        return
        finally:
            engine.close(cancel=True)
            if self._progress is not None:
                self._progress.stop()

    def count_problem(self, diagnostic: Diagnostic) -> None:
        """Count a finding the command made itself (an output that was refused)."""
        self.tally.add(Chunk("", "", 0, 0, (finding(diagnostic),), None))

    def _reached_max_errors(self) -> bool:
        limit = self.options.max_errors
        return limit is not None and self.tally.severity_count(Severity.ERROR) >= limit

    def _plans(self, local: bool) -> Iterator[Planned]:
        jobs = self.options.job_count if local else 1
        for source in self.options.sources():
            whole = self.options.dialect is not None
            chars = self.unit_chars or spread_slice_chars(source.size, jobs)
            tail = self._tail(source, jobs)
            planned = plan_input(source, self.options.form, local, whole)
            for plan in self._sliced(planned, chars, tail):
                plan.source = source
                yield plan

    def _tail(self, source: Input, jobs: int) -> tuple[int, int] | None:
        """A file of two slices a worker or more has its last slices shrink, so that the
        workers finish together (``slice_limit``); a smaller one is spread over them already
        (``spread_slice_chars``; cut finer, a folder's mid-sized files made more units to
        plan and send, and converting the corpus folder 2% slower).  An archive member's
        size is not known (its archive's goes with the first one)."""
        size = source.size if source.path is not None else None
        if jobs < 2 or size is None or size < 2 * jobs * (self.unit_chars or slice_chars()):
            return None
        return size, jobs

    @staticmethod
    def _sliced(
        planned: Iterator[Planned], chars: int | None, tail: tuple[int, int] | None = None
    ) -> Iterator[Planned]:
        """``planned`` cut in slices of ``chars`` (None: the splitters' default): the command's
        size, or one that spreads a mid-sized input over the workers; ``tail``: the input's
        size and the workers, for slices that shrink toward its end (``slice_limit``).  They
        hold while the planner runs (between two units), not while the command writes."""
        if chars is None and tail is None:
            yield from planned
            return
        while True:
            with slices_of(chars, tail):
                plan = next(planned, None)
            if plan is None:
                return
            yield plan

    def finish(self, stream: TextIO | None = None, note: str = "") -> int:
        """Print the summary (unless quiet), with the command's ``note`` on its counts, and
        return the exit code."""
        options = self.options
        out = sys.stderr if stream is None else stream
        return self.tally.finish(out, quiet=options.quiet, as_json=options.summary_json, note=note)


def listed_paths(files_from: str) -> Iterator[str]:
    if files_from == "-":
        yield from read_path_list(sys.stdin)
        return
    with open(Path(files_from), encoding="utf-8", errors="surrogateescape") as listing:
        yield from read_path_list(listing)


class ProgressLike(Protocol):
    def advance(self, weight: int, boards: int, source: Input | None = None) -> None: ...

    def stop(self) -> None: ...


def open_progress(options: BatchOptions) -> ProgressLike | None:
    """The run's progress bar on stderr (``--progress``; by default only on a terminal, and
    never with ``--quiet``), or None."""
    wanted = options.progress
    if wanted is None:
        wanted = sys.stderr.isatty()
    if not wanted or options.quiet:
        return None
    from pbntool.run.progress import ProgressBar

    return ProgressBar(input_total(options))


def input_total(options: BatchOptions) -> int | None:
    """Bytes on disk of every input the run will read, by ``stat`` alone (archives at their
    compressed size), for the bar's total and time left; None when stdin is one of them."""
    paths = list(options.paths)
    if options.files_from == "-":
        return None
    if options.files_from is not None:
        try:
            paths.extend(listed_paths(options.files_from))
        except OSError:
            return None
    return input_bytes(paths, options.selection) or None
