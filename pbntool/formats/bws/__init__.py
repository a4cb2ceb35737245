"""Bridgemate ``.BWS`` databases (read only; needs the ``bws`` extra: access-parser)."""

from __future__ import annotations

from pbntool.formats.bws.reader import iter_records
from pbntool.formats.bws.sniff import sniff_bws

__all__ = ["iter_records", "sniff_bws"]
