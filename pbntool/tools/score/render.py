"""Event scores as text tables or JSON lines.

JSON lines carry a ``kind``: ``result`` (one result of a board), ``standing`` (a pair's or
team's total), ``deal`` (one rubber or Chicago deal) and ``session`` (a sequence's totals).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from pbntool.model import Seat, Side
from pbntool.scoring.methods import Method, ScoringSpec
from pbntool.scoring.rubber import RubberKind, format_score_rubber
from pbntool.tools.score.results import BoardResults, EventScores, ScoredResult, Standing
from pbntool.tools.score.rubber import RubberScores

__all__ = [
    "method_label",
    "number_text",
    "render_json",
    "render_rubbers_json",
    "render_rubbers_text",
    "render_text",
]


def number_text(value: float | None) -> str:
    """A score as written in tables: an integer plainly, else two decimals; ``-`` for none.

    >>> number_text(3.0), number_text(3), number_text(0.52831), number_text(-0.001)
    ('3', '3', '0.53', '0.00')
    >>> number_text(None)
    '-'
    """
    if value is None:
        return "-"
    value = round(float(value), 9)  # 4.000000000001 (a sum of averages) is 4
    if value.is_integer():
        return str(int(value))
    text = f"{value:.2f}"
    return "0.00" if text == "-0.00" else text


def method_label(spec: ScoringSpec) -> str:
    """How a method is named in headings.

    >>> method_label(ScoringSpec(Method.BUTLER, discard=0))
    'butler (datum: the mean of all scores)'
    """
    method = spec.method
    if method is Method.MP:
        return f"mp ({spec.scale.value}{', Neuberg' if spec.neuberg else ''})"
    if method is Method.BUTLER:
        datum = "without the extreme scores" if spec.discard else "the mean of all scores"
        return f"butler (datum: {datum})"
    if method is Method.CROSS_IMP:
        return f"cross-imp ({spec.cross.value})"
    if method is Method.IMP:
        field = method_label(ScoringSpec(spec.field_imps, discard=spec.discard, cross=spec.cross))
        return f"imp (open against closed room; boards with a traveller: {field})"
    return str(method.value)


def _source(result: ScoredResult) -> str:
    where = f"{result.key.game.file}:{result.key.game.line}"
    return where if result.key.row is None else f"{where} row {result.key.row + 1}"


_RESULT_HEADER = (
    f"{'board':>5} {'contract':<8} {'by':<2} {'tricks':>6} {'score_ns':>8} {'tables':>6} "
    f"{'ns':>8} {'ew':>8} {'ns_%':>6} {'ew_%':>6}  pairs (NS / EW)  source"
)


def _result_line(board: BoardResults, result: ScoredResult) -> str:
    points = result.points
    score = result.artificial or number_text(result.score_ns)
    pairs = f"{result.pair_ns or '-'} / {result.pair_ew or '-'}"
    return (
        f"{number_text(board.number):>5} {result.contract or '-':<8} {result.declarer or '-':<2} "
        f"{number_text(result.tricks):>6} {score:>8} {result.count:>6} "
        f"{number_text(points.ns):>8} {number_text(points.ew):>8} "
        f"{number_text(points.ns_percentage):>6} {number_text(points.ew_percentage):>6}  "
        f"{pairs}  {_source(result)}"
    )


_STANDING_HEADER = (
    f"{'rank':>4}  {'pair or team':<30} {'boards':>6} {'total':>9} {'mean':>8} {'percentage':>10}"
)


def _standing_line(standing: Standing) -> str:
    percentage = number_text(standing.percentage) if standing.percentage is not None else ""
    return (
        f"{standing.rank:>4}  {standing.name:<30} {standing.boards:>6} "
        f"{number_text(standing.total):>9} {number_text(standing.mean):>8} {percentage:>10}"
    )


def render_text(scores: EventScores) -> Iterator[str]:
    """Per event: every board's results, then the standings."""
    events = list(dict.fromkeys((board.event, board.section) for board in scores.boards))
    for event in events:
        spec = scores.methods.get(event, ScoringSpec(Method.DUPLICATE))
        title = event[0] or "(no Event)"
        if event[1]:
            title += f", section {event[1]}"
        yield f"== {title}: {method_label(spec)} =="
        yield _RESULT_HEADER
        for board in scores.boards:
            if (board.event, board.section) != event:
                continue
            for result in board.results:
                yield _result_line(board, result)
            if board.datum is not None:
                yield f"{'':>5} datum {board.datum}"
        standings = [s for s in scores.standings if (s.event, s.section) == event]
        if standings:
            yield ""
            yield _STANDING_HEADER
            yield from (_standing_line(standing) for standing in standings)
        yield ""


def render_json(scores: EventScores) -> Iterator[str]:
    """One JSON object per result, then one per standing."""
    for board in scores.boards:
        for result in board.results:
            yield json.dumps(_result_object(board, result), ensure_ascii=False)
    for standing in scores.standings:
        yield json.dumps(
            {
                "kind": "standing",
                "event": standing.event,
                "section": standing.section,
                "rank": standing.rank,
                "name": standing.name,
                "boards": standing.boards,
                "total": standing.total,
                "mean": standing.mean,
                "percentage": standing.percentage,
            },
            ensure_ascii=False,
        )


def _result_object(board: BoardResults, result: ScoredResult) -> dict[str, object]:
    points = result.points
    return {
        "kind": "result",
        "event": board.event,
        "section": board.section,
        "board": board.number,
        "method": board.method.value,
        "file": result.key.game.file,
        "line": result.key.game.line,
        "row": None if result.key.row is None else result.key.row + 1,
        "contract": result.contract,
        "declarer": result.declarer,
        "tricks": result.tricks,
        "score_ns": result.score_ns,
        "artificial": result.artificial,
        "count": result.count,
        "pair_ns": result.pair_ns,
        "pair_ew": result.pair_ew,
        "ns": points.ns,
        "ew": points.ew,
        "ns_percentage": points.ns_percentage,
        "ew_percentage": points.ew_percentage,
        "top": board.top,
        "datum": board.datum,
    }


# --- rubber and Chicago ------------------------------------------------------------------------


def _letter(seat: Seat | None) -> str:
    """A seat's letter, ``-`` for none (North is ``Seat(0)``: never test a seat for truth)."""
    return "-" if seat is None else seat.letter


def _letters(side: Side | None) -> str:
    return "" if side is None else side.letters


_DEAL_HEADER = (
    f"{'deal':>4} {'board':>5} {'dealer':<6} {'vul':<4} {'contract':<8} {'by':<2} {'tricks':>6} "
    f"{'honours':<8} {'NS':>10} {'EW':>10}  {'game':<4} {'rubber':<6} source"
)


def render_rubbers_text(sessions: Sequence[RubberScores], kind: RubberKind) -> Iterator[str]:
    """Per sequence: each deal with its above/below points, then the totals."""
    for scored in sessions:
        first = scored.games[0]
        yield f"== {kind.value}: {first.key.file} {first.event or ''} =="
        yield _DEAL_HEADER
        for game, deal in zip(scored.games, scored.session.deals, strict=True):
            honours = (
                "-"
                if deal.play.honours is None
                else (f"{deal.play.honours[0].letters} {deal.play.honours[1]}")
            )
            yield (
                f"{deal.position:>4} {number_text(game.number):>5} "
                f"{_letter(deal.dealer):<6} {deal.vulnerability!s:<4} "
                f"{str(game.contract) if game.contract else '-':<8} "
                f"{_letter(game.declarer):<2} "
                f"{number_text(game.tricks):>6} "
                f"{honours:<8} {deal.lines[0]!s:>10} {deal.lines[1]!s:>10}  "
                f"{_letters(deal.game_won_by):<4} "
                f"{_letters(deal.rubber_won_by):<6} "
                f"{game.key.file}:{game.key.line}"
            )
        session = scored.session
        unfinished = ""
        if any(session.unfinished):
            unfinished = (
                f"; unfinished rubber: NS +{session.unfinished[0]}, EW +{session.unfinished[1]}"
            )
        yield (
            f"totals: NS {session.totals[0]}, EW {session.totals[1]} "
            f"({session.rubbers} rubber{'s' if session.rubbers != 1 else ''} finished{unfinished})"
        )
        yield ""


def render_rubbers_json(sessions: Sequence[RubberScores], kind: RubberKind) -> Iterator[str]:
    """One JSON object per deal, then one per sequence."""
    for scored in sessions:
        for game, deal in zip(scored.games, scored.session.deals, strict=True):
            yield json.dumps(
                {
                    "kind": "deal",
                    "method": kind.value,
                    "file": game.key.file,
                    "line": game.key.line,
                    "board": game.number,
                    "position": deal.position,
                    "dealer": None if deal.dealer is None else deal.dealer.letter,
                    "vulnerable": str(deal.vulnerability),
                    "contract": str(game.contract) if game.contract else None,
                    "declarer": None if game.declarer is None else game.declarer.letter,
                    "tricks": game.tricks,
                    "ns_above": deal.lines[0].above,
                    "ns_below": deal.lines[0].below,
                    "ew_above": deal.lines[1].above,
                    "ew_below": deal.lines[1].below,
                    "score_rubber": format_score_rubber(deal.lines),
                    "game_won_by": _letters(deal.game_won_by) or None,
                    "rubber_won_by": _letters(deal.rubber_won_by) or None,
                },
                ensure_ascii=False,
            )
        session = scored.session
        yield json.dumps(
            {
                "kind": "session",
                "method": kind.value,
                "file": scored.games[0].key.file,
                "event": scored.games[0].event,
                "deals": len(session.deals),
                "rubbers": session.rubbers,
                "ns_total": session.totals[0],
                "ew_total": session.totals[1],
                "ns_unfinished": session.unfinished[0],
                "ew_unfinished": session.unfinished[1],
            },
            ensure_ascii=False,
        )
