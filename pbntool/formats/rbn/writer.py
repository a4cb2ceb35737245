"""Writing RBN and RBX: a board as labelled values in the usual order ``D T L E F S K N B H A
C P R M I`` (notes after their ``A`` or ``P`` line, a general note last), its commentary after
the line of the tag it follows, and what RBN cannot hold as one OUT020 finding.

A value kept as written in an ``Rbn…`` tag (``RbnHands`` for ``H``: see ``reader.py``) is
written back while what it says agrees with the board's own tags; otherwise the tags are
written and the stale tag is reported.  The labels ``D T L E S F K N B H`` carry over: a
writer leaves one out when it is the previous record's value, and writes it empty when the
board has none but the previous record had one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TextIO

from pbntool.diagnostics import OUT020, Diagnostic
from pbntool.formats.rbn.reader import RAW_TAGS, SCORING, board_of_values
from pbntool.formats.rbn.syntax import BOARD_LABELS, CARRIED, Item
from pbntool.model import (
    Action,
    Annotation,
    Bid,
    Board,
    Card,
    Comment,
    CommentKind,
    Note,
    Seat,
    SectionEnd,
    Side,
    Strain,
    Token,
    Vulnerability,
)
from pbntool.notation import CARDS_PER_HAND, TRICKS_PER_DEAL
from pbntool.rules import auction_outcome

__all__ = ["ORDER", "RbnWriter", "RbxWriter", "rbn_items"]

ORDER = "DTLEFSKNBHACPRMI0"
"""The order labels are written in (RBN's usual order; a general note last)."""

LABEL_TAGS: dict[str, tuple[str, ...]] = {
    "D": ("Date", "Time", "UTCTime"),
    "T": (),
    "L": ("Site",),
    "E": ("Event",),
    "S": ("Stage", "Round"),
    "F": ("Scoring",),
    "K": ("HomeTeam", "VisitTeam"),
    "N": ("North", "South", "West", "East", "Room", "Table"),
    "B": ("Board", "Section"),
    "H": ("Deal",),
    "A": ("Dealer", "Vulnerable", "Auction", "Note"),
    "C": ("Contract", "Declarer"),
    "P": ("Play",),
    "R": ("Result", "Score", "ScoreIMP", "ScorePercentage"),
    "M": ("DoubleDummyTricks",),
    "I": (),
    "0": (),
}
"""The PBN tags each label is made from (and its ``Rbn…`` tag); their comments follow it."""

_TAG_LABEL = {tag: label for label, tags in LABEL_TAGS.items() for tag in tags}
_TAG_LABEL.update({tag: label for label, tag in RAW_TAGS.items()})
_UNKNOWN = frozenset({"", "?", "-", "#"})
_VUL_LETTER = {
    Vulnerability.NONE: "Z",
    Vulnerability.NS: "N",
    Vulnerability.EW: "E",
    Vulnerability.ALL: "B",
}
_SCORING_LETTER = {value.upper(): letter for letter, value in SCORING.items()}
_SCORING_LETTER["MATCHPOINTS"] = "M"
_SUFFIX = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}
_SEATS = "NESW"
_HEX = "0123456789ABCD"


@dataclass(frozen=True, slots=True)
class Out:
    """One thing of a record as written: a labelled value, a paragraph or a comment."""

    kind: str
    text: str
    label: str = ""


# --- the board as labelled values ------------------------------------------------------------


def _known(board: Board, tag: str) -> str:
    """A tag's value with its spaces made single ("" when unknown): for values with a syntax."""
    value = " ".join((board.tag(tag) or "").split())
    return "" if value in _UNKNOWN else value


def _text(board: Board, tag: str) -> str:
    """A tag's value as written ("" when unknown): for free text (names, titles)."""
    value = (board.tag(tag) or "").translate(_ONE_LINE)
    return "" if value.strip() in _UNKNOWN else value


_ONE_LINE = str.maketrans({"\n": " ", "\r": " ", "\t": " "})


@dataclass
class _Notes:
    """A section's notes as RBN numbers them (1-9)."""

    numbers: dict[int, int]
    lines: list[tuple[str, str]]


def _notes(notes: Sequence[Note], lost: list[str], section: str) -> _Notes:
    indices = [note.index for note in notes]
    if all(1 <= index <= 9 for index in indices):
        numbers = {index: index for index in indices}
    else:  # RBN numbers notes 1-9: renumbered in order
        numbers = {index: place for place, index in enumerate(indices[:9], start=1)}
        if len(indices) > 9:
            lost.append(f"{section} notes after the ninth")
    lines = [(str(numbers[note.index]), note.text) for note in notes if note.index in numbers]
    return _Notes(numbers, lines)


def _annotation_text(
    annotation: Annotation | None, notes: _Notes, card: bool, lost: list[str], section: str
) -> str:
    if annotation is None:
        return ""
    base = 6 if card else 0
    suffixes = [_SUFFIX[nag - base] for nag in annotation.nags if nag - base in _SUFFIX]
    text = suffixes[0] if suffixes else ""
    if len(annotation.nags) > (1 if suffixes else 0):
        lost.append(f"{section} NAGs other than one ! ? !! ?? !? ?!")
    if annotation.irregularity:
        lost.append(f"{section} irregularity marks")
    if annotation.note is not None:
        number = notes.numbers.get(annotation.note)
        if number is None and 1 <= annotation.note <= 9:
            number = annotation.note
        if number is None:
            lost.append(f"{section} note references RBN cannot number (0, or after the ninth)")
        else:
            text += f"^{number}"
    return text


def _date_text(board: Board, lost: list[str]) -> str:
    date = _known(board, "Date")
    text = ""
    if date:
        found = re.fullmatch(r"([0-9?]{4})\.([0-9?]{2})\.([0-9?]{2})", date)
        if found is None:
            lost.append("Date")
        else:
            text = "".join(found.groups())
            while text.endswith("??") and len(text) > 4:
                text = text[:-2]
            text = "" if text == "????" else text
    time, mark = _known(board, "Time"), ""
    if not time:
        time, mark = _known(board, "UTCTime"), "G"
    elif _known(board, "UTCTime"):
        lost.append("UTCTime")
    found_time = re.fullmatch(r"([0-9]{2}):([0-9]{2}):([0-9]{2})", time)
    if time and found_time is None:
        lost.append("Time" if not mark else "UTCTime")
    elif found_time is not None:
        text = (text or "????") + ":" + "".join(found_time.groups()) + mark
    return text


def _session_text(board: Board) -> str:
    stage, round_ = _text(board, "Stage"), _text(board, "Round")
    text = stage.replace(":", "::")
    if round_:
        text += ":" + round_
    return text


def _scoring_text(board: Board, lost: list[str]) -> str:
    scoring = _known(board, "Scoring")
    if not scoring:
        return ""
    base, *modifiers = [part.strip() for part in scoring.split(";")]
    upper = [modifier.upper() for modifier in modifiers]
    if base.upper() == "IMP" and any(m.startswith(("BUTLER", "CROSS")) for m in upper):
        butler = next((m for m in upper if m.startswith("BUTLER")), None)
        if len(modifiers) > 1 or upper[0] not in ("BUTLER", "CROSS"):
            lost.append(f"the Scoring modifier(s) {';'.join(modifiers)}")
        return "X:Butler" if butler else "X"
    letter = _SCORING_LETTER.get(base.upper())
    if letter is None:
        lost.append("Scoring")
        return ""
    if modifiers:
        lost.append(f"the Scoring modifier(s) {';'.join(modifiers)}")
    return letter


def _names_text(board: Board, lost: list[str]) -> str:
    names = []
    for seat in ("North", "South", "West", "East"):
        name = _text(board, seat)
        if "+" in name or ":" in name:
            lost.append(f"a + or : in the name of {seat} (written as a space)")
            name = name.replace("+", " ").replace(":", " ")
        names.append(name)
    room = {"open": "O", "closed": "C"}.get(_known(board, "Room").lower(), "")
    table = _known(board, "Table")
    if _known(board, "Room") and not room:
        lost.append("Room")
    if table and (room or not (table.isdigit() and 1 <= int(table) <= 250)):
        lost.append("Table")
    else:
        room = room or table
    if not any(names) and not room:
        return ""
    north_south = "" if not any(names[:2]) else f"{names[0]}+{names[1]}"
    west_east = "" if not any(names[2:]) else f"{names[2]}+{names[3]}"
    return f"{north_south}:{west_east}" + (f":{room}" if room else "")


def _board_text(board: Board) -> str:
    number = _known(board, "Board")
    if not number and board.number is not None:
        number = str(board.number)
    section = _text(board, "Section")
    if not number:
        return ""
    return number + (f":{section}" if section else "")


def _hands_text(board: Board) -> str:
    deal = board.deal
    if deal is None or not any(deal.hands):
        return ""
    first = board.dealer if board.dealer is not None else Seat.NORTH
    seats = [first.next(step) for step in range(4)]
    if all(
        hand is not None and len(hand) == CARDS_PER_HAND for hand in deal.hands
    ):  # the 4th: the rest
        return first.letter + ":" + ":".join(str(deal.hands[seat]) for seat in seats[:3]) + ":"
    hands = ["" if deal.hands[seat] is None else str(deal.hands[seat]) for seat in seats]
    return first.letter + ":" + ":".join(hands)


def _auction_text(board: Board, lost: list[str]) -> tuple[str, list[tuple[str, str]]]:
    auction = board.auction
    dealer = board.dealer
    if dealer is None and auction is not None:
        dealer = auction.first
    if dealer is None:
        if auction is not None:
            lost.append("the auction")
        if board.vulnerability is not None:
            lost.append("Vulnerable (RBN gives it with the dealer)")
        return "", []
    vulnerability = board.vulnerability
    head = dealer.letter + (_VUL_LETTER[vulnerability] if vulnerability is not None else "?")
    if auction is None:
        return head, []  # no colon: no auction (NZ: is an auction of no calls yet)
    notes = _notes(auction.notes, lost, "auction")
    words: list[str] = []
    plain: list[bool] = []
    for index, call in enumerate(auction.calls):
        if isinstance(call, Token):
            lost.append("auction entries that are not calls (and the calls after them)")
            break
        if isinstance(call, Bid):
            word = f"{call.level}{'N' if call.strain is Strain.NOTRUMP else call.strain.letter}"
        else:
            word = {Action.PASS: "P", Action.DOUBLE: "X", Action.REDOUBLE: "R"}[call]
        annotation = auction.annotation(index)
        words.append(word + _annotation_text(annotation, notes, False, lost, "auction"))
        plain.append(annotation is None or _bare(annotation))
    if auction.end is SectionEnd.STOP and not auction_outcome(auction).complete:
        lost.append("the '*' that ends an unfinished auction")
    ending = ""
    bids = any(word[0].isdigit() for word in words)
    tail = 3 if bids else 4
    last = words[-tail:]
    if len(words) >= tail and all(w == "P" for w in last) and all(plain[-tail:]):
        words, ending = words[:-tail], "A"
    groups = ["".join(words[start : start + 4]) for start in range(0, len(words), 4)]
    if ending and groups and len(words) % 4:
        groups[-1] += ending  # "A" closes the last round of calls
    elif ending:
        groups.append(ending)
    return head + ":" + ":".join(groups), notes.lines


def _bare(annotation: Annotation) -> bool:
    return annotation.note is None and not annotation.nags and annotation.irregularity is None


def _contract_text(board: Board, lost: list[str]) -> str:
    contract = board.contract
    if contract is None or contract.is_passed_out:
        return ""
    if contract.strain is None or board.declarer is None:
        lost.append("Contract (RBN gives it with its declarer)")
        return ""
    strain = "N" if contract.strain is Strain.NOTRUMP else contract.strain.letter
    doubled = ("", "X", "R")[contract.doubling]
    level = "" if contract.level is None else str(contract.level)
    if board.declarer_irregular:
        lost.append("the ^ of a declarer who is not the one the auction gives")
    text = f"{level}{strain}{doubled}:{board.declarer.letter}"
    if board.play is not None and board.play.first is not board.declarer.next(1):
        text += f":{board.play.first.letter}"  # an opening lead out of turn, or an end position
    return text


def _play_text(board: Board, lost: list[str]) -> tuple[str, list[tuple[str, str]]]:
    from pbntool.rules import seated_tricks, sequence_play, trump_of

    play = board.play
    if play is None:
        return "", []
    if board.contract is None or board.declarer is None:
        lost.append("the play (RBN needs a contract and declarer)")
        return "", []
    notes = _notes(play.notes, lost, "play")
    try:
        known, trump = trump_of(board.contract)
        ordered = sequence_play(play, trump)
        if not known:
            ordered = ordered[:1]
    except Exception:
        lost.append("the play")
        return "", []
    kept = seated_tricks(ordered, play.first, trump)  # the C line names a first leader
    if kept < len(ordered):
        # RBN has no seat per card: its reader seats them from declarer's left and the trick
        # winners, so the tricks from a lead out of turn on would be read on wrong seats.
        lost.append(
            f"the play from trick {ordered[kept].number + 1} on (led by "
            f"{ordered[kept].leader.name_title}, out of turn)"
        )
        ordered = ordered[:kept]
    tricks = []
    for trick in ordered:
        cards: list[tuple[Seat, Card]] = []
        for seat, slot in trick.cards:
            if not isinstance(slot, Card):
                break
            cards.append((seat, slot))
        if len(cards) < 4 and any(isinstance(slot, Card) for _, slot in trick.cards[len(cards) :]):
            lost.append("cards of the play after an unknown card")
        if not cards:
            break
        led = cards[0][1].suit
        text = ""
        for position, (seat, card) in enumerate(cards):
            shown = card.rank.letter if position and card.suit is led else str(card)
            annotation = play.annotation(trick.number, seat)
            text += shown + _annotation_text(annotation, notes, True, lost, "play")
        tricks.append(text)
        if len(cards) < 4:
            break
    shown_tricks = len(tricks)
    if shown_tricks < sum(1 for row in play.tricks if any(isinstance(s, Card) for s in row)):
        lost.append("tricks of the play after one that cannot be followed")
    # PBN's * (no more cards will be given: a claim) is RBN's ; (the rest is trivial).
    ending = ";" if play.end is SectionEnd.STOP and tricks else ""
    return ":".join(tricks) + ending, notes.lines


def _result_text(board: Board, lost: list[str]) -> str:
    if board.contract is not None and board.contract.is_passed_out:
        text = "P"
    elif board.result is None:
        stated = [tag for tag in ("Score", "ScoreIMP", "ScorePercentage") if _known(board, tag)]
        if stated:
            lost.append(f"{', '.join(stated)} (RBN gives a score after the tricks)")
        return ""
    else:
        text = str(board.result.tricks)
        score = board.score
        if score is not None:
            side = score.side
            if side is None and board.declarer is not None:
                side = board.declarer.side
            if side is not None:
                points = score.points if side is Side.NS else -score.points
                text += f"{points:+d}"
            else:
                lost.append("Score")
    imps = _side_number(board, "ScoreIMP")
    percentage = _side_number(board, "ScorePercentage")
    for tag, value in (("ScoreIMP", imps), ("ScorePercentage", percentage)):
        if value is None and _known(board, tag):
            lost.append(f"{tag} (not a number for one side)")
    if imps is not None:
        text += ":=" if imps == "0" else f":{imps if imps.startswith('-') else '+' + imps}"
        if percentage is not None:
            lost.append("ScorePercentage (RBN gives one effective score)")
    elif percentage is not None:
        if percentage.startswith("-"):
            lost.append("ScorePercentage")
        else:
            text += f":{percentage}"
    return text


def _side_number(board: Board, tag: str) -> str | None:
    """A ``ScoreIMP``/``ScorePercentage`` value for NS, as written (None when absent)."""
    value = _known(board, tag)
    if not value:
        return None
    found = re.fullmatch(r"(?:(NS|EW) )?(-?[0-9]+(?:\.[0-9]+)?)", value)
    if found is None:
        return None
    side, number = found.groups()
    if side is None:
        side = "EW" if board.declarer is not None and board.declarer.side is Side.EW else "NS"
    if side == "EW" and tag == "ScoreIMP":
        number = number[1:] if number.startswith("-") else "-" + number
    elif side == "EW":
        number = _complement(number)
    if tag == "ScoreIMP" and re.fullmatch(r"-?0+(\.0+)?", number):
        return "0"
    return number


def _complement(number: str) -> str:
    """100 less an EW percentage, written with its decimals."""
    places = len(number.split(".")[1]) if "." in number else 0
    return f"{100 - float(number):.{places}f}"


def _makes_text(board: Board) -> tuple[str, str | None]:
    """The ``M`` value, and the table it was made from (None: the DoubleDummyTricks tag)."""
    digits: str | None = _known(board, "DoubleDummyTricks").upper()
    table = None
    if digits is None or not re.fullmatch(r"[0-9A-D]{20}", digits):
        digits, table = _result_table_digits(board), "OptimumResultTable"
    if digits is None:
        return "", None
    tricks = [_HEX.index(digit) for digit in digits]
    north, south, east, west = (tricks[start : start + 5] for start in range(0, 20, 5))

    def five(values: list[int]) -> str:
        return "".join(_HEX[value] for value in values)

    ns = five(north) + ("=" if south == north else "+" + five(south))
    ew = "!" if west == [TRICKS_PER_DEAL - value for value in north] else five(west)
    if east == [TRICKS_PER_DEAL - value for value in south]:
        ew += "!"
    elif east == west:
        ew += "="
    else:
        ew += "+" + five(east)
    return f"::{ns}:{ew}", table


def _result_table_digits(board: Board) -> str | None:
    table = next((t for t in board.tables if t.name == "OptimumResultTable"), None)
    if table is None:
        return None
    names = [column.name for column in table.columns]
    if not {"Declarer", "Denomination", "Result"} <= set(names):
        return None
    cells: dict[tuple[str, str], int] = {}
    for row in table.rows:
        values = dict(zip(names, row, strict=False))
        result = values.get("Result", "")
        if not result.isdigit() or int(result) > TRICKS_PER_DEAL:
            return None
        cells[values.get("Declarer", ""), values.get("Denomination", "").upper()] = int(result)
    try:
        return "".join(
            _HEX[cells[seat, strain]] for seat in "NSEW" for strain in ("NT", "S", "H", "D", "C")
        )
    except KeyError:
        return None


@dataclass
class _Values:
    """A board's labelled values, the notes of its auction and play, and what was lost."""

    values: dict[str, str]
    auction_notes: list[tuple[str, str]]
    play_notes: list[tuple[str, str]]
    lost: list[str]
    tables: frozenset[str]
    """Tables written (the OptimumResultTable an ``M`` was made from)."""


def _derived(board: Board) -> _Values:
    lost: list[str] = []
    values = {
        "D": _date_text(board, lost),
        "T": _text(board, RAW_TAGS["T"]),
        "L": _text(board, "Site"),
        "E": _text(board, "Event"),
        "S": _session_text(board),
        "F": _scoring_text(board, lost),
        "K": _teams_text(board),
        "N": _names_text(board, lost),
        "B": _board_text(board),
        "H": _hands_text(board),
    }
    values["A"], auction_notes = _auction_text(board, lost)
    values["C"] = _contract_text(board, lost)
    values["P"], play_notes = _play_text(board, lost)
    values["R"] = _result_text(board, lost)
    values["M"], table = _makes_text(board)
    values["I"] = _text(board, RAW_TAGS["I"])
    values["0"] = _text(board, RAW_TAGS["0"])
    tables = frozenset({table} if table else ())
    return _Values(
        {label: value for label, value in values.items() if value},
        auction_notes,
        play_notes,
        lost,
        tables,
    )


def _teams_text(board: Board) -> str:
    home, visit = _text(board, "HomeTeam"), _text(board, "VisitTeam")
    if not home and not visit:
        return ""
    return f"{home.replace(':', ' ')}:{visit.replace(':', ' ')}"


def _standard(label: str, raw: str, values: dict[str, str]) -> str:
    """What the board's tags would say of a value kept as written: the record read with that
    value in place of the board's own, and the label written again."""
    record = {**values, label: raw}
    items = [Item("label", record[name], 1, name) for name in ORDER if name in record]
    board, _ = board_of_values({item.label: item for item in items}, items)
    if board is None:
        return ""
    return _derived(board).values.get(label, "")


def rbn_items(board: Board) -> tuple[list[Out], list[str]]:
    """The board as RBN: its values and commentary in order, and what could not be written."""
    derived = _derived(board)
    values, lost = derived.values, derived.lost
    for label, tag in RAW_TAGS.items():
        raw = board.tag(tag)
        if raw is None or label in ("T", "I", "0") or not raw.strip():
            continue
        if _standard(label, raw, values) == values.get(label, ""):
            values[label] = raw
        else:
            lost.append(f"the {tag} tag (it no longer agrees with the board's tags)")
    comments, leading, trailing = _comments(board, lost)
    out: list[Out] = [_comment_out(comment, lost) for comment in leading]
    for label in ORDER:
        value = values.get(label)
        if value is not None:
            out.append(Out("label", value, label))
        notes = {"A": derived.auction_notes, "P": derived.play_notes}.get(label, [])
        if value is not None:
            out.extend(Out("label", text, number) for number, text in notes)
        out.extend(_comment_out(comment, lost) for comment in comments.get(label, []))
    out.extend(_comment_out(comment, lost) for comment in trailing)
    written = {*_TAG_LABEL, *derived.tables}
    lost += [
        tag.name
        for tag in board.tags
        if tag.name not in written and not tag.duplicate and tag.value.strip() not in _UNKNOWN
    ]
    lost += [table.name for table in board.tables if table.name not in derived.tables]
    return out, list(dict.fromkeys(lost))


def _comments(
    board: Board, lost: list[str]
) -> tuple[dict[str, list[Comment]], list[Comment], list[Comment]]:
    """The board's commentary: after which label, before the first, after the last."""
    from pbntool.formats.pbn.writer import is_header_escape

    by_label: dict[str, list[Comment]] = {}
    trailing: list[Comment] = []
    for tag in board.tags:
        if tag.name == "Note":
            continue  # a note's commentary is the note's own (below)
        label = _TAG_LABEL.get(tag.name)
        target = trailing if label is None else by_label.setdefault(label, [])
        target.extend(tag.comments)
    for section, label in ((board.auction, "A"), (board.play, "P")):
        if section is None:
            continue
        inside: list[Comment] = list(section.comments)
        annotations = list(section.annotations)
        for number, (_, annotation) in enumerate(annotations):
            if annotation.comments and number < len(annotations) - 1:
                lost.append(f"the places of commentary inside the {_SECTION[label]}")
            inside.extend(annotation.comments)
        for note in section.notes:
            inside.extend(note.comments)
        by_label.setdefault(label, [])[:0] = inside
    for table in board.tables:
        if not any(tag.name == table.name and tag.comments for tag in board.tags):
            trailing.extend(table.comments)  # (a table's tag holds them, when it has any)
    leading = [comment for comment in board.commentary if _own_comment(comment, is_header_escape)]
    return by_label, leading, trailing


def _own_comment(comment: Comment, header: Callable[[Comment], bool]) -> bool:
    """Commentary of the board's own, not a PBN file's header (``% PBN 2.1``, an empty ``%``)
    that a PBN writer makes again."""
    if comment.kind is CommentKind.ESCAPE and not comment.text.strip():
        return False
    return not header(comment)


_SECTION = {"A": "auction", "P": "play"}


def _comment_out(comment: Comment, lost: list[str]) -> Out:
    if comment.kind is CommentKind.ESCAPE:
        if _LINE_BREAK.search(comment.text):
            lost.append("line breaks in a % line (written as spaces)")
        return Out("comment", _LINE_BREAK.sub(" ", comment.text))
    paragraph = _paragraph(comment.text)
    written_lines = [line for line in comment.text.split("\n") if line.strip()]
    if paragraph.count("\n") + 1 != max(len(written_lines), 1):
        lost.append("line breaks in commentary before a [ or after a } (joined)")
    return Out("paragraph", paragraph)


def _paragraph(text: str) -> str:
    """Commentary as an RBN paragraph: its line breaks kept, but no blank line (it would end
    the record), no line but the last ending in ``}`` (it would end the paragraph) and no
    line starting with ``[`` (a reader would take the file for PBN)."""
    lines: list[str] = []
    for line in text.split("\n"):
        line = line.rstrip()
        if not line.strip():
            continue
        if lines and (lines[-1].endswith("}") or line.lstrip().startswith("[")):
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    if lines:
        lines[0] = lines[0].lstrip()
    return "\n".join(lines)


# --- the writers ---------------------------------------------------------------------------


class RbnWriter:
    """Writes RBN records, each ended by a blank line (see the module docstring).

    Not a ``FragmentWriter``: the carried labels make each record depend on the one before,
    so a file is written by one writer, in order."""

    rbx = False

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._carried: dict[str, str] = {}

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        items, lost = rbn_items(board)
        items = self._carry(items)
        text = self._render(items, lost)
        self._stream.write(text)
        if lost:
            what = ", ".join(dict.fromkeys(lost))
            return [OUT020.at(("tag", "Board"), format="RBX" if self.rbx else "RBN", what=what)]
        return []

    def _carry(self, items: list[Out]) -> list[Out]:
        """Leave out the carried values that the previous record gave, and write empty the
        ones it gave that this board has not.  A label with commentary after it stays, and so
        does ``H`` when the record would have no board label left (``B`` is always written)."""
        labels = {item.label for item in items if item.kind == "label"}
        follows = {
            index
            for index, item in enumerate(items)
            if item.kind == "label" and index + 1 < len(items) and items[index + 1].kind != "label"
        }
        blanks = [
            Out("label", "", label)
            for label in CARRIED
            if label in self._carried and label not in labels
        ]
        for label in CARRIED:
            if label not in labels:
                self._carried.pop(label, None)
        out: list[Out] = []
        skipped: dict[int, Out] = {}
        for index, item in enumerate(items):
            if item.kind == "label" and item.label in CARRIED:
                same = self._carried.get(item.label) == item.text
                self._carried[item.label] = item.text
                if same and index not in follows and item.label != "B":
                    skipped[index] = item
                    continue
            out.append(item)
        if not BOARD_LABELS & {item.label for item in out if item.kind == "label"}:
            hands = next((index for index, item in skipped.items() if item.label == "H"), None)
            if hands is not None:  # the same deal again, and nothing else of a board
                out = [
                    item
                    for index, item in enumerate(items)
                    if index not in skipped or index == hands
                ]
            elif not any(blank.label == "B" for blank in blanks):
                blanks.append(Out("label", "", "B"))  # a record with no board label is no board
        return _insert_blanks(out, blanks)

    def _render(self, items: Iterable[Out], lost: list[str]) -> str:
        lines = []
        for item in items:
            if item.kind == "label":
                lines.append(f"{item.label} {_one_line(item, lost)}")
            elif item.kind == "comment":
                lines.append("%" + item.text)
            else:
                lines.append("{" + item.text + "}")
        return "".join(line + "\n" for line in lines) + "\n"

    def close(self) -> None:
        """RBN has no ending."""


_LINE_BREAK = re.compile(r"\r\n|[\r\n]")


def _one_line(item: Out, lost: list[str]) -> str:
    """A label's value on its line: a line break would start another label (or end the
    record), so it is written as a space, and said so."""
    if _LINE_BREAK.search(item.text) is None:
        return item.text
    lost.append(f"line breaks in the {item.label} line (written as spaces)")
    return _LINE_BREAK.sub(" ", item.text)


def _insert_blanks(items: list[Out], blanks: list[Out]) -> list[Out]:
    """Empty carried values at their place in the label order."""
    if not blanks:
        return items
    out = list(items)
    for blank in blanks:
        rank = ORDER.index(blank.label)
        position = next(
            (
                index
                for index, item in enumerate(out)
                if item.kind == "label"
                and not item.label.isdigit()
                and ORDER.index(item.label) > rank
            ),
            len(out),
        )
        out.insert(position, blank)
    return out


class RbxWriter(RbnWriter):
    """Writes RBX: one record per line of ``L{data}`` groups, ``{text}`` paragraphs and
    ``%{text}`` comments (a ``}`` in a value cannot be written: it becomes ``)``)."""

    rbx = True

    def _render(self, items: Iterable[Out], lost: list[str]) -> str:
        groups = []
        for item in items:
            text = _one_line(item, lost) if item.kind == "label" else item.text
            if item.kind == "comment" and _LINE_BREAK.search(text):
                lost.append("line breaks in a % line (written as spaces)")
                text = _LINE_BREAK.sub(" ", text)
            if "}" in text:
                lost.append("a } in a value or comment (written as a parenthesis)")
                text = text.replace("}", ")")
            if item.kind == "label":
                groups.append(f"{item.label}{{{text}}}")
            elif item.kind == "comment":
                groups.append(f"%{{{text}}}")
            else:  # one line: a paragraph's line breaks become spaces
                groups.append(f"{{{' '.join(text.split())}}}")
        return "".join(groups) + "\n"
