"""Where the Laws checks' findings point inside a model object.

The checks name the part of a board they are about with a model path (``("call", 5)``,
``("card", trick, seat)``, ``("tag", "Contract")`` ...; see ``pbntool.diagnostics.Path``).
In a JSON record or an XML board the same part has a place in the model object: the call in
``auction.calls``, the card in ``play.tricks``, the typed ``contract`` rather than the tag
it was read from.  ``model_path`` gives that place, for the readers' locators.
"""

from __future__ import annotations

from pbntool.diagnostics import Path
from pbntool.formats.interchange.fromdict import JsonPath
from pbntool.model import Board, Seat

__all__ = ["TYPED_TAGS", "model_path"]

TYPED_TAGS = {
    "Board": "number",
    "Dealer": "dealer",
    "Vulnerable": "vulnerability",
    "Deal": "deal",
    "Declarer": "declarer",
    "Contract": "contract",
    "Result": "result",
    "Score": "score",
    "Auction": "auction",
    "Play": "play",
}
"""Tags whose value the model holds as a typed field: a finding about one points there."""


def model_path(path: Path | None, board: Board | None) -> JsonPath | None:
    """The place in the model object of ``board`` that a model path points at, if any."""
    if not path:
        return None
    kind, rest = path[0], path[1:]
    if kind == "call":
        return ("auction", "calls", int(rest[0]))
    if kind == "card":
        return ("play", "tricks", int(rest[0]), Seat(rest[1]).letter)
    if kind == "deal":
        return ("deal", Seat(rest[0]).letter)
    if kind == "section":
        return (str(rest[0]).lower(),)
    if board is None:
        return None
    if kind in ("tag", "tag_value"):
        return _tag(board, str(rest[0]))
    if kind == "note":
        return _note(board, str(rest[0]).lower(), int(rest[1]))
    if kind == "table":
        return _table(board, str(rest[0]))
    return None


def _tag(board: Board, name: str) -> JsonPath | None:
    typed = TYPED_TAGS.get(name)
    if typed is not None and getattr(board, typed) is not None:
        return (typed,)
    for index, tag in enumerate(board.tags):
        if tag.name == name and not tag.duplicate:
            return ("tags", index)
    return None


def _note(board: Board, section: str, index: int) -> JsonPath | None:
    owner = board.auction if section == "auction" else board.play if section == "play" else None
    for position, note in enumerate(owner.notes if owner is not None else ()):
        if note.index == index:
            return (section, "notes", position)
    return None


def _table(board: Board, name: str) -> JsonPath | None:
    for position, table in enumerate(board.tables):
        if table.name == name:
            return ("tables", position)
    return None
