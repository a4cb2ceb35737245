"""Load the Lark grammars shipped with the package (``grammars/*.lark``).

The grammars live in the repository's top-level ``grammars/`` folder and are copied into the
wheel as ``pbntool/grammars/``.  They are read through ``importlib.resources``; a source
checkout (editable install) falls back to the repository folder.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from lark import Lark

__all__ = ["build_parser", "grammar_text", "load_parser"]


def grammar_text(name: str) -> str:
    """The text of ``grammars/<name>.lark``."""
    packaged = resources.files("pbntool").joinpath("grammars", f"{name}.lark")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parent.parent / "grammars" / f"{name}.lark"
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
        lexer="contextual",
        start=start,
        maybe_placeholders=False,
        cache=True,
    )
