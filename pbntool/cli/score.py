"""``pbntool score``: every board rescored beside the score its file states."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from pbntool.batch import Batch, BatchOptions
from pbntool.cli.common import OutputFormat, app, batch_command, pipe_safe, write_chunks
from pbntool.scoring_report import ScoreLine
from pbntool.tasks import ScoreTask

__all__ = ["score"]


@app.command()
@pipe_safe
@batch_command
def score(
    inputs: BatchOptions,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="text table or JSON lines.")
    ] = OutputFormat.text,
) -> None:
    """Rescore every board (duplicate) and show it beside the score the file states."""
    batch = Batch(inputs, ScoreTask(output_format, inputs.quiet))
    if output_format is OutputFormat.text:
        sys.stdout.write(ScoreLine.header() + "\n")
    write_chunks(batch)
    raise typer.Exit(batch.finish())
