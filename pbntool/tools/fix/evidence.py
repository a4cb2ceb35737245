"""What the play and the stated scores say: evidence ``derive`` weighs.

The tricks a play decides (complete, or a claim with only the forced last trick left), the
contract and declarer the play is judged by (stated, else the completed auction's, as the
Laws checks take them), and scores from North-South's point of view.
"""

from __future__ import annotations

from pbntool.model import (
    ALL_CARDS,
    Board,
    Card,
    Contract,
    Score,
    Seat,
    SectionEnd,
    Token,
    Vulnerability,
)
from pbntool.notation import CARDS_PER_HAND
from pbntool.rules import auction_outcome, sequence_play, trick_winner, tricks_decided
from pbntool.scoring import score_ns

__all__ = [
    "computed_score_ns",
    "contract_for_play",
    "declarer_for_play",
    "played_result",
    "score_of",
    "stated_ns",
]


def played_result(board: Board) -> tuple[int, str, bool] | None:
    """Declarer's tricks as the play decides them: ``(tricks, reason, complete)``.

    A play of 13 decided tricks is complete.  A claim (``*``) after 12 decided tricks of a
    full deal leaves one card in each hand, so the last trick is forced.  None for anything
    else, and for a play the Laws checks find wrong (a card not held, played twice, ...):
    its tricks are no evidence.
    """
    if board.play is None:
        return None
    counted = tricks_decided(board, legal_only=True)
    if counted is None:
        return None
    won, lost = counted
    if won + lost == CARDS_PER_HAND:
        return won, f"declarer took {won} tricks in the complete play", True
    if won + lost == CARDS_PER_HAND - 1 and board.play.end is SectionEnd.STOP:
        last = _forced_last_trick(board)
        if last is not None:
            total = won + last
            return total, f"declarer took {won} of 12 tricks and the last trick is forced", False
    return None


def _forced_last_trick(board: Board) -> int | None:
    """1 when declarer's side wins the forced thirteenth trick, 0 when it loses it."""
    play, deal, contract = board.play, board.deal, contract_for_play(board)
    declarer = declarer_for_play(board)
    if play is None or deal is None or contract is None or declarer is None:
        return None
    if not deal.is_complete or contract.strain is None:
        return None
    trump = contract.strain.trump
    tricks = sequence_play(play, trump)
    if len(tricks) < CARDS_PER_HAND - 1 or tricks[CARDS_PER_HAND - 2].winner is None:
        return None
    left = [hand.mask if hand is not None else 0 for hand in deal.hands]
    for trick in tricks[: CARDS_PER_HAND - 1]:
        for seat, slot in trick.cards:
            if not isinstance(slot, Card) or not left[seat] & slot.bit:
                return None
            left[seat] ^= slot.bit
    if any(mask.bit_count() != 1 for mask in left):
        return None
    last = [_only_card(mask) for mask in left]
    if len(play.tricks) >= CARDS_PER_HAND:
        shown = play.tricks[CARDS_PER_HAND - 1]
        if any(
            isinstance(s, Card) and s is not last[seat] for seat, s in zip(Seat, shown, strict=True)
        ):
            return None  # a card shown in the last trick that the seat cannot hold
    leader = tricks[CARDS_PER_HAND - 2].winner
    assert leader is not None
    order = [leader.next(step) for step in range(4)]
    winner = order[trick_winner([last[seat] for seat in order], trump)]
    return 1 if winner.side is declarer.side else 0


def _only_card(mask: int) -> Card:
    return next(card for card in ALL_CARDS if card.bit == mask)


def contract_for_play(board: Board) -> Contract | None:
    if board.contract is not None:
        return board.contract
    outcome = auction_outcome(board.auction) if board.auction is not None else None
    return outcome.contract if outcome is not None and outcome.complete else None


def declarer_for_play(board: Board) -> Seat | None:
    if board.declarer is not None:
        return board.declarer
    outcome = auction_outcome(board.auction) if board.auction is not None else None
    return outcome.declarer if outcome is not None and outcome.complete else None


def score_of(
    contract: Contract | None, declarer: Seat | None, vulnerability: Vulnerability, tricks: int
) -> int | None:
    if contract is None or contract.level is None or not 0 <= tricks <= CARDS_PER_HAND:
        return None
    if contract.is_passed_out:
        return 0
    if declarer is None:
        return None
    return score_ns(contract, declarer, vulnerability, tricks)


def computed_score_ns(board: Board) -> tuple[int, str] | None:
    """The duplicate score from NS's view and how it was found, as ``check_score`` finds it
    (None for a game still to be continued: its Result is not final)."""
    if _to_be_continued(board):
        return None
    contract = contract_for_play(board)
    if contract is None:
        return None
    if contract.is_passed_out:
        return 0, "the board was passed out"
    declarer, result, vulnerability = declarer_for_play(board), board.result, board.vulnerability
    if contract.level is None or declarer is None or result is None or vulnerability is None:
        return None
    if not 0 <= result.tricks <= CARDS_PER_HAND:
        return None
    ns = score_ns(contract, declarer, vulnerability, result.tricks)
    vulnerable = "vulnerable" if vulnerability.is_vulnerable(declarer.side) else "not vulnerable"
    reason = f"{contract} by {declarer.letter} taking {result.tricks}, {vulnerable}"
    return ns, reason


def _to_be_continued(board: Board) -> bool:
    """A ``+`` in the auction or the play: the game goes on (PBN 2.0).  Nothing may follow
    a ``+`` call, nor the trick of a ``+`` card, so only the last call and trick can hold
    one."""
    auction, play = board.auction, board.play
    if auction is not None and auction.calls and _is_continue(auction.calls[-1]):
        return True
    return play is not None and bool(play.tricks) and any(map(_is_continue, play.tricks[-1]))


def _is_continue(item: object) -> bool:
    return isinstance(item, Token) and item.text == "+"


def stated_ns(score: Score, declarer: Seat | None) -> int | None:
    """A stated score from NS's view (a bare score is declarer's; None if that is unknown)."""
    if score.points == 0:
        return 0
    if score.side is None:
        if declarer is None:
            return None
        return score.points if declarer.side.letters == "NS" else -score.points
    return score.points if score.side.letters == "NS" else -score.points
