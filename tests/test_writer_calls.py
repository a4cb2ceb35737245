"""Any call not written is an OUT finding (issue 12), writer by writer.

Boards whose auction holds what some formats cannot carry: calls after the auction ended, an
alert, a note and a NAG on calls, an unreadable call, an end marker on an unfinished auction.
Every writer with a reader writes each board and reads it back: the calls (and their alerts,
NAGs and notes) read back are the ones written, or the writer reported an OUT finding for the
board.
"""

from __future__ import annotations

import pytest

from pbntool.diagnostics import Diagnostic
from pbntool.formats import REGISTRY, Format
from pbntool.model import (
    Action,
    Annotation,
    Auction,
    Board,
    Note,
    Seat,
    SectionEnd,
    Tag,
    Token,
    Vulnerability,
)

from builders import DEAL_18, bid, write_and_read

PASS = Action.PASS
ROUND_TRIP = tuple(
    spec.format for spec in REGISTRY.values() if spec.reader is not None and spec.writer is not None
)


def _board(auction: Auction) -> Board:
    return Board(
        tags=(
            Tag("Event", "Calls"),
            Tag("Board", "1"),
            Tag("Dealer", "N"),
            Tag("Vulnerable", "None"),
        ),
        number=1,
        dealer=Seat.NORTH,
        vulnerability=Vulnerability.NONE,
        deal=DEAL_18,
        auction=auction,
    )


CASES = {
    "calls after the end": _board(Auction(Seat.NORTH, (bid("1S"), PASS, PASS, PASS, bid("2H")))),
    "alert, NAG and note": _board(
        Auction(
            Seat.NORTH,
            (bid("1N"), PASS, bid("2C"), PASS, bid("2D"), PASS, bid("3N"), PASS, PASS, PASS),
            annotations=((0, Annotation(nags=(15,))), (2, Annotation(note=1, nags=(1,)))),
            notes=(Note(1, "Stayman"),),
        )
    ),
    "an unreadable call": _board(Auction(Seat.NORTH, (bid("1S"), Token("Pas"), PASS, PASS, PASS))),
    "end marker on an unfinished auction": _board(
        Auction(Seat.NORTH, (bid("1S"), PASS), end=SectionEnd.STOP)
    ),
    "irregularity on a call": _board(
        Auction(
            Seat.NORTH,
            (bid("1N"), bid("1S"), PASS, PASS, PASS),
            annotations=((1, Annotation(irregularity="I")),),
        )
    ),
}


def _write(form: Format, board: Board) -> tuple[list[Board], list[Diagnostic]]:
    records, _, losses = write_and_read(form, board, "calls.pbn")
    return [r.board for r in records if r.board is not None and r.board.deal == board.deal], losses


def _calls(board: Board) -> list[str]:
    auction = board.auction
    if auction is None:
        return []
    return [call.text if isinstance(call, Token) else str(call) for call in auction.calls]


def _marks(board: Board) -> list[tuple[int, tuple[int, ...], str | None, str | None]]:
    auction = board.auction
    if auction is None:
        return []
    notes = {note.index: note.text for note in auction.notes}
    return sorted(
        (
            index,
            tuple(sorted(a.nags)),
            notes.get(a.note) if a.note is not None else None,
            a.irregularity,
        )
        for index, a in auction.annotations
    )


def _ends(board: Board) -> bool:
    return board.auction is not None and board.auction.end is SectionEnd.STOP


@pytest.mark.parametrize("form", ROUND_TRIP, ids=str)
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_call_not_written_is_an_out_finding(form: Format, case: str) -> None:
    board = CASES[case]
    back, losses = _write(form, board)
    out = [d for d in losses if d.code.startswith("OUT")]
    if not back:
        assert out, (form, case, "board not written, and not said")
        return
    [again] = back
    same = _calls(again) == _calls(board) and _marks(again) == _marks(board)
    same = same and _ends(again) == _ends(board)
    assert same or out, (form, case, _calls(again), _marks(again), "lost without a finding")
