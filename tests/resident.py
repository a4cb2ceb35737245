"""The peak resident memory of one command, measured in a small launcher process.

Linux keeps a process's peak RSS across exec, and a child forked (or vforked) from a test
process starts from that process's own peak, which after the corpus tests can be hundreds of
megabytes (CI saw every measured run at the xdist worker's 360 MiB).  So a small launcher
starts the command and reports its child's own peak, from ``os.wait4``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

LAUNCHER = """
import os, subprocess, sys
source = os.environ.pop("PBNTOOL_TEST_STDIN", "")
child = subprocess.Popen(sys.argv[2:], stdin=open(source, "rb") if source else subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
with open(sys.argv[1], "w") as report:
    report.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}")
"""


@dataclass(frozen=True)
class Resident:
    code: int
    stdout: str
    stderr: str
    peak: int
    """Peak resident memory of the command's process, in bytes (Linux: ru_maxrss in KiB)."""


def run_measured(
    command: list[str],
    *,
    timeout: float = 600,
    env: dict[str, str] | None = None,
    stdin: Path | None = None,
) -> Resident:
    """Run ``command`` (its output captured, its input ``stdin`` or nothing) and measure its
    own peak resident memory."""
    if stdin is not None:
        env = {**(os.environ if env is None else env), "PBNTOOL_TEST_STDIN": str(stdin)}
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "peak"
        done = subprocess.run(
            [sys.executable, "-I", "-c", LAUNCHER, str(report), *command],
            capture_output=True,
            timeout=timeout,
            env=env,
            check=False,
        )
        if not report.is_file():
            raise AssertionError(f"the launcher failed: {done.stderr.decode(errors='replace')}")
        code, kilobytes = report.read_text().split()
    return Resident(
        int(code),
        done.stdout.decode("utf-8", errors="replace"),
        done.stderr.decode("utf-8", errors="replace"),
        int(kilobytes) * 1024,
    )


def default_env() -> dict[str, str]:
    return {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}
