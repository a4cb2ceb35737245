"""Format checks for supplemental tags (PBN §5): Round, Room, Time, Scoring, Mode, ...

A value that breaks the tag's format is a PBN133 warning; a value outside an open-ended
list the standard gives (Scoring systems, Mode, Competition, ...) is a PBN134 note.  Either
way the value is kept as written.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from pbntool.diagnostics import PBN133, PBN134
from pbntool.formats.pbn.values import UNKNOWN_VALUES, Problem, Problems

__all__ = ["SUPPLEMENTAL_CHECKS", "check_supplemental"]

_BASIC_SCORING = {"MP", "MATCHPOINTS", "IMP", "CAVENDISH", "CHICAGO", "RUBBER", "BAM", "INSTANT"}
_SCORING_MODIFIERS = {
    "BUTLER", "BUTLER-2", "EXPERTS", "CROSS", "CROSS1", "CROSS2", "MEAN", "MEDIAN", "MP1", "MP2",
    "OLDMP", "MITCHELL2", "MITCHELL3", "MITCHELL4", "ASCHERMAN", "BASTILLE", "EMP", "IMP_1948",
    "IMP_1961",
}  # fmt: skip
_ROUND = re.compile(r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*")
_TIME = re.compile(r"[0-9?]{2}:[0-9?]{2}:[0-9?]{2}")
_TIME_CONTROL = re.compile(r"\d+/\d+|-", re.ASCII)
_PERCENTAGE = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)", re.ASCII)

_TERMINATIONS = (
    "abandoned", "adjudication", "death", "emergency", "normal", "rules infraction",
    "time forfeit", "unterminated",
)  # fmt: skip

_TERMINATIONS = (
    "abandoned", "adjudication", "death", "emergency", "normal", "rules infraction",
    "time forfeit", "unterminated",
)  # fmt: skip

Check = Callable[[str, str], list[Problem]]


def _malformed(name: str, value: str, expected: str) -> list[Problem]:
    return [Problem(PBN133, {"name": name, "value": f'"{value}"', "expected": expected})]


def _unlisted(name: str, value: str, known: str) -> list[Problem]:
    return [Problem(PBN134, {"name": name, "value": f'"{value}"', "known": known})]


def _pattern(pattern: re.Pattern[str], expected: str) -> Check:
    def check(name: str, value: str) -> list[Problem]:
        return [] if pattern.fullmatch(value) else _malformed(name, value, expected)

    return check


def _one_of(words: tuple[str, ...], malformed: bool) -> Check:
    folded = {word.upper() for word in words}
    known = ", ".join(words)

    def check(name: str, value: str) -> list[Problem]:
        if value.upper() in folded:
            return []
        return _malformed(name, value, known) if malformed else _unlisted(name, value, known)

    return check


def _check_scoring(name: str, value: str) -> list[Problem]:
    fields = [field.strip().upper() for field in value.split(";")]
    basic = [field for field in fields if field in _BASIC_SCORING]
    if len(basic) > 1:
        return _malformed(name, value, "at most one basic system (MP, IMP, Rubber, ...)")
    unknown = [f for f in fields if f not in _BASIC_SCORING and f not in _SCORING_MODIFIERS]
    if unknown:
        return _unlisted(name, value, "MP, IMP, BAM, Rubber, Chicago, ... and modifiers")
    return []


def _check_percentage(name: str, value: str) -> list[Problem]:
    numbers = [text for text in value.split() if text.upper() not in ("NS", "EW")]
    for number in numbers:
        cleaned = number.lstrip("^")
        if _PERCENTAGE.fullmatch(cleaned) and not 0 <= float(cleaned) <= 100:
            return _malformed(name, value, "a percentage from 0 to 100")
    return []


def _check_count(name: str, value: str) -> list[Problem]:
    return [] if value.isdigit() else _malformed(name, value, "a number of seconds")


def _check_table(name: str, value: str) -> list[Problem]:
    return [] if value.isdigit() else _unlisted(name, value, "a table number")


def _check_hidden(name: str, value: str) -> list[Problem]:
    if value and all(letter in "NESWnesw" for letter in value):
        return []
    return _malformed(name, value, "seat letters such as EW")


SUPPLEMENTAL_CHECKS: dict[str, Check] = {
    "Round": _pattern(_ROUND, "letters, digits and _, parts joined by dots (e.g. 2.B.1)"),
    "Room": _one_of(("Open", "Closed"), malformed=True),
    "FrenchMP": _one_of(("Yes", "No"), malformed=True),
    "Time": _pattern(_TIME, "HH:MM:SS"),
    "UTCTime": _pattern(_TIME, "HH:MM:SS"),
    "TimeCall": _check_count,
    "TimeCard": _check_count,
    "TimeControl": _pattern(_TIME_CONTROL, "<games>/<minutes>, e.g. 4/30"),
    "ScorePercentage": _check_percentage,
    "Scoring": _check_scoring,
    "Hidden": _check_hidden,
    "Table": _check_table,
    "Mode": _one_of(("EM", "EMB", "IBS", "OKB", "TABLE", "TC"), malformed=False),
    "Competition": _one_of(
        ("Cavendish", "Chicago", "Individuals", "Pairs", "Rubber", "Teams"), malformed=False
    ),
    "Termination": _one_of(_TERMINATIONS, malformed=False),
    **{
        f"{seat}Type": _one_of(("human", "program"), malformed=False)
        for seat in ("West", "North", "East", "South")
    },
}
"""Tag name → check, for the supplemental tags whose values the standard constrains."""


@functools.lru_cache(maxsize=1024)
def check_supplemental(name: str, value: str) -> Problems:
    """Problems with the value of a supplemental tag (none for unknown or unchecked tags)."""
    check = SUPPLEMENTAL_CHECKS.get(name)
    if check is None or value.strip() in UNKNOWN_VALUES or value.startswith("#"):
        return ()
    return tuple(check(name, value.strip()))
