"""``pbntool convert``: boards rewritten in another format, findings on stderr."""

from __future__ import annotations

import sys
from contextlib import ExitStack
from typing import Annotated, TextIO

import typer

from pbntool.cli.common import (
    FromOption,
    OutputFormat,
    Paths,
    Report,
    app,
    iter_records,
    pipe_safe,
    print_diagnostic,
)
from pbntool.diagnostics import Severity
from pbntool.formats import Format
from pbntool.records import validate_record
from pbntool.writers import open_writer

__all__ = ["convert"]


@app.command()
@pipe_safe
def convert(
    paths: Paths,
    to: Annotated[Format, typer.Option("--to", case_sensitive=False, help="Output format.")],
    source_format: FromOption = None,
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write here instead of stdout.")
    ] = None,
    check: Annotated[
        bool, typer.Option("--validate", help="Also run the Laws checks (to stderr).")
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="No diagnostics or summary on stderr.")
    ] = False,
) -> None:
    """Rewrite boards as canonical PBN (export format), LIN, JSON lines or XML.

    What the target format cannot carry is reported as a warning naming the board.
    """
    report = Report()
    with ExitStack() as stack:
        stream: TextIO = sys.stdout
        if output:
            stream = stack.enter_context(open(output, "w", encoding="utf-8", newline=""))
        writer = open_writer(to, stream)
        for record in iter_records(paths, report, source_format):
            found = list(validate_record(record) if check else record.diagnostics)
            if record.board is not None:
                losses = writer.write(record.board, record.file)
                found.extend(record.locate(loss) for loss in losses)
            report.count(record, found)
            if not quiet:
                for diagnostic in found:
                    if diagnostic.severity >= Severity.WARNING:
                        print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
        writer.close()
        stream.flush()
    if not quiet:
        typer.echo(report.summary(), err=True)
    raise typer.Exit(report.exit_code)
