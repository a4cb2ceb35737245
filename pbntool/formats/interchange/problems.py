"""How the readers of JSON and XML name and report a problem in a model object."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pbntool.diagnostics import Code

__all__ = ["Dialect", "JsonPath", "Step", "describe"]

Step = str | int
JsonPath = tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Dialect:
    """The codes a reader reports with, and how it names a place in its input."""

    prefix: str
    """First element of every diagnostic path (``json``/``xml``): tells locators apart."""
    wrong_type: Code
    """``{where} must be {expected}, not {found}; ignored``."""
    bad_value: Code
    """``{where}: {found} is not {expected}; ignored``."""
    unknown_key: Code | None
    """``unknown key {key} in {where}; ignored`` (None: the input cannot have other keys)."""
    missing: Code
    """``{where} has no {key}; {consequence}``."""
    kept_as_text: Code
    """``{where}: {found} is not a {what}; kept as text``."""
    where: Callable[[JsonPath], str]


_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029\x85]")
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    return _SHORT_ESCAPES.get(char) or f"\\u{ord(char):04x}"


def describe(value: object) -> str:
    """A value as a message names it: ``"1Z"``, ``12``, ``null``, ``an object``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        escaped = shown.replace("\\", "\\\\").replace('"', '\\"')
        # A message is one line: control characters are shown as JSON escapes.
        return '"' + _CONTROL.sub(_json_escape, escaped) + '"'
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__
