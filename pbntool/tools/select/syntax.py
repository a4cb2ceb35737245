"""The syntax of ``--where`` expressions: text to a tree of nodes that know their column.

The grammar is ``grammars/select.lark``; this module turns Lark's parse tree (or its error)
into ``Node`` values and ``QueryError``, whose message says what was expected and points at
the column where the text went wrong.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from pbntool.text.grammars import grammar_text

__all__ = [
    "All",
    "Any",
    "Arithmetic",
    "Call",
    "Compare",
    "Literal",
    "Name",
    "Node",
    "Not",
    "QueryError",
    "Sequence",
    "Signed",
    "parse_query",
]


class QueryError(ValueError):
    """A ``--where`` expression that cannot be parsed or compiled, with the 1-based column."""

    def __init__(self, message: str, column: int, text: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.column = column
        self.text = text

    def render(self) -> str:
        """The message, the expression and a caret under the column (for a terminal)."""
        caret = " " * (max(self.column, 1) - 1) + "^"
        return f"column {self.column}: {self.message}\n  {self.text}\n  {caret}"

    def __str__(self) -> str:
        return f"column {self.column}: {self.message}"


@dataclass(frozen=True, slots=True)
class Node:
    """Where a node starts (1-based column) in the expression text."""

    column: int


@dataclass(frozen=True, slots=True)
class Literal(Node):
    """A number, a string, ``true``/``false`` or ``null``."""

    value: int | str | bool | None


@dataclass(frozen=True, slots=True)
class Name(Node):
    """A field: ``level``, ``hcp.N``, ``tag.Room``."""

    parts: tuple[str, ...]

    @property
    def text(self) -> str:
        return ".".join(self.parts)


@dataclass(frozen=True, slots=True)
class Call(Node):
    """A function call: ``has_error("AUC")``."""

    function: str
    arguments: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Sequence(Node):
    """A literal list, ``("5332", "4432")`` or ``[1, 2]``: the right side of ``in``."""

    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Signed(Node):
    """Unary ``-`` (or ``+``)."""

    sign: str
    operand: Node


@dataclass(frozen=True, slots=True)
class Arithmetic(Node):
    """``left + right`` or ``left - right``; ``column`` is the operator's."""

    operator: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Compare(Node):
    """A comparison: ``== != < <= > >=``, ``in``, ``not in``, ``~`` or ``!~``; ``column`` is
    the operator's."""

    operator: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True, slots=True)
class All(Node):
    """``a and b and ...``."""

    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Any(Node):
    """``a or b or ...``."""

    items: tuple[Node, ...]


@functools.cache
def _parser() -> Lark:
    return Lark(
        grammar_text("select"),
        parser="lalr",
        lexer="basic",
        propagate_positions=True,
        maybe_placeholders=False,
    )


MAX_LENGTH = 10_000
"""Longer expressions are refused (a pathological input must not exhaust the stack)."""


def parse_query(text: str) -> Node:
    """The tree of an expression; raises ``QueryError`` pointing at the bad column."""
    if not text.strip():
        raise QueryError("the expression is empty", 1, text)
    if len(text) > MAX_LENGTH:
        raise QueryError(f"the expression is longer than {MAX_LENGTH} characters", 1, text)
    if "\n" in text or "\r" in text:
        text = text.replace("\r", " ").replace("\n", " ")  # columns stay meaningful
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(error, text) from None
    except RecursionError:
        raise QueryError("the expression is nested too deeply", 1, text) from None
    try:
        return _build(tree)
    except RecursionError:
        raise QueryError("the expression is nested too deeply", 1, text) from None


_VALUE_STARTS = frozenset(
    {"NUMBER", "STRING", "IDENT", "LPAR", "LSQB", "SIGN", "_TRUE", "_FALSE", "_NULL", "_NOT"}
)
_OPERATORS = frozenset({"COMPARE", "MATCH", "_IN", "_AND", "_OR"})
_PUNCTUATION = {"RPAR": ")", "RSQB": "]", "COMMA": ","}


def _syntax_error(error: UnexpectedInput, text: str) -> QueryError:
    if isinstance(error, UnexpectedCharacters):
        position: int = getattr(error, "pos_in_stream", 0) or 0  # typed int | None by lark
        character = text[position] if position < len(text) else ""
        quotes = "\u201c\u201d\u2018\u2019"
        hint = " (quote strings with \" or ')" if character and character in quotes else ""
        return QueryError(f"unexpected character {character!r}{hint}", error.column, text)
    if isinstance(error, (UnexpectedToken, UnexpectedEOF)):
        expected = _expected({str(name) for name in error.expected})
        token = getattr(error, "token", None)
        if token is None or token.type == "$END":
            column = len(text.rstrip()) + 1
            return QueryError(f"the expression ends too early; expected {expected}", column, text)
        return QueryError(f"unexpected {token.value!r}; expected {expected}", error.column, text)
    return QueryError(str(error), 1, text)


def _expected(wanted: set[str]) -> str:
    """What the parser wanted, in words: a value, an operator, or a closing bracket."""
    words = []
    if wanted & _OPERATORS:  # after a value ("+", "-", "not" and "(" may follow one too)
        words.append("an operator (and, or, ==, <, in, ~, + ...)")
    elif wanted & _VALUE_STARTS:
        words.append("a value")
    if not words:
        words.extend(_PUNCTUATION[name] for name in sorted(wanted) if name in _PUNCTUATION)
    return " or ".join(words) if words else "something else"


def _column(node: Tree[Token] | Token) -> int:
    if isinstance(node, Token):
        return node.column or 1
    return getattr(node.meta, "column", 1) or 1


def _build(node: Tree[Token] | Token) -> Node:
    """The ``Node`` of a Lark subtree."""
    if isinstance(node, Token):
        raise AssertionError(f"unexpected token {node!r}")
    kind, children = node.data, node.children
    column = _column(node)
    if kind == "number":
        return Literal(column, int(str(children[0])))
    if kind == "string":
        return Literal(column, _unquote(str(children[0])))
    if kind in ("true", "false", "null"):
        return Literal(column, {"true": True, "false": False, "null": None}[str(kind)])
    if kind == "name":
        return Name(column, tuple(str(child) for child in children))
    if kind == "call":
        function, *arguments = children
        return Call(column, str(function), tuple(_build(argument) for argument in arguments))
    if kind == "sequence":
        return Sequence(column, tuple(_build(child) for child in children))
    if kind == "signed":
        sign, operand = children
        return Signed(column, str(sign), _build(operand))
    if kind == "arithmetic":
        left, operator, right = children
        return Arithmetic(_column(operator), str(operator), _build(left), _build(right))
    if kind == "compare":
        left, operator, right = children
        symbol = "==" if str(operator) == "=" else str(operator)
        return Compare(_column(operator), symbol, _build(left), _build(right))
    if kind == "match":
        left, operator, right = children
        return Compare(_column(operator), str(operator), _build(left), _build(right))
    if kind in ("member", "not_member"):
        left, right = children
        word = "in" if kind == "member" else "not in"
        return Compare(_column(right), word, _build(left), _build(right))
    if kind == "negation":
        return Not(column, _build(children[0]))
    if kind == "all_of":
        return All(column, tuple(_build(child) for child in children))
    if kind == "any_of":
        return Any(column, tuple(_build(child) for child in children))
    raise AssertionError(f"unknown rule {kind}")


def _unquote(token: str) -> str:
    """The text of a string literal: ``\\"``, ``\\'`` and ``\\\\`` are escapes; any other
    backslash is kept as written, so regular expressions read naturally (``"\\d+"``)."""
    body = token[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body) and body[index + 1] in "\"'\\":
            out.append(body[index + 1])
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out)
