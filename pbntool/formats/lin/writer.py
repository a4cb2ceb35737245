"""Boards as BBO-style LIN: one line per board, or a vugraph file for a match.

A board is written as BBO writes hand records (``pn st md rh ah sv mb an … pc … mc pg``):
hands in the fixed order S, W, N, E after the dealer digit, ranks descending, calls ``p d r
1C…7N`` with ``!`` for an alert (NAG 15) and ``an`` for an explanation (the call's note),
cards upper case, ``mc`` for a claim, ``pg`` after the auction and after each trick.  Boards
that carry a vugraph header (``lin vg|…|`` escape comments, from a LIN file) or room data (a
``Room`` tag) are written as a vugraph file: the ``vg``/``rs``/``pn`` header, then one ``qx``
table per board.  Commands the model kept as ``lin tag|value|`` comments are written back
where they stood.

LIN cannot carry everything PBN can: ``write`` returns one warning per kind of loss, naming
what was dropped (``docs/conversions.md`` lists them all).  No value ever contains ``|``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TextIO

from pbntool.diagnostics import OUT010, OUT011, OUT012, OUT013, OUT014, OUT015, OUT016, Diagnostic
from pbntool.formats.lin.decode import result_entry
from pbntool.formats.lin.values import HAND_ORDER
from pbntool.formats.pbn.writer import is_header_escape
from pbntool.model import (
    Action,
    Annotation,
    Auction,
    Bid,
    Board,
    Call,
    Card,
    Comment,
    CommentKind,
    Hand,
    Note,
    Seat,
    SectionEnd,
    Strain,
    Suit,
    Token,
    Vulnerability,
)
from pbntool.notation import ALERT_NAG, CARDS_PER_DEAL
from pbntool.rules import PlayedTrick, auction_outcome, seated_tricks, sequence_play, trump_of
from pbntool.scoring import board_dealer

__all__ = ["LinWriter", "WriteOptions", "dumps_board"]

_DEALER_DIGIT = {Seat.SOUTH: "1", Seat.WEST: "2", Seat.NORTH: "3", Seat.EAST: "4"}
_VULNERABILITY = {
    Vulnerability.NONE: "o",
    Vulnerability.NS: "n",
    Vulnerability.EW: "e",
    Vulnerability.ALL: "b",
}
_HEADER_TAGS = ("vg", "rs", "pn", "pw", "mp", "bn")
_SCORING_LETTER = {"IMP": "I", "MP": "P", "BAM": "B", "MATCHPOINTS": "P"}
_CARRIED_TAGS = frozenset(
    {"Board", "Dealer", "Vulnerable", "Deal", "Auction", "Play", "Note", "North", "East",
     "South", "West", "Room"}
)  # fmt: skip
_DERIVED_TAGS = frozenset({"Contract", "Declarer", "Result"})
_MATCH_TAGS = frozenset({"Event", "Stage", "Scoring", "HomeTeam", "VisitTeam"})
_UNKNOWN_VALUES = frozenset({"", "?", "-", "#"})


@dataclass(frozen=True, slots=True)
class WriteOptions:
    """How to write LIN.

    ``three_hands``: give South, West and North only, with BBO's trailing comma (East is the
    complement); the default writes all four, which every reader takes.
    """

    three_hands: bool = False


def _clean(text: str) -> tuple[str, bool]:
    """A value LIN can hold: no pipe, no line break.  Returns it and whether it changed."""
    cleaned = text.replace("|", "/").replace("\r", " ").replace("\n", " ")
    return cleaned, cleaned != text


@dataclass
class _Losses:
    """What one board lost in the conversion, gathered into one warning per kind."""

    tags: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    annotations: list[str] = field(default_factory=list)
    comments: int = 0
    calls: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    carried: set[str] = field(default_factory=set)
    """Which of Contract, Declarer and Result the LIN written carries (through a finished
    auction, a claim or a complete play), so that they are not losses."""

    def diagnostics(self) -> list[Diagnostic]:
        found = []
        if self.tags:
            found.append(OUT010.at(("tag", "Board"), names=", ".join(self.tags)))
        if self.tables:
            found.append(OUT011.at(("tag", "Board"), names=", ".join(self.tables)))
        if self.annotations:
            found.append(OUT012.at(("tag", "Board"), what=_summary(self.annotations)))
        if self.comments:
            found.append(OUT013.at(("tag", "Board"), count=self.comments))
        if self.calls:
            found.append(OUT014.at(("tag", "Auction"), what=_summary(self.calls)))
        if self.cards:
            found.append(OUT015.at(("tag", "Play"), what=_summary(self.cards)))
        if self.changed:
            found.append(OUT016.at(("tag", "Board"), what=_summary(self.changed)))
        return found


def _summary(items: list[str]) -> str:
    shown = ", ".join(items[:6])
    return shown + (f" and {len(items) - 6} more" if len(items) > 6 else "")


class _Line:
    """The pairs of one board (or header) being written."""

    def __init__(self, losses: _Losses) -> None:
        self.parts: list[str] = []
        self.losses = losses

    def pair(self, tag: str, value: str = "", what: str | None = None) -> None:
        cleaned, changed = _clean(value)
        if changed:
            self.losses.changed.append(what or f"{tag} value")
        self.parts.append(f"{tag}|{cleaned}|")

    def raw(self, text: str) -> None:
        """A kept command, written as it was (but for line breaks, which LIN ignores)."""
        self.parts.append(text.replace("\r", " ").replace("\n", " "))

    def page(self) -> None:
        """A page break for the viewer, never two in a row."""
        if not self.parts or self.parts[-1] != "pg||":
            self.parts.append("pg||")

    def text(self) -> str:
        return "".join(self.parts)


class LinWriter:
    """Writes boards as LIN to a text stream, one board at a time."""

    def __init__(self, stream: TextIO, options: WriteOptions | None = None) -> None:
        self._stream = stream
        self._options = options or WriteOptions()
        self._match: list[tuple[Board, str]] = []
        self._match_file: str | None = None
        self._in_segment = False
        self._segment_names: list[str] | None = None
        self._segment_key: tuple[str | None, tuple[str, ...]] | None = None
        self._headed = False
        """A vugraph header was written: LIN's reader puts every later table in a match."""
        self._tables = False
        """Once a table (qx) is written, every later board is one: in LIN, once a qx has
        been seen only qx starts a board."""

    def write(self, board: Board, file: str | None = None) -> list[Diagnostic]:
        """Write one board; returns one warning per kind of thing LIN could not carry."""
        losses = _Losses()
        header = _header_escapes(board)
        if header:
            self._flush_match()
            self._start_segment(header, (file, _match_key(board)))
        elif self._in_segment and self._segment_key != (file, _match_key(board)):
            # Another input, or another match: the kept header is not this board's.
            self._in_segment, self._segment_names, self._segment_key = False, None, None
        table = _room(board) is not None or "qx" in _board_escapes(board)
        if self._in_segment:
            # Inside a vugraph segment every board is a table (only qx starts one there).
            self._stream.write(self._table_text(board, losses, room=True))
        elif self._headed or self._match or (_room(board) is not None and any(_match_key(board))):
            # A match from PBN: its header needs every board, so the tables wait for it.
            # One match per source match: another input, event, stage or pair of teams, or
            # a room of a board already written, starts the next one.  Once a header was
            # written, LIN's reader puts every later table in its match until the next
            # header, so a board of no match gets a header of its own (an empty one).
            if self._match and not self._same_match(board, file):
                self._flush_match()
            self._match.append((board, self._table_text(board, losses, room=True)))
            self._match_file = file
            _note_results_line(board, losses)
            _note_losses(board, losses, match=True)
            return losses.diagnostics()
        else:
            # Rooms with nothing for a header (no event, stage or teams) before any header
            # are tables with no vugraph header: one is not invented.
            self._flush_match()
            self._stream.write(self._table_text(board, losses, room=self._tables or table))
        _note_losses(board, losses, match=self._in_segment)
        return losses.diagnostics()

    def _same_match(self, board: Board, file: str | None) -> bool:
        first = self._match[-1][0]
        if file != self._match_file or _match_key(first) != _match_key(board):
            return False
        room = _room(board)
        if room is None or board.number is None:
            return True  # the results line has no entry for it
        return all((other.number, _room(other)) != (board.number, room) for other, _ in self._match)

    def close(self) -> None:
        """Write a match still waiting for its header."""
        self._flush_match()

    # --- segments ----------------------------------------------------------------------

    def _start_segment(self, header: list[str], key: tuple[str | None, tuple[str, ...]]) -> None:
        """A vugraph header kept from a LIN file: written back as it was."""
        self._in_segment, self._segment_key, self._headed = True, key, True
        self._segment_names = None
        lines = []
        for text in header:
            lines.append(text.replace("\r", " ").replace("\n", " "))
            if text.startswith("pn|"):
                self._segment_names = text[3:-1].split(",")
        self._stream.write("\n".join(lines) + "pg||\n")

    def _flush_match(self) -> None:
        """A match read from PBN (boards with Room tags): build its vugraph header."""
        tables, self._match = self._match, []
        if not tables:
            return
        boards = [board for board, _ in tables]
        self._stream.write(_match_header(boards))
        self._headed = True
        # Written again now that the header's names are known (the losses were counted when
        # each board came): a table whose players are the header's needs no pn of its own,
        # as when the file is read back and written again.
        self._in_segment, self._segment_names = True, _match_names(boards)
        for board in boards:
            self._stream.write(self._table_text(board, _Losses(), room=True))
        self._in_segment, self._segment_names = False, None

    # --- one table ---------------------------------------------------------------------

    def _table_text(self, board: Board, losses: _Losses, room: bool) -> str:
        self._tables = self._tables or room
        line = _Line(losses)
        names = _names(board)
        escapes = _board_escapes(board)
        if room:
            qx = escapes.pop("qx", None)
            line.raw(qx if qx is not None else f"qx|{_room_value(board)}|")
            # After qx, a pn names this table (before the first qx it would be the header's).
            expected = self._room_names(board) if self._in_segment else None
            if names != expected and (any(names) or expected is not None):
                line.pair("pn", ",".join(_clean_name(name, losses) for name in names))
        else:
            line.pair("pn", ",".join(_clean_name(name, losses) for name in names))
        line.pair("st")
        line.pair("md", _deal_value(board, self._options))
        if not room:
            line.pair("rh")
        ah = escapes.pop("ah", None)
        if ah is not None:
            line.raw(ah)
        elif board.number is not None and not room:
            line.pair("ah", f"Board {board.number}")
        if board.vulnerability is not None:
            line.pair("sv", _VULNERABILITY[board.vulnerability])
        elif "sv" in escapes:
            line.raw(escapes["sv"])  # a value that could not be read, as it was
        _write_comments(line, _pre_auction_comments(board), losses)
        _write_auction(line, board, losses)
        _note_contract_carried(board, losses, _write_play(line, board, losses))
        return line.text() + "\n"

    def _room_names(self, board: Board) -> list[str]:
        names = self._segment_names or []
        chosen = names[4:8] if len(names) >= 8 and _room(board) == "c" else names[:4]
        found = [name.strip() for name in chosen]
        return found + [""] * (4 - len(found))


def dumps_board(board: Board, options: WriteOptions | None = None) -> str:
    """One board as one line of LIN (hand-record style), with its line end."""
    import io

    out = io.StringIO()
    writer = LinWriter(out, options)
    writer.write(_without_room(board))
    writer.close()
    return out.getvalue()


def _without_room(board: Board) -> Board:
    from dataclasses import replace

    tags = tuple(tag for tag in board.tags if tag.name != "Room")
    commentary = tuple(
        c for c in board.commentary if not (c.kind is CommentKind.ESCAPE and _is_header(c.text))
    )
    return replace(board, tags=tags, commentary=commentary)


# --- what the board says --------------------------------------------------------------------


def _lin_command(comment: Comment) -> str | None:
    """The ``tag|value|`` of an escape comment that keeps a LIN command, else None."""
    if comment.kind is not CommentKind.ESCAPE or not comment.text.startswith("lin "):
        return None
    text = comment.text[4:]
    if len(text) < 4 or text[2] != "|" or not text.endswith("|") or text.count("|") != 2:
        return None
    return text if text[:2].isalpha() else None


def _is_header(text: str) -> bool:
    return text.startswith("lin ") and text[4:6] in _HEADER_TAGS and text[6:7] == "|"


def _header_escapes(board: Board) -> list[str]:
    """The vugraph header kept on the first board of a segment (``vg`` first)."""
    found = []
    for comment in board.commentary:
        command = _lin_command(comment)
        if command is not None and command[:2] in _HEADER_TAGS:
            found.append(command)
    return found if any(text.startswith("vg|") for text in found) else []


def _board_escapes(board: Board) -> dict[str, str]:
    """Kept ``qx``, ``ah`` and ``sv`` commands: a table id that is not a room and board, a
    caption that is not "Board n", a vulnerability that could not be read."""
    found: dict[str, str] = {}
    for comment in board.commentary:
        command = _lin_command(comment)
        if command is not None and command[:2] in ("qx", "ah", "sv"):
            found.setdefault(command[:2], command)
    return found


def _pre_auction_comments(board: Board) -> list[Comment]:
    """Commentary written before the first call: the board's (but for what the header, the
    table id and the caption use, and the PBN file header), its tags', and the auction's."""
    comments = [
        comment
        for comment in board.commentary
        if not (_lin_command(comment) or "").startswith(_PLACED) and not is_header_escape(comment)
    ]
    for tag in board.tags:
        comments.extend(tag.comments)
    if board.auction is not None:
        comments.extend(board.auction.comments)
    return comments


_PLACED = tuple(f"{tag}|" for tag in (*_HEADER_TAGS, "qx", "ah", "sv"))
"""Kept commands the writer puts in their own place rather than before the auction."""


def _room(board: Board) -> str | None:
    value = (board.tag("Room") or "").strip().lower()
    return {"open": "o", "closed": "c"}.get(value)


def _room_value(board: Board) -> str:
    number = "" if board.number is None else str(board.number)
    return f"{_room(board) or ''}{number}"


def _match_key(board: Board) -> tuple[str, ...]:
    """What tells one match from another: its event, stage and teams (unknown ones empty)."""
    values = (
        (board.tag(name) or "").strip() for name in ("Event", "Stage", "HomeTeam", "VisitTeam")
    )
    return tuple("" if value in _UNKNOWN_VALUES else value for value in values)


def _names(board: Board) -> list[str]:
    """Player names in LIN order (S, W, N, E); unknown names are empty."""
    names = []
    for seat in HAND_ORDER:
        value = (board.tag(seat.name_title) or "").strip()
        names.append("" if value in _UNKNOWN_VALUES else value)
    return names


def _clean_name(name: str, losses: _Losses) -> str:
    cleaned = name.replace(",", " ").replace("|", "/")
    if cleaned != name:
        losses.changed.append(f"player name {name!r}")
    return cleaned


def _hand_text(hand: Hand | None) -> str:
    if hand is None:
        return ""
    parts = []
    for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS):
        parts.append(suit.letter + "".join(card.rank.letter for card in hand.suit(suit)))
    return "".join(parts)


def _deal_value(board: Board, options: WriteOptions) -> str:
    # No dealer is written as no digit (the reader derives it from the board number and
    # says so) rather than a dealer the record does not state.
    dealer = board.dealer
    if dealer is None and board.auction is not None:
        dealer = board.auction.first
    digit = "" if dealer is None else _DEALER_DIGIT[dealer]
    hands = board.deal.hands if board.deal is not None else (None, None, None, None)
    texts = [_hand_text(hands[seat]) for seat in HAND_ORDER]
    if options.three_hands and all(hands):
        texts[3] = ""
    return digit + ",".join(texts)


# --- auction and play -------------------------------------------------------------------------

_CALL_TEXT: dict[Call, str] = {
    Action.PASS: "p",
    Action.DOUBLE: "d",
    Action.REDOUBLE: "r",
    **{
        Bid.of(level, strain): f"{level}{'N' if strain is Strain.NOTRUMP else strain.letter}"
        for level in range(1, 8)
        for strain in Strain
    },
}


def _write_auction(line: _Line, board: Board, losses: _Losses) -> None:
    auction = board.auction
    if auction is None:
        return
    notes = {note.index: note for note in auction.notes}
    annotations = dict(auction.annotations)
    written = 0
    for index, call in enumerate(auction.calls):
        annotation = annotations.get(index)
        if isinstance(call, Token):
            losses.calls.append(repr(call.text))
            if annotation is not None:
                _write_comments(line, annotation.comments, losses)
            continue
        alerted = annotation is not None and ALERT_NAG in annotation.nags
        line.pair("mb", _CALL_TEXT[call] + ("!" if alerted else ""))
        written += 1
        if annotation is not None:
            _write_call_annotation(line, annotation, notes, losses)
    if auction.end is SectionEnd.STOP and not auction_outcome(auction).complete:
        losses.calls.append("the '*' that ends an unfinished auction")
    if written:
        line.page()


def _note_results_line(board: Board, losses: _Losses) -> None:
    """In a match, the ``rs`` line written carries the result of a table with no play, and
    its contract and declarer when there is no auction either (the reader takes them)."""
    entry = _result_entry(board) if _room(board) is not None else ""
    if not entry or (board.play is not None and board.play.card_count > 0):
        return  # (the reader takes the results line only for an open or closed room)
    if board.auction is None or not board.auction.calls:
        losses.carried.update(("Contract", "Declarer"))
    if "Contract" in losses.carried and (entry[-1] == "=" or entry[-2:-1] in ("+", "-")):
        losses.carried.add("Result")


def _note_contract_carried(board: Board, losses: _Losses, cards_written: int) -> None:
    """Contract and Declarer are carried when the reader derives them from the calls
    written: a finished auction, or an unfinished one followed by play."""
    auction = board.auction
    if auction is None:
        return
    written = tuple(call for call in auction.calls if not isinstance(call, Token))
    outcome = auction_outcome(Auction(auction.first, written))
    if not (outcome.complete or cards_written > 0):
        return
    if board.contract is not None and str(board.contract) == str(outcome.contract):
        losses.carried.add("Contract")
    if board.declarer == outcome.declarer or _passed_out(board):
        losses.carried.add("Declarer")


def _write_call_annotation(
    line: _Line, annotation: Annotation, notes: dict[int, Note], losses: _Losses
) -> None:
    if annotation.note is not None:
        note = notes.get(annotation.note)
        if note is not None:
            line.pair("an", note.text, what="explanation")
            if note.comments:
                losses.comments += len(note.comments)
        else:
            losses.annotations.append(f"note reference ={annotation.note}=")
    for nag in annotation.nags:
        if nag != ALERT_NAG:
            losses.annotations.append(f"NAG ${nag}")
    if annotation.irregularity:
        losses.annotations.append(f"irregularity ^{annotation.irregularity}")
    _write_comments(line, annotation.comments, losses)


def _write_comments(line: _Line, comments: Iterable[Comment], losses: _Losses) -> None:
    for comment in comments:
        command = _lin_command(comment)
        if command is not None:
            line.raw(command)
        elif comment.kind is CommentKind.ESCAPE:
            losses.comments += 1
        else:
            line.pair("nt", comment.text, what="commentary")
            line.page()


def _write_play(line: _Line, board: Board, losses: _Losses) -> int:
    """The cards in played order and the claim; returns how many cards were written."""
    play = board.play
    if play is None:
        _write_claim_without_play(line, board, losses)
        return 0
    known, trump = trump_of(board.contract)
    if not known and board.auction is not None:
        known, trump = trump_of(auction_outcome(board.auction).contract)
    sequenced = sequence_play(play, trump) if known else sequence_play(play, trump)[:1]
    kept = _seated_tricks(board, sequenced)
    if kept < len(sequenced):
        # LIN has no seat per card: its reader seats the cards from declarer's left-hand
        # opponent (the auction's declarer) and the trick winners, so a lead out of turn, or
        # a declarer the auction does not give, would put the cards on the wrong seats.
        trick = sequenced[kept]
        dropped = sum(isinstance(slot, Card) for t in sequenced[kept:] for _, slot in t.cards)
        losses.cards.append(
            f"{dropped} card(s) from trick {trick.number + 1} on (led by "
            f"{trick.leader.name_title}: LIN's reader would seat them from another leader)"
        )
        sequenced = sequenced[:kept]
    else:
        dropped = 0
    written = 0
    complete = True
    for trick in sequenced:
        for seat, slot in trick.cards:
            if isinstance(slot, Card) and complete:
                line.pair("pc", str(slot))
                written += 1
                annotation = play.annotation(trick.number, seat)
                if annotation is not None:
                    _write_card_annotation(line, annotation, losses)
            else:
                if isinstance(slot, Token):
                    losses.cards.append(repr(str(slot)))
                complete = False
        if complete and len([s for _, s in trick.cards if isinstance(s, Card)]) == 4:
            line.page()
    remaining = play.card_count - written - dropped
    if remaining > 0:
        losses.cards.append(f"{remaining} card(s) after a gap or whose order cannot be known")
    claimed = play.end is SectionEnd.STOP or written < CARDS_PER_DEAL
    if board.result is not None and claimed:
        line.pair("mc", str(board.result.tricks))
        line.page()
        losses.carried.add("Result")
    elif board.result is not None and _played_tricks(board) == board.result.tricks:
        losses.carried.add("Result")  # the reader counts them from the complete play
    return written


def _write_card_annotation(line: _Line, annotation: Annotation, losses: _Losses) -> None:
    if annotation.note is not None:
        losses.annotations.append(f"note ={annotation.note}= on a card")
    for nag in annotation.nags:
        losses.annotations.append(f"NAG ${nag} on a card")
    if annotation.irregularity:
        losses.annotations.append(f"irregularity ^{annotation.irregularity}")
    _write_comments(line, annotation.comments, losses)


def _write_claim_without_play(line: _Line, board: Board, losses: _Losses) -> None:
    """A Result with no play: a claim before the opening lead (LIN's reader takes ``mc`` as
    the Result whether or not an auction came before it)."""
    if board.result is None or _passed_out(board):
        return
    derived = auction_outcome(board.auction).contract if board.auction is not None else None
    if derived is not None and derived.is_passed_out:
        return
    line.pair("mc", str(board.result.tricks))
    line.page()
    losses.carried.add("Result")


def _seated_tricks(board: Board, sequenced: list[PlayedTrick]) -> int:
    """How many tricks LIN's reader puts back on the seats they were played from.

    The reader takes the contract and declarer from the calls written (a finished auction,
    or an unfinished one followed by play), the opening lead from declarer's left, or with
    no declarer from the holder of the first card; the winner of each trick (by the trump of
    that contract) leads the next, or with no trump known, the holder of the next card.
    """
    if not sequenced:
        return 0
    dealer = board.dealer
    if dealer is None and board.auction is not None:  # not "or": Seat.NORTH is 0, falsy
        dealer = board.auction.first
    if dealer is None and board.number is not None and board.number > 0:
        dealer = board_dealer(board.number)
    contract, declarer = None, None
    if board.auction is not None:
        calls = tuple(call for call in board.auction.calls if not isinstance(call, Token))
        outcome = auction_outcome(Auction(dealer or Seat.NORTH, calls))
        if outcome.contract is not None:
            contract, declarer = outcome.contract, outcome.declarer
    lead = sequenced[0].cards[0][1]
    holder = board.deal.holder(lead) if board.deal is not None and isinstance(lead, Card) else None
    if declarer is not None:
        first = declarer.lho
    elif holder is not None:
        first = holder
    else:
        first = (dealer or Seat.NORTH).lho
    strain = contract.strain if contract is not None else None
    if strain is not None:
        return seated_tricks(sequenced, first, strain.trump)
    if board.deal is None:
        return min(1, seated_tricks(sequenced, first, None, trump_known=False))
    return seated_tricks(sequenced, first, None, trump_known=False)


def _played_tricks(board: Board) -> int | None:
    from pbntool.rules.outcome import declarer_tricks_from_play

    if board.contract is None:
        return None
    return declarer_tricks_from_play(board, board.contract, board.declarer)


def _passed_out(board: Board) -> bool:
    return board.contract is not None and board.contract.is_passed_out


# --- losses ------------------------------------------------------------------------------------


def _note_losses(board: Board, losses: _Losses, match: bool) -> None:
    """The tags and tables LIN has no place for."""
    carried = _CARRIED_TAGS | (_MATCH_TAGS if match else frozenset())
    seen = {table.name for table in board.tables}  # reported as tables
    for tag in board.tags:
        if tag.duplicate or tag.name in carried or tag.name in seen:
            continue
        seen.add(tag.name)
        if tag.value.strip() in _UNKNOWN_VALUES:
            continue
        if tag.name in _DERIVED_TAGS and tag.name in losses.carried:
            continue
        losses.tags.append(tag.name)
    losses.tables.extend(table.name for table in board.tables)
    for note in _unused_notes(board):
        losses.annotations.append(f"Note {note.index}")


def _unused_notes(board: Board) -> Iterator[Note]:
    """Notes of the play (LIN has no notes on cards) and notes no call refers to."""
    if board.auction is not None:
        used = {a.note for _, a in board.auction.annotations if a.note is not None}
        yield from (note for note in board.auction.notes if note.index not in used)
    if board.play is not None:
        yield from board.play.notes


# --- a match read from PBN --------------------------------------------------------------------


def _match_header(boards: list[Board]) -> str:
    first = boards[0]
    numbers = [board.number for board in boards if board.number is not None]
    low, high = (min(numbers), max(numbers)) if numbers else (1, len(boards))
    scoring = _SCORING_LETTER.get((first.tag("Scoring") or "").strip().upper(), "I")
    fields = [
        first.tag("Event") or "",
        first.tag("Stage") or "",
        scoring,
        str(low),
        str(high),
        first.tag("HomeTeam") or "",
        "",
        first.tag("VisitTeam") or "",
        "",
    ]
    results = [""] * (2 * (high - low + 1))
    for board in boards:
        if board.number is not None and low <= board.number <= high and _room(board):
            index = 2 * (board.number - low) + (0 if _room(board) == "o" else 1)
            results[index] = _result_entry(board)
    names = _match_names(boards)
    vg = ",".join(_clean(field.replace(",", " "))[0] for field in fields)
    return f"vg|{vg}|\nrs|{','.join(results)}|\npn|{','.join(names)}|pg||\n"


def _match_names(boards: list[Board]) -> list[str]:
    names = [""] * 8
    for room, offset in (("o", 0), ("c", 4)):
        board = next((b for b in boards if _room(b) == room), None)
        if board is not None:
            names[offset : offset + 4] = [n.replace(",", " ") for n in _names(board)]
    return names


def _result_entry(board: Board) -> str:
    contract, declarer = board.contract, board.declarer
    if contract is None and board.auction is not None:
        outcome = auction_outcome(board.auction)
        contract, declarer = outcome.contract, outcome.declarer
    if contract is None:
        return ""
    tricks = board.result.tricks if board.result is not None else None
    return result_entry(contract, declarer, tricks)
