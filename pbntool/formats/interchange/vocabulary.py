"""Spellings shared by the JSON record and the XML vocabulary, in both directions.

Calls and cards use their PBN spelling (``1S``, ``4NT``, ``Pass``, ``X``, ``XX``; ``SA``,
``D2``); seats and sides their letters; enumerations their lower-case names.  The reading
tables accept the spellings in either case (and ``1N`` for ``1NT``), as the PBN reader does.
"""

from __future__ import annotations

from pbntool.model import (
    ALL_CARDS,
    Action,
    Bid,
    Call,
    Card,
    CommentKind,
    Doubling,
    Seat,
    SectionEnd,
    Side,
    Strain,
    Vulnerability,
)

__all__ = [
    "CALL_BY_TEXT",
    "CALL_TEXT",
    "CARD_BY_TEXT",
    "CARD_TEXT",
    "COMMENT_KIND_BY_TEXT",
    "DOUBLING_BY_TEXT",
    "DOUBLING_TEXT",
    "END_BY_TEXT",
    "END_TEXT",
    "SCHEMA_ID",
    "SEAT_BY_TEXT",
    "SEAT_KEYS",
    "SIDE_BY_TEXT",
    "STRAIN_BY_TEXT",
    "VULNERABILITY_BY_TEXT",
    "expected",
]

SCHEMA_ID = "pbntool/1"
"""The version of the record: the JSON ``schema`` key and the XML ``version`` attribute."""

CALL_TEXT: dict[Call, str] = {
    call: str(call)
    for call in (*Action, *(Bid.of(level, strain) for level in range(1, 8) for strain in Strain))
}
CALL_BY_TEXT: dict[str, Call] = {text.upper(): call for call, text in CALL_TEXT.items()}
CALL_BY_TEXT.update(
    {f"{level}N": Bid.of(level, Strain.NOTRUMP) for level in range(1, 8)}  # 1N, as PBN107
)

CARD_TEXT: dict[Card, str] = {card: str(card) for card in ALL_CARDS}
CARD_BY_TEXT: dict[str, Card] = {text: card for card, text in CARD_TEXT.items()}

SEAT_KEYS: tuple[str, str, str, str] = ("N", "E", "S", "W")
SEAT_BY_TEXT: dict[str, Seat] = {seat.letter: seat for seat in Seat}
SIDE_BY_TEXT: dict[str, Side] = {side.letters: side for side in Side}
STRAIN_BY_TEXT: dict[str, Strain] = {strain.letter: strain for strain in Strain}
VULNERABILITY_BY_TEXT: dict[str, Vulnerability] = {v.value: v for v in Vulnerability}

DOUBLING_TEXT: dict[Doubling, str] = {d: d.name.lower() for d in Doubling}
DOUBLING_BY_TEXT: dict[str, Doubling] = {text: d for d, text in DOUBLING_TEXT.items()}

END_TEXT: dict[SectionEnd, str] = {end: end.name.lower() for end in SectionEnd}
END_BY_TEXT: dict[str, SectionEnd] = {text: end for end, text in END_TEXT.items()}

COMMENT_KIND_BY_TEXT: dict[str, CommentKind] = {kind.value: kind for kind in CommentKind}


def expected(table: dict[str, object]) -> str:
    """The accepted spellings of a table, for a message (``N, E, S or W``)."""
    names = list(table)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
