from collections.abc import Iterator
from typing import BinaryIO
from pbntool.records import Record
def iter_records(stream: BinaryIO, name: str = "<stdin>") -> Iterator[Record]:
    yield from ()
