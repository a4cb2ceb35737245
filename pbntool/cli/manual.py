"""Every command's ``--help`` as a man page, written once: in the command's docstring.

A command registers with ``@command()`` instead of ``@app.command()``; its docstring is::

    One line: what the command does.

    A short paragraph (or two) on how it does it.

    Inputs: what it reads ({inputs} is the inputs every batch command takes).

    Examples:
        pbntool validate fixtures/sample/
            What this one does.
        pbntool validate --format json fixtures/sample/event.pbn
            And this one.

    Exit 1: what exit code 1 means for this command.

``--help`` then prints the summary, the paragraph and the inputs, the arguments and options
(each with its default: ``ManualCommand`` gives the ones typer leaves bare ``off`` or
``none``), the examples and the exit codes, whose text is ``exit_codes`` alone (the codes
come from ``pbntool.run.report``).  ``tests/test_help.py`` walks every command's page and runs
its examples on ``fixtures/sample/``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import typer
import typer.core

from pbntool.formats import readable_formats
from pbntool.run.report import (
    EXIT_CLOSED_PIPE,
    EXIT_FINDINGS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNREADABLE,
)

__all__ = ["BATCH_INPUTS", "PANELS", "ManPage", "ManualCommand", "command", "exit_codes"]

BATCH_INPUTS = (
    "files ({formats}: the format of each is found from its content, or given with --from), "
    "directories (searched recursively for those suffixes), archives and compressed files "
    "(zip, tar, tar.gz/bz2/xz, gz, bz2, xz: their members are read), '-' for stdin, "
    "handviewer links (a BBO URL with lin=), and a list of paths with --files-from"
).format(formats=", ".join(form.value.upper() for form in readable_formats()))
"""What a batch command reads: ``{inputs}`` in a docstring's Inputs paragraph."""


def exit_codes(findings: str) -> list[tuple[int, str]]:
    """The exit codes of a command and what each means, ``findings`` saying what makes it 1."""
    return [
        (EXIT_OK, "done, nothing to report"),
        (EXIT_FINDINGS, findings),
        (
            EXIT_UNREADABLE,
            "an input could not be read, an output was refused or not written, or the "
            "options are wrong (usage)",
        ),
        (EXIT_INTERRUPTED, "interrupted (Ctrl-C)"),
        (EXIT_CLOSED_PIPE, "stdout was closed before the end (| head)"),
    ]


INPUT_PANEL, RUN_PANEL = "Input options", "Run options"
PANELS = {
    **dict.fromkeys(
        ("source_format", "files_from", "include", "exclude", "follow_symlinks"), INPUT_PANEL
    ),
    **dict.fromkeys(("max_member_size", "max_ratio", "max_game_size"), INPUT_PANEL),
    **dict.fromkeys(("jobs", "engine", "scheduler", "max_errors", "fail_on"), RUN_PANEL),
    **dict.fromkeys(("progress", "quiet", "summary_json"), RUN_PANEL),
}
"""The help panels of the options the commands share (by parameter name): a command's own
options come first, under Options."""


@dataclass(frozen=True, slots=True)
class ManPage:
    """A command's page, read from its docstring."""

    summary: str
    description: tuple[str, ...]
    inputs: str
    examples: tuple[tuple[str, str], ...]
    """(command line, what it does)."""
    findings: str
    """What exit code 1 means."""

    @classmethod
    def parse(cls, doc: str, name: str) -> ManPage:
        paragraphs = re.split(r"\n[ \t]*\n", inspect.cleandoc(doc).strip())
        summary, description = _unwrap(paragraphs[0]), []
        inputs = findings = ""
        examples: list[tuple[str, str]] = []
        for paragraph in paragraphs[1:]:
            if paragraph.startswith("Inputs:"):
                inputs = _unwrap(paragraph.removeprefix("Inputs:")).format(inputs=BATCH_INPUTS)
            elif paragraph.startswith("Exit 1:"):
                findings = _unwrap(paragraph.removeprefix("Exit 1:")).rstrip(".")
            elif paragraph.startswith("Examples:"):
                examples = _examples(paragraph)
            else:
                description.append(_unwrap(paragraph))
        page = cls(summary, tuple(description), inputs, tuple(examples), findings)
        missing = [
            part
            for part, value in (
                ("a paragraph", page.description),
                ("Inputs:", inputs),
                ("Exit 1:", findings),
            )
            if not value
        ]
        if missing or len(examples) < 2:
            problem = ", ".join(missing) or "two examples"
            raise ValueError(f"the docstring of pbntool {name} lacks {problem}")
        return page

    def help(self) -> str:
        """The text above the options (rich markup)."""
        parts = [escape(self.summary), *map(escape, self.description)]
        parts.append(f"[bold]Inputs:[/] {escape(self.inputs)}")
        return "\n\n".join(parts)

    def epilog(self) -> str:
        """The text below the options (rich markup): the examples and the exit codes."""
        shown = "\n".join(
            f"  {escape(line)}\n      {escape(meaning)}" for line, meaning in self.examples
        )
        codes = "\n".join(
            f"  {code:<4} {escape(meaning)}" for code, meaning in exit_codes(self.findings)
        )
        return f"[bold]Examples:[/]\n{shown}\n\n[bold]Exit codes:[/]\n{codes}"


_MARKUP = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")


def escape(text: str) -> str:
    """``rich.markup.escape``, which every command's registration calls: importing
    ``rich.markup`` (and its emoji table) cost a tenth of the start-up of every run, help or
    not (``tests/test_help.py`` compares the two)."""
    escaped = _MARKUP.sub(lambda found: f"{found[1]}{found[1]}\\{found[2]}", text)
    if escaped.endswith("\\") and not escaped.endswith("\\\\"):
        return escaped + "\\"
    return escaped


def _unwrap(text: str) -> str:
    return " ".join(text.split())


def _examples(paragraph: str) -> list[tuple[str, str]]:
    examples: list[tuple[str, str]] = []
    for line in paragraph.splitlines()[1:]:
        text = line.strip()
        if text.startswith("pbntool "):
            examples.append((text, ""))
        elif examples and text:
            command_line, meaning = examples[-1]
            examples[-1] = (command_line, f"{meaning} {text}".strip())
    return examples


class _Option(typer.core.TyperOption):
    """An option whose default, given as text, shows as ``[default: off]``, not ``(off)``."""

    def _get_default_string(
        self, *, ctx: Any, show_default_is_str: bool, default_value: Any
    ) -> str:
        if show_default_is_str:
            return str(self.show_default)
        return super()._get_default_string(
            ctx=ctx, show_default_is_str=show_default_is_str, default_value=default_value
        )


class ManualCommand(typer.core.TyperCommand):
    """A command whose every option shows a default: typer shows none for a flag that is off
    or an option that is unset, which then read ``off`` or ``none`` unless the help text says
    what the default is."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if isinstance(param, typer.core.TyperOption):
                param.__class__ = _Option
                _show_default(param)
                if param.name in PANELS and not getattr(param, "rich_help_panel", None):
                    param.rich_help_panel = PANELS[param.name]


def _show_default(option: typer.core.TyperOption) -> None:
    if option.required or isinstance(option.show_default, str):
        return
    if "default" in (option.help or "").lower():
        return  # the help says it
    if option.is_flag and not option.secondary_opts:
        if not option.default:
            option.show_default = "off"
    elif option.default is None or option.default in ((), []):
        option.show_default = "none"


CommandT = TypeVar("CommandT", bound=Callable[..., None])


def command(app: typer.Typer, **settings: Any) -> Callable[[CommandT], CommandT]:
    """Register a command on ``app`` with its docstring as its man page."""

    def register(function: CommandT) -> CommandT:
        name = settings.get("name") or function.__name__.replace("_", "-")
        page = ManPage.parse(function.__doc__ or "", name)
        app.command(help=page.help(), epilog=page.epilog(), cls=ManualCommand, **settings)(function)
        return function

    return register
