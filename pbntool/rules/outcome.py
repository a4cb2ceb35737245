"""What happened on a board: the contract, declarer, tricks and score, stated or derived.

``select``, ``stats`` and ``dedupe`` all ask the same questions of a board ("what was the
contract? did it make?"), so they share one answer: the stated Contract and Declarer, else
the auction's final contract; the stated Result, else the tricks of a complete play; the
duplicate score those give.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbntool.model import Board, Contract, Score, Seat, Side, pickle_by_fields
from pbntool.notation import TRICKS_PER_DEAL
from pbntool.rules import auction_outcome, sequence_play
from pbntool.scoring import score_ns

__all__ = ["BoardOutcome", "board_outcome", "declarer_tricks_from_play", "stated_score_ns"]


@dataclass(frozen=True, slots=True)
class BoardOutcome:
    """The contract, declarer and tricks of a board (None where unknown)."""

    contract: Contract | None
    declarer: Seat | None
    tricks: int | None

    @property
    def passed_out(self) -> bool:
        """True for a board passed out (four passes or ``Contract "Pass"``)."""
        return self.contract is not None and self.contract.is_passed_out

    @property
    def margin(self) -> int | None:
        """Tricks over (positive) or under (negative) the contract; None when unknown."""
        contract, tricks = self.contract, self.tricks
        if (
            contract is None
            or not contract.level
            or tricks is None
            or not 0 <= tricks <= TRICKS_PER_DEAL
        ):
            return None
        return tricks - contract.level - 6

    def score_ns(self, board: Board) -> int | None:
        """The duplicate score for North-South, when contract, declarer, tricks and the
        vulnerability are all known (0 for a board passed out)."""
        contract = self.contract
        if contract is None:
            return None
        if contract.is_passed_out:
            return 0
        margin = self.margin
        if margin is None or self.declarer is None or board.vulnerability is None:
            return None
        assert self.tricks is not None
        return score_ns(contract, self.declarer, board.vulnerability, self.tricks)

    def signature(self) -> str:
        """A short text naming the result (``4SX S 10``, ``Pass``, ``-`` when unknown)."""
        if self.contract is None:
            return "-"
        if self.contract.is_passed_out:
            return "Pass"
        declarer = self.declarer.letter if self.declarer is not None else "?"
        tricks = "?" if self.tricks is None else str(self.tricks)
        return f"{self.contract} {declarer} {tricks}"


def board_outcome(board: Board) -> BoardOutcome:
    """The board's contract and declarer as stated (else from a complete auction), and the
    tricks as stated (else from a complete play)."""
    contract, declarer = board.contract, board.declarer
    if board.auction is not None and (contract is None or declarer is None):
        outcome = auction_outcome(board.auction)
        if outcome.complete:  # "is None", not "or": Seat.NORTH is 0
            contract = outcome.contract if contract is None else contract
            declarer = outcome.declarer if declarer is None else declarer
    tricks = board.result.tricks if board.result is not None else None
    if tricks is None and contract is not None and contract.level:
        tricks = declarer_tricks_from_play(board, contract, declarer)
    return BoardOutcome(contract, declarer, tricks)


def stated_score_ns(board: Board, declarer: Seat | None) -> int | None:
    """The stated ``Score`` from North-South's point of view (None if it cannot be known)."""
    stated: Score | None = board.score
    if stated is None:
        return None
    side = stated.side
    if side is None:
        if declarer is None:
            return 0 if stated.points == 0 else None
        side = declarer.side
    return stated.points if side is Side.NS else -stated.points


def declarer_tricks_from_play(
    board: Board, contract: Contract, declarer: Seat | None
) -> int | None:
    """Tricks won by declarer's side in a complete 13-trick play record, else None."""
    if board.play is None or declarer is None or contract.strain is None:
        return None
    tricks = sequence_play(board.play, contract.strain.trump)
    winners = [trick.winner for trick in tricks]
    if len(winners) != TRICKS_PER_DEAL or any(winner is None for winner in winners):
        return None
    return sum(1 for winner in winners if winner is not None and winner.side == declarer.side)


pickle_by_fields(BoardOutcome)  # compiled, a frozen dataclass cannot unpickle itself
