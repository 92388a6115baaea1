"""Hand histories as PHH (docs/phh.md, "Exporting"): one hand, a table's session, a tournament.

A read model: it writes nothing. A history is written from the hand's final engine state, the
state stored with the hand when it can be trusted, else the replay of its log (as
`dealer.hand_log.hand_state` does), through the engine's own writer (`history_from_state`).

Only a completed hand has a history. A hand in progress has none, so none of its cards can leak;
a void hand (a misdeal) has none either: it was dealt again, and PHH has no void hand. Exporting
one such hand is refused (409); a session or a tournament leaves them out. A completed hand PHH
cannot say (a dead hand, a board claim, dead posts at a cash table) is refused alone, and left
out of a session with a TOML comment that says why, so that one odd hand does not cost the file.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from common.errors import FloorError
from dealer.engine import HandState, apply, start_hand
from dealer.engine.phh import PhhError, dumps_phh, history_from_state
from dealer.engine.state import Phase
from dealer.hand_log import LogEntry, effective_actions, hand_setup, hand_state, stored_state
from dealer.models import Hand, HandEvent
from tournaments import clock
from tournaments.models import Table, Tournament
from tournaments.selectors.clock import tournament_levels

# Hands read per query in a session or a tournament, and whose logs are read together when
# their stored states cannot be trusted (after a deploy that changed the engine).
CHUNK = 200

# What a history needs of a hand (not `state`, the tablet's snapshot, most of each row).
_FIELDS = (
    "id",
    "table_id",
    "number",
    "status",
    "rules",
    "stakes",
    "level_index",
    "seats",
    "version",
    "engine_state",
    "created_at",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Event:
    """What the hands of one event share: the event's name and its levels (for `level`)."""

    name: str
    levels: tuple[clock.Level, ...]


def _event(table: Table) -> _Event:
    tournament = table.tournament
    if tournament is None:  # a cash table: its own name, no levels
        return _Event(name=table.name, levels=())
    return _Event(name=tournament.name, levels=tournament_levels(tournament))


def _where(hand: Hand, table: Table) -> str:
    return f"Hand {hand.number} at table {table.number}"


def _fields(hand: Hand, table: Table, event: _Event) -> dict[str, object]:
    """PHH's optional fields we know (phh-std, "Optional fields"), and our hand id (`_hand_id`,
    a user-defined field) to find the hand in the API. `time` is the hand's start in the
    server's time zone (`time_zone`, settings.TIME_ZONE), as PHH wants a local time."""
    started = timezone.localtime(hand.created_at)
    fields: dict[str, object] = {}
    if event.name:
        fields["event"] = event.name
    fields.update(
        time=started.time().replace(microsecond=0),
        time_zone=settings.TIME_ZONE,
        day=started.day,
        month=started.month,
        year=started.year,
        hand=hand.number,
    )
    if event.levels and hand.level_index < len(event.levels):
        level = clock.level_number(event.levels, hand.level_index)
        if level is not None:
            fields["level"] = level
    fields.update(seat_count=table.seat_count, table=table.number, _hand_id=hand.pk)
    return fields


def _check_over(hand: Hand, table: Table, state: HandState | None = None) -> None:
    """Refuse (409) a hand that has no history: in progress (checked before any of its cards
    is read) or void. `state`, when given, must agree: it is over and not void."""
    if hand.status == Hand.Status.IN_PROGRESS or (state is not None and not state.is_over):
        raise FloorError(
            "hand_in_progress",
            f"{_where(hand, table)} is still being played: its history is written once it is over.",
        )
    if hand.status == Hand.Status.VOID or (state is not None and state.phase == Phase.VOID):
        raise FloorError(
            "hand_void",
            f"{_where(hand, table)} was a misdeal and was dealt again: a void hand has no history.",
        )


def _history_text(hand: Hand, table: Table, event: _Event, state: HandState) -> str:
    """The hand's PHH text; `FloorError` when it has none (see the module docstring)."""
    _check_over(hand, table, state)
    try:
        history = history_from_state(state, extra=_fields(hand, table, event))
    except PhhError as error:
        raise FloorError(
            error.code, f"{_where(hand, table)} cannot be written as PHH: {error.detail}"
        ) from None
    return dumps_phh(history)


# --- one hand --------------------------------------------------------------------------------


def hand_phh(hand: Hand) -> str:
    """One completed hand as PHH text. `FloorError` (409): `hand_in_progress`, `hand_void`, or
    the engine's `not_representable` / `unsupported_variant` for a hand PHH cannot say."""
    table = hand.table
    _check_over(hand, table)
    return _history_text(hand, table, _event(table), hand_state(hand))


# --- many hands ------------------------------------------------------------------------------


def _logs(pks: list[int]) -> dict[int, list[LogEntry]]:
    """The logs of these hands, oldest event first, in one query (as `dealer.services` reads
    one hand's: each event's kind and engine actions)."""
    logs: dict[int, list[LogEntry]] = defaultdict(list)
    rows = (
        HandEvent.objects.filter(hand_id__in=pks)
        .order_by("hand_id", "seq")
        .values_list("hand_id", "kind", "payload")
    )
    for pk, kind, payload in rows:
        logs[pk].append((kind, payload.get("actions", [])))
    return logs


def _final_states(hands: Iterable[Hand]) -> Iterator[tuple[Hand, HandState]]:
    """Each hand with its state: the stored engine state when it can be trusted, else the
    replay of its log, the logs of a chunk of hands read together."""
    hands = iter(hands)
    while chunk := list(islice(hands, CHUNK)):
        stored = {hand.pk: stored_state(hand) for hand in chunk}
        logs = _logs([pk for pk, state in stored.items() if state is None])
        for hand in chunk:
            state = stored[hand.pk]
            if state is None:
                state = start_hand(hand_setup(hand))
                for action in effective_actions(logs.get(hand.pk, [])):
                    state = apply(state, action)
            yield hand, state


def _completed(hands: QuerySet[Hand]) -> Iterator[Hand]:
    return hands.filter(status=Hand.Status.COMPLETE).only(*_FIELDS).iterator(chunk_size=CHUNK)


def _comment(text: str) -> str:
    """Text fit for a TOML comment: one line, no control characters (a name is free text)."""
    return "".join(" " if ord(char) < 0x20 or ord(char) == 0x7F else char for char in text)


def _phhs(
    header: str, hands: Iterable[Hand], tables: dict[int, Table], events: dict[int, _Event]
) -> Iterator[str]:
    """A multi-hand ("phhs") text in parts: one TOML table per hand, `[1]`, `[2]`, ... (the
    layout of `dumps_phhs`), a comment for each hand left out."""
    yield (
        f"# {_comment(header)}\n"
        "# Completed hands only: void hands and hands in progress are left out.\n"
    )
    number = 0
    for hand, state in _final_states(hands):
        table = tables[hand.table_id]
        try:
            text = _history_text(hand, table, events[table.pk], state)
        except FloorError as error:
            yield f"\n# Left out ({error.code}): {_comment(error.detail)}\n"
            continue
        number += 1
        yield f"\n[{number}]\n{text}"


def table_phh_stream(
    table: Table, *, since: int | None = None, until: int | None = None
) -> Iterator[str]:
    """A table's session, its completed hands in order (hand numbers `since` to `until`, both
    included), as parts of a multi-hand PHH text. The table is read now; the hands as the
    parts are taken."""
    hands = Hand.objects.filter(table=table).order_by("number")
    if since is not None:
        hands = hands.filter(number__gte=since)
    if until is not None:
        hands = hands.filter(number__lte=until)
    span = "" if since is None and until is None else f", hands {since or 1} to {until or 'last'}"
    event = _event(table)
    name = f" of {event.name}" if event.name else ""
    header = f"Table {table.number}{name}{span}."
    return _phhs(header, _completed(hands), {table.pk: table}, {table.pk: event})


def table_phh(table: Table, *, since: int | None = None, until: int | None = None) -> str:
    """A table's session as one multi-hand PHH text (see `table_phh_stream`)."""
    return "".join(table_phh_stream(table, since=since, until=until))


def tournament_phh_stream(tournament: Tournament) -> Iterator[str]:
    """Every completed hand of every table of the tournament, table by table in table number
    order and hand by hand, as parts of a multi-hand PHH text: the hands are read CHUNK at a
    time, so a big event streams in a fixed amount of memory and queries per chunk."""
    tables = {table.pk: table for table in Table.objects.filter(tournament=tournament)}
    for table in tables.values():
        table.tournament = tournament
    event = _Event(name=tournament.name, levels=tournament_levels(tournament))
    hands = Hand.objects.filter(table__tournament=tournament).order_by("table__number", "number")
    return _phhs(
        f"Every table of {tournament.name}.",
        _completed(hands),
        tables,
        dict.fromkeys(tables, event),
    )


def tournament_phh(tournament: Tournament) -> str:
    """A tournament's hands as one multi-hand PHH text (see `tournament_phh_stream`)."""
    return "".join(tournament_phh_stream(tournament))
