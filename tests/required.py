"""`REQUIRE_SERVICES=1` (CI): a test that needs PostgreSQL, Redis or Chromium fails instead of
skipping when it is missing."""

import os

REQUIRED = os.environ.get("REQUIRE_SERVICES", "").strip().lower() in {"1", "true", "yes", "on"}
