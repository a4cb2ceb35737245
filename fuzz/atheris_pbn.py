"""Coverage-guided fuzzing of the PBN reader, the Laws checks and the writers (atheris).

libFuzzer calls ``TestOneInput`` with mutated byte strings.  Each one is read and validated
(``pbn.parse``), its boards are converted to JSON and to canonical PBN, and the PBN is read
back and written again.  Anything unexpected raises, which atheris reports as a crash and
saves as ``crash-<sha1>``:

* an exception from the reader, the checks or the writers (none may escape them);
* an ``INT001`` diagnostic (an internal failure the reader caught and turned into a finding);
* a diagnostic without a known code or a line;
* converted boards that read back as a different number of boards, or whose canonical text
  is not stable (``dumps(read(dumps(x))) != dumps(x)``).

Hangs and catastrophic backtracking show up through libFuzzer's ``-timeout``.  See
``fuzz/README.md`` for how to run it.
"""

from __future__ import annotations

import json
import sys

import atheris  # type: ignore[import-untyped,import-not-found,unused-ignore]

with atheris.instrument_imports(include=["pbntool", "lark"]):
    from pbntool.diagnostics import CATALOGUE
    from pbntool.formats import pbn
    from pbntool.formats.json import dumps_line
    from pbntool.formats.pbn.writer import dumps
    from pbntool.records import ParseResult


class FuzzFinding(Exception):
    """Something that must never happen; raised so that atheris records the input."""


def _check(result: ParseResult, name: str) -> None:
    for diagnostic in result.diagnostics:
        if diagnostic.code == "INT001" or diagnostic.code not in CATALOGUE:
            raise FuzzFinding(str(diagnostic))
        if diagnostic.file != name or diagnostic.line is None or diagnostic.line < 1:
            raise FuzzFinding(f"badly placed: {diagnostic!r}")


def TestOneInput(data: bytes) -> None:  # libFuzzer's name for the entry point
    """One fuzz input: read, validate, convert, read back."""
    result = pbn.parse(data, "fuzz.pbn", validate=True)
    _check(result, "fuzz.pbn")
    for board in result.boards:
        json.loads(dumps_line(board, file="fuzz.pbn"))
    text = dumps(result.boards)
    again = pbn.parse(text, "again.pbn", validate=True)
    _check(again, "again.pbn")
    if len(again.boards) != len(result.boards):
        raise FuzzFinding(f"{len(result.boards)} boards became {len(again.boards)}")
    if dumps(again.boards) != text:
        raise FuzzFinding("canonical output is not stable")


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
