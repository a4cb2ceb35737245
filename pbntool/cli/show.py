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
from pbntool.cli.manual import command
from pbntool.diagnostics import Severity
from pbntool.formats.text.diagram import render_board
from pbntool.run.report import Tally

__all__ = ["show"]


@command(app)
@pipe_safe
def show(
    path: Annotated[
        str,
        typer.Argument(
            help="A file, directory or archive, a handviewer link, or - for stdin (see Inputs)."
        ),
    ],
    board: Annotated[
        str | None,
        typer.Option(
            "--board",
            "-b",
            help="Only this board number (as written in the Board tag).",
            show_default="every board",
        ),
    ] = None,
    ascii_only: Annotated[
        bool, typer.Option("--ascii", help="S H D C instead of suit symbols.")
    ] = False,
) -> None:
    """Print boards as hand diagrams with the auction, contract, result and play.

    Each board is drawn the way a newspaper column prints it: North at the top, West and
    East either side of a compass, South below; then the auction in columns W N E S, the
    contract with its result and score, the play trick by trick in played order (the card
    that wins each trick marked *) and the notes.  The header names the board, dealer,
    vulnerability, event, room (Open or Closed) and table.  Errors in the input go to
    stderr and the board is still drawn from what is known.  convert --to text writes the
    same diagrams to files.

    Inputs: one path: a file in any readable format (detected from its content), a
    directory or archive (every board in it), a handviewer link, or - for stdin.

    Examples:
        pbntool show --board 1 fixtures/sample/event.pbn
            Board 1 of the sample event.
        pbntool show --ascii 'https://www.bridgebase.com/tools/handviewer.html?lin=md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432|mb|7N|mb|p|mb|p|mb|p|'
            The board of a BBO handviewer link, with S H D C instead of suit symbols.

    Exit 1: --board names no board of the input.
    """
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
