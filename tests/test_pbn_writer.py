"""The canonical PBN writer (export format, PBN 2.1 §15.3)."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_fuzz import examples

from pbntool.formats.pbn.writer import (
    MANDATORY_TAGS,
    WriteOptions,
    dump,
    dumps,
    dumps_board,
    format_deal,
    is_header_escape,
    iter_dump,
)
from pbntool.model import (
    PASSED_OUT,
    Annotation,
    Auction,
    Board,
    Call,
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
    Table,
    TableColumn,
    Tag,
    Token,
    Vulnerability,
)

from builders import CALLS_18, DEAL_18, PASS, PLAY_18, bid, hand, trick

LF = WriteOptions(line_ending="\n")
HEADER = "% PBN 2.1\n% EXPORT\n%Content-type: text/x-pbn; charset=UTF-8\n"


# --- building boards by hand -----------------------------------------------------------------


def card(text: str) -> Card:
    return Card.parse(text)


def tags(*pairs: tuple[str, str]) -> tuple[Tag, ...]:
    return tuple(Tag(name, value) for name, value in pairs)


SCORE_TABLE_HEADER = (
    "PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R;Score_NS\\5R;"
    "MP_NS\\3R;MP_EW\\3R"
)
AUCTION_18 = Auction(
    Seat.SOUTH,
    CALLS_18,
    annotations=((2, Annotation(note=1)),),
    notes=(Note(1, "limit raise or better in spades"),),
)


def score_table() -> Table:
    widths = [("PairId_NS", 2, "R"), ("PairId_EW", 2, "R"), ("Contract", 4, "L")]
    widths += [("Declarer", 1, "R"), ("Result", 2, "R"), ("Score_NS", 5, "R")]
    widths += [("MP_NS", 3, "R"), ("MP_EW", 3, "R")]
    columns = tuple(TableColumn(name, width=width, align=align) for name, width, align in widths)
    rows = (
        "3 7 4SX S 11 990 3.0 0.0",
        "1 5 4S S 11 650 2.0 1.0",
        "2 8 4S N 10 620 0.5 2.5",
        "4 6 4S S 10 620 0.5 2.5",
    )
    return Table("ScoreTable", SCORE_TABLE_HEADER, columns, tuple(tuple(r.split()) for r in rows))


def section_18_1_board() -> Board:
    """PBN 2.1 summary §18.1, as the reader would fill it."""
    return Board(
        tags=tags(
            ("Event", "Spring Club Pairs"),
            ("Site", "Utrecht NLD"),
            ("Date", "2024.04.12"),
            ("Board", "7"),
            ("West", "Jansen, P."),
            ("North", "de Vries, A."),
            ("East", "Bakker, M."),
            ("South", "Visser, L."),
            ("Dealer", "S"),
            ("Vulnerable", "All"),
            ("Deal", "S:AJ98743.5.AT9.AK K5.KJ864.2.87432 QT6.QT7.KQ753.T5 2.A932.J864.QJ96"),
            ("Scoring", "MP;MP2"),
            ("Declarer", "S"),
            ("Contract", "4SX"),
            ("Result", "11"),
            ("Score", "NS 990"),
            ("Table", "3"),
            ("Auction", "S"),
            ("Note", "1:limit raise or better in spades"),
            ("Play", "W"),
            ("ScoreTable", SCORE_TABLE_HEADER),
        ),
        number=7,
        dealer=Seat.SOUTH,
        vulnerability=Vulnerability.ALL,
        deal=DEAL_18,
        auction=AUCTION_18,
        play=PLAY_18,
        contract=Contract(4, Strain.SPADES, Doubling.DOUBLED),
        declarer=Seat.SOUTH,
        result=Result(11),
        score=Score(990, Side.NS),
        tables=(score_table(),),
    )


SECTION_18_1_GAME = """\
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
[Table "3"]
[Auction "S"]
1S 2H 3H =1= 4H
4S Pass Pass X
Pass Pass Pass
[Note "1:limit raise or better in spades"]
[Play "W"]
D2 D3 DJ DA
S5 S6 S2 SA
SK SQ H2 S3
*
[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R;Score_NS\\5R;MP_NS\\3R;MP_EW\\3R"]
 3  7 4SX  S 11   990 3.0 0.0
 1  5 4S   S 11   650 2.0 1.0
 2  8 4S   N 10   620 0.5 2.5
 4  6 4S   S 10   620 0.5 2.5

"""  # noqa: E501

SECTION_18_2_IMPORT = """\
[Board "7"] [Dealer "s"]
[Vulnerable "Both"]
[Deal "N:QT6.QT7.KQ753.T5 2.A932.J864.QJ96 AJ98743.5.AT9.AK K5.KJ864.2.87432"]
[Declarer "S"] [Contract "4sx"]
[Auction "N"]        ; table with North in the first column
-    -    1S   2H
3H ! =1=  4H   4S   pass
pass x    ap
[Note "1:limit raise or better in spades"]
[Play "W"]
d2 {singleton} D3 DJ DA
S5 S6 S2 SA
SK SQ H2 S3
*
[Result "11"]
"""

SECTION_18_2_EXPORT = """\
[Event "?"]
[Site "?"]
[Date "?"]
[Board "7"]
[West "?"]
[North "?"]
[East "?"]
[South "?"]
[Dealer "S"]
[Vulnerable "All"]
[Deal "S:AJ98743.5.AT9.AK K5.KJ864.2.87432 QT6.QT7.KQ753.T5 2.A932.J864.QJ96"]
[Scoring "?"]
[Declarer "S"]
[Contract "4SX"]
[Result "11"]
[Auction "S"]
; table with North in the first column
1S 2H 3H =1= $1 4H
4S Pass Pass X
Pass Pass Pass
[Note "1:limit raise or better in spades"]
[Play "W"]
D2 {singleton} D3 DJ DA
S5 S6 S2 SA
SK SQ H2 S3
*

"""


def game_lines(board: Board) -> list[str]:
    return dumps_board(board, LF).split("\n")


def lines_after(board: Board, tag_line: str) -> list[str]:
    """The lines that follow ``tag_line`` in the written game."""
    lines = game_lines(board)
    return lines[lines.index(tag_line) + 1 :]


def minimal_auction_board(auction: Auction) -> Board:
    return Board(dealer=auction.first, auction=auction)


# --- the standard's worked example -----------------------------------------------------------


def test_section_18_1_board_is_written_exactly_as_the_standard_shows_it() -> None:
    assert dumps([section_18_1_board()], LF) == HEADER + SECTION_18_1_GAME


def test_section_18_2_import_normalised_by_the_reader_gives_the_export_form() -> None:
    pbn = pytest.importorskip("pbntool.formats.pbn")
    boards = pbn.parse(SECTION_18_2_IMPORT).boards
    assert dumps(boards, LF) == HEADER + SECTION_18_2_EXPORT


# --- file layout and options -----------------------------------------------------------------


def test_default_options_write_crlf_everywhere_and_declare_utf8() -> None:
    text = dumps([section_18_1_board()])
    assert text.startswith("% PBN 2.1\r\n% EXPORT\r\n%Content-type: text/x-pbn; charset=UTF-8\r\n")
    assert text.replace("\r\n", "").count("\n") == 0
    assert text.endswith("2.5\r\n\r\n")


def test_iso_8859_1_is_named_in_the_content_type_line() -> None:
    text = dumps([], WriteOptions(charset="iso-8859-1"))
    assert text == "% PBN 2.1\r\n% EXPORT\r\n%Content-type: text/x-pbn; charset=ISO-8859-1\r\n"


@pytest.mark.parametrize("options", [{"charset": "UTF-16"}, {"line_ending": "\n\r"}])
def test_unsupported_options_are_rejected(options: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        WriteOptions(**options)


def test_no_blank_line_before_the_first_game_and_one_after_every_game() -> None:
    text = dumps([Board(number=1), Board(number=2)], LF)
    assert text.startswith(HEADER + '[Event "?"]\n')
    assert text.count("\n\n") == 2
    assert text.endswith('[Result "?"]\n\n')
    assert '[Result "?"]\n\n[Event "?"]\n' in text


def test_iter_dump_streams_the_header_before_reading_any_board() -> None:
    consumed: list[int] = []

    def boards() -> Iterator[Board]:
        for number in (1, 2):
            consumed.append(number)
            yield Board(number=number)

    chunks = iter_dump(boards(), LF)
    assert next(chunks) == HEADER
    assert consumed == []
    assert '[Board "1"]' in next(chunks)
    assert consumed == [1]
    assert len(list(chunks)) == 1


def test_dump_to_a_binary_stream_encodes_in_the_declared_charset() -> None:
    board = Board(tags=tags(("Event", "Coupe d'été ♠")))
    stream = io.BytesIO()
    dump([board], stream, WriteOptions(charset="ISO-8859-1"))
    assert b'[Event "Coupe d\'\xe9t\xe9 ?"]\r\n' in stream.getvalue()


def test_dump_to_a_text_stream_writes_the_same_as_dumps() -> None:
    stream = io.StringIO()
    dump([section_18_1_board()], stream, LF)
    assert stream.getvalue() == HEADER + SECTION_18_1_GAME


def test_dumps_board_writes_one_game_without_the_file_header() -> None:
    assert dumps_board(section_18_1_board(), LF) == SECTION_18_1_GAME


# --- mandatory tags --------------------------------------------------------------------------


def test_a_board_without_tags_gets_every_mandatory_tag_as_unknown() -> None:
    assert game_lines(Board()) == [f'[{name} "?"]' for name in MANDATORY_TAGS] + ["", ""]


def test_passed_out_board_has_contract_pass_and_empty_declarer_and_result() -> None:
    board = Board(
        tags=tags(("Declarer", "N"), ("Result", "0")),
        dealer=Seat.NORTH,
        contract=PASSED_OUT,
        declarer=Seat.NORTH,
        result=Result(0),
        auction=Auction(Seat.NORTH, (PASS,) * 4),
    )
    lines = game_lines(board)
    assert lines[12:15] == ['[Declarer ""]', '[Contract "Pass"]', '[Result ""]']
    assert lines[15:17] == ['[Auction "N"]', "Pass Pass Pass Pass"]


def test_decoded_values_are_written_in_canonical_form() -> None:
    board = Board(
        tags=tags(("Board", "07"), ("Dealer", "s"), ("Vulnerable", "Both"), ("Contract", "4sx")),
        number=7,
        dealer=Seat.SOUTH,
        vulnerability=Vulnerability.ALL,
        deal=DEAL_18,
        contract=Contract(4, Strain.SPADES, Doubling.DOUBLED),
        declarer=Seat.SOUTH,
        declarer_irregular=True,
        result=Result(9, irregular=True),
    )
    lines = game_lines(board)
    assert lines[3] == '[Board "7"]'
    assert lines[8:11] == [
        '[Dealer "S"]',
        '[Vulnerable "All"]',
        '[Deal "S:AJ98743.5.AT9.AK K5.KJ864.2.87432 QT6.QT7.KQ753.T5 2.A932.J864.QJ96"]',
    ]
    assert lines[12:15] == ['[Declarer "^S"]', '[Contract "4SX"]', '[Result "^9"]']


def test_values_that_could_not_be_decoded_are_written_back_as_given() -> None:
    given = (
        ("Board", "4-1"),
        ("Dealer", "Q"),
        ("Vulnerable", "Sometimes"),
        ("Deal", "N:AKQ.hearts"),
        ("Declarer", "?"),
        ("Contract", "8NT"),
        ("Result", "NS 14"),
    )
    lines = game_lines(Board(tags=tags(*given)))
    for name, value in given:
        assert f'[{name} "{value}"]' in lines


def test_deal_without_a_dealer_starts_with_north_and_unknown_hands_are_dashes() -> None:
    deal = Deal((None, hand("AKQ..T98765.2"), None, hand("2.AKQJT98765432..")))
    assert '[Deal "N:- AKQ..T98765.2 - 2.AKQJT98765432.."]' in game_lines(Board(deal=deal))
    assert format_deal(deal, Seat.WEST) == "W:2.AKQJT98765432.. - AKQ..T98765.2 -"


def test_a_deal_with_no_known_hand_keeps_the_value_as_written() -> None:
    board = Board(tags=tags(("Deal", "S:...")), deal=Deal((None, None, None, None)))
    assert '[Deal "S:..."]' in game_lines(board)
    assert '[Deal "?"]' in game_lines(Board(deal=Deal((None, None, None, None))))


def test_inherited_tags_are_written_explicitly() -> None:
    board = Board(tags=(Tag("Event", "Autumn Teams", written="##Autumn Teams", inherited=True),))
    assert game_lines(board)[0] == '[Event "Autumn Teams"]'


def test_duplicate_tags_are_dropped_and_the_first_one_wins() -> None:
    board = Board(
        tags=(
            Tag("Site", "Utrecht"),
            Tag("Room", "Open"),
            Tag("Site", "Bussum", duplicate=True),
            Tag("Room", "Closed", duplicate=True),
        )
    )
    text = dumps_board(board, LF)
    assert '[Site "Utrecht"]' in text
    assert '[Room "Open"]' in text
    assert "Bussum" not in text
    assert "Closed" not in text


# --- other identification tags ---------------------------------------------------------------


def test_other_identification_tags_follow_the_mts_sorted_case_insensitively() -> None:
    board = Board(
        tags=tags(("Room", "Open"), ("annotator", "me"), ("DealId", "x1"), ("BidSystemEW", "Acol"))
    )
    assert game_lines(board)[15:19] == [
        '[annotator "me"]',
        '[BidSystemEW "Acol"]',
        '[DealId "x1"]',
        '[Room "Open"]',
    ]


def test_a_stated_score_without_a_tag_is_written_as_a_score_tag() -> None:
    assert '[Score "NS 620"]' in game_lines(Board(score=Score(620, Side.NS)))
    assert '[Score "420"]' in game_lines(Board(score=Score(420)))


def test_note_tags_outside_any_decoded_section_are_kept() -> None:
    board = Board(tags=tags(("Note", "1:stray explanation")))
    assert game_lines(board)[15] == '[Note "1:stray explanation"]'


def test_note_tags_outside_the_decoded_sections_join_the_auction_notes() -> None:
    auction = Auction(Seat.NORTH, (bid("1C"),), annotations=((0, Annotation(note=2)),))
    board = Board(
        tags=tags(("Note", "2:strong"), ("Note", "1:stray")),
        dealer=Seat.NORTH,
        auction=dataclasses.replace(auction, notes=(Note(2, "strong"),)),
    )
    assert lines_after(board, '[Auction "N"]') == [
        "1C =2=",
        '[Note "1:stray"]',
        '[Note "2:strong"]',
        "",
        "",
    ]


# --- escaping and whitespace -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('say "hi"', '"say \\"hi\\""'),
        ("ends with \\", '"ends with \\\\"'),
        ("two \\\\ backslashes", '"two \\\\\\ backslashes"'),
        ('\\"', '"\\\\\\""'),
        ("5+\\Hs, GF", '"5+\\Hs, GF"'),
        ("tab\there", '"tab here"'),
        ("line\r\nbreak", '"line  break"'),
    ],
)
def test_tag_values_are_escaped_so_the_reader_gets_them_back(value: str, written: str) -> None:
    assert f"[Event {written}]" in game_lines(Board(tags=tags(("Event", value))))


# --- comments --------------------------------------------------------------------------------


def test_tag_comments_are_written_after_their_tag_on_new_lines() -> None:
    comments = (
        Comment("brace"),
        Comment(" rest of line", CommentKind.LINE),
        Comment("Private data", CommentKind.ESCAPE),
    )
    board = Board(tags=(Tag("Site", "Utrecht", comments=comments),))
    assert game_lines(board)[1:5] == [
        '[Site "Utrecht"]',
        "{brace}",
        "; rest of line",
        "%Private data",
    ]


def test_game_commentary_comes_first_without_the_header_escape_lines() -> None:
    commentary = (
        Comment(" PBN 2.0", CommentKind.ESCAPE),
        Comment("  export ", CommentKind.ESCAPE),
        Comment("Content-Type: text/x-pbn; charset=ISO-8859-1", CommentKind.ESCAPE),
        Comment("BCOptions Float", CommentKind.ESCAPE),
        Comment("a game comment"),
    )
    assert game_lines(Board(commentary=commentary))[:3] == [
        "%BCOptions Float",
        "{a game comment}",
        '[Event "?"]',
    ]


def test_header_escape_lines_are_recognised_case_insensitively() -> None:
    assert is_header_escape(Comment(" pbn   2.1", CommentKind.ESCAPE))
    assert is_header_escape(Comment("content-type: text/x-pbn", CommentKind.ESCAPE))
    assert not is_header_escape(Comment(" PBN 2.1"))
    assert not is_header_escape(Comment(" PBN files are fun", CommentKind.ESCAPE))


def test_stray_text_is_kept_as_a_brace_comment_or_as_line_comments() -> None:
    commentary = (
        Comment("Generated by dealer", CommentKind.STRAY),
        Comment("stats {a}\nmore}", CommentKind.STRAY),
    )
    assert game_lines(Board(commentary=commentary))[:4] == [
        "{Generated by dealer}",
        ";stats {a}",
        ";more}",
        '[Event "?"]',
    ]


def test_multiline_brace_comment_loses_tabs_and_trailing_spaces_only() -> None:
    comment = Comment("first line  \r\n\tindented\n\n last ")
    text = dumps_board(Board(commentary=(comment,)))
    assert text.startswith("{first line\r\n indented\r\n\r\n last }\r\n[Event")


# --- auction ---------------------------------------------------------------------------------


def test_auction_calls_carry_irregularity_note_nags_and_comments_in_order() -> None:
    annotation = Annotation(note=2, nags=(25, 3), irregularity="I", comments=(Comment("oops"),))
    auction = Auction(Seat.WEST, (bid("1S"), bid("1H"), PASS), annotations=((1, annotation),))
    assert lines_after(minimal_auction_board(auction), '[Auction "W"]')[0] == (
        "1S ^I 1H =2= $3 $25 {oops} Pass"
    )


def test_a_line_comment_ends_the_line_but_rows_still_start_at_the_dealer() -> None:
    calls: tuple[Call | Token, ...] = (bid("1C"), PASS, bid("1H"), PASS, bid("2H"), PASS)
    annotation = Annotation(comments=(Comment(" natural", CommentKind.LINE),))
    auction = Auction(Seat.NORTH, calls, annotations=((1, annotation),))
    assert lines_after(minimal_auction_board(auction), '[Auction "N"]')[:3] == [
        "1C Pass ; natural",
        "1H Pass",
        "2H Pass",
    ]


def test_an_escape_line_inside_the_auction_stands_on_its_own_line() -> None:
    annotation = Annotation(comments=(Comment("hash 1f", CommentKind.ESCAPE),))
    auction = Auction(Seat.EAST, (bid("1C"), PASS, PASS), annotations=((0, annotation),))
    assert lines_after(minimal_auction_board(auction), '[Auction "E"]')[:2] == [
        "1C",
        "%hash 1f",
    ]


def test_auction_tokens_are_written_verbatim() -> None:
    calls = (bid("1S"), Token("^S"), bid("2S"), Token("4NT/5D"), Token("+"))
    auction = Auction(Seat.WEST, calls)
    assert lines_after(minimal_auction_board(auction), '[Auction "W"]')[:2] == [
        "1S ^S 2S 4NT/5D",
        "+",
    ]


def test_auction_comments_stop_marker_and_notes_sorted_by_index() -> None:
    auction = Auction(
        Seat.SOUTH,
        (bid("1NT"), PASS),
        end=SectionEnd.STOP,
        annotations=((0, Annotation(note=2)), (1, Annotation(note=1))),
        notes=(Note(2, "12-14", (Comment("weak"),)), Note(1, "no 5-card major")),
        comments=(Comment("uncontested"),),
    )
    assert lines_after(minimal_auction_board(auction), '[Auction "S"]') == [
        "{uncontested}",
        "1NT =2= Pass =1=",
        "*",
        '[Note "1:no 5-card major"]',
        '[Note "2:12-14"]',
        "{weak}",
        "",
        "",
    ]


def test_section_comments_anchored_on_the_auction_tag_are_kept() -> None:
    # The reader may keep the comments after [Auction] on the tag rather than the section.
    comment = Comment(" North first", CommentKind.LINE)
    board = Board(
        tags=(Tag("Auction", "N", comments=(comment,)),),
        dealer=Seat.NORTH,
        auction=Auction(Seat.NORTH, (PASS,) * 4),
    )
    assert lines_after(board, '[Auction "N"]')[:2] == ["; North first", "Pass Pass Pass Pass"]


def test_an_auction_tag_that_could_not_be_decoded_is_kept_with_its_data() -> None:
    board = Board(
        tags=(Tag("Auction", "?"),),
        tables=(Table("Auction", "?", leftover=("1C", "pass", "1Z")),),
    )
    assert lines_after(board, '[Result "?"]')[:2] == ['[Auction "?"]', "1C pass 1Z"]


# --- play ------------------------------------------------------------------------------------


def play_board(play: Play) -> Board:
    return Board(play=play)


def test_the_last_trick_keeps_its_four_columns() -> None:
    play = Play(
        Seat.WEST,
        (
            trick(Seat.WEST, "D2", None, "DJ", None),
            trick(Seat.WEST, None, None, "S2", "SA"),
            trick(Seat.WEST, "SK", "SQ", None, None),
        ),
    )
    assert lines_after(play_board(play), '[Play "W"]') == [
        "D2 - DJ -",
        "- - S2 SA",
        "SK SQ - -",
        "",
        "",
    ]


def test_trailing_tricks_with_nothing_known_are_not_written() -> None:
    play = Play(Seat.NORTH, (trick(Seat.NORTH, "CA", "C2"), trick(Seat.NORTH), trick(Seat.NORTH)))
    assert lines_after(play_board(play), '[Play "N"]') == ["CA C2 - -", "", ""]


def test_card_irregularities_and_annotations_are_written_like_calls() -> None:
    play = Play(
        Seat.WEST,
        (trick(Seat.WEST, "CA", "S4", "C9", "C7"),),
        annotations=(
            ((0, Seat.NORTH), Annotation(irregularity="R", nags=(9,))),
            ((0, Seat.EAST), Annotation(irregularity="L", note=1, comments=(Comment("led"),))),
        ),
        notes=(Note(1, "out of turn"),),
        end=SectionEnd.STOP,
    )
    assert lines_after(play_board(play), '[Play "W"]')[:3] == [
        "CA ^R S4 $9 ^L C9 =1= {led} C7",
        "*",
        '[Note "1:out of turn"]',
    ]


def test_a_continuation_token_is_kept_in_its_column() -> None:
    slots: tuple[Slot, Slot, Slot, Slot] = (Token("+"), None, None, card("SA"))
    play = Play(Seat.NORTH, (slots,))
    assert lines_after(play_board(play), '[Play "N"]')[0] == "+ - - SA"


def test_play_comments_follow_the_play_tag() -> None:
    play = Play(Seat.EAST, (trick(Seat.EAST, "HA"),), comments=(Comment("a lead"),))
    assert lines_after(play_board(play), '[Play "E"]')[:2] == ["{a lead}", "HA - - -"]


# --- tables ----------------------------------------------------------------------------------


def test_table_elements_are_padded_to_their_column_widths() -> None:
    columns = (
        TableColumn("Rank", width=3, align="R"),
        TableColumn("Names", width=6),
        TableColumn("Score", order="+", width=4, align="L"),
        TableColumn("Extra"),
    )
    table = Table(
        "TotalScoreTable",
        "ignored when columns are known",
        columns,
        rows=(("1", '"Smith"', "60.5", "x"), ("10", '"Longer name"', "55", "y")),
        leftover=("11", "?"),
        comments=(Comment("final"),),
    )
    assert lines_after(Board(tables=(table,)), '[Result "?"]') == [
        '[TotalScoreTable "Rank\\3R;Names\\6;+Score\\4L;Extra"]',
        "{final}",
        '  1 "Smith" 60.5 x',
        ' 10 "Longer name" 55   y',
        " 11 ?",
        "",
        "",
    ]


def test_tables_come_after_the_play_sorted_case_insensitively() -> None:
    board = Board(
        play=Play(Seat.WEST, (trick(Seat.WEST, "CA"),)),
        tables=(
            Table("ScoreTable", "Rank", (TableColumn("Rank"),), rows=(("1",),)),
            Table("actionTable", "Rank", (TableColumn("Rank"),), rows=(("2",),)),
        ),
    )
    assert lines_after(board, '[Play "W"]') == [
        "CA - - -",
        '[actionTable "Rank"]',
        "2",
        '[ScoreTable "Rank"]',
        "1",
        "",
        "",
    ]


def test_an_unknown_section_keeps_its_header_and_elements() -> None:
    board = Board(
        tags=(Tag("Foo", "bar baz"),),
        tables=(Table("Foo", "bar baz", leftover=("a", '"b c"', "d")),),
    )
    assert lines_after(board, '[Result "?"]') == ['[Foo "bar baz"]', 'a "b c" d', "", ""]


# --- whole-output properties -----------------------------------------------------------------


def busy_board() -> Board:
    """A board with something awkward in every place a line could go wrong."""
    board = section_18_1_board()
    comment = Comment("tab\there  \nand trailing   ")
    return Board(
        tags=(*board.tags, Tag("Annotator", "x\ty", comments=(comment,))),
        number=board.number,
        dealer=board.dealer,
        deal=board.deal,
        auction=Auction(
            Seat.SOUTH,
            AUCTION_18.calls,
            annotations=((3, Annotation(comments=(comment, Comment("x\t", CommentKind.LINE)))),),
        ),
        play=PLAY_18,
        commentary=(comment, Comment("stray\t}  ", CommentKind.STRAY)),
        tables=board.tables,
    )


def test_no_line_has_tabs_or_trailing_spaces_and_no_game_has_a_blank_line() -> None:
    text = dumps([busy_board(), busy_board()])
    assert "\t" not in text
    lines = text.split("\r\n")
    assert all(line == line.rstrip() for line in lines)
    games = text[len(WriteOptions().header) :].split("\r\n\r\n")
    assert len(games) == 3
    assert games[-1] == ""


# --- stability with the reader ---------------------------------------------------------------

COMMENTED_IMPORT = """\
% PBN 2.1
% EXPORT
%BCOptions Float
{game comment}
[Event "E"] {event comment}
[Board "1"]
[Dealer "N"]
[Auction "N"]
{auction comment}
1C {first} 1D ; line comment
Pass
% escape in the auction
Pass Pass
[Play "E"] {play comment}
CA =1= {card comment} C2 ^R D3 C4
*
[Note "1:card note"]
[ScoreTable "Rank\\2R;Contract"] {table comment}
1 3NT 2 "4S X"
[Foo "bar"]
a b c
"""


def read_boards(text: str) -> list[Board]:
    pbn = pytest.importorskip("pbntool.formats.pbn")
    if not hasattr(pbn, "parse"):
        pytest.skip("the PBN reader is not available yet")
    return list(pbn.parse(text).boards)


@pytest.mark.parametrize(
    "source",
    [HEADER + SECTION_18_1_GAME, SECTION_18_2_IMPORT, COMMENTED_IMPORT],
    ids=["section-18-1", "section-18-2", "comments-everywhere"],
)
def test_writing_what_the_reader_read_from_our_output_is_byte_identical(source: str) -> None:
    once = dumps(read_boards(source))
    assert dumps(read_boards(once)) == once


@pytest.mark.parametrize(
    "board",
    [section_18_1_board(), busy_board(), Board()],
    ids=["section-18-1", "busy", "empty"],
)
def test_hand_built_boards_survive_a_read_write_cycle(board: Board) -> None:
    once = dumps([board])
    assert dumps(read_boards(once)) == once


CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


@pytest.mark.corpus
@pytest.mark.slow
def test_the_corpus_written_twice_is_byte_identical() -> None:
    if not CORPUS.is_dir():
        pytest.skip("corpus not present")
    pbn = pytest.importorskip("pbntool.formats.pbn")
    failures = []
    for path in sorted(CORPUS.rglob("*")):
        if path.suffix.lower() != ".pbn":
            continue
        once = dumps(pbn.parse(path.read_bytes(), str(path)).boards)
        if dumps(pbn.parse(once).boards) != once:
            failures.append(str(path))
    assert failures == []


# --- LIN tokens that are not PBN tokens: canonical output is stable (issue 12) ----------------

_LIN_BASE = (
    "pn|A,B,C,D|st||md|3SAKQHAKQDAKQCAKQJ,S2345H2345D2345C2,S6789H6789D6789C3,|rh||ah|Board 1|sv|o|"
)
LIN_TOKENS = ("H7=1=", "H7!", "H7$1", "H7^L", "H7*", "=1=", "H7=", "S{x}", "H7;", "H7%", "1N$1")
"""Card and call tokens a LIN file may hold that are not one PBN token: written verbatim they
read back as a card with a note, a NAG, an end marker, a comment… (the canonical PBN was not
stable)."""


def _lin_with(token: str, where: str) -> str:
    if where == "pc":
        return _LIN_BASE + f"mb|1N|mb|p|mb|p|mb|p|pg||pc|{token}|pc|D2|pg||"
    return _LIN_BASE + f"mb|1N|mb|{token}|mb|p|mb|p|mb|p|pg||"


@pytest.mark.parametrize("where", ["pc", "mb"])
@pytest.mark.parametrize("token", LIN_TOKENS)
def test_canonical_pbn_of_lin_tokens_is_stable(token: str, where: str) -> None:
    from pbntool.formats import lin, pbn
    from pbntool.formats.pbn.writer import PbnWriter

    boards = lin.parse(_lin_with(token, where)).boards
    first = pbn.dumps(boards)
    again = pbn.parse(first).boards
    assert len(again) == 1
    assert pbn.dumps(again) == first
    assert pbn.dumps(pbn.parse(pbn.dumps(again)).boards) == first
    losses = PbnWriter(io.StringIO()).write(boards[0])
    if "\n" + token not in first and f" {token}" not in first:
        assert [d.code for d in losses] == ["OUT030"]  # left out, and said so


def test_lin_token_with_a_note_through_the_command_line(tmp_path: Path) -> None:
    """read → write → read → write: identical bytes, through convert."""
    import subprocess
    import sys

    source = tmp_path / "board.lin"
    source.write_text(_lin_with("H7=1=", "pc"), encoding="utf-8")
    once, twice = tmp_path / "once.pbn", tmp_path / "twice.pbn"
    for src, out in ((source, once), (once, twice)):
        done = subprocess.run(
            [sys.executable, "-m", "pbntool", "convert", "--to", "pbn", str(src), "-o", str(out)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    assert "OUT030" in subprocess.run(
        [sys.executable, "-m", "pbntool", "convert", "--to", "pbn", str(source)],
        capture_output=True, text=True, check=False,
    ).stderr  # fmt: skip
    assert twice.read_bytes() == once.read_bytes()


@pytest.mark.parametrize(
    ("text", "stand_in"),
    [('[Auction "N"]"[Event "x"]', "Event"), ('[Auction "N"]\n"1NT" X', "unwritable")],
)
def test_an_unwritable_call_keeps_its_place(text: str, stand_in: str) -> None:
    """A call PBN cannot hold is written as a word that keeps its place: dropped, the calls
    after it would be checked from the start (a double of nothing, AUC002), an error the
    board did not have (found by test_fuzz)."""
    from pbntool.formats import pbn
    from pbntool.formats.pbn.writer import PbnWriter
    from pbntool.model import Token
    from pbntool.records import validate_record

    board = pbn.parse(text).boards[0]
    losses = PbnWriter(io.StringIO()).write(board)
    assert [d.code for d in losses] == ["OUT030"] and repr(stand_in) in losses[0].message
    again = pbn.parse(pbn.dumps([board])).boards[0]
    assert again.auction is not None and board.auction is not None
    assert again.auction.calls[0] == Token(stand_in)
    assert again.auction.calls[1:] == board.auction.calls[1:]
    written = io.BytesIO(pbn.dumps([board]).encode())
    record = next(pbn.iter_records(written, "x.pbn"))
    assert "AUC002" not in {d.code for d in validate_record(record)}
    original = next(pbn.iter_records(io.BytesIO(text.encode()), "x.pbn"))
    assert "AUC002" not in {d.code for d in validate_record(original)}


def test_a_string_with_a_nul_in_the_auction_writes_stably() -> None:
    """A quoted call with a NUL in it (found by the atheris harness): its stand-in kept the
    NUL, which the reader takes for stray text outside the section, so a second write moved
    it into a comment: ``dumps(read(dumps(x))) != dumps(x)``."""
    from pbntool.formats import pbn
    from pbntool.model import Token

    text = '[Auction "N"]\n1NT Pass "\x00N\x00" Pass\n'
    once = pbn.dumps(pbn.parse(text).boards)
    again = pbn.parse(once).boards[0]
    assert again.auction is not None and again.auction.calls[2] == Token("N")
    assert pbn.dumps([again]) == once


DEAL_TEXT = "N:AKQ2.K93.A74.J85 J986.QJT.KQ3.942 T5.A8764.J652.AK 743.52.T98.QT763"


@pytest.mark.parametrize(
    ("value", "written"),
    [
        # Read as North only: the canonical "N:AKQ2.K93.A74.J8 - - -" lost three hands.
        (
            "N:AKQ2.K93.A74.J8\t\t4.J652.AK 7.3.52.T98.QT763",
            "N:AKQ2.K93.A74.J8  4.J652.AK 7.3.52.T98.QT763",
        ),
        # A bad rank: the canonical text dropped the Z, and the error with it.
        (DEAL_TEXT.replace("942", "94Z"), DEAL_TEXT.replace("942", "94Z")),
        # Nothing lost: written canonically.
        ("N:AKQ2.K93.A74.J85 - - -", "N:AKQ2.K93.A74.J85 - - -"),
        (DEAL_TEXT.replace("AKQ2.K93.A74.J85", "SAKQ2.HK93.DA74.CJ85"), DEAL_TEXT),
        ("n:" + DEAL_TEXT[2:], DEAL_TEXT),
    ],
)
def test_a_deal_with_an_error_is_written_as_given(value: str, written: str) -> None:
    from pbntool.formats import pbn

    once = pbn.dumps(pbn.parse(f'[Deal "{value}"]\n').boards)
    assert f'[Deal "{written}"]' in once
    assert pbn.dumps(pbn.parse(once).boards) == once


TOKEN_TEXT = st.text(st.sampled_from('ab1NTS+*-^$=!?"[]{};% \t\n\r\x00\x01\x1a\x1f\u00a0\u00fc'))


@settings(deadline=None, max_examples=examples(200))
@given(call=TOKEN_TEXT.filter(bool), card=TOKEN_TEXT.filter(bool), followed=st.booleans())
@example(call='"+', card="+", followed=True)  # a stand-in "+": it ended the auction
@example(call="+", card='"+"', followed=True)
def test_any_unrecognised_call_or_card_writes_stably(call: str, card: str, followed: bool) -> None:
    """Whatever an unrecognised call or card holds, last or with calls and tricks after it,
    its board is written so that reading it back and writing it again gives the same text,
    nothing after it is lost, and a token not read back as itself is reported as a loss (the
    writer asks the reader whether a token survives where it is: a stand-in ``+`` before
    other calls ended the auction, found by atheris)."""
    from pbntool.formats import pbn
    from pbntool.formats.pbn.writer import PbnWriter
    from pbntool.model import Token

    board = pbn.parse(
        '[Board "1"]\n[Dealer "N"]\n[Declarer "S"]\n[Contract "1S"]\n[Auction "N"]\n'
        'Pass 1S Pass Pass\nPass\n[Play "W"]\nHA H2 H3 H4\nSA S2 S3 S4\n'
    ).boards[0]
    assert board.auction is not None and board.play is not None
    after = board.auction.calls[2:] if followed else ()
    calls = (*board.auction.calls[:2], Token(call), *after)
    tricks = board.play.tricks if followed else board.play.tricks[:1]
    first = (tricks[0][0], Token(card), None, None)
    play = dataclasses.replace(board.play, tricks=(first, *tricks[1:]))
    board = dataclasses.replace(
        board, auction=dataclasses.replace(board.auction, calls=calls), play=play
    )
    losses = PbnWriter(io.StringIO()).write(board)
    once = pbn.dumps([board])
    [again] = pbn.parse(once).boards
    assert pbn.dumps([again]) == once
    assert again.auction is not None and again.play is not None
    assert again.auction.calls[3:] == after and again.play.tricks[1:] == tricks[1:]
    kept_call = again.auction.calls[2:3] == (Token(call),)
    kept_card = again.play.tricks[0][1] == Token(card)
    lost = " ".join(d.message for d in losses if d.code == "OUT030")
    assert kept_call or f"the call {call!r}" in lost
    assert kept_card or f"the card {card!r}" in lost
