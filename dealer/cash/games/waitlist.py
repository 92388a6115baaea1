"""A game's waiting list: join, call, no-show, remove, and the held seats that run out.

One list per game ("1/2 NL"): whoever waits for it waits for a seat at any of its tables, first
come first called. A called player has the seat held until `hold_until` (the game's hold time);
the floor then seats them (`dealer.cash.games.services.game_waitlist_seat`) or marks them a
no-show, and the next player is called to the same seat. A held seat nobody claims is freed by
`waitlist_expire_calls`: the hold's own task at its end and the beat every minute run it (with
no task worker, the embedded default, the reads run it first: `waitlist_expire_on_read`).

Must-move: a table with `must_move_to` feeds that main table. A seat opening at the main table
goes first to the must-move player who has waited longest (seated earliest at a feeding table),
then to the list.

Nothing here seats a player (`dealer.cash.seats.services` does), so the seats service may call
`waitlist_seat_opened` when a player leaves without an import cycle.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from common.actors import Actor
from common.errors import FloorConflict, FloorInvalid, FloorNotFound
from dealer.cash import ledger
from dealer.cash.games import lookups
from dealer.cash.games.selectors import (
    ACTIVE,
    Status,
    feeders,
    game_tables,
    open_seats,
    seat_holders,
)
from dealer.cash.locks import lock_game, lock_list_entry
from dealer.cash.models import CashGame, CashSeat, SeatChangeRequest, WaitingListEntry
from tournaments.models import Player, Table
from tournaments.names import clean_name
from tournaments.services.audit import audit_record
from tournaments.services.players import number_typed, player_get_or_create

EXPIRE_TASK = "dealer.tasks.waitlist_expire_calls_task"
# Codes a player reads off a phone and types back: no 0/O or 1/I to confuse.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


def new_code() -> str:
    """A short code no other entry has (checked against the table: codes are not reused)."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not WaitingListEntry.objects.filter(code=code).exists():
            return code


@transaction.atomic
def game_waitlist_join(
    *,
    game: CashGame,
    player_name: str,
    actor: Actor = None,
    now: datetime | None = None,
    public: bool = False,
) -> WaitingListEntry:
    """Put a player at the end of the game's list, with a code for the phone page. Refused when
    the game is closed; from the desk, also when the player is already on it or already plays
    it.

    A `public` join (a phone, no account) is never refused for who the name is: a refusal would
    tell anyone who typed a name that this person waits or plays here. It gets an entry and a
    code of its own like any other (never the code of an entry already there), and the desk
    sees it marked (`game_selectors.ListEntryView`: `seated_at`, `also_waiting`) and sorts it
    out when it is called; seating the player closes all their entries on the list. Its place
    shows the name as typed (`name_typed`), and a player number ("#1042") is refused to it."""
    game = lock_game(game)
    if not game.is_open:
        raise FloorConflict("game_closed", f"{game.name} is closed: no list to join.")
    name = clean_name(player_name)
    if not name:
        raise FloorInvalid("name_required", "Type the player's name.")
    if public and number_typed(name) is not None:
        # "#1042" is a card holder at the desk; from a phone it would tell their name, or
        # whether the number exists: refused alike for every number.
        raise FloorInvalid("name_required", "Type your name: a player card is for the desk.")
    player = player_get_or_create(name=name)
    if not public:
        _check_not_known(game, player)
    entry = WaitingListEntry.objects.create(
        game=game, player=player, code=new_code(), name_typed=name if public else ""
    )
    audit_record(
        tournament=None, actor=actor, action="cash_list_join", game=game.name, player=player.name
    )
    return entry


def _check_not_known(game: CashGame, player: Player) -> None:
    """The desk's join: refused for a player already on the list or at one of its tables."""
    if WaitingListEntry.objects.filter(game=game, player=player, status__in=ACTIVE).exists():
        raise FloorConflict("already_waiting", f"{player.name} is already on the {game} list.")
    if CashSeat.objects.filter(table__cash_game=game, table__is_open=True, player=player).exists():
        raise FloorConflict("already_seated", f"{player.name} already plays {game}.")


def check_seat_not_held(*, table: Table, seat: int, player: Player) -> None:
    """409 `seat_held` when `seat` is held for a called player other than `player`: nobody else
    sits there until the player sits, or the floor releases the hold (a no-show, or taking the
    player off the list)."""
    held = seat_holders(table).get(seat)
    if held is not None and held.player_id != player.pk:
        until = f" until {timezone.localtime(held.hold_until):%H:%M}" if held.hold_until else ""
        raise FloorConflict(
            "seat_held",
            f"Seat {seat} at {table} is held for {held.player.name}, called from the list"
            f"{until}: seat them there, or mark them a no-show to release it.",
        )


def _must_move_candidate(table: Table) -> CashSeat | None:
    """The must-move player who has waited longest for `table` and has not let a call to it
    lapse since sitting down."""
    rows = (
        CashSeat.objects.filter(table__must_move_to=table, table__is_open=True)
        .select_related("player")
        .order_by("seated_at", "pk")
    )
    for row in rows:
        calls = WaitingListEntry.objects.filter(
            player=row.player, call_table=table, called_at__gte=row.seated_at
        )
        if not calls.filter(status__in=(Status.CALLED, Status.NO_SHOW)).exists():
            return row
    return None


def _seat_change_candidate(game: CashGame, table: Table, seat: int) -> CashSeat | None:
    """The player of the game who asked longest ago for another seat or table (not the one
    just left); their request is used up by the call."""
    asked = (
        SeatChangeRequest.objects.filter(game=game, seat__table__cash_game=game)
        .exclude(seat__table=table, seat__seat=seat)
        .select_related("seat__player")
        .order_by("created_at", "pk")
        .first()
    )
    if asked is None:
        return None
    mover = asked.seat
    asked.delete()
    return mover


@transaction.atomic
def seat_change_ask(*, cash_seat: CashSeat, actor: Actor = None) -> SeatChangeRequest:
    """A player of a game's table asks for another seat or table: on the game's seat-change
    list, offered a seat that opens before the waiting list (asking again changes nothing)."""
    seat = CashSeat.objects.select_related("table__cash_game", "player").get(pk=cash_seat.pk)
    game = seat.table.cash_game
    if game is None:
        raise FloorInvalid("no_game", f"{seat.table} deals no game: there is no seat to change to.")
    asked, made = SeatChangeRequest.objects.get_or_create(seat=seat, defaults={"game": game})
    if made:
        audit_record(
            tournament=None,
            actor=actor,
            action="cash_seat_change_ask",
            game=game.name,
            table=seat.table.number,
            seat=seat.seat,
            player=seat.player.name,
        )
    return asked


@transaction.atomic
def seat_change_cancel(*, cash_seat: CashSeat, actor: Actor = None) -> None:
    """The player no longer wants to change seats (done already: nothing happens)."""
    SeatChangeRequest.objects.filter(seat_id=cash_seat.pk).delete()


def _call(
    *,
    game: CashGame,
    table: Table,
    seat: int,
    now: datetime,
    actor: Actor,
    skip: WaitingListEntry | None = None,
) -> WaitingListEntry | None:
    """Call whoever is next for this seat (a must-move player first at a main table), with the
    seat held for the game's hold time; None when nobody is waiting for it."""
    entry: WaitingListEntry | None = None
    mover = _must_move_candidate(table) if feeders(table) else None
    if mover is None:
        mover = _seat_change_candidate(game, table, seat)
    if mover is not None:
        entry = WaitingListEntry.objects.filter(
            game=game, player=mover.player, status__in=ACTIVE
        ).first() or WaitingListEntry(game=game, player=mover.player, code=new_code())
    else:
        waiting = WaitingListEntry.objects.select_for_update().filter(
            game=game, status=Status.WAITING
        )
        if skip is not None:
            waiting = waiting.exclude(pk=skip.pk)
        entry = waiting.select_related("player").order_by("queued_at", "pk").first()
    if entry is None:
        return None
    entry.status, entry.called_at = Status.CALLED, now
    entry.call_table, entry.call_seat = table, seat
    entry.hold_until = now + timedelta(seconds=game.hold_seconds)
    entry.save()
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_list_call",
        game=game.name,
        player=entry.player.name,
        table=table.number,
        seat=seat,
        must_move=mover is not None,
        hold_until=entry.hold_until.isoformat(),
    )
    _schedule_expiry(entry.hold_until)
    return entry


def _schedule_expiry(when: datetime) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        # In-process tasks cannot wait: the pages and the desk expire held seats when read.
        return
    # Sent by name: services do not import the task modules that call them. `robust`: a broker
    # that does not answer is logged and never turns the committed write into an error (the
    # beat's `waitlist_expire_calls_task` frees the held seat within a minute anyway).
    transaction.on_commit(
        lambda: current_app.send_task(EXPIRE_TASK, eta=when + timedelta(seconds=1)), robust=True
    )


def waitlist_seat_opened(
    *,
    table: Table,
    seat: int,
    now: datetime | None = None,
    actor: Actor = None,
    skip: WaitingListEntry | None = None,
) -> WaitingListEntry | None:
    """A seat opened at a game's table (a player left): call the next player to it (`skip`: the
    one who just missed the call to it)."""
    table = Table.objects.select_related("cash_game").get(pk=table.pk)
    game = table.cash_game
    if game is None or not game.is_open or not table.is_open or seat not in open_seats(table):
        return None
    return _call(
        game=game, table=table, seat=seat, now=now or timezone.now(), actor=actor, skip=skip
    )


@transaction.atomic
def game_waitlist_call_next(
    *, game: CashGame, now: datetime | None = None, actor: Actor = None
) -> WaitingListEntry:
    """The desk's "Call next": the first open seat of the game goes to whoever is next for it
    (409 `no_open_seat`, `list_empty`)."""
    game = lock_game(game)
    now = now or timezone.now()
    any_open = False
    for table in game_tables(game):
        for seat in open_seats(table):
            any_open = True
            entry = _call(game=game, table=table, seat=seat, now=now, actor=actor)
            if entry is not None:
                return entry
    if any_open:
        raise FloorConflict("list_empty", f"Nobody is waiting for {game.name}.")
    raise FloorConflict("no_open_seat", f"Every seat at the {game.name} tables is taken or held.")


def _close(entry: WaitingListEntry, status: str, now: datetime) -> tuple[Table | None, int | None]:
    """Close an entry; answers the seat it held (if it was called) so the next can be called."""
    held = (entry.call_table, entry.call_seat) if entry.status == Status.CALLED else (None, None)
    entry.status, entry.closed_at = status, now
    entry.save(update_fields=["status", "closed_at"])
    return held


def _off_the_list(
    entry: WaitingListEntry, status: str, action: str, now: datetime, actor: Actor
) -> WaitingListEntry | None:
    """The entry leaves the list with `status`, in the audit log as `action`; the seat it held,
    if any, goes to the next player (answered: that call). A player who waits with the stack of
    a closed table is not dropped by a missed call: they wait again in their place (the stack
    stays theirs); taken off the list, their stack is cashed out on the ledger."""
    if entry.carried_chips and status == Status.NO_SHOW:
        held = (entry.call_table, entry.call_seat)
        entry.status, entry.called_at, entry.hold_until = Status.WAITING, None, None
        entry.call_table, entry.call_seat = None, None
        entry.save()
        table, seat = held
    else:
        if entry.carried_chips:
            ledger.cash_chips_carried_off(entry=entry, actor=actor)
        table, seat = _close(entry, status, now)
    game = entry.game.name if entry.game else None
    audit_record(tournament=None, actor=actor, action=action, game=game, player=entry.player.name)
    if table is None or seat is None:
        return None
    skip = entry if entry.status == Status.WAITING else None  # a carrier who missed the call
    return waitlist_seat_opened(table=table, seat=seat, now=now, actor=actor, skip=skip)


@transaction.atomic
def game_waitlist_no_show(
    *, entry: WaitingListEntry, now: datetime | None = None, actor: Actor = None
) -> WaitingListEntry | None:
    """A called player did not come: off the list, and the seat goes to the next player
    (answered: the new call, if any). 409 `not_called` unless the player was called."""
    entry = lock_list_entry(entry)
    if entry.status != Status.CALLED:
        raise FloorConflict("not_called", f"{entry.player.name} has not been called.")
    return _off_the_list(entry, Status.NO_SHOW, "cash_list_no_show", now or timezone.now(), actor)


@transaction.atomic
def game_waitlist_remove(
    *, entry: WaitingListEntry, now: datetime | None = None, actor: Actor = None
) -> None:
    """Take a player off the game's list (done already: nothing happens). A called player's
    held seat goes to the next player."""
    entry = lock_list_entry(entry)
    if entry.status not in ACTIVE:
        return
    _off_the_list(entry, Status.REMOVED, "cash_waitlist_remove", now or timezone.now(), actor)


@transaction.atomic
def game_waitlist_leave(*, code: str, now: datetime | None = None) -> WaitingListEntry:
    """The player leaves the game's list from their phone, with the code they were given (the
    phone's proof that the place is theirs): as the floor's remove, a called player's held seat
    goes to the next player. Refused 400 `bad_code` for what cannot be a code, 404 for a code on
    no list, 409 `not_on_list` once the entry is off the list (left, seated, no-show), so that a
    second tap says what happened rather than nothing."""
    clean = code.strip().upper()
    if lookups.code_clean(clean) is None:
        raise FloorInvalid("bad_code", "A list code is six letters and digits.")
    found = (
        WaitingListEntry.objects.filter(code=clean, game__isnull=False)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    if found is None:
        raise FloorNotFound("not_found", "No list entry has that code.")
    entry = lock_list_entry(WaitingListEntry(pk=found))
    if entry.status not in ACTIVE:
        said: dict[str, str] = {
            Status.SEATED: "You are seated already: the floor takes you off the list.",
            Status.NO_SHOW: "Your held seat went to the next player: you are off the list.",
        }
        raise FloorConflict("not_on_list", said.get(entry.status, "You are off the list already."))
    _off_the_list(entry, Status.REMOVED, "cash_waitlist_leave", now or timezone.now(), None)
    return entry


def waitlist_expire_on_read() -> None:
    """What a page or an API read of the lists does about held seats whose time ran out. With
    a task worker (production), nothing: a read writes nothing, and the hold's own task at its
    end (`_schedule_expiry`) and the beat's sweep every minute free the seat and call the next
    player. Without one (the embedded default: tasks run in-process, no beat), nothing else
    would, so the read sweeps first (`waitlist_expire_calls`)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        waitlist_expire_calls()


@transaction.atomic
def waitlist_expire_calls(*, now: datetime | None = None) -> int:
    """Held seats whose time ran out: the called player is a no-show and the next player is
    called to the same seat, held from now. Answers how many calls ran out; running it again
    at once does nothing."""
    now = now or timezone.now()
    expired = list(
        WaitingListEntry.objects.select_for_update(of=("self",))
        .filter(status=Status.CALLED, hold_until__lte=now)
        .select_related("player", "game", "call_table")
        .order_by("hold_until", "pk")
    )
    for entry in expired:
        _off_the_list(entry, Status.NO_SHOW, "cash_list_call_expired", now, None)
    return len(expired)
