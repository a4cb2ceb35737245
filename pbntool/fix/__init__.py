"""``pbntool fix``: fill in or correct what a record determines, with minimal edits.

What is derived is format-independent (``derive``: Dealer, Vulnerable, the fourth hand,
Contract, Declarer, Result, Score; ``notes``: note numbering; ``event``: the hook for
ScoreMP/ScoreIMP/ScorePercentage).  Where it goes is the format's business: ``FIXERS`` names
each format's fixer, looked up like the readers in ``pbntool.formats.READERS``.  PBN has one
(``pbntool.fix.pbn``); an input of a format without one gets FIX012 and is left as it was.
A LIN fixer is a function of the same shape as ``fix_pbn`` registered under ``Format.LIN``.

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

import importlib
import io
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import BinaryIO, Protocol

from pbntool.diagnostics import FIX012, INT001, SRC003, SRC007, Diagnostic
from pbntool.fix.derive import VALUE_TAGS, ValueFix, derive_fixes
from pbntool.fix.event import EVENT_TAGS, EventScores, EventScoreSource, SideValues, event_fixes
from pbntool.fix.forms import ScoreForm, ScoreFormKind
from pbntool.fix.notes import Renumbering, renumber
from pbntool.formats import Format, detect_format
from pbntool.inputs import Input

__all__ = [
    "DEFAULT_OPTIONS",
    "EVENT_TAGS",
    "FIXABLE_TAGS",
    "FIXERS",
    "VALUE_TAGS",
    "EventScoreSource",
    "EventScores",
    "FixOptions",
    "FixResult",
    "Fixer",
    "Renumbering",
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
    ScorePercentage values from the event's scoring (see ``pbntool.fix.event``)."""

    only: frozenset[str] = frozenset(FIXABLE_TAGS)
    event_scores: EventScoreSource | None = None


@dataclass
class FixResult:
    """What fixing one input did: every change (and refusal) as a diagnostic."""

    name: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    boards: int = 0
    changes: int = 0
    fixed: bool = True
    """False when the input was not fixed at all (unreadable, or not PBN)."""

    @property
    def changed(self) -> bool:
        """True when the output differs from the input."""
        return self.changes > 0


class Fixer(Protocol):
    """A format's fixer: like ``pbntool.fix.pbn.fix_pbn``."""

    def __call__(
        self,
        open_input: Callable[[], BinaryIO],
        name: str,
        out: BinaryIO | None,
        *,
        only: frozenset[str],
        event_scores: EventScoreSource | None = None,
    ) -> tuple[list[Diagnostic], int, int]: ...


DEFAULT_OPTIONS = FixOptions()
"""Every tag of ``FIXABLE_TAGS``, no event scores."""

FIXERS: dict[Format, str] = {Format.PBN: "pbntool.fix.pbn:fix_pbn"}
"""``module:function`` of each format's fixer (imported on first use)."""


def fixer_for(form: Format) -> Fixer | None:
    """The fixer of a format, or None when ``fix`` does not edit that format."""
    target = FIXERS.get(form)
    if target is None:
        return None
    module, _, function = target.partition(":")
    fixer: Fixer = getattr(importlib.import_module(module), function)
    return fixer


def fix_input(
    opener: Callable[[], BinaryIO],
    name: str,
    out: BinaryIO | None,
    options: FixOptions = DEFAULT_OPTIONS,
) -> FixResult:
    """Fix one input whose bytes ``opener`` gives (from the start, each time it is called),
    writing the fixed bytes to ``out`` (None for a dry run).

    Never raises for bad input: an input of another format gets FIX012, one that cannot be
    read SRC003, one of no format SRC007.  ``out`` is left untouched in those cases.
    """
    result = FixResult(name)
    try:
        with opener() as stream:
            head = stream.read(1 << 16)
    except OSError as error:
        result.fixed = False
        problem = SRC003.at(reason=error.strerror or str(error))
        result.diagnostics.append(Diagnostic(problem.code, problem.severity, problem.message, name))
        return result
    form = detect_format(head, name)
    if form is None:
        result.fixed = False
        result.diagnostics.append(_at_start(SRC007.at(), name))
        return result
    fixer = fixer_for(form)
    if fixer is None:
        result.fixed = False
        result.diagnostics.append(_at_start(FIX012.at(format=form.value.upper()), name))
        return result
    try:
        found, result.boards, result.changes = fixer(
            opener, name, out, only=options.only, event_scores=options.event_scores
        )
    except OSError as error:
        result.fixed = False
        problem = SRC003.at(reason=error.strerror or str(error))
        result.diagnostics.append(Diagnostic(problem.code, problem.severity, problem.message, name))
        return result
    except Exception as error:  # a bug of ours must cost one input, not the batch
        result.fixed = False
        detail = traceback.format_exception_only(error)[-1].strip()
        problem = INT001.at(skipped="this input (left as it was)", error=detail)
        result.diagnostics.append(_at_start(problem, name))
        return result
    result.diagnostics.extend(found)
    return result


def fix_bytes(
    data: bytes, name: str, out: BinaryIO | None, options: FixOptions = DEFAULT_OPTIONS
) -> FixResult:
    """``fix_input`` for bytes in memory."""
    return fix_input(lambda: io.BytesIO(data), name, out, options)


def open_path(source: Input) -> Callable[[], BinaryIO]:
    """An opener for an input on disk (stdin is read once into memory by the caller)."""
    path = source.path
    assert path is not None

    def opener() -> BinaryIO:
        return open(path, "rb")

    return opener


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
