"""The Laws as pure functions over the model: what an auction and a play imply, and checks.

Nothing here knows about files; checks yield ``Diagnostic``s carrying a model ``path`` that
the reader's source map turns into a line and column.  ``check_board`` runs every check in a
fixed order: deal, auction, contract, play, result, score, board conventions.

The checks live in one module per subject, and every public name is re-exported here:

- ``auction``: what an auction implies (``auction_outcome``) and whether its calls are legal.
- ``deal``: the hands as card masks, and whether the deal is consistent.
- ``play``: trick winners, the play in played order, and the play and Result against the Laws.
- ``board``: the stated Contract, Declarer, Result range and Score against what the auction
  and the scoring tables give, and Dealer and Vulnerable against the board number.

Hot loops work on ints: a set of cards is a bit mask with bit ``suit * 16 + rank``, so a
suit's cards are one 16-bit field and "does this player still hold the suit led?" is a
mask test.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbntool.diagnostics import Diagnostic
from pbntool.model import Board
from pbntool.rules.auction import AuctionOutcome, auction_outcome, check_auction
from pbntool.rules.board import (
    _check_contract,
    _check_score,
    check_contract,
    check_conventions,
    check_score,
)
from pbntool.rules.deal import _check_deal, _hand_masks, check_deal
from pbntool.rules.play import (
    PlayedTrick,
    _check_play,
    _check_result,
    check_play,
    check_result,
    is_slot_card,
    played_order,
    seated_tricks,
    sequence_play,
    trick_winner,
    tricks_decided,
    trump_of,
)

__all__ = [
    "AuctionOutcome",
    "PlayedTrick",
    "auction_outcome",
    "check_auction",
    "check_board",
    "check_contract",
    "check_conventions",
    "check_deal",
    "check_play",
    "check_result",
    "check_score",
    "is_slot_card",
    "played_order",
    "seated_tricks",
    "sequence_play",
    "trick_winner",
    "tricks_decided",
    "trump_of",
]


def check_board(board: Board) -> Iterator[Diagnostic]:
    """Run every check on one board: deal, auction, contract, play, result, score, conventions.

    The auction's outcome and the hands' card masks are computed once and shared.

    Args:
        board: The board to check.

    Yields:
        Every diagnostic, grouped in the order above.
    """
    masks = None
    if board.deal is not None:
        masks = _hand_masks(board.deal)
        yield from _check_deal(masks)
    outcome = None
    if board.auction is not None:
        outcome = auction_outcome(board.auction)
        yield from check_auction(board.auction)
    yield from _check_contract(board, outcome)
    tally = None
    if board.play is not None:
        tally = yield from _check_play(board, board.play, outcome, masks)
    yield from _check_result(board, tally)
    yield from _check_score(board, outcome)
    yield from check_conventions(board)


__test__ = {name: globals()[name] for name in __all__}
"""``doctest.testmod`` on this package sees only what is defined here: name the re-exported
functions and classes so that their examples run too."""
