"""Shared fixtures: paths into the repository and its test fixtures."""
from __future__ import annotations

import atexit
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Tests import the trusted references (`reference/`) directly, whichever way pytest is started.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
FIXTURES = Path(__file__).resolve().parent / "fixtures"

# A cache folder of the run's own (generated cases, checks that passed, ban findings, the
# calibration): no test depends on what an earlier run left in ~/.cache, and none writes there.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="grader-tests-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture
def pinned_deals():
    """Pins a tournament folder's secret deal key: each tournament otherwise deals from a fresh
    random key, so a test that asserts on who wins would see new hands, and a new outcome, per run."""
    def pin(out: Path) -> Path:
        out.mkdir(parents=True, exist_ok=True)
        (out / ".deal-key").write_text("5e" * 32 + "\n")
        return out
    return pin


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def terminal_sigint():
    """``preexec_fn`` for a child that a test stops with Ctrl-C's SIGINT: the signal at its
    default, as in a terminal's foreground job.  A run started as a background job of a
    script inherits SIGINT *ignored* (POSIX, without job control), and Python then installs
    no KeyboardInterrupt handler: the child would never see the Ctrl-C the test sends."""
    return _sigint_default
