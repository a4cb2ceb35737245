"""The Dask engine gives the local engine's output byte for byte (real cluster, TCP, processes).

A ``dask.distributed.LocalCluster`` is started in this process with worker *processes* on
loopback TCP; ``pbntool --engine dask --scheduler tcp://...`` runs in a subprocess against
it, with tiny slices so that one file is split over many tasks, and its stdout and summary
must equal ``-j 1``'s.  ``--engine dask`` alone starts its own local cluster.  Skipped when
``pbntool[dask]`` is not installed (CI installs it: see ``.ci/run``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbntool.dev.generate import random_boards
from pbntool.formats import lin
from pbntool.formats.pbn.writer import dumps

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.slow
MODULE = [sys.executable, "-m", "pbntool"]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=40,
    )
    try:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        yield address
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("dask")
    text = dumps(list(random_boards(41, 150)))
    text = re.sub(r'\[Event "[^"]*"\]', '[Event "#"]', text, count=60)
    text = re.sub(r'\[Result "\d+"\]', '[Result "0"]', text, count=5)
    (root / "a.pbn").write_text(text, encoding="utf-8", newline="")
    with zipfile.ZipFile(root / "b.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("x/one.pbn", dumps(list(random_boards(42, 40))))
    # LIN slices travel as text: rooms, a Windows-1252 byte, a table cut over two lines (the
    # cut before its "md|" is not clean: the client reads the rest again).
    lines = lin.dumps(list(random_boards(43, 60))).splitlines()
    lines[20] = lines[20].replace("|rh||", "|nt|caf\x00|rh||")
    names = lines[40].index("md|")
    note = f"nt|{'a long comment ' * 60}|"  # the slice is full before the "md|" line
    lines[40:41] = [lines[40][:names] + note, lines[40][names:]]
    rooms = [f"qx|o{index}|{line}" for index, line in enumerate(lines[45:])]
    data = "\n".join([*lines[:45], *rooms]) + "\n"
    (root / "c.lin").write_bytes(data.encode().replace(b"caf\x00", b"caf\xe9"))
    return root


def run(args: list[str], cwd: Path) -> tuple[int, bytes, str]:
    env = {**os.environ, "PBNTOOL_SLICE_CHARS": "3000"}
    done = subprocess.run(
        [*MODULE, *args], cwd=cwd, env=env, capture_output=True, timeout=600, check=False
    )
    err = re.sub(r" in \d+\.\d\d s$", "", done.stderr.decode(), flags=re.M)
    return done.returncode, done.stdout, err


@pytest.mark.parametrize(
    "command",
    [
        ["validate", "--format", "json", "--fail-on", "warning"],
        ["convert", "--to", "json"],
        ["score"],
    ],
    ids=lambda args: "-".join(args[:2]),
)
def test_dask_cluster_output_equals_the_local_engine(
    scheduler: str, inputs: Path, command: list[str]
) -> None:
    local = run([*command, ".", "-j", "1"], inputs)
    remote = run([*command, ".", "--engine", "dask", "--scheduler", scheduler], inputs)
    assert local[1], "nothing was printed"
    assert remote == local


def test_dask_engine_alone_starts_a_local_cluster(inputs: Path) -> None:
    local = run(["validate", ".", "-j", "1"], inputs)
    remote = run(["validate", ".", "--engine", "dask", "-j", "2"], inputs)
    assert remote == local
    assert local[0] == 1


def test_scheduler_without_dask_engine_is_a_usage_error(inputs: Path) -> None:
    code, out, err = run(["validate", ".", "--scheduler", "tcp://127.0.0.1:1"], inputs)
    assert (code, out) == (2, b"") and "--engine dask" in err
