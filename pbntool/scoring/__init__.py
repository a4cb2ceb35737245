"""Scoring as pure functions: the duplicate score of one board, and the methods that compare
the results of a board across tables or chain deals into a rubber or a Chicago.

- ``duplicate``: the Laws' duplicate score, the 16-board cycle, the IMP scale.
- ``matchpoints``: MP1/MP2 matchpoints, percentages, Neuberg, artificial scores (A, A+, A-).
- ``comparison``: IMPs for teams, Butler datums, cross-IMPs, board-a-match.
- ``rubber``: rubber bridge and Chicago, above and below the line, honours, the PBN tags
  ``ScoreRubber`` and ``ScoreRubberHistory``.
- ``methods``: the method names of ``score --method`` and the PBN ``Scoring`` tag.
- ``par``: what can be said of a par score without a double-dummy solver.

Grouping the results of an event and writing scores back into files belong to
``pbntool.tools.score``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbntool._aliases import lazy_names

if TYPE_CHECKING:
    from pbntool.scoring import comparison, duplicate, matchpoints, methods, par, rubber
    from pbntool.scoring.comparison import (
        CrossAverage,
        board_a_match,
        butler_datum,
        cross_imps,
        field_board_a_match,
        team_imps,
    )
    from pbntool.scoring.duplicate import (
        board_dealer,
        board_vulnerability,
        duplicate_score,
        imps,
        score_ns,
    )
    from pbntool.scoring.matchpoints import (
        Artificial,
        FieldEntry,
        MatchpointScale,
        MatchpointScore,
        PercentBase,
        matchpoint_top,
        neuberg,
        score_matchpoints,
    )
    from pbntool.scoring.methods import Method, ScoringSpec
    from pbntool.scoring.rubber import (
        DealPlay,
        Line,
        RubberKind,
        RubberSession,
        RubberState,
        honours,
        score_sequence,
    )

# Each name is imported on first use (PEP 562): the Laws checks need the duplicate score
# only, and importing rubber, matchpoints and comparison with it was 7% of the start-up of
# every command.
_EXPORTS: dict[str, str] = {
    "CrossAverage": "comparison",
    "board_a_match": "comparison",
    "butler_datum": "comparison",
    "cross_imps": "comparison",
    "field_board_a_match": "comparison",
    "team_imps": "comparison",
    "board_dealer": "duplicate",
    "board_vulnerability": "duplicate",
    "duplicate_score": "duplicate",
    "imps": "duplicate",
    "score_ns": "duplicate",
    "Artificial": "matchpoints",
    "FieldEntry": "matchpoints",
    "MatchpointScale": "matchpoints",
    "MatchpointScore": "matchpoints",
    "PercentBase": "matchpoints",
    "matchpoint_top": "matchpoints",
    "neuberg": "matchpoints",
    "score_matchpoints": "matchpoints",
    "Method": "methods",
    "ScoringSpec": "methods",
    "DealPlay": "rubber",
    "Line": "rubber",
    "RubberKind": "rubber",
    "RubberSession": "rubber",
    "RubberState": "rubber",
    "honours": "rubber",
    "score_sequence": "rubber",
}
_MODULES = frozenset({"comparison", "duplicate", "matchpoints", "methods", "par", "rubber"})


__getattr__ = lazy_names(__name__, _EXPORTS, _MODULES)


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS, *_MODULES})


__all__ = [
    "Artificial",
    "CrossAverage",
    "DealPlay",
    "FieldEntry",
    "Line",
    "MatchpointScale",
    "MatchpointScore",
    "Method",
    "PercentBase",
    "RubberKind",
    "RubberSession",
    "RubberState",
    "ScoringSpec",
    "board_a_match",
    "board_dealer",
    "board_vulnerability",
    "butler_datum",
    "comparison",
    "cross_imps",
    "duplicate",
    "duplicate_score",
    "field_board_a_match",
    "honours",
    "imps",
    "matchpoint_top",
    "matchpoints",
    "methods",
    "neuberg",
    "par",
    "rubber",
    "score_matchpoints",
    "score_ns",
    "score_sequence",
    "team_imps",
]
