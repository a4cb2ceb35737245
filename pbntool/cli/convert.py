"""``pbntool convert``: boards rewritten in another format, findings on stderr."""

from __future__ import annotations

import sys
from contextlib import ExitStack
from enum import StrEnum
from typing import Annotated, TextIO

import typer

from pbntool.cli.common import Paths, Report, app, boards_reporting, pipe_safe
from pbntool.jsonio import dumps_line
from pbntool.pbn.writer import WriteOptions, iter_dump

__all__ = ["ConvertFormat", "convert"]


class ConvertFormat(StrEnum):
    """What ``convert`` writes."""

    pbn = "pbn"
    json = "json"


@app.command()
@pipe_safe
def convert(
    paths: Paths,
    to: Annotated[ConvertFormat, typer.Option("--to", help="Output format.")],
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
    """Rewrite boards as canonical PBN (export format) or JSON lines."""
    report = Report()
    with ExitStack() as stack:
        stream: TextIO = sys.stdout
        if output:
            stream = stack.enter_context(open(output, "w", encoding="utf-8", newline=""))
        boards = boards_reporting(paths, report, check, quiet)
        if to is ConvertFormat.pbn:
            for text in iter_dump((board for board, _ in boards), WriteOptions()):
                stream.write(text)
        else:
            for board, name in boards:
                stream.write(dumps_line(board, file=name))
                stream.write("\n")
        stream.flush()
    if not quiet:
        typer.echo(report.summary(), err=True)
    raise typer.Exit(report.exit_code)
