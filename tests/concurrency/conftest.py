"""Every test here needs PostgreSQL (row locks, concurrent connections, its backend's socket)."""

from __future__ import annotations

import pytest

from tests.required import require_postgresql


@pytest.fixture(autouse=True)
def _postgres() -> None:
    require_postgresql()
