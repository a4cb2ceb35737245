"""``pbntool fix``: fill in or correct what a record determines, with minimal edits.

What is derived is format-independent (``derive``: Dealer, Vulnerable, the fourth hand,
Contract, Declarer, Result, Score; ``notes``: note numbering; ``event``: the hook for
ScoreMP/ScoreIMP/ScorePercentage).  Where it goes is the format's business: each format's spec
(``pbntool.formats.SPECS``) names its fixer, looked up like its reader.  PBN has one
(``pbntool.tools.fix.pbn``); an input of a format without one gets FIX012 and is left as it was.
A LIN fixer would be a function of the same shape as ``fix_pbn``, named in LIN's spec.

>>> import io
>>> text = b'[Board "2"]\\n[Deal "N:AKQJ.T98.765.432 - - -"]\\n'
>>> out = io.BytesIO()
>>> result = fix_bytes(text, "x.pbn", out)
>>> out.getvalue().decode()
'[Board "2"]\\n[Dealer "E"]\\n[Vulnerable "NS"]\\n[Deal "N:AKQJ.T98.765.432 - - -"]\\n'
>>> [d.code for d in result.diagnostics]
['FIX001', 'FIX002']
"""

from __future__ import annotations

import io
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import BinaryIO, Protocol

from pbntool.diagnostics import (
    FIX012,
    INT001,
    SRC003,
    SRC007,
    Diagnostic,
    Severity,
    is_unreadable,
)
from pbntool.formats import Format, detect_format, load, spec_of
from pbntool.tools.fix.derive import VALUE_TAGS, ValueFix, derive_fixes
from pbntool.tools.fix.event import (
    EVENT_TAGS,
    EventScores,
    EventScoreSource,
    SideValues,
    event_fixes,
)
from pbntool.tools.fix.forms import ScoreForm, ScoreFormKind
from pbntool.tools.fix.notes import Renumbering, renumber

__all__ = [
    "DEFAULT_OPTIONS",
    "EVENT_TAGS",
    "FIXABLE_TAGS",
    "VALUE_TAGS",
    "EventScoreSource",
    "EventScores",
    "FixOptions",
    "FixResult",
    "Fixer",
    "Renumbering",
    "Report",
    "ScoreForm",
    "ScoreFormKind",
    "SideValues",
    "ValueFix",
    "derive_fixes",
    "event_fixes",
    "fix_bytes",
    "fix_input",
    "renumber",
]

FIXABLE_TAGS: tuple[str, ...] = (*VALUE_TAGS, "Note", *EVENT_TAGS)
"""The tags ``fix`` may change (``--only`` takes a subset)."""


@dataclass(frozen=True, slots=True)
class FixOptions:
    """What to fix: ``only`` these tags; ``event_scores`` supplies ScoreMP/ScoreIMP/
    ScorePercentage values from the event's scoring (see ``pbntool.tools.fix.event``)."""

    only: frozenset[str] = frozenset(FIXABLE_TAGS)
    event_scores: EventScoreSource | None = None


Report = Callable[[Diagnostic], None]
"""Where findings go as they are made (so that memory does not grow with their number)."""


@dataclass
class FixResult:
    """What fixing one input did: every change (and refusal) as a diagnostic.

    ``diagnostics`` holds them when no ``report`` function was given to ``fix_input``; the
    counts are kept either way.
    """

    name: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    boards: int = 0
    changes: int = 0
    refused: int = 0
    """Changes fix would make but could not (FIX011)."""
    errors: int = 0
    """Error findings: an input fix does not edit (FIX012), or of no known format."""
    failed: int = 0
    """Inputs (or parts of one) not read, or a bug stopped (INT001), or output not written."""
    fixed: bool = True
    """False when the input was not fixed at all (unreadable, or not PBN)."""
    report: Report | None = field(default=None, repr=False, compare=False)

    @property
    def changed(self) -> bool:
        """True when the output differs from the input."""
        return self.changes > 0

    def add(self, diagnostic: Diagnostic) -> None:
        """Count a finding and pass it on (or keep it)."""
        if diagnostic.code == "FIX011":
            self.refused += 1
        if is_unreadable(diagnostic):
            self.failed += 1
        elif diagnostic.severity >= Severity.ERROR:
            self.errors += 1
        if self.report is not None:
            self.report(diagnostic)
        else:
            self.diagnostics.append(diagnostic)


class Fixer(Protocol):
    """A format's fixer: like ``pbntool.tools.fix.pbn.fix_pbn``."""

    def __call__(
        self,
        open_input: Callable[[], BinaryIO],
        name: str,
        out: BinaryIO | None,
        *,
        only: frozenset[str],
        event_scores: EventScoreSource | None,
        report: Report,
    ) -> tuple[int, int]: ...


DEFAULT_OPTIONS = FixOptions()
"""Every tag of ``FIXABLE_TAGS``, no event scores."""


def fixer_for(form: Format) -> Fixer | None:
    """The fixer of a format (its spec's ``fixer``), or None when ``fix`` does not edit it."""
    target = spec_of(form).fixer
    if target is None:
        return None
    fixer: Fixer = load(target)  # type: ignore[assignment]
    return fixer


def fix_input(
    opener: Callable[[], BinaryIO],
    name: str,
    out: BinaryIO | None,
    options: FixOptions = DEFAULT_OPTIONS,
    report: Report | None = None,
) -> FixResult:
    """Fix one input whose bytes ``opener`` gives (from the start, each time it is called),
    writing the fixed bytes to ``out`` (None for a dry run).  Findings go to ``report`` as
    they are made, in file order, else into the result's ``diagnostics``.

    Never raises for bad input: an input of another format gets FIX012, one that cannot be
    read SRC003, one of no format SRC007.  ``out`` is left untouched in those cases.
    """
    result = FixResult(name, report=report)
    try:
        with opener() as stream:
            head = stream.read(1 << 16)
    except OSError as error:
        return _failed(result, _unreadable(error, name))
    form = detect_format(head, name)
    if form is None:
        return _failed(result, _at_start(SRC007.at(), name))
    fixer = fixer_for(form)
    if fixer is None:
        return _failed(result, _at_start(FIX012.at(format=form.value.upper()), name))
    try:
        result.boards, result.changes = fixer(
            opener,
            name,
            out,
            only=options.only,
            event_scores=options.event_scores,
            report=result.add,
        )
    except OSError as error:
        return _failed(result, _unreadable(error, name))
    except Exception as error:  # a bug of ours must cost one input, not the batch
        detail = traceback.format_exception_only(error)[-1].strip()
        problem = INT001.at(skipped="this input (left as it was)", error=detail)
        # About the whole input, as read_input says it: an input not fixed is exit 2.
        return _failed(result, Diagnostic(problem.code, problem.severity, problem.message, name))
    return result


def _failed(result: FixResult, diagnostic: Diagnostic) -> FixResult:
    result.fixed = False
    result.add(diagnostic)
    return result


def _unreadable(error: OSError, name: str) -> Diagnostic:
    problem = SRC003.at(reason=error.strerror or str(error))
    return Diagnostic(problem.code, problem.severity, problem.message, name)


def fix_bytes(
    data: bytes,
    name: str,
    out: BinaryIO | None,
    options: FixOptions = DEFAULT_OPTIONS,
    report: Report | None = None,
) -> FixResult:
    """``fix_input`` for bytes in memory."""
    return fix_input(lambda: io.BytesIO(data), name, out, options, report)


def only_tags(names: Iterable[str]) -> frozenset[str]:
    """``--only`` names (case-insensitive) as tag names; ``ValueError`` names the unknown."""
    by_lower = {tag.lower(): tag for tag in FIXABLE_TAGS}
    chosen = set()
    for name in names:
        tag = by_lower.get(name.strip().lower())
        if tag is None:
            known = ", ".join(FIXABLE_TAGS)
            raise ValueError(f"fix cannot change {name.strip()!r}; it changes {known}")
        chosen.add(tag)
    return frozenset(chosen)


def _at_start(diagnostic: Diagnostic, name: str) -> Diagnostic:
    return Diagnostic(diagnostic.code, diagnostic.severity, diagnostic.message, name, 1, 1)
