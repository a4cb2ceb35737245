"""The published schemas shipped with the package (``schemas/*``): JSON Schema and XSD.

They live in the repository's top-level ``schemas/`` folder and are copied into the wheel as
``pbntool/schemas/``; like the grammars they are read through ``importlib.resources``, with
the repository folder as the fallback of a source checkout.

* ``board.schema.json``: one JSON record (a line of ``convert --to json``), JSON Schema 2020-12.
* ``boards.xsd``: the XML document of ``convert --to xml`` (see ``docs/xml.md``).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

__all__ = ["JSON_SCHEMA", "XML_SCHEMA", "json_schema", "schema_bytes"]

JSON_SCHEMA = "board.schema.json"
XML_SCHEMA = "boards.xsd"


def schema_bytes(name: str) -> bytes:
    """The bytes of ``schemas/<name>``."""
    packaged = resources.files("pbntool").joinpath("schemas", name)
    if packaged.is_file():
        return packaged.read_bytes()
    return (Path(__file__).resolve().parents[2] / "schemas" / name).read_bytes()


def json_schema() -> dict[str, object]:
    """The JSON Schema of a JSON record, as a dict (ready for a JSON Schema validator)."""
    schema: dict[str, object] = json.loads(schema_bytes(JSON_SCHEMA))
    return schema
