"""`REQUIRE_SERVICES=1` (CI): a test that needs PostgreSQL, Redis or Chromium fails instead of
skipping when it is missing."""

import os

REQUIRED = os.environ.get("REQUIRE_SERVICES", "").strip().lower() in {"1", "true", "yes", "on"}


def require_postgresql() -> None:
    """For a test that needs PostgreSQL: skipped on another database, failed under
    `REQUIRE_SERVICES=1`."""
    import pytest
    from django.db import connection

    if connection.vendor != "postgresql":
        if REQUIRED:
            pytest.fail(f"REQUIRE_SERVICES=1 but the database is {connection.vendor}")
        pytest.skip("PostgreSQL only")
