"""The bridge model: immutable values with no knowledge of file formats or I/O.

Seat arithmetic lives on the enums, cards and bids are interned (there are only
52 cards and 35 bids, so ``Card.parse("SA") is Card.parse("sa")``), and every
collection inside a value is a tuple.  Values that a file states (contract,
declarer, result) are kept apart from what the Laws derive from them; the
``rules`` module compares the two.
"""

from __future__ import annotations

import copyreg
import dataclasses
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import NamedTuple, TypeAlias

__all__ = [
    "ALL_CARDS",
    "PASSED_OUT",
    "Action",
    "Annotation",
    "Auction",
    "Bid",
    "Board",
    "Call",
    "Card",
    "Comment",
    "CommentKind",
    "Contract",
    "Deal",
    "Doubling",
    "Hand",
    "Note",
    "Play",
    "Rank",
    "Result",
    "Score",
    "Seat",
    "SectionEnd",
    "Side",
    "Slot",
    "Strain",
    "Suit",
    "Table",
    "TableColumn",
    "Tag",
    "Token",
    "Vulnerability",
    "pickle_by_fields",
    "pickle_by_init",
]


class Side(IntEnum):
    """A partnership."""

    NS = 0
    EW = 1

    @property
    def letters(self) -> str:
        """``"NS"`` or ``"EW"``."""
        return ("NS", "EW")[self]

    @property
    def other(self) -> Side:
        """The opponents."""
        return Side(1 - self)


class Seat(IntEnum):
    """A player's seat, clockwise from North.

    >>> Seat.SOUTH.lho.letter
    'W'
    """

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def letter(self) -> str:
        """``N``, ``E``, ``S`` or ``W``."""
        return "NESW"[self]

    @property
    def name_title(self) -> str:
        """``North``, ``East``, ``South`` or ``West``."""
        return ("North", "East", "South", "West")[self]

    def next(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places clockwise."""
        return _SEATS[(self + steps) % 4]

    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next seat clockwise."""
        return _SEATS[(self + 1) % 4]

    @property
    def partner(self) -> Seat:
        """The seat opposite."""
        return _SEATS[(self + 2) % 4]

    @property
    def rho(self) -> Seat:
        """Right-hand opponent."""
        return _SEATS[(self + 3) % 4]

    @property
    def side(self) -> Side:
        """The partnership this seat belongs to."""
        return Side(self & 1)

    def distance_to(self, other: Seat) -> int:
        """Clockwise steps from this seat to ``other`` (0..3)."""
        return (other - self) % 4

    @classmethod
    def from_letter(cls, text: str) -> Seat:
        """Parse ``N``/``E``/``S``/``W`` in either case; raises ``ValueError``."""
        try:
            return _SEAT_BY_LETTER[text.upper()]
        except KeyError:
            raise ValueError(f"not a seat: {text!r}") from None


_SEATS = tuple(Seat)
_SEAT_BY_LETTER = {seat.letter: seat for seat in Seat}


class Suit(IntEnum):
    """A card suit, in bidding order."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol, e.g. ``♠``."""
        return "♣♦♥♠"[self]

    @property
    def strain(self) -> Strain:
        """The strain with this suit as trumps."""
        return Strain(int(self))

    @classmethod
    def from_letter(cls, text: str) -> Suit:
        """Parse ``S``/``H``/``D``/``C`` in either case; raises ``ValueError``."""
        index = "CDHS".find(text.upper()) if len(text) == 1 else -1
        if index < 0:
            raise ValueError(f"not a suit: {text!r}")
        return Suit(index)


class Strain(IntEnum):
    """What a contract is played in; a card never has NOTRUMP, so strain and suit differ."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NOTRUMP = 4

    @property
    def letter(self) -> str:
        """``C``, ``D``, ``H``, ``S`` or ``NT``."""
        return ("C", "D", "H", "S", "NT")[self]

    @property
    def symbol(self) -> str:
        """``♣ ♦ ♥ ♠`` or ``NT``."""
        return ("♣", "♦", "♥", "♠", "NT")[self]

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or None at notrump."""
        return None if self is Strain.NOTRUMP else Suit(int(self))

    @classmethod
    def from_text(cls, text: str) -> Strain:
        """Parse ``C D H S NT`` (and the common alias ``N``) in either case."""
        upper = text.upper()
        if upper in ("NT", "N"):
            return Strain.NOTRUMP
        return Suit.from_letter(upper).strain


class Rank(IntEnum):
    """A card rank; the value is its order (two lowest, ace highest)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """``2`` to ``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return "23456789TJQKA"[self - 2]

    @classmethod
    def from_letter(cls, text: str) -> Rank:
        """Parse a rank letter in either case; ``10`` is accepted for ten."""
        upper = text.upper()
        if upper == "10":
            return Rank.TEN
        index = "23456789TJQKA".find(upper) if len(upper) == 1 else -1
        if index < 0:
            raise ValueError(f"not a rank: {text!r}")
        return Rank(index + 2)


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A playing card.  Instances are interned: build them with ``Card.of`` or ``Card.parse``,
    so equality and hashing are by identity (fast: a deal check hashes thousands of cards).

    >>> Card.parse("hq")
    Card.parse('HQ')
    >>> str(Card.of(Suit.SPADES, Rank.ACE))
    'SA'
    """

    suit: Suit
    rank: Rank
    bit: int = field(init=False, repr=False)
    """``1 << (suit * 16 + rank)``: a set of cards is an int, one 16-bit field per suit."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "bit", 1 << (self.suit * 16 + self.rank))

    @classmethod
    def of(cls, suit: Suit, rank: Rank) -> Card:
        """The (interned) card of this suit and rank."""
        return _CARD_OF[(suit, rank)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``SA``, ``hq``, ``DT``, ``C10``; raises ``ValueError``."""
        card = _CARD_BY_TEXT.get(text)
        if card is None:
            card = _CARD_BY_TEXT.get(text.upper())
            if card is None:
                if len(text) == 3 and text[1:] == "10":
                    return cls.of(Suit.from_letter(text[0]), Rank.TEN)
                raise ValueError(f"not a card: {text!r}")
        return card

    @property
    def index(self) -> int:
        """0..51, suit-major (clubs first)."""
        return self.suit * 13 + self.rank - 2

    def __str__(self) -> str:
        return self.suit.letter + self.rank.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return (self.suit, self.rank) < (other.suit, other.rank)

    def __le__(self, other: Card) -> bool:
        return (self.suit, self.rank) <= (other.suit, other.rank)

    def __gt__(self, other: Card) -> bool:
        return (self.suit, self.rank) > (other.suit, other.rank)

    def __ge__(self, other: Card) -> bool:
        return (self.suit, self.rank) >= (other.suit, other.rank)

    # Interned, so identity hashing; said outright because a type that defines ordering
    # but not hashing inherits no hash once compiled.
    def __hash__(self) -> int:
        return id(self)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Keep interning across pickling (e.g. to worker processes).
        return (Card.parse, (str(self),))


_CARD_OF: dict[tuple[int, int], Card] = {}
_CARD_BY_TEXT: dict[str, Card] = {}
for _suit in Suit:
    for _rank in Rank:
        _card = Card(_suit, _rank)
        _CARD_OF[(_suit, _rank)] = _card
        _CARD_BY_TEXT[str(_card)] = _card

ALL_CARDS: tuple[Card, ...] = tuple(sorted(_CARD_OF.values()))


@dataclass(frozen=True, slots=True, init=False)
class Hand:
    """The cards one player holds (a full hand has 13; end positions hold fewer).

    Stored as one int, the sum of the cards' ``Card.bit``: a hand is built, compared and
    tested for a card at the cost of integer arithmetic, and reading millions of deals does
    not build millions of sets.

    >>> hand = Hand.parse_suits("AKQ", "", "T98765", "2")
    >>> str(hand), len(hand), Card.parse("DT") in hand, hand.hcp
    ('AKQ..T98765.2', 10, True, 9)
    """

    mask: int

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Hand.from_mask, (self.mask,))

    def __init__(self, cards: Iterable[Card] = (), *, mask: int = 0) -> None:
        # The set drops a card given twice; ``mask`` is for from_mask.
        object.__setattr__(self, "mask", mask | sum({card.bit for card in cards}))

    @classmethod
    def from_mask(cls, mask: int) -> Hand:
        """The hand whose cards are the bits of ``mask``."""
        return cls(mask=mask)

    @classmethod
    def parse_suits(cls, spades: str, hearts: str, diamonds: str, clubs: str) -> Hand:
        """Build a hand from four rank strings, spades first (PBN order)."""
        cards: list[Card] = []
        for suit, ranks in zip(
            (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS),
            (spades, hearts, diamonds, clubs),
            strict=True,
        ):
            cards.extend(Card.of(suit, Rank.from_letter(letter)) for letter in ranks)
        return cls(cards)

    @property
    def cards(self) -> frozenset[Card]:
        """The cards, as a set."""
        return frozenset(card for card in ALL_CARDS if self.mask & card.bit)

    def suit(self, suit: Suit) -> list[Card]:
        """Cards of one suit, highest first."""
        bits = self.mask >> (suit * 16)
        return [Card.of(suit, rank) for rank in _RANKS_DOWN if bits >> rank & 1]

    def length(self, suit: Suit) -> int:
        """Number of cards held in ``suit``."""
        return (self.mask >> (suit * 16) & 0xFFFF).bit_count()

    @property
    def hcp(self) -> int:
        """Milton Work high-card points."""
        return sum(max(0, card.rank - 10) for card in self.cards)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask & card.bit)

    def __repr__(self) -> str:
        return f"Hand.parse_suits{tuple(str(self).split('.'))!r}"

    def __str__(self) -> str:
        """Spades, hearts, diamonds, clubs separated by dots, ranks descending (PBN order)."""
        mask = self.mask
        text = _HAND_TEXT.get(mask)
        if text is None:
            spell = _holding_text
            text = (
                f"{spell(mask >> 48 & 0xFFFF)}.{spell(mask >> 32 & 0xFFFF)}."
                f"{spell(mask >> 16 & 0xFFFF)}.{spell(mask & 0xFFFF)}"
            )
            if len(_HAND_TEXT) >= _HAND_TEXT_LIMIT:
                _HAND_TEXT.clear()
            _HAND_TEXT[mask] = text
        return text


_HAND_TEXT: dict[int, str] = {}
"""Recent hands' text by mask: a writer spells each hand more than once (a JSON record has
the Deal string and the model's hands)."""
_HAND_TEXT_LIMIT = 4096


_RANKS_DOWN = tuple(reversed(Rank))


@functools.lru_cache(maxsize=8192)
def _holding_text(bits: int) -> str:
    """The rank letters of one suit's 16-bit field, highest first (``"AQ52"``)."""
    return "".join(rank.letter for rank in _RANKS_DOWN if bits >> rank & 1)


@dataclass(frozen=True, slots=True)
class Deal:
    """Four hands indexed by seat (N, E, S, W); ``None`` for a hand that is not known."""

    hands: tuple[Hand | None, Hand | None, Hand | None, Hand | None]

    def hand(self, seat: Seat) -> Hand | None:
        """The hand at ``seat``, if known."""
        return self.hands[seat]

    @property
    def is_complete(self) -> bool:
        """True when all four hands are known."""
        return all(hand is not None for hand in self.hands)

    def holder(self, card: Card) -> Seat | None:
        """The seat whose known hand holds ``card``."""
        for seat, hand in zip(Seat, self.hands, strict=True):
            if hand is not None and hand.mask & card.bit:
                return seat
        return None


class Doubling(IntEnum):
    """Whether a contract is undoubled, doubled or redoubled."""

    UNDOUBLED = 0
    DOUBLED = 1
    REDOUBLED = 2

    @property
    def suffix(self) -> str:
        """``""``, ``"X"`` or ``"XX"``."""
        return ("", "X", "XX")[self]


class Action(Enum):
    """The calls that are not bids."""

    PASS = "Pass"
    DOUBLE = "X"
    REDOUBLE = "XX"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True, eq=False)
class Bid:
    """A bid: a level 1..7 and a strain.  Interned (equality by identity); ordered as in
    the auction.

    >>> Bid.of(1, Strain.SPADES) < Bid.of(1, Strain.NOTRUMP) < Bid.of(2, Strain.CLUBS)
    True
    """

    level: int
    strain: Strain

    @classmethod
    def of(cls, level: int, strain: Strain) -> Bid:
        """The (interned) bid; raises ``ValueError`` for a level outside 1..7."""
        try:
            return _BID_OF[(level, strain)]
        except KeyError:
            raise ValueError(f"not a bid: level {level}") from None

    def __str__(self) -> str:
        return f"{self.level}{self.strain.letter}"

    def __repr__(self) -> str:
        return f"Bid.of({self.level}, Strain.{self.strain.name})"

    def __lt__(self, other: Bid) -> bool:
        return (self.level, self.strain) < (other.level, other.strain)

    def __le__(self, other: Bid) -> bool:
        return (self.level, self.strain) <= (other.level, other.strain)

    def __gt__(self, other: Bid) -> bool:
        return (self.level, self.strain) > (other.level, other.strain)

    def __ge__(self, other: Bid) -> bool:
        return (self.level, self.strain) >= (other.level, other.strain)

    def __hash__(self) -> int:
        return id(self)

    def __reduce__(self) -> tuple[object, tuple[int, Strain]]:
        return (Bid.of, (self.level, self.strain))


_BID_OF: dict[tuple[int, int], Bid] = {}
for _level in range(1, 8):
    for _strain in Strain:
        _BID_OF[(_level, _strain)] = Bid(_level, _strain)

Call: TypeAlias = Bid | Action


@dataclass(frozen=True, slots=True)
class Token:
    """Text kept verbatim where a call or card was expected but none could be read.

    PBN's ``^S`` (a turn skipped by a call out of rotation) and ``+`` (the next call or
    card is still to be made) are Tokens too: they occupy a position without being a call.
    """

    text: str

    def __str__(self) -> str:
        return self.text


class CommentKind(Enum):
    """Where a piece of commentary came from."""

    BRACE = "brace"
    """``{ ... }`` commentary."""
    LINE = "line"
    """``;`` rest-of-line commentary."""
    ESCAPE = "escape"
    """A ``%`` escape line (directive or private data) inside or before a game."""
    STRAY = "stray"
    """Text that is not PBN at all (e.g. a generator's statistics), kept so nothing is lost."""


@dataclass(frozen=True, slots=True)
class Comment:
    """Commentary attached to what precedes it (a game, tag, call or card)."""

    text: str
    kind: CommentKind = CommentKind.BRACE


@dataclass(frozen=True, slots=True)
class Annotation:
    """What may follow a call or card: a note reference, NAGs, an irregularity, comments.

    Suffixes (``!``, ``?!`` …) are stored as their NAGs, as the export format writes them.
    """

    note: int | None = None
    nags: tuple[int, ...] = ()
    irregularity: str | None = None
    """``I`` (insufficient bid accepted), ``R`` (revoke) or ``L`` (lead out of turn)."""
    comments: tuple[Comment, ...] = ()


@dataclass(frozen=True, slots=True)
class Note:
    """An explanation referenced by ``=n=`` from a call or card."""

    index: int
    text: str
    comments: tuple[Comment, ...] = ()


class SectionEnd(Enum):
    """How an auction or play record ends."""

    OPEN = ""
    """The record simply stops (complete, or cut short without a marker)."""
    STOP = "*"
    """``*``: no further calls or cards will be given (e.g. a claim)."""


@dataclass(frozen=True, slots=True)
class Auction:
    """The calls in order, starting with the dealer ``first``.

    ``calls`` may hold ``Token`` entries (unreadable text, ``^S``, ``+``); legality checks stop
    at the first one they cannot interpret.  Annotations are sparse: ``(index, Annotation)``.
    """

    first: Seat
    calls: tuple[Call | Token, ...]
    end: SectionEnd = SectionEnd.OPEN
    annotations: tuple[tuple[int, Annotation], ...] = ()
    notes: tuple[Note, ...] = ()
    comments: tuple[Comment, ...] = ()
    """Comments after the ``[Auction]`` tag, before the first call."""

    def annotation(self, index: int) -> Annotation | None:
        """The annotation of the call at ``index``, if any."""
        for position, annotation in self.annotations:
            if position == index:
                return annotation
        return None

    def seat_of(self, index: int) -> Seat:
        """Who made the call at ``index`` (ignoring irregular rotation)."""
        return self.first.next(index)


Slot: TypeAlias = Card | Token | None
"""One player's card in a trick: a card, ``None`` for unknown/not played (PBN ``-``), or a Token."""


@dataclass(frozen=True, slots=True)
class Play:
    """The play, one trick per entry; each trick holds four slots indexed by seat (N, E, S, W).

    ``first`` is the seat that plays the first card listed: the opening leader (or, in an end
    position, whoever is on lead).  Later leaders follow from the trick winners, which need the
    trump suit, so they are derived by ``rules`` rather than stored.
    """

    first: Seat
    tricks: tuple[tuple[Slot, Slot, Slot, Slot], ...]
    end: SectionEnd = SectionEnd.OPEN
    annotations: tuple[tuple[tuple[int, Seat], Annotation], ...] = ()
    notes: tuple[Note, ...] = ()
    comments: tuple[Comment, ...] = ()

    def annotation(self, trick: int, seat: Seat) -> Annotation | None:
        """The annotation of the card ``seat`` played to ``trick`` (0-based), if any."""
        for position, annotation in self.annotations:
            if position == (trick, seat):
                return annotation
        return None

    @property
    def card_count(self) -> int:
        """Number of known cards in the record."""
        return sum(1 for trick in self.tricks for slot in trick if isinstance(slot, Card))


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract.  ``level`` 0 with no strain is a passed-out board; a strain with
    ``level`` None is an end-position contract (PBN 2.0, denomination only).

    >>> str(Contract(4, Strain.SPADES, Doubling.DOUBLED))
    '4SX'
    """

    level: int | None
    strain: Strain | None
    doubling: Doubling = Doubling.UNDOUBLED

    @property
    def is_passed_out(self) -> bool:
        """True for an all-pass board."""
        return self.level == 0

    @property
    def tricks_needed(self) -> int | None:
        """Tricks declarer needs (level + 6), or None if not a full contract."""
        return None if not self.level else self.level + 6

    def __str__(self) -> str:
        if self.is_passed_out:
            return "Pass"
        level = "" if self.level is None else str(self.level)
        strain = "" if self.strain is None else self.strain.letter
        return f"{level}{strain}{self.doubling.suffix}"


PASSED_OUT = Contract(0, None)
"""The contract of a passed-out board."""


@dataclass(frozen=True, slots=True)
class Result:
    """Tricks taken by declarer as stated; ``irregular`` marks PBN's ``^`` (agreed, not won)."""

    tricks: int
    irregular: bool = False

    def __str__(self) -> str:
        return ("^" if self.irregular else "") + str(self.tricks)


@dataclass(frozen=True, slots=True)
class Score:
    """A stated score: ``points`` for ``side``, or for declarer's side when ``side`` is None
    (PBN's bare ``Score "420"`` form)."""

    points: int
    side: Side | None = None


class Vulnerability(Enum):
    """Who is vulnerable on a board."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    def is_vulnerable(self, side: Side) -> bool:
        """True when ``side`` is vulnerable."""
        return self is Vulnerability.ALL or self.value == side.letters

    def __str__(self) -> str:
        return self.value


class Tag(NamedTuple):
    """A tag pair as the file gave it, after inheritance.

    ``value`` is unescaped and resolved; ``written`` keeps the raw ``#``/``##…`` form when the
    value came from inheritance (``inherited`` is True when the game did not name the tag at all
    and a ``##`` default supplied it).

    A NamedTuple rather than a frozen dataclass: just as immutable, and four times cheaper to
    build, which matters when reading millions of games of twenty tags each.
    """

    name: str
    value: str
    comments: tuple[Comment, ...] = ()
    written: str | None = None
    inherited: bool = False
    duplicate: bool = False
    """A repeated tag: the first occurrence wins, this one is kept only for diagnostics."""


@dataclass(frozen=True, slots=True)
class TableColumn:
    """One column of a PBN table header, ``[+|-]Name[\\width[L|R]]``."""

    name: str
    order: str = ""
    """``+`` (descending), ``-`` (ascending) or ``""``."""
    width: int | None = None
    align: str = ""
    """``L``, ``R`` or ``""``."""

    def __str__(self) -> str:
        width = "" if self.width is None else f"\\{self.width}{self.align}"
        return f"{self.order}{self.name}{width}"


@dataclass(frozen=True, slots=True)
class Table:
    """A supplemental section: a tag whose value is a column header, followed by data.

    Elements are kept exactly as written (strings keep their quotes), so nothing is lost;
    ``rows`` are the elements chunked by the number of columns, and ``leftover`` holds the
    elements of an incomplete last row.  Unknown sections (an unknown tag followed by data)
    are Tables with no columns, all their elements in ``leftover``.
    """

    name: str
    header: str
    columns: tuple[TableColumn, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    leftover: tuple[str, ...] = ()
    comments: tuple[Comment, ...] = ()

    def column(self, name: str) -> int | None:
        """Index of the column called ``name``, if present."""
        for index, column in enumerate(self.columns):
            if column.name == name:
                return index
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class Board:
    """One board as played (or dealt) at one table.

    The typed fields are what the record *states*; ``tags`` keeps every tag pair in source
    order (including Auction, Play, Note and table tags) so that writers lose nothing.
    """

    tags: tuple[Tag, ...] = ()
    number: int | None = None
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    deal: Deal | None = None
    auction: Auction | None = None
    play: Play | None = None
    contract: Contract | None = None
    declarer: Seat | None = None
    declarer_irregular: bool = False
    """PBN ``^`` before Declarer: declarer and dummy swapped."""
    result: Result | None = None
    score: Score | None = None
    """The stated score (PBN ``Score``), as written."""
    commentary: tuple[Comment, ...] = ()
    """Comments and escape lines before the first tag of the game."""
    tables: tuple[Table, ...] = ()

    def tag(self, name: str) -> str | None:
        """The (first) value of tag ``name``, or None when the game has no such tag."""
        for tag in self.tags:
            if tag.name == name and not tag.duplicate:
                return tag.value
        return None


def pickle_by_fields(*classes: type) -> None:
    """Pickle instances of these dataclasses as a call of the class with their fields (and,
    unless frozen, the fields ``__init__`` does not take set after).

    Compiled by mypyc (``pbntool._native``), a class is not pickled the way Python pickles
    it: a frozen dataclass is unpickled through its own ``__setattr__``, which refuses, and
    any other class is rebuilt by calling it with no arguments.  A record could not cross to
    a worker process (``-j``), or be pickled by a user of the library.  ``copyreg`` is the
    hook that adds nothing to a class after its body (which a compiled class does not
    allow); pure Python pickles the same way."""
    for cls in classes:
        fields = dataclasses.fields(cls)
        names = tuple(item.name for item in fields if item.init)
        frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        later = () if frozen else tuple(item.name for item in fields if not item.init)
        keywords = any(item.kw_only for item in fields if item.init)
        copyreg.pickle(cls, functools.partial(_reduce, names, keywords, later))


def pickle_by_init(cls: type, arguments: tuple[str, ...]) -> None:
    """Pickle instances of a slotted class as a call with the attributes ``arguments``
    (what its ``__init__`` takes, in order), its other slots set after; see
    ``pickle_by_fields``."""
    slots = [name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())]
    later = tuple(name for name in slots if name not in arguments)
    copyreg.pickle(cls, functools.partial(_reduce, arguments, False, later))


_MISSING = object()


_Reduced: TypeAlias = (
    tuple[Callable[..., object], tuple[object, ...]]
    | tuple[Callable[..., object], tuple[object, ...], object]
)


def _reduce(
    names: tuple[str, ...], keywords: bool, later: tuple[str, ...], value: object
) -> _Reduced:
    values = tuple([getattr(value, name) for name in names])
    call: Callable[..., object] = _from_keywords if keywords else type(value)
    arguments: tuple[object, ...] = (type(value), names, values) if keywords else values
    if not later:
        return (call, arguments)
    state = {name: getattr(value, name, _MISSING) for name in later}
    return (call, arguments, (None, {k: v for k, v in state.items() if v is not _MISSING}))


def _from_keywords(cls: type, names: tuple[str, ...], values: tuple[object, ...]) -> object:
    return cls(**dict(zip(names, values, strict=True)))


pickle_by_fields(
    Deal, Token, Comment, Annotation, Note, Auction, Play, Contract, Result, Score,
    TableColumn, Table, Board,
)  # fmt: skip
