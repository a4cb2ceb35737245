"""Reading RBN and RBX: each record is written as the PBN game it stands for, and that game is
read with the PBN reader, so a board from RBN is built exactly as one from PBN.  Findings point
at the RBN lines.

What each label gives (``docs/conversions.md`` has the table):

* ``D`` Date (and Time, or UTCTime for a ``G`` time); ``T`` the ``RbnTitle`` tag; ``L`` Site;
  ``E`` Event (both as written, their ``general:specific`` colon kept); ``S`` Stage and Round;
  ``F`` Scoring; ``K`` HomeTeam and VisitTeam; ``N`` the four players, Room or Table; ``B``
  Board and Section; ``H`` Deal (the fourth hand rebuilt); ``A`` Dealer, Vulnerable and the
  Auction, with its ``! ? !! ?? !? ?!`` suffixes and ``^n`` notes (``=n=`` and a Note); ``C``
  Contract and Declarer; ``P`` the Play (full cards rebuilt by following suit), with its
  suffixes and notes; ``R`` Result, Score, ScoreIMP or ScorePercentage; ``M`` the
  ``DoubleDummyTricks`` tag; ``I`` the ``RbnItems`` tag; note ``0`` (a general note) the
  ``RbnNote`` tag; notes ``1``-``9`` belong to the auction, or to the play once a ``P`` line
  came before them.
* A paragraph (or ``%`` comment) is commentary of the tag made from the line before it, so it
  is written back at its place; paragraphs before the first line are the board's own.
* What PBN cannot hold (pseudo cards, hidden hands, quiz markers, goals, circa dates, scoring
  modifiers, carry-overs; CLB012) and a value that cannot be read (CLB011) keep the value as
  written in an ``Rbn…`` tag named after the label (``RbnHands`` for ``H``).
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from pbntool.diagnostics import CLB008, CLB011, CLB012, Diagnostic
from pbntool.formats.dealing import MAX_INPUT_BYTES, LineLocator, board_record
from pbntool.formats.rbn.syntax import (
    BOARD_LABELS,
    CARRIED,
    Block,
    Item,
    line_starts,
    rbn_blocks,
    rbx_blocks,
    read_text,
)
from pbntool.model import Board
from pbntool.notation import CARDS_PER_HAND, TRICKS_PER_DEAL
from pbntool.records import Record

__all__ = [
    "RAW_TAGS",
    "board_of_values",
    "iter_rbx_records",
    "iter_records",
]

SEATS = "NESW"
VULNERABLE = {"Z": "None", "N": "NS", "E": "EW", "B": "All"}
SCORING = {
    "I": "IMP",
    "B": "BAM",
    "T": "TotalPoints",
    "M": "MP",
    "N": "Instant",
    "R": "Rubber",
    "C": "Chicago",
    "A": "Cavendish",
    "P": "Plus",
}
"""The PBN Scoring of each ``F`` letter but ``X`` (IMP pairs: ``IMP;Cross``, or
``IMP;Butler`` with the ``:Butler`` modifier)."""

RAW_TAGS = {
    "D": "RbnDate",
    "T": "RbnTitle",
    "L": "RbnLocation",
    "E": "RbnEvent",
    "S": "RbnSession",
    "F": "RbnScoring",
    "K": "RbnTeams",
    "N": "RbnNames",
    "B": "RbnBoard",
    "H": "RbnHands",
    "A": "RbnAuction",
    "C": "RbnContract",
    "P": "RbnPlay",
    "R": "RbnResult",
    "M": "RbnMakes",
    "I": "RbnItems",
    "0": "RbnNote",
}
"""The tag that keeps a label's value as written (``T``, ``I`` and note 0 have no other)."""

_SUFFIXES = ("!!", "??", "!?", "?!", "!", "?")
_ANNOTATIONS = r"(?:!!|\?\?|!\?|\?!|!|\?|\*|\^[0-9])*"
_CALL = re.compile(r"([1-7][CDHSN]|[PXRAY])(" + _ANNOTATIONS + ")")
_PLAY = re.compile(r"([SHDC]?[AKQJT98765432]|[-~+.])(" + _ANNOTATIONS + ")")
_NOTE_REF = re.compile(r"\^([0-9])")
_PIECE = re.compile(r"!!|\?\?|!\?|\?!|!|\?|\*|\^[0-9]")
_RANKS = "AKQJT98765432"
_HEX = "0123456789ABCD"


class _Unreadable(ValueError):
    pass


@dataclass
class _Read:
    """What one label gives: PBN lines, and what of it PBN cannot hold (None: nothing)."""

    lines: list[str] = field(default_factory=list)
    extras: str | None = None


@dataclass
class _Context:
    """What labels need of other labels: the contract's declarer, trump and leader, and the
    notes of the auction and the play."""

    declarer: str | None = None
    trump: str | None = None
    leader: str | None = None
    contract: bool = False
    play: bool = False
    auction_notes: list[tuple[str, str]] = field(default_factory=list)
    play_notes: list[tuple[str, str]] = field(default_factory=list)
    general: list[Item] = field(default_factory=list)
    """Note 0 (a general note) and notes with no auction or play: the ``RbnNote`` tag."""


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag(name: str, value: str) -> str:
    return f"[{name} {quote(value)}]"


# --- records -------------------------------------------------------------------------------


def iter_records(stream: BinaryIO, name: str) -> Iterator[Record]:
    """The boards of an RBN file, one per record."""
    yield from _records(stream, name, rbx=False)


def iter_rbx_records(stream: BinaryIO, name: str) -> Iterator[Record]:
    """The boards of an RBX file, one per line."""
    yield from _records(stream, name, rbx=True)


def _records(stream: BinaryIO, name: str, rbx: bool) -> Iterator[Record]:
    text, cut = read_text(stream, MAX_INPUT_BYTES)
    lines = text.split("\n")
    starts = line_starts(lines)
    title = "RBX" if rbx else "RBN"
    blocks = _lend_headers(list((rbx_blocks if rbx else rbn_blocks)(lines)))
    carried: dict[str, Item] = {}
    for block in blocks:
        locator = LineLocator(starts, block.first_line or 1)
        own, found = _own_values(block)
        values = {**{label: item for label, item in carried.items() if label not in own}, **own}
        for label in CARRIED:
            if label in own:
                if own[label].text.strip():
                    carried[label] = own[label]
                else:
                    carried.pop(label, None)
        if not (BOARD_LABELS & set(own)):
            if block.findings or found:
                yield board_record(
                    None, block.findings + found, name, block.first_line or 1, locator
                )
            continue
        board, more = board_of_values(values, block.items, carried_first=True)
        yield board_record(board, block.findings + found + more, name, block.first_line, locator)
    if cut:
        found_cut = CLB008.at(("offset", MAX_INPUT_BYTES), format=title, limit=MAX_INPUT_BYTES)
        yield board_record(None, [found_cut], name, len(lines), LineLocator(starts, len(lines)))


def _lend_headers(blocks: list[Block]) -> list[Block]:
    """Blocks that are no board (a header of carried values) lend their paragraphs, comments
    and other labels to the next board (the last board when none follows)."""
    out: list[Block] = []
    pending: list[Item] = []
    for block in blocks:
        if BOARD_LABELS & block.labels:
            block.items = pending + block.items
            block.first_line = (
                min((item.line for item in block.items), default=block.first_line)
                or block.first_line
            )
            pending = []
            out.append(block)
            continue
        lent = [item for item in block.items if item.kind != "label" or item.label not in CARRIED]
        kept = [item for item in block.items if item.kind == "label" and item.label in CARRIED]
        pending += lent
        block.items = kept
        out.append(block)
    if pending:
        boards = [block for block in out if BOARD_LABELS & block.labels]
        if boards:
            boards[-1].items += pending
        else:
            out.append(Block([item for item in pending if item.kind == "label"], pending[0].line))
    return out


def _own_values(block: Block) -> tuple[dict[str, Item], list[Diagnostic]]:
    """The block's labels (the first of each; notes are read by ``board_of_values``)."""
    own: dict[str, Item] = {}
    found: list[Diagnostic] = []
    for item in block.items:
        if item.kind != "label" or item.label.isdigit():
            continue
        if item.label in own:
            found.append(
                CLB011.at(
                    ("line", item.line),
                    label=item.label,
                    value=repr(item.text[:40]),
                    detail=f"{item.label} was given at line {own[item.label].line}",
                    action="the first is used",
                )
            )
            continue
        own[item.label] = item
    return own, found


def board_of_values(
    values: dict[str, Item], items: list[Item], carried_first: bool = False
) -> tuple[Board | None, list[Diagnostic]]:
    """The board of a record's values (carried ones included), its paragraphs and comments
    placed after the line they follow, and the findings of its values."""
    found: list[Diagnostic] = []
    context = _context(values, items, found)
    parts: list[str] = []
    # Items are compared by identity: two equal paragraphs of one RBX line are two items.
    own = [
        item
        for item in items
        if item.kind != "label" or item.label.isdigit() or values.get(item.label) is item
    ]
    leading = 0
    while leading < len(own) and own[leading].kind != "label":
        leading += 1
    for item in own[:leading]:
        parts.append(_comment_line(item))
    if carried_first:
        for label in CARRIED:
            carried = values.get(label)
            if carried is not None and not any(carried is mine for mine in items):
                parts.extend(_label_lines(carried, context, found))
    for item in own[leading:]:
        if item.kind != "label":
            parts.append(_comment_line(item))
        elif not item.label.isdigit():
            parts.extend(_label_lines(item, context, found))
        elif context.general and item is context.general[0]:
            texts = [
                note.text if note.label == "0" else f"{note.label} {note.text}"
                for note in context.general
            ]
            parts.append(_tag(RAW_TAGS["0"], " ".join(texts)))
    if "B" in values and not any(part.startswith("[") for part in parts):
        parts.append('[Board "?"]')  # a record that says it is a board, with nothing known
    text = "".join(part + "\n" for part in parts)
    from pbntool.formats.pbn import iter_records as read_pbn

    records = [
        record for record in read_pbn(io.BytesIO(text.encode("utf-8")), "rbn") if record.board
    ]
    return (records[0].board if records else None), found


def _comment_line(item: Item) -> str:
    if item.kind == "comment":
        return "%" + item.text
    if "}" in item.text:  # a brace comment cannot hold one; line comments can
        return "\n".join(";" + line for line in item.text.split("\n"))
    return "{" + item.text + "}"


def _context(values: dict[str, Item], items: list[Item], found: list[Diagnostic]) -> _Context:
    context = _Context(contract="C" in values, play="P" in values)
    contract = values.get("C")
    if contract is not None:
        with contextlib.suppress(_Unreadable, ValueError, IndexError, KeyError):
            _contract_state(contract.text, context)  # (reported when the C line is read)
    after_play = False
    for item in items:
        if item.kind != "label":
            continue
        if item.label == "P":
            after_play = True
        elif item.label.isdigit() and item.label != "0":
            notes = context.play_notes if after_play else context.auction_notes
            section = "P" if after_play else "A"
            if section not in values:
                found.append(
                    CLB011.at(
                        ("line", item.line),
                        label=item.label,
                        value=repr(item.text[:40]),
                        detail="a note with no " + ("play" if after_play else "auction"),
                        action="kept in the RbnNote tag",
                    )
                )
                context.general.append(item)
                continue
            notes.append((item.label, item.text))
        elif item.label == "0":
            context.general.append(item)
    return context


def _label_lines(item: Item, context: _Context, found: list[Diagnostic]) -> list[str]:
    label, value = item.label, item.text
    if not value.strip():
        return []
    if label in ("T", "I"):
        return [_tag(RAW_TAGS[label], value)]
    try:
        read = _LABEL_READERS[label](value, context)
    except (_Unreadable, ValueError, IndexError, KeyError) as error:
        detail = str(error) or "unexpected syntax"
        found.append(
            CLB011.at(
                ("line", item.line),
                label=label,
                value=repr(value[:40]),
                detail=detail,
                action=f"kept as the {RAW_TAGS[label]} tag",
            )
        )
        return [_tag(RAW_TAGS[label], value)]
    lines = read.lines
    if read.extras is not None:
        found.append(
            CLB012.at(
                ("line", item.line),
                label=label,
                value=repr(value[:40]),
                what=read.extras,
                tag=RAW_TAGS[label],
            )
        )
        lines = _before_sections(lines, _tag(RAW_TAGS[label], value))
    return lines


def _before_sections(lines: list[str], tag: str) -> list[str]:
    """The lines with ``tag`` before the first section (whose data would otherwise end at
    it), else last."""
    for index, line in enumerate(lines):
        if "\n" in line:
            return [*lines[:index], tag, *lines[index:]]
    return [*lines, tag]


# --- the labels ----------------------------------------------------------------------------

_DATE = re.compile(
    r"(?P<year>[0-9?]{4})(?P<circa>C)?(?P<month>[0-9?]{2})?(?P<day>[0-9?]{2})?"
    r"(?P<last>[0-9?]{2})?(?::(?P<time>[0-9?]*)(?P<gmt>G)?)?"
)


def _date(value: str, context: _Context) -> _Read:
    found = _DATE.fullmatch(value.strip())
    if found is None:
        raise _Unreadable("a date is yyyymmdd, then :hhmmss")
    extras = []
    month, day = found.group("month") or "??", found.group("day") or "??"
    read = _Read([_tag("Date", f"{found.group('year')}.{month}.{day}")])
    if found.group("circa"):
        extras.append("a circa date")
    if found.group("last"):
        extras.append("a span of days")
    time = found.group("time")
    if time is not None:
        if re.fullmatch(r"[0-9]{6}", time):
            name = "UTCTime" if found.group("gmt") else "Time"
            read.lines.append(_tag(name, f"{time[:2]}:{time[2:4]}:{time[4:]}"))
        else:
            extras.append("a time that is not hhmmss")
    read.extras = " and ".join(extras) or None
    return read


def _simple(name: str) -> Callable[[str, _Context], _Read]:
    def read(value: str, context: _Context) -> _Read:
        return _Read([_tag(name, value)])

    return read


def split_escaped(value: str) -> list[str]:
    """``general:specific`` fields, with ``::`` an escaped colon (in S)."""
    fields = [""]
    index = 0
    while index < len(value):
        if value.startswith("::", index):
            fields[-1] += ":"
            index += 2
        elif value[index] == ":":
            fields.append("")
            index += 1
        else:
            fields[-1] += value[index]
            index += 1
    return fields


def _session(value: str, context: _Context) -> _Read:
    fields = split_escaped(value)
    read = _Read()
    if fields[0]:
        read.lines.append(_tag("Stage", fields[0]))
    if len(fields) > 1 and fields[1]:
        read.lines.append(_tag("Round", ":".join(fields[1:])))
    return read


def _scoring(value: str, context: _Context) -> _Read:
    letter, _, modifier = value.strip().partition(":")
    letter = letter.upper()
    if letter == "X":
        butler = modifier.lower() == "butler"
        read = _Read([_tag("Scoring", "IMP;Butler" if butler else "IMP;Cross")])
        if modifier and not butler:
            read.extras = f"the scoring modifier {modifier!r}"
        return read
    if letter not in SCORING:
        raise _Unreadable("unknown scoring letter")
    read = _Read([_tag("Scoring", SCORING[letter])])
    if modifier:
        read.extras = f"the scoring modifier {modifier!r}"
    return read


def _teams(value: str, context: _Context) -> _Read:
    fields = value.split(":")
    read = _Read()
    if fields[0]:
        read.lines.append(_tag("HomeTeam", fields[0]))
    if len(fields) > 1 and fields[1]:
        read.lines.append(_tag("VisitTeam", fields[1]))
    if len(fields) > 2 and any(fields[2:]):
        read.extras = "carry-overs"
    return read


def _names(value: str, context: _Context) -> _Read:
    fields = value.split(":")
    read = _Read()
    pairs = [fields[0], fields[1] if len(fields) > 1 else ""]
    for (first, second), pair in zip((("North", "South"), ("West", "East")), pairs, strict=True):
        names = pair.split("+") if pair else ["", ""]
        names = [name if name.strip() else "?" for name in [*names, ""][:2]]
        read.lines.append(_tag(first, names[0]))
        read.lines.append(_tag(second, names[1]))
        if len(names) > 2:
            read.extras = "a pair of more than two names"
    extras = []
    if len(fields) > 2 and fields[2]:
        room = fields[2]
        if room in ("O", "C"):
            read.lines.append(_tag("Room", "Open" if room == "O" else "Closed"))
        elif room.isdigit() and 1 <= int(room) <= 250:
            read.lines.append(_tag("Table", room))
        else:
            extras.append(f"the room {room!r}")
    if len(fields) > 3 and any(fields[3:]):
        extras.append("room information")
    if extras:
        read.extras = " and ".join(extras)
    return read


def _board_number(value: str, context: _Context) -> _Read:
    number, _, section = value.partition(":")
    read = _Read([_tag("Board", number.strip())])
    if section:
        read.lines.append(_tag("Section", section))
    return read


_HAND = re.compile(r"[AKQJT98765432x?]*(?:\.[AKQJT98765432x?]*){3}")


def _hands(value: str, context: _Context) -> _Read:
    pieces = re.split(r"([:;])", value.strip())
    first = pieces[0]
    if first not in SEATS or len(pieces) < 3:
        raise _Unreadable("H is a seat, then : and a hand for each seat")
    hands = pieces[2::2]
    hidden = ";" in pieces[1::2]
    if len(hands) > 4:
        raise _Unreadable("more than four hands")
    hands = [*hands, "", "", ""][:4]
    extras = []
    real: list[str] = []
    for hand in hands:
        if hand and not _HAND.fullmatch(hand):
            raise _Unreadable(f"{hand!r} is not a hand")
        if "x" in hand or "?" in hand:
            extras.append("pseudo cards (x, ?)")
        real.append(hand.replace("x", "").replace("?", ""))
    seen: set[str] = set()
    for hand in real:
        if not hand:
            continue
        for suit, ranks in zip("SHDC", hand.split("."), strict=True):
            for rank in ranks:
                if suit + rank in seen:
                    raise _Unreadable(f"{suit}{rank} is in two hands")
                seen.add(suit + rank)
    if not real[3] and all(_count(hand) == CARDS_PER_HAND for hand in real[:3]) and not extras:
        real[3] = _rest(real[:3])
    if hidden:
        extras.append("hidden hands (;)")
    deal = f"{first}:" + " ".join(hand if _count(hand) else "-" for hand in real)
    read = _Read([_tag("Deal", deal)])
    if extras:
        read.extras = " and ".join(dict.fromkeys(extras))
    return read


def _count(hand: str) -> int:
    return len(hand.replace(".", ""))


def _rest(hands: list[str]) -> str:
    """The fourth hand of a deal: the cards the other three do not hold."""
    suits = []
    for index in range(4):
        held = "".join(hand.split(".")[index] for hand in hands)
        suits.append("".join(rank for rank in _RANKS if rank not in held))
    return ".".join(suits)


def _pbn_annotations(text: str, extras: list[str], item: str) -> str:
    """RBN annotations as PBN tokens: the first suffix as a suffix, more as NAGs, ``^n`` as a
    note reference; ``*`` and ``^0`` have no PBN form (``extras``)."""
    out = ""
    suffixed = False
    for piece in _PIECE.findall(text):
        if piece in _SUFFIXES:
            if not suffixed:
                out += piece
                suffixed = True
            else:
                base = 6 if item == "card" else 0
                out += f" ${_SUFFIXES_NAG[piece] + base}"
        elif piece == "*":
            extras.append("the * annotation")
        elif piece == "^0":
            extras.append("a ^0 note reference")
        else:
            out += f"={piece[1]}="
    return out


_SUFFIXES_NAG = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


def _auction(value: str, context: _Context) -> _Read:
    head, colon, calls_text = value.strip().partition(":")
    if len(head) != 2 or head[0] not in SEATS or head[1] not in "ZNEB?":
        raise _Unreadable("A starts with the dealer and the vulnerability (Z N E B ?)")
    read = _Read([_tag("Dealer", head[0])])
    if head[1] != "?":
        read.lines.append(_tag("Vulnerable", VULNERABLE[head[1]]))
    if not colon:
        return read  # the dealer and vulnerability only: no auction
    text = calls_text.replace(":", "")
    tokens: list[str] = []
    extras: list[str] = []
    position = 0
    bids = trailing = 0
    ended = False
    while position < len(text):
        found = _CALL.match(text, position)
        if found is None:
            raise _Unreadable(f"{text[position]!r} is not a call")
        if ended:
            raise _Unreadable("a call after the end of the auction")
        call, marks = found.group(1), found.group(2)
        position = found.end()
        if call == "A":
            passes = (3 if bids else 4) - trailing
            tokens += ["Pass"] * max(passes, 0)
            if marks or passes <= 0:
                extras.append("an annotated or needless A")
            ended = True
            continue
        if call == "Y":
            extras.append("the Y quiz marker")
            ended = True
            continue
        word = {"P": "Pass", "X": "X", "R": "XX"}.get(call) or (
            call[0] + ("NT" if call[1] == "N" else call[1])
        )
        trailing = trailing + 1 if call == "P" else 0
        bids += call[0].isdigit() or call in "XR"
        tokens.append(word + _pbn_annotations(marks, extras, "call"))
    section = f'[Auction "{head[0]}"]' + ("\n" + " ".join(tokens) if tokens else "")
    section += "".join(f"\n{_tag('Note', f'{n}:{t}')}" for n, t in context.auction_notes)
    read.lines.append(section)
    if extras:
        read.extras = " and ".join(dict.fromkeys(extras))
    return read


_CONTRACT = re.compile(r"([1-7]?)([CDHSN])([XR]?)(.*)")


def _contract_state(value: str, context: _Context) -> tuple[str, str, str, str, str]:
    text, _, rest = value.strip().partition(":")
    fields = rest.split(":")
    declarer = fields[0]
    if text.upper() == "P":
        return "P", "", "", "", ""
    found = _CONTRACT.fullmatch(text)
    if found is None or declarer not in SEATS:
        raise _Unreadable("C is level, strain, X or R, then :declarer")
    leader = fields[1] if len(fields) > 1 else ""
    if leader and leader not in SEATS:
        raise _Unreadable(f"the leader {leader!r} is not a seat")
    context.declarer = declarer
    context.trump = None if found.group(2) == "N" else found.group(2)
    context.leader = leader or None
    return found.group(1), found.group(2), found.group(3), found.group(4), leader


def _contract(value: str, context: _Context) -> _Read:
    level, strain, doubling, goal, leader = _contract_state(value, context)
    if level == "P":
        return _Read([_tag("Contract", "Pass")])
    assert context.declarer is not None
    extras = []
    read = _Read()
    name = "NT" if strain == "N" else strain  # a strain with no level: a trump suit only
    read.lines.append(_tag("Contract", level + name + {"X": "X", "R": "XX", "": ""}[doubling]))
    read.lines.append(_tag("Declarer", context.declarer))
    if goal:
        extras.append(f"the goal {goal!r}")
    left = SEATS[(SEATS.index(context.declarer) + 1) % 4]
    if leader and leader != left and not context.play:  # with a play, its first seat says it
        extras.append("an opening leader who is not declarer's left-hand opponent")
    if extras:
        read.extras = " and ".join(extras)
    return read


def _play(value: str, context: _Context) -> _Read:
    declarer = context.declarer
    if declarer is None:
        raise _Unreadable("a play needs a contract and declarer")
    first = context.leader or SEATS[(SEATS.index(declarer) + 1) % 4]
    leader = first
    extras: list[str] = []
    claimed = value.strip().endswith(";")  # the rest is trivial: PBN's * after the play
    if ";" in value.strip().rstrip(";"):
        extras.append("a ; before the last trick shown")
    rows: list[dict[str, str]] = []
    tricks = [text for text in re.split(r"[:;]", value.strip()) if text]
    for trick_text in tricks:
        plays: list[tuple[str, str]] = []
        position = 0
        while position < len(trick_text):
            found = _PLAY.match(trick_text, position)
            if found is None:
                raise _Unreadable(f"{trick_text[position]!r} is not a card")
            plays.append((found.group(1), found.group(2)))
            position = found.end()
        if len(plays) > 4:
            raise _Unreadable(f"a trick of {len(plays)} cards")
        led = plays[0][0]
        if len(led) != 2:
            raise _Unreadable("a trick's lead names its suit")
        seats = [SEATS[(SEATS.index(leader) + step) % 4] for step in range(len(plays))]
        row: dict[str, str] = {}
        cards = []
        pseudo = False
        for seat, (card, marks) in zip(seats, plays, strict=True):
            if card in "-~+.":
                extras.append("pseudo plays (- ~ + .)")
                pseudo = True
                break
            full = card if len(card) == 2 else led[0] + card
            cards.append(full)
            row[seat] = full + _pbn_annotations(marks, extras, "card")
        rows.append(row)
        if pseudo:
            break
        if len(cards) == 4:
            leader = seats[_winner(cards, context.trump)]
        elif len(rows) < len(tricks):
            raise _Unreadable("a trick of fewer than four cards before the last")
        else:
            break
    order = [SEATS[(SEATS.index(first) + step) % 4] for step in range(4)]
    section = f'[Play "{first}"]' + "".join(
        "\n" + " ".join(row.get(seat, "-") for seat in order) for row in rows
    )
    if claimed:
        section += "\n*"
    section += "".join(f"\n{_tag('Note', f'{n}:{t}')}" for n, t in context.play_notes)
    read = _Read([section])
    if extras:
        read.extras = " and ".join(dict.fromkeys(extras))
    return read


def _winner(cards: list[str], trump: str | None) -> int:
    best = 0
    order = "23456789TJQKA"
    for index, card in enumerate(cards[1:], start=1):
        top = cards[best]
        higher = card[0] == top[0] and order.index(card[1]) > order.index(top[1])
        if higher or (card[0] == trump and top[0] != trump):
            best = index
    return best


_RESULT = re.compile(r"(P|[0-9]{1,2})([+-][0-9]+)?")


def _result(value: str, context: _Context) -> _Read:
    text, colon, effective = value.strip().partition(":")
    found = _RESULT.fullmatch(text.upper())
    if found is None or (found.group(1) != "P" and int(found.group(1)) > TRICKS_PER_DEAL):
        raise _Unreadable("R is tricks (or P), then the signed NS score")
    read = _Read()
    if found.group(1) == "P":
        if not context.contract:
            read.lines.append(_tag("Contract", "Pass"))
    else:
        read.lines.append(_tag("Result", str(int(found.group(1)))))
    if found.group(2):
        read.lines.append(_tag("Score", f"NS {int(found.group(2))}"))
    if effective == "=":
        read.lines.append(_tag("ScoreIMP", "NS 0"))
    elif re.fullmatch(r"[+-][0-9]+(\.[0-9]+)?", effective):
        read.lines.append(_tag("ScoreIMP", f"NS {effective.lstrip('+')}"))
    elif re.fullmatch(r"[0-9]+(\.[0-9]+)?", effective):
        read.lines.append(_tag("ScorePercentage", f"NS {effective}"))
    elif colon:
        read.extras = f"the effective score {effective!r}"
    return read


def _makes(value: str, context: _Context) -> _Read:
    fields = value.strip().split(":")
    if len(fields) == 4 and not fields[0] and not fields[1]:
        fields = fields[2:]
    if len(fields) != 2:
        raise _Unreadable("M is ::, the NS tricks, : and the EW tricks")
    north, south = _pair_tricks(fields[0], None)
    west, east = _pair_tricks(fields[1], (north, south))
    digits = "".join(_HEX[tricks] for tricks in (*north, *south, *east, *west))
    return _Read([_tag("DoubleDummyTricks", digits)])


def _pair_tricks(
    text: str, opponents: tuple[list[int], list[int]] | None
) -> tuple[list[int], list[int]]:
    """North and South (or West and East) from ``12345=``, ``12345+6789A``; for EW ``!`` is
    13 less the opponent's tricks (West against North, East against South)."""
    upper = text.upper()
    if opponents is not None and upper.startswith("!"):
        first = [TRICKS_PER_DEAL - tricks for tricks in opponents[0]]
        rest = upper[1:]
    else:
        first = _five(upper[:5])
        rest = upper[5:]
    if rest == "=":
        return first, list(first)
    if opponents is not None and rest == "!":
        return first, [TRICKS_PER_DEAL - tricks for tricks in opponents[1]]
    if rest.startswith("+"):
        return first, _five(rest[1:])
    raise _Unreadable(f"{text!r} is not 5 digits then =, ! or + and 5 digits")


def _five(text: str) -> list[int]:
    if len(text) != 5 or any(digit not in _HEX for digit in text):
        raise _Unreadable(f"{text!r} is not five tricks (0-9, A-D)")
    return [_HEX.index(digit) for digit in text]


_LABEL_READERS: dict[str, Callable[[str, _Context], _Read]] = {
    "D": _date,
    "L": _simple("Site"),
    "E": _simple("Event"),
    "S": _session,
    "F": _scoring,
    "K": _teams,
    "N": _names,
    "B": _board_number,
    "H": _hands,
    "A": _auction,
    "C": _contract,
    "P": _play,
    "R": _result,
    "M": _makes,
}
