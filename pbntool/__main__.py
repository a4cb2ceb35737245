"""``python -m pbntool``."""

from pbntool.cli import main

main()
