"""``pbntool stats``: a summary of many boards, as a text report or one JSON object."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from pbntool.cli.common import OutputFormat, app, batch_command, pipe_safe
from pbntool.cli.manual import command
from pbntool.run.batch import Batch, BatchOptions
from pbntool.run.tasks import StatsTask
from pbntool.tools.stats import RecordSummary, Statistics

__all__ = ["stats"]


@command(app)
@pipe_safe
@batch_command
def stats(
    inputs: BatchOptions,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="A text report or one JSON object.")
    ] = OutputFormat.text,
) -> None:
    """Summarise boards: findings by code, contracts by strain and level, make and down
    rates, declarers, average score, passed-out boards and the producing programs.

    One report for all the inputs together, as text or one JSON object, counted in parallel
    with -j.

    Inputs: {inputs}.

    Examples:
        pbntool stats fixtures/sample/
            The summary of every board in a folder.
        pbntool stats --format json fixtures/sample/event.pbn
            The same summary as one JSON object.

    Exit 1: findings at or above --fail-on (errors by default), or --max-errors reached.
    """
    batch = Batch(inputs, StatsTask(inputs.quiet))
    statistics = Statistics()
    for _source, chunk in batch:
        if chunk.err:
            sys.stderr.write(chunk.err)
        if isinstance(chunk.payload, RecordSummary):
            statistics.add(chunk.payload)
    statistics.inputs = batch.tally.inputs
    out = sys.stdout
    if output_format is OutputFormat.json:
        out.write(json.dumps(statistics.to_dict(), ensure_ascii=False) + "\n")
    else:
        out.write(statistics.text())
    out.flush()
    raise typer.Exit(batch.finish())
