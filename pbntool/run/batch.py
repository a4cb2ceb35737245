"""Running a command over many inputs: planning, the engine, counting, the summary, exit codes.

``Batch(options, task)`` is iterated by a command: it yields ``(input, chunk)`` in input order
— the rendered output of consecutive records — while it counts what it yields.  It stops early
at ``max_errors``.  Then ``finish`` prints the summary (text or JSON, on stderr) and returns
the exit code:

- 0: nothing at or above ``fail_on``;
- 1: findings at or above ``fail_on`` (default: errors), or ``max_errors`` reached;
- 2: usage errors (raised before any work), or an input (or part of one) that could not be
  read — missing, unreadable, a corrupt archive, a bomb — or an output not written;
- 141 when stdout is closed early (``| head``), 130 on Ctrl-C (see ``pbntool.cli``).
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TextIO

from pbntool.diagnostics import Diagnostic, Severity
from pbntool.formats import Format
from pbntool.run.engine import available_cores, open_engine, run_ordered
from pbntool.run.report import EXIT_FINDINGS, EXIT_OK, EXIT_UNREADABLE
from pbntool.run.tasks import OUTPUT_CODES, Chunk, Task, finding
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

    @property
    def job_count(self) -> int:
        """Workers to start: ``-j``, at most one per core (more only cost memory) unless they
        run on a Dask cluster elsewhere."""
        if self.scheduler is not None and self.jobs:
            return self.jobs
        return min(self.jobs, available_cores()) if self.jobs else available_cores()


@dataclass
class Tally:
    """What was read and found, as the output was written."""

    inputs: int = 0
    records: int = 0
    boards: int = 0
    by_severity: Counter[int] = field(default_factory=Counter)
    by_code: Counter[tuple[str, int]] = field(default_factory=Counter)
    unreadable: int = 0
    unwritten: int = 0
    """Outputs refused (ARC007)."""
    stopped: bool = False
    started: float = field(default_factory=time.perf_counter)

    def add(self, chunk: Chunk) -> None:
        self.records += chunk.records
        self.boards += chunk.boards
        for code, severity, unread in chunk.findings:
            self.by_severity[severity] += 1
            self.by_code[code, severity] += 1
            if unread and code in OUTPUT_CODES:
                self.unwritten += 1
            elif unread:
                self.unreadable += 1

    def count(self, severity: Severity) -> int:
        return self.by_severity[int(severity)]

    def exit_code(self, fail_on: Severity) -> int:
        if self.unreadable or self.unwritten:
            return EXIT_UNREADABLE
        failing = sum(n for severity, n in self.by_severity.items() if severity >= fail_on)
        return EXIT_FINDINGS if failing or self.stopped else EXIT_OK

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started

    def summary_lines(self) -> list[str]:
        counts = ", ".join(
            _plural(self.count(severity), severity.label)
            for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO)
        )
        unreadable = f", {self.unreadable} unreadable" if self.unreadable else ""
        if self.unwritten:
            unreadable += f", {self.unwritten} not written"
        lines = [
            f"pbntool: {_plural(self.inputs, 'input')}, {_plural(self.boards, 'board')}: "
            f"{counts}{unreadable} in {self.seconds:.2f} s"
        ]
        parts = []
        for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO):
            codes = sorted((c, n) for (c, s), n in self.by_code.items() if s == severity)
            if codes:
                listed = ", ".join(f"{code} {count}" for code, count in codes)
                parts.append(f"{severity.label}s by code: {listed}")
        if parts:
            lines.append("pbntool: " + "; ".join(parts).replace("infos", "info"))
        if self.stopped:
            lines.append(
                f"pbntool: stopped after {self.count(Severity.ERROR)} errors (--max-errors)"
            )
        return lines

    def summary_json(self, fail_on: Severity) -> str:
        by_code: dict[str, dict[str, int]] = {}
        for (code, severity), count in sorted(self.by_code.items()):
            by_code.setdefault(Severity(severity).label, {})[code] = count
        return json.dumps(
            {
                "inputs": self.inputs,
                "records": self.records,
                "boards": self.boards,
                "errors": self.count(Severity.ERROR),
                "warnings": self.count(Severity.WARNING),
                "info": self.count(Severity.INFO),
                "unreadable": self.unreadable,
                "not_written": self.unwritten,
                "by_code": by_code,
                "stopped": self.stopped,
                "seconds": round(self.seconds, 3),
                "exit_code": self.exit_code(fail_on),
            }
        )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 or noun == "info" else "s")


class Batch:
    """Every input of ``options``, planned, run on the engine and yielded in order."""

    def __init__(self, options: BatchOptions, task: Task) -> None:
        options.check()
        self.options = options
        self.task = task
        self.tally = Tally()
        self._progress: _ProgressLike | None = None

    def __iter__(self) -> Iterator[tuple[Input, Chunk]]:
        options = self.options
        engine = open_engine(options.engine, options.job_count, options.scheduler)
        local = options.engine == "local"
        self._progress = _open_progress(options)
        try:
            for plan, result in run_ordered(self._plans(local), self.task, engine):
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
        return limit is not None and self.tally.count(Severity.ERROR) >= limit

    def _plans(self, local: bool) -> Iterator[Planned]:
        for source in self._inputs():
            self.tally.inputs += 1
            for plan in plan_input(source, self.options.form, local):
                plan.source = source
                yield plan

    def _inputs(self) -> Iterator[Input]:
        options = self.options
        yield from iter_inputs(options.paths, options.selection)
        if options.files_from is not None:
            yield from iter_inputs(listed_paths(options.files_from), options.selection)

    def finish(self, stream: TextIO | None = None) -> int:
        """Print the summary (unless quiet) and return the exit code."""
        out = sys.stderr if stream is None else stream
        options = self.options
        if options.summary_json:
            out.write(self.tally.summary_json(options.fail_on) + "\n")
        elif not options.quiet:
            out.write("\n".join(self.tally.summary_lines()) + "\n")
        out.flush()
        return self.tally.exit_code(options.fail_on)


def listed_paths(files_from: str) -> Iterator[str]:
    if files_from == "-":
        yield from read_path_list(sys.stdin)
        return
    with open(Path(files_from), encoding="utf-8", errors="surrogateescape") as listing:
        yield from read_path_list(listing)


class _ProgressLike(Protocol):
    def advance(self, weight: int, boards: int, source: Input | None = None) -> None: ...

    def stop(self) -> None: ...


def _open_progress(options: BatchOptions) -> _ProgressLike | None:
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
