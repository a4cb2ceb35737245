"""USEBIO XML results (``docs/conversions.md``): ``reader``, ``writer`` and ``sniff``.

Nothing is imported here: detection imports ``sniff`` for every input, and must not pay for
lxml (the spec names ``reader:iter_records`` and ``writer:UsebioWriter``).
"""
