"""A ``<board>`` element into the model object (see ``pbntool.formats.interchange.todict``).

One reader per element of the vocabulary (``docs/xml.md``); each registers every value with
the element and attribute it came from, so that findings can be placed.
"""

from __future__ import annotations

from collections.abc import Callable

from lxml import etree

from pbntool.diagnostics import XML004, XML005, XML007
from pbntool.formats.interchange.fromdict import JsonPath, describe
from pbntool.formats.xml.convert import Converter, boolean, integer, local_name, where_of

__all__ = ["board_model"]

JsonObject = dict[str, object]


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
    if not len(element):
        return comments  # the usual case: spare the closure

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
                    where=where_of(child, "seat"),
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
    if not len(element) and values.keys().isdisjoint(_ANNOTATION):
        return False  # most calls and cards have no annotation
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
                    where=where_of(node, "seat"),
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
