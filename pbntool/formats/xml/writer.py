"""Boards as XML elements of the pbntool vocabulary (``docs/xml.md``, ``schemas/boards.xsd``).

The element of one board is built with lxml and serialised on its own, so that a document of
any size is written board by board.  The elements are built without a namespace and written
inside a root element that declares the vocabulary's namespace as the default one: in the
document every element is in that namespace.

Text that XML 1.0 cannot hold (control characters, unpaired surrogates, U+FFFE, U+FFFF) is
written escaped: a backslash is doubled and each such character becomes ``\\uXXXX``; the
element's ``escaped`` attribute lists the attributes written that way (``text`` for its
content).  Everything else is written as it is.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

from lxml import etree

from pbntool.formats.interchange.vocabulary import (
    CALL_TEXT,
    CARD_TEXT,
    DOUBLING_TEXT,
    END_TEXT,
    SCHEMA_ID,
)
from pbntool.model import (
    Annotation,
    Auction,
    Board,
    Comment,
    Note,
    Play,
    Seat,
    Table,
    Tag,
    Token,
)

__all__ = ["NAMESPACE", "board_element", "closing", "document_start", "escape_text"]

NAMESPACE = "urn:x-pbntool:boards:1"

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def document_start() -> str:
    """The XML declaration and the opening of the root element."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<boards xmlns="{NAMESPACE}" version="{SCHEMA_ID}">\n'
    )


def closing() -> str:
    """The end of the root element."""
    return "</boards>\n"


def escape_text(text: str) -> str:
    """Text in the escaped form: ``\\`` doubled, characters XML cannot hold as ``\\uXXXX``."""
    return _NOT_XML.sub(lambda match: f"\\u{ord(match.group()):04x}", text.replace("\\", "\\\\"))


class _Element:
    """Builds one element, escaping the text XML cannot hold."""

    __slots__ = ("element", "escaped")

    def __init__(self, parent: etree._Element | None, name: str) -> None:
        self.element = etree.Element(name) if parent is None else etree.SubElement(parent, name)
        self.escaped: list[str] = []

    def set(self, name: str, value: str | None) -> _Element:
        if value is not None:
            if _NOT_XML.search(value) is not None:
                value = escape_text(value)
                self.escaped.append(name)
            self.element.set(name, value)
        return self

    def text(self, value: str) -> _Element:
        if value:
            if _NOT_XML.search(value) is not None:
                value = escape_text(value)
                self.escaped.append("text")
            self.element.text = value
        return self

    def done(self) -> etree._Element:
        if self.escaped:
            self.element.set("escaped", " ".join(self.escaped))
        return self.element


def _flag(value: bool) -> str | None:
    return "true" if value else None


def _number(value: int | None) -> str | None:
    return None if value is None else str(value)


def board_element(board: Board, file: str | None = None) -> etree._Element:
    """The ``<board>`` element of one board (``file``: where it was read)."""
    root = _Element(None, "board")
    root.set("file", file)
    root.set("number", _number(board.number))
    root.set("dealer", None if board.dealer is None else board.dealer.letter)
    vulnerability = board.vulnerability
    root.set("vulnerability", None if vulnerability is None else vulnerability.value)
    root.set("declarer", None if board.declarer is None else board.declarer.letter)
    root.set("declarer-irregular", _flag(board.declarer_irregular))
    element = root.done()
    _comments(element, board.commentary)
    for tag in board.tags:
        _tag(element, tag)
    if board.deal is not None:
        deal = etree.SubElement(element, "deal")
        for seat, hand in zip(Seat, board.deal.hands, strict=True):
            if hand is not None:
                etree.SubElement(deal, "hand", seat=seat.letter).text = str(hand) or None
    _typed(element, board)
    if board.auction is not None:
        _auction(element, board.auction)
    if board.play is not None:
        _play(element, board.play)
    for table in board.tables:
        _table(element, table)
    return element


def _typed(element: etree._Element, board: Board) -> None:
    contract = board.contract
    if contract is not None:
        node = etree.SubElement(element, "contract", doubling=DOUBLING_TEXT[contract.doubling])
        if contract.level is not None:
            node.set("level", str(contract.level))
        if contract.strain is not None:
            node.set("strain", contract.strain.letter)
    if board.result is not None:
        node = etree.SubElement(element, "result", tricks=str(board.result.tricks))
        if board.result.irregular:
            node.set("irregular", "true")
    if board.score is not None:
        node = etree.SubElement(element, "score", points=str(board.score.points))
        if board.score.side is not None:
            node.set("side", board.score.side.letters)


def _comments(parent: etree._Element, comments: Iterable[Comment]) -> None:
    for comment in comments:
        _Element(parent, "comment").set("kind", comment.kind.value).text(comment.text).done()


def _tag(parent: etree._Element, tag: Tag) -> None:
    node = _Element(parent, "tag").set("name", tag.name).set("value", tag.value)
    node.set("written", tag.written)
    node.set("inherited", _flag(tag.inherited)).set("duplicate", _flag(tag.duplicate))
    _comments(node.done(), tag.comments)


def _annotate(node: _Element, annotation: Annotation) -> etree._Element:
    node.set("note", _number(annotation.note))
    if annotation.nags:
        node.set("nags", " ".join(str(nag) for nag in annotation.nags))
    node.set("irregularity", annotation.irregularity)
    element = node.done()
    _comments(element, annotation.comments)
    return element


def _notes(parent: etree._Element, notes: Iterable[Note]) -> None:
    for note in notes:
        node = _Element(parent, "note").set("index", str(note.index)).set("text", note.text)
        _comments(node.done(), note.comments)


def _nestable(annotations: Sequence[tuple[object, Annotation]], order: Sequence[object]) -> bool:
    """Whether the annotations can be written inside their calls or cards: one per place,
    none empty, each on a place that exists, in document order (what a reader rebuilds)."""
    rank = {place: index for index, place in enumerate(order)}
    ranks = [rank.get(place, -1) for place, _ in annotations]
    return (
        all(r >= 0 for r in ranks)
        and all(a < b for a, b in itertools.pairwise(ranks))
        and all(annotation != Annotation() for _, annotation in annotations)
    )


def _auction(parent: etree._Element, auction: Auction) -> None:
    element = etree.SubElement(parent, "auction", first=auction.first.letter)
    element.set("end", END_TEXT[auction.end])
    _comments(element, auction.comments)
    nested = _nestable(auction.annotations, range(len(auction.calls)))
    annotations = dict(auction.annotations) if nested else {}
    for index, call in enumerate(auction.calls):
        node = _Element(element, "call")
        if isinstance(call, Token):
            node.set("token", call.text)
        else:
            node.set("value", CALL_TEXT[call])
        annotation = annotations.get(index)
        if annotation is None:
            node.done()
        else:
            _annotate(node, annotation)
    if not nested:
        for index, annotation in auction.annotations:
            _annotate(_Element(element, "annotation").set("call", str(index)), annotation)
    _notes(element, auction.notes)


def _play(parent: etree._Element, play: Play) -> None:
    element = etree.SubElement(parent, "play", first=play.first.letter)
    element.set("end", END_TEXT[play.end])
    _comments(element, play.comments)
    columns = [play.first.next(step) for step in range(4)]
    order = [(trick, seat) for trick in range(len(play.tricks)) for seat in columns]
    nested = _nestable(play.annotations, order)
    annotations = dict(play.annotations) if nested else {}
    for number, trick in enumerate(play.tricks):
        trick_element = etree.SubElement(element, "trick")
        for seat in columns:
            node = _Element(trick_element, "card").set("seat", seat.letter)
            slot = trick[seat]
            if isinstance(slot, Token):
                node.set("token", slot.text)
            elif slot is not None:
                node.set("value", CARD_TEXT[slot])
            annotation = annotations.get((number, seat))
            if annotation is None:
                node.done()
            else:
                _annotate(node, annotation)
    if not nested:
        for (number, seat), annotation in play.annotations:
            node = _Element(element, "annotation").set("trick", str(number))
            _annotate(node.set("seat", Seat(seat).letter), annotation)
    _notes(element, play.notes)


def _table(parent: etree._Element, table: Table) -> None:
    element = _Element(parent, "table").set("name", table.name).set("header", table.header).done()
    for column in table.columns:
        node = _Element(element, "column").set("name", column.name)
        node.set("order", column.order or None).set("width", _number(column.width))
        node.set("align", column.align or None).done()
    for row in table.rows:
        _cells(etree.SubElement(element, "row"), row)
    if table.leftover:
        _cells(etree.SubElement(element, "leftover"), table.leftover)
    _comments(element, table.comments)


def _cells(parent: etree._Element, cells: Iterable[str]) -> None:
    for cell in cells:
        _Element(parent, "cell").text(cell).done()
