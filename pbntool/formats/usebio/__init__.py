"""USEBIO XML results (``docs/conversions.md``): reader, writer and sniffer."""

from __future__ import annotations

from pbntool.formats.usebio.reader import iter_records
from pbntool.formats.usebio.sniff import sniff_usebio
from pbntool.formats.usebio.writer import UsebioWriter

__all__ = ["UsebioWriter", "iter_records", "sniff_usebio"]
