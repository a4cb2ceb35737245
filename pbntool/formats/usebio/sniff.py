"""Recognising a USEBIO document from its first bytes."""

from __future__ import annotations

import re

from pbntool.formats.sniffing import STRUCTURE, head_text

__all__ = ["sniff_usebio"]

_ROOT = re.compile(r"<(?:!DOCTYPE\s+)?USEBIO[\s>]")
_PROLOG = re.compile(r"(?:\s+|<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>)*", re.S)


def sniff_usebio(head: bytes, name: str) -> int:
    """A ``USEBIO`` root element (or ``<!DOCTYPE USEBIO``) after the XML prolog: above XML's
    generic score, so a USEBIO file is read as results and not as pbntool's own XML."""
    text = head_text(head)
    if not text.startswith("<"):
        return 0
    if text.startswith("<!DOCTYPE") and _ROOT.match(text):
        return STRUCTURE
    prolog = _PROLOG.match(text)
    rest = text[prolog.end() if prolog else 0 :]
    return STRUCTURE if _ROOT.match(rest) else 0
