"""Sign-ins and devices: the API tokens that still work, and the accounts and devices locked out
after failed sign-ins, for the director's desk (/desk/access/) and the API (/api/auth/...).

The tokens are django-rest-knox's, each named by a `Device` row; the lockouts are django-axes'
failed attempts, counted as axes counts them (`AXES_LOCKOUT_PARAMETERS`: by account and,
separately, by device; `AXES_FAILURE_LIMIT` failures within `AXES_COOLOFF_TIME`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, Q, Sum
from knox.settings import knox_settings

from tournaments.errors import FloorNotFound
from tournaments.models import Device

ACCOUNT = "account"
DEVICE = "device"  # a client address: a tablet, a phone, a computer (or a proxy, if unset)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeviceRow:
    id: int
    user_id: int
    username: str
    label: str
    created: datetime
    expires: datetime | None
    # When the token was last used, to within knox's refresh interval: its expiry moves on
    # with each use (AUTO_REFRESH), so this costs no write of its own.
    last_used: datetime | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Lockout:
    id: str  # "account:<username>" or "device:<address>", for the unlock
    kind: str  # ACCOUNT or DEVICE
    name: str  # the username or the address
    failures: int
    last_failure: datetime
    locked_until: datetime


def lock_duration() -> timedelta:
    cool_off = getattr(settings, "AXES_COOLOFF_TIME", None)
    return cool_off if isinstance(cool_off, timedelta) else timedelta(minutes=15)


def sign_in_refusal() -> str:
    """The one sentence a locked-out sign-in answers, on the pages and the API."""
    minutes = round(lock_duration().total_seconds() / 60)
    locked = "this account or from this device" if devices_locked() else "this account"
    return (
        f"Too many failed sign-ins for {locked}. "
        f"Try again in {minutes} minutes, or ask a director to unlock it."
    )


def sign_in_rate_refusal(wait: float) -> str:
    """The one sentence a client over the sign-in rate answers (`SignInThrottle`), on the pages
    and the API; `wait`: the seconds until it may try again."""
    minutes = max(1, round(wait / 60))
    plural = "s" if minutes > 1 else ""
    return f"Too many sign-ins from this device. Try again in {minutes} minute{plural}."


def devices_locked() -> bool:
    """Whether a device (a client address) is locked out too (SIGN_IN_LOCK_DEVICES=1)."""
    return "ip_address" in getattr(settings, "AXES_LOCKOUT_PARAMETERS", ["username"])


def device_list(*, now: datetime, user_id: int | None = None) -> list[DeviceRow]:
    """The tokens that still work (not expired), by user, the oldest sign-in first."""
    devices = (
        Device.objects.select_related("token__user")
        .filter(Q(token__expiry__isnull=True) | Q(token__expiry__gt=now))
        .order_by("token__user__username", "token__created", "pk")
    )
    if user_id is not None:
        devices = devices.filter(token__user_id=user_id)
    ttl = knox_settings.TOKEN_TTL
    auto_refresh = bool(knox_settings.AUTO_REFRESH) and ttl is not None
    return [
        DeviceRow(
            id=device.pk,
            user_id=device.token.user_id,
            username=device.token.user.get_username(),
            label=device.label,
            created=device.token.created,
            expires=device.token.expiry,
            last_used=(
                max(device.token.expiry - ttl, device.token.created)
                if auto_refresh and device.token.expiry is not None
                else None
            ),
        )
        for device in devices
    ]


def lockout_list(*, now: datetime) -> list[Lockout]:
    """The accounts and the devices locked out now, the latest failure first."""
    since = now - lock_duration()
    limit = int(getattr(settings, "AXES_FAILURE_LIMIT", 5))
    recent = AccessAttempt.objects.filter(attempt_time__gte=since)
    found: list[Lockout] = []
    locked_by = getattr(settings, "AXES_LOCKOUT_PARAMETERS", ["username"])
    for kind, field in ((ACCOUNT, "username"), (DEVICE, "ip_address")):
        if field not in locked_by:
            continue  # counted, but no lockout (devices: SIGN_IN_LOCK_DEVICES)
        # Not `exclude(ip_address="")`: Django turns "" into NULL for an address field, and
        # `= NULL` then excludes every row.
        rows = (
            recent.exclude(**{f"{field}__isnull": True})
            .exclude(**{f"{field}__in": [""]} if field == "username" else {})
            .values(field)
            .annotate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
            .filter(failures__gte=limit)
        )
        found.extend(
            Lockout(
                id=f"{kind}:{row[field]}",
                kind=kind,
                name=row[field],
                failures=row["failures"],
                last_failure=row["last"],
                locked_until=row["last"] + lock_duration(),
            )
            for row in rows
        )
    return sorted(found, key=lambda lockout: lockout.last_failure, reverse=True)


def lockout_parse(lockout_id: str) -> tuple[str, str]:
    """(kind, name) of a lockout's id; an id of no known kind is not found."""
    kind, _, name = lockout_id.partition(":")
    if kind not in (ACCOUNT, DEVICE) or not name:
        raise FloorNotFound("no_such_lockout", "There is no such locked account or device.")
    return kind, name
