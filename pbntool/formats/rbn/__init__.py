"""RBN (Richard Pavlicek's Bridge Notation) and RBX, its one-line form (``docs/conversions.md``).

An RBN record is a block of ``L data`` lines (a one-character label, a space, the data) ended
by a blank line; ``{...}`` paragraphs are commentary and ``%`` lines comments.  The labels
``D T L E S F K N B H`` carry over to later records when left out.  An RBX record is one line
of ``L{data}`` groups (``{text}`` a paragraph, ``%{text}`` a comment).

``syntax`` splits the text into records, ``reader`` turns a record into the PBN game it
stands for (read with the PBN reader), ``writer`` turns a board back into labelled values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbntool._aliases import lazy_names
from pbntool.formats.rbn.syntax import CARRIED, LABELS, sniff, sniff_rbx

if TYPE_CHECKING:
    from pbntool.formats.rbn.reader import RAW_TAGS, iter_rbx_records, iter_records
    from pbntool.formats.rbn.writer import RbnWriter, RbxWriter, rbn_items

_LATER = {
    "RAW_TAGS": "reader",
    "iter_rbx_records": "reader",
    "iter_records": "reader",
    "RbnWriter": "writer",
    "RbxWriter": "writer",
    "rbn_items": "writer",
}
"""Loaded when first asked for: sniffing an input imports this package for ``sniff``, and
must not load the reader and the writer (every run, every worker sniffs)."""

__getattr__ = lazy_names(__name__, _LATER)


__all__ = [
    "CARRIED",
    "LABELS",
    "RAW_TAGS",
    "RbnWriter",
    "RbxWriter",
    "iter_rbx_records",
    "iter_records",
    "rbn_items",
    "sniff",
    "sniff_rbx",
]
