"""``pbntool convert``: boards rewritten in another format, findings on stderr."""

from __future__ import annotations

import io
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer

from pbntool.cli.common import (
    ToOption,
    app,
    batch_command,
    iter_batch_records,
    iter_batch_sources,
    open_output,
    open_text_output,
    pipe_safe,
)
from pbntool.cli.manual import command
from pbntool.diagnostics import Diagnostic, Severity
from pbntool.formats import Format, spec_of
from pbntool.formats.writing import open_writer, writes_fragments
from pbntool.records import Record, validate_record
from pbntool.run.batch import Batch, BatchOptions, UsageError
from pbntool.run.outputs import (
    Destination,
    DirectoryDestination,
    FileDestination,
    StreamDestination,
    WholeFileDestination,
)
from pbntool.run.report import Tally
from pbntool.run.tasks import ConvertTask, OutputFormat, format_diagnostic
from pbntool.text.edit import InputFiles

__all__ = ["convert"]


@command(app)
@pipe_safe
@batch_command
def convert(
    inputs: BatchOptions,
    to: ToOption,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="Write here instead of stdout; an existing directory (or a path ending in /) "
            "gets one output per input.",
            show_default="stdout",
        ),
    ] = None,
    split: Annotated[
        int | None,
        typer.Option(
            "--split", help="At most N boards per output file (needs -o).", show_default="no limit"
        ),
    ] = None,
    check: Annotated[
        bool, typer.Option("--validate", help="Also run the Laws checks (to stderr).")
    ] = False,
) -> None:
    """Rewrite boards in another format: canonical PBN (export format), LIN, JSON lines, XML,
    or any other --to format (club formats, hand records).

    The formats of --to: canonical PBN (export format), LIN, JSON lines, XML, USEBIO, text
    hand diagrams, the club formats (DUP, DLM, BRI, DGE, RBN, RBX), CSV, HTML or PDF.
    Every board read is written in the --to format, in input order, to stdout or -o (a file,
    or a directory that gets one output per input; --split puts at most N boards in a
    file).  What the target format cannot carry is reported as a warning naming the board
    (OUT codes, docs/conversions.md); the input's errors go to stderr too.  PBN to JSON or
    XML and back gives the same bytes.

    Inputs: {inputs}.

    Examples:
        pbntool convert --to json -o event.jsonl fixtures/sample/event.pbn
            JSON lines, one board a line, for pandas.read_json(path, lines=True).
        pbntool convert --to lin fixtures/sample/event.pbn
            LIN for BBO's handviewer on stdout; the tags LIN has no place for are warnings.

    Exit 1: findings at or above --fail-on (errors by default; with --validate the Laws
    checks count too), or --max-errors reached.
    """
    if split is not None and (split < 1 or not output):
        raise UsageError("--split needs -o FILE or -o DIR and at least 1 board per file")
    try:
        open_writer(to, io.StringIO())
    except (ImportError, AttributeError):
        raise UsageError(f"this pbntool cannot write {to} yet") from None
    if not writes_fragments(to):
        # This format's writer cannot render parts of an output apart: one process, and one
        # writer per output file.
        if split is not None or (output and _is_directory(output)):
            assert output is not None
            raise typer.Exit(_convert_whole_files(inputs, to, output, split, check))
        raise typer.Exit(_convert_in_one_process(inputs, to, output, check))
    task = ConvertTask(to, check=check, quiet=inputs.quiet, marks=split is not None)
    raise typer.Exit(run_batch_conversion(inputs, task, output, split))


def run_batch_conversion(
    inputs: BatchOptions, task: ConvertTask, output: str | None, split: int | None
) -> int:
    """Every input through the batch engine (``-j`` workers render the boards, this process
    writes them where they go); the exit code."""
    batch = Batch(inputs, task)
    with ExitStack() as stack:
        where = destination(stack, output, task.to, split, inputs.input_files(), task.options)
        batch.spool = isinstance(where, StreamDestination) and where.takes_spooled()
        try:
            for source, chunk in batch:
                problems = where.write(source, chunk)
                if chunk.err:
                    sys.stderr.write(chunk.err)
                for problem in problems:
                    batch.count_problem(problem)
                    if not inputs.quiet:
                        sys.stderr.write(format_diagnostic(problem, OutputFormat.text))
            where.close()
        except BaseException:
            where.abort()
            raise
    return batch.finish()


def _is_directory(output: str) -> bool:
    return output.endswith(("/", "\\")) or Path(output).is_dir()


def destination(
    stack: ExitStack,
    output: str | None,
    to: Format,
    split: int | None,
    inputs: InputFiles,
    options: object | None = None,
) -> Destination:
    """Where a batch's rendered boards go: stdout, a file, files of ``--split`` parts, or one
    output per input under ``-o DIR/`` (``options``: the writer's own)."""
    if output is not None and _is_directory(output):
        return DirectoryDestination(Path(output), to, split, inputs, options)
    if output is not None and split is not None:
        return FileDestination(Path(output), to, split, inputs, options)
    return StreamDestination(open_text_output(stack, output, inputs), to, options)


def _convert_in_one_process(
    inputs: BatchOptions, to: Format, output: str | None, check: bool
) -> int:
    """Every record through one writer in this process (writers that are no FragmentWriter)."""
    report = Tally(inputs.fail_on)
    with ExitStack() as stack:
        stream = open_output(stack, output, inputs.input_files(), binary=spec_of(to).binary)
        writer = open_writer(to, stream)
        for record in iter_batch_records(inputs, report):
            found = list(validate_record(record) if check else record.diagnostics)
            if record.board is not None:
                found.extend(
                    record.locate(loss) for loss in writer.write(record.board, record.file)
                )
            _count(report, record, found, inputs.quiet)
        writer.close()
        stream.flush()
    if not inputs.quiet:
        typer.echo(report.summary(), err=True)
    return report.exit_code()


def _convert_whole_files(
    inputs: BatchOptions, to: Format, output: str, split: int | None, check: bool
) -> int:
    """``-o DIR`` or ``--split N`` for a writer that renders whole files (DUP, DLM, USEBIO,
    PDF …): this process, one writer per output file (``WholeFileDestination``)."""
    report = Tally(inputs.fail_on)
    directory = _is_directory(output)
    destination = WholeFileDestination(
        Path(output), to, split, inputs.input_files(), directory=directory
    )
    try:
        for source, record in iter_batch_sources(inputs, report):
            found = list(validate_record(record) if check else record.diagnostics)
            if record.board is not None:
                written = destination.write(source, record.board, record.file)
                found.extend(
                    loss if loss.code == "ARC007" else record.locate(loss) for loss in written
                )
            _count(report, record, found, inputs.quiet)
        destination.close()
    except BaseException:
        destination.abort()
        raise
    if not inputs.quiet:
        typer.echo(report.summary(), err=True)
    return report.exit_code()


def _count(report: Tally, record: Record, found: list[Diagnostic], quiet: bool) -> None:
    report.count(record, found)
    if not quiet:
        for diagnostic in found:
            if diagnostic.severity >= Severity.WARNING:
                sys.stderr.write(format_diagnostic(diagnostic, OutputFormat.text))
