"""``pbntool stats``: a summary of many boards, as a text report or one JSON object."""

from __future__ import annotations

import json
import sys
from typing import Annotated

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
from pbntool.cli.guard import guarded
from pbntool.records import validate_record
from pbntool.stats import Statistics, summarise_record

__all__ = ["stats"]


@app.command()
@pipe_safe
def stats(
    paths: Paths,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="A text report or one JSON object.")
    ] = OutputFormat.text,
    source_format: FromOption = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary on stderr.")] = False,
) -> None:
    """Summarise boards: findings by code, contracts by strain and level, make and down
    rates, declarers, average score, passed-out boards and the producing programs."""
    report = Report()
    statistics = Statistics()
    for record in iter_records(paths, report, source_format):
        diagnostics = validate_record(record)
        summary, failure = guarded(record, summarise_record, record, diagnostics)
        if failure is not None:
            diagnostics = (*diagnostics, failure)
            print_diagnostic(failure, OutputFormat.text, sys.stderr)
        report.count(record, diagnostics)
        if summary is not None:
            statistics.add(summary)
    statistics.inputs = report.inputs
    out = sys.stdout
    if output_format is OutputFormat.json:
        out.write(json.dumps(statistics.to_dict(), ensure_ascii=False) + "\n")
    else:
        out.write(statistics.text())
    out.flush()
    if not quiet:
        typer.echo(report.summary(), err=True)
    raise typer.Exit(report.exit_code)
