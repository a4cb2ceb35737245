"""``pbntool select``: the boards for which a ``--where`` expression holds, in any format."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from contextlib import ExitStack
from typing import Annotated, TextIO

import typer

from pbntool.batch import BatchOptions
from pbntool.cli.common import (
    EXIT_UNREADABLE,
    OutputFormat,
    Report,
    app,
    batch_command,
    iter_batch_records,
    pipe_safe,
    print_diagnostic,
)
from pbntool.cli.guard import guarded
from pbntool.diagnostics import Diagnostic, Severity
from pbntool.formats import Format
from pbntool.query import QueryError, compile_query, parse_board_ranges
from pbntool.query.selection import Selection
from pbntool.writers import BoardWriter, open_writer

__all__ = ["select"]


@app.command()
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
        ),
    ] = None,
    boards: Annotated[
        str | None, typer.Option("--boards", "-b", help="Board numbers: 1-8,12,20-.")
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=0, help="Stop after this many boards.")
    ] = None,
    to: Annotated[
        Format, typer.Option("--to", case_sensitive=False, help="Output format.")
    ] = Format.PBN,
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write here instead of stdout.")
    ] = None,
    rejects: Annotated[
        str | None,
        typer.Option("--rejects", help="Write every board not selected to this file."),
    ] = None,
) -> None:
    """Write the boards that match --where (and --boards), streaming, in any format.

    With --rejects, every board read goes to exactly one of the two outputs.
    """
    quiet = inputs.quiet
    selection = _selection(where, boards)
    report = Report(inputs.fail_on)
    chosen = rejected = 0
    with ExitStack() as stack:
        out = _open(stack, output)
        writer = open_writer(to, out)
        reject_writer: BoardWriter | None = None
        if rejects is not None:
            reject_writer = open_writer(to, _open(stack, rejects))
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
        typer.echo(f"{report.summary()}; {kept}", err=True)
    raise typer.Exit(report.exit_code)


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


def _open(stack: ExitStack, path: str | None) -> TextIO:
    if path is None or path == "-":
        return sys.stdout
    return stack.enter_context(open(path, "w", encoding="utf-8", newline=""))


def _print_problems(read: Iterable[Diagnostic], losses: list[Diagnostic]) -> None:
    """Errors in the input, and whatever the output format could not carry."""
    for diagnostic in read:
        if diagnostic.severity >= Severity.ERROR:
            print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
    for diagnostic in losses:
        print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
