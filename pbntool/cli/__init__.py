"""The ``pbntool`` command line: each command lives in a module of this package.

A command reads its options, calls the library, renders, and picks the exit code (see
``common``); bridge logic in here is a bug.
"""

from __future__ import annotations

import gc
import sys
from typing import Annotated

import typer

from pbntool import __version__
from pbntool.cli import convert, dd, dedupe, fix, render, score, select, show, stats, validate
from pbntool.cli.common import app, silence_stdout
from pbntool.run.report import EXIT_CLOSED_PIPE, EXIT_INTERRUPTED
from pbntool.text.edit import exit_on_signals

__all__ = ["app", "main"]

COMMANDS = (validate, convert, score, show, fix, select, dedupe, stats, dd, render)
"""The modules whose import registers their command on ``app``."""


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pbntool {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """pbntool: read, validate, rescore and convert bridge records."""


def main() -> None:
    """Entry point: run the app; a closed pipe or Ctrl-C ends quietly, never with a traceback."""
    # Reading allocates millions of short-lived, acyclic objects: collecting the youngest
    # generation every 700 allocations (the default) costs about 5% and finds nothing.
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
    exit_on_signals()  # SIGTERM/SIGHUP unwind like an error: no temporary file is left
    try:
        app()
    except BrokenPipeError:
        silence_stdout()
        sys.exit(EXIT_CLOSED_PIPE)
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
