"""``pbntool show``: hand diagrams with the auction, contract, result and play."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from pbntool.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_UNREADABLE,
    OutputFormat,
    app,
    iter_records,
    pipe_safe,
    print_diagnostic,
)
from pbntool.diagnostics import Severity
from pbntool.formats.text.diagram import render_board
from pbntool.run.report import Tally

__all__ = ["show"]


@app.command()
@pipe_safe
def show(
    path: Annotated[
        str, typer.Argument(help="A file (PBN, LIN, JSON, XML), a handviewer link, or - for stdin.")
    ],
    board: Annotated[
        str | None,
        typer.Option("--board", "-b", help="Only this board number (as written in the Board tag)."),
    ] = None,
    ascii_only: Annotated[
        bool, typer.Option("--ascii", help="S H D C instead of suit symbols.")
    ] = False,
) -> None:
    """Print boards as hand diagrams with the auction, contract, result and play."""
    report = Tally()
    shown = 0
    for record in iter_records([path], report):
        report.count(record, record.diagnostics)
        for diagnostic in record.diagnostics:
            if diagnostic.severity >= Severity.ERROR:
                print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
        if record.board is None:
            continue
        if board is not None and (record.board.tag("Board") or "").strip() != board:
            continue
        if shown:
            sys.stdout.write("\n")
        sys.stdout.write(render_board(record.board, file=record.file, ascii_only=ascii_only))
        sys.stdout.write("\n")
        shown += 1
    sys.stdout.flush()
    if report.unreadable:
        raise typer.Exit(EXIT_UNREADABLE)
    if board is not None and not shown:
        typer.echo(f"pbntool: no board {board} in {path}", err=True)
        raise typer.Exit(EXIT_FINDINGS)
    raise typer.Exit(EXIT_OK)
