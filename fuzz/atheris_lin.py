"""Coverage-guided fuzzing of the LIN reader, the Laws checks and the LIN writer (atheris).

The LIN twin of ``atheris_pbn.py``: each input is read and validated (``lin.parse``), its
boards are written as LIN, read back and written again.  Anything unexpected raises, which
atheris reports as a crash and saves as ``crash-<sha1>``: an exception from the reader, the
checks or the writer; an ``INT001`` diagnostic; a diagnostic without a known code or a line;
boards that read back as a different number of boards, or LIN text that is not stable
(``dumps(read(dumps(x))) != dumps(x)``).  See ``fuzz/README.md`` for how to run it.
"""

from __future__ import annotations

import sys

import atheris  # type: ignore[import-untyped,import-not-found,unused-ignore]

with atheris.instrument_imports(include=["pbntool"]):
    from pbntool.diagnostics import CATALOGUE
    from pbntool.formats import lin
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
    """One fuzz input: read, validate, write LIN, read back, write again."""
    result = lin.parse(data, "fuzz.lin", validate=True)
    _check(result, "fuzz.lin")
    text = lin.dumps(result.boards)
    again = lin.parse(text, "again.lin", validate=True)
    _check(again, "again.lin")
    if len(again.boards) != len(result.boards):
        raise FuzzFinding(f"{len(result.boards)} boards became {len(again.boards)}")
    if lin.dumps(again.boards) != text:
        raise FuzzFinding("LIN output is not stable")


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
