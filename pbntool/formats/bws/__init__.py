"""Bridgemate ``.BWS`` databases (read only; needs the ``bws`` extra: access-parser)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbntool.formats.bws.sniff import sniff_bws

if TYPE_CHECKING:
    from pbntool.formats.bws.reader import iter_records


def __getattr__(name: str) -> Any:
    # The reader loads when first used: every run sniffs its inputs with ``sniff_bws``.
    if name != "iter_records":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from pbntool.formats.bws.reader import iter_records

    return iter_records


__all__ = ["iter_records", "sniff_bws"]
