"""The ``--where`` language of ``pbntool select``: conditions on a board's parsed fields.

>>> from pbntool.formats.pbn import iter_records
>>> import io
>>> text = b'[Board "1"]\\n[Dealer "N"]\\n[Contract "3NT"]\\n[Declarer "S"]\\n[Result "10"]\\n'
>>> record = next(iter_records(io.BytesIO(text)))
>>> compile_query('strain == "NT" and made and overtricks == 1').matches(record)
True

The grammar is ``grammars/select.lark``; ``docs/select.md`` lists every field, operator and
function with examples.
"""

from __future__ import annotations

from pbntool.tools.select.compiler import Query, compile_query
from pbntool.tools.select.fields import FAMILIES, FIELDS
from pbntool.tools.select.ranges import BoardRanges, parse_board_ranges
from pbntool.tools.select.syntax import QueryError

__all__ = [
    "FAMILIES",
    "FIELDS",
    "BoardRanges",
    "Query",
    "QueryError",
    "compile_query",
    "parse_board_ranges",
]
