"""JSON and XML carry the whole model: Board -> JSON/XML -> Board gives an equal Board.

1. Any board the model can hold (hypothesis builds them field by field, with text of any
   script and control characters, tokens, annotations in any order and on places that do not
   exist, empty annotations, tables, odd tags) survives JSON and XML with ``==`` equality,
   and the JSON line validates against the JSON Schema, the XML document against the XSD.
2. PBN -> JSON -> PBN and PBN -> XML -> PBN lose nothing: the board read back from JSON or
   XML equals the board read from PBN, and writes byte-identical canonical PBN; with the
   generated legal boards of ``pbntool.dev.generate`` and the model-built boards of
   ``test_roundtrip`` (comments, notes, NAGs, tables, odd tags).
3. The same on every PBN file of the corpus (JSON in the default run, XML marked slow).
"""

from __future__ import annotations

import functools
import io
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path

import jsonschema
import pytest
from conftest import CORPUS
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from lxml import etree
from test_roundtrip import boards as pbn_boards

from pbntool.dev.generate import random_board
from pbntool.formats import pbn
from pbntool.formats.json import dumps_line
from pbntool.formats.json import iter_records as json_records
from pbntool.formats.json.reader import read_record
from pbntool.formats.pbn.writer import dumps
from pbntool.formats.xml import dumps as xml_dumps
from pbntool.formats.xml import iter_records as xml_records
from pbntool.model import (
    ALL_CARDS,
    Action,
    Annotation,
    Auction,
    Bid,
    Board,
    Call,
    Comment,
    CommentKind,
    Contract,
    Deal,
    Doubling,
    Hand,
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
from pbntool.records import Record
from pbntool.text.schemas import XML_SCHEMA, json_schema, schema_bytes

JSON_VALIDATOR = jsonschema.Draft202012Validator(json_schema())
XSD = etree.XMLSchema(etree.fromstring(schema_bytes(XML_SCHEMA)))
MODEL = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- strategies: anything the model can hold -----------------------------------------------------

# Any character but a surrogate (no character at all: no encoding can write it), control
# characters included (XML writes them escaped).
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
SMALL = st.integers(-3, 40)
BIDS = [Bid.of(level, strain) for level in range(1, 8) for strain in Strain]


def comments() -> st.SearchStrategy[tuple[Comment, ...]]:
    comment = st.builds(Comment, TEXT, st.sampled_from(CommentKind))
    return st.lists(comment, max_size=2).map(tuple)


# Note references, NAGs, positions and widths are never negative (no reader makes one, PBN
# cannot write one, and the JSON and XML readers refuse one); note indices may be anything.
ANNOTATIONS = st.builds(
    Annotation,
    st.none() | st.integers(0, 40),
    st.lists(st.integers(0, 300), max_size=3).map(tuple),
    st.none() | TEXT,
    comments(),
)
NOTES = st.lists(st.builds(Note, SMALL, TEXT, comments()), max_size=2).map(tuple)
TOKENS = st.builds(Token, TEXT)
CALLS: st.SearchStrategy[Call | Token] = st.sampled_from([*BIDS, *Action]) | TOKENS
SLOTS: st.SearchStrategy[Slot] = st.none() | st.sampled_from(ALL_CARDS) | TOKENS
HANDS = st.none() | st.sets(st.sampled_from(ALL_CARDS), max_size=13).map(Hand)


@st.composite
def auctions(draw: st.DrawFn) -> Auction:
    calls = tuple(draw(st.lists(CALLS, max_size=8)))
    annotations = draw(st.lists(st.tuples(st.integers(0, 10), ANNOTATIONS), max_size=3))
    return Auction(
        draw(st.sampled_from(Seat)),
        calls,
        draw(st.sampled_from(SectionEnd)),
        tuple(annotations),
        draw(NOTES),
        draw(comments()),
    )


@st.composite
def plays(draw: st.DrawFn) -> Play:
    trick = st.tuples(SLOTS, SLOTS, SLOTS, SLOTS)
    places = st.tuples(st.integers(0, 4), st.sampled_from(Seat))
    annotations = draw(st.lists(st.tuples(places, ANNOTATIONS), max_size=3))
    return Play(
        draw(st.sampled_from(Seat)),
        tuple(draw(st.lists(trick, max_size=4))),
        draw(st.sampled_from(SectionEnd)),
        tuple(annotations),
        draw(NOTES),
        draw(comments()),
    )


TABLES = st.builds(
    Table,
    TEXT,
    TEXT,
    st.lists(
        st.builds(TableColumn, TEXT, TEXT, st.none() | st.integers(0, 300), TEXT), max_size=2
    ).map(tuple),
    st.lists(st.lists(TEXT, max_size=3).map(tuple), max_size=2).map(tuple),
    st.lists(TEXT, max_size=2).map(tuple),
    comments(),
)
TAGS = st.builds(Tag, TEXT, TEXT, comments(), st.none() | TEXT, st.booleans(), st.booleans())
CONTRACTS = st.none() | st.builds(
    Contract, st.none() | st.integers(0, 7), st.none() | st.sampled_from(Strain),
    st.sampled_from(Doubling),
)  # fmt: skip


@st.composite
def model_boards(draw: st.DrawFn) -> Board:
    deal = draw(st.none() | st.tuples(HANDS, HANDS, HANDS, HANDS).map(Deal))
    return Board(
        tags=tuple(draw(st.lists(TAGS, max_size=4))),
        number=draw(st.none() | st.integers(-5, 10**30)),
        dealer=draw(st.none() | st.sampled_from(Seat)),
        vulnerability=draw(st.none() | st.sampled_from(Vulnerability)),
        deal=deal,
        auction=draw(st.none() | auctions()),
        play=draw(st.none() | plays()),
        contract=draw(CONTRACTS),
        declarer=draw(st.none() | st.sampled_from(Seat)),
        declarer_irregular=draw(st.booleans()),
        result=draw(st.none() | st.builds(Result, st.integers(-2, 20), st.booleans())),
        score=draw(
            st.none()
            | st.builds(Score, st.integers(-(10**6), 10**6), st.none() | st.sampled_from(Side))
        ),
        commentary=draw(comments()),
        tables=tuple(draw(st.lists(TABLES, max_size=2))),
    )


# --- helpers -------------------------------------------------------------------------------------


def through_json(
    boards: Sequence[Board], validate: int | None = None
) -> tuple[list[Board], list[str]]:
    """Boards written as JSON Lines and read back, with every finding of the reader; the
    first ``validate`` lines (all by default) are checked against the JSON Schema."""
    text = "".join(dumps_line(board, "source.pbn") + "\n" for board in boards)
    lines = text.split("\n")[:-1]  # not splitlines(): U+0085 and U+2028 are text
    for line in lines[:validate]:
        errors = [error.message for error in JSON_VALIDATOR.iter_errors(json.loads(line))]
        assert errors == [], errors
    records = list(json_records(io.BytesIO(text.encode("utf-8")), "boards.jsonl"))
    return _boards_and_findings(records)


def through_xml(boards: Sequence[Board]) -> tuple[list[Board], list[str]]:
    """Boards written as an XML document and read back, with every finding of the reader;
    the document is checked against the XSD."""
    data = xml_dumps(boards, "source.pbn").encode("utf-8")
    document = etree.fromstring(data)
    assert XSD.validate(document), XSD.error_log
    records = list(xml_records(io.BytesIO(data), "boards.xml"))
    return _boards_and_findings(records)


def _boards_and_findings(records: Sequence[Record]) -> tuple[list[Board], list[str]]:
    boards = [r.board for r in records if r.board is not None]
    found = [str(d) for r in records for d in r.diagnostics]
    return boards, found


CARRIERS = [pytest.param(through_json, id="json"), pytest.param(through_xml, id="xml")]


# --- 1. anything the model holds -----------------------------------------------------------------


@pytest.mark.parametrize("carry", CARRIERS)
@MODEL
@given(board=model_boards())
def test_any_board_survives_exactly(carry: object, board: Board) -> None:
    back, found = carry([board])  # type: ignore[operator]
    assert found == []
    assert back == [board]


def test_the_record_model_alone_rebuilds_the_board() -> None:
    board = random_board(random.Random(3), 7)
    record = json.loads(dumps_line(board))
    summary_only = {key: value for key, value in record.items() if key != "model"}
    assert read_record(record) == (board, [])
    rebuilt, found = read_record(summary_only)  # read as another program's record
    assert [d.code for d in found] == ["JSN011"]
    assert rebuilt is not None and rebuilt.deal == board.deal


@pytest.mark.parametrize("carry", CARRIERS)
def test_annotations_out_of_place_and_order_survive(carry: object) -> None:
    auction = Auction(
        Seat.NORTH,
        (Bid.of(1, Strain.CLUBS), Action.PASS),
        annotations=((1, Annotation(note=2)), (0, Annotation(nags=(1,))), (7, Annotation())),
    )
    play = Play(
        Seat.EAST,
        ((None, ALL_CARDS[0], None, None),),
        annotations=(
            ((0, Seat.EAST), Annotation(irregularity="R")),
            ((3, Seat.WEST), Annotation()),
        ),
    )
    board = Board(auction=auction, play=play)
    assert carry([board]) == ([board], [])  # type: ignore[operator]


@pytest.mark.parametrize("carry", CARRIERS)
def test_unpaired_surrogates_are_not_text_and_become_replacement_characters(carry: object) -> None:
    board = Board(tags=(Tag("Event", "a\ud800b"),))
    back, found = carry([board])  # type: ignore[operator]
    assert back[0].tags == (Tag("Event", "a\ufffdb"),)
    assert len(found) == 1 and ("JSN010" in found[0] or "XML007" in found[0])


# --- 2. PBN -> JSON/XML -> PBN -------------------------------------------------------------------


def assert_pbn_round_trip(text: str, carry: object) -> None:
    read = pbn.parse(text, "source.pbn").boards
    back, found = carry(read)  # type: ignore[operator]
    assert found == []
    assert back == list(read)
    assert dumps(back) == dumps(read)


@pytest.mark.parametrize("carry", CARRIERS)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 4), claims=st.booleans())
def test_generated_pbn_round_trip(carry: object, seed: int, count: int, claims: bool) -> None:
    rng = random.Random(seed)
    probability = 0.5 if claims else 0.0
    boards = [random_board(rng, n, claim_probability=probability) for n in range(1, count + 1)]
    assert_pbn_round_trip(dumps(boards), carry)


@pytest.mark.parametrize("carry", CARRIERS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(built=st.lists(pbn_boards(), min_size=1, max_size=3))
def test_built_pbn_round_trip(carry: object, built: list[Board]) -> None:
    text = dumps(built)
    note(text)
    assert_pbn_round_trip(text, carry)


# --- 3. the corpus -------------------------------------------------------------------------------

SCHEMA_SAMPLE = 3
"""Records of each corpus file checked against the JSON Schema (the Python validator takes
about 10 ms a record: all 28,000 would take five minutes; fixtures and generated boards are
all checked)."""


@functools.cache
def corpus_boards() -> tuple[tuple[Path, tuple[Board, ...]], ...]:
    """Every PBN file of the corpus with its boards (read once for both tests)."""
    files = sorted(path for path in CORPUS.rglob("*") if path.suffix.lower() == ".pbn")
    return tuple(
        (path, tuple(r.board for r in pbn.read_file(path, str(path)) if r.board is not None))
        for path in files
    )


def _corpus_round_trip(carry: Callable[[Sequence[Board]], tuple[list[Board], list[str]]]) -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    failures = []
    total = 0
    for path, boards in corpus_boards():
        total += len(boards)
        back, found = carry(boards)
        if found or back != list(boards):  # equal boards: dumps(back) == dumps(boards)
            failures.append(f"{path}: {found[:2]}")
    assert failures == []
    assert total > 20_000


@pytest.mark.corpus
def test_every_corpus_board_survives_json() -> None:
    _corpus_round_trip(lambda boards: through_json(boards, SCHEMA_SAMPLE))


@pytest.mark.corpus
@pytest.mark.slow
def test_every_corpus_board_survives_xml() -> None:
    _corpus_round_trip(through_xml)
