"""Every test here needs PostgreSQL (row locks, concurrent connections, its backend's socket)."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.required import REQUIRED


@pytest.fixture(autouse=True)
def _postgres() -> None:
    if connection.vendor != "postgresql":
        if REQUIRED:
            pytest.fail(f"REQUIRE_SERVICES=1 but the database is {connection.vendor}")
        pytest.skip("PostgreSQL only")
