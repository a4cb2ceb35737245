"""Recognising a Bridgemate database (a Microsoft Jet/ACE file) from its first bytes."""

from __future__ import annotations

from pbntool.formats.sniffing import MAGIC, SUFFIX, name_suffix

__all__ = ["sniff_bws"]

_MAGICS = (b"\x00\x01\x00\x00Standard Jet DB", b"\x00\x01\x00\x00Standard ACE DB")


def sniff_bws(head: bytes, name: str) -> int:
    """The Jet (Access 97/2000) or ACE signature; a ``.bws`` name alone scores low."""
    if head.startswith(_MAGICS):
        return MAGIC
    return SUFFIX if name_suffix(name) == ".bws" and not head.strip() else 0
