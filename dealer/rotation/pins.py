"""A dealer's PIN, the proof of the handover on the shared tablet: its form, and the check with
its lock. Only the hash is kept (`DealerPin`, Django's password hashers).

Five wrong PINs in a row for one dealer lock PIN sign-in for that dealer for five minutes: a
PIN of 4 digits is guessed in 10,000 tries, so the lock, not the PIN's length, keeps a
stranger at the tablet from signing in as someone else.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from django.contrib.auth.hashers import check_password
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from common.errors import FloorConflict, FloorError, FloorForbidden, FloorInvalid
from dealer.models import DealerPin
from dealer.rotation.selectors import dealer_name

PIN_FORM = re.compile(r"[0-9]{4,6}")
LOCK_AFTER = 5  # wrong PINs in a row
LOCK_FOR = timedelta(minutes=5)


def check_pin_form(pin: str) -> None:
    """A PIN is 4 to 6 digits (0-9 only: no spaces, no other scripts' digits)."""
    if not PIN_FORM.fullmatch(pin or ""):
        raise FloorInvalid("bad_pin", "A PIN is 4 to 6 digits (0-9), nothing else.")


def dealer_pin_verify(*, dealer: User, pin: str, at: datetime) -> None:
    """Refuse unless `pin` is `dealer`'s PIN: 409 `no_pin` (none set yet), 409 `pin_locked`
    (five wrong in a row, for five minutes), 403 `wrong_pin`. A wrong PIN is counted in a
    transaction of its own, kept even though the caller's write is refused; a right one sets
    the count back to 0."""
    refusal = _verify(dealer=dealer, pin=pin, at=at)
    if refusal is not None:
        raise refusal


@transaction.atomic
def _verify(*, dealer: User, pin: str, at: datetime) -> FloorError | None:
    name = dealer_name(dealer)
    stored = DealerPin.objects.select_for_update().filter(user_id=dealer.pk).first()
    if stored is None:
        return FloorConflict(
            "no_pin", f"{name} has no PIN yet: the floor sets one on the Staff page."
        )
    if stored.locked_until is not None and at < stored.locked_until:
        return FloorConflict(
            "pin_locked",
            f"Too many wrong PINs for {name}: PIN sign-in is locked until "
            f"{timezone.localtime(stored.locked_until):%H:%M}. Ask the floor if it is urgent.",
        )
    if check_password(pin, stored.pin_hash):
        if stored.failures or stored.locked_until:
            stored.failures, stored.locked_until = 0, None
            stored.save(update_fields=["failures", "locked_until"])
        return None
    stored.failures += 1
    detail = f"That PIN is not {name}'s."
    if stored.failures >= LOCK_AFTER:
        stored.failures, stored.locked_until = 0, at + LOCK_FOR
        detail += (
            f" {LOCK_AFTER} wrong PINs in a row: PIN sign-in for {name} is locked for "
            f"{LOCK_FOR.seconds // 60} minutes."
        )
    stored.save(update_fields=["failures", "locked_until"])
    return FloorForbidden("wrong_pin", detail)
