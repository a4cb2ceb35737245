"""Coverage-guided fuzzing of the LIN reader, the Laws checks and the LIN writer (atheris).

The LIN twin of ``atheris_pbn.py``: each input is read and validated (``lin.parse``), its
boards are written as LIN, read back and written again.  Anything unexpected raises, which
atheris reports as a crash and saves as ``crash-<sha1>``: an exception from the reader, the
checks or the writer; an ``INT001`` diagnostic; a diagnostic without a known code or a line;
boards that read back as a different number of boards, or LIN text that is not stable
(``dumps(read(dumps(x))) != dumps(x)``).  See ``fuzz/README.md`` for how to run it.
"""

from __future__ import annotations

import atheris  # type: ignore[import-untyped,import-not-found,unused-ignore]
from harness import FuzzFinding, check, fuzz

with atheris.instrument_imports(include=["pbntool"]):
    from pbntool.formats import lin


def TestOneInput(data: bytes) -> None:  # libFuzzer's name for the entry point
    """One fuzz input: read, validate, write LIN, read back, write again."""
    result = lin.parse(data, "fuzz.lin", validate=True)
    check(result, "fuzz.lin")
    text = lin.dumps(result.boards)
    again = lin.parse(text, "again.lin", validate=True)
    check(again, "again.lin")
    if len(again.boards) != len(result.boards):
        raise FuzzFinding(f"{len(result.boards)} boards became {len(again.boards)}")
    if lin.dumps(again.boards) != text:
        raise FuzzFinding("LIN output is not stable")


def main() -> None:
    fuzz(TestOneInput)


if __name__ == "__main__":
    main()
