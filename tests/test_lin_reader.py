"""The LIN reader on every flavour of ``lin-format.md``: what each construct becomes in the
model, how boards are split, where findings point, and that nothing is lost or crashes."""

from __future__ import annotations

from pbntool.formats import lin
from pbntool.formats.lin.lexer import decode_link_value
from pbntool.formats.lin.values import (
    read_calls,
    read_cards,
    read_deal,
    read_room,
    read_table_result,
)
from pbntool.model import (
    Action,
    Bid,
    Board,
    Card,
    CommentKind,
    Hand,
    Seat,
    SectionEnd,
    Strain,
    Token,
    Vulnerability,
)
from pbntool.records import ParseResult

# South AKQ.AKQ.AKQ.AKQJ, West 5432.5432.5432.2, North 9876.9876.9876.3, East the rest.
SOUTH, WEST, NORTH = "SAKQHAKQDAKQCAKQJ", "S2345H2345D2345C2", "S6789H6789D6789C3"
EAST = "SJTHJTDJTCT987654"
DEAL3 = f"3{SOUTH},{WEST},{NORTH},"
HEAD = f"pn|Ann,Bob,Cid,Dee|st||md|{DEAL3}|rh||ah|Board 1|sv|o|"
AUCTION = "mb|p|mb|p|mb|7N|mb|p|mb|p|mb|p|"


def parse(text: str) -> ParseResult:
    return lin.parse(text, validate=True)


def only_board(text: str) -> Board:
    result = parse(text)
    assert len(result.boards) == 1, result.boards
    return result.boards[0]


def codes(result: ParseResult) -> list[str]:
    return [d.code for d in result.diagnostics]


# --- values -------------------------------------------------------------------------------------


def test_deal_in_any_rank_order_case_and_ten_spelling() -> None:
    ascending = read_deal("1S2QAH10kdD,,,")
    assert ascending.dealer is Seat.SOUTH
    assert str(ascending.hands[Seat.SOUTH]) == "AQ2.KT.."
    assert not ascending.problems


def test_three_hands_complete_the_fourth() -> None:
    deal = read_deal(DEAL3)
    assert deal.derived is Seat.EAST
    assert deal.hands[Seat.EAST] == Hand.parse_suits("JT", "JT", "JT", "T987654")


def test_void_letter_may_be_omitted() -> None:
    deal = read_deal("3HAT43DAQJ6CJT974,,,")
    assert str(deal.hands[Seat.SOUTH]) == ".AT43.AQJ6.JT974"


def test_duplicated_card_in_a_hand_is_a_problem() -> None:
    deal = read_deal("1SAA,,,")
    assert [p.message for p in deal.problems] == ["SA twice in South's hand"]


def test_compact_auction_with_padding_and_alerts() -> None:
    calls, problem = read_calls("-ppp1C!p1Hp3Np")
    assert problem is None
    assert [str(call) for call, _ in calls] == ["Pass"] * 3 + [
        "1C",
        "Pass",
        "1H",
        "Pass",
        "3NT",
        "Pass",
    ]
    assert [alerted for _, alerted in calls][3] is True


def test_call_spellings() -> None:
    spellings = (
        ("p!", Action.PASS),
        ("D", Action.DOUBLE),
        ("xx", Action.REDOUBLE),
        ("1nt", Bid.of(1, Strain.NOTRUMP)),
        ("7n", Bid.of(7, Strain.NOTRUMP)),
    )
    for text, call in spellings:
        found, problem = read_calls(text)
        assert problem is None and found[0][0] is call, text


def test_cards_in_any_case_and_several_in_one_value() -> None:
    assert [str(card) for card, _ in read_cards("sA")[0]] == ["SA"]
    assert [str(card) for card, _ in read_cards("SASKSQS2")[0]] == ["SA", "SK", "SQ", "S2"]
    assert [str(card) for card, _ in read_cards("h10")[0]] == ["HT"]
    assert read_cards("ZZ")[1] is not None


def test_room_labels() -> None:
    assert read_room("o12") == ("o", 12, None)
    assert read_room("c3") == ("c", 3, None)
    assert read_room("o1,BOARD 1") == ("o", 1, "BOARD 1")
    assert read_room("") == ("", None, None)
    assert read_room("closed-1") is None


def test_results_line_entries() -> None:
    entry = read_table_result("3HNxx=")
    assert entry is not None and str(entry.contract) == "3HXX" and entry.tricks == 9
    passed = read_table_result("PASS")
    assert passed is not None and passed.contract.is_passed_out
    assert read_table_result("7NS+1") is None  # fourteen tricks


# --- a myhands line --------------------------------------------------------------------------


def test_myhands_line_becomes_a_full_board() -> None:
    text = (
        HEAD + "mb|p|mb|p|mb|1N!|an|15-17|mb|p|mb|7N|mb|p|mb|p|mb|p|pg||"
        "pc|D2|pc|D6|pc|DJ|pc|DA|pg||mc|13|"
    )
    result = parse(text)
    assert result.diagnostics == ()
    board = result.boards[0]
    assert board.number == 1 and board.dealer is Seat.NORTH
    assert board.vulnerability is Vulnerability.NONE
    assert [board.tag(name) for name in ("North", "East", "South", "West")] == [
        "Cid", "Dee", "Ann", "Bob"]  # fmt: skip
    assert board.deal is not None and board.deal.hands[Seat.EAST] is not None
    assert str(board.contract) == "7NT" and board.declarer is Seat.SOUTH
    assert board.result is not None and board.result.tricks == 13
    assert board.auction is not None
    annotation = board.auction.annotation(2)
    assert annotation is not None and annotation.nags == (15,) and annotation.note == 1
    assert board.auction.notes[0].text == "15-17"
    assert board.play is not None and board.play.first is Seat.WEST
    assert board.play.end is SectionEnd.STOP
    assert board.tag("Contract") == "7NT" and board.tag("Result") == "13"


def test_explanation_of_a_call_that_is_not_alerted_keeps_no_alert() -> None:
    board = only_board(HEAD + "mb|p|mb|p|mb|7N|an|grand slam|mb|p|mb|p|mb|p|")
    assert board.auction is not None
    annotation = board.auction.annotation(2)
    assert annotation is not None and annotation.nags == () and annotation.note == 1


def test_bare_exclamation_explanation_is_an_alert() -> None:
    board = only_board(HEAD + "mb|p|mb|p|mb|7N|an|!|mb|p|mb|p|mb|p|")
    assert board.auction is not None
    annotation = board.auction.annotation(2)
    assert annotation is not None and annotation.nags == (15,) and annotation.note is None


def test_complete_play_without_claim_gives_the_result() -> None:
    cards = []
    # West leads the 2s of each suit; every trick: West, North, East, South.
    west = ["S2", "S3", "S4", "S5", "H2", "H3", "H4", "H5", "D2", "D3", "D4", "D5", "C2"]
    north = ["S6", "S7", "S8", "S9", "H6", "H7", "H8", "H9", "D6", "D7", "D8", "D9", "C3"]
    east = ["ST", "SJ", "C4", "C5", "HT", "HJ", "C6", "C7", "DT", "DJ", "C8", "C9", "CT"]
    south = ["SA", "SK", "SQ", "CJ", "HA", "HK", "HQ", "CQ", "DA", "DK", "DQ", "CK", "CA"]
    for trick in range(13):
        cards += [west[trick], north[trick], east[trick], south[trick]]
    # South declares so West leads; South wins every trick and leads nothing here: the
    # record is still read in order, the winner of each trick leading the next.
    text = HEAD.replace("md|3", "md|1") + "mb|7N|mb|p|mb|p|mb|p|"
    text += "".join(f"pc|{card}|" for card in _reorder(cards))
    board = only_board(text)
    assert board.result is not None and board.result.tricks == 13


def _reorder(cards: list[str]) -> list[str]:
    """West leads trick 1; South wins every trick and leads the rest (S, W, N, E)."""
    out: list[str] = []
    for trick in range(13):
        w, n, e, s = cards[trick * 4 : trick * 4 + 4]
        out += [w, n, e, s] if trick == 0 else [s, w, n, e]
    return out


def test_claim_mid_trick_keeps_the_cards_played() -> None:
    board = only_board(HEAD + AUCTION + "pc|D2|pc|D6|mc|13|")
    assert board.play is not None
    assert board.play.tricks[0][Seat.WEST] == Card.parse("D2")
    assert board.play.tricks[0][Seat.NORTH] == Card.parse("D6")
    assert board.play.tricks[0][Seat.EAST] is None


def test_unknown_commands_are_kept_at_their_place() -> None:
    board = only_board(HEAD + "sa|0|" + AUCTION + "pc|D2|zz|3.53|")
    assert board.auction is not None and board.play is not None
    assert [c.text for c in board.auction.comments] == ["lin sa|0|"]
    annotation = board.play.annotation(0, Seat.WEST)
    assert annotation is not None
    assert [(c.kind, c.text) for c in annotation.comments] == [(CommentKind.ESCAPE, "lin zz|3.53|")]


def test_commentary_is_attached_where_it_stood() -> None:
    text = HEAD + "nt|before|mb|p|nt|after pass|mb|p|mb|7N|mb|p|mb|p|mb|p|pc|D2|nt|lead|"
    board = only_board(text)
    assert board.auction is not None and board.play is not None
    assert [c.text for c in board.auction.comments] == ["before"]
    first = board.auction.annotation(0)
    assert first is not None and [c.text for c in first.comments] == ["after pass"]
    lead = board.play.annotation(0, Seat.WEST)
    assert lead is not None and [c.text for c in lead.comments] == ["lead"]


def test_explanation_before_the_first_call_is_commentary() -> None:
    result = parse(HEAD + "an|operator typing|" + AUCTION)
    assert "LIN106" in codes(result)
    board = result.boards[0]
    assert board.auction is not None
    assert [c.text for c in board.auction.comments] == ["lin an|operator typing|"]


def test_caption_that_is_not_board_n_is_kept() -> None:
    board = only_board(HEAD.replace("ah|Board 1|", "ah|Board 1 - Open Room|") + AUCTION)
    assert board.number == 1
    assert "lin ah|Board 1 - Open Room|" in [c.text for c in board.commentary]


def test_unfinished_record_without_calls_is_a_board_with_no_auction() -> None:
    board = only_board(HEAD)
    assert board.auction is None and board.contract is None and board.result is None


def test_generated_deals_one_per_line_without_auction() -> None:
    text = "".join(f"pn|-,-,-,-|md|{DEAL3}|sv|o|ah|Board {number}|\n" for number in (1, 2, 3))
    result = parse(text)
    assert [b.number for b in result.boards] == [1, 2, 3]


def test_bbo_client_style_with_newlines_before_pipes() -> None:
    text = (
        "pn|Ann,Bob,Cid,Dee|qx|o1,BOARD 1|rh||ah|Board 1|md|"
        + DEAL3
        + "|sv|o\n|sa|0|"
        + AUCTION
        + "\n"
        "pn|Eve,Fay,Gus,Hal|qx|o2,BOARD 2|rh||ah|Board 2|md|"
        + DEAL3.replace("3", "4", 1)
        + "|sv|n\n|sa|0|mb|p|mb|p|mb|p|mb|p|\n"
    )
    result = parse(text)
    assert [b.number for b in result.boards] == [1, 2]
    assert [b.tag("South") for b in result.boards] == ["Ann", "Eve"]
    assert result.boards[0].vulnerability is Vulnerability.NONE
    assert str(result.boards[1].contract) == "Pass"
    assert "lin qx|o1,BOARD 1|" in [c.text for c in result.boards[0].commentary]


def test_second_md_before_any_qx_starts_a_new_board() -> None:
    text = f"md|{DEAL3}|sv|o|ah|Board 1|md|{DEAL3}|sv|n|ah|Board 2|"
    assert [b.number for b in parse(text).boards] == [1, 2]


# --- vugraph --------------------------------------------------------------------------------

VUGRAPH = (
    "vg|Example Cup,Final Segment 1,I,1,1,Lions,12,Tigers,7.5|\r\n"
    "rs|7NS=,7NS-1|\r\n"
    "pn|Ann,Bob,Cid,Dee,Eve,Fay,Gus,Hal|pg||\r\n"
    f"qx|o1|st||md|3{SOUTH},{WEST},{NORTH},{EAST}|sv|o|mb|p|mb|p|mb|7N|mb|p|mb|p|mb|p|pg||\r\n"
    "nt|kibitzer: hello|pg||\r\n"
    f"qx|c1|st||md|3{SOUTH},{WEST},{NORTH},{EAST}|sv|o|mb|p|mb|p|mb|7N|mb|p|mb|p|mb|p|pg||\r\n"
    "pc|s2|pc|s6|pc|sJ|pc|sA|mc|12|pg||\r\n"
)


def test_vugraph_rooms_players_and_match_tags() -> None:
    result = parse(VUGRAPH)
    open_room, closed_room = result.boards
    assert [open_room.tag("Room"), closed_room.tag("Room")] == ["Open", "Closed"]
    assert open_room.tag("South") == "Ann" and closed_room.tag("South") == "Eve"
    assert open_room.tag("Event") == "Example Cup" and open_room.tag("Stage") == "Final Segment 1"
    assert open_room.tag("HomeTeam") == "Lions" and open_room.tag("VisitTeam") == "Tigers"
    assert open_room.tag("Scoring") == "IMP"
    # No play and no claim in the open room: the results line gives the result.
    assert open_room.result is not None and open_room.result.tricks == 13
    assert closed_room.result is not None and closed_room.result.tricks == 12
    header = [c.text for c in open_room.commentary if c.kind is CommentKind.ESCAPE]
    assert header[0].startswith("lin vg|Example Cup") and header[2].startswith("lin pn|")
    assert not any(c.text.startswith("lin vg") for c in closed_room.commentary)


def test_vugraph_commentary_after_the_auction() -> None:
    board = parse(VUGRAPH).boards[0]
    assert board.auction is not None
    last = board.auction.annotation(5)
    assert last is not None and [c.text for c in last.comments] == ["kibitzer: hello"]


def test_a_late_pn_waits_for_the_next_table() -> None:
    text = VUGRAPH.replace("nt|kibitzer: hello|pg||", "pn|Zed,Fay,Gus,Hal|")
    boards = parse(text).boards
    assert len(boards) == 2
    assert boards[1].tag("South") == "Zed"


def test_tourney_header_with_board_numbers_and_names() -> None:
    text = (
        "vg|Club Tourney,Bridge Base Online,P,1,2,,,,|rs|,,,|pw|A,B,C,D,,,,E|"
        "mp|1.5,,-2,,|bn|7,8|pg||"
        f"qx|o|st||md|{DEAL3}|sv|o|mb|p|mb|p|mb|p|mb|p|"
        f"qx|o|st||md|{DEAL3}|sv|o|mb|p|mb|p|mb|p|mb|p|"
    )
    boards = parse(text).boards
    assert [b.number for b in boards] == [7, 8]
    assert [b.tag("East") for b in boards] == ["D", "E"]
    assert [b.tag("South") for b in boards] == ["A", "A"]


# --- handviewer links --------------------------------------------------------------------------

LINK = (
    "https://www.bridgebase.com/tools/handviewer.html?lin=pn%7CSam%2CWendy%2CNora%2CEd%7Cst%7C%7C"
    "md%7C1SAK74HQ85DA3CKJ92%2CSQ962HK7DQJT86C73%2CSJ3HAJT96DK94CA84%2C%7Crh%7C%7Cah%7CBoard+7"
    "%7Csv%7Cb%7Cmb%7C1N%7Can%7C5%2B+hearts%7Cmb%7Cp%7C"
)


def test_link_is_percent_decoded_once_with_form_semantics() -> None:
    board = only_board(LINK)
    assert board.number == 7 and board.tag("South") == "Sam"
    assert board.auction is not None and board.auction.notes[0].text == "5+ hearts"


def test_file_of_links_gives_one_board_per_link() -> None:
    result = parse(LINK + "\n" + LINK.replace("Board+7", "Board+8") + "\n")
    assert [b.number for b in result.boards] == [7, 8]


def test_diagnostics_in_a_link_point_into_the_link() -> None:
    text = "see " + LINK.replace("mb%7C1N", "mb%7C1Q")
    result = parse(text)
    [problem] = [d for d in result.diagnostics if d.code == "LIN105"]
    assert problem.line == 1
    assert problem.column == text.index("1Q") + 1


def test_double_encoding_is_detected() -> None:
    text, _, twice = decode_link_value("pn%257CA%252CB", 0)
    assert twice and text == "pn|A,B"


# --- robustness -------------------------------------------------------------------------------


def test_garbage_between_boards_is_reported_and_kept() -> None:
    result = parse(HEAD + AUCTION + "\nthis is not lin\n" + HEAD + AUCTION)
    assert len(result.boards) == 2
    assert "LIN001" in codes(result)
    kept = [c.text for b in result.boards for c in _all_comments(b) if c.kind is CommentKind.STRAY]
    assert kept == ["this", "is", "not", "lin"]


def _all_comments(board: Board) -> list:  # type: ignore[type-arg]
    found = list(board.commentary)
    if board.auction is not None:
        found += board.auction.comments
        for _, annotation in board.auction.annotations:
            found += annotation.comments
    return found


def test_bad_call_is_kept_as_written() -> None:
    result = parse(HEAD + "mb|p|mb|p|mb|7Q|")
    board = result.boards[0]
    assert board.auction is not None and board.auction.calls[2] == Token("7Q")
    [problem] = [d for d in result.diagnostics if d.code == "LIN105"]
    assert (problem.line, problem.column) == (1, len(HEAD) + 14)


def test_positions_across_lines() -> None:
    result = parse(HEAD + "\n" + "mb|p|mb|p|mb|7N|mb|p|mb|p|mb|p|\npc|D2|pc|DZ|\n")
    [problem] = [d for d in result.diagnostics if d.code == "LIN107"]
    assert (problem.line, problem.column) == (3, 10)


def test_windows_1252_text_is_read_and_reported() -> None:
    data = ("pn|Moszczy\xf1sk,Bob,Cid,Dee|" + HEAD[len("pn|Ann,Bob,Cid,Dee|") :] + AUCTION).encode(
        "cp1252"
    )
    result = lin.parse(data)
    assert result.boards[0].tag("South") == "Moszczyñsk"
    assert [d.code for d in result.diagnostics] == ["SRC001"]


def test_big_input_is_read_in_chunks_with_pairs_cut_at_chunk_ends() -> None:
    line = HEAD + AUCTION + "pc|D2|pc|D6|mc|13|\n"
    boards = lin.parse(line * 30000).boards  # about 6 MB: several 1 MB chunks
    assert len(boards) == 30000
    assert all(b.result is not None and b.result.tricks == 13 for b in boards)


def test_link_with_the_board_given_as_parameters() -> None:
    link = (
        "https://www.bridgebase.com/tools/handviewer.html?bbo=y&n=SAKQJHAKQDAKQCAKQ"
        "&s=S2345H2345D2345C2&e=S6789H6789D6789C3&d=n&v=n&b=5&a=7NPPP&p=C3C2CJCA"
        "&nn=Nora&sn=Sam+Smith"
    )
    result = parse(link)
    assert [d.code for d in result.diagnostics] == []
    board = result.boards[0]
    assert board.number == 5 and board.dealer is Seat.NORTH
    assert board.vulnerability is Vulnerability.NS
    assert board.tag("South") == "Sam Smith" and board.tag("North") == "Nora"
    assert str(board.contract) == "7NT" and board.declarer is Seat.NORTH
    assert board.play is not None and board.play.tricks[0][Seat.EAST] == Card.parse("C3")
