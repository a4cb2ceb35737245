"""A ``<board>`` element into the model object, with where each value came from.

The element's attributes and children become the same model object a JSON record holds
(``pbntool.interchange.todict``), so one decoder (``fromdict``) checks both formats.  While
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
from pbntool.interchange.fromdict import JsonPath, describe
from pbntool.interchange.xmlwrite import NAMESPACE

__all__ = ["TEXT_MARKER", "Converter", "Node", "board_model", "local_name", "where"]

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
                where = _where(element, attribute)
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


def _where(element: etree._Element, attribute: str | None) -> str:
    shown = f"<{_shown(element)}>"
    if attribute is None or attribute.startswith(TEXT_MARKER):
        return shown
    return f"{attribute} of {shown}"


def where(node: Node | None) -> str:
    """A place as a message names it: ``number of <board>``, ``<call>``."""
    if node is None:
        return "the board"
    return _where(*node)


# --- the board ------------------------------------------------------------------------------------


def board_model(converter: Converter, element: etree._Element) -> JsonObject:
    """The model object of a ``<board>`` element."""
    values = converter.attributes(
        element,
        ("file", "number", "dealer", "vulnerability", "declarer", "declarer-irregular"),
    )
    model: JsonObject = {}
    converter.register((), element)
    converter.stray_text(element)
    put = converter.put
    put(model, (), "number", element, values, "number", integer)
    put(model, (), "dealer", element, values, "dealer")
    put(model, (), "vulnerability", element, values, "vulnerability")
    put(model, (), "declarer", element, values, "declarer")
    put(model, (), "declarer_irregular", element, values, "declarer-irregular", boolean)
    lists: dict[str, list[object]] = {"commentary": [], "tags": [], "tables": []}
    model.update(lists)

    def single(
        key: str, read: Callable[[Converter, etree._Element, JsonPath], object]
    ) -> Callable[[etree._Element], None]:
        def handle(child: etree._Element) -> None:
            if key in model:
                converter.report(XML004, child, name=f"{key} (a second one)", parent="board")
                return
            converter.register((key,), child)
            model[key] = read(converter, child, (key,))

        return handle

    def several(
        key: str, read: Callable[[Converter, etree._Element, JsonPath], object]
    ) -> Callable[[etree._Element], None]:
        def handle(child: etree._Element) -> None:
            path = (key, len(lists[key]))
            converter.register(path, child)
            lists[key].append(read(converter, child, path))

        return handle

    converter.only(
        element,
        {
            "comment": several("commentary", _comment),
            "tag": several("tags", _tag),
            "table": several("tables", _table),
            "deal": single("deal", _deal),
            "contract": single("contract", _contract),
            "result": single("result", _result),
            "score": single("score", _score),
            "auction": single("auction", _auction),
            "play": single("play", _play),
        },
    )
    return model


Read = Callable[[Converter, etree._Element, JsonPath], object]


def _comment(converter: Converter, element: etree._Element, path: JsonPath) -> object:
    return converter.comment(element, path)


def _tag(converter: Converter, element: etree._Element, path: JsonPath) -> object:
    values = converter.attributes(element, ("name", "value", "written", "inherited", "duplicate"))
    tag: JsonObject = {}
    if "name" not in values:
        converter.missing(element, "name", "the tag is not read")
    put = converter.put
    put(tag, path, "name", element, values, "name")
    tag["value"] = ""
    put(tag, path, "value", element, values, "value")
    put(tag, path, "written", element, values, "written")
    put(tag, path, "inherited", element, values, "inherited", boolean)
    put(tag, path, "duplicate", element, values, "duplicate", boolean)
    tag["comments"] = _comments_only(converter, element, path)
    return tag if "name" in tag else None


def _comments_only(converter: Converter, element: etree._Element, path: JsonPath) -> list[object]:
    comments: list[object] = []

    def comment(child: etree._Element) -> None:
        comments.append(converter.comment(child, (*path, "comments", len(comments))))

    converter.only(element, {"comment": comment})
    return comments


def _deal(converter: Converter, element: etree._Element, path: JsonPath) -> object:
    converter.attributes(element, ())
    deal: JsonObject = {key: None for key in ("N", "E", "S", "W")}

    def hand(child: etree._Element) -> None:
        values = converter.attributes(child, ("seat",))
        seat = values.get("seat", "")
        if seat not in deal:
            wanted = "a seat (N, E, S or W)"
            if "seat" not in values:
                converter.missing(child, "seat", "the hand is not read")
            else:
                converter.report(
                    XML007,
                    child,
                    "seat",
                    where=_where(child, "seat"),
                    found=describe(seat),
                    expected=wanted,
                )
            return
        if deal[seat] is not None:
            converter.report(XML004, child, name=f"hand (a second one for {seat})", parent="deal")
            return
        deal[seat] = converter.content(child) or "..."
        converter.register((*path, seat), child)

    converter.only(element, {"hand": hand})
    return deal


def _contract(converter: Converter, element: etree._Element, path: JsonPath) -> object:
    values = converter.attributes(element, ("level", "strain", "doubling"))
    contract: JsonObject = {"level": None, "strain": None}
    converter.put(contract, path, "level", element, values, "level", integer)
    converter.put(contract, path, "strain", element, values, "strain")
    converter.put(contract, path, "doubling", element, values, "doubling")
    converter.only(element, {})
    return contract


def _result(converter: Converter, element: etree._Element, path: JsonPath) -> object:
    values = converter.attributes(element, ("tricks", "irregular"))
    result: JsonObject = {}
    converter.put(result, path, "tricks", element, values, "tricks", integer)
    converter.put(result, path, "irregular", element, values, "irregular", boolean)
    converter.only(element, {})
    return result


def _score(converter: Converter, element: etree._Element, path: JsonPath) -> object:
    values = converter.attributes(element, ("points", "side"))
    score: JsonObject = {}
    converter.put(score, path, "points", element, values, "points", integer)
    converter.put(score, path, "side", element, values, "side")
    converter.only(element, {})
    return score


_ANNOTATION = ("note", "nags", "irregularity")


def _annotation(
    converter: Converter,
    element: etree._Element,
    path: JsonPath,
    values: dict[str, str],
    into: JsonObject,
) -> bool:
    """Annotation attributes and comments of ``element`` into ``into``; True if it has any."""
    converter.put(into, path, "note", element, values, "note", integer)
    if "nags" in values:
        into["nags"] = [integer(nag) for nag in values["nags"].split()]
        converter.register((*path, "nags"), element, "nags")
    converter.put(into, path, "irregularity", element, values, "irregularity")
    comments = _comments_only(converter, element, path)
    if comments:
        into["comments"] = comments
    return any(key in into for key in (*_ANNOTATION, "comments"))


def _move(
    converter: Converter, element: etree._Element, path: JsonPath, what: str
) -> tuple[object, dict[str, str]]:
    """A call or card: its value, token, or (a card only) nothing known."""
    values = converter.attributes(element, ("value", "token", "seat", *_ANNOTATION))
    converter.register(path, element, "token" if "token" in values else "value")
    if "token" in values:
        return {"token": values["token"]}, values
    if "value" in values:
        return values["value"], values
    if what == "call":
        converter.missing(element, "value", "kept as an empty token")
        return {"token": ""}, values
    return None, values


def _section(
    converter: Converter,
    element: etree._Element,
    path: JsonPath,
    body: str,
    read_body: Callable[[etree._Element, JsonObject], None],
) -> object:
    values = converter.attributes(element, ("first", "end"))
    section: JsonObject = {
        "calls" if body == "call" else "tricks": [],
        "annotations": [],
        "notes": [],
        "comments": [],
    }
    if "first" not in values:
        converter.missing(element, "first", f"the {local_name(element)} is not read")
    converter.put(section, path, "first", element, values, "first")
    converter.put(section, path, "end", element, values, "end")
    annotations = section["annotations"]
    notes = section["notes"]
    comments = section["comments"]
    assert isinstance(annotations, list) and isinstance(notes, list) and isinstance(comments, list)

    def annotation(child: etree._Element) -> None:
        where = (*path, "annotations", len(annotations))
        keys = ("call",) if body == "call" else ("trick", "seat")
        child_values = converter.attributes(child, (*keys, *_ANNOTATION))
        found: JsonObject = {}
        for key in keys:
            if key not in child_values:
                converter.missing(child, key, "the annotation is not read")
                return
            converter.put(
                found, where, key, child, child_values, key, None if key == "seat" else integer
            )
        converter.register(where, child)
        _annotation(converter, child, where, child_values, found)
        annotations.append(found)

    def note(child: etree._Element) -> None:
        where = (*path, "notes", len(notes))
        child_values = converter.attributes(child, ("index", "text"))
        found: JsonObject = {}
        converter.register(where, child)
        if "index" not in child_values:
            converter.missing(child, "index", "the note is not read")
            return
        converter.put(found, where, "index", child, child_values, "index", integer)
        converter.put(found, where, "text", child, child_values, "text")
        found["comments"] = _comments_only(converter, child, where)
        notes.append(found)

    def comment(child: etree._Element) -> None:
        comments.append(converter.comment(child, (*path, "comments", len(comments))))

    handlers: dict[str, Callable[[etree._Element], None]] = {
        "comment": comment,
        "annotation": annotation,
        "note": note,
        body: lambda child: read_body(child, section),
    }
    converter.only(element, handlers)
    return section if "first" in section else None


def _auction(converter: Converter, element: etree._Element, path: JsonPath) -> object:
    def call(child: etree._Element, section: JsonObject) -> None:
        calls = section["calls"]
        annotations = section["annotations"]
        assert isinstance(calls, list) and isinstance(annotations, list)
        where = (*path, "calls", len(calls))
        value, values = _move(converter, child, where, "call")
        if "seat" in values:
            converter.report(XML005, child, "seat", name="seat", owner="call")
        calls.append(value)
        found: JsonObject = {"call": len(calls) - 1}
        place = (*path, "annotations", len(annotations))
        if _annotation(converter, child, place, values, found):
            converter.register(place, child)
            annotations.append(found)

    return _section(converter, element, path, "call", call)


def _play(converter: Converter, element: etree._Element, path: JsonPath) -> object:
    def trick(child: etree._Element, section: JsonObject) -> None:
        tricks = section["tricks"]
        annotations = section["annotations"]
        assert isinstance(tricks, list) and isinstance(annotations, list)
        where = (*path, "tricks", len(tricks))
        converter.attributes(child, ())
        converter.register(where, child)
        slots: JsonObject = {key: None for key in ("N", "E", "S", "W")}
        placed: set[str] = set()

        def card(node: etree._Element) -> None:
            seat = node.get("seat")
            if seat is None:
                converter.attributes(node, ("value", "token", "seat", *_ANNOTATION))
                converter.missing(node, "seat", "the card is not read")
                return
            if seat not in slots or seat in placed:
                converter.report(
                    XML007,
                    node,
                    "seat",
                    where=_where(node, "seat"),
                    found=describe(seat),
                    expected="a seat (N, E, S or W) not given before in the trick",
                )
                return
            placed.add(seat)
            value, values = _move(converter, node, (*where, seat), "card")
            slots[seat] = value
            found: JsonObject = {"trick": len(tricks), "seat": seat}
            place = (*path, "annotations", len(annotations))
            if _annotation(converter, node, place, values, found):
                converter.register(place, node)
                annotations.append(found)

        converter.only(child, {"card": card})
        tricks.append(slots)

    return _section(converter, element, path, "trick", trick)


def _table(converter: Converter, element: etree._Element, path: JsonPath) -> object:
    values = converter.attributes(element, ("name", "header"))
    table: JsonObject = {"header": ""}
    if "name" not in values:
        converter.missing(element, "name", "the table is not read")
    converter.put(table, path, "name", element, values, "name")
    converter.put(table, path, "header", element, values, "header")
    columns: list[object] = []
    rows: list[object] = []
    comments: list[object] = []
    table.update(columns=columns, rows=rows, leftover=[], comments=comments)

    def column(child: etree._Element) -> None:
        where = (*path, "columns", len(columns))
        child_values = converter.attributes(child, ("name", "order", "width", "align"))
        found: JsonObject = {"order": "", "align": "", "width": None}
        converter.register(where, child)
        for key in ("name", "order", "align"):
            converter.put(found, where, key, child, child_values, key)
        converter.put(found, where, "width", child, child_values, "width", integer)
        converter.only(child, {})
        columns.append(found)

    def cells(child: etree._Element, where: JsonPath) -> list[object]:
        converter.attributes(child, ())
        converter.register(where, child)
        found: list[object] = []

        def cell(node: etree._Element) -> None:
            converter.attributes(node, ())
            converter.register((*where, len(found)), node)
            found.append(converter.content(node))

        converter.only(child, {"cell": cell})
        return found

    def row(child: etree._Element) -> None:
        rows.append(cells(child, (*path, "rows", len(rows))))

    def leftover(child: etree._Element) -> None:
        table["leftover"] = cells(child, (*path, "leftover"))

    def comment(child: etree._Element) -> None:
        comments.append(converter.comment(child, (*path, "comments", len(comments))))

    converter.only(
        element, {"column": column, "row": row, "leftover": leftover, "comment": comment}
    )
    return table if "name" in table else None
