"""What every command shares: the app, the input walk, option types, the report and the exit code.

Exit codes: 0 nothing at or above ``--fail-on``; 1 findings; 2 usage errors or inputs that
could not be read.  Data goes to stdout, diagnostics of ``convert``/``score``/``show`` and
summaries to stderr, so pipelines stay clean.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any, TextIO, TypeVar, cast

import typer

from pbntool.diagnostics import Diagnostic, Severity
from pbntool.formats import Format, read_input
from pbntool.inputs import iter_inputs
from pbntool.records import Record

__all__ = [
    "EXIT_CLOSED_PIPE",
    "EXIT_FINDINGS",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "FailOn",
    "FromOption",
    "OutputFormat",
    "Paths",
    "Report",
    "app",
    "iter_records",
    "parse_codes",
    "pipe_safe",
    "plural",
    "print_diagnostic",
    "select_codes",
    "silence_stdout",
]

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help="Read, validate against the Laws, rescore and convert bridge records (PBN, LIN).",
)

EXIT_OK, EXIT_FINDINGS, EXIT_UNREADABLE = 0, 1, 2


class OutputFormat(StrEnum):
    """How findings and scores are printed."""

    text = "text"
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
            plural(self.by_severity[severity], severity.label)
            for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO)
        )
        files = plural(self.inputs, "input")
        boards = plural(self.boards, "board")
        unreadable = f", {self.unreadable} unreadable" if self.unreadable else ""
        return f"pbntool: {files}, {boards}: {counts}{unreadable}"


CommandT = TypeVar("CommandT", bound=Callable[..., None])
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE


def pipe_safe(command: CommandT) -> CommandT:
    """End quietly with 141, as Unix tools do, when the reader of stdout goes away
    (``pbntool validate big/ | head``); click would otherwise exit 1, which means findings."""

    @functools.wraps(command)
    def guarded(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except BrokenPipeError:
            silence_stdout()
            raise typer.Exit(EXIT_CLOSED_PIPE) from None

    return cast(CommandT, guarded)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 or noun == "info" else "s")


Paths = Annotated[
    list[str],
    typer.Argument(
        help="Files, directories (searched recursively for .pbn and .lin), or - for stdin."
    ),
]

FromOption = Annotated[
    Format | None,
    typer.Option(
        "--from",
        case_sensitive=False,
        help="Input format (default: detected from each input's content).",
    ),
]


def iter_records(paths: list[str], report: Report, form: Format | None = None) -> Iterator[Record]:
    """The records of every input, in order; ``form`` forces the input format."""
    for source in iter_inputs(paths):
        report.inputs += 1
        yield from read_input(source, form)


def select_codes(
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


def parse_codes(option: list[str] | None) -> set[str]:
    return {
        code.strip().upper() for item in option or [] for code in item.split(",") if code.strip()
    }


def print_diagnostic(diagnostic: Diagnostic, form: OutputFormat, stream: TextIO) -> None:
    stream.write(diagnostic.to_json() if form is OutputFormat.json else str(diagnostic))
    stream.write("\n")


def silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
