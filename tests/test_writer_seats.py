"""Every writer re-reads the play on the seats it was played from, or says what it dropped.

LIN and RBN give no seat per card: their readers seat the cards from declarer's left and the
trick winners.  A lead out of turn (``^L``, or a play that starts elsewhere) and a declarer the
auction does not give (``[Declarer "^E"]``) would put every card on the wrong seat; the writers
keep the tricks their reader seats right and drop the rest with an OUT finding (issue 12).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from pbntool.diagnostics import Diagnostic
from pbntool.formats import REGISTRY, Format
from pbntool.formats import pbn as pbn_format
from pbntool.model import (
    Annotation,
    Auction,
    Board,
    Card,
    Contract,
    Doubling,
    Play,
    Result,
    Seat,
    Strain,
    Tag,
    Vulnerability,
)

from builders import CALLS_18, DEAL_18, PLAY_18, write_and_read

ROOT = Path(__file__).resolve().parent.parent
IRREGULAR = ROOT / "fixtures/pbn/valid/irregularities_marked.pbn"
"""Board 1: a lead out of turn (``^L``); board 2: an irregular declarer (``^E``)."""

ROUND_TRIP = tuple(
    spec.format for spec in REGISTRY.values() if spec.reader is not None and spec.writer is not None
)


def _board_18(play: Play) -> Board:
    """§18.1 (4SX by South) with the play given."""
    return Board(
        tags=(Tag("Board", "1"), Tag("Dealer", "S"), Tag("Vulnerable", "None")),
        number=1,
        dealer=Seat.SOUTH,
        vulnerability=Vulnerability.NONE,
        deal=DEAL_18,
        auction=Auction(Seat.SOUTH, CALLS_18),
        play=play,
        contract=Contract(4, Strain.SPADES, Doubling.DOUBLED),
        declarer=Seat.SOUTH,
        result=Result(11),
    )


LATE_LEAD = _board_18(
    replace(PLAY_18, annotations=(((1, Seat.WEST), Annotation(irregularity="L")),))
)
"""West leads the second trick out of turn (South won the first): the first trick is right."""
EAST_LEADS = _board_18(replace(PLAY_18, first=Seat.EAST))
"""The opening lead from East (declarer's partner's left), no mark."""


def _boards() -> list[tuple[str, Board]]:
    fixture = pbn_format.parse(IRREGULAR.read_text()).boards
    return [
        ("lead out of turn ^L", fixture[0]),
        ("irregular declarer ^E", fixture[1]),
        ("second trick led out of turn", LATE_LEAD),
        ("opening lead from the wrong seat", EAST_LEADS),
    ]


def _seats(board: Board) -> dict[Card, Seat]:
    found: dict[Card, Seat] = {}
    if board.play is not None:
        for row in board.play.tricks:
            for seat, slot in zip(Seat, row, strict=True):
                if isinstance(slot, Card):
                    found[slot] = seat
    return found


def _round_trip(form: Format, board: Board) -> tuple[Board, list[Diagnostic]]:
    records, raw, losses = write_and_read(form, board)
    assert len(records) == 1, (form, raw[:300])
    back: Board = records[0].board
    return back, losses


@pytest.mark.parametrize("form", ROUND_TRIP, ids=str)
def test_every_writer_rereads_the_play_on_the_same_seats(form: Format) -> None:
    for label, board in _boards():
        back, losses = _round_trip(form, board)
        before, after = _seats(board), _seats(back)
        wrong = {card: (before.get(card), seat) for card, seat in after.items()
                 if before.get(card) is not seat}  # fmt: skip
        assert not wrong, (form, label, wrong)
        if len(after) < len(before):
            assert any(d.code.startswith("OUT") for d in losses), (form, label, "silent loss")
        if back.declarer not in (board.declarer, None):
            named = " ".join(d.message for d in losses)
            assert "Declarer" in named, (form, label, back.declarer, named)


@pytest.mark.parametrize("form", [Format.LIN, Format.RBN], ids=str)
def test_seatless_writers_keep_the_tricks_before_a_late_lead_out_of_turn(form: Format) -> None:
    back, losses = _round_trip(form, LATE_LEAD)
    assert len(_seats(back)) == 4  # the first trick, seated from West as the Laws say
    assert any(d.code.startswith("OUT") and "trick 2" in d.message for d in losses)


def test_lin_writes_a_play_from_the_right_leader_whole() -> None:
    back, losses = _round_trip(Format.LIN, _board_18(PLAY_18))
    assert _seats(back) == _seats(_board_18(PLAY_18))
    assert not [d for d in losses if d.code == "OUT015"]


def test_lin_export_of_irregular_play_re_reads_without_play_errors(tmp_path: Path) -> None:
    """The issue's case through the CLI: no card on a wrong seat (PLY001), and the warning
    says what was dropped."""
    out = tmp_path / "out.lin"
    converted = subprocess.run(
        [sys.executable, "-m", "pbntool", "convert", "--to", "lin", str(IRREGULAR), "-o", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert converted.returncode == 0, converted.stderr
    assert converted.stderr.count("OUT015") >= 2
    assert "led by South" in converted.stderr
    checked = subprocess.run(
        [sys.executable, "-m", "pbntool", "validate", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert "PLY001" not in checked.stdout + checked.stderr
    assert "mc|10|" in out.read_text()  # the agreed result is kept as the claim
