"""``pbntool score``: the duplicate score of every board, or an event scored with a method
(matchpoints, IMPs, Butler, cross-IMPs, board-a-match, total points, rubber, Chicago), or the
check of the scores the files state (``--check``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, TextIO

import typer

from pbntool.cli.common import (
    OutputFormat,
    app,
    batch_command,
    iter_batch_records,
    open_text_output,
    pipe_safe,
    print_diagnostic,
    write_chunks,
)
from pbntool.cli.manual import command
from pbntool.diagnostics import Diagnostic, Severity
from pbntool.formats.pbn.writer import PbnWriter
from pbntool.records import Record
from pbntool.run.batch import Batch, BatchOptions
from pbntool.run.report import Tally
from pbntool.run.tasks import ScoreTask
from pbntool.scoring.comparison import CrossAverage
from pbntool.scoring.matchpoints import MatchpointScale
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.scoring.vp import VpScale, read_scale_csv
from pbntool.tools.score.annotate import Keyed, annotate_boards, annotate_rubber_boards
from pbntool.tools.score.check import CheckOptions, check_event
from pbntool.tools.score.games import GameEntry, game_entry
from pbntool.tools.score.grouping import GroupBy
from pbntool.tools.score.listing import ScoreLine, score_record
from pbntool.tools.score.matches import (
    match_results,
    render_matches_json,
    render_matches_text,
    with_vp_tables,
)
from pbntool.tools.score.render import (
    render_json,
    render_rubbers_json,
    render_rubbers_text,
    render_text,
)
from pbntool.tools.score.run import ScoreRun, names_a_method, run_scores

__all__ = ["score"]


@dataclass(frozen=True, slots=True)
class _Io:
    """Where a run reads and writes."""

    inputs: BatchOptions
    output_format: ScoreFormat
    out: TextIO
    report: Tally
    quiet: bool


class ScoreFormat(StrEnum):
    """How scores are written."""

    text = "text"
    json = "json"
    pbn = "pbn"


class CrossOption(StrEnum):
    """How cross-IMPs are averaged."""

    total = "total"
    score = "score"
    comparison = "comparison"


_CROSS = {
    CrossOption.total: CrossAverage.TOTAL,
    CrossOption.score: CrossAverage.PER_SCORE,
    CrossOption.comparison: CrossAverage.PER_COMPARISON,
}

MethodOption = Annotated[
    Method | None,
    typer.Option(
        "--method",
        "-m",
        case_sensitive=False,
        help="Scoring method (default: each event's Scoring tag, else duplicate scores).",
    ),
]


@command(app)
@pipe_safe
@batch_command
def score(
    inputs: BatchOptions,
    method: MethodOption = None,
    group_by: Annotated[
        GroupBy,
        typer.Option(
            "--group-by", case_sensitive=False, help="How results of one board are found."
        ),
    ] = GroupBy.AUTO,
    output_format: Annotated[
        ScoreFormat,
        typer.Option("--format", case_sensitive=False, help="text table, JSON lines or PBN."),
    ] = ScoreFormat.text,
    check: Annotated[
        bool, typer.Option("--check", help="Check the scores the files state (EVT diagnostics).")
    ] = False,
    tolerance: Annotated[
        float | None,
        typer.Option(help="--check: allowed difference (default: the stated value's precision)."),
    ] = None,
    scale: Annotated[
        MatchpointScale | None,
        typer.Option(
            "--scale",
            case_sensitive=False,
            help="Matchpoints: MP1 (2/1) or MP2 (1/½).",
            show_default="mp1",
        ),
    ] = None,
    neuberg: Annotated[
        bool, typer.Option(help="Matchpoints: Neuberg's formula for boards with fewer results.")
    ] = True,
    discard: Annotated[
        int, typer.Option(min=0, help="Butler: extreme scores left out at each end of the datum.")
    ] = 1,
    cross: Annotated[
        CrossOption,
        typer.Option(
            case_sensitive=False,
            help="Cross-IMPs: the total, or averaged per score or per comparison.",
        ),
    ] = CrossOption.comparison,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", help="Write here instead of stdout.", show_default="stdout"),
    ] = None,
    vp: Annotated[
        str | None,
        typer.Option(
            "--vp",
            help="Team matches to victory points: wbf (continuous 2013), wbf-discrete, or a "
            "CSV file of imps_from,vp_winner rows; with standings per round and in total. "
            "With --check: the scale the stated VPs are checked on (default: the WBF scale "
            "that explains them).",
        ),
    ] = None,
) -> None:
    """Rescore every board, score an event with a method, or check the stated scores.

    Without --method and without a Scoring tag naming one, each board's duplicate score is
    listed beside the score its file states (as JSON lines with --format json).  An event is
    scored with the method its Scoring tag names, or --method: matchpoints, IMPs, Butler,
    cross-IMPs, board-a-match, total points, rubber or Chicago; the results of one board are
    found across games and files (--group-by), and the standings written as a table, JSON
    lines or PBN.  --check compares the scores, travellers and standings the files state
    with pbntool's (EVT findings).  Event scoring and --check read every input in one
    process before they write; --method duplicate streams, in parallel with -j.

    Inputs: {inputs}; the results of one event may be spread over several files.

    Examples:
        pbntool score fixtures/sample/event.pbn
            Score the event with the method its Scoring tag names (matchpoints here).
        pbntool score --check fixtures/sample/event.pbn
            Check the scores the file states against pbntool's; exit 1 if one differs.

    Exit 1: findings at or above --fail-on (errors by default; with --check, a stated
    score, traveller or standing that differs), or --max-errors reached.
    """
    if method is Method.DUPLICATE and output is None and output_format is not ScoreFormat.pbn:
        _parallel_listing(inputs, output_format)
    spec = None
    if method is not None:
        spec = ScoringSpec(
            method,
            scale=scale or MatchpointScale.MP1,
            neuberg=neuberg,
            discard=discard,
            cross=_CROSS[cross],
        )
    vp_scale = _vp_scale(vp)
    report = Tally(inputs.fail_on)
    quiet = inputs.quiet
    with ExitStack() as stack:
        out = open_text_output(stack, output, inputs.input_files())
        io = _Io(inputs, output_format, out, report, quiet)
        if check:
            _check(io, CheckOptions(spec, group_by, tolerance, vp_scale))
        elif method is Method.DUPLICATE:
            _duplicate_listing(io)
        else:
            _event(io, spec, group_by, vp_scale)
        out.flush()
    if not quiet:
        typer.echo(report.summary(), err=True)
    raise typer.Exit(report.exit_code())


def _parallel_listing(inputs: BatchOptions, output_format: ScoreFormat) -> None:
    """The duplicate listing, board by board as the workers score them (``-j``)."""
    form = OutputFormat.json if output_format is ScoreFormat.json else OutputFormat.text
    batch = Batch(inputs, ScoreTask(form, inputs.quiet))
    if form is OutputFormat.text:
        sys.stdout.write(ScoreLine.header() + "\n")
    write_chunks(batch)
    raise typer.Exit(batch.finish())


def _records(io: _Io) -> Iterator[Record]:
    """Every record, streamed: counted, its reader errors printed on stderr."""
    for record in iter_batch_records(io.inputs, io.report):
        io.report.count(record, record.diagnostics)
        _print_errors(record.diagnostics, io.quiet)
        yield record


def _print_errors(diagnostics: tuple[Diagnostic, ...] | list[Diagnostic], quiet: bool) -> None:
    if quiet:
        return
    for diagnostic in diagnostics:
        if diagnostic.severity >= Severity.ERROR:
            print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)


# --- the duplicate listing --------------------------------------------------------------------


def _duplicate_listing(io: _Io) -> None:
    """Streamed: one line per board as it is read (``--format pbn`` rewrites the boards)."""
    writer = PbnWriter(io.out) if io.output_format is ScoreFormat.pbn else None
    if io.output_format is ScoreFormat.text:
        io.out.write(ScoreLine.header() + "\n")
    for record in _records(io):
        if writer is not None:
            if record.board is not None:
                writer.write(record.board, record.file)
            continue
        line = score_record(record)
        if line is not None:
            _write_line(line, io.output_format, io.out)
    if writer is not None:
        writer.close()


def _write_line(line: ScoreLine, output_format: ScoreFormat, out: TextIO) -> None:
    out.write(json.dumps(line.to_dict()) if output_format is ScoreFormat.json else line.text())
    out.write("\n")


# --- events --------------------------------------------------------------------------------------


def _vp_scale(name: str | None) -> VpScale | None:
    """The ``--vp`` scale: a WBF scale by name, else a CSV file (a bad one stops the run)."""
    if name is None:
        return None
    if name.lower() in ("wbf", "wbf-discrete"):
        return VpScale(name.lower())
    try:
        return read_scale_csv(Path(name))
    except (OSError, ValueError) as error:
        raise typer.BadParameter(f"{name}: {error}", param_hint="--vp") from error


def _write_matches(io: _Io, games: list[GameEntry], scale: VpScale, group_by: GroupBy) -> None:
    matches = match_results(games, scale, group_by)
    if io.output_format is ScoreFormat.json:
        for row in render_matches_json(matches, scale):
            io.out.write(json.dumps(row) + "\n")
        return
    for text in render_matches_text(matches, scale):
        io.out.write(text + "\n")


def _event(
    io: _Io, spec: ScoringSpec | None, group_by: GroupBy, scale: VpScale | None = None
) -> None:
    """Read everything, then score each event with its method; with no method anywhere, the
    duplicate listing as ``_duplicate_listing`` writes it.  With a VP scale, the team matches
    converted to VPs and the standings follow."""
    games: list[GameEntry] = []
    lines: list[ScoreLine] = []
    boards: list[Keyed] = []
    for record in _records(io):
        entry = game_entry(record)
        if entry is None or record.board is None:
            continue
        games.append(entry)
        if io.output_format is ScoreFormat.pbn:
            boards.append((entry.key, record.board))
        line = score_record(record)
        if line is not None and spec is None:
            lines.append(line)
    if scale is not None and io.output_format is not ScoreFormat.pbn:
        _write_matches(io, games, scale, group_by)
        return
    if spec is None and not names_a_method(games, group_by) and scale is None:
        _write_listing(lines, boards, io)
        return
    run = run_scores(games, spec, group_by)
    if run.scores is not None and not io.quiet:
        for diagnostic in run.scores.diagnostics:
            print_diagnostic(diagnostic, OutputFormat.text, sys.stderr)
    _write_run(run, boards, io, None if scale is None else (games, scale, group_by))


def _write_listing(lines: list[ScoreLine], boards: list[Keyed], io: _Io) -> None:
    """No method anywhere: today's duplicate listing (the boards unchanged for PBN)."""
    if io.output_format is ScoreFormat.pbn:
        _write_boards(boards, io.out)
        return
    if io.output_format is ScoreFormat.text:
        io.out.write(ScoreLine.header() + "\n")
    for line in lines:
        _write_line(line, io.output_format, io.out)


def _write_boards(boards: Iterable[Keyed], out: TextIO) -> None:
    writer = PbnWriter(out)
    for _, board in boards:
        writer.write(board)
    writer.close()


def _write_run(
    run: ScoreRun,
    boards: list[Keyed],
    io: _Io,
    vp: tuple[list[GameEntry], VpScale, GroupBy] | None = None,
) -> None:
    if io.output_format is ScoreFormat.pbn:
        annotated: Iterable[Keyed] = boards
        if run.scores is not None:
            annotated = annotate_boards(annotated, run.scores)
        if vp is not None:
            games, scale, group_by = vp
            annotated = with_vp_tables(annotated, match_results(games, scale, group_by), scale)
        for kind, sessions in run.rubbers:
            annotated = annotate_rubber_boards(annotated, sessions, kind)
        _write_boards(annotated, io.out)
        return
    as_json = io.output_format is ScoreFormat.json
    if run.scores is not None:
        for text in render_json(run.scores) if as_json else render_text(run.scores):
            io.out.write(text + "\n")
    for kind, sessions in run.rubbers:
        rendered = render_rubbers_json if as_json else render_rubbers_text
        for text in rendered(sessions, kind):
            io.out.write(text + "\n")


# --- --check -------------------------------------------------------------------------------------


def _check(io: _Io, options: CheckOptions) -> None:
    """The findings on stdout (text, or JSON with --format json), a summary per file on
    stderr; the exit code is 1 when a stated value disagrees (an error)."""
    found = check_event(_records(io), options)
    form = OutputFormat.json if io.output_format is ScoreFormat.json else OutputFormat.text
    for diagnostic in found.diagnostics:
        print_diagnostic(diagnostic, form, io.out)
        io.report.count_diagnostic(diagnostic)
    if not io.quiet:
        for summary in found.summaries:
            if summary.checked:
                typer.echo(summary.text(), err=True)
