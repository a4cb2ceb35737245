"""The LIN writer: BBO-style output, vugraph files for matches, losses reported, and round
trips LIN→PBN→LIN and PBN→LIN→PBN on generated boards (hypothesis)."""

from __future__ import annotations

import dataclasses
import io
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pbntool.dev.generate import random_board, random_boards
from pbntool.formats import lin, pbn
from pbntool.formats.lin import LinWriter, WriteOptions
from pbntool.model import Annotation, Board, Comment, CommentKind, Note, Tag
from pbntool.records import validate_record
from pbntool.tools.score.listing import score_board

from lin_views import lin_view, pbn_to_lin_view

SOUTH, WEST, NORTH = "SAKQHAKQDAKQCAKQJ", "S2345H2345D2345C2", "S6789H6789D6789C3"
MYHANDS = (
    f"pn|Ann,Bob,Cid,Dee|st||md|3{SOUTH},{WEST},{NORTH},|rh||ah|Board 1|sv|o|"
    "mb|p|mb|p|mb|1N!|an|15-17 |mb|p|mb|7N|mb|p|mb|p|mb|p|pg||pc|D2|pc|D6|pc|DJ|pc|DA|pg||"
    "nt|well played|mc|13|pg||"
)


def test_board_is_written_as_bbo_writes_hand_records() -> None:
    board = lin.parse(MYHANDS).boards[0]
    assert lin.dumps([board]) == (
        "pn|Ann,Bob,Cid,Dee|st||"
        "md|3SAKQHAKQDAKQCAKQJ,S5432H5432D5432C2,S9876H9876D9876C3,SJTHJTDJTCT987654|"
        "rh||ah|Board 1|sv|o|mb|p|mb|p|mb|1N!|an|15-17 |mb|p|mb|7N|mb|p|mb|p|mb|p|pg||"
        "pc|D2|pc|D6|pc|DJ|pc|DA|nt|well played|pg||mc|13|pg||\n"
    )


def test_three_hands_with_the_trailing_comma() -> None:
    board = lin.parse(MYHANDS).boards[0]
    text = lin.dumps([board], WriteOptions(three_hands=True))
    assert "md|3SAKQHAKQDAKQCAKQJ,S5432H5432D5432C2,S9876H9876D9876C3,|" in text


def test_hands_are_south_west_north_east_whatever_the_dealer() -> None:
    for board in random_boards(3, 8):
        text = lin.dumps([board])
        assert board.deal is not None
        found = re.search(r"md\|(\d)([^|]*)\|", text)
        assert found is not None
        digit = found.group(1)
        assert board.dealer is not None
        assert {"1": "S", "2": "W", "3": "N", "4": "E"}[digit] == board.dealer.letter
        back = lin.parse(text).boards[0]
        assert back.deal == board.deal


def test_values_never_hold_a_pipe_and_the_change_is_reported() -> None:
    board = lin.parse(MYHANDS).boards[0]
    assert board.auction is not None
    note = Note(1, "weak | strong")
    board = dataclasses.replace(
        board,
        tags=(*board.tags[:-1], Tag("South", "Ann | Al"), board.tags[-1]),
        auction=dataclasses.replace(board.auction, notes=(note,)),
    )
    out = io.StringIO()
    losses = LinWriter(out).write(board)
    pairs = re.findall(r"([a-z]{2})\|([^|]*)\|", out.getvalue())
    assert ("an", "weak / strong") in pairs
    assert [loss.code for loss in losses] == ["OUT016"]


def test_vugraph_file_is_written_back_with_its_header() -> None:
    text = (
        "vg|Example Cup,Final Segment 1,I,1,1,Lions,12,Tigers,7.5|\n"
        "rs|7NS=,7NS-1|\n"
        "pn|Ann,Bob,Cid,Dee,Eve,Fay,Gus,Hal|pg||\n"
        f"qx|o1|st||md|3{SOUTH},{WEST},{NORTH},|sv|o|mb|p|mb|p|mb|7N|mb|p|mb|p|mb|p|pg||\n"
        f"qx|c1|st||md|3{SOUTH},{WEST},{NORTH},|sv|o|mb|p|mb|p|mb|7N|mb|p|mb|p|mb|p|pg||"
        "pc|S2|pc|S6|pc|SJ|pc|SA|mc|12|pg||\n"
    )
    boards = lin.parse(text).boards
    written = lin.dumps(boards)
    assert written.startswith(
        "vg|Example Cup,Final Segment 1,I,1,1,Lions,12,Tigers,7.5|\nrs|7NS=,7NS-1|\n"
        "pn|Ann,Bob,Cid,Dee,Eve,Fay,Gus,Hal|pg||\nqx|o1|st||md|"
    )
    assert "qx|c1|st||" in written and "pn|Eve" not in written.split("pg||\n", 1)[1]
    assert [lin_view(b) for b in lin.parse(written).boards] == [lin_view(b) for b in boards]


def test_a_pbn_team_match_becomes_a_vugraph_file() -> None:
    boards = []
    for board in random_boards(11, 4):
        room = "Open" if board.number in (1, 3) else "Closed"
        number = 1 if board.number in (1, 2) else 2
        tags = [t for t in board.tags if t.name not in ("Board", "Event")]
        tags += [Tag("Board", str(number)), Tag("Room", room), Tag("Event", "Cup"),
                 Tag("HomeTeam", "Lions"), Tag("VisitTeam", "Tigers")]  # fmt: skip
        boards.append(dataclasses.replace(board, number=number, tags=tuple(tags)))
    text = lin.dumps(boards)
    assert text.startswith("vg|Cup,,")
    assert ",Lions,,Tigers,|" in text.splitlines()[0]
    back = lin.parse(text).boards
    assert [(b.number, b.tag("Room")) for b in back] == [
        (1, "Open"), (1, "Closed"), (2, "Open"), (2, "Closed")]  # fmt: skip
    assert [pbn_to_lin_view(b) for b in back] == [pbn_to_lin_view(b) for b in boards]
    assert all(b.tag("HomeTeam") == "Lions" for b in back)


def _match(seed: int, stage: str, event: str | None = "Cup", count: int = 4) -> list[Board]:
    """A team match of ``count`` tables (two boards, open and closed rooms)."""
    boards = []
    for board in random_boards(seed, count):
        assert board.number is not None
        room = "Open" if board.number % 2 else "Closed"
        number = (board.number + 1) // 2
        tags = [t for t in board.tags if t.name not in ("Board", "Event")]
        tags += [Tag("Board", str(number)), Tag("Room", room)]
        if event is not None:
            tags += [Tag("Event", event), Tag("Stage", stage), Tag("HomeTeam", "Lions"),
                     Tag("VisitTeam", "Tigers")]  # fmt: skip
        boards.append(dataclasses.replace(board, number=number, tags=tuple(tags)))
    return boards


def _written(*inputs: tuple[str, list[Board]]) -> str:
    out = io.StringIO()
    writer = LinWriter(out)
    for name, boards in inputs:
        for board in boards:
            writer.write(board, name)
    writer.close()
    return out.getvalue()


def _new_findings(text: str, boards: list[Board]) -> list[str]:
    """Findings on the LIN read back that the boards written did not have."""
    from pbntool.rules import check_board

    before = {d.code for board in boards for d in check_board(board)}
    records = lin.iter_records(io.BytesIO(text.encode()), "x.lin")
    return [f"{d.code} {d.message}" for r in records for d in validate_record(r)
            if d.code not in before]  # fmt: skip


def test_several_matches_are_one_vugraph_match_each() -> None:
    """Two segments of one match (same event and teams, the same board numbers), then the
    same match from another input: three headers, each table under its own (issue 12)."""
    first, second = _match(21, "Segment 1"), _match(22, "Segment 2")
    text = _written(("a.pbn", first), ("a.pbn", second), ("b.pbn", first))
    assert [line[:17] for line in text.splitlines() if line.startswith("vg|")] == [
        "vg|Cup,Segment 1,", "vg|Cup,Segment 2,", "vg|Cup,Segment 1,"]  # fmt: skip
    back = lin.parse(text).boards
    assert [b.tag("Stage") for b in back] == ["Segment 1"] * 4 + ["Segment 2"] * 4 + [
        "Segment 1"] * 4  # fmt: skip
    assert [pbn_to_lin_view(b) for b in back] == [
        pbn_to_lin_view(b) for b in (*first, *second, *first)]  # fmt: skip
    assert _new_findings(text, first + second) == []  # the results lines agree with the tables


def test_a_room_played_twice_starts_another_match() -> None:
    boards = _match(23, "Final")
    text = _written(("a.pbn", boards + boards))
    assert text.count("vg|") == 2
    assert _new_findings(text, boards) == []


def test_rooms_with_nothing_for_a_header_are_written_without_one() -> None:
    """Rooms (qx|o1|) with no event, stage or teams, as Big Deal writes them: no vugraph
    header is invented, and the file reads back the same."""
    boards = _match(24, "", event=None)
    text = lin.dumps(boards)
    assert "vg|" not in text and text.startswith("qx|o1|")
    back = lin.parse(text).boards
    assert [(b.number, b.tag("Room")) for b in back] == [
        (b.number, b.tag("Room")) for b in boards]  # fmt: skip
    assert lin.dumps(back) == text


def test_rooms_of_no_match_after_a_match_get_a_header_of_their_own() -> None:
    """Once a header is written LIN's reader puts every later table in that match: the rooms
    that follow get an (empty) header so that they do not take the match's event."""
    match, rooms = _match(25, "Final"), _match(26, "", event=None)
    text = _written(("a.pbn", match), ("b.pbn", rooms))
    assert text.count("vg|") == 2
    back = lin.parse(text).boards
    assert all(b.tag("HomeTeam") == "Lions" for b in back[:4])
    assert all(b.tag("HomeTeam") in (None, "") and b.tag("Stage") in (None, "") for b in back[4:])
    assert _new_findings(text, match + rooms) == []


def test_boards_without_room_after_a_match_stay_separate_boards() -> None:
    boards = list(random_boards(5, 3))
    first = dataclasses.replace(boards[0], tags=(*boards[0].tags, Tag("Room", "Open")))
    back = lin.parse(lin.dumps([first, boards[1], boards[2]])).boards
    assert [b.number for b in back] == [1, 2, 3]


def test_losses_are_reported_not_silent() -> None:
    board = next(random_boards(2, 1))
    out = io.StringIO()
    losses = LinWriter(out).write(board)
    [tags] = [loss for loss in losses if loss.code == "OUT010"]
    for name in ("Event", "Site", "Date", "Scoring", "Score"):
        assert name in tags.message


def test_call_annotations_lin_cannot_carry() -> None:
    board = next(random_boards(4, 1))
    assert board.auction is not None
    auction = dataclasses.replace(board.auction, annotations=((0, Annotation(nags=(3, 15))),))
    out = io.StringIO()
    losses = LinWriter(out).write(dataclasses.replace(board, auction=auction))
    assert any(loss.code == "OUT012" and "$3" in loss.message for loss in losses)
    assert "!|" in out.getvalue().split("mb|", 2)[1] + "|"


# --- round trips on generated boards ------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=1, max_value=32))
def test_pbn_to_lin_to_pbn_keeps_what_lin_carries(seed: int, number: int) -> None:
    board = random_board(random.Random(seed), number)
    back = lin.parse(lin.dumps([board])).boards
    assert [pbn_to_lin_view(b) for b in back] == [pbn_to_lin_view(board)]
    again = pbn.parse(pbn.dumps(back)).boards
    assert [pbn_to_lin_view(b) for b in again] == [pbn_to_lin_view(board)]


_TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="|{}\\"),
    min_size=1,
    max_size=20,
).filter(lambda text: text.strip() == text and "  " not in text)


@st.composite
def decorated_boards(draw: st.DrawFn) -> Board:
    """A legal board with what LIN adds: alerts, explanations, commentary and unknown
    commands after calls and cards, and player names in any script."""
    board = random_board(random.Random(draw(st.integers(0, 2**32 - 1))), draw(st.integers(1, 64)))
    assert board.auction is not None
    annotations = []
    notes = []
    for index in range(len(board.auction.calls)):
        alert = draw(st.booleans())
        explanation = draw(st.none() | _TEXT)
        comments = tuple(
            Comment(text, CommentKind.BRACE)
            if kind
            else Comment(f"lin zz|{text}|", CommentKind.ESCAPE)
            for kind, text in draw(st.lists(st.tuples(st.booleans(), _TEXT), max_size=2))
        )
        note = None
        if explanation is not None:
            notes.append(Note(len(notes) + 1, explanation))
            note = len(notes)
        if alert or note or comments:
            annotations.append(
                (index, Annotation(note=note, nags=(15,) if alert else (), comments=comments))
            )
    auction = dataclasses.replace(board.auction, annotations=tuple(annotations), notes=tuple(notes))
    play = board.play
    if play is not None and play.tricks and draw(st.booleans()):
        seat = play.first
        comment = Comment(draw(_TEXT), CommentKind.BRACE)
        play = dataclasses.replace(
            play, annotations=(((0, seat), Annotation(comments=(comment,))),)
        )
    south = draw(_TEXT.filter(lambda text: "," not in text))
    tags = tuple(Tag("South", south) if t.name == "South" else t for t in board.tags)
    return dataclasses.replace(board, auction=auction, play=play, tags=tags)


@settings(max_examples=60, deadline=None)
@given(st.lists(decorated_boards(), min_size=1, max_size=3))
def test_lin_to_pbn_to_lin_keeps_everything(boards: list[Board]) -> None:
    text = lin.dumps(boards)
    first = lin.parse(text).boards
    via_pbn = pbn.parse(pbn.dumps(first)).boards
    again = lin.parse(lin.dumps(via_pbn)).boards
    assert [lin_view(b) for b in again] == [lin_view(b) for b in first]


def test_generated_lin_validates_cleanly_and_scores_like_pbn() -> None:
    boards = list(random_boards(2026, 400))
    text = lin.dumps(boards)
    records = list(lin.iter_records(io.BytesIO(text.encode()), "generated.lin"))
    assert len(records) == len(boards)
    errors = [d for r in records for d in validate_record(r) if d.severity.label == "error"]
    assert errors == []
    for record, board in zip(records, boards, strict=True):
        assert record.board is not None
        lin_line = score_board(record.board, "x")
        pbn_line = score_board(board, "x")
        assert (lin_line.contract, lin_line.declarer, lin_line.result, lin_line.score_ns) == (
            pbn_line.contract, pbn_line.declarer, pbn_line.result, pbn_line.score_ns)  # fmt: skip
