"""Multi-flight events as the desk and the API read them: an event's flights and later days with
their fields, a flight's bag list, who goes on to the next day (each player's best stack), who
may enter a flight, and the event's results.

An event (`Tournament.Kind.EVENT`) deals no cards; its phases are its flights (Day 1A, 1B, ...:
kind FLIGHT, day 1) and later days (kind DAY, day 2, 3, ...), all with `parent` the event. A later
day's entry names the entry it continues (`carried_from`). Reads only: the writes are
`tournaments.services.flights`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet

from common.errors import FloorError
from tournaments.hands import hand_reader
from tournaments.models import ChipMove, Entry, Player, Tournament
from tournaments.selectors.books import FLOOR_COUNTS, chips_in_play_of
from tournaments.selectors.prizes import event_prize_table

Kind = Tournament.Kind
Status = Tournament.Status
ACTIVE = Entry.Status.ACTIVE
PLAYING = (Status.RUNNING, Status.PAUSED)


def phase_label(tournament: Tournament) -> str:
    """How the floor names a phase: "Day 1A", "Day 2"."""
    return f"Day {tournament.day}{tournament.flight}"


def event_of(tournament: Tournament) -> Tournament | None:
    """The multi-flight event a tournament belongs to (itself for an event), or None for a
    one-day tournament."""
    if tournament.kind == Kind.EVENT:
        return tournament
    if tournament.kind in (Kind.FLIGHT, Kind.DAY) and tournament.parent_id is not None:
        return tournament.parent
    return None


def event_phases(event: Tournament) -> QuerySet[Tournament]:
    """The event's flights and days in playing order: Day 1A, 1B, ..., Day 2, Day 3."""
    return Tournament.objects.filter(parent=event).order_by("day", "flight", "pk")


def bag_refusal_of(*, name: str, kind: str, status: str, has_next_day: bool) -> FloorError | None:
    """Why a phase cannot be bagged now, from what it is (None: it can be, once its hands
    have ended and its tables are counted, which the bag itself checks). The one answer to
    "may this phase be bagged": the bag's service, the event's page and its bag page ask it."""
    if kind not in (Kind.FLIGHT, Kind.DAY) or not has_next_day:
        return FloorError(
            "no_next_day",
            f"{name} is not followed by a later day: play it to a winner instead.",
        )
    if status not in PLAYING:
        said = "has ended already" if status == Status.FINISHED else "has not started"
        return FloorError("not_running", f"{name} {said}: only a day under way is bagged.")
    return None


def bag_refusal(phase: Tournament) -> FloorError | None:
    return bag_refusal_of(
        name=phase.name,
        kind=phase.kind,
        status=phase.status,
        has_next_day=next_day(phase) is not None,
    )


def next_day(tournament: Tournament) -> Tournament | None:
    """The day a phase's survivors go on to (Day 2 after any flight), or None after the last."""
    if tournament.parent_id is None:
        return None
    return (
        Tournament.objects.filter(
            parent_id=tournament.parent_id, kind=Kind.DAY, day=tournament.day + 1
        )
        .order_by("pk")
        .first()
    )


def feeding_phases(day: Tournament) -> list[Tournament]:
    """The phases whose survivors a later day draws from: every flight for Day 2, Day 2 for
    Day 3."""
    return list(
        Tournament.objects.filter(parent_id=day.parent_id, day=day.day - 1)
        .exclude(kind=Kind.EVENT)
        .order_by("flight", "pk")
    )


def hands_in_progress(tournament: Tournament) -> list[int]:
    """The numbers of the tables of a tournament with a hand in progress."""
    return hand_reader().tables_in_hand(tournament.pk)


def tables_not_counted(tournament: Tournament) -> list[int]:
    """The numbers of the tables of a tournament where someone still in has never been
    counted (no count sheet, correction or colour-up in their ledger): their bag would be the
    ledger's figure only, which nobody at the table has looked at (issue 26)."""
    counted = ChipMove.objects.filter(
        tournament=tournament, kind__in=FLOOR_COUNTS, entry=OuterRef("pk")
    )
    return sorted(
        set(
            Entry.objects.filter(tournament=tournament, status=ACTIVE, table__isnull=False)
            .exclude(Exists(counted))
            .values_list("table__number", flat=True)
        )
    )


def tables_not_counted_sentence(numbers: list[int]) -> str:
    """What the bag refusal and the bag page's confirm step say of the tables not counted."""
    many = len(numbers) > 1
    listed = ", ".join(str(n) for n in numbers)
    return (
        f"Table{'s' if many else ''} {listed} {'have' if many else 'has'} not been counted: "
        f"record {'their' if many else 'its'} count sheet{'s' if many else ''}, or confirm to "
        "bag with the chips the ledger has."
    )


# --- who goes on ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Survivor:
    """A bag: an entry still in when its phase ended."""

    entry_id: int
    player_id: int
    name: str
    chips: int
    phase: str  # "Day 1A"


@dataclass(frozen=True, slots=True, kw_only=True)
class GoingOn:
    """Who a later day draws: each player's best stack (`kept`); the other bags of a player who
    survived more than one flight are forfeited (`forfeited`, each with the bag kept)."""

    kept: tuple[Survivor, ...]
    forfeited: tuple[tuple[Survivor, Survivor], ...]


def survivors_going_on(phases: list[Tournament]) -> GoingOn:
    """Each player's best stack among the survivors of `phases` (a tie: the earlier flight's
    bag), in one read however big the field."""
    labels = {phase.pk: phase_label(phase) for phase in phases}
    rows = (
        Entry.objects.filter(tournament__in=phases, status=ACTIVE)
        .order_by("-chips", "pk")
        .values_list("pk", "player_id", "player__name", "chips", "tournament_id")
    )
    best: dict[int, Survivor] = {}
    forfeited: list[tuple[Survivor, Survivor]] = []
    for pk, player_id, name, chips, tournament_id in rows:
        bag = Survivor(
            entry_id=pk, player_id=player_id, name=name, chips=chips, phase=labels[tournament_id]
        )
        kept = best.get(player_id)
        if kept is None:
            best[player_id] = bag
        else:
            forfeited.append((bag, kept))
    return GoingOn(kept=tuple(best.values()), forfeited=tuple(forfeited))


def flight_entry_refusal(tournament: Tournament, player: Player) -> FloorError | None:
    """Why a player may not enter this tournament as part of a multi-flight event, or None.

    Players enter an event through its flights; a later day is drawn from the survivors. A
    player out of a flight may enter another. A player still playing a flight may not enter a
    second one at the same time; one who survived a flight (bagged) may enter another only when
    the event allows re-entry across flights (then the best stack goes on)."""
    if tournament.kind == Kind.EVENT:
        return FloorError(
            "enter_a_flight",
            f"{tournament.name} is played in flights: register {player.name} in one of them.",
        )
    if tournament.kind == Kind.DAY:
        return FloorError(
            "enter_a_flight",
            f"{tournament.name} is drawn from the flights' survivors: register {player.name} "
            "in a flight.",
        )
    if tournament.kind != Kind.FLIGHT or tournament.parent_id is None:
        return None
    elsewhere = (
        Entry.objects.filter(
            player=player,
            status=ACTIVE,
            tournament__parent_id=tournament.parent_id,
            tournament__kind=Kind.FLIGHT,
        )
        .exclude(tournament=tournament)
        .select_related("tournament", "tournament__parent")
        .order_by("tournament__flight", "pk")
        .first()
    )
    if elsewhere is None:
        return None
    flight = elsewhere.tournament
    if flight.status != Status.FINISHED:
        return FloorError(
            "playing_another_flight",
            f"{player.name} is in {phase_label(flight)} of this event: they may enter another "
            "flight once that one is over for them.",
        )
    event = flight.parent
    if event is not None and not event.reentry_across_flights:
        return FloorError(
            "survived_flight",
            f"{player.name} survived {phase_label(flight)} with {elsewhere.chips:,} chips: "
            f"{event.name} does not allow a player who bagged chips to enter another flight.",
        )
    return None


# --- the event page ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseRow:
    """One flight or day on the event page."""

    id: int
    name: str
    label: str
    kind: str
    day: int
    flight: str
    status: str
    entries: int
    players_left: int
    chips_in_play: int  # issued less colour-ups: the flight's own figure (`chips_in_play_of`)
    can_bag: bool  # under way, with a later day to bag for
    can_draw: bool  # a later day not drawn yet


@dataclass(frozen=True, slots=True, kw_only=True)
class EventSummary:
    event: Tournament
    status: str  # the event's, from its phases
    phases: tuple[PhaseRow, ...]
    entries: int  # every flight's entries, re-entries included
    players: int  # different players who entered a flight
    prize_pool: Decimal
    places_paid: int
    prizes: tuple[Decimal, ...]


def event_status(phases: list[PhaseRow] | tuple[PhaseRow, ...]) -> str:
    """An event is as far along as its phases: finished when its last day is, running while
    any phase is under way (or some have played), registering while a flight registers."""
    if not phases:
        return Status.PLANNED
    if phases[-1].status == Status.FINISHED and phases[-1].kind == Kind.DAY:
        return Status.FINISHED
    statuses = {phase.status for phase in phases}
    if statuses & {Status.RUNNING, Status.PAUSED, Status.FINISHED}:
        return Status.RUNNING
    if Status.REGISTERING in statuses:
        return Status.REGISTERING
    return Status.PLANNED


def event_summary(event: Tournament) -> EventSummary:
    """The event page and its API twin: each phase with its field, and the event's prizes (a
    few queries whatever the field's size)."""
    phases = list(event_phases(event))
    totals = {
        row["tournament"]: row
        for row in Entry.objects.filter(tournament__in=phases)
        .values("tournament")
        .annotate(
            entries=Count("pk", filter=~Q(status=Entry.Status.UNREGISTERED)),
            left=Count("pk", filter=Q(status=ACTIVE)),
        )
        .order_by()
    }
    in_play = chips_in_play_of(phases)
    days = {phase.day for phase in phases if phase.kind == Kind.DAY}
    rows = []
    for phase in phases:
        total = totals.get(phase.pk, {})
        entries = int(total.get("entries") or 0)
        later = phase.day + 1 in days
        rows.append(
            PhaseRow(
                id=phase.pk,
                name=phase.name,
                label=phase_label(phase),
                kind=phase.kind,
                day=phase.day,
                flight=phase.flight,
                status=phase.status,
                entries=entries,
                players_left=int(total.get("left") or 0),
                chips_in_play=in_play.get(phase.pk, 0),
                can_bag=bag_refusal_of(
                    name=phase.name, kind=phase.kind, status=phase.status, has_next_day=later
                )
                is None,
                can_draw=phase.kind == Kind.DAY
                and entries == 0
                and phase.status in (Status.PLANNED, Status.REGISTERING),
            )
        )
    flights = Entry.objects.filter(tournament__parent=event, tournament__kind=Kind.FLIGHT).exclude(
        status=Entry.Status.UNREGISTERED
    )
    field = flights.aggregate(entries=Count("pk"), players=Count("player", distinct=True))
    prizes = event_prize_table(event)
    return EventSummary(
        event=event,
        status=event_status(rows),
        phases=tuple(rows),
        entries=field["entries"],
        players=field["players"],
        prize_pool=sum(prizes, Decimal(0)),
        places_paid=len(prizes),
        prizes=prizes,
    )


# --- the bag list -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class BagRow:
    entry_id: int
    name: str
    table: int | None
    seat: int | None
    chips: int
    chips_source: str
    state: str  # "to bag" (the phase is under way), "bagged", "carried", "forfeited"
    carried_to: str  # "Day 2 table 4 seat 7" once drawn


def bag_list(phase: Tournament) -> list[BagRow]:
    """The players still in at the end of a phase's day, by table and seat, with the chips
    they bag: while the phase is under way, what they would bag now (their ledger chips); once
    ended, their bags, and after the next day's draw where each went (or that it was forfeited
    for a bigger bag in another flight)."""
    entries = (
        Entry.objects.filter(tournament=phase, status=ACTIVE)
        .select_related("player", "table")
        .order_by(F("table__number").asc(nulls_last=True), "seat", "player__name")
    )
    ended = phase.status == Status.FINISHED
    after = next_day(phase)
    drawn = after is not None and after.entries.exists()
    onward: dict[int, tuple[int | None, int | None]] = {}
    if drawn and after is not None:
        onward = {
            src: (table, seat)
            for src, table, seat in Entry.objects.filter(
                tournament=after, carried_from__tournament=phase
            ).values_list("carried_from_id", "table__number", "seat")
        }
    rows = []
    for entry in entries:
        if not ended:
            state, carried = "to bag", ""
        elif not drawn:
            state, carried = "bagged", ""
        elif entry.pk in onward:
            table, seat = onward[entry.pk]
            where = f" table {table} seat {seat}" if table is not None else ""
            state, carried = "carried", f"{phase_label(after)}{where}" if after else ""
        else:
            state, carried = "forfeited", ""
        rows.append(
            BagRow(
                entry_id=entry.pk,
                name=entry.player.name,
                table=entry.table.number if entry.table else None,
                seat=entry.seat,
                chips=entry.chips,
                chips_source=entry.chips_source,
                state=state,
                carried_to=carried,
            )
        )
    return rows


# --- results ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class EventResultRow:
    place: int | None  # None: still playing (or bagged, before the next day)
    player_id: int
    name: str
    entry_id: int
    phase: str  # where the player's best run ended: "Day 2", "Day 1B"
    chips: int  # the stack of a player still in
    prize: Decimal | None
    out_at: datetime | None


def event_results(event: Tournament) -> list[EventResultRow]:
    """The event's results, one row per player (their best entry): the players still in first
    (by chips, the latest day first), then the later days' places (a day places its players
    event-wide: its survivors are the next day's field), then everyone out in a flight, placed
    below by when they went out, the latest first (the bigger starting stack first on one hand).
    A bag forfeited for a bigger one is no result. Flights pay nothing: their rows have no
    prize."""
    phases = {phase.pk: phase for phase in event_phases(event)}
    drawn = set(
        Entry.objects.filter(tournament__in=list(phases))
        .values_list("tournament__day", flat=True)
        .distinct()
        .order_by()
    )
    entries = (
        Entry.objects.filter(tournament__in=list(phases))
        .exclude(status=Entry.Status.UNREGISTERED)
        .annotate(onward=Count("carried_to"))
        .select_related("player")
        .order_by("pk")
    )
    still_in: list[Entry] = []
    day_placed: list[Entry] = []
    flight_out: list[Entry] = []
    for found in entries:
        if found.onward:  # carried to the next day: that entry is the result
            continue
        entry: Entry = found
        phase = phases[entry.tournament_id]
        if phase.kind == Kind.DAY and entry.finishing_place is not None:
            day_placed.append(entry)
        elif entry.status == ACTIVE:
            bagged = phase.status == Status.FINISHED and phase.day + 1 in drawn
            if not bagged:  # else a bag forfeited for a bigger one
                still_in.append(entry)
        elif phase.kind == Kind.FLIGHT:
            flight_out.append(entry)
    still_in.sort(key=lambda e: (-phases[e.tournament_id].day, -e.chips, e.pk))
    day_placed.sort(key=lambda e: (e.finishing_place or 0, e.pk))
    flight_out.sort(
        key=lambda e: (-(e.busted_at.timestamp() if e.busted_at else 0), -(e.bust_stack or 0), e.pk)
    )
    seen: set[int] = set()
    rows: list[EventResultRow] = []
    for group in (still_in, day_placed, flight_out):
        for entry in group:
            if entry.player_id in seen:
                continue
            seen.add(entry.player_id)
            phase = phases[entry.tournament_id]
            if group is still_in:
                place = None
            elif group is day_placed:
                place = entry.finishing_place
            else:
                place = len(rows) + 1
            rows.append(
                EventResultRow(
                    place=place,
                    player_id=entry.player_id,
                    name=entry.player.name,
                    entry_id=entry.pk,
                    phase=phase_label(phase),
                    chips=entry.chips if group is still_in else 0,
                    prize=entry.prize if phase.kind == Kind.DAY else None,
                    out_at=entry.busted_at,
                )
            )
    return rows
