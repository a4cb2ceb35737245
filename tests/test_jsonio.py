"""Boards as JSON objects and JSON Lines."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from pbntool.formats import read_input
from pbntool.formats.interchange.todict import model_to_dict
from pbntool.formats.json import board_to_dict, compact_json, dumps_line, iter_json_lines
from pbntool.model import (
    PASSED_OUT,
    Annotation,
    Auction,
    Board,
    Card,
    Comment,
    CommentKind,
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
    Slot,
    Strain,
    Tag,
    Token,
    Vulnerability,
)
from pbntool.text.inputs import Input

from builders import CALLS_18, DEAL_18, PASS, PLAY_18, bid, hand, trick


def section_18_1_board() -> Board:
    """PBN 2.1 summary §18.1 (identification tags shortened)."""
    return Board(
        tags=(
            Tag("Event", "Spring Club Pairs"),
            Tag("Board", "7"),
            Tag("Event", "Autumn", duplicate=True),
            Tag("Auction", "S"),
            Tag("Note", "1:limit raise or better in spades"),
            Tag("Play", "W"),
        ),
        number=7,
        dealer=Seat.SOUTH,
        vulnerability=Vulnerability.ALL,
        deal=DEAL_18,
        auction=Auction(Seat.SOUTH, CALLS_18, notes=(Note(1, "limit raise or better in spades"),)),
        play=PLAY_18,
        contract=Contract(4, Strain.SPADES, Doubling.DOUBLED),
        declarer=Seat.SOUTH,
        result=Result(11),
        score=Score(990, Side.NS),
        commentary=(Comment(" PBN 2.1", CommentKind.ESCAPE), Comment("a fine board")),
    )


SUMMARY_ADDITIONS = ("schema", "players", "event", "room", "alerts", "claim", "model")
"""Keys added by schema pbntool/1; the keys before them keep their meaning."""


def summary(record: dict[str, object]) -> dict[str, object]:
    """The record without the keys added by pbntool/1 (checked on their own)."""
    assert next(iter(record)) == "schema"
    return {key: value for key, value in record.items() if key not in SUMMARY_ADDITIONS}


def test_section_18_1_board_as_a_json_object() -> None:
    record = board_to_dict(section_18_1_board(), file="club.pbn")
    assert record["schema"] == "pbntool/1"
    assert record["players"] == {"N": None, "E": None, "S": None, "W": None}
    assert (record["event"], record["room"], record["alerts"]) == ("Spring Club Pairs", None, [])
    assert record["claim"] == {"tricks": 11, "played": 3}
    assert record["model"] == model_to_dict(section_18_1_board())
    assert summary(record) == {
        "file": "club.pbn",
        "board": 7,
        "dealer": "S",
        "vulnerable": "All",
        "deal": "S:AJ98743.5.AT9.AK K5.KJ864.2.87432 QT6.QT7.KQ753.T5 2.A932.J864.QJ96",
        "auction": ["1S", "2H", "3H", "4H", "4S", "Pass", "Pass", "X", "Pass", "Pass", "Pass"],
        "declarer": "S",
        "contract": "4SX",
        "result": 11,
        "play": ["D2", "D3", "DJ", "DA", "SA", "S5", "S6", "S2", "S3", "SK", "SQ", "H2"],
        "play_order_complete": True,
        "tricks": [
            {"N": "D3", "E": "DJ", "S": "DA", "W": "D2"},
            {"N": "S6", "E": "S2", "S": "SA", "W": "S5"},
            {"N": "SQ", "E": "H2", "S": "S3", "W": "SK"},
        ],
        "claimed": True,
        "score": {"points": 990, "side": "NS"},
        "notes": {"auction": [{"index": 1, "text": "limit raise or better in spades"}], "play": []},
        "commentary": ["a fine board"],
        "tags": {"Event": "Spring Club Pairs", "Board": "7", "Auction": "S", "Play": "W"},
    }


def test_an_empty_board_has_every_key_with_nothing_known() -> None:
    record = board_to_dict(Board())
    assert record["players"] == {"N": None, "E": None, "S": None, "W": None}
    assert (record["event"], record["room"], record["alerts"], record["claim"]) == (
        None,
        None,
        [],
        None,
    )
    assert record["model"] == {
        "number": None,
        "dealer": None,
        "vulnerability": None,
        "deal": None,
        "auction": None,
        "play": None,
        "contract": None,
        "declarer": None,
        "declarer_irregular": False,
        "result": None,
        "score": None,
        "commentary": [],
        "tables": [],
        "tags": [],
    }
    assert summary(record) == {
        "file": None,
        "board": None,
        "dealer": None,
        "vulnerable": None,
        "deal": None,
        "auction": None,
        "declarer": None,
        "contract": None,
        "result": None,
        "play": None,
        "play_order_complete": None,
        "tricks": None,
        "claimed": False,
        "score": None,
        "notes": {"auction": [], "play": []},
        "commentary": [],
        "tags": {},
    }


# --- play order ------------------------------------------------------------------------------

# West leads the SK and East ruffs: with hearts as trumps East leads trick 2, otherwise West.
RUFFED_PLAY = Play(
    Seat.WEST,
    (trick(Seat.WEST, "SK", "S2", "H2", "S3"), trick(Seat.WEST, "C2", "C3", "CA", "C4")),
)


def test_trump_comes_from_the_auction_when_no_contract_is_stated() -> None:
    auction = Auction(Seat.NORTH, (bid("1H"), PASS, PASS, PASS))
    result = board_to_dict(Board(dealer=Seat.NORTH, auction=auction, play=RUFFED_PLAY))
    assert result["play"] == ["SK", "S2", "H2", "S3", "CA", "C4", "C2", "C3"]
    assert result["play_order_complete"] is True


def test_the_stated_contract_decides_the_trump_suit() -> None:
    board = Board(contract=Contract(3, Strain.NOTRUMP), play=RUFFED_PLAY)
    assert board_to_dict(board)["play"] == ["SK", "S2", "H2", "S3", "C2", "C3", "CA", "C4"]


def test_without_a_known_trump_suit_later_tricks_follow_the_columns() -> None:
    result = board_to_dict(Board(play=RUFFED_PLAY))
    assert result["play"] == ["SK", "S2", "H2", "S3", "C2", "C3", "CA", "C4"]
    assert result["play_order_complete"] is False


def test_an_unknown_card_stops_the_played_order() -> None:
    play = Play(
        Seat.WEST,
        (
            trick(Seat.WEST, "SK", None, "H2", "S3"),
            trick(Seat.WEST, "C2", "C3", "CA", "C4"),
        ),
    )
    result = board_to_dict(Board(contract=Contract(4, Strain.HEARTS), play=play))
    assert result["play"] == ["SK", "H2", "S3", "C2", "C3", "CA", "C4"]
    assert result["play_order_complete"] is False
    assert result["tricks"] == [
        {"N": None, "E": "H2", "S": "S3", "W": "SK"},
        {"N": "C3", "E": "CA", "S": "C4", "W": "C2"},
    ]


def test_claimed_means_a_stop_marker_before_thirteen_tricks() -> None:
    thirteen = tuple(trick(Seat.WEST, "SA", "S2", "S3", "S4") for _ in range(13))
    stopped = Play(Seat.WEST, thirteen[:3], end=SectionEnd.STOP)
    assert board_to_dict(Board(play=stopped))["claimed"] is True
    claim = board_to_dict(Board(play=stopped, result=Result(9)))["claim"]
    assert claim == {"tricks": 9, "played": 3}
    assert board_to_dict(Board(play=Play(Seat.WEST, thirteen[:3])))["claimed"] is False
    complete = Play(Seat.WEST, thirteen, end=SectionEnd.STOP)
    assert board_to_dict(Board(play=complete))["claimed"] is False


# --- values ----------------------------------------------------------------------------------


def test_passed_out_board() -> None:
    board = Board(
        dealer=Seat.EAST,
        auction=Auction(Seat.EAST, (PASS,) * 4),
        contract=PASSED_OUT,
    )
    result = board_to_dict(board)
    assert result["auction"] == ["Pass"] * 4
    assert (result["contract"], result["declarer"], result["result"]) == ("Pass", None, None)


def test_tokens_are_written_as_their_text() -> None:
    auction = Auction(Seat.WEST, (bid("1S"), Token("^S"), bid("2S"), Token("+")))
    slots: tuple[Slot, Slot, Slot, Slot] = (Token("+"), None, None, Card.parse("SA"))
    result = board_to_dict(Board(auction=auction, play=Play(Seat.NORTH, (slots,))))
    assert result["auction"] == ["1S", "^S", "2S", "+"]
    assert result["tricks"] == [{"N": "+", "E": None, "S": None, "W": "SA"}]
    assert result["play"] == ["SA"]


def test_deal_starts_with_the_dealer_or_north_and_shows_unknown_hands() -> None:
    deal = Deal((hand("AKQJT98765432..."), None, None, None))
    assert board_to_dict(Board(deal=deal))["deal"] == "N:AKQJT98765432... - - -"
    with_dealer = board_to_dict(Board(deal=deal, dealer=Seat.WEST))
    assert with_dealer["deal"] == "W:- AKQJT98765432... - -"


def test_a_score_for_declarer_has_no_side() -> None:
    assert board_to_dict(Board(score=Score(-100)))["score"] == {"points": -100, "side": None}


def test_tags_keep_source_order_and_skip_notes_and_duplicates() -> None:
    board = Board(
        tags=(
            Tag("Site", "Utrecht"),
            Tag("Note", "1:x"),
            Tag("Event", "Club", inherited=True),
            Tag("Site", "Bussum", duplicate=True),
        )
    )
    result = board_to_dict(board)["tags"]
    assert result == {"Site": "Utrecht", "Event": "Club"}
    assert isinstance(result, dict)
    assert list(result) == ["Site", "Event"]


# --- JSON text -------------------------------------------------------------------------------


def test_dumps_line_is_one_compact_line_that_keeps_non_ascii_text() -> None:
    board = Board(tags=(Tag("Event", "Coupe d'été"),), commentary=(Comment("♠ good"),))
    line = dumps_line(board, file="a.pbn")
    assert "\n" not in line
    assert ", " not in line
    assert '"Event":"Coupe d\'été"' in line
    assert json.loads(line) == board_to_dict(board, file="a.pbn")


def test_iter_json_lines_yields_one_terminated_line_per_board_lazily() -> None:
    produced: list[int] = []

    def boards() -> Iterator[Board]:
        for number in (1, 2):
            produced.append(number)
            yield Board(number=number)

    lines = iter_json_lines(boards(), file="x.pbn")
    first = next(lines)
    assert produced == [1]
    assert first.endswith("}\n")
    assert json.loads(first)["board"] == 1
    assert [json.loads(line)["file"] for line in lines] == ["x.pbn"]


# --- friendly keys added by pbntool/1 -------------------------------------------------------------


def test_players_event_and_room_come_from_their_tags() -> None:
    board = Board(
        tags=(
            Tag("North", "Ada"),
            Tag("East", "Bea"),
            Tag("Room", "Closed"),
            Tag("Event", "Cup"),
            Tag("South", "Cyd", duplicate=True),
        )
    )
    record = board_to_dict(board)
    assert record["players"] == {"N": "Ada", "E": "Bea", "S": None, "W": None}
    assert (record["event"], record["room"]) == ("Cup", "Closed")


def test_alerts_list_alerted_and_explained_calls_with_their_note() -> None:
    alerted = Annotation(nags=(15,))
    explained = Annotation(note=1)
    auction = Auction(
        Seat.EAST,
        (bid("1C"), PASS, bid("1D"), PASS),
        annotations=((2, explained), (0, alerted), (1, Annotation(nags=(1,)))),
        notes=(Note(1, "natural, 4+"),),
    )
    assert board_to_dict(Board(auction=auction))["alerts"] == [
        {"call": 0, "seat": "E", "text": "1C", "alerted": True, "explanation": None},
        {"call": 2, "seat": "W", "text": "1D", "alerted": False, "explanation": "natural, 4+"},
    ]


def test_orjson_and_the_json_module_write_the_same_line_for_every_corpus_board(
    corpus_dir: Path,
) -> None:
    """dumps_line writes with orjson (three times faster); the json module is the spare, for
    what orjson refuses (a lone surrogate) and where orjson is missing: the lines must be
    the same bytes, so which one ran never shows."""
    compared = 0
    for path in sorted(corpus_dir.rglob("*")):
        if path.suffix.lower() not in (".pbn", ".lin"):
            continue
        records = read_input(Input(str(path), path=path))
        for board in (record.board for record in records if record.board is not None):
            record = board_to_dict(board, file=str(path))
            assert dumps_line(board, str(path)) == compact_json(record), path
            compared += 1
    assert compared > 20_000


def test_a_lone_surrogate_is_written_by_the_json_module_with_escapes() -> None:
    board = Board(tags=(Tag("Event", "bad \udc80 text"),))
    line = dumps_line(board)
    assert "\\udc80" in line and json.loads(line)["event"] == "bad \udc80 text"
