"""``check_board``: every check of ``rules`` on one board, in a fixed order.

Apart from the package's ``__init__`` so that it can be compiled with the checks it calls
(``pbntool._native``): a compiled package ``__init__`` cannot import the package's modules.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbntool.diagnostics import Diagnostic
from pbntool.model import Board
from pbntool.rules.auction import auction_outcome, check_auction
from pbntool.rules.board import _check_contract, _check_score, check_conventions
from pbntool.rules.deal import _check_deal, _hand_masks
from pbntool.rules.play import _check_play, _check_result

__all__ = ["check_board"]


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
