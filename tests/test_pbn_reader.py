"""The PBN reader: splitting, encodings, tag pairs, inheritance, sections, positions."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark

from pbntool.diagnostics import Diagnostic
from pbntool.formats import pbn
from pbntool.formats.pbn.reader import GameBlock, GameSplitter, split_games
from pbntool.model import (
    PASSED_OUT,
    Action,
    Annotation,
    Bid,
    Card,
    CommentKind,
    Contract,
    Doubling,
    Seat,
    SectionEnd,
    Strain,
    Token,
    Vulnerability,
)
from pbntool.text.grammars import grammar_text, load_parser
from pbntool.text.source import MAX_GAME_ENV


def codes(diagnostics: tuple[Diagnostic, ...]) -> list[str]:
    return [d.code for d in diagnostics]


def places(diagnostics: tuple[Diagnostic, ...], code: str) -> list[tuple[int | None, int | None]]:
    return [(d.line, d.column) for d in diagnostics if d.code == code]


# --- splitting into games ---------------------------------------------------------------


def test_games_are_split_at_semi_empty_lines_and_runs_of_them_count_once() -> None:
    text = '\n\n[Board "1"]\n\n\n \t\n[Board "2"]\n[Dealer "N"]\n\n[Board "3"]'
    blocks = list(split_games([text]))
    assert [(b.text, b.first_line) for b in blocks] == [
        ('[Board "1"]', 3),
        ('[Board "2"]\n[Dealer "N"]', 7),
        ('[Board "3"]', 10),
    ]


def test_a_blank_line_inside_a_brace_comment_does_not_end_the_game() -> None:
    text = (
        '[Board "1"]\n{first paragraph\n\n[Board "9"] is only commentary\n}\n'
        '[Dealer "E"]\n\n[Board "2"]'
    )
    result = pbn.parse(text)
    assert [b.tag("Board") for b in result.boards] == ["1", "2"]
    assert result.boards[0].dealer is Seat.EAST
    comment = result.boards[0].tags[0].comments[0]
    assert comment.kind is CommentKind.BRACE
    assert '[Board "9"] is only commentary' in comment.text


def test_braces_inside_strings_and_line_comments_and_escape_lines_are_not_comments() -> None:
    text = '[Event "a { b"] ; {\n% {\n\n[Board "2"]'
    result = pbn.parse(text)
    assert [b.tag("Event") for b in result.boards] == ["a { b", None]
    assert [b.tag("Board") for b in result.boards] == [None, "2"]


def test_an_unclosed_brace_is_reported_and_does_not_swallow_the_following_games() -> None:
    text = '[Board "1"] {never closed\n\n[Board "2"]\n\n[Board "3"]\n'
    result = pbn.parse(text)
    assert [b.tag("Board") for b in result.boards] == ["1", "2", "3"]
    assert places(result.diagnostics, "PBN003") == [(1, 13)]


def test_split_works_whatever_the_chunking() -> None:
    text = '[Board "1"] {x\n\ny}\n[Dealer "N"]\n\n\n[Board "2"]\n'
    whole = [(b.text, b.first_line) for b in split_games([text])]
    by_line = [(b.text, b.first_line) for b in split_games(text.splitlines(keepends=True))]
    assert whole == by_line == [('[Board "1"] {x\n\ny}\n[Dealer "N"]', 1), ('[Board "2"]', 7)]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_every_platform_line_ending_is_read(newline: str) -> None:
    text = newline.join(['[Board "1"]', '[Dealer "S"]', "", '[Board "2"]', '[Dealer "W"]', ""])
    result = pbn.parse(text.encode())
    assert [(b.number, b.dealer) for b in result.boards] == [(1, Seat.SOUTH), (2, Seat.WEST)]
    assert places(result.diagnostics, "BRD003")[1] == (4, 1)


def test_a_trailing_dos_end_of_file_mark_is_not_text() -> None:
    result = pbn.parse(b'[Board "1"]\r\n\r\n\x1a')
    assert "PBN004" not in codes(result.diagnostics)
    assert "SRC005" not in codes(result.diagnostics)


def test_comment_only_blocks_and_header_escapes_attach_to_the_next_game() -> None:
    text = '% PBN 2.1\n% EXPORT\n\n{PAR of the deal: 4S}\n\n[Board "1"]\n'
    board = pbn.parse(text).boards[0]
    assert [(c.kind, c.text) for c in board.commentary] == [
        (CommentKind.ESCAPE, " PBN 2.1"),
        (CommentKind.ESCAPE, " EXPORT"),
        (CommentKind.BRACE, "PAR of the deal: 4S"),
    ]


# --- encodings --------------------------------------------------------------------------


def test_utf8_is_read_silently() -> None:
    result = pbn.parse('[Event "Café ♠"]\n'.encode())
    assert result.boards[0].tag("Event") == "Café ♠"
    assert not {"SRC001", "SRC002"} & set(codes(result.diagnostics))


def test_windows_1252_is_detected_and_reported_with_its_line() -> None:
    data = '[Board "1"]\n[Event "Caf\u00e9 \u2013 Open"]\n'.encode("cp1252")
    result = pbn.parse(data)
    assert result.boards[0].tag("Event") == "Café \u2013 Open"
    assert places(result.diagnostics, "SRC001") == [(2, 1)]


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be"])
def test_byte_order_marks_and_utf16_are_detected(encoding: str) -> None:
    text = '[Event "Zürich"]\r\n[Board "7"]\r\n'
    data = text.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):
        data = ("\ufeff" + text).encode(encoding)
    result = pbn.parse(data)
    assert result.boards[0].tag("Event") == "Zürich"
    assert result.boards[0].number == 7
    assert "SRC002" in codes(result.diagnostics)


def test_utf16_without_a_byte_order_mark_is_recognised_by_its_nul_bytes() -> None:
    result = pbn.parse('[Board "3"]\n'.encode("utf-16-le"))
    assert result.boards[0].number == 3


# --- tag pairs ---------------------------------------------------------------------------


def test_several_tags_on_a_line_spaces_inside_brackets_and_a_tag_over_lines() -> None:
    text = '[Board "4"] [Dealer"w"][ Vulnerable   "both" ]\n[Event\n  "Split\\"over\\\\lines"\n]'
    board = pbn.parse(text).boards[0]
    assert board.number == 4
    assert board.dealer is Seat.WEST
    assert board.vulnerability is Vulnerability.ALL
    assert board.tag("Event") == 'Split"over\\lines'


def test_backslashes_other_than_quote_and_backslash_are_kept_as_written() -> None:
    board = pbn.parse('[Note "1:5+\\Hs, GF"]\n[Event "C:\\temp"]').boards[0]
    assert board.tag("Event") == "C:\\temp"


def test_a_repeated_tag_keeps_the_first_value_and_warns_at_the_second() -> None:
    result = pbn.parse('[Board "1"]\n[Dealer "N"]\n[Dealer "S"]\n')
    assert result.boards[0].dealer is Seat.NORTH
    assert places(result.diagnostics, "PBN006") == [(3, 1)]


def test_malformed_tags_are_reported_and_recovered() -> None:
    result = pbn.parse('[Board "1"]\n[Event "no end]\n[Site]\n[Dealer "E"]\n')
    board = result.boards[0]
    assert board.tag("Event") == "no end"
    assert board.dealer is Seat.EAST
    assert places(result.diagnostics, "PBN001") == [(2, 1)]
    assert places(result.diagnostics, "PBN002") == [(3, 1)]


def test_stray_text_is_reported_and_kept_as_commentary() -> None:
    result = pbn.parse('[Board "1"]\nGenerated 1000 hands in 0.2 s\n[Dealer "N"]\n')
    assert places(result.diagnostics, "PBN004") == [(2, 1)]
    board = result.boards[0]
    assert board.tags[0].comments[0].kind is CommentKind.STRAY
    assert board.dealer is Seat.NORTH


# --- inheritance (PBN §6, the reference implementation's semantics) ------------------------


def test_inheritance_follows_the_reference_implementation() -> None:
    text = (
        '[Event "##Autumn Teams"]\n[Site "##Hilversum NLD"]\n[Date "2024.10.05"]\n[Board "1"]\n\n'
        '[Board "2"]\n\n'
        '[Date "#"]\n[Site "Bussum NLD"]\n[Board "3"]\n\n'
        '[Board "4"]\n'
    )
    boards = pbn.parse(text).boards
    table = [(b.tag("Event"), b.tag("Site"), b.tag("Date")) for b in boards]
    assert table == [
        ("Autumn Teams", "Hilversum NLD", "2024.10.05"),
        ("Autumn Teams", "Hilversum NLD", None),
        ("Autumn Teams", "Bussum NLD", "2024.10.05"),
        ("Autumn Teams", None, None),
    ]
    inherited = [t for t in boards[1].tags if t.inherited]
    assert {t.name for t in inherited} == {"Event", "Site"}


def test_inheriting_with_nothing_before_warns_and_gives_empty() -> None:
    result = pbn.parse('[Board "1"]\n[Event "#"]\n')
    assert result.boards[0].tag("Event") == ""
    assert places(result.diagnostics, "PBN114") == [(2, 9)]


def test_deal_hash_from_pbn_0_8_takes_the_previous_deal_with_a_warning() -> None:
    deal = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
    text = f'[Board "1"]\n[Deal "{deal}"]\n\n[Board "1"]\n[Deal "#"]\n'
    result = pbn.parse(text)
    assert result.boards[1].deal == result.boards[0].deal
    assert codes(result.diagnostics).count("PBN132") == 1


# --- values ------------------------------------------------------------------------------


def test_deal_is_rotated_from_its_first_seat() -> None:
    deal = "S:AJ98743.5.AT9.AK K5.KJ864.2.87432 QT6.QT7.KQ753.T5 2.A932.J864.QJ96"
    board = pbn.parse(f'[Deal "{deal}"]').boards[0]
    assert board.deal is not None
    south, west = board.deal.hands[Seat.SOUTH], board.deal.hands[Seat.WEST]
    assert south is not None and west is not None
    assert str(south) == "AJ98743.5.AT9.AK"
    assert str(west) == "K5.KJ864.2.87432"


def test_unknown_hands_lower_case_and_any_rank_order_are_accepted() -> None:
    board = pbn.parse('[Deal "e:- qkj.t2.3.A - -"]').boards[0]
    assert board.deal is not None
    south = board.deal.hands[Seat.SOUTH]
    assert south is not None and str(south) == "KQJ.T2.3.A"
    assert board.deal.hands[Seat.EAST] is None


def test_suit_letters_inside_hands_are_accepted_with_a_warning() -> None:
    result = pbn.parse('[Deal "N:SA7.H864.DQJT73.CAKQ - - -"]')
    deal = result.boards[0].deal
    assert deal is not None and str(deal.hands[Seat.NORTH]) == "A7.864.QJT73.AKQ"
    assert codes(result.diagnostics).count("PBN102") == 1


def test_a_card_twice_in_one_hand_is_not_silently_merged() -> None:
    result = pbn.parse('[Deal "N:AA4.KQ.J.T - - -"]')
    assert places(result.diagnostics, "HND001") == [(1, 10)]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("3NT", Contract(3, Strain.NOTRUMP)),
        ("4sx", Contract(4, Strain.SPADES, Doubling.DOUBLED)),
        ("6CXX", Contract(6, Strain.CLUBS, Doubling.REDOUBLED)),
        ("pass", PASSED_OUT),
        ("NT", Contract(None, Strain.NOTRUMP)),
        ("3N", Contract(3, Strain.NOTRUMP)),
    ],
)
def test_contract_values(value: str, expected: Contract) -> None:
    assert pbn.parse(f'[Contract "{value}"]').boards[0].contract == expected


@pytest.mark.parametrize(
    ("value", "declarer", "tricks"),
    [("9", "N", 9), ("NS 9", "S", 9), ("EW 4", "N", 9), ("NS 9 EW 4", "E", 4), ("^10", "W", 10)],
)
def test_result_forms_become_declarer_tricks(value: str, declarer: str, tricks: int) -> None:
    board = pbn.parse(f'[Declarer "{declarer}"]\n[Result "{value}"]').boards[0]
    assert board.result is not None and board.result.tricks == tricks
    assert board.result.irregular == value.startswith("^")


# --- auction -----------------------------------------------------------------------------


def test_auction_placeholders_ap_suffixes_notes_and_nags() -> None:
    text = (
        '[Dealer "S"]\n[Auction "N"]\n'
        "-    -    1S   2H\n"
        "3H ! =1=  4H   4S   pass\n"
        "pass x    ap\n"
        '[Note "1:limit raise"]\n'
    )
    result = pbn.parse(text)
    auction = result.boards[0].auction
    assert auction is not None
    assert auction.first is Seat.SOUTH
    assert [str(c) for c in auction.calls] == (
        ["1S", "2H", "3H", "4H", "4S", "Pass", "Pass", "X", "Pass", "Pass", "Pass"]
    )
    annotation = auction.annotation(2)
    assert annotation is not None and annotation.note == 1 and annotation.nags == (1,)
    assert [(n.index, n.text) for n in auction.notes] == [(1, "limit raise")]
    assert not [d for d in result.diagnostics if d.code != "BRD003"]


def test_ap_alone_is_four_passes_and_1n_is_notrump_with_a_warning() -> None:
    boards = pbn.parse('[Auction "N"]\nAP\n\n[Auction "W"]\n1N AP\n').boards
    assert boards[0].auction is not None and boards[0].auction.calls == (Action.PASS,) * 4
    second = boards[1].auction
    assert second is not None and second.calls[0] == Bid.of(1, Strain.NOTRUMP)
    assert len(second.calls) == 4


def test_unreadable_calls_are_kept_as_tokens_with_a_warning_at_their_column() -> None:
    result = pbn.parse('[Dealer "N"]\n[Auction "N"]\n1C relay 2D\n')
    auction = result.boards[0].auction
    assert auction is not None and auction.calls[1] == Token("relay")
    assert places(result.diagnostics, "PBN115") == [(3, 4)]


def test_irregularities_and_the_end_marker_in_the_auction() -> None:
    auction = pbn.parse('[Auction "W"]\n1S ^I 1H ^S 2S\n*\n').boards[0].auction
    assert auction is not None
    assert auction.calls == (
        Bid.of(1, Strain.SPADES),
        Bid.of(1, Strain.HEARTS),
        Token("^S"),
        Bid.of(2, Strain.SPADES),
    )
    annotation = auction.annotation(1)
    assert annotation is not None and annotation.irregularity == "I"
    assert auction.end is SectionEnd.STOP


def test_calls_after_the_end_marker_are_reported() -> None:
    result = pbn.parse('[Auction "N"]\n1C *\n2C\n')
    assert places(result.diagnostics, "PBN125") == [(3, 1)]


# --- play --------------------------------------------------------------------------------


def test_play_columns_are_fixed_seats_starting_from_the_play_tag() -> None:
    text = '[Contract "4S"]\n[Declarer "S"]\n[Play "W"]\nd2 {singleton} D3 DJ DA\nS5 S6 S2 SA\n*\n'
    play = pbn.parse(text).boards[0].play
    assert play is not None and play.first is Seat.WEST
    first_trick = play.tricks[0]
    assert first_trick[Seat.WEST] == Card.parse("D2")
    assert first_trick[Seat.NORTH] == Card.parse("D3")
    assert first_trick[Seat.SOUTH] == Card.parse("DA")
    assert play.end is SectionEnd.STOP
    annotation = play.annotation(0, Seat.WEST)
    assert annotation is not None and annotation.comments[0].text == "singleton"


def test_continuation_in_play_allows_fillers_and_earlier_cards_in_its_trick() -> None:
    result = pbn.parse('[Play "W"]\nHA H2 H3 H4\n+  -  -  SA\n')
    play = result.boards[0].play
    assert play is not None
    assert play.tricks[1][Seat.WEST] == Token("+")
    assert play.tricks[1][Seat.SOUTH] == Card.parse("SA")
    assert "PBN125" not in codes(result.diagnostics)


def test_an_irregularity_mark_before_an_unknown_card_marks_that_card() -> None:
    """``^R -`` marks the unknown card: it had waited for the next known card, and so moved
    to another seat in the next trick, or was lost at the section's end (atheris found the
    second: a board written "^R -" read back without the mark)."""
    result = pbn.parse('[Play "E"]\nC4 CK ^R - -\nC2 C3 C5 C6\n')
    play = result.boards[0].play
    assert play is not None and play.tricks[0][Seat.WEST] is None
    assert dict(play.annotations) == {(0, Seat.WEST): Annotation(irregularity="R")}
    assert pbn.parse(pbn.dumps(result.boards)).boards[0].play == play


@pytest.mark.parametrize(
    ("text", "place"),
    [('[Play "E"]\nC4 CK C5 C6 ^R\n', (2, 13)), ('[Auction "N"]\n1S ^I ^I 2S\n', (2, 4))],
)
def test_an_irregularity_mark_that_marks_nothing_is_reported(
    text: str, place: tuple[int, int]
) -> None:
    result = pbn.parse(text)
    assert places(result.diagnostics, "PBN141") == [place]


def test_an_inherited_section_seat_is_used_and_its_section_read() -> None:
    """``[Play "#"]`` is not allowed (PBN113 says the previous game's value is used): the
    section was left undecoded, so its notes were written before it, and read back with it
    (``dumps`` of the read-back board differed: found by atheris)."""
    text = '[Board "1"]\n[Play "E"]\n\n[Board "2"]\n[Note "1:Stayman"]\n[Play "#"]\n'
    result = pbn.parse(text)
    play = result.boards[1].play
    assert play is not None and play.first is Seat.EAST and [n.index for n in play.notes] == [1]
    assert "PBN113" in codes(result.diagnostics) and "PBN128" not in codes(result.diagnostics)
    once = pbn.dumps(result.boards)
    assert pbn.dumps(pbn.parse(once).boards) == once


def test_a_short_last_trick_is_padded_with_unknown_cards() -> None:
    play = pbn.parse('[Play "N"]\nSA S2\n').boards[0].play
    assert play is not None and play.tricks == ((Card.parse("SA"), Card.parse("S2"), None, None),)


def test_bad_cards_are_reported_at_their_column_and_kept() -> None:
    result = pbn.parse('[Play "N"]\nSA S1 S3 S4\n')
    play = result.boards[0].play
    assert play is not None and play.tricks[0][Seat.EAST] == Token("S1")
    assert places(result.diagnostics, "PBN116") == [(2, 4)]


def test_a_note_written_after_the_play_but_used_in_the_auction_goes_to_the_auction() -> None:
    text = '[Auction "N"]\n1C =1= AP\n[Play "E"]\nSA\n[Note "1:strong"]\n'
    result = pbn.parse(text)
    board = result.boards[0]
    assert board.auction is not None and [n.index for n in board.auction.notes] == [1]
    assert "PBN129" in codes(result.diagnostics)


def test_note_reference_without_a_note_and_unused_note() -> None:
    result = pbn.parse('[Auction "N"]\n1C =2= AP\n[Note "1:unused"]\n')
    assert places(result.diagnostics, "PBN121") == [(2, 4)]
    assert places(result.diagnostics, "PBN122") == [(3, 1)]


# --- tables ------------------------------------------------------------------------------


def test_tables_are_chunked_by_columns_whatever_the_line_breaks() -> None:
    text = (
        '[ScoreTable "PairId_NS\\2R;Names_NS;Score_NS\\5R"]\n'
        ' 1 "Visser, L.;de Vries, A." 420  2\n"X;Y"   -50\n'
    )
    table = pbn.parse(text).boards[0].tables[0]
    assert [c.name for c in table.columns] == ["PairId_NS", "Names_NS", "Score_NS"]
    assert table.columns[0].width == 2 and table.columns[0].align == "R"
    assert table.rows == (("1", '"Visser, L.;de Vries, A."', "420"), ("2", '"X;Y"', "-50"))
    assert table.leftover == ()


def test_a_table_with_a_partial_row_keeps_the_elements_and_reports_them() -> None:
    result = pbn.parse('[OptimumResultTable "Declarer;Denomination;Result"]\nN S 9\nN H\n')
    assert result.boards[0].tables[0].leftover == ("N", "H")
    assert places(result.diagnostics, "PBN127") == [(1, 1)]


def test_unknown_sections_are_kept_verbatim() -> None:
    table = pbn.parse('[MyAnalysis "v1"]\nline one ; note\n').boards[0].tables[0]
    assert table.name == "MyAnalysis"
    assert table.leftover == ("line", "one")


# --- streaming ---------------------------------------------------------------------------


def test_records_are_produced_before_the_input_is_read_to_the_end() -> None:
    class Endless(io.RawIOBase):
        def __init__(self) -> None:
            self.served = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
            chunk = b'[Board "1"]\n[Dealer "N"]\n\n' * 1000
            self.served += 1
            size = min(len(buffer), len(chunk))
            buffer[:size] = chunk[:size]
            return size

    stream = Endless()
    records = pbn.iter_records(io.BufferedReader(stream), "endless")
    first = next(records)
    assert first.board is not None and first.board.number == 1
    assert stream.served < 100


def test_one_broken_game_never_stops_the_others() -> None:
    text = '[Board "1"]\n[Deal "N:garbage"]\n[[[ "\n\n[Board "2"]\n[Dealer "E"]\n'
    result = pbn.parse(text)
    assert [b.number for b in result.boards] == [1, 2]
    assert result.boards[1].dealer is Seat.EAST


def test_positions_point_into_the_file_across_games() -> None:
    text = '[Board "1"]\n\n\n[Board "2"]\n[Vulnerable "Sometimes"]\n'
    result = pbn.parse(text, "x.pbn")
    [finding] = [d for d in result.diagnostics if d.code == "PBN104"]
    assert (finding.file, finding.line, finding.column, finding.board) == ("x.pbn", 5, 14, 2)


# --- the grammar's lexer ------------------------------------------------------------------


def _tokens(parser: Lark, text: str) -> list[tuple[str, str, int | None]]:
    return [(t.type, str(t), t.start_pos) for t in parser.parse(text).children]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "text",
    [
        '[Board "1"] [Dealer "N"]\n[Auction "N"]\n1C =1= ! $3 Pass\n*\n[Note "1:x"]',
        '% PBN 2.1\n{c\n[x]} ; line\n[Play "W"]\nSA - - -\n+ "str" ] % stray\n[bad\n',
        '[Event "a\\"b\\\\"]\n\t[ ScoreTable "Rank\\2R;Names"]\n 1 "A;B"\n{unclosed\n',
        '\x00\x1a random ]]] [[[ """ %%% {{{ }}} ;;;',
    ],
)
def test_the_scanner_lexer_gives_the_tokens_of_larks_own_lexer(text: str) -> None:
    standard = Lark(grammar_text("pbn"), parser="lalr", lexer="contextual")
    assert _tokens(load_parser("pbn"), text) == _tokens(standard, text)


def test_an_internal_failure_costs_one_game_and_is_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pbntool.formats.pbn as reader

    real = reader.decode_game

    def failing(raw: reader.RawGame, context: reader.FileContext) -> object:
        if any(tag.value == "2" for tag in raw.tags):
            raise RuntimeError("boom")
        return real(raw, context)

    monkeypatch.setattr(reader, "decode_game", failing)
    result = pbn.parse('[Board "1"]\n\n[Board "2"]\n\n[Board "3"]\n', "bug.pbn")
    assert [b.number for b in result.boards] == [1, 3]
    [internal] = [d for d in result.diagnostics if d.code == "INT001"]
    assert (internal.file, internal.line) == ("bug.pbn", 3)
    assert "this game was skipped" in internal.message and "boom" in internal.message


# --- games over the splitter's hold --------------------------------------------------------

_PIECES_OF_GAMES = [
    '[Event "e"]\n',
    '[Board "1"]\n',
    "text ",
    "x" * 7,
    "\n",
    "\n\n",
    " \t\n",
    " ",
    "\t",
    "{",
    "}",
    "{par 7NT N]\n",
    "{x\n",
    '"{"',
    '"abc',
    '"',
    "\\",
    '\\"',
    '}"',
    "; {\n",
    ";x",
    "%{\n",
    "%",
    "a%b{",
    "\n%{c}\n",
    "\x1a",
    "\n\x1a",
]
"""What splitting games turns on: separators, semi-empty lines, comments closed, unclosed,
runaway, braces in strings and in ``;`` and ``%`` lines, escapes, Ctrl-Z."""


def _split_held(text: str, cuts: list[int], hold: int, long_line: int) -> list[GameBlock]:
    splitter = GameSplitter(hold=hold, long_line=long_line)
    blocks: list[GameBlock] = []
    start = 0
    for cut in sorted(cuts):
        blocks.extend(splitter.feed(text[start:cut], final=False))
        start = max(start, cut)
    blocks.extend(splitter.feed(text[start:], final=False))
    blocks.extend(splitter.feed("", final=True))
    return blocks


@settings(max_examples=1500, deadline=None)
@given(
    parts=st.lists(st.sampled_from(_PIECES_OF_GAMES), max_size=50),
    cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=20),
    hold=st.integers(min_value=0, max_value=60),
    long_line=st.integers(min_value=0, max_value=20),
)
def test_a_game_over_the_hold_is_dropped_where_the_whole_text_would_end_it(
    parts: list[str], cuts: list[int], hold: int, long_line: int
) -> None:
    """Games longer than ``hold`` come out with their start dropped, as the text arrives in
    any pieces, cut inside lines longer than ``long_line``; every game starts, ends and
    measures as when the whole text is split at once, and a game within the hold is the
    same game.  (A game of 100 MB was held whole and its text copied at every chunk: 365 MB
    and ten seconds; one line of 300 MB took five times its size.)  Twenty thousand
    examples passed when this was written."""
    text = "".join(parts)
    whole = list(split_games([text]))
    held = _split_held(text, cuts, hold, long_line)
    assert [(b.first_line, b.last_line, b.size) for b in held] == [
        (b.first_line, b.last_line, b.size) for b in whole
    ]
    for kept, reference in zip(held, whole, strict=True):
        if kept.dropped_chars:
            assert reference.size > hold - 1  # only a game over the hold is dropped
            assert reference.text.endswith(kept.text)
        else:
            assert kept == reference


def test_a_game_over_the_hold_is_reported_with_its_size_and_the_next_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(MAX_GAME_ENV, "1000")
    long_game = '[Event "big"]\n' + ("a line of commentary\n" * 5000) + "{a comment}\n"
    data = (long_game + "\n" + '[Event "next"]\n[Board "2"]\n').encode()
    records = list(pbn.iter_records(io.BytesIO(data), "big.pbn"))
    (oversized,) = [d for r in records for d in r.diagnostics if d.code == "SRC009"]
    assert f"game of {len(long_game.rstrip())} characters" in oversized.message
    assert (oversized.line, records[-1].board.tag("Board")) == (1, "2")
