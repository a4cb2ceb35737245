"""What the commands print on a sample of the real corpus, byte for byte, against golden files.

The layout change (docs/architecture.md) had to leave every output as it was: this sample of
corpus files from every source repository, run through validate, convert (to each format),
score and fix, was recorded with the code before the change and is compared after.  A change
of output on purpose is recorded again with ``pytest --update-golden`` (review the diff).
The commands run in process (typer's runner) in the corpus folder with relative paths, so
the goldens hold no machine's paths; timings are cut from the summary lines.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from conftest import CORPUS
from typer.testing import CliRunner

pytestmark = pytest.mark.corpus

GOLDEN = Path(__file__).parent / "golden" / "corpus_outputs"

SAMPLE_PER_SOURCE = 1
"""Files per source repository (the first ones by name, of each of PBN and LIN)."""

COMMANDS: dict[str, tuple[str, ...]] = {
    "validate": ("validate", "--format", "json", "-j", "1"),
    "pbn": ("convert", "--to", "pbn", "-j", "1"),
    "json": ("convert", "--to", "json", "-j", "1"),
    "xml": ("convert", "--to", "xml", "-j", "1"),
    "lin": ("convert", "--to", "lin"),
    "score": ("score",),
    "check": ("score", "--check"),
    "fix": ("fix", "--diff"),
}

_TIMING = re.compile(rb" in \d+(?:\.\d+)? s\b")


def sample() -> list[str]:
    """Corpus-relative paths: a few PBN and LIN files of every source, stable from run to run."""
    if not CORPUS.is_dir():
        return []
    chosen: list[str] = []
    for source in sorted(path for path in CORPUS.iterdir() if path.is_dir()):
        for suffix in (".pbn", ".lin"):
            files = sorted(
                p for p in source.rglob("*") if p.is_file() and p.suffix.lower() == suffix
            )
            chosen += [p.relative_to(CORPUS).as_posix() for p in files[:SAMPLE_PER_SOURCE]]
    return chosen


def _golden_name(relative: str, command: str) -> str:
    digest = hashlib.sha1(relative.encode()).hexdigest()[:10]
    return f"{Path(relative).stem[:40]}-{digest}.{command}.out"


def _output(relative: str, command: str) -> bytes:
    from pbntool.cli import app

    run = CliRunner().invoke(app, [*COMMANDS[command], relative])
    err = _TIMING.sub(b" in - s", run.stderr_bytes)
    return b"exit %d\n--- stdout\n%s\n--- stderr\n%s" % (run.exit_code, run.stdout_bytes, err)


@pytest.mark.parametrize("relative", sample())
def test_outputs_are_as_recorded(
    relative: str, update_golden: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(CORPUS)  # relative paths: the goldens name no machine's folders
    monkeypatch.setenv("COLUMNS", "120")
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for command in COMMANDS:
        golden = GOLDEN / _golden_name(relative, command)
        got = _output(relative, command)
        if update_golden:
            golden.write_bytes(got)
            continue
        assert golden.is_file(), f"{golden.name} is missing; run pytest --update-golden"
        assert got == golden.read_bytes(), f"{command} on {relative} changed ({golden.name})"
