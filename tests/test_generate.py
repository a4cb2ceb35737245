import doctest
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from pbntool.dev import generate
from pbntool.dev.generate import random_board, random_boards
from pbntool.model import PASSED_OUT, SectionEnd
from pbntool.rules import auction_outcome, check_board
from pbntool.scoring import board_dealer, board_vulnerability

MANDATORY_TAGS = [
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
    "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
]  # fmt: skip


def test_thousands_of_generated_boards_have_no_diagnostics() -> None:
    found = Counter(d.code for board in random_boards(2024, 3000) for d in check_board(board))
    assert found == Counter()


@pytest.mark.parametrize(
    "options",
    [
        {"play": False},
        {"claim_probability": 1.0},
        {"claim_probability": 0.0},
        {"passout_probability": 1.0},
    ],
    ids=["no-play", "always-claim", "never-claim", "always-passed-out"],
)
def test_generated_boards_have_no_diagnostics_with_any_options(options: dict[str, object]) -> None:
    boards = list(random_boards(7, 300, **options))  # type: ignore[arg-type]
    assert [d for board in boards for d in check_board(board)] == []


def test_the_same_seed_gives_the_same_boards() -> None:
    assert list(random_boards(99, 50)) == list(random_boards(99, 50))


def test_the_same_seed_gives_the_same_boards_in_another_interpreter() -> None:
    # String hashing, and so set order, changes between runs; the boards must not.
    script = (
        "from pbntool.dev.generate import random_boards\n"
        "for board in random_boards(5, 20):\n"
        "    print([(tag.name, tag.value) for tag in board.tags], board.play)\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": seed},
            cwd=Path(__file__).parent.parent,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1


def test_different_seeds_give_different_deals() -> None:
    first = [board.deal for board in random_boards(1, 5)]
    second = [board.deal for board in random_boards(2, 5)]
    assert first != second


def test_boards_are_numbered_and_follow_the_16_board_cycle() -> None:
    boards = list(random_boards(3, 40))
    assert [board.number for board in boards] == list(range(1, 41))
    for board in boards:
        assert board.number is not None
        assert board.dealer is board_dealer(board.number)
        assert board.vulnerability is board_vulnerability(board.number)
        assert board.auction is not None and board.auction.first is board.dealer


def test_mix_of_outcomes_is_plausible() -> None:
    boards = list(random_boards(5, 2000))
    passed_out = sum(1 for b in boards if b.contract is PASSED_OUT)
    claims = sum(1 for b in boards if b.play is not None and b.play.end is SectionEnd.STOP)
    doubled = sum(1 for b in boards if b.contract is not None and b.contract.doubling)
    slams = sum(1 for b in boards if b.contract is not None and (b.contract.level or 0) >= 6)
    assert 40 <= passed_out <= 200
    assert 200 <= claims <= 600
    assert 50 <= doubled <= 600
    assert 10 <= slams <= 300


def test_stated_contract_and_declarer_are_the_auctions() -> None:
    for board in random_boards(11, 200):
        assert board.auction is not None
        outcome = auction_outcome(board.auction)
        assert outcome.complete
        assert board.contract == outcome.contract
        assert board.declarer is outcome.declarer


def test_tags_hold_the_mandatory_set_in_export_order_then_score_auction_play() -> None:
    board = next(b for b in random_boards(4, 50) if b.play is not None)
    names = [tag.name for tag in board.tags]
    assert names == [*MANDATORY_TAGS, "Score", "Auction", "Play"]
    assert all(tag.value.isascii() for tag in board.tags)


def test_tag_values_are_canonical_pbn() -> None:
    board = next(b for b in random_boards(4, 50) if b.play is not None)
    assert board.dealer is not None and board.deal is not None and board.play is not None
    assert board.tag("Board") == str(board.number)
    assert board.tag("Dealer") == board.dealer.letter
    assert board.tag("Vulnerable") == str(board.vulnerability)
    seats = [board.dealer.next(step) for step in range(4)]
    hands = " ".join(str(board.deal.hands[seat]) for seat in seats)
    assert board.tag("Deal") == f"{board.dealer.letter}:{hands}"
    assert board.tag("Contract") == str(board.contract)
    assert board.tag("Declarer") == (board.declarer.letter if board.declarer else "")
    assert board.tag("Result") == str(board.result)
    assert board.tag("Score") == str(board.score.points if board.score else None)
    assert board.tag("Auction") == board.dealer.letter
    assert board.tag("Play") == board.play.first.letter
    assert board.declarer is not None and board.play.first is board.declarer.lho
    date = board.tag("Date") or ""
    assert len(date) == 10 and date[4] == date[7] == "."


def test_passed_out_board_has_empty_declarer_and_result_and_no_play() -> None:
    board = random_board(random.Random(0), 8, passout_probability=1.0)
    assert board.contract is PASSED_OUT
    assert board.play is None and board.declarer is None and board.result is None
    assert board.score is not None and board.score.points == 0
    assert (board.tag("Declarer"), board.tag("Result"), board.tag("Score")) == ("", "", "0")
    assert board.tag("Play") is None


def test_claims_stop_early_with_a_star() -> None:
    boards = list(random_boards(6, 200, claim_probability=1.0))
    played = [b.play for b in boards if b.play is not None]
    assert played and all(p.end is SectionEnd.STOP and len(p.tricks) < 14 for p in played)
    assert any(len(p.tricks) < 13 for p in played)


def test_every_card_is_dealt_once() -> None:
    for board in random_boards(8, 100):
        assert board.deal is not None
        hands = [hand for hand in board.deal.hands if hand is not None]
        assert [len(hand) for hand in hands] == [13, 13, 13, 13]
        assert len(frozenset().union(*(hand.cards for hand in hands))) == 52


def test_full_play_uses_every_card() -> None:
    board = random_board(random.Random(12), 1, claim_probability=0.0, passout_probability=0.0)
    assert board.play is not None
    cards = [slot for trick in board.play.tricks for slot in trick]
    assert len(cards) == 52 and len(set(cards)) == 52


def test_doctests_pass() -> None:
    results = doctest.testmod(generate)
    assert results.attempted > 0
    assert results.failed == 0
