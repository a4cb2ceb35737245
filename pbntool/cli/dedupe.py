"""``pbntool dedupe``: the same deal wherever it appears; or the input without repeats."""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack
from typing import Annotated

import typer

from pbntool.cli.common import (
    OutputFormat,
    ToOption,
    app,
    batch_command,
    iter_batch_records,
    open_output,
    pipe_safe,
    plural,
    print_diagnostic,
)
from pbntool.cli.manual import command
from pbntool.diagnostics import Diagnostic, Severity
from pbntool.formats import Format, spec_of
from pbntool.formats.writing import open_writer
from pbntool.run.batch import BatchOptions
from pbntool.run.guard import guarded
from pbntool.run.report import Tally
from pbntool.tools.dedupe import DuplicateIndex, GroupKind, occurrence_of

__all__ = ["dedupe"]


@command(app)
@pipe_safe
@batch_command
def dedupe(
    inputs: BatchOptions,
    rotations: Annotated[
        bool,
        typer.Option("--rotations", help="A deal rotated by seats counts as the same deal."),
    ] = False,
    drop: Annotated[
        bool,
        typer.Option("--drop", help="Write the boards with repeats removed (the first kept)."),
    ] = False,
    keep_tables: Annotated[
        bool,
        typer.Option(
            "--keep-tables",
            help="With --drop, drop only exact repeats (same deal and same contract, declarer "
            "and result); keep the deal as played at other tables.",
        ),
    ] = False,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="The report as text or JSON lines.")
    ] = OutputFormat.text,
    to: ToOption = Format.PBN,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", help="Write here instead of stdout.", show_default="stdout"),
    ] = None,
) -> None:
    """Report deals that appear more than once (file, board, line of each), or --drop them.

    Deals are compared by their 52 cards (with --rotations, also turned by seats).  A
    repeated deal is reported as copies (every record has the same result) or as played at
    several tables (different results), as text or JSON lines.  --drop writes the boards
    instead, each deal once (the first kept; --keep-tables keeps it as played at other
    tables).  Boards without a full deal are not compared; --drop writes them through.

    Inputs: {inputs}.

    Examples:
        pbntool dedupe fixtures/sample/
            List the deals seen more than once in a folder (none in the sample).
        pbntool dedupe --drop -o unique.pbn fixtures/sample/event.pbn
            Write the boards with the repeats removed to unique.pbn.

    Exit 1: findings at or above --fail-on in the inputs (errors by default).
    """
    quiet = inputs.quiet
    report = Tally(inputs.fail_on)
    index = DuplicateIndex(by_result=keep_tables)
    dropped = 0
    with ExitStack() as stack:
        binary = drop and spec_of(to).binary  # DUP, BRI, DGE write bytes (only boards)
        out = open_output(stack, output, inputs.input_files(), binary=binary)
        writer = open_writer(to, out) if drop else None
        for record in iter_batch_records(inputs, report):
            found: list[Diagnostic] = list(record.diagnostics)
            occurrence, failure = guarded(record, occurrence_of, record, rotations)
            if failure is not None:
                found.append(
                    failure
                )  # reported; the board is not compared (and, with --drop, kept)
            if record.board is not None:
                repeat = index.add(occurrence)
                if writer is not None and not repeat:
                    found.extend(map(record.locate, writer.write(record.board, record.file)))
                dropped += repeat
            report.count(record, found)
            if not quiet:
                for diagnostic in found:
                    if (
                        diagnostic.severity >= Severity.ERROR
                        or diagnostic not in record.diagnostics
                    ):
                        print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
        if writer is not None:
            writer.close()
        else:
            for group in index.groups():
                if output_format is OutputFormat.json:
                    out.write(json.dumps(group.to_dict()) + "\n")
                else:
                    out.write(group.text() + "\n")
        out.flush()
    if not quiet:
        typer.echo(report.summary(f"; {_findings(index, dropped if drop else None)}"), err=True)
    raise typer.Exit(report.exit_code())


def _findings(index: DuplicateIndex, dropped: int | None) -> str:
    groups = list(index.groups())
    copies = sum(1 for group in groups if group.kind is GroupKind.COPIES)
    parts = [
        f"{plural(index.distinct, 'distinct deal')}, {len(groups)} seen more than once "
        f"({copies} as copies, {len(groups) - copies} at several tables)"
    ]
    if index.without_deal:
        parts.append(f"{plural(index.without_deal, 'board')} without a full deal not compared")
    if dropped is not None:
        parts.append(f"{plural(dropped, 'board')} dropped")
    return "; ".join(parts)
