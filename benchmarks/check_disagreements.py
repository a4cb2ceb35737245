"""Count ``score --check`` disagreements per corpus file (a before/after gauge for scoring work).

Each PBN or LIN file of the corpus (MANIFEST.tsv) is checked on its own, as ``pbntool score
--check FILE`` does, and one line per file with any checked value is printed:
``checked agreed disagreed path (codes)``; the totals close the listing.

    python benchmarks/check_disagreements.py                 # ../shared/corpus
    python benchmarks/check_disagreements.py --corpus DIR --json counts.json
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

from pbntool.formats import read_input
from pbntool.text.inputs import iter_inputs
from pbntool.tools.score.check import check_event

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


def corpus_files(corpus: Path) -> list[Path]:
    """The PBN and LIN files of the manifest, in manifest order."""
    with open(corpus / "MANIFEST.tsv", encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream, delimiter="\t"))
    return [corpus / row["local_path"] for row in rows if row["format"] in ("pbn", "lin")]


def count_file(path: Path) -> tuple[int, int, dict[str, int]]:
    """(values checked, agreed, disagreements by code) of one file checked alone."""
    records = (record for source in iter_inputs([str(path)]) for record in read_input(source))
    found = check_event(records)
    checked = sum(summary.checked for summary in found.summaries)
    agreed = sum(summary.agreed for summary in found.summaries)
    codes: dict[str, int] = {}
    for summary in found.summaries:
        for code, count in summary.disagreements.items():
            codes[code] = codes.get(code, 0) + count
    return checked, agreed, codes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--json", type=Path, help="also write the counts here")
    arguments = parser.parse_args(argv)
    rows = {}
    total_checked = total_agreed = 0
    for path in corpus_files(arguments.corpus):
        if not path.exists():
            continue
        checked, agreed, codes = count_file(path)
        if not checked:
            continue
        relative = str(path.relative_to(arguments.corpus))
        rows[relative] = {"checked": checked, "agreed": agreed, "codes": codes}
        total_checked += checked
        total_agreed += agreed
        detail = " ".join(f"{code}:{count}" for code, count in sorted(codes.items()))
        print(f"{checked:6d} {agreed:6d} {checked - agreed:5d} {relative} {detail}")
    print(
        f"total: {len(rows)} files, {total_checked} values checked, {total_agreed} agree, "
        f"{total_checked - total_agreed} disagree"
    )
    if arguments.json:
        arguments.json.write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
