"""Tests for the Laws checks: one focused test per diagnostic code, plus the legal edge cases."""

import dataclasses
import importlib
import random
from collections.abc import Iterable

import pytest
from conftest import run_doctests
from hypothesis import given
from hypothesis import strategies as st

from pbntool import rules
from pbntool.dev.generate import random_board
from pbntool.diagnostics import Diagnostic
from pbntool.model import (
    PASSED_OUT,
    Action,
    Annotation,
    Auction,
    Bid,
    Board,
    Call,
    Card,
    Contract,
    Deal,
    Doubling,
    Hand,
    Play,
    Result,
    Score,
    Seat,
    SectionEnd,
    Side,
    Slot,
    Strain,
    Suit,
    Token,
    Vulnerability,
)
from pbntool.rules import (
    auction_outcome,
    check_auction,
    check_board,
    check_contract,
    check_conventions,
    check_deal,
    check_play,
    check_result,
    check_score,
    sequence_play,
    trick_winner,
)

from builders import bid, hand

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST

# --- Building boards from PBN-like text ---------------------------------------------------------


def deal(text: str) -> Deal:
    """``"N:<hand> <hand> <hand> <hand>"`` clockwise from the first seat; ``-`` is unknown."""
    first, hands = text.split(":")
    seats = [Seat.from_letter(first).next(step) for step in range(4)]
    by_seat: dict[Seat, Hand | None] = {}
    for seat, suits in zip(seats, hands.split(" "), strict=True):
        by_seat[seat] = None if suits == "-" else hand(suits)
    return Deal((by_seat[N], by_seat[E], by_seat[S], by_seat[W]))


def auction(first: Seat, text: str, end: SectionEnd = SectionEnd.OPEN) -> Auction:
    """Calls separated by spaces; ``^I`` before a bid marks it accepted-insufficient."""
    calls: list[Call | Token] = []
    annotations: list[tuple[int, Annotation]] = []
    for word in text.split():
        if word.startswith("^I"):
            annotations.append((len(calls), Annotation(irregularity="I")))
            word = word[2:]
        calls.append(call(word))
    return Auction(first, tuple(calls), end, tuple(annotations))


def call(word: str) -> Call | Token:
    actions = {"Pass": Action.PASS, "X": Action.DOUBLE, "XX": Action.REDOUBLE}
    if word in actions:
        return actions[word]
    if word[0] in "1234567":
        return bid(word)
    return Token(word)


def play(first: Seat, text: str, end: SectionEnd = SectionEnd.OPEN) -> Play:
    """Tricks separated by ``/``; each lists the seats' cards clockwise from ``first``, as PBN
    columns do.  ``-`` is unknown, ``+`` the next card; ``^R``/``^L`` prefix a card."""
    tricks: list[tuple[Slot, Slot, Slot, Slot]] = []
    annotations: list[tuple[tuple[int, Seat], Annotation]] = []
    for number, line in enumerate(text.split("/")):
        row: list[Slot] = [None] * 4
        for step, word in enumerate(line.split()):
            seat = first.next(step)
            if word.startswith("^"):
                annotations.append(((number, seat), Annotation(irregularity=word[1])))
                word = word[2:]
            row[seat] = slot(word)
        tricks.append((row[0], row[1], row[2], row[3]))
    return Play(first, tuple(tricks), end, tuple(annotations))


def slot(word: str) -> Slot:
    if word == "-":
        return None
    if word == "+":
        return Token("+")
    return Card.parse(word)


def codes(diagnostics: Iterable[Diagnostic]) -> list[str]:
    return [d.code for d in diagnostics]


def mentions(diagnostic: Diagnostic, *parts: str) -> bool:
    """True when the message names every part (robust to rewording the rest)."""
    return all(part in diagnostic.message for part in parts)


def only(diagnostics: Iterable[Diagnostic], code: str) -> Diagnostic:
    found = [d for d in diagnostics if d.code == code]
    assert len(found) == 1, found
    return found[0]


# A deal in which every hand has every suit but West, who has a singleton spade.
SPREAD = deal("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
# South declares 3NT: West leads.
THREE_NT_BY_SOUTH = auction(N, "Pass Pass 3NT Pass Pass Pass")


def spread_board(
    play_text: str | None = None,
    *,
    first: Seat = W,
    end: SectionEnd = SectionEnd.STOP,
    **changes: object,
) -> Board:
    """Board 1 (North deals, nobody vulnerable): 3NT by South on SPREAD."""
    board = Board(
        number=1,
        dealer=N,
        vulnerability=Vulnerability.NONE,
        deal=SPREAD,
        auction=THREE_NT_BY_SOUTH,
        contract=Contract(3, Strain.NOTRUMP),
        declarer=S,
        play=None if play_text is None else play(first, play_text, end),
    )
    return dataclasses.replace(board, **changes)  # type: ignore[arg-type]


def generated(seed: int, *, full_play: bool | None = None, claimed: bool | None = None) -> Board:
    """The first legal generated board that matches (a full play, or a claim)."""
    rng = random.Random(seed)
    for number in range(1, 500):
        board = random_board(rng, number, claim_probability=0.5)
        if board.play is None:
            continue
        complete = len(board.play.tricks) == 13 and board.play.end is SectionEnd.OPEN
        if full_play is not None and complete != full_play:
            continue
        if claimed is not None and (board.play.end is SectionEnd.STOP) != claimed:
            continue
        return board
    raise AssertionError("no such board")


# --- Sanity of the helpers ------------------------------------------------------------------


def test_legal_constructed_board_has_no_diagnostics() -> None:
    board = spread_board("C2 CA C9 C6 / S2 SA S7 S3 / H2 SK S8 S4")
    assert list(check_board(board)) == []


# --- Deal -----------------------------------------------------------------------------------


def test_card_in_two_hands_is_hnd001_at_the_second_hand() -> None:
    bad = deal("N:AKQJ.AKQ.AKQ.AKQ A987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
    diagnostic = only(check_deal(bad), "HND001")
    assert diagnostic.path == ("deal", E)
    assert "SA" in diagnostic.message


def test_full_deal_with_wrong_hand_sizes_is_hnd002_for_each_hand() -> None:
    # East has West's singleton spade as well: 14 against 12.
    bad = deal("N:AKQJ.AKQ.AKQ.AKQ T9872.JT9.JT9.JT9 6543.876.876.876 .5432.5432.5432")
    found = [d for d in check_deal(bad) if d.code == "HND002"]
    assert [d.path for d in found] == [("deal", E), ("deal", W)]
    assert "East hand has 14 cards" in found[0].message


def test_end_position_with_equal_hands_is_legal() -> None:
    assert list(check_deal(deal("N:A2.K.. ..AQ.7 .3.KJ. K.Q.T."))) == []


def test_end_position_with_unequal_hands_is_hnd003() -> None:
    diagnostic = only(check_deal(deal("N:A2.K.. ..AQ.7 .3.KJ. K.Q..")), "HND003")
    assert diagnostic.path == ("tag", "Deal")
    assert "W 2" in diagnostic.message


def test_partial_deal_with_unequal_known_hands_is_hnd003() -> None:
    partial = deal("N:AKQJ.AKQ.AKQ.AKQ - 6543.876.876.87 -")
    assert codes(check_deal(partial)) == ["HND003"]


def test_partial_deal_with_equal_known_hands_is_legal() -> None:
    assert list(check_deal(deal("N:AKQJ.AKQ.AKQ.AKQ - 6543.876.876.876 -"))) == []


# --- Auction --------------------------------------------------------------------------------


def test_legal_competitive_auction_has_no_diagnostics() -> None:
    calls = auction(N, "1S X XX 2H Pass Pass X Pass Pass Pass")
    assert list(check_auction(calls)) == []


def test_insufficient_bid_is_auc001() -> None:
    diagnostic = only(check_auction(auction(N, "1S 1H Pass Pass Pass")), "AUC001")
    assert diagnostic.path == ("call", 1)
    assert mentions(diagnostic, "1H", "after 1S")


def test_repeating_the_last_bid_is_insufficient() -> None:
    assert codes(check_auction(auction(N, "1NT 1NT Pass Pass Pass"))) == ["AUC001"]


def test_accepted_insufficient_bid_is_legal_and_becomes_the_last_bid() -> None:
    calls = auction(W, "1S ^I1H Pass Pass Pass")
    assert list(check_auction(calls)) == []
    assert str(auction_outcome(calls).contract) == "1H"


def test_insufficient_mark_on_a_sufficient_bid_is_auc006() -> None:
    diagnostic = only(check_auction(auction(N, "1H ^I1S Pass Pass Pass")), "AUC006")
    assert diagnostic.path == ("call", 1)


def test_double_before_any_bid_is_auc002() -> None:
    diagnostic = only(check_auction(auction(N, "X 1S Pass Pass Pass")), "AUC002")
    assert diagnostic.path == ("call", 0)
    assert "no bid" in diagnostic.message


def test_double_of_partners_bid_is_auc002() -> None:
    diagnostic = only(check_auction(auction(N, "1S Pass X Pass Pass Pass")), "AUC002")
    assert diagnostic.path == ("call", 2)
    assert "partner" in diagnostic.message


def test_double_of_a_doubled_bid_is_auc002() -> None:
    diagnostic = only(check_auction(auction(N, "1S X Pass X Pass Pass Pass")), "AUC002")
    assert diagnostic.path == ("call", 3)
    assert "already doubled" in diagnostic.message


def test_double_of_a_redoubled_bid_is_auc002() -> None:
    diagnostic = only(check_auction(auction(N, "1S X XX X Pass Pass Pass")), "AUC002")
    assert diagnostic.path == ("call", 3)
    assert "already redoubled" in diagnostic.message


def test_redouble_after_opponents_double_is_legal() -> None:
    calls = auction(N, "1S X Pass Pass XX Pass Pass Pass")
    assert list(check_auction(calls)) == []
    assert auction_outcome(calls).contract == Contract(1, Strain.SPADES, Doubling.REDOUBLED)


def test_redouble_without_a_double_is_auc003() -> None:
    diagnostic = only(check_auction(auction(N, "1S Pass XX Pass Pass Pass")), "AUC003")
    assert diagnostic.path == ("call", 2)
    assert "not been doubled" in diagnostic.message


def test_redouble_of_own_sides_double_is_auc003() -> None:
    diagnostic = only(check_auction(auction(N, "1S X Pass XX Pass Pass Pass")), "AUC003")
    assert diagnostic.path == ("call", 3)
    assert "opponents" in diagnostic.message


def test_redouble_after_own_sides_illegal_double_is_auc003() -> None:
    diagnostics = list(check_auction(auction(N, "1S Pass X Pass XX Pass Pass Pass")))
    assert codes(diagnostics) == ["AUC002", "AUC003"]
    assert diagnostics[1].path == ("call", 4)
    assert mentions(diagnostics[1], "doubled by North's own side")


def test_double_of_own_bid_after_skipped_turns_is_auc002() -> None:
    diagnostic = only(check_auction(auction(N, "1S ^S ^S ^S X Pass Pass Pass")), "AUC002")
    assert diagnostic.path == ("call", 4)
    assert mentions(diagnostic, "North's own bid")


def test_redouble_before_any_bid_is_auc003() -> None:
    diagnostic = only(check_auction(auction(N, "XX 1S Pass Pass Pass")), "AUC003")
    assert diagnostic.path == ("call", 0)


def test_second_redouble_is_auc003() -> None:
    diagnostic = only(check_auction(auction(N, "1S X XX Pass XX Pass Pass Pass")), "AUC003")
    assert diagnostic.path == ("call", 4)


def test_a_new_bid_cancels_the_double() -> None:
    calls = auction(N, "1S X 2S X Pass Pass Pass")
    assert list(check_auction(calls)) == []
    assert auction_outcome(calls).contract == Contract(2, Strain.SPADES, Doubling.DOUBLED)
    undoubled = auction(N, "1S X 2S Pass Pass Pass")
    assert auction_outcome(undoubled).contract == Contract(2, Strain.SPADES)


def test_call_after_the_auction_ended_is_auc004_once() -> None:
    diagnostics = list(check_auction(auction(N, "1S Pass Pass Pass 2H Pass")))
    assert codes(diagnostics) == ["AUC004"]
    assert diagnostics[0].path == ("call", 4)
    assert "2H" in diagnostics[0].message


def test_call_after_four_passes_is_auc004() -> None:
    diagnostic = only(check_auction(auction(E, "Pass Pass Pass Pass Pass")), "AUC004")
    assert diagnostic.path == ("call", 4)


def test_unreadable_text_after_the_end_is_left_to_the_reader() -> None:
    assert list(check_auction(auction(N, "1S Pass Pass Pass relay"))) == []


def test_unfinished_auction_without_marker_is_auc005() -> None:
    diagnostic = only(check_auction(auction(N, "1S Pass 2S")), "AUC005")
    assert diagnostic.path == ("section", "Auction")
    assert "3 call(s)" in diagnostic.message


@pytest.mark.parametrize(
    "calls",
    [auction(N, "1S Pass 2S", SectionEnd.STOP), auction(N, "1S Pass 2S +")],
    ids=["star", "plus"],
)
def test_unfinished_auction_with_star_or_plus_is_legal(calls: Auction) -> None:
    assert list(check_auction(calls)) == []


def test_unreadable_call_stops_the_auction_checks() -> None:
    assert list(check_auction(auction(N, "1S relay 1C Pass"))) == []


def test_skipped_turn_moves_the_rotation_on() -> None:
    # North opens, East's turn is skipped, so the double comes from South: North's partner.
    diagnostic = only(check_auction(auction(N, "1S ^S X Pass Pass Pass")), "AUC002")
    assert diagnostic.path == ("call", 2)
    outcome = auction_outcome(auction(W, "1S ^S 2S Pass Pass Pass"))
    assert outcome.declarer is W


def test_declarer_is_the_first_of_the_side_to_name_the_strain() -> None:
    # East names hearts first, but for North-South it was South, before North's 4H.
    outcome = auction_outcome(auction(N, "1C 1H 2H Pass 4H Pass Pass Pass"))
    assert outcome.declarer is S
    assert outcome.contract == Contract(4, Strain.HEARTS)
    assert outcome.complete and outcome.end_index == 7


def test_partner_raising_to_the_final_level_does_not_become_declarer() -> None:
    outcome = auction_outcome(auction(N, "1NT Pass 3NT Pass Pass Pass"))
    assert outcome.declarer is N


def test_four_passes_pass_the_board_out() -> None:
    outcome = auction_outcome(auction(S, "Pass Pass Pass Pass"))
    assert outcome.complete
    assert outcome.contract is PASSED_OUT
    assert outcome.declarer is None


def test_three_passes_at_the_start_do_not_end_the_auction() -> None:
    assert not auction_outcome(auction(S, "Pass Pass Pass")).complete


# --- Stated contract, declarer and result ------------------------------------------------------


def test_stated_contract_differing_from_the_auction_is_con001() -> None:
    diagnostic = only(check_contract(spread_board(contract=Contract(4, Strain.NOTRUMP))), "CON001")
    assert diagnostic.path == ("tag", "Contract")
    assert mentions(diagnostic, "Contract 4NT", "ends in 3NT")


def test_stated_doubling_differing_from_the_auction_is_con001() -> None:
    stated = Contract(3, Strain.NOTRUMP, Doubling.DOUBLED)
    assert codes(check_contract(spread_board(contract=stated))) == ["CON001"]


def test_stated_contract_with_passed_out_auction_is_con001() -> None:
    board = spread_board(auction=auction(N, "Pass Pass Pass Pass"), declarer=None)
    assert codes(check_contract(board)) == ["CON001"]


def test_stated_pass_matches_a_passed_out_auction() -> None:
    board = spread_board(
        auction=auction(N, "Pass Pass Pass Pass"), contract=PASSED_OUT, declarer=None
    )
    assert list(check_board(board)) == []


def test_stated_declarer_differing_from_the_auction_is_con002() -> None:
    diagnostic = only(check_contract(spread_board(declarer=N)), "CON002")
    assert diagnostic.path == ("tag", "Declarer")
    assert mentions(diagnostic, "Declarer N", "South first named notrump")


def test_irregular_declarer_is_not_compared_with_the_auction() -> None:
    board = spread_board("C9 C6 C2 CA", first=E, declarer=N, declarer_irregular=True)
    assert list(check_board(board)) == []


def test_incomplete_auction_with_star_lets_the_tags_give_the_contract() -> None:
    board = spread_board(auction=auction(N, "Pass Pass 1NT", SectionEnd.STOP))
    assert list(check_contract(board)) == []


def test_passed_out_board_with_declarer_and_result_is_con006() -> None:
    board = spread_board(
        auction=auction(N, "Pass Pass Pass Pass"),
        contract=PASSED_OUT,
        declarer=S,
        result=Result(7),
    )
    found = [d for d in check_contract(board) if d.code == "CON006"]
    assert [d.path for d in found] == [("tag", "Declarer"), ("tag", "Result")]


def test_passed_out_stated_contract_with_result_is_con006_without_auction() -> None:
    board = Board(contract=PASSED_OUT, result=Result(0))
    assert codes(check_board(board)) == ["CON006"]


@pytest.mark.parametrize("tricks", [-1, 14, 99])
def test_result_outside_zero_to_thirteen_is_con003(tricks: int) -> None:
    diagnostic = only(check_contract(spread_board(result=Result(tricks))), "CON003")
    assert diagnostic.path == ("tag", "Result")


# --- Play -----------------------------------------------------------------------------------


def test_card_not_in_the_players_hand_is_ply001_naming_the_holder() -> None:
    # North plays the club two, which is West's.
    board = spread_board("C3 C2 C9 C6")
    diagnostics = list(check_play(board))
    diagnostic = only(diagnostics, "PLY001")
    assert diagnostic.path == ("card", 0, N)
    assert mentions(diagnostic, "North plays C2", "North's hand (West holds it)")


def _full_play_board(seed: int) -> Board:
    """A random board with a whole play (13 tricks, no claim)."""
    rng = random.Random(seed)
    while True:
        board = random_board(rng, 1, claim_probability=0.0, passout_probability=0.0)
        if board.play is not None and board.play.card_count == 52:
            return board


def test_a_play_written_a_seat_out_is_one_ply001_counting_the_other_cards() -> None:
    # Every card moved to the next seat's column (a Play tag one seat out): 52 cards not held,
    # one finding at the first, which counts the other 51 and names the likely cause.
    board = _full_play_board(5)
    assert board.play is not None
    assert "PLY001" not in codes(check_play(board))
    rows = tuple(
        tuple(row[seat.next(-1)] for seat in Seat)  # the card of seat X now under seat X+1
        for row in board.play.tricks
    )
    moved = dataclasses.replace(board, play=dataclasses.replace(board.play, tricks=rows))
    diagnostic = only(check_play(moved), "PLY001")
    assert diagnostic.path is not None and diagnostic.path[:2] == ("card", 0)
    assert mentions(diagnostic, "51 later cards", "tricks 1-13", "right-hand opponent")
    assert mentions(diagnostic, "one seat out")
    assert len(list(check_board(moved))) < 5  # not one line per card


def test_two_cards_not_held_are_one_ply001_naming_the_later_trick() -> None:
    board = _full_play_board(6)
    assert board.play is not None
    tricks = [list(row) for row in board.play.tricks]
    # Swap two cards of different players in trick 2 and trick 9 with cards of their partners
    # played later (a card not held, twice).
    for number in (1, 8):
        row = tricks[number]
        row[N], row[S] = row[S], row[N]
    moved = dataclasses.replace(
        board,
        play=dataclasses.replace(board.play, tricks=tuple(tuple(row) for row in tricks)),
    )
    diagnostic = only(check_play(moved), "PLY001")
    assert diagnostic.path == ("card", 1, N) or diagnostic.path == ("card", 1, S)
    assert mentions(diagnostic, "3 later cards", "(tricks 2, 9)"), diagnostic.message


def test_card_of_an_unknown_hand_held_by_a_known_hand_is_ply001() -> None:
    partial = deal("N:AKQJ.AKQ.AKQ.AKQ - 6543.876.876.876 -")
    board = spread_board("C2 CA CQ C6", deal=partial)
    diagnostic = only(check_play(board), "PLY001")
    assert diagnostic.path == ("card", 0, E)


def test_unknown_hands_suspend_ownership_and_revoke_checks() -> None:
    partial = deal("N:AKQJ.AKQ.AKQ.AKQ - 6543.876.876.876 -")
    # West leads a heart (any card: West's hand is unknown); East discards a spade.
    board = spread_board("H2 HA S9 H6", deal=partial)
    assert list(check_play(board)) == []


def test_card_played_twice_is_ply002() -> None:
    board = spread_board("C2 CA C9 C6 / C3 CK CJ CA")
    diagnostic = only(check_play(board), "PLY002")
    assert diagnostic.path == ("card", 1, S)
    assert mentions(diagnostic, "CA", "first in trick 1")


def test_not_following_suit_while_able_is_ply003() -> None:
    # East holds three clubs but plays a spade on West's club lead.
    board = spread_board("C2 CA S9 C6")
    diagnostic = only(check_play(board), "PLY003")
    assert diagnostic.path == ("card", 0, E)
    assert mentions(diagnostic, "East plays S9 on a club lead", "holding CJ, CT, C9")


def test_revoke_marked_with_r_is_accepted() -> None:
    assert list(check_play(spread_board("C2 CA ^RS9 C6"))) == []


def test_revoke_mark_on_a_card_that_follows_suit_is_ply007() -> None:
    diagnostic = only(check_play(spread_board("C2 CA ^RC9 C6")), "PLY007")
    assert diagnostic.path == ("card", 0, E)


def test_revoke_mark_on_a_lead_is_ply007() -> None:
    diagnostic = only(check_play(spread_board("^RC2 CA C9 C6")), "PLY007")
    assert diagnostic.path == ("card", 0, W)


def test_revoke_mark_on_a_discard_from_a_void_is_ply007() -> None:
    # West, void in spades after the second trick, discards a heart and marks it ^R.
    board = spread_board("C2 CA C9 C6 / S2 SA S7 S3 / ^RH2 SK S8 S4")
    diagnostic = only(check_play(board), "PLY007")
    assert diagnostic.path == ("card", 2, W)


def test_unknown_lead_suspends_the_revoke_check() -> None:
    assert list(check_play(spread_board("- CA S9 C6"))) == []


def test_unknown_earlier_card_suspends_a_revoke_that_it_might_explain() -> None:
    # West leads the spade two.  A ^L lead in trick 2 keeps the play sequenced after the
    # unknown card; East's earlier unknown card may have been its last club.
    one_club_east = deal("N:AKQJ.AKQ.AKQ.AKQ T9876.JT98.JT9.9 543.7654.876.876 2.32.5432.JT5432")
    unknown = spread_board("S2 SA - S3 / ^LC2 CA S9 C6", deal=one_club_east)
    assert codes(check_play(unknown)) == []
    known = spread_board("S2 SA ST S3 / C2 CA S9 C6", deal=one_club_east)
    assert codes(check_play(known)) == ["PLY003"]


def test_opening_lead_by_the_wrong_seat_is_ply004() -> None:
    board = spread_board("CA C9 C6 C2", first=N)
    diagnostic = only(check_play(board), "PLY004")
    assert diagnostic.path == ("card", 0, N)
    assert mentions(diagnostic, "lead by North", "South's left-hand opponent is West")


def test_lead_out_of_turn_marked_with_l_is_accepted() -> None:
    assert list(check_play(spread_board("^LCA C9 C6 C2", first=N))) == []


def test_lead_mark_on_the_rightful_opening_leader_is_ply008() -> None:
    diagnostic = only(check_play(spread_board("^LC2 CA C9 C6")), "PLY008")
    assert diagnostic.path == ("card", 0, W)


def test_lead_mark_on_the_winner_of_the_previous_trick_is_ply008() -> None:
    diagnostic = only(check_play(spread_board("C2 CA C9 C6 / S2 ^LSA S7 S3")), "PLY008")
    assert diagnostic.path == ("card", 1, N)


def test_lead_out_of_turn_later_in_the_play_is_followed() -> None:
    # North won trick 1, but East leads trick 2; then the rest follows East's lead.
    assert list(check_play(spread_board("C2 CA C9 C6 / S2 SA ^LS7 S3"))) == []


def test_card_after_thirteen_tricks_is_ply005() -> None:
    board = generated(1, full_play=True)
    assert board.play is not None
    extra = (Card.parse("SA"), None, None, None)
    longer = dataclasses.replace(board.play, tricks=(*board.play.tricks, extra))
    diagnostic = only(check_play(dataclasses.replace(board, play=longer)), "PLY005")
    assert diagnostic.path == ("card", 13, N)


def test_play_without_a_contract_is_ply006_and_still_checks_owners() -> None:
    board = spread_board("C3 C2 C9 C6", contract=None, auction=None)
    diagnostics = list(check_play(board))
    assert codes(diagnostics) == ["PLY006", "PLY001"]
    assert diagnostics[0].path == ("section", "Play")
    assert "contract unknown" in diagnostics[0].message


def test_play_without_a_declarer_is_ply006_but_checks_revokes() -> None:
    board = spread_board("C2 CA S9 C6", declarer=None, auction=None)
    diagnostics = list(check_play(board))
    assert codes(diagnostics) == ["PLY006", "PLY003"]
    assert "declarer unknown" in diagnostics[0].message


def test_play_of_a_passed_out_board_is_ply006() -> None:
    board = spread_board("C2 CA C9 C6", auction=None, contract=PASSED_OUT, declarer=None)
    diagnostic = only(check_board(board), "PLY006")
    assert mentions(diagnostic, "passed out")


def test_empty_play_section_without_contract_is_not_ply006() -> None:
    board = spread_board("- - - -", contract=None, auction=None)
    assert list(check_play(board)) == []


def test_contract_and_declarer_for_the_play_come_from_the_auction_when_not_stated() -> None:
    board = spread_board("CA C9 C6 C2", first=N, declarer=None, contract=None)
    assert codes(check_play(board)) == ["PLY004"]


def test_end_position_is_checked_without_declarer() -> None:
    board = Board(
        deal=deal("N:A2.K.. ..AQ.7 .3.KJ. K.Q.T."),
        contract=Contract(None, Strain.HEARTS),
        play=play(S, "DK DT HK DA / H3 SK SA C7 / DJ HQ S2 DQ"),
    )
    assert list(check_board(board)) == []


def test_end_position_card_not_held_is_ply001() -> None:
    board = Board(
        deal=deal("N:A2.K.. ..AQ.7 .3.KJ. K.Q.T."),
        contract=Contract(None, Strain.HEARTS),
        play=play(S, "DK D9 HK DA"),
    )
    diagnostic = only(check_board(board), "PLY001")
    assert diagnostic.path == ("card", 0, W)
    assert diagnostic.message.endswith("West's hand")


def test_end_position_card_after_its_last_trick_is_ply005() -> None:
    board = Board(
        deal=deal("N:A2.K.. ..AQ.7 .3.KJ. K.Q.T."),
        contract=Contract(None, Strain.HEARTS),
        play=play(S, "DK DT HK DA / H3 SK SA C7 / DJ HQ S2 DQ / SA - - -"),
    )
    assert codes(check_board(board)) == ["PLY005"]


# --- Result against the play --------------------------------------------------------------------


def test_result_differing_from_a_complete_play_is_con004() -> None:
    board = generated(2, full_play=True)
    assert board.result is not None
    wrong = Result((board.result.tricks + 1) % 14)
    diagnostic = only(check_result(dataclasses.replace(board, result=wrong)), "CON004")
    assert diagnostic.path == ("tag", "Result")


def test_irregular_result_is_not_compared_with_the_play() -> None:
    board = generated(2, full_play=True)
    assert board.result is not None
    agreed = Result((board.result.tricks + 1) % 14, irregular=True)
    assert list(check_result(dataclasses.replace(board, result=agreed))) == []


def test_claim_giving_more_tricks_than_remain_is_con005() -> None:
    # East declares; North wins the first two tricks, so a claim of 12 is impossible.
    board = spread_board("C6 C2 CA C9 / S3 S2 SA S7", first=S, declarer=E, auction=None)
    board = dataclasses.replace(board, result=Result(12))
    diagnostic = only(check_result(board), "CON005")
    assert diagnostic.path == ("tag", "Result")
    assert mentions(diagnostic, "Result 12", "0 of 2 tricks", "0-11 is possible")


def test_claim_taking_away_tricks_already_won_is_con005() -> None:
    board = spread_board("C2 CA C9 C6 / S2 SA S7 S3", result=Result(1))
    assert codes(check_result(board)) == ["CON005"]


@pytest.mark.parametrize("tricks", [2, 9, 13])
def test_claim_within_the_possible_range_is_legal(tricks: int) -> None:
    board = spread_board("C2 CA C9 C6 / S2 SA S7 S3", result=Result(tricks))
    assert list(check_result(board)) == []


def test_partial_play_without_star_and_a_different_result_is_con007() -> None:
    board = spread_board("C2 CA C9 C6 / S2 SA S7 S3", end=SectionEnd.OPEN, result=Result(9))
    diagnostic = only(check_result(board), "CON007")
    assert diagnostic.path == ("tag", "Result")
    assert mentions(diagnostic, "Result 9", "2 tricks played so far gave declarer 2")


def test_partial_play_without_star_and_the_tricks_won_so_far_is_legal() -> None:
    board = spread_board("C2 CA C9 C6 / S2 SA S7 S3", end=SectionEnd.OPEN, result=Result(2))
    assert list(check_board(board)) == []


def test_an_unfinished_last_trick_does_not_count_toward_the_tricks_won_so_far() -> None:
    unfinished = "C2 CA C9 C6 / S2 SA - -"
    assert list(check_board(spread_board(unfinished, end=SectionEnd.OPEN, result=Result(1)))) == []
    wrong = spread_board(unfinished, end=SectionEnd.OPEN, result=Result(2))
    assert mentions(only(check_result(wrong), "CON007"), "1 tricks played so far gave declarer 1")


def test_partial_play_ending_with_plus_is_not_con007() -> None:
    board = spread_board("C2 CA C9 C6 / - + - -", end=SectionEnd.OPEN, result=Result(9))
    assert list(check_result(board)) == []


def test_end_position_result_is_not_compared_with_the_play() -> None:
    board = Board(
        deal=deal("N:A2.K.. ..AQ.7 .3.KJ. K.Q.T."),
        contract=Contract(None, Strain.HEARTS),
        declarer=S,
        result=Result(9),
        play=play(S, "DK DT HK DA / H3 SK SA C7 / DJ HQ S2 DQ"),
    )
    assert list(check_board(board)) == []


# --- Score ----------------------------------------------------------------------------------


def test_score_differing_from_the_duplicate_score_is_sco001() -> None:
    board = spread_board(result=Result(10), score=Score(420))
    diagnostic = only(check_score(board), "SCO001")
    assert diagnostic.path == ("tag", "Score")
    assert mentions(diagnostic, "Score 420", "3NT by S with 10 tricks, not vulnerable", "430")


def test_score_for_a_named_side_is_converted() -> None:
    assert list(check_score(spread_board(result=Result(8), score=Score(50, Side.EW)))) == []
    assert list(check_score(spread_board(result=Result(8), score=Score(-50, Side.NS)))) == []
    wrong = spread_board(result=Result(8), score=Score(-50, Side.EW))
    assert "which scores EW 50" in only(check_score(wrong), "SCO001").message


def test_score_uses_declarers_vulnerability() -> None:
    board = spread_board(result=Result(9), score=Score(600), vulnerability=Vulnerability.NS)
    assert list(check_score(board)) == []


def test_passed_out_board_scores_zero() -> None:
    passed = spread_board(
        auction=auction(N, "Pass Pass Pass Pass"), contract=None, declarer=None, score=Score(0)
    )
    assert list(check_score(passed)) == []
    diagnostic = only(check_score(dataclasses.replace(passed, score=Score(50))), "SCO001")
    assert "which scores 0" in diagnostic.message


def test_score_is_not_checked_without_a_result() -> None:
    assert list(check_score(spread_board(score=Score(1234)))) == []


# --- Board conventions ----------------------------------------------------------------------


def test_dealer_off_the_16_board_cycle_is_brd001() -> None:
    diagnostic = only(check_conventions(spread_board(number=2)), "BRD001")
    assert diagnostic.path == ("tag", "Dealer")
    assert mentions(diagnostic, "Dealer N", "board 2 is dealt by E")


def test_vulnerability_off_the_16_board_cycle_is_brd002() -> None:
    board = spread_board(number=17, vulnerability=Vulnerability.ALL)
    diagnostic = only(check_conventions(board), "BRD002")
    assert diagnostic.path == ("tag", "Vulnerable")
    assert mentions(diagnostic, "Vulnerable All", "board 17 has None")


def test_board_without_number_is_not_compared_with_the_cycle() -> None:
    assert list(check_conventions(spread_board(number=None, dealer=W))) == []


# --- Everything -----------------------------------------------------------------------------


def test_check_board_reports_groups_in_order() -> None:
    bad_deal = deal("N:AKQJ.AKQ.AKQ.AKQ A987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
    board = spread_board(
        "C2 CA S9 C6",
        deal=bad_deal,
        auction=auction(N, "Pass Pass 3NT Pass Pass Pass 4S"),
        contract=Contract(4, Strain.NOTRUMP),
        result=Result(0),
        score=Score(100),
        number=2,
    )
    assert codes(check_board(board)) == [
        "HND001",
        "AUC004",
        "CON001",
        "PLY003",
        "CON005",
        "SCO001",
        "BRD001",
        "BRD002",
    ]


def test_empty_board_has_no_diagnostics() -> None:
    assert list(check_board(Board())) == []


# --- Sequencing -----------------------------------------------------------------------------


def test_trick_winner_is_the_highest_trump_else_the_highest_of_the_suit_led() -> None:
    cards = [Card.parse(text) for text in ("D5", "DA", "C2", "H3")]
    assert trick_winner(cards, None) == 1
    assert trick_winner(cards, Suit.CLUBS) == 2
    assert trick_winner(cards[:3], Suit.SPADES) == 1


def test_sequence_play_follows_the_trick_winners() -> None:
    tricks = sequence_play(play(W, "C2 CA C9 C6 / S2 SA S7 S3 / - SK S8 S4"), None)
    assert [(t.number, t.leader, t.winner) for t in tricks] == [
        (0, W, N),
        (1, N, N),
        (2, N, None),
    ]
    assert tricks[1].cards[0] == (N, Card.parse("SA"))
    assert [seat for seat, _ in tricks[2].cards] == [N, E, S, W]


def test_sequence_play_stops_where_the_leader_is_unknown() -> None:
    tricks = sequence_play(play(W, "C2 - C9 C6 / SA S7 S3 S2"), None)
    assert len(tricks) == 1


# --- Properties -----------------------------------------------------------------------------


@given(seed=st.integers(0, 2**32), position=st.integers(1, 30))
def test_a_bid_below_the_last_one_is_always_insufficient(seed: int, position: int) -> None:
    board = random_board(random.Random(seed), 1, play=False, passout_probability=0.0)
    assert board.auction is not None
    calls = board.auction.calls
    bids = [index for index, entry in enumerate(calls) if isinstance(entry, Bid)]
    index = bids[position % len(bids)]
    if index == 0 or not any(isinstance(entry, Bid) for entry in calls[:index]):
        return
    lowest = Bid.of(1, Strain.CLUBS)
    changed = (*calls[:index], lowest, *calls[index + 1 :])
    auc001 = [d for d in check_auction(dataclasses.replace(board.auction, calls=changed))]
    assert ("AUC001", ("call", index)) in [(d.code, d.path) for d in auc001]


RULES_MODULES = ("_common", "auction", "board", "check", "deal", "outcome", "play")


def test_doctests_pass() -> None:
    """The examples of every module of rules (``rules.__test__`` names the re-exported ones,
    which doctest finds only where they are Python functions, not compiled)."""
    modules = [rules, *(importlib.import_module(f"pbntool.rules.{name}") for name in RULES_MODULES)]
    results = [run_doctests(module) for module in modules]
    assert sum(result.attempted for result in results) > 0
    assert sum(result.failed for result in results) == 0
