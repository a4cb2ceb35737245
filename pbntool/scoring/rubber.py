"""Rubber bridge and Chicago: deals scored above and below the line, in sequence.

Rubber (Laws of Rubber Bridge):

* Below the line: only the trick score of the contracted tricks (times 2 doubled, 4 redoubled).
  A side whose trick points in the current game reach 100 wins the game; both sides then
  start the next game from zero.  A side that has won a game is vulnerable.
* Above the line: overtricks, undertricks (the duplicate table), 50/100 for making a doubled /
  redoubled contract, slam bonuses, honours and the rubber bonus: 700 when the losers won no
  game, 500 when they won one.  An unfinished rubber gives 300 to a side with a game and 100
  to a side with a part score in the unfinished game.
* Honours count for whichever side holds them: four of the five trump honours in one hand
  100, all five 150, the four aces in one hand at notrump 150.

Chicago: deals in cycles of four.  Deal 1 nobody is vulnerable, deals 2 and 3 the dealer's
side, deal 4 both.  A game (trick points reaching 100, part scores of earlier deals of the
cycle included) earns 300 not vulnerable, 500 vulnerable; a part score on the fourth deal
that does not complete a game earns 100.  Part scores are lost at the end of the cycle.  A
passed-out deal is dealt again by the same dealer and does not count as one of the four.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from pbntool.model import Contract, Deal, Doubling, Rank, Seat, Side, Strain, Suit, Vulnerability
from pbntool.notation import TRICKS_PER_DEAL
from pbntool.scoring.duplicate import duplicate_score

__all__ = [
    "DealPlay",
    "Line",
    "RubberDeal",
    "RubberKind",
    "RubberSession",
    "RubberState",
    "RubberStep",
    "chicago_vulnerability",
    "deal_lines",
    "format_score_rubber",
    "format_score_rubber_history",
    "honours",
    "parse_score_rubber",
    "parse_score_rubber_history",
    "rubber_step",
    "rubber_totals",
    "score_sequence",
]

_HONOURS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)
_GAME = 100
_RUBBER_BONUS = (700, 500)
"""Indexed by the number of games the losers won."""
_UNFINISHED_GAME = 300
_UNFINISHED_PART_SCORE = 100
_CHICAGO_GAME_BONUS = (300, 500)
_CHICAGO_FOURTH_PART_SCORE = 100
_SLAM_BONUS = {6: (500, 750), 7: (1000, 1500)}


class RubberKind(Enum):
    """Which game a sequence of deals is."""

    RUBBER = "rubber"
    CHICAGO = "chicago"


@dataclass(frozen=True, slots=True)
class Line:
    """Points of one side: ``above`` the line (premiums) and ``below`` (trick points).

    >>> str(Line(300, 40))
    '300/40'
    """

    above: int = 0
    below: int = 0

    def __add__(self, other: Line) -> Line:
        return Line(self.above + other.above, self.below + other.below)

    def __str__(self) -> str:
        return f"{self.above}/{self.below}"

    @property
    def total(self) -> int:
        """Above plus below."""
        return self.above + self.below


_ZERO = Line()


def honours(deal: Deal, strain: Strain) -> tuple[Side, int] | None:
    """The honours held in one hand: the side holding them and what they are worth.

    Args:
        deal: The deal (hands that are not known hold no honours).
        strain: The contract's strain.

    Returns:
        (side, 100 or 150), or None when no hand holds four trump honours (four aces at NT).

    >>> from pbntool.model import Hand
    >>> north = Hand.parse_suits("AKQJ2", "32", "432", "432")
    >>> honours(Deal((north, None, None, None)), Strain.SPADES)
    (<Side.NS: 0>, 100)
    """
    trump = strain.trump
    for seat, hand in zip(Seat, deal.hands, strict=True):
        if hand is None:
            continue
        if trump is None:
            aces = sum(1 for suit in Suit if hand.mask >> (suit * 16 + Rank.ACE) & 1)
            if aces == 4:
                return seat.side, 150
            continue
        held = sum(1 for rank in _HONOURS if hand.mask >> (trump * 16 + rank) & 1)
        if held >= 4:
            return seat.side, 150 if held == 5 else 100
    return None


@dataclass(frozen=True, slots=True)
class DealPlay:
    """One deal of a sequence, as far as scoring needs it.

    ``contract`` None means the deal cannot be scored (its result is unknown): it still takes
    its place in the sequence.  ``honours`` is what ``honours()`` found, None when the deal
    is not known (no honours are then counted).
    """

    contract: Contract | None
    declarer: Seat | None = None
    tricks: int | None = None
    honours: tuple[Side, int] | None = None
    dealer: Seat | None = None

    @property
    def passed_out(self) -> bool:
        """True for a deal all four players passed."""
        return self.contract is not None and self.contract.is_passed_out

    @property
    def scorable(self) -> bool:
        """True when the deal's points can be computed."""
        if self.contract is None:
            return False
        if self.contract.is_passed_out:
            return True
        return (
            self.contract.level is not None
            and self.declarer is not None
            and self.tricks is not None
            and 0 <= self.tricks <= TRICKS_PER_DEAL
        )


@dataclass(frozen=True, slots=True)
class RubberState:
    """The score before a deal: what ``ScoreRubberHistory`` records.

    ``previous`` are the totals of the rubbers already finished, ``above`` the premiums of the
    current rubber, ``below`` the trick points of each game of the current rubber (the current
    game last), each indexed by side (NS, EW).
    """

    previous: tuple[int, int] = (0, 0)
    above: tuple[int, int] = (0, 0)
    below: tuple[tuple[int, ...], tuple[int, ...]] = ((0,), (0,))

    @property
    def games(self) -> tuple[int, int]:
        """Games won in the current rubber, by side."""
        finished = len(self.below[0]) - 1
        won = [0, 0]
        for game in range(finished):
            winner = 0 if self.below[0][game] >= _GAME else 1
            won[winner] += 1
        return won[0], won[1]

    @property
    def vulnerability(self) -> Vulnerability:
        """In rubber bridge a side that has won a game is vulnerable."""
        return _vulnerability(*(count > 0 for count in self.games))


def _vulnerability(ns: bool, ew: bool) -> Vulnerability:
    if ns and ew:
        return Vulnerability.ALL
    if ns:
        return Vulnerability.NS
    return Vulnerability.EW if ew else Vulnerability.NONE


@dataclass(frozen=True, slots=True)
class RubberDeal:
    """One deal scored in its sequence."""

    play: DealPlay
    before: RubberState
    vulnerability: Vulnerability
    lines: tuple[Line, Line]
    """This deal's points for NS and EW, the rubber or game bonus included."""
    position: int
    """Rubber: the deal's number in its rubber (1, 2 …); Chicago: its place in the cycle (1-4)."""
    dealer: Seat | None = None
    game_won_by: Side | None = None
    rubber_won_by: Side | None = None


@dataclass(frozen=True, slots=True)
class RubberSession:
    """A sequence of deals: each deal scored, the totals, and the unfinished rubber's bonus."""

    kind: RubberKind
    deals: tuple[RubberDeal, ...]
    totals: tuple[int, int]
    """Points of NS and EW over the whole sequence, the unfinished bonus included."""
    unfinished: tuple[int, int] = (0, 0)
    """The bonus of an unfinished rubber (Chicago: always 0)."""
    rubbers: int = 0
    """Rubbers finished."""


def score_sequence(
    deals: Iterable[DealPlay], kind: RubberKind = RubberKind.RUBBER
) -> RubberSession:
    """Score a sequence of deals as a rubber (or rubbers) or as Chicago.

    Args:
        deals: The deals in the order they were played.
        kind: Rubber bridge or Chicago.

    Returns:
        Every deal with the state before it, its vulnerability and its points.
    """
    if kind is RubberKind.CHICAGO:
        return _score_chicago(deals)
    return _score_rubber(deals)


# --- rubber ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RubberStep:
    """One rubber deal played from a state: its points and the state after it."""

    lines: tuple[Line, Line]
    """The deal's points for NS and EW, the rubber bonus included."""
    after: RubberState
    game_won_by: Side | None = None
    rubber_won_by: Side | None = None


def rubber_step(state: RubberState, play: DealPlay) -> RubberStep:
    """Play one deal of a rubber from ``state`` (its vulnerability comes from the games won).

    >>> from pbntool.model import Contract, Seat, Strain
    >>> step = rubber_step(RubberState(), DealPlay(Contract(3, Strain.NOTRUMP), Seat.SOUTH, 9))
    >>> step.game_won_by, step.after.below
    (<Side.NS: 0>, ((100, 0), (0, 0)))
    """
    lines = list(deal_lines(play, state.vulnerability))
    above = [state.above[side] + lines[side].above for side in (0, 1)]
    below = [list(state.below[0]), list(state.below[1])]
    for side in (0, 1):
        below[side][-1] += lines[side].below
    winner = next((Side(side) for side in (0, 1) if below[side][-1] >= _GAME), None)
    if winner is None:
        return RubberStep((lines[0], lines[1]), _state(state.previous, above, below))
    won = _games_won(below)
    if won[winner] < 2:
        below[0].append(0)
        below[1].append(0)
        return RubberStep((lines[0], lines[1]), _state(state.previous, above, below), winner)
    bonus = _RUBBER_BONUS[won[winner.other]]
    lines[winner] = lines[winner] + Line(bonus, 0)
    above[winner] += bonus
    previous = [state.previous[side] + above[side] + sum(below[side]) for side in (0, 1)]
    return RubberStep((lines[0], lines[1]), RubberState((previous[0], previous[1])), winner, winner)


def _state(previous: tuple[int, int], above: list[int], below: list[list[int]]) -> RubberState:
    return RubberState(previous, (above[0], above[1]), (tuple(below[0]), tuple(below[1])))


def _games_won(below: Sequence[Sequence[int]]) -> tuple[int, int]:
    """Games won: each game of the rubber that a side's trick points reached 100."""
    won = [0, 0]
    for ns, ew in zip(below[0], below[1], strict=True):
        if ns >= _GAME:
            won[0] += 1
        elif ew >= _GAME:
            won[1] += 1
    return won[0], won[1]


def _score_rubber(deals: Iterable[DealPlay]) -> RubberSession:
    state = RubberState()
    scored: list[RubberDeal] = []
    rubbers = 0
    number = 0
    for play in deals:
        number += 1
        step = rubber_step(state, play)
        scored.append(
            RubberDeal(
                play,
                state,
                state.vulnerability,
                step.lines,
                number,
                play.dealer,
                step.game_won_by,
                step.rubber_won_by,
            )
        )
        state = step.after
        if step.rubber_won_by is not None:
            rubbers += 1
            number = 0
    unfinished = _unfinished_bonus(state)
    totals = tuple(
        state.previous[side] + state.above[side] + sum(state.below[side]) + unfinished[side]
        for side in (0, 1)
    )
    return RubberSession(
        RubberKind.RUBBER, tuple(scored), (totals[0], totals[1]), unfinished, rubbers
    )


def _unfinished_bonus(state: RubberState) -> tuple[int, int]:
    """300 for a side with a game, 100 for a side with a part score in the unfinished game."""
    bonus = [0, 0]
    games = state.games
    for side in (0, 1):
        if games[side] == 1:
            bonus[side] += _UNFINISHED_GAME
        if state.below[side][-1] > 0:
            bonus[side] += _UNFINISHED_PART_SCORE
    return bonus[0], bonus[1]


# --- Chicago ---------------------------------------------------------------------------------


def chicago_vulnerability(position: int, dealer: Seat) -> Vulnerability:
    """Who is vulnerable on the ``position``-th deal (1-4) of a Chicago cycle.

    >>> [str(chicago_vulnerability(n, d)) for n, d in zip((1, 2, 3, 4), Seat)]
    ['None', 'EW', 'NS', 'All']
    """
    if position == 1:
        return Vulnerability.NONE
    if position == 4:
        return Vulnerability.ALL
    return Vulnerability.NS if dealer.side is Side.NS else Vulnerability.EW


def _score_chicago(deals: Iterable[DealPlay]) -> RubberSession:
    scored: list[RubberDeal] = []
    totals = [0, 0]
    part_scores = [0, 0]
    position = 1
    next_dealer = Seat.NORTH
    for play in deals:
        dealer = play.dealer if play.dealer is not None else next_dealer
        vulnerability = chicago_vulnerability(position, dealer)
        before = RubberState((totals[0], totals[1]), (0, 0), ((part_scores[0],), (part_scores[1],)))
        lines = list(deal_lines(play, vulnerability))
        game_won_by: Side | None = None
        for side in (0, 1):
            part_scores[side] += lines[side].below
        for side in (0, 1):
            if part_scores[side] >= _GAME and lines[side].below > 0:
                game_won_by = Side(side)
                vulnerable = vulnerability.is_vulnerable(Side(side))
                lines[side] = lines[side] + Line(_CHICAGO_GAME_BONUS[vulnerable], 0)
        if game_won_by is not None:
            part_scores = [0, 0]
        elif position == 4:
            for side in (0, 1):
                if lines[side].below > 0:
                    lines[side] = lines[side] + Line(_CHICAGO_FOURTH_PART_SCORE, 0)
        for side in (0, 1):
            totals[side] += lines[side].total
        scored.append(
            RubberDeal(play, before, vulnerability, (lines[0], lines[1]), position, dealer)
        )
        if play.passed_out:
            next_dealer = dealer  # dealt again by the same player; the cycle does not move
            continue
        next_dealer = dealer.next()
        position = position % 4 + 1
        if position == 1:
            part_scores = [0, 0]
    return RubberSession(RubberKind.CHICAGO, tuple(scored), (totals[0], totals[1]))


# --- one deal --------------------------------------------------------------------------------


def deal_lines(play: DealPlay, vulnerability: Vulnerability) -> tuple[Line, Line]:
    """The above/below points a deal gives NS and EW, honours included, bonuses for games
    and rubbers excluded (they depend on the sequence).

    >>> from pbntool.model import Contract, Seat, Strain
    >>> deal_lines(DealPlay(Contract(4, Strain.SPADES), Seat.NORTH, 11), Vulnerability.NONE)
    (Line(above=30, below=120), Line(above=0, below=0))
    """
    lines = [_ZERO, _ZERO]
    if not play.scorable or play.passed_out:
        return lines[0], lines[1]
    contract, declarer, tricks = play.contract, play.declarer, play.tricks
    assert contract is not None and declarer is not None and tricks is not None
    assert contract.level is not None and contract.strain is not None
    side = declarer.side
    vulnerable = vulnerability.is_vulnerable(side)
    needed = contract.level + 6
    if tricks >= needed:
        lines[side] = _made_line(contract, vulnerable, tricks - needed)
    else:
        penalty = -duplicate_score(contract, vulnerable, tricks)
        lines[side.other] = Line(penalty, 0)
    if play.honours is not None:
        holder, points = play.honours
        lines[holder] = lines[holder] + Line(points, 0)
    return lines[0], lines[1]


def _made_line(contract: Contract, vulnerable: bool, overtricks: int) -> Line:
    assert contract.level is not None and contract.strain is not None
    per_trick = 20 if contract.strain <= Strain.DIAMONDS else 30
    first_extra = 10 if contract.strain is Strain.NOTRUMP else 0
    multiplier = 1 << contract.doubling
    below = (contract.level * per_trick + first_extra) * multiplier
    above = 0
    if contract.doubling is Doubling.UNDOUBLED:
        above += overtricks * per_trick
    else:
        above += overtricks * (200 if vulnerable else 100) * contract.doubling
        above += 50 * contract.doubling  # making a doubled (50) or redoubled (100) contract
    if contract.level in _SLAM_BONUS:
        above += _SLAM_BONUS[contract.level][vulnerable]
    return Line(above, below)


# --- the PBN tags ----------------------------------------------------------------------------


def format_score_rubber(lines: tuple[Line, Line]) -> str:
    """``ScoreRubber`` for a deal: each side that scored, ``NS 30/120``; ``NS 0/0`` for none.

    >>> format_score_rubber((Line(30, 120), Line()))
    'NS 30/120'
    >>> format_score_rubber((Line(0, 60), Line(100, 0)))
    'NS 0/60 EW 100/0'
    """
    parts = [
        f"{side.letters} {line}" for side, line in zip(Side, lines, strict=True) if line != _ZERO
    ]
    return " ".join(parts) if parts else "NS 0/0"


_SCORE_RUBBER = re.compile(
    r"\s*(?:(NS|EW)\s+)?(-?\d+)\s*/\s*(-?\d+)\s*(?:(NS|EW)\s+(-?\d+)\s*/\s*(-?\d+)\s*)?", re.I
)


def parse_score_rubber(text: str, declarer: Side | None) -> tuple[Line, Line] | None:
    """Read ``ScoreRubber``: ``a/b`` (declarer's side), ``NS a/b``, ``EW a/b`` or both sides;
    a side not named scored nothing.  None when the text is not of that form (or a bare
    ``a/b`` has no declarer).

    >>> parse_score_rubber("EW 300/40 NS 50 / 70  ", None)
    (Line(above=50, below=70), Line(above=300, below=40))
    """
    match = _SCORE_RUBBER.fullmatch(text)
    if match is None:
        return None
    first, above, below, second, above2, below2 = match.groups()
    if first is None and second is not None:
        return None
    lines = [_ZERO, _ZERO]
    side = Side.NS if (first or "").upper() == "NS" else Side.EW
    if first is None:
        if declarer is None:
            return None
        side = declarer
    lines[side] = Line(int(above), int(below))
    if second is not None:
        other = Side.NS if second.upper() == "NS" else Side.EW
        if other is side:
            return None
        lines[other] = Line(int(above2), int(below2))
    return lines[0], lines[1]


def format_score_rubber_history(state: RubberState) -> str:
    """``ScoreRubberHistory``: ``NS <previous> <above> / <below per game> EW …``.

    >>> format_score_rubber_history(RubberState(below=((100, 0), (0, 0))))
    'NS 0 0 / 100 0 EW 0 0 / 0 0'
    """
    return " ".join(
        f"{side.letters} {state.previous[side]} {state.above[side]} / "
        + " ".join(str(points) for points in state.below[side])
        for side in Side
    )


_HISTORY_SIDE = r"(NS|EW)\s+(-?\d+)\s+(-?\d+)\s*/\s*((?:-?\d+\s*){1,3})"
_HISTORY = re.compile(rf"\s*{_HISTORY_SIDE}\s*{_HISTORY_SIDE}\s*", re.I)


def parse_score_rubber_history(text: str) -> RubberState | None:
    """Read ``ScoreRubberHistory``; None when it is not of the standard's form (both sides,
    the same number of games for each).

    >>> parse_score_rubber_history("NS 0 0 / 100 0 0 EW 0 0 / 0 100 0").vulnerability
    <Vulnerability.ALL: 'All'>
    """
    match = _HISTORY.fullmatch(text)
    if match is None:
        return None
    groups = match.groups()
    sides: dict[str, tuple[int, int, tuple[int, ...]]] = {}
    for name, previous, above, below in (groups[0:4], groups[4:8]):
        sides[name.upper()] = (int(previous), int(above), tuple(int(n) for n in below.split()))
    if set(sides) != {"NS", "EW"} or len(sides["NS"][2]) != len(sides["EW"][2]):
        return None
    ns, ew = sides["NS"], sides["EW"]
    return RubberState((ns[0], ew[0]), (ns[1], ew[1]), (ns[2], ew[2]))


def rubber_totals(deals: Sequence[RubberDeal]) -> tuple[int, int]:
    """The sum of the deals' points, by side (bonuses for unfinished rubbers excluded)."""
    totals = [0, 0]
    for deal in deals:
        for side in (0, 1):
            totals[side] += deal.lines[side].total
    return totals[0], totals[1]
