"""The ``pbntool`` command line: each command lives in a module of this package.

A command reads its options, calls the library, renders, and picks the exit code (see
``common``); bridge logic in here is a bug.
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from pbntool import __version__
from pbntool.cli.common import app as _app
from pbntool.cli.common import silence_stdout
from pbntool.run.report import EXIT_CLOSED_PIPE, EXIT_INTERRUPTED
from pbntool.text.edit import exit_on_signals, interruption

if TYPE_CHECKING:
    app = _app

__all__ = ["COMMANDS", "app", "load_commands", "main"]

COMMANDS = (
    "validate",
    "convert",
    "score",
    "show",
    "fix",
    "select",
    "dedupe",
    "stats",
    "dd",
    "render",
)
"""The commands, in the order ``--help`` lists them; each is registered on the app by the
import of ``pbntool.cli.<name>``."""


def load_commands(names: Sequence[str] = COMMANDS) -> typer.Typer:
    """The app with these commands registered (importing a command's module registers it)."""
    for name in names:
        importlib.import_module(f"pbntool.cli.{name}")
    return _app


def __getattr__(name: str) -> typer.Typer:
    # ``from pbntool.cli import app`` gives the whole app; ``main`` loads only what it runs.
    if name == "app":
        return load_commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _commands_needed(argv: Sequence[str]) -> Sequence[str]:
    """The commands a command line can run: the one it names, none for ``--version``, all
    for anything else (``--help``, a typo typer must answer with the list)."""
    first = argv[1] if len(argv) > 1 else ""
    if first in COMMANDS:
        return (first,)
    if first == "--version":
        return ()
    return COMMANDS


EXTRAS = (
    ("dask", "distributed", "--engine dask"),
    ("dd", "endplay", "pbntool dd, render --dd"),
    ("bws", "access-parser", "Bridgemate .BWS input"),
    ("pdf", "weasyprint", "render --to pdf"),
)
"""The optional extras: (extra, the distribution it installs, what it gives)."""


def version_text() -> str:
    """pbntool's version, Python's, and each optional extra found (looked up in the installed
    distributions' metadata: nothing is imported)."""
    from importlib import metadata

    from pbntool import _native

    lines = [
        f"pbntool {__version__} ({_native.STATE})",
        f"Python {sys.version.split()[0]} ({sys.executable})",
    ]
    for extra, distribution, gives in EXTRAS:
        try:
            found = f"{distribution} {metadata.version(distribution)}"
        except metadata.PackageNotFoundError:
            found = f"not installed (pip install 'pbntool[{extra}]')"
        lines.append(f"{extra:<5} {found}  — {gives}")
    return "\n".join(lines)


def _version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit()


@_app.callback(invoke_without_command=True)
def _options(
    context: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Print the versions of pbntool, Python and the optional extras.",
        ),
    ] = False,
) -> None:
    """pbntool: read, validate, rescore and convert bridge records.

    Run a command with --help for its inputs, options and exit codes.
    """
    if context.invoked_subcommand is None:
        typer.echo(context.get_help())  # no command: the list of commands, not an error
        raise typer.Exit(0)


def main() -> None:
    """Entry point: run the app; a closed pipe or Ctrl-C ends quietly, never with a traceback."""
    # Reading allocates millions of short-lived, acyclic objects: collecting the youngest
    # generation every 700 allocations (the default) costs about 5% and finds nothing.
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
    exit_on_signals()  # SIGTERM/SIGHUP unwind like an error: no temporary file is left
    try:
        # Importing every command costs a third of a second of start-up; a run needs one.
        load_commands(_commands_needed(sys.argv))()
    except BrokenPipeError:
        silence_stdout()
        sys.exit(EXIT_CLOSED_PIPE)
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
    except RuntimeError as error:  # a signal while a command's late import made a class
        stop = interruption(error)
        if stop is None:
            raise
        sys.exit(EXIT_INTERRUPTED if isinstance(stop, KeyboardInterrupt) else stop.code)
