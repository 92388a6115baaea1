"""Multi-flight events: create an event with its flights and next day, add a flight or a day,
end a phase's day by bagging the survivors' chips, and draw the next day from every flight's
survivors.

An event (kind EVENT) deals no cards: it holds what the whole event shares (buy-in and fee, the
payout table, the guarantee, `reentry_across_flights`) and its own copy of the levels, which
each phase copies. Each flight (Day 1A, 1B, ...) runs as a normal tournament; registration
checks the event's rule on entering another flight (`selectors.flights.flight_entry_refusal`).
The prizes are the event's, paid on the last day (`selectors.prizes.event_prize_table`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import Unpack

from django.db import transaction
from django.db.models import Max

from common.actors import Actor
from common.errors import FloorError, FloorInvalid, FloorNotFound
from tournaments.models import BlindSchedule, ChipMove, Entry, Tournament, TournamentLevel
from tournaments.selectors.clock import LEVEL_FIELDS
from tournaments.selectors.flights import (
    bag_refusal,
    feeding_phases,
    hands_in_progress,
    phase_label,
    survivors_going_on,
    tables_not_counted,
    tables_not_counted_sentence,
)
from tournaments.services.audit import audit_record
from tournaments.services.events import (
    TOURNAMENT_FIELDS,
    TournamentSettings,
    tournament_close,
    tournament_create,
)
from tournaments.services.ledger import chips_moves
from tournaments.services.locks import lock_tournament
from tournaments.services.places import places_unset_survivors
from tournaments.services.tables import tournament_draw_seats

Kind = Tournament.Kind
Status = Tournament.Status

# What a phase copies from its event: every setting but its name and a satellite's prize (an
# event is not a satellite; a satellite may target the event), with the series and bounties.
PHASE_SETTINGS = tuple(
    sorted(
        {
            name
            for name in TOURNAMENT_FIELDS
            if name not in ("name", "satellite_target", "seat_value")
        }
        | {"series", "bounty_kind", "bounty"}
    )
)
MAX_FLIGHTS = 26
FLIGHT_LABEL_LENGTH = Tournament._meta.get_field("flight").max_length or 10


def _check_labels(labels: Sequence[str]) -> list[str]:
    cleaned = [" ".join(label.split()).upper() for label in labels]
    if not cleaned or any(not label for label in cleaned):
        raise FloorInvalid("bad_flights", 'Name each flight: "A", "B", "C".')
    if len(cleaned) > MAX_FLIGHTS:
        raise FloorInvalid("bad_flights", f"An event has at most {MAX_FLIGHTS} flights.")
    if len(set(cleaned)) != len(cleaned):
        raise FloorInvalid("bad_flights", "Give each flight its own letter.")
    if any(len(label) > FLIGHT_LABEL_LENGTH for label in cleaned):
        raise FloorInvalid(
            "bad_flights", f"A flight's name has at most {FLIGHT_LABEL_LENGTH} characters."
        )
    return cleaned


@transaction.atomic
def event_create(
    *,
    schedule: BlindSchedule,
    flights: Sequence[str],
    reentry_across_flights: bool = True,
    actor: Actor = None,
    **values: Unpack[TournamentSettings],
) -> Tournament:
    """A multi-flight event with its flights (Day 1A, 1B, ...) and its Day 2, in one go: the
    event takes the settings and a copy of the schedule's levels, and each phase copies them."""
    labels = _check_labels(flights)
    event = tournament_create(schedule=schedule, actor=actor, **values)
    event.kind = Kind.EVENT
    event.reentry_across_flights = reentry_across_flights
    event.save(update_fields=["kind", "reentry_across_flights", "updated_at"])
    for label in labels:
        _phase_create(event, kind=Kind.FLIGHT, day=1, flight=label, actor=actor)
    _phase_create(event, kind=Kind.DAY, day=2, flight="", actor=actor)
    audit_record(
        tournament=event,
        actor=actor,
        action="event_create",
        flights=labels,
        reentry_across_flights=reentry_across_flights,
    )
    return event


def _phase_create(
    event: Tournament, *, kind: str, day: int, flight: str, actor: Actor
) -> Tournament:
    """One flight or day of the event, with the event's settings and its own copy of the
    event's levels."""
    settings = {name: getattr(event, name) for name in PHASE_SETTINGS}
    phase = Tournament.objects.create(
        name=f"{event.name} Day {day}{flight}"[:120],
        kind=kind,
        parent=event,
        day=day,
        flight=flight,
        reentry_across_flights=event.reentry_across_flights,
        **settings,
    )
    TournamentLevel.objects.bulk_create(
        TournamentLevel(tournament=phase, **row)
        for row in event.levels.order_by("order").values("order", *LEVEL_FIELDS)
    )
    audit_record(
        tournament=phase,
        actor=actor,
        action="tournament_create",
        name=phase.name,
        event=event.name,
        phase=phase_label(phase),
    )
    return phase


def _lock_event(event: Tournament | int) -> Tournament:
    event = lock_tournament(event)
    if event.kind != Kind.EVENT:
        raise FloorNotFound("not_an_event", f"{event.name} is not a multi-flight event.")
    return event


@transaction.atomic
def event_add_flight(*, event: Tournament | int, flight: str, actor: Actor = None) -> Tournament:
    """Another starting flight (Day 1D), until Day 2 has been drawn."""
    event = _lock_event(event)
    (label,) = _check_labels([flight])
    if event.phases.filter(kind=Kind.FLIGHT, flight=label).exists():
        raise FloorError("flight_exists", f"{event.name} already has a Day 1{label}.")
    if Entry.objects.filter(tournament__parent=event, tournament__day=2).exists():
        raise FloorError(
            "day_drawn",
            f"Day 2 of {event.name} has been drawn: a new flight could no longer reach it.",
        )
    return _phase_create(event, kind=Kind.FLIGHT, day=1, flight=label, actor=actor)


@transaction.atomic
def event_add_day(*, event: Tournament | int, actor: Actor = None) -> Tournament:
    """The next later day (Day 3 after Day 2), its field drawn from the last day's survivors."""
    event = _lock_event(event)
    last = event.phases.aggregate(day=Max("day"))["day"] or 1
    return _phase_create(event, kind=Kind.DAY, day=last + 1, flight="", actor=actor)


@transaction.atomic
def phase_bag(
    *, phase: Tournament | int, now: datetime, confirm: bool = False, actor: Actor = None
) -> Tournament:
    """End a flight's (or a day's) play for the day: "bag and tag". The survivors' bags are
    their chips in the ledger (the tablets' last hands, with any count sheet recorded since),
    so the counts are corrected on the count sheets first; refused while a hand is in progress,
    and while a table has never been counted (409 `tables_not_counted`, naming them) unless the
    director confirms (`confirm`). The phase ends (finished, its clock stopped) without a
    winner; its survivors go on to the next day's draw."""
    phase = lock_tournament(phase)
    refusal = bag_refusal(phase)
    if refusal is not None:
        raise refusal
    busy = hands_in_progress(phase)
    if busy:
        listed = ", ".join(str(n) for n in busy)
        raise FloorError(
            "hands_in_progress",
            f"Table{'s' if len(busy) > 1 else ''} {listed} {'are' if len(busy) > 1 else 'is'} "
            "still playing a hand: bag once every hand has ended.",
        )
    uncounted = tables_not_counted(phase)
    if uncounted and not confirm:
        raise FloorError("tables_not_counted", tables_not_counted_sentence(uncounted))
    survivors = list(
        Entry.objects.filter(tournament=phase, status=Entry.Status.ACTIVE).values_list(
            "pk", "player__name", "chips"
        )
    )
    # A flight played down to one player crowned them: the day's end places nobody.
    places_unset_survivors(phase)
    tournament_close(phase)
    audit_record(
        tournament=phase,
        actor=actor,
        action="phase_bag",
        phase=phase_label(phase),
        players=len(survivors),
        chips=sum(chips for _, _, chips in survivors),
        bags=[{"entry": pk, "player": name, "chips": chips} for pk, name, chips in survivors],
        not_counted=uncounted,
        at=now.isoformat(),
    )
    return phase


@transaction.atomic
def day_draw(
    *, day: Tournament | int, now: datetime, actor: Actor = None, rng: random.Random | None = None
) -> Tournament:
    """The next day's field: once every phase feeding it has ended, each player's best bag
    (the others forfeited, recorded) becomes an entry of the day carrying it (`carried_from`),
    its chips written through the ledger as a buy-in noted with where it was bagged; then the
    ordinary seat draw seats them. A few statements per flight, whatever the field's size."""
    day = lock_tournament(day)
    if day.kind != Kind.DAY:
        raise FloorError("not_a_day", f"{day.name} is not a later day of an event.")
    if day.status not in (Status.PLANNED, Status.REGISTERING) or day.entries.exists():
        raise FloorError("day_drawn", f"{day.name} has been drawn already.")
    phases = feeding_phases(day)
    if not phases:
        raise FloorError("no_flights", f"{day.name} has no earlier flight or day to draw from.")
    running = [phase_label(p) for p in phases if p.status != Status.FINISHED]
    if running:
        raise FloorError(
            "flights_running",
            f"{', '.join(running)} {'has' if len(running) == 1 else 'have'} not ended: "
            f"bag {'it' if len(running) == 1 else 'them'} before the {phase_label(day)} draw.",
        )
    going = survivors_going_on(phases)
    if len(going.kept) < 2:
        raise FloorError(
            "not_enough_players", f"Fewer than two players survived to {phase_label(day)}."
        )
    entries = Entry.objects.bulk_create(
        Entry(tournament=day, player_id=bag.player_id, number=1, carried_from_id=bag.entry_id)
        for bag in going.kept
    )
    by_phase: dict[str, list[tuple[Entry, int]]] = {}
    for entry, bag in zip(entries, going.kept, strict=True):
        by_phase.setdefault(bag.phase, []).append((entry, bag.chips))
    for label, changes in sorted(by_phase.items()):
        chips_moves(
            changes=changes,
            kind=ChipMove.Kind.BUY_IN,
            now=now,
            actor=actor,
            note=f"bagged on {label}",
        )
    day.status = Status.REGISTERING
    day.save(update_fields=["status", "updated_at"])
    tournament_draw_seats(tournament=day, actor=actor, rng=rng)
    audit_record(
        tournament=day,
        actor=actor,
        action="day_draw",
        players=len(going.kept),
        chips=sum(bag.chips for bag in going.kept),
        by_phase={label: len(changes) for label, changes in sorted(by_phase.items())},
        forfeited=[
            {
                "player": lost.name,
                "forfeited": f"{lost.phase} with {lost.chips:,}",
                "kept": f"{kept.phase} with {kept.chips:,}",
            }
            for lost, kept in going.forfeited
        ],
    )
    day.refresh_from_db()
    return day
