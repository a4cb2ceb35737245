"""What every command shares: the app, the input walk, option types, the report and the exit code.

Exit codes: 0 nothing at or above ``--fail-on``; 1 findings (or ``--max-errors`` reached); 2
usage errors, inputs that could not be read, outputs not written; 141 a closed stdout; 130
Ctrl-C.  Data goes to stdout, diagnostics of ``convert``/``score``/``show`` and summaries to
stderr, so pipelines stay clean.

Commands that run over many inputs take the shared input and engine options with
``@batch_command``: the options are declared once here and arrive as one ``BatchOptions``.
"""

from __future__ import annotations

import functools
import inspect
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from enum import StrEnum
from typing import IO, Annotated, Any, TextIO, TypeVar, cast

import typer
import typer.core

from pbntool.diagnostics import Diagnostic, Severity
from pbntool.formats import Format, read_input, readable_formats, writable_formats
from pbntool.formats.pbn.dialects import apply_dialect
from pbntool.records import Record
from pbntool.run.batch import Batch, BatchOptions, UsageError
from pbntool.run.report import (
    EXIT_CLOSED_PIPE,
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_UNREADABLE,
    Tally,
)
from pbntool.run.tasks import OutputFormat
from pbntool.run.tasks import select_codes as _select_codes
from pbntool.text.archives import Limits
from pbntool.text.edit import (
    InputFiles,
    WriteRefused,
    atomic_write,
    interruption,
    write_error,
    write_whole,
)
from pbntool.text.inputs import Input, Selection, iter_inputs
from pbntool.text.source import MAX_GAME_ENV, MAX_RECORD_ENV

__all__ = [
    "BATCH_OPTIONS",
    "EXIT_CLOSED_PIPE",
    "EXIT_FINDINGS",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "FailOn",
    "FromOption",
    "OutputFormat",
    "Paths",
    "ToOption",
    "app",
    "batch_command",
    "batch_command_restating",
    "format_parser",
    "iter_records",
    "open_output",
    "open_text_output",
    "parse_codes",
    "pipe_safe",
    "plural",
    "print_diagnostic",
    "select_codes",
    "silence_stdout",
    "write_chunks",
]


def _readable_metavar(original: Callable[..., str | None]) -> Callable[..., str | None]:
    """Help shows a flag without a value type (typer prints ``<bool>``) and a repeatable
    option's value as ``<str>...`` (typer prints ``<list[str]>``)."""

    def metavar(self: Any, ctx: Any) -> str | None:
        if getattr(self, "is_flag", False) and getattr(self, "metavar", None) is None:
            return None
        shown = original(self, ctx)
        if shown is not None and shown.startswith("<list[") and shown.endswith("]>"):
            return f"<{shown[6:-2]}>..."
        return shown

    return metavar


# typer 0.29 shows value types in help; typer before it has no such method (and shows none).
_SHOWN_TYPE = "display_type_rich"
for _parameter in (typer.core.TyperOption, typer.core.TyperArgument):
    if hasattr(_parameter, _SHOWN_TYPE):
        setattr(_parameter, _SHOWN_TYPE, _readable_metavar(getattr(_parameter, _SHOWN_TYPE)))

app = typer.Typer(
    add_completion=True,
    help="Read, validate against the Laws, rescore and convert bridge records (PBN, LIN).",
)


class FailOn(StrEnum):
    """The lowest severity that makes the exit code 1."""

    error = "error"
    warning = "warning"
    info = "info"

    @property
    def severity(self) -> Severity:
        return Severity[self.name.upper()]


CommandT = TypeVar("CommandT", bound=Callable[..., None])


def pipe_safe(command: CommandT) -> CommandT:
    """End quietly with 141, as Unix tools do, when the reader of stdout goes away
    (``pbntool validate big/ | head``); click would otherwise exit 1, which means findings."""

    @functools.wraps(command)
    def guarded(*args: Any, **kwargs: Any) -> None:
        try:
            try:
                command(*args, **kwargs)
            finally:
                sys.stdout.flush()  # a full disk under stdout is found here, not at exit
        except BrokenPipeError:
            silence_stdout()
            raise typer.Exit(EXIT_CLOSED_PIPE) from None
        except RuntimeError as error:
            stop = interruption(error)
            if stop is None:
                raise
            raise stop from None
        except WriteRefused as refusal:
            typer.echo(f"pbntool: error: {refusal}", err=True)
            raise typer.Exit(EXIT_UNREADABLE) from None
        except OSError as error:
            # Reading never raises (an unreadable input is a finding): this is a write.
            silence_stdout()
            typer.echo(
                f"pbntool: error: {write_error(error.filename or 'stdout', error)}", err=True
            )
            raise typer.Exit(EXIT_UNREADABLE) from None

    return cast(CommandT, guarded)


def open_output(
    stack: ExitStack,
    output: str | None,
    inputs: InputFiles | None,
    *,
    binary: bool = False,
) -> IO[Any]:
    """Where a command writes its data: stdout (``None`` or ``-``), else a file written
    atomically, refused when it is one of ``inputs`` (exit 2, nothing touched), renamed into
    place when the command ends normally and dropped when it fails."""
    if output is None or output == "-":
        return sys.stdout.buffer if binary else sys.stdout
    return stack.enter_context(atomic_write(output, binary=binary, inputs=inputs))


def open_text_output(stack: ExitStack, output: str | None, inputs: InputFiles | None) -> TextIO:
    """``open_output`` for text."""
    return cast(TextIO, open_output(stack, output, inputs))


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 or noun == "info" else "s")


Paths = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="PATH",
        help="Files, directories, archives, - for stdin, handviewer links (see Inputs above).",
        show_default=False,
    ),
]


def format_parser(formats: Iterable[Format]) -> Callable[[str], Format]:
    """Parses an option value into one of ``formats`` (case-insensitive).  The choices come
    from the format registry, so a new format's spec row is all a command needs."""
    allowed = tuple(formats)

    def parse(value: str | Format) -> Format:
        if isinstance(value, Format):
            return value
        for form in allowed:
            if value.strip().lower() == form.value:
                return form
        names = ", ".join(form.value for form in allowed)
        raise typer.BadParameter(f"{value!r} is not one of {names}")

    return parse


def _names(formats: Iterable[Format]) -> str:
    return "|".join(form.value for form in formats)


FromOption = Annotated[
    Format | None,
    typer.Option(
        "--from",
        parser=format_parser(readable_formats()),
        metavar=_names(readable_formats()),
        help="Input format (default: detected from each input's content).",
        show_default=False,
    ),
]

ToOption = Annotated[
    Format,
    typer.Option(
        "--to",
        parser=format_parser(writable_formats()),
        metavar=_names(writable_formats()),
        help="Output format.",
    ),
]
"""``--to`` of the commands that write boards (the formats with a writer)."""


def iter_records(paths: list[str], report: Tally, form: Format | None = None) -> Iterator[Record]:
    """The records of every input, in order; ``form`` forces the input format."""
    for source in iter_inputs(paths):
        report.inputs += 1
        yield from read_input(source, form)


def iter_batch_records(inputs: BatchOptions, report: Tally) -> Iterator[Record]:
    """The records of a batch's inputs read in this process, in order (for commands that need
    every record in one place: event scoring, LIN output); archives, ``--include``,
    ``--exclude`` and ``--files-from`` apply as in parallel runs."""
    for _source, record in iter_batch_sources(inputs, report):
        yield record


def iter_batch_sources(inputs: BatchOptions, report: Tally) -> Iterator[tuple[Input, Record]]:
    """``iter_batch_records`` with the input each record came from (``convert -o DIR/`` of a
    writer that writes whole files names each output after its input)."""
    from pbntool.run.batch import listed_paths

    paths = [*inputs.paths, *([] if inputs.files_from is None else listed_paths(inputs.files_from))]
    for source in iter_inputs(paths, inputs.selection):
        report.inputs += 1
        for record in apply_dialect(read_input(source, inputs.form), inputs.dialect):
            yield source, record
        failure = source.failure()
        if failure is not None:
            yield source, Record(None, (failure,), source.name, failure.line or 0)


def select_codes(
    diagnostics: Iterable[Diagnostic], select: set[str], ignore: set[str]
) -> list[Diagnostic]:
    """Filter by code or code prefix (``--select AUC``, ``--ignore BRD003``)."""
    return _select_codes(diagnostics, frozenset(select), frozenset(ignore))


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


# --- the shared input and engine options -------------------------------------------------------


class Engine(StrEnum):
    """Where the work runs."""

    local = "local"
    dask = "dask"


_SIZE = re.compile(r"(?i)^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$")


def parse_size(text: str) -> int:
    """``4G``, ``100M``, ``512k``, ``1000`` → bytes (powers of 1024)."""
    match = _SIZE.match(text)
    if match is None:
        raise typer.BadParameter(f"{text!r} is not a size such as 512M or 4G")
    scale = 1024 ** " kmgt".index(match.group(2).lower() or " ")
    return int(float(match.group(1)) * scale)


FilesFrom = Annotated[
    str | None,
    typer.Option("--files-from", help="Read input paths from this file, one per line (- stdin)."),
]
Include = Annotated[
    list[str] | None,
    typer.Option(
        "--include",
        help="In directories and archives, read only files matching this glob (repeatable; "
        "default: known suffixes). A glob with / matches the path from the root.",
    ),
]
Exclude = Annotated[
    list[str] | None,
    typer.Option("--exclude", help="Skip files and directories matching this glob (repeatable)."),
]
FollowSymlinks = Annotated[
    bool,
    typer.Option("--follow-symlinks", help="Follow symbolic links that lead out of a directory."),
]
Jobs = Annotated[
    int,
    typer.Option(
        "--jobs", "-j", help="Worker processes (0: one per core). Output is the same for any N."
    ),
]
EngineOption = Annotated[
    Engine,
    typer.Option(
        "--engine",
        help="local processes, or a Dask cluster (the dask extra: pip install 'pbntool\\[dask]').",
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler", help="Dask scheduler address (tcp://host:8786); default: a local cluster."
    ),
]
MaxErrors = Annotated[
    int | None,
    typer.Option(
        "--max-errors",
        help="Stop after the board with the Nth error (exit 1).",
        show_default="no limit",
    ),
]
FailOnOption = Annotated[
    FailOn, typer.Option("--fail-on", help="Lowest severity that makes the exit code 1.")
]
Progress = Annotated[
    bool | None,
    typer.Option(
        "--progress/--no-progress",
        help="Progress bar on stderr (default: when stderr is a terminal).",
        show_default=False,
    ),
]
Quiet = Annotated[
    bool, typer.Option("--quiet", "-q", help="Nothing on stderr: no diagnostics, summary, bar.")
]


class Dialect(StrEnum):
    """Opt-in readings of a program's habits (pbntool.formats.pbn.dialects)."""

    pavlicek = "pavlicek"


DialectOption = Annotated[
    Dialect | None,
    typer.Option(
        "--dialect",
        case_sensitive=False,
        help="Read files in a program's dialect: pavlicek (opening passes omitted, the deal "
        "given once per board). Off by default; each input is then read whole, in order.",
    ),
]
SummaryJson = Annotated[
    bool, typer.Option("--summary-json", help="The final summary as one JSON object on stderr.")
]
MaxMemberSize = Annotated[
    str,
    typer.Option(
        "--max-member-size", help="Largest decompressed archive member or compressed file."
    ),
]
MaxRatio = Annotated[
    float,
    typer.Option("--max-ratio", help="Largest decompression ratio (zip bombs stop here)."),
]

MaxGameSize = Annotated[
    str,
    typer.Option(
        "--max-game-size",
        help="Largest game (PBN text between blank lines) that is parsed; a larger one is "
        "skipped with SRC009 and the rest of the file read.",
    ),
]

MaxTotalSize = Annotated[
    str,
    typer.Option(
        "--max-total-size",
        help="Largest number of bytes all the archives of the run may decompress to together "
        "(default: --max-ratio times their compressed size, at least 8M).",
    ),
]

MaxRecordSize = Annotated[
    str,
    typer.Option(
        "--max-record-size",
        help="Largest JSON record (or JSON line) that is read; a larger one is skipped with "
        "JSN009, never held in memory, and the rest of the file read.",
    ),
]

_DEFAULT_LIMITS = Limits()

BATCH_OPTIONS: tuple[inspect.Parameter, ...] = tuple(
    inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=default)
    for name, kind, default in (
        ("paths", Paths, None),
        ("source_format", FromOption, None),
        ("files_from", FilesFrom, None),
        ("include", Include, None),
        ("exclude", Exclude, None),
        ("follow_symlinks", FollowSymlinks, False),
        ("jobs", Jobs, 0),
        ("engine", EngineOption, Engine.local),
        ("scheduler", Scheduler, None),
        ("max_errors", MaxErrors, None),
        ("fail_on", FailOnOption, FailOn.error),
        ("progress", Progress, None),
        ("quiet", Quiet, False),
        ("summary_json", SummaryJson, False),
        ("max_member_size", MaxMemberSize, "4G"),
        ("max_ratio", MaxRatio, _DEFAULT_LIMITS.max_ratio),
        ("max_total_size", MaxTotalSize, ""),
        ("max_game_size", MaxGameSize, "1M"),
        ("dialect", DialectOption, None),
        ("max_record_size", MaxRecordSize, "16M"),
    )
)
"""The options of every batch command, declared once (see ``batch_command``)."""


def batch_options(values: dict[str, Any]) -> BatchOptions:
    """``BatchOptions`` from the values of ``BATCH_OPTIONS``."""
    game_size = parse_size(values["max_game_size"])
    if game_size < 1:
        raise UsageError("--max-game-size must be at least 1 character")
    # The environment, not an argument: the readers of worker processes see it too.
    os.environ[MAX_GAME_ENV] = str(game_size)
    record_size = parse_size(values["max_record_size"])
    if record_size < 1:
        raise UsageError("--max-record-size must be at least 1 character")
    os.environ[MAX_RECORD_ENV] = str(record_size)
    total = values["max_total_size"]
    max_total = parse_size(total) if total else None
    if max_total is not None and max_total < 1:
        raise UsageError("--max-total-size must be at least 1 byte")
    limits = Limits(
        max_member_bytes=parse_size(values["max_member_size"]),
        max_ratio=values["max_ratio"],
        max_total_bytes=max_total,
    )
    selection = Selection(
        include=tuple(values["include"] or ()),
        exclude=tuple(values["exclude"] or ()),
        follow_symlinks=values["follow_symlinks"],
        limits=limits,
    )
    return BatchOptions(
        paths=tuple(values["paths"] or ()),
        files_from=values["files_from"],
        selection=selection,
        form=values["source_format"],
        jobs=values["jobs"],
        engine=values["engine"].value,
        scheduler=values["scheduler"],
        max_errors=values["max_errors"],
        fail_on=values["fail_on"].severity,
        progress=values["progress"],
        quiet=values["quiet"],
        summary_json=values["summary_json"],
        dialect=None if values["dialect"] is None else values["dialect"].value,
    )


def batch_command(command: CommandT) -> CommandT:
    """Give a command the shared input and engine options, passed as ``inputs: BatchOptions``.

    The command declares its own options and ``inputs``; usage errors (bad combinations, no
    dask) exit 2 with a message instead of a traceback.
    """
    return _with_batch_options(command, {})


def batch_command_restating(**restated: Any) -> Callable[[CommandT], CommandT]:
    """``batch_command`` with some shared options declared anew, by parameter name, for a
    command where they mean something of their own (``dd``'s ``-j``: its help says how the
    solving is spread); their values still arrive in ``inputs``."""
    unknown = set(restated) - {parameter.name for parameter in BATCH_OPTIONS}
    assert not unknown, f"not shared options: {unknown}"
    return lambda command: _with_batch_options(command, restated)


def _with_batch_options(command: CommandT, restated: dict[str, Any]) -> CommandT:
    shared_options = tuple(
        parameter.replace(annotation=restated.get(parameter.name, parameter.annotation))
        for parameter in BATCH_OPTIONS
    )
    own = inspect.signature(command, eval_str=True)
    names = {parameter.name for parameter in BATCH_OPTIONS}

    @functools.wraps(command)
    def wrapper(**values: Any) -> None:
        from pbntool.run.dask import DaskMissing

        shared = {name: values.pop(name) for name in list(values) if name in names}
        try:
            options = batch_options(shared)
            options.check()
            if not options.quiet:
                for warning in options.warnings():
                    typer.echo(f"pbntool: warning: {warning}", err=True)
            command(inputs=options, **values)
        except (UsageError, DaskMissing) as error:
            typer.echo(f"pbntool: error: {error}", err=True)
            raise typer.Exit(EXIT_UNREADABLE) from None

    parameters = [p for p in own.parameters.values() if p.name != "inputs"]
    wrapper.__signature__ = own.replace(parameters=[*parameters, *shared_options])  # type: ignore[attr-defined]
    wrapper.__annotations__ = {
        **{p.name: p.annotation for p in parameters},
        **{p.name: p.annotation for p in shared_options},
    }
    return cast(CommandT, wrapper)


def write_chunks(batch: Batch, out: TextIO | None = None) -> None:
    """Write every chunk of a batch: its data to stdout, its diagnostics to stderr."""
    stdout = sys.stdout if out is None else out
    for _source, chunk in batch:
        if chunk.out:
            write_whole(stdout, chunk.out)
        if chunk.err:
            sys.stderr.write(chunk.err)
    stdout.flush()
