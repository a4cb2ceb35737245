"""What a command does with each record, as picklable tasks that render in worker processes.

A task turns the records of one unit of work into ``Chunk``s: the text for stdout and for
stderr, the boards and the findings to count, and (for writers that split their output) where
each board's text ends.  Records with nothing to report are merged into one chunk, so a clean
slice of a thousand boards travels back as one string.  A chunk never spans two records that
have findings: ``--max-errors`` stops after the record whose error reached the limit.

A new command that runs over inputs defines a task: a frozen dataclass with a ``renderer()``
that returns a function from a ``Record`` to an ``Entry`` (and, for writers, an object with
``entry(record)``).  A task whose work is cheaper done for many records at once (``dd`` hands
DDS up to 40 deals a call) also defines ``entries(records)``, which renders a unit's records
as one stream (``GroupedTask``).  See ``docs/scaling.md``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple, Protocol, runtime_checkable

from pbntool.diagnostics import Diagnostic, Severity, is_unreadable
from pbntool.formats import Format
from pbntool.records import Record, validate_record

if TYPE_CHECKING:
    from pbntool.model import Contract, Seat
    from pbntool.tools.dd.jobs import Outcome
    from pbntool.tools.select.selection import Selection

__all__ = [
    "Chunk",
    "ConvertTask",
    "DDCounts",
    "DDTask",
    "DialectTask",
    "Entry",
    "Finding",
    "GroupedTask",
    "OutputFormat",
    "ScoreTask",
    "SelectTask",
    "Task",
    "ValidateTask",
    "chunks_of",
    "is_unreadable",
    "render_chunks",
    "select_codes",
    "task_entries",
]

Finding = tuple[str, int, bool]
"""A counted diagnostic: (code, severity, whether it means an input was not read)."""


def finding(diagnostic: Diagnostic) -> Finding:
    return (diagnostic.code, int(diagnostic.severity), is_unreadable(diagnostic))


class OutputFormat(StrEnum):
    """How findings and scores are printed."""

    text = "text"
    json = "json"


def format_diagnostic(diagnostic: Diagnostic, form: OutputFormat) -> str:
    """One line (with its line end)."""
    return (diagnostic.to_json() if form is OutputFormat.json else str(diagnostic)) + "\n"


class Entry(NamedTuple):
    """What one record renders to."""

    out: str
    err: str
    board: bool
    findings: tuple[Finding, ...] = ()
    payload: object = None
    """Anything else the main process needs about the record (picklable), e.g. for
    commands that gather (stats) or remember (dedupe) across records."""
    aside: str = ""
    """Text for a second output (``select --rejects``)."""


class Spooled(NamedTuple):
    """Where a chunk's text is when a worker spooled it (``pbntool.run.spool``): ``size``
    bytes of UTF-8 at ``offset`` of ``path``; ``last``: no later chunk is in that file."""

    path: str
    offset: int
    size: int
    last: bool


class Chunk(NamedTuple):
    """Consecutive records' rendered output (one record when it has an error or a payload)."""

    out: str
    err: str
    records: int
    boards: int
    findings: tuple[Finding, ...]
    marks: tuple[int, ...] | None
    """End offset in ``out`` of each board's text (writers that split their output)."""
    payload: object = None
    aside: str = ""
    spool: Spooled | None = None
    """Set when ``out`` is empty because its text is in a spool file (only for a consumer
    that asked for spooling: ``Batch(..., spool=True)``)."""


class Renderer(Protocol):
    def __call__(self, record: Record) -> Entry: ...


class Task(Protocol):
    """A command's per-record work; must pickle (it is sent to worker processes)."""

    @property
    def marks(self) -> bool:
        """Whether chunks must say where each board's output ends."""

    def renderer(self) -> Renderer:
        """A renderer for one unit of work (it may hold per-unit state, e.g. a writer)."""


@runtime_checkable
class GroupedTask(Task, Protocol):
    """A task that renders a unit's records as one stream: each record's entry, in order,
    with at most a bounded run of records held (``dd`` solves them in DDS's batch calls)."""

    def entries(self, records: Iterable[Record]) -> Iterator[Entry]: ...


def task_entries(task: Task, records: Iterable[Record]) -> Iterator[Entry]:
    """Each record's entry, in order: through the task's ``entries`` when it has them, else
    its renderer, record by record."""
    if isinstance(task, GroupedTask):
        return task.entries(records)
    return map(task.renderer(), records)


@dataclass(frozen=True, slots=True)
class DialectTask:
    """``inner``'s work on records read in a dialect (``--dialect``); the batch reads each
    input as one unit then, so that a reading sees the whole input in order."""

    inner: Task
    dialect: str

    @property
    def marks(self) -> bool:
        return self.inner.marks

    def renderer(self) -> Renderer:
        from pbntool.formats.pbn.dialects import reading

        render, read = self.inner.renderer(), reading(self.dialect)
        return lambda record: render(read(record))

    def entries(self, records: Iterable[Record]) -> Iterator[Entry]:
        from pbntool.formats.pbn.dialects import reading

        return task_entries(self.inner, map(reading(self.dialect), records))


def render_chunks(task: Task, records: Iterable[Record]) -> list[Chunk]:
    """Render records, merging the runs of records that have no findings."""
    return chunks_of(task_entries(task, records), task.marks)


def chunks_of(entries: Iterable[Entry], want_marks: bool) -> list[Chunk]:
    """Records' entries as chunks: runs of records merged, except that a record with an
    error or a payload is a chunk of its own (``--max-errors`` stops after the chunk that
    reaches it, and a payload is the consumer's business record by record).  Records with
    warnings merge: on a folder of real files one chunk per record with findings was 16,000
    chunks, each pickled, counted and written on its own."""
    chunks: list[Chunk] = []
    out: list[str] = []
    err: list[str] = []
    marks: list[int] = []
    aside: list[str] = []
    found: list[Finding] = []
    run_records = run_boards = length = 0
    for entry in entries:
        if entry.payload is not None or _has_error(entry.findings):
            if run_records:
                run = _run(out, err, aside, found, run_records, run_boards, marks, want_marks)
                chunks.append(run)
                out, err, aside, marks, found = [], [], [], [], []
                run_records = run_boards = length = 0
            mark = (len(entry.out),) if want_marks and entry.board else ()
            chunks.append(
                Chunk(
                    entry.out,
                    entry.err,
                    1,
                    int(entry.board),
                    entry.findings,
                    mark if want_marks else None,
                    entry.payload,
                    entry.aside,
                )
            )
            continue
        run_records += 1
        if entry.findings:
            found.extend(entry.findings)
        if entry.out:
            out.append(entry.out)
            length += len(entry.out)
        if entry.err:
            err.append(entry.err)
        if entry.aside:
            aside.append(entry.aside)
        if entry.board:
            run_boards += 1
            if want_marks:
                marks.append(length)
    if run_records:
        chunks.append(_run(out, err, aside, found, run_records, run_boards, marks, want_marks))
    return chunks


def _has_error(findings: tuple[Finding, ...]) -> bool:
    return any(severity >= Severity.ERROR for _, severity, _ in findings)


def _run(
    out: list[str],
    err: list[str],
    aside: list[str],
    found: list[Finding],
    records: int,
    boards: int,
    marks: list[int],
    want: bool,
) -> Chunk:
    chosen = tuple(marks) if want else None
    return Chunk(
        "".join(out), "".join(err), records, boards, tuple(found), chosen, aside="".join(aside)
    )


def select_codes(
    diagnostics: Iterable[Diagnostic], select: frozenset[str], ignore: frozenset[str]
) -> list[Diagnostic]:
    """Filter by code or code prefix (``--select AUC``, ``--ignore BRD003``)."""
    chosen = []
    for diagnostic in diagnostics:
        if select and not any(diagnostic.code.startswith(prefix) for prefix in select):
            continue
        if any(diagnostic.code.startswith(prefix) for prefix in ignore):
            continue
        chosen.append(diagnostic)
    return chosen


@dataclass(frozen=True, slots=True)
class ValidateTask:
    """``validate``: every finding (reader and Laws), filtered, printed to stdout."""

    form: OutputFormat = OutputFormat.text
    select: frozenset[str] = frozenset()
    ignore: frozenset[str] = frozenset()
    marks = False

    def renderer(self) -> Renderer:
        form, select, ignore = self.form, self.select, self.ignore

        def render(record: Record) -> Entry:
            diagnostics = validate_record(record)
            if select or ignore:
                diagnostics = tuple(select_codes(diagnostics, select, ignore))
            board = record.board is not None
            if not diagnostics:
                return Entry("", "", board)
            out = "".join(format_diagnostic(d, form) for d in diagnostics)
            return Entry(out, "", board, tuple(finding(d) for d in diagnostics))

        return render


@dataclass(frozen=True, slots=True)
class ScoreTask:
    """``score``: one line per board (text or JSON); errors to stderr."""

    form: OutputFormat = OutputFormat.text
    quiet: bool = False
    marks = False

    def renderer(self) -> Renderer:
        from pbntool.tools.score.listing import score_record

        form, quiet = self.form, self.quiet

        def render(record: Record) -> Entry:
            found = tuple(finding(d) for d in record.diagnostics)
            err = ""
            if not quiet:
                err = "".join(
                    format_diagnostic(d, OutputFormat.text)
                    for d in record.diagnostics
                    if d.severity >= Severity.ERROR
                )
            line = score_record(record)
            out = ""
            if line is not None:
                text = json.dumps(line.to_dict()) if form is OutputFormat.json else line.text()
                out = text + "\n"
            return Entry(out, err, record.board is not None, found)

        return render


@dataclass(frozen=True, slots=True)
class ConvertTask:
    """``convert``: each board in the target format (the output continues one document: the
    writer's header and footer are written by the main process), losses to stderr."""

    to: Format
    check: bool = False
    quiet: bool = False
    marks: bool = False
    options: object | None = None
    """The writer's own options (``render``'s ``RenderOptions``); they must pickle."""
    notes: bool = False
    """Give the writer each board's findings (a hand record notes a board's errors on it)."""
    shown: Severity = Severity.WARNING
    """The least severity printed on stderr."""

    def renderer(self) -> Renderer:
        from pbntool.formats.writing import open_fragment_writer

        buffer = io.StringIO()
        writer = open_fragment_writer(self.to, buffer, self.options)
        check, quiet, notes, shown = self.check, self.quiet, self.notes, self.shown

        def render(record: Record) -> Entry:
            found = list(validate_record(record) if check else record.diagnostics)
            out = ""
            if record.board is not None:
                if notes:
                    losses = writer.write(record.board, record.file, found)  # type: ignore[call-arg]
                else:
                    losses = writer.write(record.board, record.file)
                found.extend(record.locate(loss) for loss in losses)
                out = _take(buffer)
            err = ""
            if not quiet:
                err = "".join(
                    format_diagnostic(d, OutputFormat.text) for d in found if d.severity >= shown
                )
            return Entry(out, err, record.board is not None, tuple(finding(d) for d in found))

        return render


def _take(buffer: io.StringIO) -> str:
    text = buffer.getvalue()
    buffer.seek(0)
    buffer.truncate()
    return text


@dataclass(frozen=True, slots=True)
class StatsTask:
    """``stats``: each record summarised in the worker (the summaries are merged in the
    main process, in input order); a bug in summarising costs that board (INT001)."""

    quiet: bool = False
    marks = False

    def renderer(self) -> Renderer:
        from pbntool.run.guard import guarded
        from pbntool.tools.stats import summarise_record

        quiet = self.quiet

        def render(record: Record) -> Entry:
            diagnostics = validate_record(record)
            summary, failure = guarded(record, summarise_record, record, diagnostics)
            found = (*diagnostics, failure) if failure is not None else diagnostics
            err = format_diagnostic(failure, OutputFormat.text) if failure and not quiet else ""
            return Entry("", err, record.board is not None, tuple(map(finding, found)), summary)

        return render


@dataclass(frozen=True, slots=True)
class SelectTask:
    """``select``: each board the selection keeps, in the target format; with ``rejects``
    each board it does not keep goes aside (the second output).  The reader's errors and what
    the format cannot carry go to stderr; a bug in a query costs that board (INT001)."""

    selection: Selection
    to: Format
    rejects: bool = False
    quiet: bool = False
    marks: bool = False
    """Set for ``--limit``: the main process cuts the output after the limit-th board."""

    def renderer(self) -> Renderer:
        from pbntool.formats.writing import open_fragment_writer
        from pbntool.run.guard import guarded

        kept = io.StringIO()
        writer = open_fragment_writer(self.to, kept)
        left = io.StringIO()
        reject_writer = open_fragment_writer(self.to, left) if self.rejects else None
        selection, quiet = self.selection, self.quiet

        def render(record: Record) -> Entry:
            accepted, failure = guarded(record, selection.accepts, record)
            problems: list[Diagnostic] = [] if failure is None else [failure]
            out = aside = ""
            if failure is None and record.board is not None:
                if accepted:
                    problems += writer.write(record.board, record.file)
                    out = _take(kept)
                elif reject_writer is not None:
                    problems += reject_writer.write(record.board, record.file)
                    aside = _take(left)
            placed = [p if p.file else record.locate(p) for p in problems]
            err = ""
            if not quiet:
                shown = [d for d in record.diagnostics if d.severity >= Severity.ERROR]
                err = "".join(format_diagnostic(d, OutputFormat.text) for d in shown + placed)
            found = tuple(finding(d) for d in (*record.diagnostics, *placed))
            return Entry(out, err, record.board is not None, found, None, aside)

        return render


class DDCounts(NamedTuple):
    """What ``dd`` counts beyond the tally, per record: boards solved, boards whose
    double-dummy tags were checked (the summary's ``N boards solved, M ... checked``)."""

    solved: int
    checked: int


@dataclass(frozen=True, slots=True)
class DDTask:
    """``dd``: each board's double-dummy table and par (text or JSON lines), what its tags
    get wrong (``check``: the findings are the output), or the tricks of ``contract`` for
    ``declarers``.  The deals of a unit are solved together, in DDS's batch calls on
    ``threads`` threads of its own.  The reader's errors go to stderr, and (but with
    ``check``) the boards that could not be analysed."""

    form: OutputFormat = OutputFormat.text
    check: bool = False
    contract: Contract | None = None
    declarers: tuple[Seat, ...] = ()
    threads: int = 1
    quiet: bool = False
    marks = False

    def renderer(self) -> Renderer:
        """One record at a time (a batch of one deal): for a caller that has no unit."""
        return lambda record: next(self.entries([record]))

    def entries(self, records: Iterable[Record]) -> Iterator[Entry]:
        from pbntool.tools.dd import contract_jobs, solve_in_order, table_jobs

        if self.contract is None:
            for record, outcome in solve_in_order(table_jobs(records), self.threads):
                yield self._analysis_entry(record, outcome)
            return
        assert self.contract.strain is not None
        jobs = contract_jobs(records, self.contract.strain, self.declarers)
        for record, outcome in solve_in_order(jobs, self.threads):
            yield self._contract_entry(record, outcome)

    def _analysis_entry(self, record: Record, outcome: Outcome) -> Entry:
        from pbntool.run.guard import guarded
        from pbntool.tools.dd import analysis_of, check_record
        from pbntool.tools.dd.check import stated_tags
        from pbntool.tools.dd.report import analysis_dict, analysis_text

        analysis, ours = analysis_of(record, outcome)
        out, counts = "", None
        if analysis is not None:
            checked = 0
            if self.check:
                checked = int(record.board is not None and bool(stated_tags(record.board)))
                found, failure = guarded(record, check_record, record, analysis)
                ours += [*(found or []), *([failure] if failure is not None else [])]
            elif self.form is OutputFormat.json:
                out = json.dumps(analysis_dict(record, analysis)) + "\n"
            else:
                out = analysis_text(record, analysis)
            counts = DDCounts(1, checked)
        if self.check:  # the findings are the output, as validate's
            out = "".join(format_diagnostic(d, self.form) for d in ours)
        return self._entry(record, out, ours, counts, ours_shown=not self.check)

    def _contract_entry(self, record: Record, outcome: Outcome) -> Entry:
        from pbntool.tools.dd import analysis_of, par_conditions
        from pbntool.tools.dd.report import contract_dict, contract_text

        contract = self.contract
        assert contract is not None
        if not isinstance(outcome, tuple):
            return self._entry(record, "", analysis_of(record, outcome)[1], None)
        vulnerability = par_conditions(record.board)[0] if record.board is not None else None
        lines = []
        for seat, tricks in zip(self.declarers, outcome, strict=True):
            if self.form is OutputFormat.json:
                line = contract_dict(record, contract, seat, tricks, vulnerability)
                lines.append(json.dumps(line) + "\n")
            else:
                lines.append(contract_text(record, contract, seat, tricks, vulnerability))
        return self._entry(record, "".join(lines), [], None)

    def _entry(
        self,
        record: Record,
        out: str,
        ours: list[Diagnostic],
        counts: DDCounts | None,
        ours_shown: bool = True,
    ) -> Entry:
        """Every finding is counted; on stderr (unless quiet) the reader's errors (its
        warnings are ``validate``'s business) and, when they are not the output, ours."""
        err = ""
        if not self.quiet:
            shown = [d for d in record.diagnostics if d.severity >= Severity.ERROR]
            shown += ours if ours_shown else []
            err = "".join(format_diagnostic(d, OutputFormat.text) for d in shown)
        found = tuple(finding(d) for d in (*record.diagnostics, *ours))
        return Entry(out, err, record.board is not None, found, counts)
