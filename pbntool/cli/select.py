"""``pbntool select``: the boards for which a ``--where`` expression holds, in any format."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable
from contextlib import ExitStack
from typing import Annotated

import typer

from pbntool.cli.common import (
    EXIT_UNREADABLE,
    OutputFormat,
    ToOption,
    app,
    batch_command,
    iter_batch_records,
    open_output,
    open_text_output,
    pipe_safe,
    print_diagnostic,
)
from pbntool.cli.manual import command
from pbntool.diagnostics import INT001, Diagnostic, Severity
from pbntool.formats import Format, spec_of
from pbntool.formats.writing import BoardWriter, open_writer, writes_fragments
from pbntool.run.batch import Batch, BatchOptions
from pbntool.run.guard import guarded
from pbntool.run.outputs import StreamDestination
from pbntool.run.report import Tally
from pbntool.run.tasks import Chunk, SelectTask
from pbntool.tools.select import QueryError, compile_query, parse_board_ranges
from pbntool.tools.select.selection import Selection

__all__ = ["select"]


@command(app)
@pipe_safe
@batch_command
def select(
    inputs: BatchOptions,
    where: Annotated[
        str | None,
        typer.Option(
            "--where",
            "-w",
            help="Condition on each board, e.g. 'level >= 6 and strain == \"NT\"' "
            "(see docs/select.md).",
            show_default="every board",
        ),
    ] = None,
    boards: Annotated[
        str | None,
        typer.Option(
            "--boards", "-b", help="Board numbers: 1-8,12,20-.", show_default="every board"
        ),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit", "-n", min=0, help="Stop after this many boards.", show_default="no limit"
        ),
    ] = None,
    to: ToOption = Format.PBN,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", help="Write here instead of stdout.", show_default="stdout"),
    ] = None,
    rejects: Annotated[
        str | None,
        typer.Option(
            "--rejects",
            help="Write every board not selected to this file.",
            show_default="not written",
        ),
    ] = None,
) -> None:
    """Write the boards that match --where (and --boards), streaming, in any format.

    --where is a condition on each board's fields, such as 'level >= 6 and strain == "NT"'
    (docs/select.md lists the fields and operators); --boards takes board numbers.  The
    boards selected are written in the --to format to stdout or -o, in input order, in
    parallel with -j; --limit stops after N.  With --rejects, every board read goes to
    exactly one of the two outputs.

    Inputs: {inputs}.

    Examples:
        pbntool select --where 'level >= 4' fixtures/sample/event.pbn
            The boards played at the four level or higher, as PBN on stdout.
        pbntool select --boards 1-4 --to json -o first.jsonl fixtures/sample/event.pbn
            Boards 1 to 4 as JSON lines in first.jsonl.

    Exit 1: findings at or above --fail-on (errors by default), or --max-errors reached.
    """
    selection = _selection(where, boards)
    if writes_fragments(to) and not (limit is not None and rejects is not None):
        raise typer.Exit(_select_in_workers(inputs, selection, to, output, rejects, limit))
    # LIN's writer cannot render parts apart, and with --limit and --rejects the boards past
    # the limit go to the rejects in order: both need every record in this process.
    raise typer.Exit(_select_in_one_process(inputs, selection, to, output, rejects, limit))


def _select_in_workers(
    inputs: BatchOptions,
    selection: Selection,
    to: Format,
    output: str | None,
    rejects: str | None,
    limit: int | None,
) -> int:
    """Selection and writing in worker processes (``-j``); this process joins the parts."""
    task = SelectTask(selection, to, rejects=rejects is not None, quiet=inputs.quiet, marks=True)
    batch = Batch(inputs, task)
    chosen = rejected = 0
    with ExitStack() as stack:
        files = inputs.input_files()
        kept = StreamDestination(open_text_output(stack, output, files), to)
        left = None
        if rejects is not None:
            left = StreamDestination(open_text_output(stack, rejects, files), to)
        for source, chunk in batch:
            if limit is not None:
                chunk = _cut_at(chunk, limit - chosen)
            selected = len(_selected_ends(chunk))
            chosen += selected
            kept.write(source, chunk)
            if left is not None:
                failed = sum(
                    1 for code, _, unread in chunk.findings if code == INT001.id and not unread
                )
                rejected += chunk.boards - selected - failed
                left.write(source, chunk._replace(out=chunk.aside, marks=None))
            if chunk.err:
                sys.stderr.write(chunk.err)
            if limit is not None and chosen >= limit:
                break  # nothing more to write: stop reading (the engine is shut down)
        kept.close()
        if left is not None:
            left.close()
    return _finish(batch, inputs, chosen, rejected if rejects is not None else None)


def _select_in_one_process(
    inputs: BatchOptions,
    selection: Selection,
    to: Format,
    output: str | None,
    rejects: str | None,
    limit: int | None,
) -> int:
    """Every record read and written in this process, through one writer per output."""
    quiet = inputs.quiet
    report = Tally(inputs.fail_on)
    chosen = rejected = 0
    with ExitStack() as stack:
        files = inputs.input_files()
        binary = spec_of(to).binary  # DUP, BRI, DGE write bytes
        writer = open_writer(to, open_output(stack, output, files, binary=binary))
        reject_writer: BoardWriter | None = None
        if rejects is not None:
            reject_writer = open_writer(to, open_output(stack, rejects, files, binary=binary))
        for record in iter_batch_records(inputs, report):
            losses: list[Diagnostic] = []
            accepted, failure = guarded(record, selection.accepts, record)
            if failure is not None:
                losses.append(failure)  # a bug of ours: the board goes to neither output
            elif record.board is not None:
                if (limit is None or chosen < limit) and accepted:
                    losses = writer.write(record.board, record.file)
                    chosen += 1
                elif reject_writer is not None:
                    losses = reject_writer.write(record.board, record.file)
                    rejected += 1
            placed = [loss if loss.file else record.locate(loss) for loss in losses]
            report.count(record, [*record.diagnostics, *placed])
            if not quiet:
                _print_problems(record.diagnostics, placed)
            if limit is not None and chosen >= limit and reject_writer is None:
                break  # nothing more to write: stop reading
        writer.close()
        if reject_writer is not None:
            reject_writer.close()
    if not quiet:
        kept = f"{chosen} selected" + (f", {rejected} rejected" if rejects is not None else "")
        typer.echo(report.summary(f"; {kept}"), err=True)
    return report.exit_code()


def _selected_ends(chunk: Chunk) -> list[int]:
    """Where the text of each selected board of a chunk ends (the marks of the boards not
    selected add no text: a written board is never empty)."""
    ends: list[int] = []
    start = 0
    for mark in chunk.marks or ():
        if mark > start:
            ends.append(mark)
        start = mark
    return ends


def _cut_at(chunk: Chunk, room: int) -> Chunk:
    """The chunk's output up to its ``room``-th selected board (``--limit``)."""
    ends = _selected_ends(chunk)
    if len(ends) <= room:
        return chunk
    end = ends[room - 1] if room > 0 else 0
    marks = tuple(mark for mark in chunk.marks or () if mark <= end)
    return chunk._replace(out=chunk.out[:end], marks=marks)


def _finish(batch: Batch, inputs: BatchOptions, chosen: int, rejected: int | None) -> int:
    """The batch summary with how many boards went where, and the exit code."""
    summary = io.StringIO()
    code = batch.finish(summary)
    text = summary.getvalue().rstrip("\n")
    if text and not inputs.summary_json:
        kept = f"{chosen} selected" + ("" if rejected is None else f", {rejected} rejected")
        text = f"{text}; {kept}"
    if text:
        sys.stderr.write(text + "\n")
    return code


def _selection(where: str | None, boards: str | None) -> Selection:
    """The selection the options describe; a bad option ends the command with exit 2."""
    try:
        query = compile_query(where) if where is not None else None
    except QueryError as error:
        typer.echo(f"pbntool: bad --where expression at {error.render()}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    try:
        ranges = parse_board_ranges(boards) if boards is not None else None
    except ValueError as error:
        typer.echo(f"pbntool: bad --boards: {error}", err=True)
        raise typer.Exit(EXIT_UNREADABLE) from None
    return Selection(query, ranges)


def _print_problems(read: Iterable[Diagnostic], losses: list[Diagnostic]) -> None:
    """Errors in the input, and whatever the output format could not carry."""
    for diagnostic in read:
        if diagnostic.severity >= Severity.ERROR:
            print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
    for diagnostic in losses:
        print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
