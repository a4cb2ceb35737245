"""``pbntool dd``: double-dummy tables and par; ``--check`` and ``--fill`` the tags that carry
them; ``--contract`` for one contract's tricks.  Needs the extra ``pbntool[dd]``.

The table, ``--check`` and ``--contract`` run on the batch engine (``pbntool.run``), as
``validate`` does: its inputs, progress bar, findings, summary and exit codes; the deals of
each unit are solved in DDS's batch calls on ``-j`` DDS threads (``_spread`` says why
threads, not worker processes).  ``--fill`` rewrites files: it runs input by input, each
read whole, edited by the one minimal-edit engine and written through the one write path.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
from pathlib import Path
from typing import Annotated

import typer

from pbntool.cli.common import (
    EXIT_UNREADABLE,
    OutputFormat,
    app,
    batch_command_restating,
    pipe_safe,
    plural,
    print_diagnostic,
)
from pbntool.cli.manual import command
from pbntool.diagnostics import ARC007, DDA008, SRC003, Diagnostic, Severity
from pbntool.formats import SNIFF_BYTES, Format, detect_format
from pbntool.model import Contract, Seat
from pbntool.records import Record
from pbntool.run.batch import Batch, BatchOptions, ProgressLike, UsageError, open_progress
from pbntool.run.report import Tally
from pbntool.run.tasks import DDCounts, DDTask
from pbntool.text.edit import (
    InputFiles,
    atomic_write,
    locked_in_place,
    plain_file_problem,
    write_whole,
)
from pbntool.text.inputs import Input
from pbntool.tools.dd import PbnFiller, SolverUnavailable, load_solver
from pbntool.tools.select.kinds import Kind, parse_literal

__all__ = ["dd"]

UNIT_CHARS = 16 << 10
"""Text per unit of work: a few dozen boards, about one DDS batch call (``TABLES_PER_CALL``
deals), so that the progress bar moves every few seconds (units of a megabyte, as for
``validate``, would hold minutes of solving); smaller inputs are gathered up to that size,
so that a folder of one-board files fills DDS's batch calls too."""

DDJobs = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        help="Solve on N cores: DDS's batch calls (40 deals each) spread over N threads of "
        "its own, in this process (0: one per core). With --engine dask: N workers, one DDS "
        "thread each. The output is the same for any N.",
    ),
]


@command(app)
@pipe_safe
@batch_command_restating(jobs=DDJobs)
def dd(
    inputs: BatchOptions,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="text or JSON lines.")
    ] = OutputFormat.text,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Verify DoubleDummyTricks, OptimumResultTable, OptimumScore and ParContract.",
        ),
    ] = False,
    fill: Annotated[
        bool, typer.Option("--fill", help="Write those tags into PBN files (minimal edits).")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="With --fill, rewrite boards already annotated.")
    ] = False,
    in_place: Annotated[
        bool, typer.Option("--in-place", help="With --fill, rewrite the files themselves.")
    ] = False,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="With --fill, write the one input's result here.",
            show_default="stdout",
        ),
    ] = None,
    contract: Annotated[
        str | None,
        typer.Option("--contract", help="Tricks and score of this contract, e.g. 4S or 3NTX."),
    ] = None,
    declarer: Annotated[
        str | None,
        typer.Option("--declarer", help="With --contract: N, E, S or W (default: all four)."),
    ] = None,
) -> None:
    """Double-dummy table (tricks for each declarer and strain) and par of every board.

    Each full deal is solved (the dd extra: pip install 'pbntool[dd]'): the tricks each
    seat takes in each strain and the par score and contracts, as text or JSON lines.
    --check compares them with the DoubleDummyTricks, OptimumResultTable, OptimumScore and
    ParContract tags the file states and prints each disagreement as validate prints a
    finding; --fill writes those tags into PBN files with minimal edits; --contract gives the
    tricks and score of one contract.  The boards are solved on every core (-j), in DDS's
    batch calls; the output is the same, in the same order, for any -j.

    Inputs: {inputs} (--fill edits PBN inputs only).

    Examples:
        pbntool dd fixtures/sample/event.pbn
            The double-dummy table and par of every board.
        pbntool dd --contract 3NT fixtures/sample/event.pbn
            The tricks 3NT takes for each declarer on each board, and its score.

    Exit 1: errors in the input (or findings at or above --fail-on), with --check a stated
    tag that differs, or --max-errors reached.
    """
    _check_options(inputs, check, fill, force, in_place, output, contract, declarer)
    try:
        load_solver()
    except SolverUnavailable as error:
        typer.echo(f"pbntool dd: {error}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    if fill:
        raise typer.Exit(_fill(inputs, force, in_place, output))
    wanted = None if contract is None else _parse_contract(contract)
    seats = (Seat.from_letter(declarer.strip()),) if declarer else tuple(Seat)
    raise typer.Exit(_solve(inputs, output_format, check, wanted, seats))


def _usage(message: str) -> None:
    typer.echo(f"pbntool dd: {message}", err=True)
    raise typer.Exit(EXIT_UNREADABLE)


def _check_options(
    inputs: BatchOptions,
    check: bool,
    fill: bool,
    force: bool,
    in_place: bool,
    output: str | None,
    contract: str | None,
    declarer: str | None,
) -> None:
    if sum((check, fill, contract is not None)) > 1:
        _usage("--check, --fill and --contract do not go together")
    if not fill and (force or in_place or output):
        _usage("--force, --in-place and --output go with --fill")
    if in_place and output:
        _usage("--in-place or --output, not both")
    if in_place and "-" in inputs.paths:
        _usage("--in-place cannot rewrite stdin")
    if fill:
        _check_fill_options(inputs)
    if declarer is not None:
        if contract is None:
            _usage("--declarer goes with --contract")
        if declarer.strip().upper() not in ("N", "E", "S", "W"):
            _usage(f"--declarer {declarer!r}: expected N, E, S or W")
    if contract is not None:
        _parse_contract(contract)


def _check_fill_options(inputs: BatchOptions) -> None:
    """What ``--fill`` (which edits each file in this process, from its start) cannot do."""
    if inputs.engine != "local":
        _usage("--fill runs in this process: --engine dask goes with the table and --check")
    if inputs.max_errors is not None:
        _usage("--max-errors does not go with --fill (each input is written whole)")
    if inputs.dialect is not None:
        _usage("--dialect does not go with --fill (it edits the file as written)")


def _parse_contract(text: str) -> Contract:
    try:
        parsed = parse_literal(Kind.CONTRACT, text)
    except ValueError as error:
        _usage(f"--contract: {error}")
    assert isinstance(parsed, Contract)
    if not parsed.level:
        _usage("--contract needs a bid contract, such as 4S")
    return parsed


# --- the table and par, --check, --contract: on the batch engine --------------------------------


def _solve(
    inputs: BatchOptions,
    output_format: OutputFormat,
    check: bool,
    contract: Contract | None,
    seats: tuple[Seat, ...],
) -> int:
    """Each board's table and par, what its tags get wrong (``check``), or one contract's
    tricks (``contract``), in input order; the exit code."""
    options, threads = _spread(inputs)
    task = DDTask(output_format, check, contract, seats, threads, inputs.quiet)
    batch = Batch(options, task, unit_chars=UNIT_CHARS)
    solved = checked = 0
    out = sys.stdout
    for _source, chunk in batch:
        if chunk.out:
            write_whole(out, chunk.out)
        if chunk.err:
            sys.stderr.write(chunk.err)
        if isinstance(chunk.payload, DDCounts):
            solved += chunk.payload.solved
            checked += chunk.payload.checked
    out.flush()
    note = ""
    if contract is None:
        note = f"; {plural(solved, 'board')} solved"
        if check:
            note += f", {plural(checked, 'board')} with double-dummy tags checked"
    return batch.finish(note=note)


def _spread(inputs: BatchOptions) -> tuple[BatchOptions, int]:
    """Where ``-j`` goes: the options the batch runs with, and the DDS threads of the
    process that solves.  On this machine one process solves, DDS spreading each batch
    call over ``-j`` threads of its own: as fast as ``-j`` worker processes of one thread
    each (docs/dd.md), and a small input still uses every core.  On Dask the workers are
    the parallelism, one DDS thread each."""
    if inputs.engine != "local":
        return inputs, 1
    return dataclasses.replace(inputs, jobs=1), inputs.job_count


# --- --fill: in this process, input by input ----------------------------------------------------


def _fill(inputs: BatchOptions, force: bool, in_place: bool, output: str | None) -> int:
    """Write the tags into each PBN input: to stdout, ``--output`` or the file itself; the
    exit code."""
    report = Tally(fail_on=inputs.fail_on)
    sources = inputs.sources()
    if output is not None:
        listed = list(sources)
        if len(listed) != 1:
            raise UsageError("--output takes one input; use --in-place for several")
        sources = iter(listed)
    threads = inputs.job_count  # DDS's batch calls spread over its own threads
    files = inputs.input_files()
    filled = skipped = 0
    progress = open_progress(inputs)
    try:
        for source in sources:
            report.inputs += 1
            refusal = plain_file_problem(source.path, source.name) if in_place else None
            if source.problem is None and refusal is not None:
                found = ARC007.at(target=source.name, reason=refusal)
                problem = Diagnostic(found.code, found.severity, found.message, source.name)
                _count_input_problem(report, source.name, problem, inputs.quiet)
                continue
            lock = (
                locked_in_place(source.path, source.name)
                if in_place and source.path is not None
                else contextlib.nullcontext()
            )
            with lock:
                filler = _Filler(source, threads, force, report, inputs.quiet, progress)
                data = filler.run(inputs.form)
                if data is not None:
                    _write(source.path, filler.original, data, in_place, output, files)
            filled, skipped = filled + filler.filled, skipped + filler.skipped
    finally:
        if progress is not None:
            progress.stop()
    note = f"; {plural(filled, 'board')} filled, {skipped} already annotated (kept)"
    return report.finish(sys.stderr, quiet=inputs.quiet, as_json=inputs.summary_json, note=note)


@dataclasses.dataclass
class _Filler:
    """``--fill`` of one input: its records counted (and shown) as they are solved."""

    source: Input
    threads: int
    force: bool
    report: Tally
    quiet: bool
    progress: ProgressLike | None
    original: bytes = b""
    filled: int = 0
    skipped: int = 0

    def run(self, form: Format | None) -> bytes | None:
        """The input with the tags written (itself when it is not PBN), or None when it
        could not be read."""
        source = self.source
        problem = source.problem
        if problem is None:
            try:
                self.original = _read_source(source)
            except OSError as error:
                problem = _input_problem(source.name, error.strerror or str(error))
        if problem is None:
            problem = source.failure()  # an archive member cut short: not written back
        if problem is not None:
            _count_input_problem(self.report, source.name, problem, self.quiet)
            return None
        data = self.original
        form = form or detect_format(data[:SNIFF_BYTES], source.name)
        if form is not Format.PBN:
            _not_pbn(source.name, form, self.report, self.quiet)
        else:
            data = self._filled()
        if self.progress is not None:
            self.progress.advance(len(self.original), 0, source)
        return data

    def _filled(self) -> bytes:
        filler = PbnFiller(self.original, self.source.name, force=self.force, workers=self.threads)
        for record, found in filler.records():
            self.report.count(record, [*record.diagnostics, *found])
            _emit(record, found, self.quiet)
            if self.progress is not None and record.board is not None:
                self.progress.advance(0, 1, self.source)
        self.filled, self.skipped = filler.filled, filler.skipped
        return filler.data


def _emit(record: Record, ours: list[Diagnostic], quiet: bool) -> None:
    """On stderr: the reader's errors (its warnings are ``validate``'s business) and ours."""
    if quiet:
        return
    for diagnostic in record.diagnostics:
        if diagnostic.severity >= Severity.ERROR:
            print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
    for diagnostic in ours:
        print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)


def _count_input_problem(report: Tally, name: str, problem: Diagnostic, quiet: bool) -> None:
    """A finding about a whole input (it was not read, or not written)."""
    report.count(Record(None, (problem,), name, 0), [problem])
    _emit(Record(None, (), name, 0), [problem], quiet)


def _input_problem(name: str, reason: str) -> Diagnostic:
    found = SRC003.at(reason=reason)
    return Diagnostic(found.code, found.severity, found.message, name)


def _not_pbn(name: str, form: Format | None, report: Tally, quiet: bool) -> None:
    note = DDA008.at(form=form.value.upper() if form is not None else "unrecognised")
    placed = Diagnostic(note.code, note.severity, note.message, name, 1, 1)
    report.count(Record(None, (placed,), name, 1), [placed])
    _emit(Record(None, (), name, 1), [placed], quiet)


def _write(
    path: Path | None,
    original: bytes,
    data: bytes,
    in_place: bool,
    output: str | None,
    files: InputFiles,
) -> None:
    """The filled bytes to the file itself (only when changed), ``--output`` or stdout, all
    through the one write path (``pbntool.text.edit``)."""
    if in_place:
        assert path is not None
        if data != original:
            with atomic_write(path, binary=True) as stream:
                stream.write(data)
        return
    if output is not None and output != "-":
        with atomic_write(output, binary=True, inputs=files) as stream:
            stream.write(data)
        return
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _read_source(source: Input) -> bytes:
    """The bytes of an input: a file, or stdin (already sniffed: ``source.open`` replays it)."""
    if source.path is not None:
        return source.path.read_bytes()
    with source.open() as stream:
        return stream.read()
