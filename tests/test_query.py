"""The ``--where`` language: every field on a board whose values are worked out by hand, the
operators and functions, null semantics, errors with their columns, and properties checked
on generated boards against values computed independently."""

from __future__ import annotations

import io
import pickle
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbntool.dev.generate import random_boards
from pbntool.formats.pbn import iter_records
from pbntool.formats.pbn.writer import dumps
from pbntool.model import Board, Seat, Suit
from pbntool.records import Record
from pbntool.rules.outcome import board_outcome
from pbntool.tools.select import FAMILIES, FIELDS, QueryError, compile_query, parse_board_ranges
from pbntool.tools.select import fields as fields_module
from pbntool.tools.select.compiler import FUNCTIONS

# The PBN 2.1 summary's §18.1 game: 4SX by South, made 11, both vulnerable, three tricks
# played and a claim.  Hands: N QT6.QT7.KQ753.T5 (9 HCP, 3-3-5-2), E 2.A932.J864.QJ96
# (8, 1-4-4-4), S AJ98743.5.AT9.AK (16, 7-1-3-2), W K5.KJ864.2.87432 (7, 2-5-1-5).
GAME = """\
[Event "Spring Club Pairs"]
[Site "Utrecht NLD"]
[Date "2024.04.12"]
[Board "7"]
[West "Jansen, P."]
[North "de Vries, A."]
[East "Bakker, M."]
[South "Visser, L."]
[Dealer "S"]
[Vulnerable "All"]
[Deal "S:AJ98743.5.AT9.AK K5.KJ864.2.87432 QT6.QT7.KQ753.T5 2.A932.J864.QJ96"]
[Scoring "MP;MP2"]
[Declarer "S"]
[Contract "4SX"]
[Result "11"]
[Score "NS 990"]
[Room "Open"]
[Auction "S"]
1S 2H 3H 4H
4S Pass Pass X
Pass Pass Pass
[Play "W"]
D2 D3 DJ DA
S5 S6 S2 SA
SK SQ H2 S3
*
"""


def record_of(text: str) -> Record:
    records = [r for r in iter_records(io.BytesIO(text.encode()), "game.pbn") if r.board]
    assert len(records) == 1
    return records[0]


GAME_RECORD = record_of(GAME)


def holds(expression: str, record: Record = GAME_RECORD) -> bool:
    return compile_query(expression).matches(record)


# --- fields --------------------------------------------------------------------------------------


WORKED_EXAMPLE = [
    "board == 7",
    'event == "Spring Club Pairs"',
    'site ~ "Utrecht"',
    'date >= "2024.01.01" and date < "2025"',
    'scoring == "MP;MP2"',
    'file == "game.pbn" and line == 1',
    'dealer == "S" and dealer == "South" and dealer != "N"',
    'vul == "All" and vul == "Both" and vul != "None"',
    'declarer == "S"',
    'contract == "4SX" and contract != "4S" and contract >= "4S" and contract < "4NT"',
    'level == 4 and strain == "S" and strain == "spades" and strain != "NT"',
    "doubled and not redoubled and not passed_out",
    "result == 11 and made and not down and overtricks == 1 and undertricks == 0",
    "score_ns == 990 and stated_score_ns == 990",
    "hcp.N == 9 and hcp.E == 8 and hcp.S == 16 and hcp.W == 7",
    "hcp.NS == 25 and hcp.EW == 15 and hcp.n + hcp.s == hcp.NS",
    'shape.S == "7-1-3-2" and shape.S == "7321" and shape.S == "7-x-x-x"',
    'shape.E == "4441" and shape.E == "1-4-4-4" and shape.N in ("5332", "4432")',
    "spades.S == 7 and hearts.W == 5 and diamonds.N == 5 and clubs.E == 4",
    "spades.NS == 10 and hearts.EW == 9",
    'auction == "1S 2H 3H 4H 4S P P X P P P"',
    'startswith(auction, "1S 2H") and not startswith(auction, "1S Pass")',
    'contains(auction, "4S Pass Pass X") and "4H 4S" in auction',
    'endswith(auction, "X Pass Pass Pass")',
    'opening == "1S" and opener == "S" and opening < "1NT"',
    "len(auction) == 11",
    "has_deal and has_auction and has_play and claimed",
    'north == "de Vries, A." and "Visser, L." in players and players ~ "^Jan"',
    '"Vries" in north and len(players) == 4 and east == "Bakker, M."',
    'south == "Visser, L." and west == "Jansen, P."',
    'tag.Room == "Open" and tag("Room") == "Open" and has_tag("Room")',
    'not has_tag("Annotator") and tag.Annotator == null',
    'lower(event) == "spring club pairs"',
    "abs(-3) == 3 and -level == -4 and +level == 4 and level - 1 == 3",
]


@pytest.mark.parametrize("expression", WORKED_EXAMPLE)
def test_fields_of_the_worked_example(expression: str) -> None:
    assert holds(expression)


@pytest.mark.parametrize(
    "expression",
    [
        "board == 8",
        'declarer == "N"',
        "down",
        'shape.S == "7-2-2-2"',
        'startswith(auction, "1S Pass")',
        '"4NT" in auction',
        "not made",
        "passed_out",
        'players ~ "Smith"',
    ],
)
def test_false_conditions(expression: str) -> None:
    assert not holds(expression)


def test_every_field_and_family_is_tried_here() -> None:
    """Each documented field is exercised on the worked example (the list above)."""
    text = " ".join(WORKED_EXAMPLE)
    for name in FIELDS:
        assert name in text, name
    for prefix in FAMILIES:
        assert f"{prefix}." in text or f"{prefix}(" in text, prefix


# --- null and unknown values ----------------------------------------------------------------------

HAND_RECORD = record_of(
    '[Board "3"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("declarer == null", True),
        ("declarer != null", False),
        ('declarer != "S"', True),
        ("level > 0", False),
        ("level <= 7", False),
        ("made", False),
        ("down", False),
        ("not made", True),
        ("result == null and contract == null and score_ns == null", True),
        ("level + 1 == null", True),
        ('event ~ "x"', False),
        ('event !~ "x"', False),
        ('"x" in event', False),
        ("has_auction", False),
        ("claimed", False),
        ("len(players) == 0", True),
        ("hcp.N == 10 and hcp.NS == 20", True),
        ("has_deal", True),
    ],
)
def test_unknown_values_are_null(expression: str, expected: bool) -> None:
    assert holds(expression, HAND_RECORD) is expected


def test_passed_out_board() -> None:
    record = record_of('[Board "1"]\n[Dealer "N"]\n[Auction "N"]\nPass Pass Pass Pass\n')
    assert holds('passed_out and contract == "Pass" and level == 0', record)
    assert holds("not doubled and not made and not down and opening == null", record)
    assert holds("score_ns == 0 and declarer == null", record)


def test_contract_and_declarer_come_from_the_auction_when_not_stated() -> None:
    record = record_of('[Board "1"]\n[Dealer "N"]\n[Auction "N"]\n1NT Pass 3NT Pass\nPass Pass\n')
    assert holds('contract == "3NT" and declarer == "N" and result == null', record)


def test_stated_declarer_north_is_kept() -> None:
    # North is Seat 0: a stated North must not be replaced by the auction's declarer.
    record = record_of(
        '[Board "1"]\n[Dealer "S"]\n[Declarer "N"]\n[Contract "1NT"]\n'
        '[Auction "S"]\n1NT Pass Pass Pass\n'
    )
    assert holds('declarer == "N"', record)


# --- diagnostics ---------------------------------------------------------------------------------

BAD_AUCTION = record_of('[Board "1"]\n[Dealer "N"]\n[Auction "N"]\n1S 1H Pass Pass\nPass\n')


def test_has_error_sees_the_laws_checks() -> None:
    assert holds('has_error("AUC001")', BAD_AUCTION)
    assert holds('has_error("AUC") and has_error() and has_diagnostic("AUC")', BAD_AUCTION)
    assert not holds('has_warning("AUC001") or has_info("AUC")', BAD_AUCTION)
    assert not holds("has_error()")
    assert holds('has_warning("BRD003")', BAD_AUCTION)


def test_diagnostics_are_computed_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Record] = []

    def counting(record: Record) -> tuple[object, ...]:
        calls.append(record)
        return ()

    monkeypatch.setattr(fields_module, "validate_record", counting)
    assert holds("level == 4 and made")
    assert calls == []
    assert not holds('level == 4 and has_error("AUC")')
    assert len(calls) == 1
    assert not holds('level == 5 and has_error("AUC")')  # "and" stops before has_error
    assert len(calls) == 1


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "column", "message"),
    [
        ("", 1, "empty"),
        ("level >= ", 9, "ends too early; expected a value"),
        ("level > 3 and", 14, "expected a value"),
        ("level > 3 4", 11, "expected an operator"),
        ("level @ 3", 7, "unexpected character '@'"),
        ("event == \u201cx\u201d", 10, "quote strings"),
        ("levl > 3", 1, "did you mean 'level'"),
        ("hcp > 3", 1, "needs a qualifier"),
        ("hcp.Q > 3", 1, "qualifier must be one of"),
        ("shape.NS == '4333'", 1, "qualifier must be one of N, E, S or W"),
        ("a.b.c", 1, "unknown field"),
        ('level == "x"', 10, "a number is needed"),
        ('dealer == "Q"', 11, "not a seat"),
        ('contract == "8S"', 13, "not a contract"),
        ('strain in ("S", "Z")', 17, "not a strain"),
        ('vul == "Red"', 8, "not a vulnerability"),
        ('opening == "1"', 12, "not a bid"),
        ('startswith(auction, "1S 9H")', 21, "not a call"),
        ('shape.N == "5-5-5-5"', 12, "do not add up to 13"),
        ('shape.N == "44"', 12, "not a shape"),
        ('event ~ "("', 9, "bad regular expression"),
        ("event ~ site", 9, "quoted regular expression"),
        ('has_error("ZZZ")', 11, "no diagnostic code starts with 'ZZZ'"),
        ("has_error(3)", 11, "must be a quoted string"),
        ("has_error('A', 'B')", 1, "takes 0 to 1 argument"),
        ("frobnicate(1)", 1, "unknown function 'frobnicate'"),
        ("level", 1, "not a condition"),
        ("not level", 5, "not needs a condition"),
        ("made and 3", 10, "and needs a condition"),
        ('declarer < "N"', 10, "does not apply to a seat"),
        ("level == true", 7, "cannot compare a number with true or false"),
        ('players == "x"', 9, "compares with in or ~"),
        ('1 + "a" > 2', 5, "+ needs numbers"),
        ("-event == 1", 1, "- needs a number"),
        ("startswith(level, '1')", 12, "works on strings and the auction"),
        ("len(level) > 1", 5, "len() needs"),
        ("(1, 2)", 1, "only allowed after in"),
        ("level in (1, level)", 14, "only literals"),
        ("level in board", 10, "in needs a list, a string or the auction"),
        ("x in ()", 7, "expected a value"),
        ("(((", 4, "ends too early"),
    ],
)
def test_errors_point_at_their_column(expression: str, column: int, message: str) -> None:
    with pytest.raises(QueryError) as caught:
        compile_query(expression)
    error = caught.value
    assert message in error.message, error.message
    assert error.column == column, (error.column, error.message)
    rendered = error.render().splitlines()
    assert rendered[1] == "  " + expression
    assert rendered[2].index("^") == column + 1


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    with pytest.raises(QueryError):
        compile_query("(" * 5000 + "made" + ")" * 5000)
    with pytest.raises(QueryError):
        compile_query("made and " * 3000 + "made")  # too long is refused


@given(st.text(max_size=60))
@settings(max_examples=300, deadline=None)
def test_any_text_compiles_or_fails_with_a_column(text: str) -> None:
    try:
        query = compile_query(text)
    except QueryError as error:
        assert 1 <= error.column <= len(text) + 2
        assert error.message
    else:
        assert isinstance(query.matches(GAME_RECORD), bool)


# --- keywords, pickling, ranges ------------------------------------------------------------------


def test_keywords_and_field_names_are_case_insensitive() -> None:
    assert holds("MADE AND Level == 4 Or NOT made")
    assert holds("made AND NOT down and Hcp.s == 16")
    assert not holds('TAG.room == "Open"')  # tag names are case-sensitive, as in PBN
    with pytest.raises(QueryError, match="unknown field 'android'"):
        compile_query("android == 1")


def test_query_pickles_as_its_text() -> None:
    query = compile_query("hcp.S >= 15 and made")
    copy = pickle.loads(pickle.dumps(query))
    assert copy.text == query.text and copy.matches(GAME_RECORD)


def test_board_ranges() -> None:
    ranges = parse_board_ranges("1-8, 12,20-")
    assert [n for n in (0, 1, 8, 9, 12, 13, 20, 999) if n in ranges] == [1, 8, 12, 20, 999]
    assert str(ranges) == "1-8,12,20-"
    for bad in ("", "x", "3-1", "1-2-3", "-4"):
        with pytest.raises(ValueError):
            parse_board_ranges(bad)


# --- properties on generated boards ---------------------------------------------------------------


def _generated(seed: int, count: int) -> Iterator[Record]:
    text = dumps(random_boards(seed, count))
    yield from (r for r in iter_records(io.BytesIO(text.encode()), "gen.pbn") if r.board)


GENERATED = list(_generated(11, 120))


def _expected_level(board: Board) -> int | None:
    contract = board_outcome(board).contract
    return None if contract is None else contract.level


@pytest.mark.parametrize("level", range(8))
def test_level_agrees_with_the_outcome(level: int) -> None:
    query = compile_query(f"level == {level}")
    for record in GENERATED:
        assert record.board is not None
        assert query.matches(record) == (_expected_level(record.board) == level)


@pytest.mark.parametrize(
    "expression",
    ["made", 'strain == "NT"', "hcp.N >= 12", 'shape.S in ("4333", "4432")', "claimed"],
)
def test_not_is_the_complement(expression: str) -> None:
    query, negation = compile_query(expression), compile_query(f"not ({expression})")
    for record in GENERATED:
        assert query.matches(record) != negation.matches(record)


def test_hand_fields_agree_with_the_hands() -> None:
    for record in GENERATED:
        board = record.board
        assert board is not None and board.deal is not None
        for seat in Seat:
            hand = board.deal.hands[seat]
            assert hand is not None
            letter = seat.letter
            lengths = "-".join(str(hand.length(s)) for s in reversed(Suit))
            expression = (
                f"hcp.{letter} == {hand.hcp} and spades.{letter} == {hand.length(Suit.SPADES)}"
                f' and shape.{letter} == "{lengths}"'
            )
            assert holds(expression, record), expression


# --- the documentation ----------------------------------------------------------------------------

SELECT_DOC = Path(__file__).resolve().parent.parent / "docs" / "select.md"


def test_the_page_documents_every_field_and_function() -> None:
    page = SELECT_DOC.read_text(encoding="utf-8")
    for name in FIELDS:
        assert f"`{name}`" in page, name
    for prefix in FAMILIES:
        assert f"`{prefix}." in page, prefix
    for function in FUNCTIONS:
        assert f"`{function}(" in page, function


def test_every_example_on_the_page_compiles() -> None:
    page = SELECT_DOC.read_text(encoding="utf-8")
    examples = re.findall(r"(?m)^pbntool select .*?-w '([^']*)'", page)
    assert len(examples) >= 8
    for example in examples:
        compile_query(example)
