"""Registration desk: register, late register, re-enter, rebuy, add-on, unregister, chip counts."""

from __future__ import annotations

import random
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from common.actors import Actor
from common.errors import FloorError, FloorInvalid, FloorNotFound
from tournaments import clock, seating
from tournaments.models import ChipMove, Entry, Player, Table, Tournament
from tournaments.names import clean_name
from tournaments.selectors.books import chips_in_play
from tournaments.selectors.clock import clock_state, levels_as_clock
from tournaments.selectors.flights import flight_entry_refusal
from tournaments.selectors.seats import seat_map_get
from tournaments.selectors.windows import addon_refusal, rebuy_refusal
from tournaments.services.audit import audit_record
from tournaments.services.ledger import chips_move
from tournaments.services.locks import lock_tournament
from tournaments.services.places import places_reprice, places_shift_for_new_entry
from tournaments.services.players import player_get_or_create, player_known
from tournaments.services.seats import seat_assign, seat_clear

OPEN_STATUSES = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING, Tournament.Status.PAUSED)


def playing_levels_done(tournament: Tournament, now: datetime) -> int:
    """The playing level now on the clock (1-based), counting a break as the level before it."""
    levels = levels_as_clock(tournament.levels.all())
    state = clock_state(tournament)
    index = clock.normalize(state, levels, now).level_index if state.started_at else 0
    return sum(1 for level in levels[: index + 1] if not level.is_break)


def registration_open(tournament: Tournament, now: datetime) -> bool:
    """Registration is open before the start, then until the end of the late-registration level
    (and the break right after it)."""
    if tournament.status == Tournament.Status.REGISTERING:
        return True
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        return False
    return playing_levels_done(tournament, now) <= tournament.late_registration_level


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    now: datetime,
    player_name: str = "",
    player: int | None = None,
    new_player: bool = False,
    actor: Actor = None,
    rng: random.Random | None = None,
) -> Entry:
    """Register a player (or re-enter a busted one): the `player` of that id, or the one of
    that name. A new name that folds to a known player's is refused 409 `likely_same_player`
    with the candidates, unless `new_player` says it is someone else. Once seats are drawn, a
    late entry takes a random open seat at one of the shortest tables (T 8-A)."""
    tournament = lock_tournament(tournament)
    name = clean_name(player_name)
    if player is None and not name:
        raise FloorInvalid("name_required", "Enter the player's name.")
    if not registration_open(tournament, now):
        raise FloorError("registration_closed", "Registration is closed for this tournament.")
    found = (
        player_known(player=player)
        if player is not None
        else player_get_or_create(name=name, ask=not new_player)
    )
    return _entry_new(tournament, found, now, actor, rng)


def _next_entry_number(tournament: Tournament, player: Player) -> int:
    """The number of the player's next entry, refused when they play or have used them all."""
    refusal = flight_entry_refusal(tournament, player)  # a multi-flight event's phases
    if refusal is not None:
        raise refusal
    # The player's entries here, in one read (a few rows): one still playing, how many were
    # used, the last number.
    entries = list(
        tournament.entries.filter(player=player)
        .order_by("number")
        .values_list("status", "number", "table__number", "seat")
    )
    active = next((row for row in entries if row[0] == Entry.Status.ACTIVE), None)
    if active is not None:
        _, _, table, seat = active
        where = f" (table {table} seat {seat})" if table is not None else ""
        raise FloorError(
            "duplicate_registration",
            f"{player.name} is already registered in this tournament{where}.",
        )
    count = sum(1 for row in entries if row[0] != Entry.Status.UNREGISTERED)
    if count >= tournament.max_entries_per_player:
        raise FloorError(
            "no_reentry",
            f"{player.name} has used every entry this tournament "
            f"allows ({tournament.max_entries_per_player}).",
        )
    return max((row[1] for row in entries), default=0) + 1


def _entry_new(
    tournament: Tournament, player: Player, now: datetime, actor: Actor, rng: random.Random | None
) -> Entry:
    number = _next_entry_number(tournament, player)
    entry = Entry(
        tournament=tournament,
        player=player,
        number=number,
        late=tournament.status != Tournament.Status.REGISTERING,
    )
    # Once seats are drawn (a drawn table has its button; tables the director set up before
    # the draw have none yet and wait for it).
    if tournament.tables.filter(is_broken=False, button_seat__isnull=False).exists():
        table, seat = _late_seat(tournament, rng or random.Random())
        seat_assign(entry=entry, table=table, seat=seat)  # saved with the entry below
    try:
        with transaction.atomic():
            entry.save()
    except IntegrityError as error:
        raise FloorError(
            "duplicate_registration", f"{player.name} is already registered in this tournament."
        ) from error
    chips_move(
        entry=entry,
        kind=ChipMove.Kind.BUY_IN,
        delta=tournament.starting_stack,
        now=now,
        actor=actor,
        note=f"entry {number}" if number > 1 else "",
    )
    if tournament.entries.filter(status=Entry.Status.BUSTED).exists():
        places_shift_for_new_entry(tournament)
    audit_record(
        tournament=tournament,
        actor=actor,
        action="entry_register",
        player=player.name,
        entry=entry.pk,
        number=number,
        late=entry.late,
        table=entry.table.number if entry.table else None,
        seat=entry.seat,
    )
    return entry


def _late_seat(tournament: Tournament, rng: random.Random) -> tuple[Table, int]:
    # Taken: a player sits there or moves there after their hand; a locked seat is never drawn
    # (and does not count as a player either).
    tables = seat_map_get(tournament=tournament).tables.values()
    open_seats = [seating.SeatRef(table=t.table.number, seat=s) for t in tables for s in t.free()]
    if not open_seats:
        raise FloorError("no_open_seat", "Every seat is taken: open another table first.")
    counts = {t.table.number: len(t.taken) for t in tables}
    choice = seating.late_seat(open_seats, counts, rng)
    return next(t.table for t in tables if t.table.number == choice.table), choice.seat


def _active_entry(entry: Entry | int) -> Entry:
    pk = entry if isinstance(entry, int) else entry.pk
    try:
        found = Entry.objects.select_related("tournament", "player").get(pk=pk)
    except Entry.DoesNotExist as error:
        raise FloorNotFound("not_found", "There is no such entry.") from error
    lock_tournament(found.tournament)
    found.refresh_from_db()
    if found.status != Entry.Status.ACTIVE:
        raise FloorError(
            "entry_not_active", f"{found.player.name} is not playing ({found.status})."
        )
    return found


def check_not_in_hand(entry: Entry, what: str) -> None:
    """The floor waits for the hand: a change to the chips of a player dealt in a hand in
    progress is refused (409 in_hand) until the hand ends, when the tablet has written its
    result; then the change adds to that result instead of being overwritten by it."""
    if entry.live_hand_id is None:
        return
    hand = entry.live_hand
    where = f"hand {hand.number} at table {hand.table.number}" if hand else "a hand"
    raise FloorError(
        "in_hand", f"{entry.player.name} is in {where}: record the {what} when it ends."
    )


def _require_play(tournament: Tournament, what: str) -> None:
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        raise FloorError("not_running", f"{what} is taken while the tournament is under way.")


@transaction.atomic
def entry_unregister(*, entry: Entry | int, actor: Actor = None) -> Entry:
    """Before the start a player may unregister; the entry is kept, marked unregistered."""
    entry = _active_entry(entry)
    if entry.tournament.status not in (Tournament.Status.PLANNED, Tournament.Status.REGISTERING):
        raise FloorError(
            "tournament_started",
            "Players can only unregister before the start; bust them out instead.",
        )
    if entry.chips:
        chips_move(
            entry=entry,
            kind=ChipMove.Kind.BUY_IN,
            delta=-entry.chips,
            now=timezone.now(),
            actor=actor,
            note="unregistered",
        )
    entry.status = Entry.Status.UNREGISTERED
    entry.save(update_fields=["status"])
    seat_clear(entry=entry)
    audit_record(
        tournament=entry.tournament,
        actor=actor,
        action="entry_unregister",
        player=entry.player.name,
        entry=entry.pk,
    )
    return entry


@transaction.atomic
def entry_rebuy(*, entry: Entry | int, now: datetime, actor: Actor = None) -> Entry:
    """A rebuy adds the rebuy chips, during the rebuy period, to a stack at or below the start."""
    entry = _active_entry(entry)
    tournament = entry.tournament
    if not tournament.rebuy_chips:
        raise FloorError("no_rebuys", "This tournament has no rebuys.")
    _require_play(tournament, "A rebuy")
    refusal = rebuy_refusal(tournament, now)  # its window (issue 26)
    if refusal is not None:
        raise refusal
    check_not_in_hand(entry, "rebuy")
    if entry.chips > tournament.starting_stack:
        raise FloorError(
            "rebuy_not_allowed",
            f"{entry.player.name} has {entry.chips} chips, more "
            f"than the starting stack ({tournament.starting_stack}): no rebuy yet.",
        )
    entry.rebuys += 1
    entry.save(update_fields=["rebuys"])
    chips_move(
        entry=entry, kind=ChipMove.Kind.REBUY, delta=tournament.rebuy_chips, now=now, actor=actor
    )
    places_reprice(tournament)  # the rebuy grows the prize pool
    audit_record(
        tournament=tournament,
        actor=actor,
        action="entry_rebuy",
        player=entry.player.name,
        entry=entry.pk,
        rebuys=entry.rebuys,
    )
    return entry


@transaction.atomic
def entry_addon(*, entry: Entry | int, actor: Actor = None, now: datetime | None = None) -> Entry:
    """One add-on per entry, in its window (`selectors.windows.addon_window`)."""
    entry = _active_entry(entry)
    tournament = entry.tournament
    if not tournament.addon_chips:
        raise FloorError("no_addon", "This tournament has no add-on.")
    _require_play(tournament, "The add-on")
    if entry.addon:
        raise FloorError("addon_taken", f"{entry.player.name} already took the add-on.")
    refusal = addon_refusal(tournament, now or timezone.now())  # its window (issue 26)
    if refusal is not None:
        raise refusal
    check_not_in_hand(entry, "add-on")
    entry.addon = True
    entry.save(update_fields=["addon"])
    chips_move(
        entry=entry,
        kind=ChipMove.Kind.ADDON,
        delta=tournament.addon_chips,
        now=now or timezone.now(),
        actor=actor,
    )
    places_reprice(tournament)  # the add-on grows the prize pool
    audit_record(
        tournament=tournament,
        actor=actor,
        action="entry_addon",
        player=entry.player.name,
        entry=entry.pk,
    )
    return entry


def check_within_chips_in_play(*, tournament: Tournament, chips: int, what: str) -> None:
    """No stack, and no table, holds more than the chips in play (issued less colour-ups,
    `selectors.books.chips_in_play`): such a count is a typo (409 `count_over_chips_in_play`,
    the sentence naming both numbers). `what` begins the sentence: "Ann's count of"."""
    in_play = chips_in_play(tournament)
    if chips > in_play:
        raise FloorError(
            "count_over_chips_in_play",
            f"{what} {chips:,} is more than the {in_play:,} chips in play: count again.",
        )


@transaction.atomic
def entry_set_chips(
    *,
    entry: Entry | int,
    chips: int,
    actor: Actor = None,
    now: datetime | None = None,
    kind: str = ChipMove.Kind.COUNT,
    note: str = "",
) -> Entry:
    """A chip count from the floor (at a break, the end of a day, a dispute): the ledger records
    the difference from the entry's running total, with who and why. `kind` is a count, a
    correction or a colour-up (chips the race took out or rounded in). Refused while the player
    is in a hand: the hand's result comes first."""
    if kind not in (ChipMove.Kind.COUNT, ChipMove.Kind.CORRECTION, ChipMove.Kind.COLOUR_UP):
        raise FloorInvalid("bad_kind", "A count is a count, a correction or a colour-up.")
    if chips < 1:
        raise FloorInvalid(
            "bad_chips", "A playing entry has at least one chip: record a bust instead."
        )
    entry = _active_entry(entry)
    if entry.tournament.status == Tournament.Status.FINISHED:
        raise FloorError(
            "tournament_finished", "The tournament is finished: chip counts are final."
        )
    check_not_in_hand(entry, "count")
    check_within_chips_in_play(
        tournament=entry.tournament, chips=chips, what=f"{entry.player.name}'s count of"
    )
    before = entry.chips
    chips_move(
        entry=entry,
        kind=kind,
        delta=chips - before,
        now=now or timezone.now(),
        actor=actor,
        note=note,
    )
    audit_record(
        tournament=entry.tournament,
        actor=actor,
        action="entry_chips",
        player=entry.player.name,
        entry=entry.pk,
        before=before,
        after=chips,
    )
    return entry
