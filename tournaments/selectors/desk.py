"""What the director's desk lists: the entries, the seated players and their seat cards, the
latest busts, a table's count sheet, the audit log, the levels and the dealers to choose from.

Nothing here writes or decides; the pages and the API only show what these return."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import F, Q, QuerySet

from common.roles import DEALER_GROUP
from tournaments import clock
from tournaments.models import AuditEvent, Entry, Table, Tournament
from tournaments.names import fold
from tournaments.selectors.clock import levels_as_clock

ACTIVE = Entry.Status.ACTIVE
# The most players the bust picker offers at once: a search's matches, or the first seats.
PICK_LIMIT = 20
# A table and seat as a floor types them: "5-3", "5/3", "5 3", "t5 s3", "table 5 seat 3".
_TABLE_SEAT = re.compile(r"^(?:t(?:able)?\s*)?(\d{1,4})\s*(?:[-/.:]|\s|s(?:eat)?)\s*(\d{1,2})$")
# A table alone: "t5", "table 5" (a bare number is also a player card's, see `bust_choices`).
_TABLE = re.compile(r"^t(?:able)?\s*(\d{1,4})$")


@dataclass(frozen=True, slots=True, kw_only=True)
class LevelRow:
    index: int
    label: str
    level: clock.Level


def entry_list(tournament: Tournament, query: str = "") -> QuerySet[Entry]:
    """Every entry of the tournament, the newest first, optionally filtered by name, with the
    hand each is dealt in (if one is in progress) and the satellite that paid it, if one did."""
    entries = Entry.objects.filter(tournament=tournament).select_related(
        "player", "table", "live_hand__table", "ticket_from__tournament"
    )
    query = " ".join(query.split())
    if query:
        entries = entries.filter(player__name__icontains=query)
    return entries.order_by("-created_at", "-pk")


def seated_entries(tournament: Tournament) -> QuerySet[Entry]:
    """Players in play with a seat, by table and seat (the eliminations form lists them)."""
    return (
        Entry.objects.filter(tournament=tournament, status=ACTIVE, table__isnull=False)
        .select_related("player", "table", "live_hand__table")
        .order_by("table__number", "seat")
    )


def bust_choices(tournament: Tournament, query: str = "") -> QuerySet[Entry]:
    """The seated players the bust picker offers for what was typed, at most `PICK_LIMIT`, by
    table and seat: the name's part, accents and case aside ("jose" finds José), a player
    number ("#1042", or "1042", which also finds table 1042's players), a table and seat
    ("5-3", "t5 s3") or a table ("t5"). Nothing typed: the first seats (a small field: all)."""
    folded = fold(query)
    seated = seated_entries(tournament)
    if not folded:
        return seated[:PICK_LIMIT]
    return seated.filter(_bust_match(query, folded))[:PICK_LIMIT]


def bust_rivals(tournament: Tournament, entry: Entry) -> list[Entry]:
    """Whom a busted player's row offers as who knocked them out: the players at their table,
    and in a small field (everyone fits in `PICK_LIMIT`) everyone else seated after them."""
    others = seated_entries(tournament).exclude(pk=entry.pk)
    few = list(others[:PICK_LIMIT])
    if len(few) < PICK_LIMIT:
        return sorted(few, key=lambda e: e.table_id != entry.table_id)
    return list(others.filter(table=entry.table))


def _bust_match(query: str, folded: str) -> Q:
    number = folded.removeprefix("#").strip()
    if number.isdigit():
        card = Q(player__number=number.upper())
        return card if folded.startswith("#") else card | Q(table__number=int(number))
    place = _TABLE_SEAT.match(folded)
    if place:
        return Q(table__number=int(place.group(1)), seat=int(place.group(2)))
    table = _TABLE.match(folded)
    if table:
        return Q(table__number=int(table.group(1)))
    return Q(player__search_name__contains=folded) | Q(player__name__icontains=query.strip())


def seat_cards(tournament: Tournament, entry_id: int | None = None) -> QuerySet[Entry]:
    """Seated players by table and seat (or the one entry asked for), for printed seat cards."""
    cards = seated_entries(tournament)
    return cards.filter(pk=entry_id) if entry_id is not None else cards


def recent_busts(tournament: Tournament, limit: int = 30) -> QuerySet[Entry]:
    """Players out, the latest hand first."""
    return (
        Entry.objects.filter(tournament=tournament, status=Entry.Status.BUSTED)
        .select_related("player")
        .order_by(F("bust_group").desc(nulls_last=True), "finishing_place")[:limit]
    )


def audit_log(tournament: Tournament, limit: int = 200) -> QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(tournament=tournament).select_related("actor")[:limit]


def level_list(tournament: Tournament) -> list[LevelRow]:
    """The tournament's schedule rows with the director's names ("Level 3", "Break")."""
    levels = levels_as_clock(tournament.levels.all())
    rows = []
    for index, level in enumerate(levels):
        number = clock.level_number(levels, index)
        label = "Break" if number is None else f"Level {number}"
        rows.append(LevelRow(index=index, label=label, level=level))
    return rows


def audit_detail(detail: object, names: dict[int, str] | None = None) -> str:
    """An audit event's details as one readable line ("player: Ann Lee, table: 3"): a
    settings change as "buy_in: 50 -> 60", and the entries it concerns by their players'
    names (`names`, from `audit_entry_names`) instead of bare ids."""
    names = names or {}
    if not isinstance(detail, dict):
        return str(detail)
    parts: list[str] = []
    for key, value in detail.items():
        if key == "changed" and "changes" in detail:
            continue  # the rules' older `key=value` list, said again with the old values
        if key == "changes" and isinstance(value, dict):
            parts.extend(
                f"{name}: {_shown(old)} -> {_shown(new)}" for name, (old, new) in value.items()
            )
            continue
        if key in ENTRY_KEYS:
            value = _entry_names(value, names)
        if isinstance(value, list):
            value = "; ".join(audit_detail(item, names) for item in value)
        parts.append(f"{key.replace('_', ' ')}: {value}")
    return ", ".join(parts)


# The detail keys that hold entry ids (one, or a list), shown by the players' names.
ENTRY_KEYS = frozenset({"entry", "eliminated_by"})


def audit_entry_names(events: list[AuditEvent]) -> dict[int, str]:
    """The players' names of the entries the events name (one query for the page), a
    re-entry with its number: {entry id: "Ann Lee" or "Ann Lee (entry 2)"}."""
    ids: set[int] = set()
    for event in events:
        _collect_entry_ids(event.detail, ids)
    entries = Entry.objects.filter(pk__in=ids).select_related("player")
    return {
        e.pk: e.player.name if e.number == 1 else f"{e.player.name} (entry {e.number})"
        for e in entries
    }


def _collect_entry_ids(detail: object, ids: set[int]) -> None:
    if isinstance(detail, list):
        for item in detail:
            _collect_entry_ids(item, ids)
    elif isinstance(detail, dict):
        for key, value in detail.items():
            if key in ENTRY_KEYS:
                ids.update(
                    v for v in (value if isinstance(value, list) else [value]) if isinstance(v, int)
                )
            else:
                _collect_entry_ids(value, ids)


def _entry_names(value: object, names: dict[int, str]) -> object:
    if isinstance(value, list):
        return ", ".join(str(_entry_names(v, names)) for v in value)
    return names.get(value, f"entry {value}") if isinstance(value, int) else value


def _shown(value: object) -> str:
    return "(none)" if value in (None, "") else str(value)


def count_sheet(table: Table) -> list[Entry]:
    """The players seated at a table, by seat, with their latest count (its source and time)
    and the hand each is dealt in, if one is in progress."""
    return list(
        Entry.objects.filter(table=table, status=ACTIVE)
        .select_related("player", "live_hand__table")
        .order_by("seat")
    )


def dealer_choices() -> list[tuple[int, str]]:
    """The accounts that may deal a table: active members of the "dealer" group."""
    users = get_user_model().objects.filter(is_active=True, groups__name=DEALER_GROUP)
    return [(user.pk, user.get_username()) for user in users.order_by("username")]
