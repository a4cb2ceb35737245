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

from pbntool.rules.auction import AuctionOutcome, auction_outcome, check_auction
from pbntool.rules.board import check_contract, check_conventions, check_score
from pbntool.rules.check import check_board
from pbntool.rules.deal import check_deal
from pbntool.rules.play import (
    PlayedTrick,
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


__test__ = {name: globals()[name] for name in __all__}
"""``doctest.testmod`` on this package sees only what is defined here: name the re-exported
functions and classes so that their examples run too."""
