"""Reading elements of the vocabulary, with where each value came from.

The element's attributes and children become the same model object a JSON record holds
(``pbntool.formats.interchange.todict``), so one decoder (``fromdict``) checks both formats.  While
converting, every value is registered with the element (and attribute) it came from, so that
a finding about the value can be placed at that element's line and column.  What the
vocabulary does not define (an element, an attribute, text between elements) is reported
here, with the element it was found at.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from lxml import etree

from pbntool.diagnostics import XML004, XML005, XML007, XML008, XML012, Code, Diagnostic
from pbntool.formats.interchange.fromdict import JsonPath, describe
from pbntool.formats.xml.writer import NAMESPACE

__all__ = [
    "TEXT_MARKER",
    "Converter",
    "Node",
    "boolean",
    "integer",
    "local_name",
    "where",
    "where_of",
]

Node = tuple[etree._Element, str | None]
"""An element, and the attribute of it a value came from (None: the element itself; a
``TEXT_MARKER`` and text: that text, inside or after the element)."""

TEXT_MARKER = "\x00text:"

JsonObject = dict[str, object]

_FOREIGN_ATTRIBUTES = ("{http://www.w3.org/2001/XMLSchema-instance}", "{http://www.w3.org/XML")
"""Namespaced attributes any XML document may carry (xsi:schemaLocation, xml:lang)."""
_INTEGER = re.compile(r"\s*[+-]?\d{1,4300}\s*")
_ESCAPE = re.compile(r"\\(?:\\|u([0-9a-fA-F]{4}))|\\")


def local_name(element: etree._Element) -> str | None:
    """The element's name in the vocabulary (None for one of another namespace)."""
    tag = element.tag
    if not isinstance(tag, str):
        return None  # a comment or processing instruction
    found = _LOCAL_NAMES.get(tag)
    if found is None and tag not in _LOCAL_NAMES:
        found = _local_name(tag)
        if len(_LOCAL_NAMES) < 1024:  # names of other vocabularies must not grow it forever
            _LOCAL_NAMES[tag] = found
    return found


_LOCAL_NAMES: dict[str, str | None] = {}


def _local_name(tag: object) -> str | None:
    if not isinstance(tag, str):
        return None
    if tag.startswith("{"):
        namespace, _, name = tag[1:].partition("}")
        return name if namespace == NAMESPACE else None
    return tag


_TEXT_ELEMENTS = frozenset(("comment", "hand", "cell"))
_KNOWN_ELEMENTS = frozenset(
    {"board", "comment", "tag", "deal", "hand", "contract", "result", "score", "auction"}
    | {"call", "annotation", "note", "play", "trick", "card", "table", "column", "row"}
    | {"leftover", "cell"}
)
_TEXT_NODES = etree.XPath("descendant-or-self::*/text()[normalize-space()]")


def _integer(text: str) -> object:
    """An int if the text is one, else the text (the decoder reports it)."""
    return int(text) if _INTEGER.fullmatch(text) else text


def _boolean(text: str) -> object:
    found = {"true": True, "1": True, "false": False, "0": False}.get(text.strip())
    return text if found is None else found


@dataclass
class Converter:
    """Converts one board element; ``found`` has what the vocabulary does not allow."""

    nodes: list[Node] = field(default_factory=list)
    paths: dict[JsonPath, int] = field(default_factory=dict)
    found: list[Diagnostic] = field(default_factory=list)

    # --- bookkeeping ---------------------------------------------------------------------------

    def register(
        self, path: JsonPath, element: etree._Element, attribute: str | None = None
    ) -> None:
        """Remember that the value at ``path`` came from ``element`` (its ``attribute``)."""
        self.nodes.append((element, attribute))
        self.paths[path] = len(self.nodes) - 1

    def report(
        self, code: Code, element: etree._Element, attribute: str | None = None, **args: object
    ) -> None:
        self.nodes.append((element, attribute))
        self.found.append(code.at(("xml", "#", len(self.nodes) - 1), **args))

    def node(self, path: JsonPath) -> Node | None:
        """The element of the longest registered prefix of ``path``."""
        for end in range(len(path), -1, -1):
            index = self.paths.get(path[:end])
            if index is not None:
                return self.nodes[index]
        return None

    # --- generic parts -----------------------------------------------------------------------

    def attributes(self, element: etree._Element, allowed: tuple[str, ...]) -> dict[str, str]:
        """The element's attributes in the vocabulary, unescaped; the others reported."""
        attributes = element.attrib
        if not attributes:
            return {}
        values = dict(attributes)
        for name in values.keys() - allowed:
            if name != "escaped":
                del values[name]
                if not name.startswith(_FOREIGN_ATTRIBUTES):
                    self.report(XML005, element, name, name=name, owner=_shown(element))
        if "escaped" in values:
            for name in values.pop("escaped").split():
                if name in values:
                    values[name] = self._unescape(element, name, values[name])
        return values

    def stray_text(self, board: etree._Element) -> None:
        """Report text where the vocabulary has only elements (one query for the board)."""
        for text in _TEXT_NODES(board):
            parent = text.getparent()
            if parent is None:
                continue
            owner = parent if text.is_text else parent.getparent()
            name = None if owner is None else local_name(owner)
            if owner is None or name not in _KNOWN_ELEMENTS:
                continue
            if text.is_text and name in _TEXT_ELEMENTS:
                continue
            shown = describe(str(text).strip())
            # Placed where the text is: searched for from the line of the element before it.
            marker = TEXT_MARKER + str(text).strip()[:80]
            self.nodes.append((parent, marker))
            self.found.append(
                XML012.at(("xml", "#", len(self.nodes) - 1), text=shown, owner=_shown(owner))
            )

    def content(self, element: etree._Element) -> str:
        """The text of a text-only element, unescaped; child elements are reported."""
        for child in element:
            self._unknown(child, element)
        text = element.text or ""
        if "text" in (element.get("escaped") or "").split():
            text = self._unescape(element, None, text)
        return text

    def _unescape(self, element: etree._Element, attribute: str | None, text: str) -> str:
        def replace(match: re.Match[str]) -> str:
            if match.group() == "\\\\":
                return "\\"
            code = None if match.group(1) is None else int(match.group(1), 16)
            if code is None or 0xD800 <= code <= 0xDFFF:
                where = where_of(element, attribute)
                wanted = "escaped text (\\\\, or \\uXXXX of a character)"
                self.report(
                    XML007, element, attribute, where=where, found=describe(text), expected=wanted
                )
                return "\\" if code is None else "\ufffd"
            return chr(code)

        return _ESCAPE.sub(replace, text)

    def children(self, element: etree._Element) -> Iterator[tuple[str, etree._Element]]:
        """The child elements in the vocabulary (text between them: see ``stray_text``)."""
        for child in element:
            name = local_name(child)
            if name is None:
                self._unknown(child, element)
                continue
            yield name, child

    def _unknown(self, child: etree._Element, parent: etree._Element) -> None:
        if isinstance(child.tag, str):
            self.report(XML004, child, name=_shown(child), parent=_shown(parent))

    def only(
        self, element: etree._Element, wanted: dict[str, Callable[[etree._Element], None]]
    ) -> None:
        """Hand each child to the function for its name; others are unknown here."""
        if not len(element):
            return  # most elements have no children: spare the iteration
        for name, child in self.children(element):
            handler = wanted.get(name)
            if handler is None:
                self._unknown(child, element)
            else:
                handler(child)

    def comment(self, element: etree._Element, path: JsonPath) -> JsonObject:
        values = self.attributes(element, ("kind",))
        comment: JsonObject = {"text": self.content(element)}
        self.register(path, element)
        if "kind" in values:
            comment["kind"] = values["kind"]
            self.register((*path, "kind"), element, "kind")
        return comment

    def missing(self, element: etree._Element, key: str, consequence: str) -> None:
        self.report(
            XML008,
            element,
            where=f"<{_shown(element)}>",
            key=f"attribute {key}",
            consequence=consequence,
        )

    def put(
        self,
        target: JsonObject,
        path: JsonPath,
        key: str,
        element: etree._Element,
        values: dict[str, str],
        attribute: str,
        convert: Callable[[str], object] | None = None,
    ) -> None:
        """``target[key]`` from ``values[attribute]`` (when present), converted."""
        if attribute in values:
            raw = values[attribute]
            target[key] = raw if convert is None else convert(raw)
            self.register((*path, key), element, attribute)


def integer(text: str) -> object:
    """An attribute read as an integer (the text itself when it is not one)."""
    return _integer(text)


def boolean(text: str) -> object:
    """An attribute read as xs:boolean (the text itself when it is not one)."""
    return _boolean(text)


def _shown(element: etree._Element) -> str:
    tag = element.tag
    if not isinstance(tag, str):
        return "?"
    if tag.startswith("{"):
        namespace, _, name = tag[1:].partition("}")
        return name if namespace == NAMESPACE else f"{{{namespace}}}{name}"
    return tag


def where_of(element: etree._Element, attribute: str | None) -> str:
    shown = f"<{_shown(element)}>"
    if attribute is None or attribute.startswith(TEXT_MARKER):
        return shown
    return f"{attribute} of {shown}"


def where(node: Node | None) -> str:
    """A place as a message names it: ``number of <board>``, ``<call>``."""
    if node is None:
        return "the board"
    return where_of(*node)
