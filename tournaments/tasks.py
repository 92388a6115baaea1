"""Celery tasks of the floor: each loads by id and calls one service that decides if it is due."""

from __future__ import annotations

from celery import shared_task

from config.retries import OUTAGE_RETRY
from tournaments.services.clocks import clock_announce_level


@shared_task(acks_late=True, time_limit=30, soft_time_limit=20, **OUTAGE_RETRY)
def clock_announce_level_task(tournament_id: int, expected_index: int) -> bool:
    """Record the level change the clock expected; a stale or repeated run does nothing."""
    return clock_announce_level(tournament_id=tournament_id, expected_index=expected_index)
