"""``pbntool fix`` on every PBN file of the shared corpus (``../shared/corpus``).

For each file: no traceback and no internal error; the output differs from the input only
inside the values fix reported (checked line by line by ``fixcheck``, which also checks
that the encoding and every line end are kept); a file with nothing to change comes back
byte for byte; fixing the output again changes nothing; and the fixed file, read back,
has the same games, commentary and tags as before except for the tags fix changed.
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest

from pbntool.formats import Format, detect_format
from pbntool.formats.pbn import parse
from pbntool.model import Board
from pbntool.tools.fix import FixResult, fix_bytes

from fixcheck import differences_outside_reports

pytestmark = [pytest.mark.corpus, pytest.mark.slow]

_CHANGED_TAG = {
    "FIX001": "Dealer",
    "FIX002": "Vulnerable",
    "FIX003": "Deal",
    "FIX004": "Contract",
    "FIX005": "Declarer",
    "FIX006": "Result",
    "FIX007": "Score",
    "FIX008": "Note",
    "FIX009": "Note",
}


def _pbn_files(corpus: Path) -> list[Path]:
    found = []
    for path in sorted(corpus.rglob("*")):
        if path.is_file() and path.name != "MANIFEST.tsv":
            with open(path, "rb") as stream:
                head = stream.read(1 << 16)
            if detect_format(head, path.name) is Format.PBN:
                found.append(path)
    return found


def _fix(data: bytes, name: str) -> tuple[bytes, FixResult]:
    out = io.BytesIO()
    result = fix_bytes(data, name, out)
    return out.getvalue(), result


def _comparable(board: Board, changed: set[str]) -> tuple[object, ...]:
    """What must survive a fix: every tag but the changed ones, the commentary, the
    tables, the calls and cards (note numbers aside when notes were renumbered)."""
    tags = tuple((t.name, t.value, t.comments) for t in board.tags if t.name not in changed)
    auction = board.auction.calls if board.auction is not None else None
    play = board.play.tricks if board.play is not None else None
    return (board.number, tags, board.commentary, board.tables, auction, play)


def test_fix_on_the_whole_corpus_changes_only_the_reported_values(corpus_dir: Path) -> None:
    files = _pbn_files(corpus_dir)
    assert len(files) > 500, "the corpus should hold hundreds of PBN files"
    codes: Counter[str] = Counter()
    problems: dict[str, list[str]] = {}
    changed_files = 0
    for path in files:
        name = str(path.relative_to(corpus_dir))
        data = path.read_bytes()
        fixed, result = _fix(data, name)
        codes.update(d.code for d in result.diagnostics)
        found: list[str] = []
        if any(d.code == "INT001" for d in result.diagnostics):
            found.append("internal error")
        if not result.changed:
            if fixed != data:
                found.append("nothing reported, yet the bytes changed")
        else:
            changed_files += 1
            found += differences_outside_reports(data, fixed, result.diagnostics)
            again, second = _fix(fixed, name)
            if again != fixed or second.changes:
                found.append(f"a second fix changed more: {second.diagnostics[:2]}")
            found += _same_games(data, fixed, result)
        if found:
            problems[name] = found[:5]
    assert problems == {}
    assert changed_files > 0 and codes["FIX007"] > 0


def _same_games(before: bytes, after: bytes, result: FixResult) -> list[str]:
    old, new = parse(before).boards, parse(after).boards
    if len(old) != len(new):
        return [f"{len(old)} games became {len(new)}"]
    # Tags fix changed somewhere in the file (notes change annotations, never calls).
    every = {_CHANGED_TAG[d.code] for d in result.diagnostics if d.code in _CHANGED_TAG}
    problems = []
    for index, (one, other) in enumerate(zip(old, new, strict=True)):
        if _comparable(one, every) != _comparable(other, every):
            problems.append(f"game {index + 1} changed outside the reported tags")
    return problems[:3]
