"""What USEBIO values mean in PBN terms, both ways (shared by the reader and the writer).

See ``/docs/conversions.md`` (USEBIO) and the club-formats notes: the event type and the
board scoring method give the PBN ``Scoring`` tag, traveller elements give ScoreTable
columns, pair elements TotalScoreTable columns, and the event's other data keep their
element name as a ``Usebio…`` tag (``MASTER_POINT_SCALE`` is ``UsebioMasterPointScale``).
"""

from __future__ import annotations

import re

__all__ = [
    "EVENT_SCORING",
    "KNOWN_EVENT_TYPES",
    "LINE_TAG_PREFIX",
    "MATCH_TAG_PREFIX",
    "METHOD_SCORING",
    "SCORE_COLUMNS",
    "TAG_PREFIX",
    "element_of_tag",
    "quote_cell",
    "scoring_of",
    "tag_of_element",
    "unquote_cell",
]

TAG_PREFIX = "Usebio"
MATCH_TAG_PREFIX = "UsebioMatch"
"""Tags of a team game that hold its ``MATCH``'s own children (``UsebioMatchTeamScore``) and
its board's (``UsebioMatchBoard…``)."""
LINE_TAG_PREFIX = "UsebioLine"
"""Tags of a team game that hold its traveller line's other children
(``UsebioLineNsPairNumber``)."""

EVENT_SCORING: dict[str, str] = {
    "MP_PAIRS": "MP",
    "BUTLER_PAIRS": "IMP;Butler",
    "CROSS_IMP": "IMP;Cross2",
    "CROSS_IMPS": "IMP;Cross2",
    "SWISS_PAIRS_CROSS_IMPS": "IMP;Cross2",
    "SWISS_PAIRS_BUTLER_IMPS": "IMP;Butler",
    "TEAMS": "IMP",
    "SWISS_TEAMS": "IMP",
    "TEAMS_OF_FOUR": "IMP",
    "HEAD_TO_HEAD": "IMP",
    "KO": "IMP",
    "LADDER": "IMP",
    "AGGREGATE": "TotalPoints",
}
"""Event types that fix the board scoring by themselves (upper-cased)."""

GENERIC_EVENT_TYPES = frozenset({"PAIRS", "INDIVIDUAL", "SWISS_PAIRS"})
"""Event types whose board scoring comes from ``BOARD_SCORING_METHOD`` (matchpoints when
none is given)."""

KNOWN_EVENT_TYPES = frozenset(EVENT_SCORING) | GENERIC_EVENT_TYPES

METHOD_SCORING: dict[str, str] = {
    "MATCH_POINTS": "MP",
    "MATCHPOINTS": "MP",
    "BUTLER_IMPS": "IMP;Butler",
    "BUTLER": "IMP;Butler",
    "CROSS_IMPS": "IMP;Cross2",
    "IMPS": "IMP",
    "AGGREGATE": "TotalPoints",
    "BAM": "BAM",
}
"""``BOARD_SCORING_METHOD`` values and the PBN Scoring they stand for."""

TEAM_EVENT_TYPES = frozenset(
    {"TEAMS", "SWISS_TEAMS", "TEAMS_OF_FOUR", "HEAD_TO_HEAD", "KO", "LADDER", "AGGREGATE"}
)


def scoring_of(event_type: str, board_method: str | None) -> str | None:
    """The PBN Scoring of an event type (and its BOARD_SCORING_METHOD); None when unknown."""
    kind = event_type.strip().upper()
    method = (board_method or "").strip().upper()
    if method in METHOD_SCORING and kind not in ("MP_PAIRS", "BUTLER_PAIRS", "CROSS_IMP"):
        return METHOD_SCORING[method]
    if kind in EVENT_SCORING:
        return EVENT_SCORING[kind]
    if kind in GENERIC_EVENT_TYPES:
        return "MP"
    return None


def tag_of_element(*names: str) -> str:
    """``UsebioMasterPointScale`` for ``MASTER_POINT_SCALE`` (names joined: a child of
    ``CONTACT`` is ``UsebioContactFullName``)."""
    words = [word for name in names for word in name.split("_") if word]
    return TAG_PREFIX + "".join(word[:1].upper() + word[1:].lower() for word in words)


_WORD = re.compile(r"[A-Z][a-z0-9]*|[0-9]+[a-z]*")


def element_of_tag(tag: str) -> str | None:
    """The element name of a ``Usebio…`` tag (``UsebioP2pChargeRate`` → ``P2P_CHARGE_RATE``);
    None for another tag."""
    if not tag.startswith(TAG_PREFIX) or len(tag) == len(TAG_PREFIX):
        return None
    words = _WORD.findall(tag[len(TAG_PREFIX) :])
    return "_".join(word.upper() for word in words) or None


def quote_cell(text: str | None) -> str:
    """A table element: ``-`` for nothing, quoted when it holds spaces or table marks."""
    if text is None or text == "":
        return "-"
    if any(character.isspace() or character in '"[]{};\\' for character in text):
        return '"' + text.replace("\\", "/").replace('"', "'") + '"'
    return text


def unquote_cell(element: str) -> str:
    """A table element's text (``-`` and ``?`` are nothing)."""
    if len(element) >= 2 and element[0] == '"' and element[-1] == '"':
        return element[1:-1].strip()
    return "" if element in ("-", "?") else element


SCORE_COLUMNS = (
    "PairId_NS",
    "PairId_EW",
    "Direction",
    "Contract",
    "Declarer",
    "Lead",
    "Result",
    "Score_NS",
    "Score_EW",
    "MP_NS",
    "MP_EW",
    "IMP_NS",
    "IMP_EW",
    "Percentage_NS",
    "Percentage_EW",
)
"""The ScoreTable columns of a traveller line, in the order a ScoreTable gives them."""
