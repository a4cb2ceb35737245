"""Load the Lark grammars shipped with the package (``grammars/*.lark``).

The grammars live in the repository's top-level ``grammars/`` folder and are copied into the
wheel as ``pbntool/grammars/``.  They are read through ``importlib.resources``; a source
checkout (editable install) falls back to the repository folder.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any, cast

from lark import Lark, Token
from lark.common import LexerConf
from lark.lexer import Lexer, LexerState

__all__ = ["ScannerLexer", "build_parser", "grammar_text", "load_parser"]


def grammar_text(name: str) -> str:
    """The text of ``grammars/<name>.lark``."""
    packaged = resources.files("pbntool").joinpath("grammars", f"{name}.lark")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parents[2] / "grammars" / f"{name}.lark"
    return checkout.read_text(encoding="utf-8")


@functools.cache
def load_parser(name: str) -> Lark:
    """The LALR parser for ``grammars/<name>.lark`` (built once per process)."""
    return build_parser(name, "start")


def build_parser(name: str, start: str) -> Lark:
    """A parser for one start symbol of ``grammars/<name>.lark``.

    ``cache=True`` keeps the built tables in the temporary directory (keyed by a hash of the
    grammar and options), so a command-line run does not pay the grammar analysis each time.
    """
    return Lark(
        grammar_text(name),
        parser="lalr",
        lexer=ScannerLexer,
        start=start,
        maybe_placeholders=False,
        cache=True,
    )


class ScannerLexer(Lexer):
    """Lark's standard lexer, minus the bookkeeping we do not use.

    It matches the grammar's own terminals, in Lark's order of precedence (priority, then
    longest pattern), as one compiled regular expression, and yields tokens that carry only
    their offset: the reader computes lines and columns itself, and only for diagnostics.
    The grammars accept every terminal in every parser state, so the contextual lexer would
    choose the same tokens; a test checks that.
    """

    __future_interface__ = 2  # lex(lexer_state, parser_state), as Lark's own lexers

    def __init__(self, conf: LexerConf) -> None:
        terminals = sorted(
            conf.terminals,
            key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
        )
        union = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals)
        self.pattern = re.compile(union, conf.g_regex_flags)
        """The terminals as one expression, each a named group: a reader whose grammar accepts
        any sequence of tokens may scan with it directly (``finditer``), without the parser."""
        self.ignored = frozenset(conf.ignore)
        self._match = self.pattern.match
        self._ignore = self.ignored

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        """Tokens of the text, skipping the ignored terminals."""
        text = lexer_state.text.text
        position, end = lexer_state.text.start, lexer_state.text.end
        match, ignore = self._match, self._ignore
        while position < end:
            found = match(text, position)
            if found is None:
                # The grammars have a catch-all terminal, so this means a grammar bug.
                raise ValueError(f"no terminal matches at offset {position}")
            kind = cast(str, found.lastgroup)
            if kind not in ignore:
                yield Token(kind, found.group(), position)
            position = found.end()
