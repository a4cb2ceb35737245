"""``python -m pbntool`` (and the ``pbntool`` script): Ctrl-C ends with 130, never a traceback,
even while the command-line modules are still being imported."""

from __future__ import annotations

import gc
import signal
import sys


def main() -> None:
    # Importing the command line makes hundreds of thousands of objects and no garbage:
    # collecting as it goes (every 700 allocations by default) was 7% of start-up.  The
    # CLI freezes what the imports made and keeps a high threshold (``cli.main``).
    gc.set_threshold(100_000, 50, 100)
    try:
        from pbntool.cli import main as run
    except KeyboardInterrupt:
        sys.exit(128 + signal.SIGINT)
    except RuntimeError as error:
        # Python 3.11 wraps a Ctrl-C that lands while a class is being made (in an import)
        # in a RuntimeError (``pbntool.text.edit.interruption``).
        if isinstance(error.__cause__, KeyboardInterrupt):
            sys.exit(128 + signal.SIGINT)
        raise
    run()


if __name__ == "__main__":
    main()
