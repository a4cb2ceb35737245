"""What event scoring produces: scored results, boards, standings, and the whole event."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pbntool.diagnostics import Diagnostic
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.tools.score.games import GameKey, ResultKey

__all__ = ["NO_POINTS", "BoardResults", "EventScores", "Points", "ScoredResult", "Standing"]


@dataclass(frozen=True, slots=True)
class Points:
    """What one result scores for each side, in the method's unit (MP, IMP, BAM points or
    total points), and as a percentage for matchpoints."""

    ns: float | None
    ew: float | None
    ns_percentage: float | None = None
    ew_percentage: float | None = None


NO_POINTS = Points(None, None)
"""A result that could not be scored."""


@dataclass(frozen=True, slots=True)
class ScoredResult:
    """One result of a board with its score.

    ``key`` says where it came from: a game (``key.row`` None) or a row of a game's
    ScoreTable.  ``count`` tables had it (a ScoreTable's Multiplicity).
    """

    key: ResultKey
    score_ns: int | None
    count: int
    points: Points
    pair_ns: str | None = None
    pair_ew: str | None = None
    contract: str | None = None
    declarer: str | None = None
    tricks: int | None = None
    artificial: str | None = None
    """``A+/A-`` and the like for an artificial result."""
    room: str | None = None


@dataclass(frozen=True, slots=True)
class BoardResults:
    """Every result of one board, scored."""

    event: str
    section: str
    number: int | None
    method: Method
    results: tuple[ScoredResult, ...]
    top: float | None = None
    """Matchpoints: the top of the board (after Neuberg scaling)."""
    datum: int | None = None
    """Butler: the datum."""


@dataclass(frozen=True, slots=True)
class Standing:
    """The total of one pair or team over the boards it played."""

    rank: int
    name: str
    boards: int
    total: float
    mean: float
    percentage: float | None = None
    """Matchpoints: the pair's matchpoints over the sum of the tops, times 100."""
    event: str = ""
    section: str = ""
    complete: bool = True
    """False when some of the event's travellers name no pairs, so that the pairs' totals
    count only the games the files hold (not every result of the traveller)."""


@dataclass(frozen=True, slots=True)
class EventScores:
    """The scores of an event: per board, per game, per pair or team.

    ``games`` maps each game (``GameKey``: its file and first line, as ``Record.file`` and
    ``Record.line`` give them) to the score of its own result, which is what a ``ScoreMP``,
    ``ScoreIMP`` or ``ScorePercentage`` tag of that game should state.
    """

    boards: tuple[BoardResults, ...]
    standings: tuple[Standing, ...]
    games: Mapping[GameKey, ScoredResult]
    methods: Mapping[tuple[str, str], ScoringSpec]
    """The method used for each (Event, Section)."""
    diagnostics: tuple[Diagnostic, ...] = ()
    board_of: Mapping[GameKey, int] = field(default_factory=dict)
    """Each game's board, as an index into ``boards``."""

    def game(self, key: GameKey) -> ScoredResult | None:
        """The score of a game's own result (None when it could not be scored)."""
        return self.games.get(key)

    def board(self, key: GameKey) -> BoardResults | None:
        """The board a game played (its results, the traveller's when it has one)."""
        index = self.board_of.get(key)
        return None if index is None else self.boards[index]
