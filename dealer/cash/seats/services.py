"""Cash tables' writes: open a table, seat a player, sit out, come back, top up, leave, the
waiting list, the button draw, and what a hand's end leaves at the seats.

Each service (`cash_<entity>_<verb>`) runs in a transaction with the table row locked, so two
devices seating or moving players at once queue up rather than clash. A change a director or
dealer makes is recorded in the audit log. Hands themselves are started and ended by
`dealer.services`, which reads the plan (`dealer.cash.seats.plan`) and hands back the result
(`cash_hand_end`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime
from typing import NamedTuple, TypedDict, Unpack

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from common.actors import Actor
from common.errors import FloorConflict, FloorForbidden, FloorInvalid, FloorNotFound
from common.roles import is_director
from dealer.cash import ledger
from dealer.cash.games import waitlist
from dealer.cash.locks import lock_cash_table, lock_cash_tables
from dealer.cash.models import CashChips, CashGame, CashSeat, WaitingListEntry
from dealer.cash.seats.plan import OWED_FIELDS, cash_table_rules, engine_seats_row
from dealer.engine import cash as engine_cash
from dealer.engine.cards import DeckKind, format_cards
from dealer.engine.errors import ConfigError
from dealer.engine.rules import Game, InitialButton, MissedBlindPolicy, OptionValue, Rules
from dealer.models import Hand
from tournaments import seating
from tournaments.models import ButtonDraw, Player, Table
from tournaments.names import clean_name
from tournaments.services.audit import audit_record
from tournaments.services.players import player_get_or_create

# The entry choices of a new player (RULES.md 2; S2 options 1-3).
ENTRY_CHOICES = {
    "wait_bb": "Wait for the big blind",
    "post_now": "Post a big blind now",
    "button_pass": "Let the button pass, then post",
}
Kind = CashChips.Kind
RETURN_CHOICES = {"post": "Post what is owed now", "wait_bb": "Wait for the big blind"}


# --- the game ----------------------------------------------------------------------------------


class CashTableSettings(TypedDict, total=False):
    """A cash table's settings as `cash_table_create` takes them (the `Table` fields)."""

    number: int
    name: str
    game: str
    structure: str
    rule_profile: str
    rule_overrides: Mapping[str, OptionValue]
    small_blind: int
    big_blind: int
    ante: int
    min_buy_in: int
    max_buy_in: int
    seat_count: int


def _check_game(values: CashTableSettings) -> None:
    if values["big_blind"] < 1 or not 0 <= values["small_blind"] <= values["big_blind"]:
        raise FloorInvalid(
            "bad_stakes",
            "The big blind must be at least 1 and the small blind at most the big blind.",
        )
    if not values["big_blind"] <= values["min_buy_in"] <= values["max_buy_in"]:
        raise FloorInvalid(
            "bad_buy_in",
            "The minimum buy-in must be at least one big blind and at most the maximum buy-in.",
        )
    if not 2 <= values["seat_count"] <= 10:
        raise FloorInvalid("bad_seat_count", "A table has 2 to 10 seats.")


@transaction.atomic
def cash_table_create(*, actor: Actor = None, **values: Unpack[CashTableSettings]) -> Table:
    """Open a cash table: number, name, game, structure, rule profile and overrides, blinds,
    ante, minimum and maximum buy-in, seats. The rules are checked as the engine reads them."""
    values.setdefault("seat_count", 9)
    values.setdefault("ante", 0)
    values.setdefault("rule_overrides", {})
    values.setdefault("name", "")
    if values.get("rule_profile") == "texas_6plus":
        values["game"] = Game.SIXPLUS.value
    _check_game(values)
    table = Table(tournament=None, **values)
    try:
        rules = cash_table_rules(table)
    except ConfigError as error:
        raise FloorInvalid(error.code, error.detail) from error
    if rules.is_tournament:
        raise FloorInvalid("not_cash", "A cash table plays cash rules (mode=cash).")
    if Table.objects.filter(tournament=None, number=values["number"]).exists():
        raise FloorConflict("table_number_taken", f"Cash table {values['number']} already exists.")
    table.save()
    audit_record(tournament=None, actor=actor, action="cash_table_open", table=table.number)
    return table


def _hand_in_progress(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table, status=Hand.Status.IN_PROGRESS).first()


def _in_hand(table: Table, cash_seat: CashSeat) -> bool:
    hand = _hand_in_progress(table)
    return hand is not None and any(row.get("cash_seat") == cash_seat.pk for row in hand.seats)


# --- seats -------------------------------------------------------------------------------------


def _check_entry_choice(rules: Rules, choice: str) -> None:
    if choice not in ENTRY_CHOICES:
        raise FloorInvalid(
            "bad_choice", "Choose: wait for the big blind, post now, or let the button pass."
        )
    if choice == "button_pass" and rules.missed_blind_policy == MissedBlindPolicy.S0_MISSED_BLINDS:
        raise FloorInvalid(
            "choice_not_offered",
            "Under S0's policy a new player posts a big blind now or waits for the big blind.",
        )


def _check_seat_free(
    table: Table, seat: int, player: Player, moving: CashSeat | None = None
) -> None:
    """The seat exists, nobody sits there, nobody else is called to it, and the player has no
    other seat at the table, nor at another table of its game (`moving`: the seat the player
    is leaving for this one)."""
    if not 1 <= seat <= table.seat_count:
        raise FloorInvalid("bad_seat", f"{table} has seats 1 to {table.seat_count}, not {seat}.")
    if CashSeat.objects.filter(table=table, seat=seat).exists():
        raise FloorConflict("seat_taken", f"Seat {seat} is taken.")
    waitlist.check_seat_not_held(table=table, seat=seat, player=player)
    others = CashSeat.objects.filter(player=player)
    if moving is not None:
        others = others.exclude(pk=moving.pk)
    if others.filter(table=table).exists():
        raise FloorConflict("already_seated", f"{player.name} already has a seat at {table}.")
    if table.cash_game_id is not None:
        elsewhere = others.filter(table__cash_game_id=table.cash_game_id).first()
        if elsewhere is not None:
            raise FloorConflict(
                "already_seated",
                f"{player.name} already sits at {elsewhere.table} in this game: change tables "
                "with their stack instead.",
            )


def _check_carries_nothing(table: Table, player: Player) -> None:
    """409 `carries_stack` when the player waits on the game's list with the stack of a closed
    table: they sit down with it from the list, not with a buy-in."""
    if table.cash_game_id is None:
        return
    carrying = WaitingListEntry.objects.filter(
        game_id=table.cash_game_id, player=player, status__in=waitlist.ACTIVE, carried_chips__gt=0
    ).first()
    if carrying is not None:
        raise FloorConflict(
            "carries_stack",
            f"{player.name} waits on the list with {carrying.carried_chips} from a closed table: "
            "seat them from the list (they sit down with it), not with a buy-in.",
        )


def _new_seat(table: Table, seat: int, player: Player, choice: str, actor: Actor) -> CashSeat:
    """The seat row (no chips yet: the ledger brings them), the first-seated button (S0), and
    the player off the lists that seat them."""
    try:
        with transaction.atomic():
            taken = CashSeat.objects.create(
                table=table,
                seat=seat,
                player=player,
                new=True,
                wait_big_blind=choice == "wait_bb",
                wait_button=choice == "button_pass",
            )
    except IntegrityError as error:  # pragma: no cover - the table lock makes this unlikely
        raise FloorConflict("seat_taken", f"Seat {seat} was just taken.") from error
    first = not Hand.objects.filter(table=table).exists() and table.button_seat is None
    if first and cash_table_rules(table).initial_button == InitialButton.FIRST_SEATED:
        table.button_seat = seat
        table.save(update_fields=["button_seat"])
        audit_record(
            tournament=None,
            actor=actor,
            action="cash_button_first_seated",
            table=table.number,
            seat=seat,
            player=player.name,
        )
    # Seated: off this table's list, and off the list of the game the table deals.
    on_a_list = Q(table=table, status=WaitingListEntry.Status.WAITING)
    if table.cash_game_id is not None:
        on_a_list |= Q(game_id=table.cash_game_id, status__in=waitlist.ACTIVE)
    # A stack carried on the list stays there until it is brought to a seat (`carried_join`).
    WaitingListEntry.objects.filter(on_a_list, player=player, carried_chips=0).update(
        status=WaitingListEntry.Status.SEATED, closed_at=timezone.now()
    )
    return taken


@transaction.atomic
def cash_seat_take(
    *,
    table: Table,
    seat: int,
    player_name: str,
    buy_in: int,
    choice: str = "wait_bb",
    actor: Actor = None,
) -> CashSeat:
    """Seat a player with their buy-in (between the table's minimum and maximum). `choice` is
    the entry choice: wait for the big blind, post a big blind now, or let the button pass and
    then post (S2; S0 offers only the first two). With `initial_button=first_seated`, the first
    player seated at a new table gets the button (S0). A player changing tables brings their
    stack instead (`cash_seat_move`)."""
    table = lock_cash_table(table)
    name = clean_name(player_name)
    if not name:
        raise FloorInvalid("name_required", "Type the player's name.")
    if not 1 <= seat <= table.seat_count:
        raise FloorInvalid("bad_seat", f"{table} has seats 1 to {table.seat_count}, not {seat}.")
    _check_entry_choice(cash_table_rules(table), choice)
    if not table.min_buy_in <= buy_in <= table.max_buy_in:
        raise FloorInvalid(
            "bad_buy_in",
            f"The buy-in at {table} is {table.min_buy_in} to {table.max_buy_in}, not {buy_in}.",
        )
    player = player_get_or_create(name=name)
    _check_seat_free(table, seat, player)
    _check_carries_nothing(table, player)
    taken = _new_seat(table, seat, player, choice, actor)
    ledger.cash_chips_record(seat=taken, kind=Kind.BUY_IN, delta=buy_in, actor=actor)
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_seat",
        table=table.number,
        seat=seat,
        player=name,
        buy_in=buy_in,
        choice=choice,
    )
    return taken


@transaction.atomic
def cash_seat_move(
    *,
    cash_seat: CashSeat,
    to_table: Table,
    to_seat: int,
    choice: str = "wait_bb",
    actor: Actor = None,
) -> CashSeat:
    """A table change, a seat change or a must-move within a game: the player takes the whole
    stack to the other seat (no buy-in check: the player keeps what they won; RULES.md 2),
    through the ledger as a move out and a move in. Between hands the player is in only; the
    tables must be one, deal the same game, or the first feed the second (must-move). The seat
    left goes to the next player for it, as when a player leaves."""
    tables = lock_cash_tables(cash_seat.table, to_table)
    source, target = tables[cash_seat.table_id], tables[to_table.pk]
    seat = CashSeat.objects.select_related("player").filter(pk=cash_seat.pk).first()
    if seat is None:
        raise FloorNotFound("not_found", "That player has left the table.")
    if source.pk == target.pk and to_seat == seat.seat:
        raise FloorInvalid("same_seat", f"{seat.player.name} already sits in seat {to_seat}.")
    same_game = source.cash_game_id is not None and source.cash_game_id == target.cash_game_id
    if not (same_game or source.pk == target.pk or source.must_move_to_id == target.pk):
        raise FloorConflict(
            "other_game",
            f"{source} and {target} deal different games: the player cashes out and buys in.",
        )
    if not target.is_open:
        raise FloorConflict("table_closed", f"{target} is closed.")
    if _in_hand(source, seat):
        raise FloorConflict(
            "in_hand", f"{seat.player.name} is in the hand in progress: move once it is over."
        )
    _check_entry_choice(cash_table_rules(target), choice)
    moved = stack_move(seat=seat, source=source, target=target, to_seat=to_seat, actor=actor)
    waitlist.waitlist_seat_opened(table=source, seat=seat.seat, actor=actor)
    return moved


def _move_off(seat: CashSeat, *, to_table: Table, actor: Actor) -> int:
    """The whole stack leaves the seat for `to_table` (a `move_out`) and the seat is freed;
    answers the chips carried."""
    chips = seat.chips
    ledger.cash_chips_record(
        seat=seat, kind=Kind.MOVE_OUT, delta=-chips, other_table=to_table, actor=actor
    )
    seat.delete()
    return chips


def stack_move(
    *,
    seat: CashSeat,
    source: Table,
    target: Table,
    to_seat: int,
    choice: str = "wait_bb",
    actor: Actor = None,
) -> CashSeat:
    """Carry a seat's whole stack to `to_seat` at `target`: a `move_out` and a `move_in` on the
    ledger, the new seat a new player's (the entry `choice`). The caller holds both tables'
    locks and has checked the move is allowed (a table change, a close, a break)."""
    player = seat.player
    _check_seat_free(target, to_seat, player, moving=seat)
    chips = _move_off(seat, to_table=target, actor=actor)
    moved = _new_seat(target, to_seat, player, choice, actor)
    ledger.cash_chips_record(
        seat=moved, kind=Kind.MOVE_IN, delta=chips, other_table=source, actor=actor
    )
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_move",
        table=source.number,
        seat=seat.seat,
        to_table=target.number,
        to_seat=to_seat,
        player=player.name,
        chips=chips,
    )
    return moved


def stack_to_list(
    *, seat: CashSeat, game: CashGame, queued_at: datetime, actor: Actor = None
) -> WaitingListEntry:
    """A player of a closing or breaking table with no seat to go to: to the game's list at
    `queued_at` (the top, as the caller orders), carrying the whole stack (a `move_out` to no
    table: no cash-out). The caller holds the table's lock."""
    chips = seat.chips
    ledger.cash_chips_record(
        seat=seat,
        kind=Kind.MOVE_OUT,
        delta=-chips,
        note=f"to the {game.name} list with the stack",
        actor=actor,
    )
    entry = (
        WaitingListEntry.objects.select_for_update()
        .filter(game=game, player=seat.player, status__in=waitlist.ACTIVE)
        .first()
    ) or WaitingListEntry(game=game, player=seat.player, code=waitlist.new_code())
    held = (entry.call_table, entry.call_seat) if entry.status == "called" else (None, None)
    entry.status, entry.queued_at = WaitingListEntry.Status.WAITING, queued_at
    entry.call_table, entry.call_seat, entry.hold_until, entry.called_at = None, None, None, None
    entry.carried_chips, entry.carried_from, entry.carried_sitting = chips, seat.table, seat.pk
    entry.save()
    seat.delete()
    if held[0] is not None and held[1] is not None:  # the seat they were called to: the next
        waitlist.waitlist_seat_opened(table=held[0], seat=held[1], actor=actor, skip=entry)
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_to_list",
        table=seat.table.number,
        seat=seat.seat,
        game=game.name,
        player=seat.player.name,
        chips=chips,
    )
    return entry


def stack_join(*, seat: CashSeat, into: CashSeat, actor: Actor = None) -> CashSeat:
    """A player of a closing or breaking table who already sits at a table of the game they
    go to: the stack joins that seat (a move out, a move in; one seat a game). Between the
    hands of that seat (409 `in_hand`); the caller holds both tables' locks."""
    if _in_hand(into.table, into):
        raise FloorConflict("in_hand", f"{into.player.name} is in a hand at {into.table}.")
    chips = _move_off(seat, to_table=into.table, actor=actor)
    ledger.cash_chips_record(
        seat=into,
        kind=Kind.MOVE_IN,
        delta=chips,
        other_table=seat.table,
        note="stack of a closed table joined",
        actor=actor,
    )
    return into


def carried_join(*, entry: WaitingListEntry, seat: CashSeat, actor: Actor = None) -> CashSeat:
    """The stack a player carries on the list joins the seat they have now (called to it, or
    moved there): a move in, and the entry holds nothing more."""
    if entry.carried_chips:
        ledger.cash_chips_record(
            seat=seat,
            kind=Kind.MOVE_IN,
            delta=entry.carried_chips,
            other_table=entry.carried_from,
            note="from the list with the stack",
            actor=actor,
        )
    return seat


@transaction.atomic
def cash_seat_from_list(
    *,
    entry: WaitingListEntry,
    table: Table,
    seat: int,
    choice: str = "wait_bb",
    actor: Actor = None,
) -> CashSeat:
    """A called player who waits with the stack of a closed or broken table sits down with it
    (a `move_in`, no buy-in check)."""
    table = lock_cash_table(table)
    _check_entry_choice(cash_table_rules(table), choice)
    _check_seat_free(table, seat, entry.player)
    taken = carried_join(
        entry=entry, seat=_new_seat(table, seat, entry.player, choice, actor), actor=actor
    )
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_seat_from_list",
        table=table.number,
        seat=seat,
        player=entry.player.name,
        chips=entry.carried_chips,
    )
    return taken


def _seat_locked(cash_seat: CashSeat) -> tuple[Table, CashSeat]:
    table = lock_cash_table(cash_seat.table)
    try:
        return table, CashSeat.objects.select_related("player").get(pk=cash_seat.pk)
    except CashSeat.DoesNotExist as error:
        raise FloorNotFound("not_found", "That player has left the table.") from error


@transaction.atomic
def cash_seat_sit_out(*, cash_seat: CashSeat, actor: Actor = None) -> CashSeat:
    """The player sits out from the next hand: blinds that pass the seat are missed (RULES.md 4)."""
    table, seat = _seat_locked(cash_seat)
    if seat.away:
        return seat
    seat.away, seat.away_since = True, timezone.now()
    seat.save(update_fields=["away", "away_since"])
    audit_record(
        tournament=None, actor=actor, action="cash_sit_out", table=table.number, seat=seat.seat
    )
    return seat


@transaction.atomic
def cash_seat_return(*, cash_seat: CashSeat, choice: str = "post", actor: Actor = None) -> CashSeat:
    """The player is back: they post what they owe as soon as the seat allows (`post`), or wait
    for the big blind (`wait_bb`), which settles everything owed."""
    if choice not in RETURN_CHOICES:
        raise FloorInvalid(
            "bad_choice", "Choose: post what is owed now, or wait for the big blind."
        )
    table, seat = _seat_locked(cash_seat)
    seat.away, seat.away_since = False, None
    seat.wait_big_blind = choice == "wait_bb"
    seat.save(update_fields=["away", "away_since", "wait_big_blind"])
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_back",
        table=table.number,
        seat=seat.seat,
        choice=choice,
    )
    return seat


class Leave(NamedTuple):
    """A player left: the chips they cashed out, and who was called to their seat (a game's
    table with someone waiting for it), if anyone."""

    chips: int
    called: WaitingListEntry | None


@transaction.atomic
def cash_seat_leave(*, cash_seat: CashSeat, actor: Actor = None) -> Leave:
    """The player leaves with their chips (a cash-out); the open seat goes to the next player
    for it."""
    table, seat = _seat_locked(cash_seat)
    if _in_hand(table, seat):
        raise FloorConflict(
            "in_hand", f"{seat.player.name} is in the hand in progress: leave once it is over."
        )
    chips = seat.chips
    ledger.cash_chips_record(seat=seat, kind=Kind.CASH_OUT, delta=-chips, actor=actor)
    seat.delete()
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_leave",
        table=table.number,
        seat=cash_seat.seat,
        player=cash_seat.player.name,
        chips=chips,
    )
    # A game's table: the open seat goes to the next player (must-move first, then the list).
    called = waitlist.waitlist_seat_opened(table=table, seat=cash_seat.seat, actor=actor)
    return Leave(chips, called)


@transaction.atomic
def cash_seat_top_up(*, cash_seat: CashSeat, amount: int, actor: Actor = None) -> CashSeat:
    """Add chips between hands, up to the table's maximum buy-in (table stakes, S1, S2: never
    during a hand the player is in; chips won above the maximum stay). A player with no chips
    left buys in again for at least the minimum."""
    table, seat = _seat_locked(cash_seat)
    if amount < 1:
        raise FloorInvalid("bad_amount", "Add at least one chip.")
    if _in_hand(table, seat):
        raise FloorConflict(
            "in_hand",
            "Table stakes: chips are added between hands, not while the player is in a hand.",
        )
    room = table.max_buy_in - seat.chips
    if room <= 0:
        raise FloorConflict(
            "at_maximum", f"{seat.player.name} has {seat.chips}: at or above the maximum buy-in."
        )
    if amount > room:
        raise FloorConflict(
            "over_maximum",
            f"At most {room} more: the maximum buy-in at {table} is {table.max_buy_in}.",
        )
    if seat.chips == 0 and amount < table.min_buy_in:
        raise FloorConflict(
            "under_minimum", f"Buying in again takes at least the minimum, {table.min_buy_in}."
        )
    ledger.cash_chips_record(seat=seat, kind=Kind.TOP_UP, delta=amount, actor=actor)
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_top_up",
        table=table.number,
        seat=seat.seat,
        amount=amount,
    )
    return seat


@transaction.atomic
def cash_seat_correct(
    *, cash_seat: CashSeat, chips: int, reason: str, actor: Actor = None
) -> CashSeat:
    """The floor sets a stack to the chips on the table (a rack miscounted, chips found under
    the rail): one `correction` row of the ledger for the difference, naming who and why, so the
    float and the cage count it. A floor supervisor's (director's) write only, between the
    hands the seat is in; a reason is required. A wrong hand is corrected by reopening it, not
    here. `actor` None is the system (tests and commands)."""
    if actor is not None and not is_director(actor):
        raise FloorForbidden("floor_only", "Only a floor supervisor corrects a stack.")
    reason = reason.strip()
    if not reason:
        raise FloorInvalid("reason_required", "Say why the stack is corrected.")
    if chips < 0:
        raise FloorInvalid("bad_amount", "A stack cannot be under 0.")
    table, seat = _seat_locked(cash_seat)
    if _in_hand(table, seat):
        raise FloorConflict(
            "in_hand",
            f"{seat.player.name} is in the hand being dealt: correct the stack after it, or "
            "reopen a wrong hand.",
        )
    if chips == seat.chips:
        raise FloorConflict("no_change", f"{seat.player.name} has {chips} already.")
    before = seat.chips
    ledger.cash_chips_record(
        seat=seat, kind=Kind.CORRECTION, delta=chips - before, note=reason, actor=actor
    )
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_correction",
        table=table.number,
        seat=seat.seat,
        old=before,
        new=chips,
        reason=reason[:200],
    )
    return seat


@transaction.atomic
def cash_table_draw_button(*, table: Table, rng: random.Random, actor: Actor = None) -> ButtonDraw:
    """The high-card draw for the first button (`initial_button=draw`; S0, S3, R): one card
    to each seated player from seat 1 clockwise, the high card wins; ties by the table's
    `draw_tiebreak`. Recorded with the cards."""
    table = lock_cash_table(table)
    if Hand.objects.filter(table=table).exists():
        raise FloorConflict("already_dealing", "The button is drawn before the first hand only.")
    seats = sorted(CashSeat.objects.filter(table=table, away=False).values_list("seat", flat=True))
    if len(seats) < 2:
        raise FloorConflict(
            "not_enough_players", "Seat at least two players to draw for the button."
        )
    rules = cash_table_rules(table)
    deck = DeckKind.SIXPLUS if rules.game == Game.SIXPLUS else DeckKind.STANDARD
    drawn = seating.button_draw_for_table(seats, rng, deck, rules.draw_tiebreak)
    winner, cards = drawn.winner_index, drawn.cards
    table.button_seat = seats[winner]
    table.save(update_fields=["button_seat"])
    draw = ButtonDraw.objects.create(
        table=table,
        seats=seats,
        cards=format_cards(cards),
        tiebreak=rules.draw_tiebreak,
        winner_seat=seats[winner],
    )
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_button_draw",
        table=table.number,
        cards=draw.cards,
        button=draw.winner_seat,
    )
    return draw


# --- the waiting list --------------------------------------------------------------------------


@transaction.atomic
def cash_waitlist_add(*, table: Table, player_name: str, actor: Actor = None) -> WaitingListEntry:
    """Put a player on the table's list; at a table dealing a game, on the game's list (one
    list says who is next for the game's seats)."""
    table = lock_cash_table(table)
    if table.cash_game is not None:
        return waitlist.game_waitlist_join(
            game=table.cash_game, player_name=player_name, actor=actor
        )
    name = clean_name(player_name)
    if not name:
        raise FloorInvalid("name_required", "Type the player's name.")
    player = player_get_or_create(name=name)
    if CashSeat.objects.filter(table=table, player=player).exists():
        raise FloorConflict("already_seated", f"{name} already has a seat at {table}.")
    if WaitingListEntry.objects.filter(
        table=table, player=player, status=WaitingListEntry.Status.WAITING
    ).exists():
        raise FloorConflict("already_waiting", f"{name} is already on the list for {table}.")
    entry = WaitingListEntry.objects.create(table=table, player=player)
    audit_record(
        tournament=None, actor=actor, action="cash_waitlist_add", table=table.number, player=name
    )
    return entry


@transaction.atomic
def cash_waitlist_remove(*, entry: WaitingListEntry, actor: Actor = None) -> None:
    """Take a player off the list (a game's entry: off the game's one list, a held seat going
    to the next player)."""
    if entry.game_id is not None:
        waitlist.game_waitlist_remove(entry=entry, actor=actor)
        return
    updated = WaitingListEntry.objects.filter(
        pk=entry.pk, status=WaitingListEntry.Status.WAITING
    ).update(status=WaitingListEntry.Status.REMOVED, closed_at=timezone.now())
    if updated:
        audit_record(
            tournament=None,
            actor=actor,
            action="cash_waitlist_remove",
            table=entry.table.number if entry.table else None,
            game=entry.game.name if entry.game else None,
            player=entry.player.name,
        )


# --- a hand's end ------------------------------------------------------------------------------


def cash_hand_end(
    hand: Hand, stacks: tuple[int, ...], rake: int, drop: int = 0, actor: Actor = None
) -> None:
    """A cash hand is over: each seat's result through the ledger (the stack's change, never
    the stack itself: chips added at a seat not in the hand stay), the house's rake and drop,
    then what the hand settled or left owed."""
    table = lock_cash_table(hand.table)  # as every cash write: seat changes queue behind it
    rows = {
        row.pk: row
        for row in CashSeat.objects.filter(table=table).select_related("player").order_by("pk")
    }
    results = [
        (played["cash_seat"], stack - played["stack"])
        for played, stack in zip(hand.seats, stacks, strict=True)
    ]
    ledger.cash_hand_record(
        hand=hand, seats=rows, results=results, rake=rake, drop=drop, actor=actor
    )
    current = [engine_seats_row(row) for row in rows.values()]
    aftermath = engine_cash.Aftermath.from_dict(hand.plan)
    for seat in engine_cash.after_hand(cash_table_rules(table), current, aftermath):
        row = rows[seat.key]
        changed = [f for f in OWED_FIELDS if getattr(row, f) != getattr(seat, f)]
        for field in changed:
            setattr(row, field, getattr(seat, field))
        if changed:
            row.save(update_fields=changed)


def cash_hand_reopen(*, hand: Hand, reason: str, actor: Actor = None) -> None:
    """A finished cash hand is opened again to correct it: its result, its rake and its drop are
    reversed through the ledger (the stacks and the cage as before its end); its next end
    writes the corrected result. The table is locked first, as every cash write does. Refused
    (409 `player_left`) when a player of the hand has left or changed tables since, and
    (409 `short_stack`) when a seat no longer holds what the hand gave it."""
    table = lock_cash_table(hand.table)
    ids = [row["cash_seat"] for row in hand.seats]
    rows = CashSeat.objects.filter(table=table, pk__in=ids).select_related("player")
    seats = {row.pk: row for row in rows}
    gone = [row["name"] for row in hand.seats if row["cash_seat"] not in seats]
    if gone:  # every player dealt in, the ones the hand left even too: its new end needs them
        raise FloorConflict(
            "player_left",
            f"{', '.join(gone)} of hand {hand.number} left or changed tables since: the floor "
            "corrects their chips at the cage instead of reopening the hand.",
        )
    ledger.cash_hand_reverse(hand=hand, seats=seats, reason=reason, actor=actor)
    audit_record(
        tournament=None,
        actor=actor,
        action="cash_hand_reopen",
        table=table.number,
        hand=hand.number,
        reason=reason,
    )
