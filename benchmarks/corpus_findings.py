"""Record ``pbntool validate --format json`` findings per corpus file, or compare two records.

    python benchmarks/corpus_findings.py record OUT.json [CORPUS]
    python benchmarks/corpus_findings.py compare BEFORE.json AFTER.json

A record maps each file to a count per finding code; ``compare`` prints the codes whose counts
changed, per file and in total, so a reader change shows exactly which findings it adds or
removes on the real files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path


def record(out: Path, corpus: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pbntool",
            "validate",
            "--format",
            "json",
            "-j",
            "1",
            "--fail-on",
            "error",
            "-q",
            str(corpus),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    per_file: dict[str, Counter[str]] = defaultdict(Counter)
    for line in proc.stdout.splitlines():
        if not line.strip():
            continue
        finding = json.loads(line)
        per_file[str(finding.get("file"))][str(finding.get("code"))] += 1
    out.write_text(json.dumps({f: dict(c) for f, c in sorted(per_file.items())}, indent=1))
    print(f"{sum(sum(c.values()) for c in per_file.values())} findings in {len(per_file)} files")


def compare(before_path: Path, after_path: Path) -> None:
    before = json.loads(before_path.read_text())
    after = json.loads(after_path.read_text())
    totals: Counter[str] = Counter()
    for name in sorted(set(before) | set(after)):
        b, a = Counter(before.get(name, {})), Counter(after.get(name, {}))
        for code in sorted(set(a) | set(b)):
            if a[code] != b[code]:
                print(f"{name}\t{code}\t{b[code]} -> {a[code]}")
                totals[code] += a[code] - b[code]
    print("totals:", dict(sorted(totals.items())) or "no change")


if __name__ == "__main__":
    if sys.argv[1] == "record":
        default = Path(__file__).parents[2] / "shared" / "corpus"
        corpus = Path(sys.argv[3]) if len(sys.argv) > 3 else default
        record(Path(sys.argv[2]), corpus)
    else:
        compare(Path(sys.argv[2]), Path(sys.argv[3]))
