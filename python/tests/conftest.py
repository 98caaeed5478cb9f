"""Shared fixtures: the repository's example projects and the `hase` command-line tool the
results are compared against (`$HASE_BIN`, else `target/debug/hase`; a test fails without it)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import List

import pytest

REPO = Path(__file__).resolve().parents[2]
PROJECTS = REPO / "projects"


@pytest.fixture(scope="session")
def hase_bin() -> Path:
    path = Path(os.environ.get("HASE_BIN", REPO / "target" / "debug" / "hase"))
    assert path.is_file(), f"the hase CLI is needed for the comparisons: build it (cargo build -p hase-app) or set HASE_BIN; {path} is missing"
    return path


@pytest.fixture(scope="session")
def cli(hase_bin: Path):
    """Run the hase CLI; fail the test (with its output) if it exits non-zero."""

    def run(args: List[str], cwd: Path = REPO) -> subprocess.CompletedProcess:
        done = subprocess.run([str(hase_bin), *args], cwd=cwd, capture_output=True, text=True)
        assert done.returncode == 0, f"hase {' '.join(args)} exited {done.returncode}:\n{done.stderr}"
        return done

    return run
