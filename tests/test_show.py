"""The plain-text board diagram."""

from __future__ import annotations

import dataclasses

import pytest

from pbntool.formats.text import diagram as show
from pbntool.formats.text.diagram import render_board
from pbntool.model import (
    PASSED_OUT,
    Annotation,
    Auction,
    Board,
    Contract,
    Deal,
    Doubling,
    Note,
    Play,
    Result,
    Score,
    Seat,
    SectionEnd,
    Side,
    Strain,
    Tag,
    Vulnerability,
)

from builders import CALLS_18, DEAL_18, DOUBLE, PASS, PLAY_18, bid, hand, trick


def section_18_1_board() -> Board:
    """PBN 2.1 summary §18.1."""
    players = (("West", "Jansen, P."), ("North", "de Vries, A."), ("East", "Bakker, M."))
    return Board(
        tags=(
            Tag("Event", "Spring Club Pairs"),
            *(Tag(seat, name) for seat, name in players),
            Tag("South", "Visser, L."),
        ),
        number=7,
        dealer=Seat.SOUTH,
        vulnerability=Vulnerability.ALL,
        deal=DEAL_18,
        auction=Auction(
            Seat.SOUTH,
            CALLS_18,
            annotations=((2, Annotation(note=1)),),
            notes=(Note(1, "limit raise or better in \\Ss"),),
        ),
        play=PLAY_18,
        contract=Contract(4, Strain.SPADES, Doubling.DOUBLED),
        declarer=Seat.SOUTH,
        result=Result(11),
        score=Score(990, Side.NS),
    )


SECTION_18_1_DIAGRAM = """\
Board 7   Dealer S   Vul All   Spring Club Pairs   (club.pbn)

                   North: de Vries, A.
                   ♠ Q 10 6
                   ♥ Q 10 7
                   ♦ K Q 7 5 3
                   ♣ 10 5
West: Jansen, P.                         East: Bakker, M.
♠ K 5                  N                 ♠ 2
♥ K J 8 6 4          W   E               ♥ A 9 3 2
♦ 2                    S                 ♦ J 8 6 4
♣ 8 7 4 3 2                              ♣ Q J 9 6
                   South: Visser, L.
                   ♠ A J 9 8 7 4 3
                   ♥ 5
                   ♦ A 10 9
                   ♣ A K

West   North  East   South
                     1♠
2♥     3♥(1)  4♥     4♠
Pass   Pass   X      Pass
Pass   Pass

4♠X by S, made 11 (+990 NS)

Play (* wins the trick):
 1. W ♦2   N ♦3   E ♦J   S ♦A*
 2. S ♠A*  W ♠5   N ♠6   E ♠2
 3. S ♠3   W ♠K*  N ♠Q   E ♥2
Play ends after 3 tricks (claim)

Auction notes:
  (1) limit raise or better in ♠s
"""


def test_section_18_1_board_reads_like_a_newspaper_column() -> None:
    assert render_board(section_18_1_board(), file="club.pbn") == SECTION_18_1_DIAGRAM


def test_ascii_only_uses_suit_letters_and_no_other_characters() -> None:
    text = render_board(section_18_1_board(), ascii_only=True)
    assert text.isascii()
    assert "\n                   S Q 10 6\n" in text
    assert "4SX by S, made 11 (+990 NS)" in text
    assert " 1. W D2   N D3   E DJ   S DA*\n" in text
    assert "(1) limit raise or better in \\Ss" in text


def test_unknown_hands_and_players_are_shown_as_such() -> None:
    deal = Deal((hand("AKQJT98765432..."), None, None, None))
    text = render_board(Board(number=1, deal=deal, tags=(Tag("North", "?"),)))
    lines = text.split("\n")
    assert lines[0] == "Board 1   Dealer ?   Vul ?"
    assert lines[2].strip() == "North"
    assert lines[3].strip() == "♠ A K Q J 10 9 8 7 6 5 4 3 2"
    assert lines[4].strip() == "♥ —"
    assert lines[7].split() == ["West", "East"]
    assert lines[8].split() == ["unknown", "N", "unknown"]
    assert lines[12:14] == ["          South", "          unknown"]


def test_a_board_without_a_deal_says_so() -> None:
    assert render_board(Board()) == "Board ?   Dealer ?   Vul ?\n\nDeal not given\n"


def test_auction_starts_in_the_dealers_column() -> None:
    auction = Auction(Seat.NORTH, (bid("1C"), PASS, bid("1NT"), PASS, PASS, PASS))
    text = render_board(Board(dealer=Seat.NORTH, auction=auction), ascii_only=True)
    assert text.split("\n\n")[2] == (
        "West   North  East   South\n       1C     Pass   1NT\nPass   Pass   Pass"
    )


def test_passed_out_board() -> None:
    board = Board(auction=Auction(Seat.EAST, (PASS,) * 4), contract=PASSED_OUT)
    assert "\n\nPassed out\n" in render_board(board)


def test_defeated_contract_scores_for_the_defenders() -> None:
    board = Board(
        vulnerability=Vulnerability.NS,
        contract=Contract(3, Strain.NOTRUMP),
        declarer=Seat.NORTH,
        result=Result(7),
    )
    assert render_board(board).endswith("\n\n3NT by N, down 2 (+200 EW)\n")


def test_contract_comes_from_the_auction_when_none_is_stated() -> None:
    auction = Auction(Seat.WEST, (bid("1H"), DOUBLE, PASS, PASS, PASS))
    text = render_board(Board(auction=auction, result=Result(6)), ascii_only=True)
    assert text.endswith("\n\n1HX by W, down 1\n")


def test_stated_score_is_shown_when_scoring_is_unavailable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(show, "_SCORE_NS", None)
    assert "4♠X by S, made 11 (+990 NS)" in render_board(section_18_1_board())
    board = dataclasses.replace(section_18_1_board(), score=None)
    assert "4♠X by S, made 11\n" in render_board(board)


def test_play_without_a_known_trump_shows_later_tricks_in_column_order() -> None:
    play = Play(
        Seat.WEST,
        (trick(Seat.WEST, "SK", "S2", "H2", "S3"), trick(Seat.WEST, "C2", "C3", "CA", "C4")),
    )
    text = render_board(Board(play=play), ascii_only=True)
    assert text.endswith(
        "Play (* wins the trick):\n"
        " 1. W SK*  N S2   E H2   S S3\n"
        " 2. W C2   N C3   E CA   S C4   (order unknown)\n"
    )


def test_call_and_card_annotations_are_shown_with_their_suffixes() -> None:
    auction = Auction(
        Seat.NORTH,
        (bid("1C"), bid("1D")),
        annotations=((1, Annotation(note=2, nags=(1,), irregularity="I")),),
    )
    play = Play(
        Seat.EAST,
        (trick(Seat.EAST, "HA"),),
        annotations=(((0, Seat.EAST), Annotation(nags=(9,))),),
        notes=(Note(1, " lead \\H"),),
    )
    text = render_board(Board(auction=auction, play=play, contract=Contract(1, Strain.DIAMONDS)))
    assert "\n           1♣         ^I 1♦!(2)\n" in text
    assert " 1. E ♥A!!" in text
    assert text.endswith("Play notes:\n  (1) lead ♥\n")


def test_lin_alerts_and_suit_escapes_are_shown() -> None:
    from pbntool.formats import lin

    text = (
        "pn|Ann,Bob,Cid,Dee|st||md|3SAKQHAKQDAKQCAKQJ,S2345H2345D2345C2,S6789H6789D6789C3,|"
        "rh||ah|Board 1|sv|o|mb|p|mb|p|mb|1N|mb|p|mb|2D!|an|transfer to !h|mb|p|mb|p|mb|p|"
    )
    shown = render_board(lin.parse(text).boards[0])
    assert "2♦*(1)" in shown and "* alerted" in shown
    assert "(1) transfer to ♥" in shown


def test_the_room_and_table_are_shown_when_the_record_has_them() -> None:
    tags = (Tag("Event", "Final"), Tag("Room", "closed"), Tag("Table", "11"))
    header = render_board(Board(number=3, tags=tags)).splitlines()[0]
    assert header == "Board 3   Dealer ?   Vul ?   Final   Closed room   Table 11"
    assert "room" not in render_board(Board(number=3)).splitlines()[0].lower()
    unusual = render_board(Board(tags=(Tag("Room", "Annex"), Tag("Table", "?"))))
    assert unusual.splitlines()[0].endswith("Room Annex")  # an unknown Table ("?") is not shown


def test_the_room_of_a_lin_vugraph_table_is_shown() -> None:
    from pbntool.formats.lin import loads

    hands = "SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,"
    text = f"qx|c12|md|3{hands}|sv|o|mb|p|mb|p|mb|p|mb|p|pg||\n"
    (board,) = loads(text)
    assert "Closed room" in render_board(board).splitlines()[0]


def test_a_board_without_play_says_nothing_of_a_claim() -> None:
    # [Play "W"] followed only by "*": the play was not recorded.
    board = dataclasses.replace(section_18_1_board(), play=Play(Seat.WEST, (), SectionEnd.STOP))
    text = render_board(board)
    assert "Play" not in text and "claim" not in text and "0 tricks" not in text
    assert "4♠X by S, made 11" in text


def test_a_claim_after_one_trick_is_one_trick() -> None:
    play = Play(Seat.WEST, (trick(Seat.WEST, "SK", "S2", "H2", "S3"),), SectionEnd.STOP)
    text = render_board(Board(contract=Contract(4, Strain.SPADES), declarer=Seat.SOUTH, play=play))
    assert text.endswith("Play ends after 1 trick (claim)\n")
