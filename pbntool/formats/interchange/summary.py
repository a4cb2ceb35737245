"""A JSON record without a ``model``: the board rebuilt from its summary keys.

Records written by pbntool carry the whole board in ``model``; the other keys (``board``,
``dealer``, ``deal``, ``auction``, ``play``, ``tags`` ...) summarise it.  Other programs
write records of the summary keys only.  Such a record is read by writing what it says as
one PBN game and reading that with the PBN reader: every value is checked exactly as in a PBN
file, and each finding points at the key of the record it came from.

The summary keys win over the ``tags`` object when both give a tag.  ``play`` lists the cards
in played order; the seat of each card follows from the opening leader (declarer's left-hand
opponent, or the ``Play`` tag) and the winners of the tricks, which need the contract.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from pbntool.diagnostics import JSN003, JSN004, JSN006, JSN011, Diagnostic
from pbntool.formats.interchange.problems import JsonPath, describe
from pbntool.formats.pbn.values import decode_contract
from pbntool.model import Board, Card, Seat, Suit
from pbntool.rules.play import trick_winner, trump_of

__all__ = ["board_from_summary"]

SUMMARY_TAGS = (
    ("board", "Board"),
    ("dealer", "Dealer"),
    ("vulnerable", "Vulnerable"),
    ("deal", "Deal"),
    ("declarer", "Declarer"),
    ("contract", "Contract"),
    ("result", "Result"),
)
"""Summary keys that are tag values, in the order a PBN game lists them."""

_TAG_NAME = re.compile(r"[A-Za-z0-9_]{1,255}")
_TOKEN = re.compile(r'[^\s\[\]{};"%\\]+')
"""What a call or a card may be made of: no space, bracket, brace, semicolon, quote, percent."""


@dataclass
class _Game:
    """The PBN game being written, and the record key each of its lines came from."""

    lines: list[str] = field(default_factory=list)
    origins: list[JsonPath] = field(default_factory=list)
    found: list[Diagnostic] = field(default_factory=list)

    def add(self, line: str, origin: JsonPath) -> None:
        self.lines.append(line)
        self.origins.append(origin)

    def origin(self, line: int | None) -> JsonPath:
        if line is None or not 1 <= line <= len(self.origins):
            return ("json",)
        return self.origins[line - 1]


def board_from_summary(value: Mapping[str, object]) -> tuple[Board | None, list[Diagnostic]]:
    """The board a model-less record describes, with the findings (JSON paths, not placed)."""
    game = _Game()
    tags = _tags(value, game)
    auction, play = value.get("auction"), value.get("play")
    if not tags and not auction and not play:
        game.found.append(
            JSN006.at(
                ("json",),
                where="the record",
                key="model and no summary keys (deal, auction, tags ...)",
                consequence="no board is read",
            )
        )
        return None, game.found
    game.found.append(JSN011.at(("json",)))
    for name, (text, origin) in tags.items():
        if name not in ("Auction", "Play"):
            game.add(f'[{name} "{_escaped(text)}"]', origin)
    _auction(value, tags, game)
    _play(value, tags, game)
    return _read(game)


def _tags(value: Mapping[str, object], game: _Game) -> dict[str, tuple[str, JsonPath]]:
    """Tag name → (value, where it came from): the ``tags`` object, then the summary keys."""
    tags: dict[str, tuple[str, JsonPath]] = {}
    given = value.get("tags")
    if isinstance(given, Mapping):
        for name, text in given.items():
            path: JsonPath = ("json", "tags", name)
            if not _TAG_NAME.fullmatch(name):
                game.found.append(
                    JSN004.at(path, where="tags", found=describe(name), expected="a tag name")
                )
            elif (tag := _text(text, path, game)) is not None:
                tags[name] = (tag, path)
    elif given is not None:
        game.found.append(
            JSN003.at(("json", "tags"), where="tags", expected="an object", found=describe(given))
        )
    for key, name in SUMMARY_TAGS:
        item = value.get(key)
        path = ("json", key)
        text = _text(item, path, game) if item is not None else None
        if text is not None:
            tags.pop(name, None)
            tags[name] = (text, path)
    return tags


def _text(item: object, path: JsonPath, game: _Game) -> str | None:
    """A tag value: a string of one line (PBN has no way to write a line break in a tag),
    or an integer."""
    if isinstance(item, str):
        if "\n" in item or "\r" in item:
            game.found.append(
                JSN004.at(
                    path, where=str(path[-1]), found=describe(item), expected="a value of one line"
                )
            )
            return None
        return item
    if isinstance(item, int) and not isinstance(item, bool):
        return str(item)
    game.found.append(
        JSN003.at(
            path, where=str(path[-1]), expected="a string or an integer", found=describe(item)
        )
    )
    return None


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _strings(value: object, key: str, game: _Game) -> list[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        game.found.append(
            JSN003.at(
                ("json", key), where=key, expected="an array of strings", found=describe(value)
            )
        )
        return None
    return [item for item in value if isinstance(item, str)]


def _tokens(items: list[str] | None, key: str, what: str, game: _Game) -> list[str]:
    """The items up to the first that cannot be one PBN token (a space, a bracket, a brace
    would change what the rest of the game says): that one is reported, the rest not read."""
    for index, item in enumerate(items or []):
        if not _TOKEN.fullmatch(item):
            expected = f"a {what} (the {key} is read up to it)"
            game.found.append(
                JSN004.at(("json", key, index), where=key, found=describe(item), expected=expected)
            )
            return (items or [])[:index]
    return items or []


def _auction(
    value: Mapping[str, object], tags: Mapping[str, tuple[str, JsonPath]], game: _Game
) -> None:
    calls = _tokens(_strings(value.get("auction"), "auction", game), "auction", "call", game)
    if not calls:
        return
    first = tags.get("Auction") or tags.get("Dealer")
    if first is None:
        game.found.append(
            JSN006.at(
                ("json", "auction"),
                where="the record",
                key="dealer",
                consequence="the auction is not read",
            )
        )
        return
    game.add(f'[Auction "{_escaped(first[0])}"]', ("json", "auction"))
    for start in range(0, len(calls), 4):
        game.add(" ".join(calls[start : start + 4]), ("json", "auction", start))


def _play(
    value: Mapping[str, object], tags: Mapping[str, tuple[str, JsonPath]], game: _Game
) -> None:
    cards = _tokens(_strings(value.get("play"), "play", game), "play", "card", game)
    claimed = value.get("claimed") is True or isinstance(value.get("claim"), Mapping)
    if not cards and not claimed:
        return
    leader = _opening_leader(tags)
    if leader is None:
        game.found.append(
            JSN006.at(
                ("json", "play"),
                where="the record",
                key="declarer",
                consequence="the play is not read",
            )
        )
        return
    contract = tags.get("Contract")
    _, trump = trump_of(decode_contract(contract[0])[0] if contract is not None else None)
    game.add(f'[Play "{leader.letter}"]', ("json", "play"))
    rows = _tricks(cards, leader, trump, game)
    for index, row in enumerate(rows):
        game.add(" ".join(row), ("json", "play", 4 * index))
    if claimed:
        game.add("*", ("json", "claimed"))  # the play stopped at a claim (Result: the total)


def _opening_leader(tags: Mapping[str, tuple[str, JsonPath]]) -> Seat | None:
    """The ``Play`` tag's seat, else declarer's left-hand opponent."""
    stated = tags.get("Play")
    if stated is not None and (seat := _seat(stated[0])) is not None:
        return seat
    declarer = tags.get("Declarer")
    seat = _seat(declarer[0].strip().lstrip("^")) if declarer is not None else None
    return seat.lho if seat is not None else None


def _seat(text: str) -> Seat | None:
    try:
        return Seat.from_letter(text.strip())
    except ValueError:
        return None


def _tricks(cards: list[str], leader: Seat, trump: Suit | None, game: _Game) -> list[list[str]]:
    """PBN play rows (seat columns from the opening leader) of cards in played order."""
    rows: list[list[str]] = []
    opening = leader
    for start in range(0, len(cards), 4):
        trick = [card.strip().upper().replace("10", "T") for card in cards[start : start + 4]]
        row = ["-"] * 4
        for offset, card in enumerate(trick):
            row[opening.distance_to(leader.next(offset))] = card
        rows.append(row)
        if len(trick) < 4:
            break
        try:
            winner = trick_winner([Card.parse(card) for card in trick], trump)
        except ValueError:  # a card not known: who leads next is not known either
            if start + 4 < len(cards):
                game.found.append(
                    JSN004.at(
                        ("json", "play", start),
                        where="play",
                        found=describe(trick),
                        expected="a trick of four cards (who leads next is not known)",
                    )
                )
            break
        leader = leader.next(winner)
    return rows


def _read(game: _Game) -> tuple[Board | None, list[Diagnostic]]:
    from pbntool.formats.pbn import iter_records

    text = "\n".join(game.lines) + "\n"
    board: Board | None = None
    found = game.found
    for record in iter_records(io.BytesIO(text.encode("utf-8")), "<record>"):
        if record.board is not None and board is None:
            board = record.board
        for diagnostic in record.diagnostics:
            origin = game.origin(diagnostic.line)
            found.append(replace(diagnostic, path=origin, line=None, column=None, file=None))
    return board, found
