"""What the first bytes of an input say about its format: the sniffers of the text formats.

A sniffer is ``sniff(head, name) -> score``: 0 when the bytes are not the format, and the
higher the score the surer the match (``MAGIC`` for a signature, ``STRUCTURE`` for a
format-specific structure, ``TEXT`` for the generic shape of a text format, ``SUFFIX`` when
only the name suggests it, ``FALLBACK`` for PBN's "nothing but commentary").  Detection takes
the highest score over every format's sniffer (``pbntool.formats.detect_format``), so a
format that refines another (USEBIO is XML) just scores above it.

PBN, LIN, JSON and XML share one reading of the head (``text_verdict``): content decides, in
the order the checks below give, and a suffix decides only when the content says nothing.
"""

from __future__ import annotations

import codecs
import functools
import re

__all__ = [
    "FALLBACK",
    "MAGIC",
    "STRUCTURE",
    "SUFFIX",
    "TEXT",
    "head_text",
    "name_suffix",
    "sniff_json",
    "sniff_lin",
    "sniff_pbn",
    "sniff_xml",
    "text_verdict",
]

MAGIC = 100
STRUCTURE = 60
TEXT = 50
SUFFIX = 10
FALLBACK = 5

_PBN_TAG = re.compile(r'(?m)^[ \t]*\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+"')
_LIN_START = re.compile(r"[A-Za-z]{2}[ \t]*\|")
_LIN_PAIR = re.compile(r"(?:^|\|)[ \t\r\n]*(?:md|mb|pc|pn|qx|vg|sv|ah|rs|st)[ \t]*\|", re.I)
_HANDVIEWER = re.compile(r"(?i)(?:https?://|www\.)\S*[?&](?:lin|linurl)=|handviewer\.html")
_JSON_OBJECT = re.compile(r'\{\s*"[^"\n]{0,64}"\s*:')
_JSON_ARRAY = re.compile(r'\[\s*(?:\{\s*"[^"\n]{0,64}"\s*:|\])')
_XML_START = re.compile(r"<(?:\?xml|[A-Za-z_!])")


def name_suffix(name: str) -> str:
    """The lower-case suffix of a name (``".pbn"``), or ``""``."""
    return name[name.rfind(".") :].lower() if "." in name else ""


@functools.lru_cache(maxsize=4)
def head_text(head: bytes) -> str:
    """The head decoded as well as a head can be (BOMs, bare UTF-16), blanks stripped."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = head.decode("utf-16", errors="replace")
    elif len(head) > 1 and head[1] == 0 and head[0] != 0:
        text = head.decode("utf-16-le", errors="replace")
    elif len(head) > 1 and head[0] == 0 and head[1] != 0:
        text = head.decode("utf-16-be", errors="replace")
    else:
        text = head.removeprefix(codecs.BOM_UTF8).decode("utf-8", errors="replace")
    return text.lstrip()


@functools.lru_cache(maxsize=4)
def text_verdict(head: bytes) -> str | None:
    """Which of ``pbn lin json xml`` the content of a head shows, or None."""
    text = head_text(head)
    if not text:
        return None
    if _XML_START.match(text):
        return "xml"
    if _JSON_OBJECT.match(text) or _JSON_ARRAY.match(text):
        return "json"
    if text[0] == "[" and _PBN_TAG.match(text):
        return "pbn"
    if _LIN_START.match(text) or _has_handviewer_link(text):
        return "lin"
    pbn = _PBN_TAG.search(text)
    lin = _first_lin_pair(text, len(text) if pbn is None else pbn.start())
    if pbn is not None and (lin is None or pbn.start() < lin.start()):
        return "pbn"
    if lin is not None:
        return "lin"
    return None


_CASE_BLIND_EXTRAS = ("\u0130", "\u0131", "\u017f")
"""The non-ASCII characters a case-blind ``i`` or ``s`` matches (capital I with a dot,
dotless i, long s)."""


def _has_handviewer_link(text: str) -> bool:
    """``_HANDVIEWER.search(text)``, with a substring test first: the expression scans a
    64 KiB head of commentary many times slower than ``in`` does (a third of the time of
    planning a folder of small files went there)."""
    if not any(extra in text for extra in _CASE_BLIND_EXTRAS):
        lowered = text.lower()
        hints = ("lin=", "linurl=", "handviewer.html")
        if not any(hint in lowered for hint in hints):
            return False
    return _HANDVIEWER.search(text) is not None


def _first_lin_pair(text: str, before: int) -> re.Match[str] | None:
    """``_LIN_PAIR.search(text)`` where only a match that starts before ``before`` matters:
    with no ``|`` before it, only the expression's start-of-text alternative can match."""
    if text.find("|", 0, before) < 0:
        return _LIN_PAIR.match(text)
    return _LIN_PAIR.search(text)


def _text_score(head: bytes, name: str, form: str, suffixes: tuple[str, ...]) -> int:
    if text_verdict(head) == form:
        return TEXT
    return SUFFIX if text_verdict(head) is None and name_suffix(name) in suffixes else 0


def sniff_pbn(head: bytes, name: str) -> int:
    """``[Tag "value"]`` pairs; ``{"...":`` in a ``.pbn`` file is a brace comment, not JSON;
    a head of nothing but commentary (or nothing at all) is PBN with no games."""
    verdict = text_verdict(head)
    if verdict == "pbn" or (verdict == "json" and name_suffix(name) == ".pbn"):
        return TEXT + 1  # above JSON's TEXT for the brace comment
    if verdict is not None:
        return 0
    if name_suffix(name) == ".pbn":
        return SUFFIX
    text = head_text(head)
    return FALLBACK if not text or text[0] in "%;{" else 0


def sniff_lin(head: bytes, name: str) -> int:
    """A ``tag|`` pair at the start, a handviewer link, or LIN pairs before any PBN tag."""
    return _text_score(head, name, "lin", (".lin",))


def sniff_json(head: bytes, name: str) -> int:
    """``{"key":`` or ``[{"key":`` at the start."""
    return _text_score(head, name, "json", (".json", ".jsonl", ".ndjson"))


def sniff_xml(head: bytes, name: str) -> int:
    """``<`` and a name, a declaration or a comment at the start."""
    return _text_score(head, name, "xml", (".xml",))
