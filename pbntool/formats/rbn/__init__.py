"""RBN (Richard Pavlicek's Bridge Notation) and RBX, its one-line form (``docs/conversions.md``).

An RBN record is a block of ``L data`` lines (a one-character label, a space, the data) ended
by a blank line; ``{...}`` paragraphs are commentary and ``%`` lines comments.  The labels
``D T L E S F K N B H`` carry over to later records when left out.  An RBX record is one line
of ``L{data}`` groups.  A record is read by writing the PBN game it stands for and reading
that with the PBN reader, so a board from RBN is built exactly as one from PBN; findings point
at the RBN lines.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO, TextIO

from pbntool.diagnostics import CLB008, CLB010, CLB011, OUT020, Diagnostic
from pbntool.formats.dealing import MAX_INPUT_BYTES, LineLocator, board_record
from pbntool.formats.sniffing import STRUCTURE, name_suffix
from pbntool.model import (
    Action,
    Bid,
    Board,
    Card,
    CommentKind,
    Seat,
    SectionEnd,
    Side,
    Strain,
    Vulnerability,
)
from pbntool.records import Record
from pbntool.rules import auction_outcome

__all__ = ["RbnWriter", "RbxWriter", "iter_rbx_records", "iter_records", "sniff", "sniff_rbx"]

LABELS = "DTLESFKNBHACPRMI0123456789"
CARRIED = "DTLESFKNBH"
_SEATS = "NESW"
_VULNERABLE = {"Z": "None", "N": "NS", "E": "EW", "B": "All"}
_VUL_LETTER = {Vulnerability.NONE: "Z", Vulnerability.NS: "N", Vulnerability.EW: "E",
               Vulnerability.ALL: "B"}  # fmt: skip
_SCORING = {"I": "IMP", "B": "BAM", "T": "TotalPoints", "X": "IMP", "M": "MP", "N": "Instant",
            "R": "Rubber", "C": "Chicago", "P": "Plus"}  # fmt: skip
_SCORING_LETTER = {"IMP": "I", "BAM": "B", "TOTALPOINTS": "T", "MP": "M", "MATCHPOINTS": "M",
                   "INSTANT": "N", "RUBBER": "R", "CHICAGO": "C"}  # fmt: skip
_LINE = re.compile(r"([A-Z0-9]) (.*)")
_RBX_GROUP = re.compile(r"([A-Z0-9%])\{([^}]*)\}")
_ANNOTATION = re.compile(r"(?:!!|\?\?|!\?|\?!|!|\?|\*|\^[0-9])")


@dataclass
class _Raw:
    """One record as read: its labelled values with their lines, and its paragraphs."""

    values: dict[str, tuple[str, int]] = field(default_factory=dict)
    paragraphs: list[str] = field(default_factory=list)
    first_line: int = 0
    findings: list[Diagnostic] = field(default_factory=list)


def _read_text(stream: BinaryIO) -> tuple[str, bool]:
    data = stream.read(MAX_INPUT_BYTES + 1)
    cut = len(data) > MAX_INPUT_BYTES
    data = data[:MAX_INPUT_BYTES]
    try:
        return data.decode("utf-8-sig"), cut
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), cut


def _line_starts(lines: list[str]) -> list[int]:
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    return starts


def _rbn_blocks(lines: list[str]) -> Iterator[_Raw]:
    raw = _Raw()
    paragraph: list[str] | None = None
    for number, line in enumerate(lines, start=1):
        text = line.rstrip("\r")
        if paragraph is not None:
            paragraph.append(text)
            if text.rstrip().endswith("}"):
                raw.paragraphs.append(" ".join(paragraph).strip()[1:-1].strip())
                paragraph = None
            continue
        if not text.strip():
            if raw.values or raw.paragraphs or raw.findings:
                yield raw
            raw = _Raw()
            continue
        raw.first_line = raw.first_line or number
        if text.startswith("{"):
            paragraph = [text]
            if text.rstrip().endswith("}"):
                raw.paragraphs.append(text.strip()[1:-1].strip())
                paragraph = None
            continue
        if text.startswith("%"):
            continue
        found = _LINE.fullmatch(text)
        if found is None or found.group(1) not in LABELS:
            raw.findings.append(CLB010.at(("line", number), format="RBN", text=repr(text[:40])))
            continue
        raw.values.setdefault(found.group(1), (found.group(2), number))
    if paragraph is not None:
        raw.paragraphs.append(" ".join(paragraph).strip().lstrip("{"))
    if raw.values or raw.paragraphs or raw.findings:
        yield raw


def _rbx_blocks(lines: list[str]) -> Iterator[_Raw]:
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        raw = _Raw(first_line=number)
        groups = list(_RBX_GROUP.finditer(text))
        if not groups or "".join(group.group(0) for group in groups) != text:
            raw.findings.append(CLB010.at(("line", number), format="RBX", text=repr(text[:40])))
            yield raw
            continue
        for group in groups:
            label, value = group.group(1), group.group(2)
            if label == "%":
                continue
            if label == "{":
                raw.paragraphs.append(value)
            else:
                raw.values.setdefault(label, (value, number))
        yield raw


def iter_records(stream: BinaryIO, name: str) -> Iterator[Record]:
    """The boards of an RBN file, one per record."""
    yield from _records(stream, name, rbx=False)


def iter_rbx_records(stream: BinaryIO, name: str) -> Iterator[Record]:
    """The boards of an RBX file, one per line."""
    yield from _records(stream, name, rbx=True)


def _records(stream: BinaryIO, name: str, rbx: bool) -> Iterator[Record]:
    text, cut = _read_text(stream)
    lines = text.split("\n")
    starts = _line_starts(lines)
    carried: dict[str, tuple[str, int]] = {}
    for raw in (_rbx_blocks if rbx else _rbn_blocks)(lines):
        locator = LineLocator(starts, raw.first_line or 1)
        values = {**carried, **raw.values}
        for label in CARRIED:
            if label in raw.values:
                carried[label] = raw.values[label]
        if not ({"H", "A", "C", "P", "R", "B"} & set(raw.values)):
            if raw.findings:
                yield board_record(None, raw.findings, name, raw.first_line or 1, locator)
            continue
        board, found = _board(values, raw.paragraphs)
        yield board_record(board, raw.findings + found, name, raw.first_line or 1, locator)
    if cut:
        found_cut = CLB008.at(("offset", MAX_INPUT_BYTES), format="RBN", limit=MAX_INPUT_BYTES)
        yield board_record(None, [found_cut], name, len(lines), LineLocator(starts, len(lines)))


# --- one record as PBN ---------------------------------------------------------------------


def _unescape(text: str) -> str:
    """The text of a ``general:specific`` value: kept as written (its ``:`` included), so
    that it is written back the same."""
    return text


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Unreadable(ValueError):
    pass


def _board(
    values: dict[str, tuple[str, int]], paragraphs: list[str]
) -> tuple[Board | None, list[Diagnostic]]:
    tags: list[tuple[str, str]] = []
    sections: list[str] = []
    found: list[Diagnostic] = []
    state: dict[str, object] = {}
    for label in "DLESFKNBHACPR":
        if label not in values:
            continue
        value, line = values[label]
        try:
            _LABEL_READERS[label](value, tags, sections, state)
        except (_Unreadable, ValueError, IndexError, KeyError) as error:
            detail = str(error) or "unexpected syntax"
            found.append(
                CLB011.at(("line", line), label=label, value=repr(value[:40]), detail=detail)
            )
    if "T" in values:
        paragraphs = [_unescape(values["T"][0]), *paragraphs]
    # Paragraphs first: commentary before a game's first tag is the board's own.
    text = "".join("{" + paragraph.replace("}", ")") + "}\n" for paragraph in paragraphs)
    text += "".join(f"[{tag} {_quote(value)}]\n" for tag, value in tags)
    text += "".join(sections)
    from pbntool.formats.pbn import iter_records as read_pbn

    records = [
        record for record in read_pbn(io.BytesIO(text.encode("utf-8")), "rbn") if record.board
    ]
    return (records[0].board if records else None), found


def _date(
    value: str, tags: list[tuple[str, str]], sections: list[str], state: dict[str, object]
) -> None:
    digits = value.split(":")[0][:8].replace("C", "")
    if not re.fullmatch(r"[0-9?]{4,8}", digits) or len(digits) % 2:
        raise _Unreadable("a date is yyyymmdd")
    padded = digits.ljust(8, "?")
    tags.append(("Date", f"{padded[:4]}.{padded[4:6]}.{padded[6:8]}"))


def _simple(tag: str):  # type: ignore[no-untyped-def]
    def read(
        value: str, tags: list[tuple[str, str]], sections: list[str], state: dict[str, object]
    ) -> None:
        tags.append((tag, _unescape(value)))

    return read


def _scoring(
    value: str, tags: list[tuple[str, str]], sections: list[str], state: dict[str, object]
) -> None:
    letter = value[:1].upper()
    if letter not in _SCORING:
        raise _Unreadable("unknown scoring letter")
    tags.append(("Scoring", _SCORING[letter]))


def _teams(
    value: str, tags: list[tuple[str, str]], sections: list[str], state: dict[str, object]
) -> None:
    fields = value.split(":")
    tags.append(("HomeTeam", fields[0]))
    if len(fields) > 1:
        tags.append(("VisitTeam", fields[1]))


def _names(
    value: str, tags: list[tuple[str, str]], sections: list[str], state: dict[str, object]
) -> None:
    fields = value.split(":")
    pairs = [fields[0], fields[1] if len(fields) > 1 else ""]
    for (first, second), pair in zip((("North", "South"), ("West", "East")), pairs, strict=True):
        names = pair.split("+") if pair else ["", ""]
        tags.append((first, names[0] or "?"))
        tags.append((second, (names[1] if len(names) > 1 else "") or "?"))
    if len(fields) > 2 and fields[2]:
        room = fields[2]
        if room in ("O", "C"):
            tags.append(("Room", "Open" if room == "O" else "Closed"))
        elif room.isdigit():
            tags.append(("Table", room))


def _board_number(
    value: str, tags: list[tuple[str, str]], sections: list[str], state: dict[str, object]
) -> None:
    number, _, section = value.partition(":")
    tags.append(("Board", number.strip()))
    if section:
        tags.append(("Section", section))


def _hands(
    value: str, tags: list[tuple[str, str]], sections: list[str], state: dict[str, object]
) -> None:
    first, *hands = value.replace(";", ":").split(":")
    if first not in _SEATS or (len(hands) != 4 and len(hands) != 3):
        raise _Unreadable("H is a seat and four hands")
    hands = [*hands, ""][:4]
    parsed = []
    for hand in hands:
        if hand and not re.fullmatch(r"[AKQJT98765432]*(\.[AKQJT98765432]*){3}", hand):
            raise _Unreadable(f"{hand!r} is not a hand")
        parsed.append(hand)
    if not parsed[3]:
        parsed[3] = _rest(parsed[:3])
    tags.append(("Deal", f"{first}:" + " ".join(hand or "-" for hand in parsed)))
    state["deal"] = {_SEATS[(_SEATS.index(first) + step) % 4]: parsed[step] for step in range(4)}


def _rest(hands: list[str]) -> str:
    """The fourth hand of a deal: the cards the other three do not hold."""
    suits = []
    for index in range(4):
        held = "".join(hand.split(".")[index] for hand in hands if hand)
        suits.append("".join(rank for rank in "AKQJT98765432" if rank not in held))
    return ".".join(suits) if all(hands) else ""


def _auction(
    value: str, tags: list[tuple[str, str]], sections: list[str], state: dict[str, object]
) -> None:
    head, _, calls_text = value.partition(":")
    if len(head) < 2 or head[0] not in _SEATS or head[1] not in _VULNERABLE:
        raise _Unreadable("A starts with the dealer and the vulnerability")
    tags.append(("Dealer", head[0]))
    tags.append(("Vulnerable", _VULNERABLE[head[1]]))
    text = _ANNOTATION.sub("", calls_text.replace(":", ""))
    calls: list[str] = []
    position = 0
    while position < len(text):
        char = text[position]
        if char == "P":
            calls.append("Pass")
        elif char == "X":
            calls.append("X")
        elif char == "R":
            calls.append("XX")
        elif char == "A":
            calls += ["Pass"] * (4 if not any(call[0].isdigit() for call in calls) else 3)
        elif char == "Y":
            pass
        elif char in "1234567" and position + 1 < len(text) and text[position + 1] in "CDHSN":
            strain = text[position + 1]
            calls.append(char + ("NT" if strain == "N" else strain))
            position += 1
        else:
            raise _Unreadable(f"{char!r} is not a call")
        position += 1
    state["dealer"] = head[0]
    sections.append(f'[Auction "{head[0]}"]\n' + " ".join(calls) + "\n")


def _contract(
    value: str, tags: list[tuple[str, str]], sections: list[str], state: dict[str, object]
) -> None:
    text, _, rest = value.partition(":")
    declarer = rest.split(":")[0]
    if text.upper() == "P":
        tags.append(("Contract", "Pass"))
        return
    found = re.fullmatch(r"([1-7])([CDHSN])(X|R)?([0-9]*)", text)
    if found is None or declarer not in _SEATS:
        raise _Unreadable("C is level, strain, X or R, then :declarer")
    strain = "NT" if found.group(2) == "N" else found.group(2)
    doubling = {"X": "X", "R": "XX", None: ""}[found.group(3)]
    tags.append(("Contract", found.group(1) + strain + doubling))
    tags.append(("Declarer", declarer))
    state["declarer"] = declarer
    state["trump"] = None if found.group(2) == "N" else found.group(2)


def _play(
    value: str, tags: list[tuple[str, str]], sections: list[str], state: dict[str, object]
) -> None:
    declarer = state.get("declarer")
    if not isinstance(declarer, str):
        raise _Unreadable("a play needs a contract and declarer")
    trump = state.get("trump")
    leader = _SEATS[(_SEATS.index(declarer) + 1) % 4]
    first = leader
    tricks: list[dict[str, str]] = []
    for trick_text in value.replace(";", ":").split(":"):
        cards = re.findall(r"[SHDC]?[AKQJT98765432]", _ANNOTATION.sub("", trick_text))
        if not cards:
            continue
        led_suit = cards[0][0] if len(cards[0]) == 2 else None
        if led_suit is None:
            raise _Unreadable("a trick's lead names its suit")
        full = [card if len(card) == 2 else led_suit + card for card in cards]
        seats = [_SEATS[(_SEATS.index(leader) + step) % 4] for step in range(len(full))]
        tricks.append(dict(zip(seats, full, strict=True)))
        if len(full) == 4:
            leader = seats[_winner(full, trump if isinstance(trump, str) else None)]
    lines = []
    order = [_SEATS[(_SEATS.index(first) + step) % 4] for step in range(4)]
    for trick in tricks:
        lines.append(" ".join(trick.get(seat, "-") for seat in order))
    sections.append(f'[Play "{first}"]\n' + "\n".join(lines) + "\n")


def _winner(cards: list[str], trump: str | None) -> int:
    best = 0
    order = "23456789TJQKA"
    for index, card in enumerate(cards[1:], start=1):
        top = cards[best]
        higher = card[0] == top[0] and order.index(card[1]) > order.index(top[1])
        if higher or (card[0] == trump and top[0] != trump):
            best = index
    return best


def _result(
    value: str, tags: list[tuple[str, str]], sections: list[str], state: dict[str, object]
) -> None:
    text, _, effective = value.partition(":")
    if text.upper() == "P":
        if not any(tag == "Contract" for tag, _ in tags):
            tags.append(("Contract", "Pass"))
        return
    found = re.fullmatch(r"([0-9]{1,2})([+-][0-9]+)?", text)
    if found is None or int(found.group(1)) > 13:
        raise _Unreadable("R is tricks, then the signed NS score")
    tags.append(("Result", found.group(1)))
    if found.group(2):
        tags.append(("Score", f"NS {int(found.group(2))}"))
    if re.fullmatch(r"[0-9]+(\.[0-9]+)?", effective):
        tags.append(("ScorePercentage", f"NS {effective}"))
    elif re.fullmatch(r"[+-][0-9]+", effective):
        tags.append(("ScoreIMP", f"NS {int(effective)}"))


_LABEL_READERS = {
    "D": _date,
    "L": _simple("Site"),
    "E": _simple("Event"),
    "S": _simple("Stage"),
    "F": _scoring,
    "K": _teams,
    "N": _names,
    "B": _board_number,
    "H": _hands,
    "A": _auction,
    "C": _contract,
    "P": _play,
    "R": _result,
}


# --- detection -----------------------------------------------------------------------------


def sniff(head: bytes, name: str) -> int:
    """Every non-blank line that is not a ``{`` paragraph or ``%`` comment is ``L data`` with
    an RBN label, and one is an ``H X:`` line (a cut last line is not looked at)."""
    text = head.decode("latin-1")
    lines = text.split("\n")
    if len(head) >= (1 << 16):
        lines = lines[:-1]
    labelled = stray = 0
    has_hands = False
    in_paragraph = False
    for line in lines:
        line = line.rstrip("\r")
        if in_paragraph:
            in_paragraph = not line.rstrip().endswith("}")
            continue
        if not line.strip() or line.startswith("%"):
            continue
        if line.startswith("{"):
            in_paragraph = not line.rstrip().endswith("}")
            continue
        found = _LINE.fullmatch(line)
        if found is None or found.group(1) not in LABELS:
            stray += 1
            continue
        labelled += 1
        has_hands = has_hands or re.match(r"H [NESW][:;]", line) is not None
    if not labelled or not has_hands:
        return 0
    named = name_suffix(name) == ".rbn"
    if stray:  # a damaged file is taken only when its name says so
        return STRUCTURE - 20 if named and stray < labelled else 0
    return STRUCTURE + (5 if named else 0)


def sniff_rbx(head: bytes, name: str) -> int:
    """Every non-blank line is ``L{data}`` groups, with an ``H{X:`` group."""
    text = head.decode("latin-1")
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if len(head) >= (1 << 16):
        lines = lines[:-1]
    if not lines:
        return 0
    for line in lines:
        if not re.fullmatch(r"(?:[A-Z0-9%]\{[^}]*\})+", line):
            return 0
    if not any(re.search(r"H\{[NESW]:", line) for line in lines):
        return 0
    return STRUCTURE + (5 if name_suffix(name) == ".rbx" else 0)


# --- writing -------------------------------------------------------------------------------

_WRITTEN_TAGS = frozenset(
    {"Date", "Site", "Event", "Stage", "Scoring", "HomeTeam", "VisitTeam", "North", "South",
     "West", "East", "Room", "Table", "Board", "Section", "Deal", "Dealer", "Vulnerable",
     "Auction", "Play", "Contract", "Declarer", "Result", "Score", "ScorePercentage",
     "ScoreIMP"}
)  # fmt: skip
_UNKNOWN = frozenset({"", "?", "-", "#"})


def _known(board: Board, tag: str) -> str:
    value = " ".join((board.tag(tag) or "").split())
    return "" if value in _UNKNOWN else value


def _escape(text: str) -> str:
    return text  # the value's colons are RBN's own general:specific separators


def rbn_lines(board: Board) -> tuple[list[tuple[str, str]], list[str]]:
    """The labelled values of a board, and what could not be written."""
    lines: list[tuple[str, str]] = []
    lost: list[str] = []
    date = _known(board, "Date")
    if date:
        lines.append(("D", date.replace(".", "").replace("?", "?")[:8].rstrip("?")))
    for label, tag in (("L", "Site"), ("E", "Event"), ("S", "Stage")):
        if _known(board, tag):
            lines.append((label, _escape(_known(board, tag))))
    scoring = _known(board, "Scoring").split(";")[0].upper()
    if scoring in _SCORING_LETTER:
        lines.append(("F", _SCORING_LETTER[scoring]))
    elif scoring:
        lost.append("Scoring")
    if _known(board, "HomeTeam") or _known(board, "VisitTeam"):
        lines.append(
            ("K", f"{_escape(_known(board, 'HomeTeam'))}:{_escape(_known(board, 'VisitTeam'))}")
        )
    names = [
        _known(board, seat).replace("+", " ").replace(":", " ")
        for seat in ("North", "South", "West", "East")
    ]
    room = {"open": "O", "closed": "C"}.get(_known(board, "Room").lower(), "")
    room = room or (_known(board, "Table") if _known(board, "Table").isdigit() else "")
    if any(names) or room:
        pairs = f"{names[0]}+{names[1]}:{names[2]}+{names[3]}".replace(":+", ":").strip("+")
        lines.append(("N", f"{'' if not any(names[:2]) else names[0] + '+' + names[1]}:"
                           f"{'' if not any(names[2:]) else names[2] + '+' + names[3]}"
                           + (f":{room}" if room else "")))  # fmt: skip
        del pairs
    if board.number is not None:
        section = _known(board, "Section")
        lines.append(("B", f"{board.number}" + (f":{section}" if section else "")))
    if board.deal is not None and board.deal.is_complete:
        hands = [str(board.deal.hands[seat]) for seat in (Seat.NORTH, Seat.EAST, Seat.SOUTH)]
        lines.append(("H", "N:" + ":".join(hands) + ":"))
    elif board.deal is not None:
        hands = ["" if hand is None else str(hand) for hand in board.deal.hands]
        lines.append(("H", "N:" + ":".join(hands)))
    auction = _auction_text(board, lost)
    if auction:
        lines.append(("A", auction))
    contract = _contract_text(board)
    if contract:
        lines.append(("C", contract))
    play = _play_text(board, lost)
    if play:
        lines.append(("P", play))
    result = _result_text(board)
    if result:
        lines.append(("R", result))
    lost += [
        tag.name
        for tag in board.tags
        if tag.name not in _WRITTEN_TAGS and not tag.duplicate and tag.value.strip() not in _UNKNOWN
    ]
    lost += [table.name for table in board.tables]
    return lines, list(dict.fromkeys(lost))


def _auction_text(board: Board, lost: list[str]) -> str:
    dealer = board.dealer or (board.auction.first if board.auction else None)
    if dealer is None or board.vulnerability is None:
        return ""
    head = dealer.letter + _VUL_LETTER[board.vulnerability]
    if board.auction is None:
        return head
    words: list[str] = []
    for call in board.auction.calls:
        if isinstance(call, Bid):
            words.append(
                f"{call.level}{'N' if call.strain is Strain.NOTRUMP else call.strain.letter}"
            )
        elif call is Action.PASS:
            words.append("P")
        elif call is Action.DOUBLE:
            words.append("X")
        elif call is Action.REDOUBLE:
            words.append("R")
        else:
            lost.append("auction placeholders")
            break
    if board.auction.annotations or board.auction.notes:
        lost.append("auction annotations and notes")
    if board.auction.end is SectionEnd.STOP and not auction_outcome(board.auction).complete:
        lost.append("the '*' that ends an unfinished auction")
    ending = ""
    bids = any(word[0].isdigit() for word in words)
    tail = 3 if bids else 4
    if len(words) >= tail and all(word == "P" for word in words[-tail:]):
        words, ending = words[:-tail], "A"
    groups = ["".join(words[start : start + 4]) for start in range(0, len(words), 4)]
    if ending and groups and len(words) % 4:
        groups[-1] += ending  # "A" closes the last round of calls
    elif ending:
        groups.append(ending)
    return head + ":" + ":".join(groups)


def _contract_text(board: Board) -> str:
    contract = board.contract
    if contract is None:
        return ""
    if contract.is_passed_out:
        return ""
    if contract.level is None or contract.strain is None or board.declarer is None:
        return ""
    strain = "N" if contract.strain is Strain.NOTRUMP else contract.strain.letter
    doubled = ("", "X", "R")[contract.doubling]
    return f"{contract.level}{strain}{doubled}:{board.declarer.letter}"


def _play_text(board: Board, lost: list[str]) -> str:
    from pbntool.rules import seated_tricks, sequence_play, trump_of

    if board.play is None or board.contract is None:
        return ""
    if not _contract_text(board) or board.declarer is None:
        # RBN's reader seats the play from the C line's declarer: with none, it is lost.
        if board.play.card_count:
            lost.append("the play (no contract and declarer to seat it from)")
        return ""
    try:
        known, trump = trump_of(board.contract)
        ordered = sequence_play(board.play, trump)
        if not known:
            ordered = ordered[:1]
    except Exception:
        lost.append("the play")
        return ""
    kept = seated_tricks(ordered, board.declarer.lho, trump)
    if kept < len(ordered):
        # RBN has no seat per card: the reader seats them from declarer's left and the
        # trick winners, so the tricks from a lead out of turn on would be misplaced.
        lost.append(
            f"the play from trick {ordered[kept].number + 1} on (led by "
            f"{ordered[kept].leader.name_title}, out of turn)"
        )
        ordered = ordered[:kept]
    tricks = []
    for trick in ordered:
        slots = [slot for _, slot in trick.cards]
        cards = []
        for slot in slots:
            if not isinstance(slot, Card):
                break
            cards.append(slot)
        if len(cards) < len(slots) and any(isinstance(slot, Card) for slot in slots[len(cards) :]):
            lost.append("cards of the play after an unknown card")
        if not cards:
            break
        led = cards[0].suit
        tricks.append(
            str(cards[0])
            + "".join(card.rank.letter if card.suit is led else str(card) for card in cards[1:])
        )
        if len(cards) < 4:
            break
    if board.play.annotations or board.play.notes:
        lost.append("play annotations and notes")
    return ":".join(tricks)


def _result_text(board: Board) -> str:
    if board.contract is not None and board.contract.is_passed_out:
        return "P"
    if board.result is None:
        return ""
    text = str(board.result.tricks)
    score = board.score
    if score is not None:
        side = score.side or (board.declarer.side if board.declarer is not None else None)
        if side is not None:
            points = score.points if side is Side.NS else -score.points
            text += f"{points:+d}"
    return text


_LINE_BREAKS = re.compile(r"[\r\n]")
_SEATS_TAGS = frozenset({"North", "East", "South", "West"})
_NAME_MARKS = re.compile(r"[+:]")


def _unsafe(value: str, closing: str) -> bool:
    return _LINE_BREAKS.search(value) is not None or (bool(closing) and closing in value)


def _made_safe(value: str, closing: str) -> str:
    value = _LINE_BREAKS.sub(" ", value)
    return value.replace(closing, ")") if closing else value


class RbnWriter:
    """Writes RBN records, each ended by a blank line; brace commentary becomes ``{...}``
    paragraphs."""

    rbx = False

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        lines, lost = rbn_lines(board)
        paragraphs = [c.text.strip() for c in board.commentary if c.kind is CommentKind.BRACE]
        if any(c.kind is CommentKind.LINE for c in board.commentary):
            lost.append("line comments")
        # A value is one line (a line break would start another label, or end the record),
        # and an RBX value cannot hold "}": such characters are replaced, and said so.
        closing = "}" if self.rbx else ""
        spread = [
            t.name for t in board.tags if t.name in _WRITTEN_TAGS and _LINE_BREAKS.search(t.value)
        ]
        if spread:
            lost.append(
                "line breaks in " + ", ".join(dict.fromkeys(spread)) + " (written as spaces)"
            )
        names = [
            t.name for t in board.tags if t.name in _SEATS_TAGS and _NAME_MARKS.search(t.value)
        ]
        if names:
            lost.append("'+' or ':' in the names of " + ", ".join(names) + " (written as spaces)")
        changed = sorted({label for label, value in lines if _unsafe(value, closing)})
        if changed:
            lines = [(label, _made_safe(value, closing)) for label, value in lines]
            lost.append("line breaks" + (" or '}'" if self.rbx else "") + " in the "
                        + ", ".join(changed) + " line(s) (replaced)")  # fmt: skip
        if self.rbx:
            text = "".join(f"{label}{{{value}}}" for label, value in lines)
            self._stream.write(text + "\n")
            if paragraphs:
                lost.append("commentary")
        else:
            if any(p != " ".join(p.split()).replace("}", ")") for p in paragraphs):
                lost.append("line breaks or '}' in commentary (replaced)")
            text = "".join(f"{label} {value}\n" for label, value in lines)
            text += "".join("{" + " ".join(p.split()).replace("}", ")") + "}\n" for p in paragraphs)
            self._stream.write(text + "\n")
        if lost:
            return [
                OUT020.at(
                    ("tag", "Board"), format="RBX" if self.rbx else "RBN", what=", ".join(lost)
                )
            ]
        return []

    def close(self) -> None:
        """RBN has no ending."""

    def begin(self) -> None:
        """RBN has no header."""

    def resume(self) -> None:
        """RBN has no header."""


class RbxWriter(RbnWriter):
    """Writes RBX: one record per line of ``L{data}`` groups."""

    rbx = True
