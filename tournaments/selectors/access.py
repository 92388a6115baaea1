"""Sign-ins and devices: the API tokens that still work, and the accounts and devices locked out
or slowed down after failed sign-ins, for the director's desk (/desk/access/) and the API
(/api/auth/...).

The tokens are django-rest-knox's, each named by a `Device` row; the lockouts are django-axes'
failed attempts, counted as axes counts them (`AXES_LOCKOUT_PARAMETERS`: an account on one
client, and with SIGN_IN_LOCK_DEVICES a client on any accounts; `AXES_FAILURE_LIMIT` failures
within `AXES_COOLOFF_TIME`). An account's failures from all clients together slow it down
(`account_slowdown`), never lock it: docs/operations.md, "Sign-in lockout policy"."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, Q, QuerySet, Sum
from knox.settings import knox_settings

from common.errors import FloorNotFound
from tournaments.models import Device

ACCOUNT = "account"  # an account slowed down: failures from many clients
DEVICE = "device"  # a client address: a tablet, a phone, a computer (or a proxy, if unset)
ACCOUNT_DEVICE = "account_device"  # an account locked on one client


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
    # "account:<username>", "device:<address>" or "account_device:<username>:<address>" (a
    # username has no colon), for the unlock
    id: str
    kind: str  # ACCOUNT (slowed down), DEVICE or ACCOUNT_DEVICE (locked)
    name: str  # the username, or the address for a DEVICE
    address: str | None  # the client's address of an ACCOUNT_DEVICE
    failures: int
    last_failure: datetime
    locked_until: datetime  # an ACCOUNT: when its slowdown ends, with no more failures


@dataclass(frozen=True, slots=True, kw_only=True)
class SignInRefusal:
    code: str  # "too_many_attempts" (locked) or "slowed_down"
    detail: str
    wait: int  # seconds, for Retry-After


def lock_duration() -> timedelta:
    cool_off = getattr(settings, "AXES_COOLOFF_TIME", None)
    return cool_off if isinstance(cool_off, timedelta) else timedelta(minutes=15)


def sign_in_refusal() -> str:
    """The one sentence a locked-out sign-in answers, on the pages and the API."""
    minutes = round(lock_duration().total_seconds() / 60)
    locked = (
        "this account from this device, or from this device on several accounts"
        if devices_locked()
        else "this account from this device"
    )
    return (
        f"Too many failed sign-ins for {locked}. "
        f"Try again in {minutes} minutes, or ask a director to unlock it."
    )


def sign_in_refused(*, slowed: float | None) -> SignInRefusal:
    """What a sign-in refused by the gate (`config.sign_in_gate`) answers, on the pages and the
    API: slowed down (`slowed`: the seconds this client still waits), or locked."""
    if slowed is None:
        wait = round(lock_duration().total_seconds())
        return SignInRefusal(code="too_many_attempts", detail=sign_in_refusal(), wait=wait)
    wait = max(1, math.ceil(slowed))
    detail = (
        "Too many failed sign-ins for this account from many devices: it is slowed down, not "
        f"locked. This device may try again in {wait} second{'s' if wait != 1 else ''}; a "
        "device that has not failed signs in at once."
    )
    return SignInRefusal(code="slowed_down", detail=detail, wait=wait)


def slow_after() -> int:
    return int(getattr(settings, "SIGN_IN_SLOW_AFTER", 10))


def account_slowdown(*, username: str, address: str | None, now: datetime) -> float | None:
    """The seconds this client must still wait before trying to sign in to `username` again,
    or None (it may try now).

    Only an account with `SIGN_IN_SLOW_AFTER` failures or more within the lockout window, from
    all clients together, is slowed, and only for a client that has failed on it in that window
    itself: it waits from its own last failure 2 s at the limit, twice as long with each failure
    of the account after, at most `SIGN_IN_SLOW_MAX_SECONDS`. A client that has not failed on it
    is never slowed: strangers cannot keep staff out, and each of their clients gets a try now
    and then, never a stream of them."""
    if not username:
        return None
    recent = AccessAttempt.objects.filter(
        username=username, attempt_time__gte=now - lock_duration()
    )
    failures = recent.aggregate(n=Sum("failures_since_start"))["n"] or 0
    if failures < slow_after() or address is None:
        return None
    own_last = recent.filter(ip_address=address).aggregate(last=Max("attempt_time"))["last"]
    if own_last is None:
        return None
    most = float(getattr(settings, "SIGN_IN_SLOW_MAX_SECONDS", 300))
    delay = min(2.0 ** min(failures - slow_after() + 1, 30), most)
    left = (own_last + timedelta(seconds=delay) - now).total_seconds()
    return left if left > 0 else None


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
    """The accounts locked on a client, the devices locked (SIGN_IN_LOCK_DEVICES) and the
    accounts slowed down now, the latest failure first."""
    since = now - lock_duration()
    limit = int(getattr(settings, "AXES_FAILURE_LIMIT", 5))
    # Not `exclude(ip_address="")`: Django turns "" into NULL for an address field, and
    # `= NULL` then excludes every row.
    recent = (
        AccessAttempt.objects.filter(attempt_time__gte=since)
        .exclude(username__isnull=True)
        .exclude(username__in=[""])
    )

    def lockout(kind: str, row: dict[str, Any], name: str, address: str | None) -> Lockout:
        return Lockout(
            id=f"{kind}:{name}:{address}" if kind == ACCOUNT_DEVICE else f"{kind}:{name}",
            kind=kind,
            name=name,
            address=address,
            failures=row["failures"],
            last_failure=row["last"],
            locked_until=row["last"] + lock_duration(),
        )

    with_address = recent.exclude(ip_address__isnull=True)
    found = [
        lockout(ACCOUNT_DEVICE, row, row["username"], row["ip_address"])
        for row in _failures(with_address, "username", "ip_address")
        if row["failures"] >= limit
    ]
    found.extend(
        lockout(ACCOUNT, row, row["username"], None)
        for row in _failures(recent, "username")
        if row["failures"] >= slow_after()
    )
    if devices_locked():
        every_address = AccessAttempt.objects.filter(attempt_time__gte=since).exclude(
            ip_address__isnull=True
        )
        found.extend(
            lockout(DEVICE, row, row["ip_address"], row["ip_address"])
            for row in _failures(every_address, "ip_address")
            if row["failures"] >= limit
        )
    return sorted(found, key=lambda lockout: lockout.last_failure, reverse=True)


def _failures(rows: QuerySet[AccessAttempt], *fields: str) -> list[dict[str, Any]]:
    """The failures and the last failure of `rows`, by `fields`."""
    return list(
        rows.values(*fields)
        .annotate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
        .order_by()
    )


def lockout_parse(lockout_id: str) -> tuple[str, str, str | None]:
    """(kind, username or address, address of an ACCOUNT_DEVICE) of a lockout's id; an id of
    no known kind is not found."""
    kind, _, name = lockout_id.partition(":")
    address: str | None = None
    if kind == ACCOUNT_DEVICE:
        name, _, address = name.partition(":")
        if not address:
            name = ""
    if kind not in (ACCOUNT, DEVICE, ACCOUNT_DEVICE) or not name:
        raise FloorNotFound("no_such_lockout", "There is no such locked account or device.")
    return kind, name, address
