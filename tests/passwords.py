"""Password hashing at test speed.

Django hashes a password with PBKDF2 at 1,000,000 iterations: about half a second of CPU on CI,
two seconds on a loaded machine, for every user a factory makes and every sign-in a test tries
(the throttling tests try a hundred). The tests hash with the same algorithm at one iteration.
PBKDF2 reads its iteration count from the stored hash, so the production processes the
operations tests start (gunicorn, Celery, with Django's own hasher list) still verify these
passwords, and upgrade them on a successful sign-in as they would any old hash.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher


class OneRoundPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """`pbkdf2_sha256`, one iteration: a hash any PBKDF2PasswordHasher verifies."""

    iterations = 1


def one_round_first() -> list[str]:
    """Django's hasher list with the one-round hasher first (the one new hashes use)."""
    return [f"{__name__}.{OneRoundPBKDF2PasswordHasher.__name__}", *settings.PASSWORD_HASHERS]
