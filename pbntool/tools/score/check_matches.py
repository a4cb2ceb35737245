"""``score --check`` for team matches: what a file states of its matches against the matches
its games give (each board's IMPs summed per match, the margin converted with a VP scale).

Checked (EVT020): a TotalScoreTable's ``TotalVP`` (pbntool's column, and what a USEBIO team's
``TOTAL_SCORE`` is when its matches are scored in VPs) against the team's VPs over its
matches; and the match scores a USEBIO file states (``TEAM_SCORE``, ``OPPOSING_TEAM_SCORE``,
``TEAM_VICTORY_POINTS``, ``OPPOSING_TEAM_VICTORY_POINTS``, read as ``UsebioMatch…`` tags on
the match's games) against that match's IMPs and VPs.  The VP scale is ``--vp``'s; without
one, the WBF scale (continuous, else discrete) that explains the values, with EVT017 when it
is not the continuous one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from pbntool.diagnostics import EVT020
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.scoring.vp import VpScale
from pbntool.tools.score.games import GameEntry
from pbntool.tools.score.grouping import GroupBy
from pbntool.tools.score.matches import MatchResult, match_results, team_standings
from pbntool.tools.score.values import parse_number
from pbntool.tools.score.variants import TEAM_VARIANTS, Item, Variant

__all__ = ["MATCH_TAGS", "match_items"]

MATCH_TAGS: Mapping[str, tuple[str, str]] = {
    "UsebioMatchTeamScore": ("team", "imps"),
    "UsebioMatchOpposingTeamScore": ("opposing", "imps"),
    "UsebioMatchTeamVictoryPoints": ("team", "vp"),
    "UsebioMatchOpposingTeamVictoryPoints": ("opposing", "vp"),
}
"""The match scores a USEBIO team file states, by tag: whose (the match's TEAM, which the
reader makes the HomeTeam, or the OPPOSING_TEAM) and what (IMPs won, or VPs)."""

_WBF = (VpScale("wbf"), VpScale("wbf-discrete"))
_IMPS = TEAM_VARIANTS[0].label

_MatchKey = tuple[str, str, frozenset[str]]


def _label(scale: VpScale) -> str:
    return scale.describe(())


def _key(event: str, round_: str, teams: frozenset[str]) -> _MatchKey:
    return (event, round_, teams)


def match_items(
    games: Sequence[GameEntry], scale: VpScale | None, group_by: GroupBy
) -> tuple[list[Item], dict[str, Sequence[Variant]]]:
    """The stated VPs and match IMPs of the games as items (EVT020), and the variants of the
    ``vp`` kind (one per scale tried)."""
    totals = [
        (game, row)
        for game in games
        if game.total_table is not None and "TotalVP" in game.total_table.columns
        for row in game.total_table.rows
    ]
    stated_matches = [game for game in games if any(tag in game.stated for tag in MATCH_TAGS)]
    scales = (scale,) if scale is not None else _WBF
    variants: dict[str, Sequence[Variant]] = {
        "vp": tuple(Variant(_label(s), ScoringSpec(Method.IMP)) for s in scales),
        "team": TEAM_VARIANTS,
    }
    if not totals and not stated_matches:
        return [], variants
    declared = _label(scale) if scale is not None else None
    matches = {_label(s): match_results(games, s, group_by) for s in scales}
    items: list[Item] = []
    for game, row in totals:
        cell = row.get("TotalVP")
        value = None if cell is None else parse_number(cell.text)
        team = _team(row)
        if cell is None or value is None or team is None:
            continue
        computed: dict[str, float | None] = {}
        for label, results in matches.items():
            event = [match for match in results if match.event == game.event]
            standing = next((s for s in team_standings(event) if s.team == team), None)
            computed[label] = None if standing is None else round(standing.vp, 2)
        if any(number is not None for number in computed.values()):
            items.append(
                Item("vp", EVT020, "TotalScoreTable TotalVP", cell, value, game, computed, declared)
            )
    items.extend(_match_tag_items(stated_matches, matches, declared))
    return items, variants


def _team(row: Mapping[str, object]) -> str | None:
    cell = row.get("PairId") or row.get("Names")
    text = getattr(cell, "text", None)
    if not isinstance(text, str):
        return None
    text = text.strip()
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        text = text[1:-1]
    return text or None


def _match_tag_items(
    games: Sequence[GameEntry], matches: Mapping[str, list[MatchResult]], declared: str | None
) -> list[Item]:
    """One item per stated match score (the match's games all carry it: its first is used)."""
    indexed: dict[str, dict[_MatchKey, MatchResult]] = defaultdict(dict)
    for label, results in matches.items():
        for match in results:
            indexed[label][_key(match.event, match.round, frozenset((match.home, match.visit)))] = (
                match
            )
    items: list[Item] = []
    done: set[_MatchKey] = set()
    for game in games:
        if not (game.home_team and game.visit_team):
            continue
        key = _key(game.event, game.round or "", frozenset((game.home_team, game.visit_team)))
        if key in done:
            continue
        done.add(key)
        for tag, (whose, what) in MATCH_TAGS.items():
            stated = game.stated.get(tag)
            value = None if stated is None else parse_number(stated.text)
            if stated is None or value is None:
                continue
            team = game.home_team if whose == "team" else game.visit_team
            computed: dict[str, float | None] = {}
            for label, by_key in indexed.items():
                found = by_key.get(key)
                computed[label] = None if found is None else _side(found, team, what)
            if what == "imps":
                first = next(iter(computed.values()), None)
                items.append(Item("team", EVT020, tag, stated, value, game, {_IMPS: first}))
            else:
                items.append(Item("vp", EVT020, tag, stated, value, game, computed, declared))
    return items


def _side(match: MatchResult, team: str, what: str) -> float:
    home = match.home == team
    if what == "imps":
        return match.home_imps if home else match.visit_imps
    return match.home_vp if home else match.visit_vp
