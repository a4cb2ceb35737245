"""Constants shared by the rules modules."""

from __future__ import annotations

from pbntool.model import Seat

_SEATS = tuple(Seat)
_FULL_HAND = 13
_CONTINUE = "+"
