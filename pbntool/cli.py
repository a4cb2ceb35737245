"""The ``pbntool`` command line: read options, call the library, render, pick the exit code.

Exit codes: 0 nothing at or above ``--fail-on``; 1 findings; 2 usage errors or inputs that
could not be read.  Data goes to stdout, diagnostics of ``convert``/``score``/``show`` and
summaries to stderr, so pipelines stay clean.
"""

from __future__ import annotations

import functools
import gc
import json
import os
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any, TextIO, TypeVar, cast

import typer

from pbntool import __version__
from pbntool.diagnostics import Diagnostic, Severity
from pbntool.formats import read_input
from pbntool.inputs import iter_inputs
from pbntool.jsonio import dumps_line
from pbntool.model import Board
from pbntool.pbn.writer import WriteOptions, iter_dump
from pbntool.records import Record, validate_record
from pbntool.scoring_report import ScoreLine, score_record
from pbntool.show import render_board

__all__ = ["app", "main"]

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help="Read, validate against the Laws, rescore and convert bridge records (PBN).",
)

EXIT_OK, EXIT_FINDINGS, EXIT_UNREADABLE = 0, 1, 2


class OutputFormat(StrEnum):
    """How findings and scores are printed."""

    text = "text"
    json = "json"


class ConvertFormat(StrEnum):
    """What ``convert`` writes."""

    pbn = "pbn"
    json = "json"


class FailOn(StrEnum):
    """The lowest severity that makes the exit code 1."""

    error = "error"
    warning = "warning"
    info = "info"

    @property
    def severity(self) -> Severity:
        return Severity[self.name.upper()]


@dataclass
class Report:
    """Counts what was read and found; owns the exit code and the summary line."""

    fail_on: Severity = Severity.ERROR
    inputs: int = 0
    boards: int = 0
    by_severity: Counter[Severity] = field(default_factory=Counter)
    unreadable: int = 0

    def count(self, record: Record, diagnostics: Iterable[Diagnostic]) -> None:
        if record.board is not None:
            self.boards += 1
        for diagnostic in diagnostics:
            self.by_severity[diagnostic.severity] += 1
            if diagnostic.code in ("SRC003", "INT001") and diagnostic.line in (None, 0):
                self.unreadable += 1

    @property
    def exit_code(self) -> int:
        if self.unreadable:
            return EXIT_UNREADABLE
        failing = sum(n for severity, n in self.by_severity.items() if severity >= self.fail_on)
        return EXIT_FINDINGS if failing else EXIT_OK

    def summary(self) -> str:
        counts = ", ".join(
            _plural(self.by_severity[severity], severity.label)
            for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO)
        )
        files = _plural(self.inputs, "input")
        boards = _plural(self.boards, "board")
        unreadable = f", {self.unreadable} unreadable" if self.unreadable else ""
        return f"pbntool: {files}, {boards}: {counts}{unreadable}"


CommandT = TypeVar("CommandT", bound=Callable[..., None])
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE


def _pipe_safe(command: CommandT) -> CommandT:
    """End quietly with 141, as Unix tools do, when the reader of stdout goes away
    (``pbntool validate big/ | head``); click would otherwise exit 1, which means findings."""

    @functools.wraps(command)
    def guarded(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except BrokenPipeError:
            _silence_stdout()
            raise typer.Exit(EXIT_CLOSED_PIPE) from None

    return cast(CommandT, guarded)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 or noun == "info" else "s")


Paths = Annotated[
    list[str],
    typer.Argument(help="Files, directories (searched recursively for .pbn), or - for stdin."),
]


def _records(paths: list[str], report: Report) -> Iterator[Record]:
    for source in iter_inputs(paths):
        report.inputs += 1
        yield from read_input(source)


def _select(
    diagnostics: Iterable[Diagnostic], select: set[str], ignore: set[str]
) -> list[Diagnostic]:
    """Filter by code or code prefix (``--select AUC``, ``--ignore BRD003``)."""
    chosen = []
    for diagnostic in diagnostics:
        if select and not any(diagnostic.code.startswith(prefix) for prefix in select):
            continue
        if any(diagnostic.code.startswith(prefix) for prefix in ignore):
            continue
        chosen.append(diagnostic)
    return chosen


def _codes(option: list[str] | None) -> set[str]:
    return {
        code.strip().upper() for item in option or [] for code in item.split(",") if code.strip()
    }


def _print_diagnostic(diagnostic: Diagnostic, form: OutputFormat, stream: TextIO) -> None:
    stream.write(diagnostic.to_json() if form is OutputFormat.json else str(diagnostic))
    stream.write("\n")


@app.command()
@_pipe_safe
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
    chosen_codes, ignored_codes = _codes(select), _codes(ignore)
    out = sys.stdout
    for record in _records(paths, report):
        diagnostics = _select(validate_record(record), chosen_codes, ignored_codes)
        report.count(record, diagnostics)
        for diagnostic in diagnostics:
            _print_diagnostic(diagnostic, output_format, out)
    out.flush()
    if not quiet:
        typer.echo(report.summary(), err=True)
    raise typer.Exit(report.exit_code)


@app.command()
@_pipe_safe
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
        boards = _boards_reporting(paths, report, check, quiet)
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


def _boards_reporting(
    paths: list[str], report: Report, check: bool, quiet: bool
) -> Iterator[tuple[Board, str]]:
    """Boards with their file names; the findings go to stderr as they are met."""
    for record in _records(paths, report):
        diagnostics = validate_record(record) if check else record.diagnostics
        shown = [d for d in diagnostics if d.severity >= Severity.WARNING]
        report.count(record, diagnostics)
        if not quiet:
            for diagnostic in shown:
                _print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
        if record.board is not None:
            yield record.board, record.file


@app.command()
@_pipe_safe
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
    for record in _records(paths, report):
        report.count(record, record.diagnostics)
        for diagnostic in record.diagnostics:
            if diagnostic.severity >= Severity.ERROR and not quiet:
                _print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
        line = score_record(record)
        if line is None:
            continue
        out.write(json.dumps(line.to_dict()) if output_format is OutputFormat.json else line.text())
        out.write("\n")
    out.flush()
    if not quiet:
        typer.echo(report.summary(), err=True)
    raise typer.Exit(report.exit_code)


@app.command()
@_pipe_safe
def show(
    path: Annotated[str, typer.Argument(help="A PBN file, or - for stdin.")],
    board: Annotated[
        str | None,
        typer.Option("--board", "-b", help="Only this board number (as written in the Board tag)."),
    ] = None,
    ascii_only: Annotated[
        bool, typer.Option("--ascii", help="S H D C instead of suit symbols.")
    ] = False,
) -> None:
    """Print boards as hand diagrams with the auction, contract, result and play."""
    report = Report()
    shown = 0
    for record in _records([path], report):
        report.count(record, record.diagnostics)
        for diagnostic in record.diagnostics:
            if diagnostic.severity >= Severity.ERROR:
                _print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
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
    try:
        app()
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(EXIT_CLOSED_PIPE)
    except KeyboardInterrupt:
        sys.exit(128 + signal.SIGINT)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
