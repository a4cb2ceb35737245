"""``python -m pbntool`` (and the ``pbntool`` script): Ctrl-C ends with 130, never a traceback,
even while the command-line modules are still being imported."""

from __future__ import annotations

import signal
import sys


def main() -> None:
    try:
        from pbntool.cli import main as run
    except KeyboardInterrupt:
        sys.exit(128 + signal.SIGINT)
    run()


if __name__ == "__main__":
    main()
