"""Every command's ``--help`` reads like a man page (``pbntool.cli.manual``), through a real
subprocess: what the command does, its inputs, each option with its default, two examples
and the exit codes; and every example runs (exit 0 or 1) on a copy of ``fixtures/sample/``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_cli import MODULE, Run

from pbntool.run.report import (
    EXIT_CLOSED_PIPE,
    EXIT_FINDINGS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNREADABLE,
)

REPO = Path(__file__).resolve().parent.parent
WIDE = "250"
"""Columns for the help: no option row and no example is wrapped."""
_PANEL_ROW = re.compile(r"^│ (\S+)\s{2,}\S")


def wide_run(*arguments: str, cwd: Path | None = None) -> Run:
    """``pbntool_run`` in a terminal wide enough that no help line is wrapped."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1", "COLUMNS": WIDE}
    done = subprocess.run(
        [*MODULE, *arguments], capture_output=True, cwd=cwd, env=env, timeout=120, check=False
    )
    return Run(done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"))


def _commands() -> list[str]:
    """The commands ``pbntool --help`` lists (the rows of its Commands panel)."""
    text = wide_run("--help").text
    panel = text.split("─ Commands ─", 1)[1].split("╰", 1)[0]
    return [match.group(1) for line in panel.splitlines() if (match := _PANEL_ROW.match(line))]


COMMANDS = _commands()


def _page(command: str) -> str:
    run = wide_run(command, "--help")
    assert run.code == 0 and run.err == "", run.err
    return run.text


def _option_rows(page: str) -> list[str]:
    """Each option of the page's panels with its help text (continuation lines joined)."""
    rows: list[str] = []
    inside = False
    for line in page.splitlines():
        if line.startswith("╭─") and "Arguments" not in line:
            inside = True
        elif line.startswith("╰"):
            inside = False
        elif inside and re.match(r"^│ +(\* +)?--", line):
            rows.append(line)
        elif inside and rows and line.startswith("│"):
            rows[-1] += " " + line.strip("│ ")
    return rows


def _examples(page: str) -> list[str]:
    section = page.split("Examples:", 1)[1].split("Exit codes:", 1)[0]
    return [line.strip() for line in section.splitlines() if line.strip().startswith("pbntool ")]


def test_every_command_is_listed() -> None:
    expected = {"validate", "convert", "score", "show", "fix", "select", "dedupe", "stats"}
    assert expected | {"dd", "render"} == set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_reads_like_a_man_page(command: str) -> None:
    page = _page(command)
    assert re.search(rf"Usage: .*pbntool {command} ", page), page
    # What the command does: the summary, then at least one paragraph, then its inputs.
    head = page.split("Usage:", 1)[1].split("╭", 1)[0]
    paragraphs = [part.strip() for part in re.split(r"\n\s*\n", head) if part.strip()]
    assert len(paragraphs) >= 4, paragraphs  # usage, summary, description, inputs
    assert paragraphs[-1].startswith("Inputs: ")
    assert len(paragraphs[-2]) > 80  # a paragraph, not a phrase
    assert "─ Options ─" in page
    # Each option with its default (or required).
    rows = _option_rows(page)
    assert rows, page
    for row in rows:
        if "--help" in row.split()[1:3]:
            continue
        assert "default" in row or "[required]" in row, row
    assert "<bool>" not in page and "<list[" not in page
    examples = _examples(page)
    assert len(examples) >= 2 and all(e.startswith(f"pbntool {command} ") for e in examples)
    codes = page.split("Exit codes:", 1)[1]
    found = [int(line.split()[0]) for line in codes.splitlines() if re.match(r"^\s+\d+ ", line)]
    assert found == [EXIT_OK, EXIT_FINDINGS, EXIT_UNREADABLE, EXIT_INTERRUPTED, EXIT_CLOSED_PIPE]


def _needs(example: str) -> str | None:
    """The optional module an example needs (None: none)."""
    if example.startswith("pbntool dd ") or " --dd" in example:
        return "endplay"
    if ".pdf" in example or "--to pdf" in example:
        return "weasyprint"
    return None


@pytest.mark.slow
def test_every_example_runs_on_the_sample(tmp_path: Path) -> None:
    shutil.copytree(REPO / "fixtures" / "sample", tmp_path / "fixtures" / "sample")
    examples = [
        example
        for command in COMMANDS
        for example in _examples(_page(command))
        if (needed := _needs(example)) is None or importlib.util.find_spec(needed) is not None
    ]
    assert len(examples) >= 2 * (len(COMMANDS) - 1)
    named = [example for example in examples if "fixtures/sample/" in example]
    assert len(named) >= len(examples) - 1  # all but the handviewer link use the sample

    def run(example: str) -> tuple[str, Run]:
        words = shlex.split(example)
        assert words[0] == "pbntool"
        return example, wide_run(*words[1:], cwd=tmp_path)

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, examples))
    for example, done in results:
        assert done.code in (EXIT_OK, EXIT_FINDINGS), (example, done.code, done.err)
        assert "Traceback" not in done.err, example
    assert (tmp_path / "fixtures" / "sample" / "event.pbn").read_bytes() == (
        REPO / "fixtures" / "sample" / "event.pbn"
    ).read_bytes()  # no example changed the sample


def test_a_docstring_without_its_sections_is_refused() -> None:
    from pbntool.cli.manual import ManPage, exit_codes

    with pytest.raises(ValueError, match="lacks a paragraph, Inputs:, Exit 1:"):
        ManPage.parse("Only a summary.", "nothing")
    page = ManPage.parse(
        """Do it.

        How it is done, at some length.

        Inputs: {inputs}.

        Examples:
            pbntool it a.pbn
                One
                way.
            pbntool it -q a.pbn
                Another.

        Exit 1: something found.
        """,
        "it",
    )
    assert page.examples == (("pbntool it a.pbn", "One way."), ("pbntool it -q a.pbn", "Another."))
    assert page.inputs.startswith("files (PBN, LIN, ") and "handviewer links" in page.inputs
    assert exit_codes(page.findings)[1] == (EXIT_FINDINGS, "something found")
    with pytest.raises(ValueError, match="two examples"):
        ManPage.parse("Do.\n\nHow.\n\nInputs: x.\n\nExamples:\n    pbntool a\n\nExit 1: y.", "a")


def test_the_markup_escape_is_richs() -> None:
    """``pbntool.cli.manual.escape`` stands in for ``rich.markup.escape`` (whose import cost
    every run a tenth of its start-up): the same text for every command's page and for the
    cases rich's own tests name."""
    import inspect as inspection

    from rich.markup import escape as rich_escape

    from pbntool.cli import COMMANDS, load_commands
    from pbntool.cli.manual import escape

    load_commands()
    texts = ["[bold]", "\\[x]", "end\\", "end\\\\", "[/]", "a [b] c [D] [#f00] [@click]"]
    for name in COMMANDS:
        module = importlib.import_module(f"pbntool.cli.{name}")
        texts.append(inspection.getsource(module))
    for text in texts:
        assert escape(text) == rich_escape(text)
