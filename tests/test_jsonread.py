"""Reading JSON records: the forms accepted, recovery from broken records, located findings.

The fixtures of ``fixtures/json/invalid`` (one per JSN code) are checked by
``test_diagnostics.py``; this file checks the reader's behaviour around them.
"""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbntool.dev.generate import random_board, random_boards
from pbntool.diagnostics import CATALOGUE
from pbntool.formats import Format, detect_format
from pbntool.formats.json import board_to_dict, dumps_line, iter_records
from pbntool.formats.json.reader import RECORD_KEYS, iter_segments
from pbntool.model import Board, Seat
from pbntool.records import Record, validate_record

BOARDS = list(random_boards(11, 3))


def read(text: str | bytes) -> list[Record]:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return list(iter_records(io.BytesIO(data), "in.json"))


def boards_of(records: list[Record]) -> list[Board]:
    return [record.board for record in records if record.board is not None]


def findings(records: list[Record]) -> list[str]:
    return [f"{d.line}:{d.column} {d.code}" for r in records for d in r.diagnostics]


def records_json() -> list[dict[str, object]]:
    return [board_to_dict(board, file="x.pbn") for board in BOARDS]


# --- the forms accepted -------------------------------------------------------------------------


def test_json_lines() -> None:
    records = read("".join(dumps_line(board) + "\n" for board in BOARDS))
    assert boards_of(records) == BOARDS
    assert findings(records) == []
    assert [record.line for record in records] == [1, 2, 3]


def test_pretty_printed_records_one_after_the_other_as_jq_writes_them() -> None:
    text = "".join(json.dumps(record, indent=2) + "\n" for record in records_json())
    records = read(text)
    assert boards_of(records) == BOARDS
    assert findings(records) == []
    assert records[1].line == text.split("\n").index("{", 1) + 1


def test_one_array_of_records_pretty_or_compact() -> None:
    assert boards_of(read(json.dumps(records_json(), indent=1))) == BOARDS
    assert boards_of(read(json.dumps(records_json()))) == BOARDS
    assert boards_of(read("[\n" + ",\n".join(map(json.dumps, records_json())) + "\n]\n")) == BOARDS


def test_array_elements_are_read_one_by_one() -> None:
    text = json.dumps(records_json(), indent=1)
    segments = list(iter_segments(line + "\n" for line in text.split("\n")))
    assert len(segments) >= len(BOARDS)  # the elements, not the whole array at once


def test_blank_lines_crlf_and_a_byte_order_mark_are_fine() -> None:
    text = "\r\n\r\n".join(dumps_line(board) for board in BOARDS) + "\r\n"
    records = read(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert boards_of(records) == BOARDS
    assert [d.code for r in records for d in r.diagnostics] == ["SRC002"]


def test_an_empty_input_has_no_records() -> None:
    assert read("") == []
    assert read("\n \n") == []


# --- recovery ------------------------------------------------------------------------------------


def test_a_broken_line_costs_that_line_only() -> None:
    lines = [dumps_line(board) for board in BOARDS]
    lines[1] = lines[1][: len(lines[1]) // 2]  # cut in the middle (of a string, or not)
    records = read("\n".join(lines) + "\n")
    assert boards_of(records) == [BOARDS[0], BOARDS[2]]
    assert [d.code for r in records for d in r.diagnostics] == ["JSN001"]
    assert records[1].diagnostics[0].line == 2


def test_an_unclosed_object_does_not_swallow_the_next_records() -> None:
    lines = [dumps_line(board) for board in BOARDS]
    lines[0] = lines[0].rstrip("}")
    records = read("\n".join(lines) + "\n")
    assert boards_of(records) == BOARDS[1:]
    # Reported at the end of the broken record's line, where a "}" was expected.
    assert findings(records) == [f"1:{len(lines[0]) + 1} JSN001"]


def test_an_unclosed_array_is_reported_at_the_end() -> None:
    text = "[" + json.dumps(records_json()[0]) + ",\n"
    records = read(text)
    assert boards_of(records) == BOARDS[:1]
    assert [d.code for r in records for d in r.diagnostics] == ["JSN001"]


def test_values_that_are_not_records() -> None:
    records = read('[1, "x", null, {"model": {"number": 4}}]')
    assert [d.code for r in records for d in r.diagnostics] == ["JSN002"] * 3
    assert [b.number for b in boards_of(records)] == [4]


@pytest.mark.parametrize("depth", [100_000, 900])
def test_deep_nesting_is_a_finding_not_a_recursion_error(depth: int) -> None:
    deep = '{"model": {"tags": ' + "[" * depth + '"\\ud800"' + "]" * depth + "}}\n"
    records = read(deep + dumps_line(BOARDS[0]) + "\n")
    assert [d.code for r in records for d in r.diagnostics][:1] in (["JSN009"], ["JSN003"])
    assert boards_of(records)[-1] == BOARDS[0]


def test_an_integer_of_more_digits_than_python_converts_is_a_finding() -> None:
    records = read('{"model": {"number": ' + "9" * 5000 + "}}\n")
    assert [d.code for r in records for d in r.diagnostics] == ["JSN001"]


def test_a_record_with_neither_model_nor_summary_keys_is_reported() -> None:
    records = read('{"file": "x.pbn", "players": {}}\n')
    assert boards_of(records) == []
    assert findings(records) == ["1:1 JSN006"]


SUMMARY_KEYS = sorted(RECORD_KEYS - {"model", "file", "schema"})


def _summary(board: Board) -> dict[str, object]:
    record = board_to_dict(board, file="x.pbn")
    del record["model"]
    return record


def test_records_of_summary_keys_only_read_back_to_the_same_summary() -> None:
    """Another program's records (no model): deal, auction, play (cards in played order,
    seats from the tricks' winners), claims and every tag come back."""
    boards = list(random_boards(11, 300))
    text = "".join(json.dumps(_summary(board)) + "\n" for board in boards)
    records = read(text)
    assert [d.code for r in records for d in r.diagnostics] == ["JSN011"] * len(boards)
    back = boards_of(records)
    assert len(back) == len(boards)
    for board, again in zip(boards, back, strict=True):
        assert {k: v for k, v in _summary(again).items() if k in SUMMARY_KEYS} == {
            k: v for k, v in _summary(board).items() if k in SUMMARY_KEYS
        }
        assert validate_record(Record(again, (), "x", 1)) == ()


def test_a_summary_record_is_checked_like_a_pbn_game_with_findings_at_its_keys() -> None:
    record = {
        "board": 3,
        "dealer": "S",
        "deal": "S:AK",
        "auction": ["1Z", "Pass"],
        "play": ["SA"],
        "tags": {"Event": "Club", "bad name": "x"},
    }
    text = json.dumps(record)
    [read_back] = read(text + "\n")
    found = {d.code: d.column for d in read_back.diagnostics}
    assert read_back.board is not None and read_back.board.number == 3
    assert found["JSN011"] == 1
    assert found["PBN101"] == text.index('"S:AK"') + 1  # the deal, at its key's value
    assert found["PBN115"] == text.index('"1Z"') + 1  # the line's first call
    assert found["JSN006"] == text.index('["SA"]') + 1  # no declarer: the play cannot be placed
    assert found["JSN004"] == text.index('"x"}') + 1


def test_the_summary_keys_win_over_the_tags_object() -> None:
    record = {"board": 5, "dealer": "N", "tags": {"Board": "4", "Dealer": "E", "Site": "Oslo"}}
    [read_back] = read(json.dumps(record) + "\n")
    assert read_back.board is not None
    assert read_back.board.number == 5 and read_back.board.dealer is Seat.NORTH
    assert read_back.board.tag("Site") == "Oslo"


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | st.text(alphabet='{}[]",:0123456789abnlrtuex \n\\', max_size=200))
def test_any_bytes_give_records_and_diagnostics_never_an_exception(data: bytes | str) -> None:
    for record in read(data):
        for diagnostic in validate_record(record):
            assert diagnostic.code in CATALOGUE
            assert diagnostic.line is not None and diagnostic.line >= 1


# --- values --------------------------------------------------------------------------------------


def test_a_bad_value_costs_that_value_only_and_points_at_it() -> None:
    record = json.loads(dumps_line(BOARDS[0]))
    record["model"]["dealer"] = "North"
    record["model"]["deal"]["E"] = "AKQ.JT9"
    line = json.dumps(record)
    [read_back] = read(line + "\n")
    assert read_back.board is not None
    assert read_back.board.dealer is None
    assert read_back.board.deal is not None and read_back.board.deal.hands[Seat.EAST] is None
    assert read_back.board.auction == BOARDS[0].auction
    columns = {d.code: d.column for d in read_back.diagnostics}
    assert set(columns) == {"JSN004"}
    places = sorted(d.column or 0 for d in read_back.diagnostics)
    dealer = line.index('"dealer": "North"') + len('"dealer": ') + 1
    assert places == [dealer, line.index('"AKQ.JT9"') + 1]


def test_laws_findings_point_into_the_model() -> None:
    board = random_board(random.Random(5), 1, play=False)
    record = json.loads(dumps_line(board))
    record["model"]["dealer"] = "W"  # board 1 is dealt by North: BRD001 at the dealer
    line = json.dumps(record)
    [read_back] = read(line + "\n")
    found = [d for d in validate_record(read_back) if d.code == "BRD001"]
    assert [d.column for d in found] == [line.index('"dealer": "W"') + len('"dealer": ') + 1]


@pytest.mark.parametrize(
    ("model", "code"),
    [
        ({"tags": [{"name": 3}]}, "JSN003"),
        ({"auction": {"calls": []}}, "JSN006"),
        ({"auction": {"first": "Q"}}, "JSN004"),
        ({"play": {"first": "N", "tricks": [{"N": "S1"}]}}, "JSN007"),
        ({"contract": {"level": 9}}, "JSN004"),
        ({"result": {}}, "JSN006"),
        ({"score": {"points": 1.5}}, "JSN003"),
        ({"tables": [{"name": "T", "rows": [["a", 1]]}]}, "JSN003"),
        ({"commentary": [{"kind": "curly", "text": "x"}]}, "JSN004"),
        ({"declarer_irregular": "yes"}, "JSN003"),
        ({"deal": {"N": "AA..."}}, "JSN004"),
    ],
)
def test_each_kind_of_problem_has_its_code(model: dict[str, object], code: str) -> None:
    records = read(json.dumps({"model": model}) + "\n")
    assert [d.code for r in records for d in r.diagnostics] == [code]
    assert len(boards_of(records)) == 1


def test_an_integral_float_is_the_integer() -> None:
    [record] = read('{"model": {"number": 7.0}}\n')
    assert record.board is not None and record.board.number == 7
    assert record.diagnostics == ()


def test_one_array_on_a_single_line_is_read_board_by_board() -> None:
    count = 300
    text = json.dumps([board_to_dict(b) for b in random_boards(2, count)])
    assert "\n" not in text
    produced = iter_records(io.BytesIO(text.encode()), "one-line.json")
    assert sum(1 for record in produced if record.board is not None) == count


def test_every_accepted_form_is_detected_as_json_without_a_suffix() -> None:
    forms = [
        "".join(dumps_line(board) + "\n" for board in BOARDS),
        json.dumps(records_json()[0], indent=2),
        json.dumps(records_json(), indent=2),
        json.dumps(records_json()),
        "[]",
    ]
    for text in forms:
        assert detect_format(text.encode("utf-8"), "-") is Format.JSON, text[:40]


def test_the_reader_knows_every_key_the_writer_writes() -> None:
    assert set(board_to_dict(Board())) == RECORD_KEYS


summary_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=30),
    st.lists(st.text(max_size=6), max_size=12),
    st.dictionaries(st.text(max_size=8), st.one_of(st.text(max_size=20), st.integers())),
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(SUMMARY_KEYS), summary_values, max_size=10))
def test_any_summary_record_is_read_without_a_crash_and_reported_on_one_line(
    record: dict[str, object],
) -> None:
    """Whatever the keys hold (brackets, braces, line breaks in calls or tag values), the
    game written from them says only what the record says, and every finding is one line."""
    records = read(json.dumps(record) + "\n")
    for found in records:
        for diagnostic in validate_record(found):
            assert "\n" not in str(diagnostic) and diagnostic.line == 1
        if found.board is not None:
            given = record.get("tags")
            expected = {
                name
                for name in (given if isinstance(given, dict) else {})
                if re.fullmatch(r"[A-Za-z0-9_]{1,255}", name)
            }
            assert {tag.name for tag in found.board.tags} <= expected | {
                "Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result",
                "Auction", "Play", "Note",
            }  # fmt: skip
