"""Answers kept by a tournament's version: the ETag of a public answer and its cache key, named
by the version that every public write moves on (`services.versions.tournament_bump`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.db.models import QuerySet

from tournaments.models import Tournament

T = TypeVar("T")

CACHE_SECONDS = 600

# What an ETag needs of a tournament, and what the clock feed shows of its row: read without the
# settings (several JSON columns to decode), so that a 304 costs one narrow row.
HEAD_FIELDS = (
    "name",
    "status",
    "version",
    "created_at",
    "hand_for_hand",
    "hand_for_hand_round",
    "clock_level",
    "clock_ends_at",
    "clock_remaining",
    "clock_started_at",
    "floor_message",
)


def tournaments_seen(*, planned: bool) -> QuerySet[Tournament]:
    """The tournaments a reader may see: the public every one but the planned ones (they
    answer 404); a director (`planned`) all of them. The one statement of that rule for the
    pages, the API and the public list."""
    rows = Tournament.objects.all()
    return rows if planned else rows.exclude(status=Tournament.Status.PLANNED)


def tournament_head(pk: int, *, planned: bool = False) -> Tournament | None:
    """The tournament's row with `HEAD_FIELDS` only (any other field read from it costs a query:
    build a changed answer from `tournament_full`), or None if there is none or it is planned
    and `planned` is False (the public does not see planned tournaments)."""
    return tournaments_seen(planned=planned).only(*HEAD_FIELDS).filter(pk=pk).first()


def tournament_full(tournament: Tournament) -> Tournament:
    """The whole row of a tournament read with `tournament_head` (itself if it is whole)."""
    if not tournament.get_deferred_fields():
        return tournament
    return Tournament.objects.get(pk=tournament.pk)


def version_tag(tournament: Tournament, *parts: object) -> str:
    """A name for what the tournament shows at its current version: the ETag of a public
    answer and its cache key. The creation time keeps two databases' tournament 1 apart."""
    stamp = int(tournament.created_at.timestamp() * 1_000_000) if tournament.created_at else 0
    return ".".join(str(part) for part in ("t", tournament.pk, stamp, tournament.version, *parts))


def version_mark(tournament: Tournament) -> tuple[int, str]:
    """The tournament's id and what the fast answers compare with the version in the cache
    (`config.conditional`'s `version`): the version with the creation time (`version_tag`), so
    that another database's tournament of the same id and version (a test database made again,
    a restored copy) never passes for this one."""
    return tournament.pk, version_tag(tournament)


def cached(tournament: Tournament, name: str, build: Callable[[], T]) -> T:
    """`build()`, kept in the cache under the tournament's version: every web process builds an
    answer once per version, and a write (which moves the version on) makes the next read build
    it again. Only for answers that depend on nothing but the tournament's rows."""
    key = "floordesk:" + version_tag(tournament, name)
    found = cache.get(key)
    if found is None:
        found = build()
        cache.set(key, found, CACHE_SECONDS)
    return found
