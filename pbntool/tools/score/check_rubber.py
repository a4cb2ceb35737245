"""``score --check`` for rubber bridge and Chicago: ScoreRubber, ScoreRubberHistory and the
vulnerability of each deal, against the sequence of deals of the file.

A sequence is the games of one file in order, cut where the Event changes.  Its first
deal's ScoreRubberHistory, when stated, is where the sequence starts (a file may begin in the
middle of a rubber); after a deal that cannot be scored the state is unknown until a stated
ScoreRubberHistory gives it again.  So a collection of unrelated example deals is not taken
for one rubber.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from pbntool.diagnostics import EVT010, EVT011, EVT012, EVT013, EVT019, Diagnostic
from pbntool.model import Vulnerability
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.scoring.rubber import (
    DealPlay,
    Line,
    RubberKind,
    RubberState,
    format_score_rubber,
    format_score_rubber_history,
    parse_score_rubber,
    parse_score_rubber_history,
    rubber_step,
    score_sequence,
)
from pbntool.tools.score.games import GameEntry
from pbntool.tools.score.grouping import placed

__all__ = [
    "RubberCheck",
    "check_history_vulnerability",
    "check_rubber_sequence",
    "deal_play",
    "rubber_kind",
    "sequences",
]


@dataclass(slots=True)
class RubberCheck:
    """Findings of one sequence, and what was checked (file, agreed)."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    exact: list[tuple[str, bool]] = field(default_factory=list)


def sequences(games: Sequence[GameEntry]) -> Iterator[list[GameEntry]]:
    """The games of each file in order, cut where the file, the Event or the Scoring tag
    changes."""
    current: list[GameEntry] = []
    for game in games:
        if current and _sequence_key(game) != _sequence_key(current[-1]):
            yield current
            current = []
        current.append(game)
    if current:
        yield current


def _sequence_key(game: GameEntry) -> tuple[str, str, str | None]:
    return (game.key.file, game.event, game.scoring)


def rubber_kind(sequence: Sequence[GameEntry], forced: ScoringSpec | None) -> RubberKind | None:
    """Whether a sequence is a rubber or a Chicago: ``--method``, else its Scoring tag, else
    a rubber when its games state ScoreRubber or ScoreRubberHistory."""
    spec = forced
    if spec is None and sequence[0].scoring is not None:
        spec = ScoringSpec.from_tag(sequence[0].scoring)
    if spec is not None:
        return _KINDS.get(spec.method)
    tags = {"ScoreRubber", "ScoreRubberHistory"}
    if any(tags & game.stated.keys() for game in sequence):
        return RubberKind.RUBBER
    return None


_KINDS = {Method.RUBBER: RubberKind.RUBBER, Method.CHICAGO: RubberKind.CHICAGO}


def deal_play(game: GameEntry) -> DealPlay:
    """What rubber scoring needs of a game (honours only when its deal is known)."""
    return DealPlay(game.contract, game.declarer, game.tricks, game.honours, game.dealer)


def check_history_vulnerability(game: GameEntry) -> tuple[Diagnostic | None, bool]:
    """EVT012: a stated ScoreRubberHistory against the game's Vulnerable tag.

    Returns the finding (None when they agree) and whether anything was checked.
    """
    history, vulnerable = game.stated.get("ScoreRubberHistory"), game.stated.get("Vulnerable")
    if history is None or vulnerable is None or game.vulnerability is None:
        return None, False
    state = parse_score_rubber_history(history.text)
    if state is None:
        return None, False
    expected = state.vulnerability
    if expected is game.vulnerability:
        return None, True
    finding = EVT012.at(
        stated=f'"{vulnerable.text}"',
        history=f'"{history.text}"',
        expected=_vulnerable_text(expected),
    )
    return placed(finding, game, vulnerable.place), True


def _vulnerable_text(vulnerability: Vulnerability) -> str:
    return {
        Vulnerability.NONE: "nobody",
        Vulnerability.NS: "NS",
        Vulnerability.EW: "EW",
        Vulnerability.ALL: "both sides",
    }[vulnerability]


@dataclass(slots=True)
class _Rubber:
    """The running state of a rubber sequence (None: unknown)."""

    state: RubberState | None = field(default_factory=RubberState)
    computed: bool = False
    """True when the state comes from scoring earlier deals (not from a stated history)."""


def check_rubber_sequence(games: Sequence[GameEntry], kind: RubberKind) -> RubberCheck:
    """Check the deals of one sequence as a rubber or a Chicago."""
    if kind is RubberKind.CHICAGO:
        return _check_chicago(games)
    found = RubberCheck()
    rubber = _Rubber()
    for game in games:
        stated = game.stated.get("ScoreRubberHistory")
        parsed = parse_score_rubber_history(stated.text) if stated is not None else None
        if rubber.state is not None and rubber.computed and stated is not None:
            _compare_history(game, stated.text, rubber.state, found)
        if parsed is not None and not (rubber.computed and rubber.state is not None):
            rubber.state, rubber.computed = parsed, False
        state = rubber.state
        if state is not None and rubber.computed:
            _compare_vulnerability(game, state.vulnerability, "the games won so far", found)
        play = deal_play(game)
        if state is None or not play.scorable:
            _score_rubber_tag(game, None, None, found)
            rubber.state, rubber.computed = None, False
            continue
        step = rubber_step(state, play)
        _score_rubber_tag(game, step.lines, "rubber", found)
        rubber.state, rubber.computed = step.after, True
    return found


def _compare_history(game: GameEntry, text: str, state: RubberState, found: RubberCheck) -> None:
    stated = game.stated["ScoreRubberHistory"]
    parsed = parse_score_rubber_history(text)
    agreed = parsed == state
    found.exact.append((game.key.file, agreed))
    if not agreed:
        finding = EVT011.at(stated=f'"{text}"', computed=f'"{format_score_rubber_history(state)}"')
        found.diagnostics.append(placed(finding, game, stated.place))


def _compare_vulnerability(
    game: GameEntry, expected: Vulnerability, reason: str, found: RubberCheck
) -> None:
    stated = game.stated.get("Vulnerable")
    if stated is None or game.vulnerability is None:
        return
    agreed = game.vulnerability is expected
    found.exact.append((game.key.file, agreed))
    if not agreed:
        finding = EVT013.at(stated=f'"{stated.text}"', reason=reason, expected=str(expected))
        found.diagnostics.append(placed(finding, game, stated.place))


def _score_rubber_tag(
    game: GameEntry, lines: tuple[Line, Line] | None, kind: str | None, found: RubberCheck
) -> None:
    stated = game.stated.get("ScoreRubber")
    if stated is None:
        return
    if lines is None or kind is None:
        reason = "the deal or the state of the rubber before it is not known"
        note = EVT019.at(name="ScoreRubber", stated=f'"{stated.text}"', reason=reason)
        found.diagnostics.append(placed(note, game, stated.place))
        return
    if not game.deal_known and game.contract is not None and not game.contract.is_passed_out:
        reason = "the deal is not known, so honours cannot be counted"
        note = EVT019.at(name="ScoreRubber", stated=f'"{stated.text}"', reason=reason)
        found.diagnostics.append(placed(note, game, stated.place))
        return
    declarer = game.declarer.side if game.declarer is not None else None
    parsed = parse_score_rubber(stated.text, declarer)
    agreed = parsed == lines
    found.exact.append((game.key.file, agreed))
    if not agreed:
        finding = EVT010.at(
            stated=f'"{stated.text}"', computed=f'"{format_score_rubber(lines)}"', kind=kind
        )
        found.diagnostics.append(placed(finding, game, stated.place))


def _check_chicago(games: Sequence[GameEntry]) -> RubberCheck:
    found = RubberCheck()
    plays = [deal_play(game) for game in games]
    session = score_sequence(plays, RubberKind.CHICAGO)
    known = True
    for game, deal in zip(games, session.deals, strict=True):
        if deal.dealer is not None:
            reason = f"deal {deal.position} of the Chicago cycle, dealt by {deal.dealer.letter},"
            _compare_vulnerability(game, deal.vulnerability, reason, found)
        scorable = deal.play.scorable and known
        _score_rubber_tag(game, deal.lines if scorable else None, "Chicago", found)
        known = known and deal.play.scorable
    return found
