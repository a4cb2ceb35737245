"""Bridgemate ``.BWS`` databases (read only; needs the ``bws`` extra: access-parser)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbntool._aliases import lazy_names
from pbntool.formats.bws.sniff import sniff_bws

if TYPE_CHECKING:
    from pbntool.formats.bws.reader import iter_records

# The reader loads when first used: every run sniffs its inputs with ``sniff_bws``.
__getattr__ = lazy_names(__name__, {"iter_records": "reader"})

__all__ = ["iter_records", "sniff_bws"]
