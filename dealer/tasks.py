"""Celery tasks of the cash floor: each calls one service that decides whether work is due."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from config.retries import OUTAGE_RETRY
from dealer.cash.games.waitlist import waitlist_expire_calls
from dealer.rotation.services import rotation_extend


@shared_task(acks_late=True, time_limit=30, soft_time_limit=20, **OUTAGE_RETRY)
def waitlist_expire_calls_task() -> int:
    """Free the held seats whose time ran out and call the next players (sent for each call's
    hold; a run with nothing due does nothing, so a repeated or late run is harmless)."""
    return waitlist_expire_calls()


@shared_task(acks_late=True, time_limit=60, soft_time_limit=45, **OUTAGE_RETRY)
def rotation_extend_task() -> int:
    """Write a running rotation on before its downs run out (run by the beat every ten
    minutes; nothing to do most times)."""
    return rotation_extend(at=timezone.now())
