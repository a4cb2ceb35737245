"""``pbntool score``: every board rescored beside the score its file states."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from pbntool.cli.common import (
    OutputFormat,
    Paths,
    Report,
    app,
    iter_records,
    pipe_safe,
    print_diagnostic,
)
from pbntool.diagnostics import Severity
from pbntool.scoring_report import ScoreLine, score_record

__all__ = ["score"]


@app.command()
@pipe_safe
def score(
    paths: Paths,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="text table or JSON lines.")
    ] = OutputFormat.text,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary on stderr.")] = False,
) -> None:
    """Rescore every board (duplicate) and show it beside the score the file states."""
    report = Report()
    out = sys.stdout
    if output_format is OutputFormat.text:
        out.write(ScoreLine.header() + "\n")
    for record in iter_records(paths, report):
        report.count(record, record.diagnostics)
        for diagnostic in record.diagnostics:
            if diagnostic.severity >= Severity.ERROR and not quiet:
                print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
        line = score_record(record)
        if line is None:
            continue
        out.write(json.dumps(line.to_dict()) if output_format is OutputFormat.json else line.text())
        out.write("\n")
    out.flush()
    if not quiet:
        typer.echo(report.summary(), err=True)
    raise typer.Exit(report.exit_code)
