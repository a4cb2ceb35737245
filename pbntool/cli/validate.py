"""``pbntool validate``: every finding, as text or JSON lines, and an exit code."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from pbntool.cli.common import (
    FailOn,
    OutputFormat,
    Paths,
    Report,
    app,
    iter_records,
    parse_codes,
    pipe_safe,
    print_diagnostic,
    select_codes,
)
from pbntool.records import validate_record

__all__ = ["validate"]


@app.command()
@pipe_safe
def validate(
    paths: Paths,
    output_format: Annotated[
        OutputFormat,
        typer.Option(
            "--format",
            help="text: file:line:col: severity CODE message; json: one object per line.",
        ),
    ] = OutputFormat.text,
    fail_on: Annotated[
        FailOn, typer.Option(help="Lowest severity that makes the exit code 1.")
    ] = FailOn.error,
    select: Annotated[
        list[str] | None,
        typer.Option(help="Only these codes or prefixes (repeatable, comma-separated)."),
    ] = None,
    ignore: Annotated[list[str] | None, typer.Option(help="Skip these codes or prefixes.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary line.")] = False,
) -> None:
    """Check every board against the PBN standard and the Laws; print each finding."""
    report = Report(fail_on.severity)
    chosen_codes, ignored_codes = parse_codes(select), parse_codes(ignore)
    out = sys.stdout
    for record in iter_records(paths, report):
        diagnostics = select_codes(validate_record(record), chosen_codes, ignored_codes)
        report.count(record, diagnostics)
        for diagnostic in diagnostics:
            print_diagnostic(diagnostic, output_format, out)
    out.flush()
    if not quiet:
        typer.echo(report.summary(), err=True)
    raise typer.Exit(report.exit_code)
