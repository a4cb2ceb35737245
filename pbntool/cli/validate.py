"""``pbntool validate``: every finding, as text or JSON lines, and an exit code."""

from __future__ import annotations

from typing import Annotated

import typer

from pbntool.cli.common import (
    OutputFormat,
    app,
    batch_command,
    parse_codes,
    pipe_safe,
    write_chunks,
)
from pbntool.run.batch import Batch, BatchOptions
from pbntool.run.tasks import ValidateTask

__all__ = ["validate"]


@app.command()
@pipe_safe
@batch_command
def validate(
    inputs: BatchOptions,
    output_format: Annotated[
        OutputFormat,
        typer.Option(
            "--format",
            help="text: file:line:col: severity CODE message; json: one object per line.",
        ),
    ] = OutputFormat.text,
    select: Annotated[
        list[str] | None,
        typer.Option(help="Only these codes or prefixes (repeatable, comma-separated)."),
    ] = None,
    ignore: Annotated[list[str] | None, typer.Option(help="Skip these codes or prefixes.")] = None,
) -> None:
    """Check every board against the PBN standard and the Laws; print each finding."""
    task = ValidateTask(
        output_format, frozenset(parse_codes(select)), frozenset(parse_codes(ignore))
    )
    batch = Batch(inputs, task)
    write_chunks(batch)
    raise typer.Exit(batch.finish())
