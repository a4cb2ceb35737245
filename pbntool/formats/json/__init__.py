"""Boards as JSON records: one key-stable object per board, one line per board (JSON Lines).

A record has two parts.  ``model`` is the board exactly as pbntool's model holds it (every tag
in source order with its comments and flags, the auction and play with their annotations,
notes and comments, tables, commentary of every kind): reading a record back uses ``model``
alone and gives an equal ``Board``.  The other keys are a summary derived from it for
convenience (the PBN deal string, the calls, the cards in played order, players, alerts ...),
documented in the README and in ``schemas/board.schema.json``; ``schema`` names the version
(``pbntool/1``).

Built for volume (it runs over millions of boards): plain dicts and lists, and
``json.dumps`` with compact separators.  Cards and calls use their PBN spelling (``SA``,
``Pass``, ``X``, ``4NT``).  ``iter_records`` reads records back (see
``pbntool.formats.json.reader``).

>>> from pbntool.model import Board, Seat
>>> dumps_line(Board(number=3, dealer=Seat.SOUTH))[:60]
'{"schema":"pbntool/1","file":null,"board":3,"dealer":"S","vu'
"""

from __future__ import annotations

from pbntool.formats.interchange.vocabulary import SCHEMA_ID
from pbntool.formats.json.reader import iter_records
from pbntool.formats.json.writer import (
    JsonLinesWriter,
    board_to_dict,
    compact_json,
    dumps_line,
    iter_json_lines,
)

__all__ = [
    "SCHEMA_ID",
    "JsonLinesWriter",
    "board_to_dict",
    "compact_json",
    "dumps_line",
    "iter_json_lines",
    "iter_records",
]
