"""``pbntool convert``: boards rewritten in another format, findings on stderr."""

from __future__ import annotations

import dataclasses
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, TextIO

import typer

from pbntool.batch import Batch, BatchOptions, UsageError
from pbntool.cli.common import app, batch_command, pipe_safe
from pbntool.formats import Format
from pbntool.outputs import Destination, DirectoryDestination, FileDestination, StreamDestination
from pbntool.tasks import ConvertTask, OutputFormat, format_diagnostic
from pbntool.writers import writes_fragments

__all__ = ["convert"]


@app.command()
@pipe_safe
@batch_command
def convert(
    inputs: BatchOptions,
    to: Annotated[Format, typer.Option("--to", case_sensitive=False, help="Output format.")],
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="Write here instead of stdout; an existing directory (or a path ending in /) "
            "gets one output per input.",
        ),
    ] = None,
    split: Annotated[
        int | None,
        typer.Option("--split", help="At most N boards per output file (needs -o)."),
    ] = None,
    check: Annotated[
        bool, typer.Option("--validate", help="Also run the Laws checks (to stderr).")
    ] = False,
) -> None:
    """Rewrite boards as canonical PBN (export format), LIN, JSON lines or XML.

    What the target format cannot carry is reported as a warning naming the board.
    """
    if split is not None and (split < 1 or not output):
        raise UsageError("--split needs -o FILE or -o DIR and at least 1 board per file")
    if not writes_fragments(to):
        # This format's writer cannot render parts of an output apart: one process.
        if split is not None or (output and _is_directory(output)):
            raise UsageError(f"-o DIR and --split are not available for --to {to} yet")
        inputs = dataclasses.replace(inputs, jobs=1, engine="local")
    task = ConvertTask(to, check=check, quiet=inputs.quiet, marks=split is not None)
    batch = Batch(inputs, task)
    with ExitStack() as stack:
        destination = _destination(stack, output, to, split)
        for source, chunk in batch:
            problems = destination.write(source, chunk)
            if chunk.err:
                sys.stderr.write(chunk.err)
            for problem in problems:
                batch.count_problem(problem)
                if not inputs.quiet:
                    sys.stderr.write(format_diagnostic(problem, OutputFormat.text))
        destination.close()
    raise typer.Exit(batch.finish())


def _is_directory(output: str) -> bool:
    return output.endswith(("/", "\\")) or Path(output).is_dir()


def _destination(
    stack: ExitStack, output: str | None, to: Format, split: int | None
) -> Destination:
    if output is None:
        return StreamDestination(sys.stdout, to)
    if _is_directory(output):
        return DirectoryDestination(Path(output), to, split)
    if split is not None:
        return FileDestination(Path(output), to, split)
    file = open(output, "w", encoding="utf-8", newline="")  # noqa: SIM115 - closed by the stack
    stream: TextIO = stack.enter_context(file)
    return StreamDestination(stream, to)
