"""Compile a ``--where`` expression into a predicate over records, checking it first.

Every name, operator and literal is checked before any board is read: an unknown field, a
comparison of a number with a seat, a string that is not a contract, a bad regular
expression, an unknown diagnostic code all raise ``QueryError`` at their column.  What
remains is a tree of small closures evaluated once per board.

Unknown values are ``null``: ``==`` and ``!=`` treat null as a value of its own (``declarer
== null`` finds boards with no declarer); an ordering comparison, a regular expression or
``in`` with a null operand is false; arithmetic with null gives null.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbntool.diagnostics import CATALOGUE, Severity
from pbntool.model import Bid, Contract
from pbntool.records import Record
from pbntool.tools.select.fields import BoardView, lookup_field
from pbntool.tools.select.kinds import Kind, ShapePattern, parse_literal, text_of
from pbntool.tools.select.syntax import (
    All,
    Arithmetic,
    Call,
    Compare,
    Literal,
    Name,
    Node,
    Not,
    QueryError,
    Sequence,
    Signed,
    parse_query,
)
from pbntool.tools.select.syntax import Any as AnyOf

__all__ = ["FUNCTIONS", "Query", "compile_query"]

Reader = Callable[[BoardView], Any]


@dataclass(frozen=True, slots=True)
class _Typed:
    """A compiled subexpression: its kind, its reader, and the value when it is a literal."""

    kind: Kind
    read: Reader
    node: Node
    literal: bool = False
    value: Any = None


class Query:
    """A compiled ``--where`` expression.  ``matches(record)`` evaluates it on a board.

    Pickles as its text (recompiled on the other side), so it can be sent to worker processes.
    """

    def __init__(self, text: str, predicate: Reader) -> None:
        self.text = text
        self._predicate = predicate

    def matches(self, record: Record) -> bool:
        """True when the record holds a board for which the expression holds."""
        if record.board is None:
            return False
        return bool(self._predicate(BoardView(record)))

    def __reduce__(self) -> tuple[Callable[[str], Query], tuple[str]]:
        return (compile_query, (self.text,))

    def __repr__(self) -> str:
        return f"compile_query({self.text!r})"


def compile_query(text: str) -> Query:
    """Parse and check an expression; raises ``QueryError`` (with its column) when it is bad.

    >>> query = compile_query('level >= 6 and strain == "NT"')
    >>> query.text
    'level >= 6 and strain == "NT"'
    """
    try:
        typed = _compile(parse_query(text))
        if typed.kind is not Kind.BOOL:
            raise QueryError(
                f"the expression is {typed.kind.value}, not a condition; compare it with "
                'something (level >= 4, declarer == "S")',
                typed.node.column,
            )
    except QueryError as error:
        error.text = text
        raise
    return Query(text, typed.read)


def _compile(node: Node) -> _Typed:
    if isinstance(node, Literal):
        return _literal(node)
    if isinstance(node, Name):
        try:
            kind, reader = lookup_field(node.parts)
        except LookupError as error:
            raise QueryError(str(error.args[0]), node.column) from None
        return _Typed(kind, reader, node)
    if isinstance(node, Call):
        return _call(node)
    if isinstance(node, Sequence):
        raise QueryError("a list is only allowed after in: x in (1, 2, 3)", node.column)
    if isinstance(node, Signed):
        return _signed(node)
    if isinstance(node, Arithmetic):
        return _arithmetic(node)
    if isinstance(node, Compare):
        return _compare(node)
    if isinstance(node, Not):
        operand = _condition(node.operand, "not")
        read = operand.read
        return _Typed(Kind.BOOL, lambda view: not read(view), node)
    if isinstance(node, (All, AnyOf)):
        return _junction(node)
    raise AssertionError(f"unknown node {node!r}")


def _literal(node: Literal) -> _Typed:
    value = node.value
    if isinstance(value, bool):
        kind = Kind.BOOL
    elif isinstance(value, int):
        kind = Kind.NUMBER
    elif isinstance(value, str):
        kind = Kind.STRING
    else:
        kind = Kind.NULL
    return _Typed(kind, lambda view: value, node, literal=True, value=value)


def _condition(node: Node, word: str) -> _Typed:
    typed = _compile(node)
    if typed.kind is not Kind.BOOL:
        raise QueryError(
            f"{word} needs a condition, but this is {typed.kind.value}", typed.node.column
        )
    return typed


def _junction(node: All | AnyOf) -> _Typed:
    word = "and" if isinstance(node, All) else "or"
    readers = tuple(_condition(item, word).read for item in node.items)
    if isinstance(node, All):
        return _Typed(Kind.BOOL, lambda view: all(read(view) for read in readers), node)
    return _Typed(Kind.BOOL, lambda view: any(read(view) for read in readers), node)


def _signed(node: Signed) -> _Typed:
    operand = _compile(node.operand)
    if operand.kind is not Kind.NUMBER:
        raise QueryError(f"{node.sign} needs a number, not {operand.kind.value}", node.column)
    read = operand.read
    if node.sign == "+":
        return _Typed(Kind.NUMBER, read, node)
    return _Typed(Kind.NUMBER, lambda view: None if (v := read(view)) is None else -v, node)


def _arithmetic(node: Arithmetic) -> _Typed:
    left, right = _compile(node.left), _compile(node.right)
    for side in (left, right):
        if side.kind is not Kind.NUMBER:
            raise QueryError(
                f"{node.operator} needs numbers, not {side.kind.value}", side.node.column
            )
    combine = operator.add if node.operator == "+" else operator.sub
    read_left, read_right = left.read, right.read

    def read(view: BoardView) -> int | None:
        one, two = read_left(view), read_right(view)
        return None if one is None or two is None else combine(one, two)

    return _Typed(Kind.NUMBER, read, node)


# --- comparisons --------------------------------------------------------------------------------


def _compare(node: Compare) -> _Typed:
    if node.operator in ("in", "not in"):
        return _membership(node)
    if node.operator in ("~", "!~"):
        return _regex(node)
    left, right = _unify(_compile(node.left), _compile(node.right), node)
    kind = left.kind if left.kind is not Kind.NULL else right.kind
    if node.operator in ("==", "!="):
        equal = _equality(kind, left, right)
        if node.operator == "==":
            return _Typed(Kind.BOOL, equal, node)
        return _Typed(Kind.BOOL, lambda view: not equal(view), node)
    if not kind.ordered or Kind.NULL in (left.kind, right.kind):
        raise QueryError(
            f"{node.operator} does not apply to {kind.value}; use == or !=", node.column
        )
    key = _ORDER_KEYS.get(kind, _identity)
    compare = _ORDERINGS[node.operator]
    read_left, read_right = left.read, right.read

    def ordered(view: BoardView) -> bool:
        one, two = read_left(view), read_right(view)
        if one is None or two is None:
            return False
        return bool(compare(key(one), key(two)))

    return _Typed(Kind.BOOL, ordered, node)


_ORDERINGS: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _identity(value: Any) -> Any:
    return value


def _contract_order(contract: Contract) -> tuple[int, int]:
    """Contracts order like bids (doubling aside); a board passed out comes first."""
    return (contract.level or 0, -1 if contract.strain is None else int(contract.strain))


def _bid_order(bid: Bid) -> tuple[int, int]:
    return (bid.level, int(bid.strain))


_ORDER_KEYS: dict[Kind, Callable[[Any], Any]] = {
    Kind.CONTRACT: _contract_order,
    Kind.BID: _bid_order,
}


def _unify(left: _Typed, right: _Typed, node: Compare) -> tuple[_Typed, _Typed]:
    """Read a string literal as the kind of the other side; then both sides must agree."""
    if right.literal and right.kind is Kind.STRING and left.kind not in _TEXT_KINDS:
        right = _as_kind(right, left.kind)
    elif left.literal and left.kind is Kind.STRING and right.kind not in _TEXT_KINDS:
        left = _as_kind(left, right.kind)
    if Kind.NULL in (left.kind, right.kind) or left.kind is right.kind:
        return left, right
    if left.kind is Kind.LIST or right.kind is Kind.LIST:
        raise QueryError(
            'a list of names compares with in or ~: "Smith" in players, players ~ "Smi"',
            node.column,
        )
    raise QueryError(f"cannot compare {left.kind.value} with {right.kind.value}", node.column)


_TEXT_KINDS = frozenset({Kind.STRING, Kind.NULL, Kind.LIST})


def _as_kind(typed: _Typed, kind: Kind) -> _Typed:
    """A string literal read as a value of ``kind`` (an error at the literal if it is not)."""
    if kind in (Kind.NUMBER, Kind.BOOL):
        raise QueryError(
            f"{typed.value!r} is a string, but {kind.value} is needed here", typed.node.column
        )
    try:
        value = parse_literal(kind, str(typed.value))
    except ValueError as error:
        raise QueryError(str(error), typed.node.column) from None
    return _Typed(kind, lambda view: value, typed.node, literal=True, value=value)


def _equality(kind: Kind, left: _Typed, right: _Typed) -> Reader:
    read_left, read_right = left.read, right.read
    if kind is Kind.SHAPE:
        pattern = right.value if right.literal else left.value if left.literal else None
        if isinstance(pattern, ShapePattern):
            shape_side = read_left if right.literal else read_right
            return lambda view: (s := shape_side(view)) is not None and pattern.matches(s)
    return lambda view: read_left(view) == read_right(view)


def _membership(node: Compare) -> _Typed:
    left = _compile(node.left)
    negate = node.operator == "not in"
    if isinstance(node.right, Sequence):
        test = _in_sequence(left, node.right)
    else:
        test = _in_value(left, _compile(node.right), node)
    if negate:
        return _Typed(Kind.BOOL, lambda view: not test(view), node)
    return _Typed(Kind.BOOL, test, node)


def _in_sequence(left: _Typed, sequence: Sequence) -> Reader:
    """``x in (a, b, c)``: each item is a literal of x's kind."""
    if not sequence.items:
        raise QueryError("the list after in is empty", sequence.column)
    tests: list[Reader] = []
    for item in sequence.items:
        typed = _compile(item)
        if not typed.literal:
            raise QueryError("the list after in holds only literals", item.column)
        probe = Compare(item.column, "==", left.node, item)
        tests.append(_equality(*_kind_and_sides(left, typed, probe)))
    return lambda view: any(test(view) for test in tests)


def _kind_and_sides(left: _Typed, right: _Typed, node: Compare) -> tuple[Kind, _Typed, _Typed]:
    one, two = _unify(left, right, node)
    return (one.kind if one.kind is not Kind.NULL else two.kind), one, two


def _in_value(left: _Typed, right: _Typed, node: Compare) -> Reader:
    """``"Smith" in players`` (a name in the list), ``"Meck" in north`` (a substring),
    ``"4NT Pass" in auction`` (consecutive calls)."""
    if right.kind is Kind.CALLS:
        if left.kind is Kind.STRING and left.literal:
            left = _as_kind(left, Kind.CALLS)
        if left.kind is not Kind.CALLS:
            raise QueryError('in auction needs calls, such as "4NT Pass"', left.node.column)
        return _contains_calls(left.read, right.read)
    if right.kind not in (Kind.LIST, Kind.STRING):
        raise QueryError(
            f"in needs a list, a string or the auction on its right, not {right.kind.value}",
            node.column,
        )
    if left.kind is not Kind.STRING:
        raise QueryError(f"in {right.kind.value} needs a string on its left", left.node.column)
    read_left, read_right = left.read, right.read

    def test(view: BoardView) -> bool:
        needle, haystack = read_left(view), read_right(view)
        return needle is not None and haystack is not None and needle in haystack

    return test


def _contains_calls(read_needle: Reader, read_calls: Reader) -> Reader:
    def test(view: BoardView) -> bool:
        needle, calls = read_needle(view), read_calls(view)
        if needle is None or calls is None:
            return False
        width = len(needle)
        return any(calls[i : i + width] == needle for i in range(len(calls) - width + 1))

    return test


def _regex(node: Compare) -> _Typed:
    left, right = _compile(node.left), _compile(node.right)
    if not (right.literal and right.kind is Kind.STRING):
        raise QueryError(
            f"{node.operator} needs a quoted regular expression on its right", right.node.column
        )
    try:
        pattern = re.compile(str(right.value))
    except re.error as error:
        raise QueryError(f"bad regular expression: {error}", right.node.column) from None
    kind, read = left.kind, left.read
    search = pattern.search

    def test(view: BoardView) -> bool:
        value = read(view)
        if value is None:
            return False
        if kind is Kind.LIST:
            return any(search(item) for item in value)
        return search(text_of(kind, value)) is not None

    if node.operator == "!~":
        return _Typed(Kind.BOOL, lambda view: read(view) is not None and not test(view), node)
    return _Typed(Kind.BOOL, test, node)


# --- functions ----------------------------------------------------------------------------------


def _call(node: Call) -> _Typed:
    function = FUNCTIONS.get(node.function.lower())
    if function is None:
        names = ", ".join(sorted(FUNCTIONS))
        raise QueryError(
            f"unknown function {node.function!r}; the functions are {names}", node.column
        )
    return function(node)


def _arguments(node: Call, low: int, high: int) -> list[_Typed]:
    count = len(node.arguments)
    if not low <= count <= high:
        wanted = str(low) if low == high else f"{low} to {high}"
        raise QueryError(f"{node.function}() takes {wanted} argument(s), not {count}", node.column)
    return [_compile(argument) for argument in node.arguments]


def _string_literal(typed: _Typed, what: str) -> str:
    if not (typed.literal and typed.kind is Kind.STRING):
        raise QueryError(f"{what} must be a quoted string", typed.node.column)
    return str(typed.value)


def _diagnostic_test(severity: Severity | None) -> Callable[[Call], _Typed]:
    def build(node: Call) -> _Typed:
        arguments = _arguments(node, 0, 1)
        prefix = ""
        if arguments:
            prefix = _string_literal(arguments[0], "the code").strip().upper()
            if not any(code.startswith(prefix) for code in CATALOGUE):
                raise QueryError(
                    f"no diagnostic code starts with {prefix!r}", arguments[0].node.column
                )

        def test(view: BoardView) -> bool:
            return any(
                d.code.startswith(prefix) and (severity is None or d.severity is severity)
                for d in view.diagnostics
            )

        return _Typed(Kind.BOOL, test, node)

    return build


def _affix(kind_name: str) -> Callable[[Call], _Typed]:
    """``startswith``, ``endswith`` and ``contains`` for strings and for the auction."""

    def build(node: Call) -> _Typed:
        subject, affix = _arguments(node, 2, 2)
        if subject.kind is Kind.CALLS:
            if affix.literal and affix.kind is Kind.STRING:
                affix = _as_kind(affix, Kind.CALLS)
            if affix.kind is not Kind.CALLS:
                raise QueryError("the calls must be a quoted string", affix.node.column)
        elif subject.kind is Kind.STRING:
            if affix.kind is not Kind.STRING:
                raise QueryError("the text must be a string", affix.node.column)
        else:
            raise QueryError(
                f"{node.function}() works on strings and the auction, not {subject.kind.value}",
                subject.node.column,
            )
        if subject.kind is Kind.CALLS and kind_name == "contains":
            return _Typed(Kind.BOOL, _contains_calls(affix.read, subject.read), node)
        read_subject, read_affix = subject.read, affix.read
        test = _AFFIX_TESTS[kind_name]

        def check(view: BoardView) -> bool:
            value, part = read_subject(view), read_affix(view)
            return value is not None and part is not None and test(value, part)

        return _Typed(Kind.BOOL, check, node)

    return build


_AFFIX_TESTS: dict[str, Callable[[Any, Any], bool]] = {
    "startswith": lambda value, part: value[: len(part)] == part,
    "endswith": lambda value, part: (
        len(part) <= len(value) and value[len(value) - len(part) :] == part
    ),
    "contains": lambda value, part: part in value,
}


def _tag_function(node: Call) -> _Typed:
    name = _string_literal(_arguments(node, 1, 1)[0], "the tag name")
    return _Typed(Kind.STRING, lambda view: view.board.tag(name), node)


def _has_tag(node: Call) -> _Typed:
    name = _string_literal(_arguments(node, 1, 1)[0], "the tag name")
    return _Typed(Kind.BOOL, lambda view: view.board.tag(name) is not None, node)


def _length(node: Call) -> _Typed:
    (subject,) = _arguments(node, 1, 1)
    if subject.kind not in (Kind.STRING, Kind.CALLS, Kind.LIST):
        raise QueryError(
            f"len() needs a string, a list or the auction, not {subject.kind.value}",
            subject.node.column,
        )
    read = subject.read
    return _Typed(Kind.NUMBER, lambda view: None if (v := read(view)) is None else len(v), node)


def _absolute(node: Call) -> _Typed:
    (subject,) = _arguments(node, 1, 1)
    if subject.kind is not Kind.NUMBER:
        raise QueryError(f"abs() needs a number, not {subject.kind.value}", subject.node.column)
    read = subject.read
    return _Typed(Kind.NUMBER, lambda view: None if (v := read(view)) is None else abs(v), node)


def _lower(node: Call) -> _Typed:
    (subject,) = _arguments(node, 1, 1)
    if subject.kind is not Kind.STRING:
        raise QueryError(f"lower() needs a string, not {subject.kind.value}", subject.node.column)
    read = subject.read
    return _Typed(Kind.STRING, lambda view: None if (v := read(view)) is None else v.lower(), node)


FUNCTIONS: dict[str, Callable[[Call], _Typed]] = {  # documented in docs/select.md
    "has_error": _diagnostic_test(Severity.ERROR),
    "has_warning": _diagnostic_test(Severity.WARNING),
    "has_info": _diagnostic_test(Severity.INFO),
    "has_diagnostic": _diagnostic_test(None),
    "startswith": _affix("startswith"),
    "endswith": _affix("endswith"),
    "contains": _affix("contains"),
    "tag": _tag_function,
    "has_tag": _has_tag,
    "len": _length,
    "abs": _absolute,
    "lower": _lower,
}
