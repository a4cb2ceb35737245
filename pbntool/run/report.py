"""The exit codes of every command, defined once.

0 nothing at or above ``--fail-on``; 1 findings (or ``--max-errors`` reached); 2 usage errors,
inputs that could not be read, outputs not written; 130 Ctrl-C; 141 a closed stdout.
"""

from __future__ import annotations

import signal

__all__ = ["EXIT_CLOSED_PIPE", "EXIT_FINDINGS", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_UNREADABLE"]

EXIT_OK, EXIT_FINDINGS, EXIT_UNREADABLE = 0, 1, 2
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE
