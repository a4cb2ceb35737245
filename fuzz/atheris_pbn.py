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

import atheris  # type: ignore[import-untyped,import-not-found,unused-ignore]
from harness import FuzzFinding, check, fuzz

with atheris.instrument_imports(include=["pbntool", "lark"]):
    from pbntool.formats import pbn
    from pbntool.formats.json import dumps_line
    from pbntool.formats.pbn.writer import dumps


def TestOneInput(data: bytes) -> None:  # libFuzzer's name for the entry point
    """One fuzz input: read, validate, convert, read back."""
    result = pbn.parse(data, "fuzz.pbn", validate=True)
    check(result, "fuzz.pbn")
    for board in result.boards:
        json.loads(dumps_line(board, file="fuzz.pbn"))
    text = dumps(result.boards)
    again = pbn.parse(text, "again.pbn", validate=True)
    check(again, "again.pbn")
    if len(again.boards) != len(result.boards):
        raise FuzzFinding(f"{len(result.boards)} boards became {len(again.boards)}")
    if dumps(again.boards) != text:
        raise FuzzFinding("canonical output is not stable")


def main() -> None:
    fuzz(TestOneInput)


if __name__ == "__main__":
    main()
