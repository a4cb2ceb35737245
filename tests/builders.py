"""Builders shared by the tests that write boards by hand.

Hands, bids and tricks from short text, and the deal, calls and play of the example game in
the PBN 2.1 summary's §18.1 (4SX by South, made 11).  Each test file builds its own §18.1
board from these, with the tags, notes and commentary it needs.

Test files import it as ``from builders import ...``: with no ``tests/__init__.py``, pytest's
default ``prepend`` import mode puts ``tests/`` on ``sys.path``.
"""

from __future__ import annotations

import io

from pbntool.diagnostics import Diagnostic
from pbntool.formats import REGISTRY, Format, load
from pbntool.formats.writing import open_writer
from pbntool.model import (
    Action,
    Bid,
    Board,
    Call,
    Card,
    Deal,
    Hand,
    Play,
    Seat,
    SectionEnd,
    Slot,
    Strain,
)
from pbntool.records import Record

PASS, DOUBLE = Action.PASS, Action.DOUBLE


def hand(text: str) -> Hand:
    """A hand from its suits, spades first: ``"QT6.QT7.KQ753.T5"``."""
    return Hand.parse_suits(*text.split("."))


def bid(text: str) -> Bid:
    """A bid from its text: ``"4S"``, ``"3NT"``."""
    return Bid.of(int(text[0]), Strain.from_text(text[1:]))


def trick(first: Seat, *cards: str | None) -> tuple[Slot, Slot, Slot, Slot]:
    """A trick given in column order from ``first`` (None = ``-``), stored by seat."""
    slots: list[Slot] = [None] * 4
    for step, text in enumerate(cards):
        slots[first.next(step)] = None if text is None else Card.parse(text)
    return (slots[0], slots[1], slots[2], slots[3])


# --- PBN 2.1 summary §18.1 ---------------------------------------------------------------------

DEAL_18 = Deal(
    (
        hand("QT6.QT7.KQ753.T5"),
        hand("2.A932.J864.QJ96"),
        hand("AJ98743.5.AT9.AK"),
        hand("K5.KJ864.2.87432"),
    )
)
"""The deal, North's hand first."""
CALLS_18: tuple[Call, ...] = (
    bid("1S"),
    bid("2H"),
    bid("3H"),
    bid("4H"),
    bid("4S"),
    PASS,
    PASS,
    DOUBLE,
) + (PASS,) * 3
"""The auction's calls, South first (annotations and notes are each test's own)."""
PLAY_18 = Play(
    Seat.WEST,
    (
        trick(Seat.WEST, "D2", "D3", "DJ", "DA"),
        trick(Seat.WEST, "S5", "S6", "S2", "SA"),
        trick(Seat.WEST, "SK", "SQ", "H2", "S3"),
    ),
    end=SectionEnd.STOP,
)
"""The first three tricks, West leading, then a claim (``*``)."""


def write_and_read(
    form: Format, board: Board, file: str | None = None
) -> tuple[list[Record], bytes, list[Diagnostic]]:
    """One board written by ``form``'s writer and read back by its reader: the records read,
    the bytes written and the writer's losses (OUT findings)."""
    spec = REGISTRY[form]
    stream: io.BytesIO | io.StringIO = io.BytesIO() if spec.binary else io.StringIO()
    writer = open_writer(form, stream)
    losses = writer.write(board, file)
    writer.close()
    data = stream.getvalue()
    raw = data.encode() if isinstance(data, str) else data
    assert spec.reader is not None
    reader = load(spec.reader)
    assert callable(reader)
    return list(reader(io.BytesIO(raw), f"back{spec.output_suffix}")), raw, losses
