"""Numbers and spellings every format shares, said once (ground floor: imports nothing).

The readers and writers of PBN, LIN, JSON, the text diagram, the club formats and the
hand-record pages all count cards and tricks and mark alerts; these are the one place that
says how.
"""

from __future__ import annotations

__all__ = ["ALERT_NAG", "CARDS_PER_DEAL", "CARDS_PER_HAND", "TRICKS_PER_DEAL"]

CARDS_PER_HAND = 13
"""The cards of a full hand."""
CARDS_PER_DEAL = 4 * CARDS_PER_HAND
"""The cards of a deal (and of a play played out to the end)."""
TRICKS_PER_DEAL = 13
"""The tricks of a deal played out: a Result, a claim or a count of tricks is 0 to this."""
ALERT_NAG = 15
"""PBN's NAG for an alerted call (``$15``): how LIN's ``!`` and JSON's ``alert`` travel (as
Søren Hein's LIN→PBN converter writes a bare alert)."""
