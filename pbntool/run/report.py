"""The one owner of a run's counts, its summary and its exit code.

Every command counts what it read and found in a ``Tally`` — the batch engine chunk by chunk,
the commands that read record by record (``show``, ``dd``, ``score``'s event path) record by
record, ``fix`` input by input — and ends with ``Tally.finish``: the summary on stderr (a
line of counts, then a short table of the most frequent codes, or everything as one JSON
object with ``--summary-json``) and the exit code, by one rule:

- 0 (``EXIT_OK``): nothing at or above ``fail_on``;
- 1 (``EXIT_FINDINGS``): findings at or above ``fail_on`` (default: errors), ``--max-errors``
  reached, or ``fix --check`` with changes to make;
- 2 (``EXIT_UNREADABLE``): usage errors, an input (or part of one) that could not be read, an
  output not written;
- 130 (``EXIT_INTERRUPTED``) on Ctrl-C, 141 (``EXIT_CLOSED_PIPE``) when stdout is closed early.
"""

from __future__ import annotations

import json
import signal
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TextIO

from pbntool.diagnostics import CATALOGUE, OUTPUT_CODES, Diagnostic, Severity, is_unreadable

if TYPE_CHECKING:
    from pbntool.records import Record

__all__ = [
    "EXIT_CLOSED_PIPE",
    "EXIT_FINDINGS",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "TOP_CODES",
    "Tally",
    "plural",
]

EXIT_OK, EXIT_FINDINGS, EXIT_UNREADABLE = 0, 1, 2
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE

TOP_CODES = 8
"""Rows of the summary's table of codes; ``--summary-json`` has them all."""
_TITLE_WIDTH = 64
_SEVERITIES = (Severity.ERROR, Severity.WARNING, Severity.INFO)


class Counted(Protocol):
    """What the batch engine hands back per chunk (``pbntool.run.tasks.Chunk``)."""

    @property
    def records(self) -> int: ...
    @property
    def boards(self) -> int: ...
    @property
    def findings(self) -> Sequence[tuple[str, int, bool]]: ...


@dataclass
class Tally:
    """What a run read, found, changed and could not do."""

    fail_on: Severity = Severity.ERROR
    inputs: int = 0
    records: int = 0
    boards: int = 0
    by_severity: Counter[int] = field(default_factory=Counter)
    by_code: Counter[tuple[str, int]] = field(default_factory=Counter)
    unreadable: int = 0
    """Inputs, or parts of one, that could not be read."""
    unwritten: int = 0
    """Outputs refused or failed (ARC007)."""
    stopped: bool = False
    """``--max-errors`` was reached."""
    fixing: bool = False
    """A ``fix`` run: its first summary line counts changes."""
    changes: int = 0
    changed_inputs: int = 0
    refused: int = 0
    """Changes ``fix`` would make but could not (FIX011)."""
    changes_fail: bool = False
    """``fix --check``: a change to make is a failure (exit 1)."""
    started: float = field(default_factory=time.perf_counter)

    # --- counting ---------------------------------------------------------------------

    def add(self, chunk: Counted) -> None:
        """Count a chunk of the batch engine's output."""
        self.records += chunk.records
        self.boards += chunk.boards
        for code, severity, unread in chunk.findings:
            self.add_finding(code, severity, unread)

    def add_finding(self, code: str, severity: int, unread: bool) -> None:
        self.by_severity[severity] += 1
        self.by_code[code, severity] += 1
        if unread and code in OUTPUT_CODES:
            self.unwritten += 1
        elif unread:
            self.unreadable += 1

    def count_diagnostic(self, diagnostic: Diagnostic) -> None:
        self.add_finding(diagnostic.code, int(diagnostic.severity), is_unreadable(diagnostic))

    def count(self, record: Record, diagnostics: Iterable[Diagnostic]) -> None:
        """Count one record read (a board or not) and the findings shown for it."""
        self.records += 1
        if record.board is not None:
            self.boards += 1
        for diagnostic in diagnostics:
            self.count_diagnostic(diagnostic)

    def severity_count(self, severity: Severity) -> int:
        return self.by_severity[int(severity)]

    # --- the exit code ------------------------------------------------------------------

    def exit_code(self) -> int:
        if self.unreadable or self.unwritten:
            return EXIT_UNREADABLE
        failing = sum(n for severity, n in self.by_severity.items() if severity >= self.fail_on)
        if failing or self.stopped or (self.changes_fail and self.changes):
            return EXIT_FINDINGS
        return EXIT_OK

    # --- the summary --------------------------------------------------------------------

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started

    def summary_lines(self, note: str = "") -> list[str]:
        """The counts (and the command's ``note`` on them), then the most frequent codes as
        a table (code, count, title)."""
        lines = [self._counts_line() + note]
        lines.extend(self._code_table())
        if self.stopped:
            errors = self.severity_count(Severity.ERROR)
            lines.append(f"pbntool: stopped after {errors} errors (--max-errors)")
        return lines

    def summary(self, note: str = "") -> str:
        return "\n".join(self.summary_lines(note))

    def summary_json(self) -> str:
        by_code: dict[str, dict[str, int]] = {}
        for (code, severity), count in sorted(self.by_code.items()):
            by_code.setdefault(Severity(severity).label, {})[code] = count
        summary: dict[str, object] = {
            "inputs": self.inputs,
            "records": self.records,
            "boards": self.boards,
            "errors": self.severity_count(Severity.ERROR),
            "warnings": self.severity_count(Severity.WARNING),
            "info": self.severity_count(Severity.INFO),
            "unreadable": self.unreadable,
            "not_written": self.unwritten,
            "by_code": by_code,
            "stopped": self.stopped,
        }
        if self.fixing:
            summary |= {
                "changes": self.changes,
                "changed_inputs": self.changed_inputs,
                "not_made": self.refused,
            }
        summary |= {"seconds": round(self.seconds, 3), "exit_code": self.exit_code()}
        return json.dumps(summary)

    def finish(
        self, stream: TextIO, *, quiet: bool = False, as_json: bool = False, note: str = ""
    ) -> int:
        """Write the summary (JSON, or text unless quiet, with the command's ``note`` on its
        counts) and return the exit code."""
        if as_json:
            stream.write(self.summary_json() + "\n")
        elif not quiet:
            stream.write(self.summary(note) + "\n")
        stream.flush()
        return self.exit_code()

    def _counts_line(self) -> str:
        read = f"pbntool: {plural(self.inputs, 'input')}, {plural(self.boards, 'board')}: "
        if self.fixing:
            refused = f", {self.refused} not made" if self.refused else ""
            changed = plural(self.changed_inputs, "input")
            return f"{read}{plural(self.changes, 'change')} in {changed}{refused}"
        counts = ", ".join(plural(self.severity_count(s), s.label) for s in _SEVERITIES)
        if self.unreadable:
            counts += f", {self.unreadable} unreadable"
        if self.unwritten:
            counts += f", {self.unwritten} not written"
        return f"{read}{counts} in {self.seconds:.2f} s"

    def _code_table(self) -> list[str]:
        """The ``TOP_CODES`` most frequent codes, worst first, one aligned row each."""
        ranked = sorted(self.by_code.items(), key=lambda item: (-item[0][1], -item[1], item[0][0]))
        if not ranked:
            return []
        shown = ranked[:TOP_CODES]
        width = len(str(max(count for _, count in shown)))
        rows = [
            f"  {Severity(severity).label:<7} {code:<7} {count:>{width}}  {_title(code)}"
            for (code, severity), count in shown
        ]
        if len(ranked) > len(shown):
            more = ranked[len(shown) :]
            findings = plural(sum(count for _, count in more), "finding")
            rows.append(
                f"  … and {plural(len(more), 'code')} more ({findings}): --summary-json lists all"
            )
        return rows


def _title(code: str) -> str:
    """The catalogue's one-line title of a code, short enough for the summary table."""
    known = CATALOGUE.get(code)
    title = known.summary if known else ""
    if len(title) <= _TITLE_WIDTH:
        return title
    return title[: _TITLE_WIDTH - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 or noun == "info" else "s")
