"""Rubber and Chicago sessions of an event's files: each sequence of deals scored in order.

A sequence is the games of one file in order, cut where the Event or the Scoring tag changes
(see ``check_rubber.sequences``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbntool.scoring.rubber import RubberKind, RubberSession, score_sequence
from pbntool.tools.score.check_rubber import deal_play, sequences
from pbntool.tools.score.games import GameEntry

__all__ = ["RubberScores", "score_rubbers"]


@dataclass(frozen=True, slots=True)
class RubberScores:
    """One sequence: its games and the session that scores them (deal by deal, in order)."""

    games: tuple[GameEntry, ...]
    session: RubberSession


def score_rubbers(games: Sequence[GameEntry], kind: RubberKind) -> list[RubberScores]:
    """Score every sequence of ``games`` as rubber bridge or as Chicago."""
    scored = []
    for sequence in sequences(games):
        session = score_sequence([deal_play(game) for game in sequence], kind)
        scored.append(RubberScores(tuple(sequence), session))
    return scored
