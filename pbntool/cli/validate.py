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
from pbntool.cli.manual import command
from pbntool.run.batch import Batch, BatchOptions
from pbntool.run.tasks import ValidateTask

__all__ = ["validate"]


@command(app)
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
        typer.Option(
            help="Only these codes or prefixes (repeatable, comma-separated).",
            show_default="every code",
        ),
    ] = None,
    ignore: Annotated[list[str] | None, typer.Option(help="Skip these codes or prefixes.")] = None,
) -> None:
    """Check every board against the PBN standard and the Laws; print each finding.

    Each input is read board by board and checked: the syntax of its format, the deal (52
    cards, 13 in each hand), the auction, the contract and declarer, the play (cards held,
    revokes, the opening lead), the result and the score.  Each finding is one line on
    stdout, file:line:column: severity CODE message, with a stable code (docs/diagnostics.md
    lists them all, with the ten most common and the fix for each); a summary goes to stderr.
    Large inputs are cut into parts and checked on every core (-j); the output is the same.

    Inputs: {inputs}.

    Examples:
        pbntool validate fixtures/sample/
            Check every file of a folder; nothing printed and exit 0 when all is well.
        pbntool validate --format json --fail-on warning fixtures/sample/event.pbn
            One JSON object per finding (for jq or pandas); warnings fail the run too.

    Exit 1: findings at or above --fail-on (errors by default), or --max-errors reached.
    """
    task = ValidateTask(
        output_format, frozenset(parse_codes(select)), frozenset(parse_codes(ignore))
    )
    batch = Batch(inputs, task)
    write_chunks(batch)
    raise typer.Exit(batch.finish())
