"""Shared fixtures: paths into the repository and its test fixtures."""
from __future__ import annotations

from pathlib import Path

import sys

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Tests import the trusted references (`reference/`) directly, whichever way pytest is started.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES
