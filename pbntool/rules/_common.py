"""Constants shared by the rules modules."""

from __future__ import annotations

from pbntool.model import Seat

_SEATS = tuple(Seat)
_CONTINUE = "+"
