"""JSON and XML interchange: the whole board model as plain data, both ways.

``todict`` turns a ``Board`` into the *model* object of the JSON record (plain dicts, lists,
strings, numbers), which is also what the XML vocabulary spells as elements and attributes.
``fromdict`` turns such an object back into a ``Board``, checking every type and value and
reporting what it cannot use as diagnostics with the path of the offending value, so that
the JSON and XML readers can place them at a line and column.

``Board -> todict -> fromdict`` gives back an equal ``Board`` for every board the model can
hold: the record is lossless.
"""

from __future__ import annotations

__all__: list[str] = []
