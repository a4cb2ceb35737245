"""``pbntool fix``: fill in or correct what each record determines, with minimal edits.

Where the fixed bytes go: ``--in-place`` (each file replaced atomically, and only when
something changed), ``-o OUT`` (a file, or a directory for several inputs), else stdout
(one input).  ``--dry-run`` writes nothing and ``--diff`` prints a unified diff instead of
the fixed text.  Each change is a FIX diagnostic; they go to stdout when the fixed text does
not, else to stderr.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, BinaryIO

import typer

from pbntool.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_UNREADABLE,
    OutputFormat,
    Paths,
    app,
    pipe_safe,
    plural,
    print_diagnostic,
)
from pbntool.diagnostics import Diagnostic
from pbntool.formats import read_input
from pbntool.text.inputs import Input, iter_inputs

if TYPE_CHECKING:
    from pbntool.tools.fix import FixOptions, FixResult, Report

__all__ = ["fix"]

# pbntool.tools.fix is imported when the command runs, so that the other commands do not pay for
# it at start-up; tests/test_fix_cli.py checks this list against pbntool.tools.fix.VALUE_TAGS.
TAG_LIST = "Dealer, Vulnerable, Deal, Contract, Declarer, Result, Score, Note"

OnlyOption = Annotated[
    list[str] | None,
    typer.Option(help=f"Change only these tags (repeatable, comma-separated): {TAG_LIST}."),
]
SkipOption = Annotated[
    list[str] | None,
    typer.Option(help="Do not change these tags (repeatable, comma-separated)."),
]


@dataclass
class _Tally:
    """What the run did, for the summary line and the exit code."""

    inputs: int = 0
    boards: int = 0
    changes: int = 0
    changed_inputs: int = 0
    refused: int = 0
    failed: int = 0
    """Inputs that could not be read, or were written nowhere because of a problem."""
    errors: int = 0

    def add(self, result: FixResult) -> None:
        self.boards += result.boards
        self.changes += result.changes
        self.changed_inputs += result.changed
        self.refused += result.refused
        self.failed += result.failed
        self.errors += result.errors

    def summary(self) -> str:
        refused = f", {self.refused} not made" if self.refused else ""
        changed = plural(self.changed_inputs, "input")
        return (
            f"pbntool: {plural(self.inputs, 'input')}, {plural(self.boards, 'board')}: "
            f"{plural(self.changes, 'change')} in {changed}{refused}"
        )


@dataclass(frozen=True, slots=True)
class _Plan:
    """Where each input's fixed bytes go."""

    in_place: bool
    output: Path | None
    into_directory: bool
    to_stdout: bool
    diff: bool
    roots: tuple[Path, ...]
    """Directories named on the command line (their inputs keep their path below -o DIR)."""


@app.command()
@pipe_safe
def fix(
    paths: Paths,
    in_place: Annotated[
        bool, typer.Option("--in-place", "-i", help="Rewrite each file (only if it changes).")
    ] = False,
    output: Annotated[
        str | None,
        typer.Option(
            "--output", "-o", help="Write here: a file, or a directory (DIR/) for several."
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", "-n", help="Write nothing; list what would change.")
    ] = False,
    diff: Annotated[
        bool, typer.Option("--diff", help="Print a unified diff instead of the fixed text.")
    ] = False,
    only: OnlyOption = None,
    skip: SkipOption = None,
    output_format: Annotated[
        OutputFormat, typer.Option("--format", help="How changes are listed.")
    ] = OutputFormat.text,
    event: Annotated[
        bool,
        typer.Option(
            "--event",
            help="Also fill ScoreMP, ScoreIMP and ScorePercentage from scoring each event "
            "(with the method its Scoring tag names) over all the inputs.",
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary line.")] = False,
) -> None:
    """Fill in or correct what each PBN record determines; change nothing else.

    Dealer, Vulnerable, the fourth hand, Contract, Declarer, Result, Score, notes.

    Changes are listed as FIX findings; see docs/fix.md.

    --dry-run, or --diff alone: write nothing; exit 1 if a change is due.
    """
    from pbntool.tools.fix import FixOptions

    paths = paths or []
    if not paths:
        raise typer.BadParameter("give the files to fix (or - for stdin)", param_hint="PATH")
    sources = list(iter_inputs(paths))
    options = FixOptions(only=_chosen_tags(only, skip))
    if event:
        if "-" in paths:
            raise typer.BadParameter("--event reads its inputs twice: not stdin", param_hint="-")
        from pbntool.tools.fix.from_event import event_score_source

        records = (record for source in sources for record in read_input(source))
        options = FixOptions(only=options.only, event_scores=event_score_source(records))
    plan = _plan(sources, paths, in_place, output, dry_run, diff)
    checking = (dry_run or diff) and not in_place and output is None
    # Changes are listed on stdout unless the fixed text or the diff goes there.
    listed = sys.stderr if plan.to_stdout or diff else sys.stdout
    tally = _Tally()

    def report(diagnostic: Diagnostic) -> None:
        print_diagnostic(diagnostic, output_format, listed)

    for source in sources:
        tally.inputs += 1
        tally.add(_fix_one(source, options, plan, report))
    listed.flush()
    if not quiet:
        typer.echo(tally.summary(), err=True)
    if tally.failed:
        raise typer.Exit(EXIT_UNREADABLE)
    if tally.errors or (checking and tally.changes):
        raise typer.Exit(EXIT_FINDINGS)
    raise typer.Exit(EXIT_OK)


def _chosen_tags(only: list[str] | None, skip: list[str] | None) -> frozenset[str]:
    from pbntool.tools.fix import FIXABLE_TAGS, only_tags

    try:
        chosen = only_tags(_names(only)) if only else frozenset(FIXABLE_TAGS)
        skipped = only_tags(_names(skip)) if skip else frozenset()
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--only/--skip") from None
    return chosen - skipped


def _names(option: list[str]) -> list[str]:
    return [name.strip() for item in option for name in item.split(",") if name.strip()]


def _plan(
    sources: list[Input],
    paths: list[str],
    in_place: bool,
    output_text: str | None,
    dry_run: bool,
    diff: bool,
) -> _Plan:
    output = Path(output_text) if output_text else None
    if in_place and output is not None:
        raise typer.BadParameter("give --in-place or --output, not both", param_hint="--in-place")
    if dry_run and (in_place or output is not None):
        raise typer.BadParameter("--dry-run writes nothing", param_hint="--dry-run")
    if in_place and "-" in paths:
        raise typer.BadParameter("stdin cannot be fixed in place", param_hint="--in-place")
    to_stdout = not (in_place or output is not None or dry_run or diff)
    if to_stdout and len(sources) > 1:
        raise typer.BadParameter(
            "several inputs: give --in-place, --output DIR, --dry-run or --diff",
            param_hint="PATH",
        )
    roots = tuple(Path(path) for path in paths if path != "-" and Path(path).is_dir())
    # A directory: one that exists or is named with a trailing slash, or several inputs.
    named_dir = output_text is not None and output_text.endswith(("/", os.sep))
    into_directory = output is not None and (
        named_dir or output.is_dir() or len(sources) > 1 or bool(roots)
    )
    return _Plan(in_place, output, into_directory, to_stdout, diff, roots)


def _fix_one(source: Input, options: FixOptions, plan: _Plan, report: Report) -> FixResult:
    from pbntool.tools.fix import FixResult, fix_input
    from pbntool.tools.fix.files import fix_in_place, fix_to_path, unified_diff

    if source.problem is not None:
        result = FixResult(source.name, fixed=False, report=report)
        result.add(source.problem)
        return result
    opener = _opener(source)
    before = _read_all(opener) if plan.diff else None
    after: bytes | None = None
    if plan.in_place and source.path is not None:
        result = fix_in_place(source.path, options, report)
        after = source.path.read_bytes() if plan.diff and result.fixed else None
    elif plan.output is not None:
        target = _target(source, plan)
        result = fix_to_path(opener, source.name, target, options, report)
        after = target.read_bytes() if plan.diff and result.fixed else None
    elif plan.to_stdout:
        result = fix_input(opener, source.name, sys.stdout.buffer, options, report)
        sys.stdout.buffer.flush()
    else:
        fixed = io.BytesIO() if plan.diff else None
        result = fix_input(opener, source.name, fixed, options, report)
        after = fixed.getvalue() if fixed is not None and result.fixed else None
    if before is not None and after is not None:
        for line in unified_diff(before, after, source.name):
            sys.stdout.write(line + "\n")
    return result


def _opener(source: Input) -> Callable[[], BinaryIO]:
    """Opens the input from its start, as often as fix needs (stdin is read once)."""
    path = source.path
    if path is None:
        # stdin (already sniffed: source.open() replays it) or an archive member: read once.
        with source.open() as stream:
            data = stream.read()
        return lambda: io.BytesIO(data)
    return lambda: open(path, "rb")


def _read_all(opener: Callable[[], BinaryIO]) -> bytes | None:
    try:
        with opener() as stream:
            return stream.read()
    except OSError:
        return None


def _target(source: Input, plan: _Plan) -> Path:
    """Where an input's fixed copy goes: ``-o`` itself, or a path inside it that keeps the
    input's path below the directory named on the command line."""
    assert plan.output is not None
    if not plan.into_directory:
        return plan.output
    if source.path is None:
        return plan.output / "stdin.pbn"
    for root in plan.roots:
        if source.path.is_relative_to(root):
            return plan.output / source.path.relative_to(root)
    return plan.output / source.path.name
